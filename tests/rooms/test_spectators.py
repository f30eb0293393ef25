"""Spectators in the rooms layer: turning watching on and off goes through ``decide`` (stored,
versioned, published); the spectators' hub keeps its caps, counts and one text per change."""

from __future__ import annotations

import json
from dataclasses import replace

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

    def send(self, text: str, version: int | None = None) -> None:
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
    state = started()
    room_2, room_3 = replace(state, id="r_2"), replace(state, id="r_3")
    assert hub.add(state.id, a, state) and hub.add(state.id, b, state)
    assert not hub.add(state.id, c, state)  # the table is full
    assert hub.add("r_2", c, room_2)
    assert not hub.add("r_3", d, room_3)  # the process is full
    assert counts == [(state.id, 1), (state.id, 2), ("r_2", 1)]
    assert len(a.sent) == len(b.sent) == 1  # each greeted with the current state
    player, card = mover(state)
    new, effects = step(state, cmd.PlayCard(player, 1, state.version, card, False))
    publish = next(e for e in effects if isinstance(e, Publish))
    hub.publish(new, publish.events)
    assert len(a.sent) == len(b.sent) == 2 and a.sent[1] is b.sent[1]  # one serialization, shared
    message = json.loads(a.sent[1])
    server_message.validate_python(message)
    assert message["type"] == "watch_state" and message["watchers"] == 2
    assert message["view"]["seat"] is None and message["view"]["deal"]["hand"] is None  # R7: no hand
    hub.remove(state.id, a)
    assert hub.count(state.id) == 1 and hub.total == 2 and counts[-1] == (state.id, 1)
    off, effects = step(new, cmd.SetSpectators(ANNA, False))
    hub.publish(off, ())
    assert b.closed is not None and b.closed[0] == CloseCode.WATCH_REFUSED


def test_a_spectator_away_from_the_owner_gets_versions_in_order_and_nothing_before_it_passes() -> None:
    """In a cluster: the owner's relayed messages may arrive while a newcomer's checks still read
    the database (held, not sent), and after it was greeted with a newer state (dropped)."""
    hub = Spectators()
    state = started()
    player, card = mover(state)
    newer, _ = step(state, cmd.PlayCard(player, 1, state.version, card, False))
    early, late, refused = Socket(), Socket(), Socket()
    assert hub.admit(state.id, early) and hub.admit(state.id, late) and hub.admit(state.id, refused)
    relay = {"kind": "watch", "version": newer.version, "text": "newer"}
    hub.relayed(state.id, relay)
    assert early.sent == late.sent == refused.sent == []  # nothing before its checks pass
    hub.remove(state.id, refused)  # e.g. a private table without its code: it never saw a thing
    hub.greet(early, state)  # its database read was older than what was relayed meanwhile
    assert early.sent == ["newer"]
    hub.greet(late, newer)
    hub.relayed(state.id, {"kind": "watch", "version": state.version, "text": "older"})
    hub.relayed(state.id, relay)
    assert early.sent == ["newer"] and len(late.sent) == 1 and json.loads(late.sent[0])["version"] == newer.version
    assert refused.sent == [] and hub.count(state.id) == 2 and hub.total == 2
    hub.relayed(state.id, {"kind": "close", "code": CloseCode.WATCH_REFUSED, "reason": "off"})
    assert early.closed == late.closed == (CloseCode.WATCH_REFUSED, "off")


def test_the_watch_code_is_not_the_invite_code() -> None:
    assert watch_code("inv") == watch_code("inv") != watch_code("inw")
    assert "inv" not in watch_code("inv") and len(watch_code("inv")) == 12
