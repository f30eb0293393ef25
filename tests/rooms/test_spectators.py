"""Spectators in the rooms layer: turning watching on and off goes through ``decide`` (stored,
versioned, published); the spectators' hub keeps its caps, counts and one text per change."""

from __future__ import annotations

import json

from backend.db.writes import OptionsWrite
from backend.rooms import commands as cmd
from backend.rooms.codes import CloseCode, RoomCode
from backend.rooms.effects import Persist, Publish, Reject
from backend.rooms.messages import server_message
from backend.rooms.options import TableOptions
from backend.rooms.watch import Spectators, WatchLimits, watch_code
from tests.rooms.test_decide import ANNA, BEN, mover, started, step


class Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


def test_a_player_turns_watching_off_through_decide_and_it_is_stored() -> None:
    state = started()
    new, effects = step(state, cmd.SetSpectators(BEN, False))
    assert new.version == state.version + 1 and new.options.spectators is False
    assert effects == [Persist(OptionsWrite(state.id, state.version, new.options.to_json())), Publish(())]
    assert TableOptions.from_json(new.options.to_json()).spectators is False  # survives a rebuild
    again, nothing = step(new, cmd.SetSpectators(ANNA, False))
    assert again is new and nothing == []


def test_only_seated_players_change_watching() -> None:
    state = started()
    same, effects = step(state, cmd.SetSpectators("p_stranger", False))
    assert same.version == state.version and same.options.spectators is True
    assert [type(e) for e in effects] == [Reject] and effects[0].refusal.code == RoomCode.NOT_SEATED  # type: ignore[attr-defined]


def test_the_hub_caps_counts_and_shares_one_text_per_change() -> None:
    counts: list[tuple[str, int]] = []
    hub = Spectators(WatchLimits(per_room=2, per_process=3))
    hub.on_count = lambda room, n: counts.append((room, n))
    a, b, c, d = Socket(), Socket(), Socket(), Socket()
    assert hub.add("r_1", a) and hub.add("r_1", b)
    assert not hub.add("r_1", c)  # the table is full
    assert hub.add("r_2", c)
    assert not hub.add("r_3", d)  # the process is full
    assert counts == [("r_1", 1), ("r_1", 2), ("r_2", 1)]
    state = started()
    player, card = mover(state)
    new, effects = step(state, cmd.PlayCard(player, 1, state.version, card, False))
    publish = next(e for e in effects if isinstance(e, Publish))
    hub.publish(new, publish.events)
    assert len(a.sent) == len(b.sent) == 1 and a.sent[0] is b.sent[0]  # one serialization, shared
    message = json.loads(a.sent[0])
    server_message.validate_python(message)
    assert message["type"] == "watch_state" and message["watchers"] == 2 and "hand" not in message["view"]["deal"]
    hub.remove("r_1", a)
    assert hub.count("r_1") == 1 and hub.total == 2 and counts[-1] == ("r_1", 1)
    off, effects = step(new, cmd.SetSpectators(ANNA, False))
    hub.publish(off, ())
    assert b.closed is not None and b.closed[0] == CloseCode.WATCH_REFUSED


def test_the_watch_code_is_not_the_invite_code() -> None:
    assert watch_code("inv") == watch_code("inv") != watch_code("inw")
    assert "inv" not in watch_code("inv") and len(watch_code("inv")) == 12
