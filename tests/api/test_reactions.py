"""Quick reactions over real sockets (issue 27): a fixed set of codes, sent to the other seated
people with the sender's seat, to spectators only when the table allows it, rate-limited per seat,
and muted per table by whoever does not want them. Refusals change nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from backend.rooms.codes import RoomCode
from backend.rooms.reactions import REACTIONS
from tests.support.client import Player, Seat, comparable_state, create_table
from tests.support.services import ServerProcess, serving
from tests.support.tables import Watcher, table

LIMIT = 3
WINDOW_S = 1.0  # small, so that the window passes within the test


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def react_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp(f"react-{request.param}")
    limits = {"REACTION_LIMIT": str(LIMIT), "REACTION_WINDOW_S": str(WINDOW_S)}
    with serving(request.param, folder, BOT_DELAY_S="0", **limits) as server:
        yield server


def _reactions(seat: Seat | Watcher) -> list[dict[str, Any]]:
    return [m for m in seat.messages if m["type"] == "reaction"]


def _seat(seat: Seat) -> int:
    assert seat.state is not None
    return int(seat.view["seat"])


async def _barrier(sender: Seat, *others: Seat) -> None:
    """A chat line after what was sent before: once the others have it, anything sent before it
    that was meant for them has arrived too (the room tells each socket in order)."""
    answer = await sender.intent({"type": "chat", "text": "barrier"})
    assert answer["type"] == "chat"
    for seat in others:
        await seat.wait_for(lambda m: m["type"] == "chat" and m["text"] == "barrier")


async def _watch_barrier(mover_seats: tuple[Seat, ...], watcher: Watcher) -> None:
    """A move, and its watch_state: what the room sent the spectators before it has arrived."""
    mover = next(seat for seat in mover_seats if seat.my_turn())
    answer = await mover.intent({"type": "play", "card": mover.legal_cards[0], "declare": False})
    assert answer["type"] == "state", answer
    await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["version"] == answer["version"])


async def test_a_reaction_reaches_the_other_seat_with_the_senders_seat(react_server: ServerProcess) -> None:
    anna, ben = await create_table(react_server.url, react_server.ws_url)
    assert anna.state is not None
    version = anna.state["version"]
    echo = await anna.intent({"type": "react", "reaction": "well_played"})
    assert echo["type"] == "reaction" and echo["seat"] == _seat(anna) and echo["reaction"] == "well_played"
    got = await ben.wait_for(lambda m: m["type"] == "reaction")
    assert got == {**echo, "reply_to": None}
    assert got["seat"] == _seat(anna) != _seat(ben)
    # a reaction is no change of the table: no new version
    await anna.send({"type": "hello"})
    assert (await anna.wait_for(lambda m: m["type"] == "state"))["version"] == version
    emoji = await ben.intent({"type": "react", "reaction": "thumbs_up"})
    assert emoji["seat"] == _seat(ben)
    assert (await anna.wait_for(lambda m: m["type"] == "reaction" and m["reply_to"] is None))["reaction"] == "thumbs_up"
    for seat in (anna, ben):
        await seat.close()


async def test_every_reaction_of_the_set_is_accepted_and_an_unknown_one_is_refused_changing_nothing(
    react_server: ServerProcess,
) -> None:
    anna, ben = await create_table(react_server.url, react_server.ws_url)
    assert anna.state is not None
    before = comparable_state(anna.state)
    refused = await anna.intent({"type": "react", "reaction": "boo"})
    assert refused["type"] == "rejected" and refused["code"] == RoomCode.UNKNOWN_REACTION
    assert refused["version"] == before["version"]
    free_text = await anna.intent({"type": "react", "reaction": "x" * 200})  # no free text either
    assert free_text["type"] == "rejected" and free_text["code"] == "bad_message"
    await anna.send({"type": "hello", "last_version": 0})
    state = await anna.wait_for(lambda m: m["type"] == "state")
    assert comparable_state(state) == before
    await _barrier(anna, ben)
    assert not _reactions(ben)
    # each code of the fixed set goes through (one seat after another, within the rate limit)
    codes = list(REACTIONS)
    for i, code in enumerate(codes):
        sender, other = (anna, ben) if (i // LIMIT) % 2 == 0 else (ben, anna)
        if i and i % (2 * LIMIT) == 0:
            await asyncio.sleep(WINDOW_S)
        echo = await sender.intent({"type": "react", "reaction": code})
        assert echo["type"] == "reaction", echo
        await other.wait_for(lambda m, code=code: m["type"] == "reaction" and m["reaction"] == code)
    for seat in (anna, ben):
        await seat.close()


async def test_the_rate_limit_refuses_a_seat_then_lets_it_react_again_after_the_window(
    react_server: ServerProcess,
) -> None:
    anna, ben = await create_table(react_server.url, react_server.ws_url)
    started = time.monotonic()
    for _ in range(LIMIT):
        assert (await anna.intent({"type": "react", "reaction": "oops"}))["type"] == "reaction"
    refused = await anna.intent({"type": "react", "reaction": "oops"})
    assert refused["type"] == "rejected" and refused["code"] == RoomCode.TOO_MANY_REACTIONS
    # per seat: Ben may still react
    assert (await ben.intent({"type": "react", "reaction": "laugh"}))["type"] == "reaction"
    await _barrier(anna, ben)
    assert len([m for m in _reactions(ben) if m["seat"] == _seat(anna)]) == LIMIT
    await asyncio.sleep(max(0.0, WINDOW_S - (time.monotonic() - started)) + 0.1)
    again = await anna.intent({"type": "react", "reaction": "thanks"})
    assert again["type"] == "reaction", again
    await ben.wait_for(lambda m: m["type"] == "reaction" and m["reaction"] == "thanks")
    for seat in (anna, ben):
        await seat.close()


async def test_mute_stops_delivery_to_that_seat_only_and_unmute_restores_it(react_server: ServerProcess) -> None:
    anna, ben = await create_table(react_server.url, react_server.ws_url)
    assert anna.state is not None and anna.state["reactions_muted"] is False
    muted = await ben.intent({"type": "mute_reactions", "muted": True})
    assert muted["type"] == "state" and muted["reactions_muted"] is True
    assert muted["version"] == anna.state["version"]  # not a change of the table
    echo = await anna.intent({"type": "react", "reaction": "hurry_up"})
    assert echo["type"] == "reaction"  # the sender still hears its own
    await _barrier(anna, ben)
    assert not _reactions(ben)
    # the choice is part of the seat's state: a new socket (a reload) shows it
    await ben.close()
    ben = Seat(ben.player, ben.room_id, ben.ws_url, next_id=100)  # a page goes on counting its ids
    state = await ben.connect()
    assert state["reactions_muted"] is True
    assert anna.state is not None
    await anna.send({"type": "hello"})
    assert (await anna.wait_for(lambda m: m["type"] == "state"))["reactions_muted"] is False  # Anna's own
    # a muted seat may still react, and the others see it
    assert (await ben.intent({"type": "react", "reaction": "wow"}))["type"] == "reaction"
    await anna.wait_for(lambda m: m["type"] == "reaction" and m["reaction"] == "wow")
    unmuted = await ben.intent({"type": "mute_reactions", "muted": False})
    assert unmuted["reactions_muted"] is False
    await anna.intent({"type": "react", "reaction": "good_luck"})
    got = await ben.wait_for(lambda m: m["type"] == "reaction")
    assert got["reaction"] == "good_luck" and got["seat"] == _seat(anna)
    for seat in (anna, ben):
        await seat.close()


async def test_spectators_see_no_reactions_unless_the_table_allows_it(react_server: ServerProcess) -> None:
    anna, ben = await create_table(react_server.url, react_server.ws_url)
    assert anna.state is not None and anna.state["room"]["options"]["reactions_for_spectators"] is False
    watcher = await Watcher(react_server, anna.room_id).open()
    await watcher.wait_for(lambda m: m["type"] == "watch_state")
    await anna.intent({"type": "react", "reaction": "well_played"})
    await _watch_barrier((anna, ben), watcher)
    assert not _reactions(watcher)
    # a spectator cannot react: refused, and nobody hears of it
    assert watcher.socket is not None
    await watcher.socket.send('{"type": "react", "id": 1, "version": 0, "reaction": "oops"}')
    refused = await watcher.wait_for(lambda m: m["type"] == "rejected")
    assert refused["code"] == RoomCode.SPECTATOR_CANNOT_ACT
    await _barrier(anna, ben)
    assert [m["reaction"] for m in _reactions(ben)] == ["well_played"]
    await watcher.close()
    for seat in (anna, ben):
        await seat.close()

    anna, ben = await create_table(react_server.url, react_server.ws_url, {"reactions_for_spectators": True})
    assert anna.state is not None and anna.state["room"]["options"]["reactions_for_spectators"] is True
    watcher = await Watcher(react_server, anna.room_id).open()
    first = await watcher.wait_for(lambda m: m["type"] == "watch_state")
    assert first["room"]["options"]["reactions_for_spectators"] is True
    echo = await ben.intent({"type": "react", "reaction": "nice_try"})
    got = await watcher.wait_for(lambda m: m["type"] == "reaction")
    assert got == {**echo, "reply_to": None} and got["seat"] == _seat(ben)
    await watcher.close()
    for seat in (anna, ben):
        await seat.close()


async def test_a_three_seat_table_tells_both_others_and_mutes_one_of_them(react_server: ServerProcess) -> None:
    anna, ben, cleo = await table(react_server, "bidding", 3, 301, people=3)
    assert {_seat(s) for s in (anna, ben, cleo)} == {0, 1, 2}
    echo = await cleo.intent({"type": "react", "reaction": "good_luck"})
    for other in (anna, ben):
        got = await other.wait_for(lambda m: m["type"] == "reaction")
        assert got["seat"] == _seat(cleo) and got["reaction"] == "good_luck" and got["at"] == echo["at"]
    await anna.intent({"type": "mute_reactions", "muted": True})
    await ben.intent({"type": "react", "reaction": "laugh"})
    await cleo.wait_for(lambda m: m["type"] == "reaction" and m["seat"] == _seat(ben))
    await _barrier(ben, anna, cleo)
    assert [m["seat"] for m in _reactions(anna)] == [_seat(cleo)]
    for seat in (anna, ben, cleo):
        await seat.close()


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_every_reaction_has_a_label_in_every_language(language: str) -> None:
    """The client shows ``reaction.<code>`` (the emoji's spoken name too): each code of the fixed set."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "frontend" / "js" / "i18n" / f"{language}.js").read_text("utf-8")
    labels = dict(re.findall(r"""^\s*'reaction\.([a-z_]+)':\s*'((?:[^'\\]|\\.)*)'""", text, re.MULTILINE))
    assert set(labels) == set(REACTIONS)
    assert all(label.strip() for label in labels.values())


async def test_a_player_allows_the_spectators_the_reactions_at_the_table(react_server: ServerProcess) -> None:
    """``PATCH /api/rooms/{id}`` ``{"reactions_for_spectators": true}`` by a seated player (a change of
    the room: stored, a new version); a stranger is ``403 not_seated``; an empty body is ``422``."""
    anna, ben = await create_table(react_server.url, react_server.ws_url)
    watcher = await Watcher(react_server, anna.room_id).open()
    await watcher.wait_for(lambda m: m["type"] == "watch_state")
    path = f"/api/rooms/{anna.room_id}"
    assert (await ben.player.request("PATCH", path, json={})).status_code == 422
    stranger = await Player(react_server.url, "Zed").register()
    refused = await stranger.request("PATCH", path, json={"reactions_for_spectators": True})
    assert refused.status_code == 403 and refused.json()["detail"]["code"] == RoomCode.NOT_SEATED
    changed = await ben.player.request("PATCH", path, json={"reactions_for_spectators": True})
    assert changed.status_code == 200, changed.text
    assert changed.json()["options"]["reactions_for_spectators"] is True
    assert changed.json()["options"]["spectators"] is True  # left as it was
    state = await anna.wait_for(lambda m: m["type"] == "state" and m["room"]["options"]["reactions_for_spectators"])
    seen = await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["version"] == state["version"])
    assert seen["room"]["options"]["reactions_for_spectators"] is True
    echo = await anna.intent({"type": "react", "reaction": "thanks"})
    assert await watcher.wait_for(lambda m: m["type"] == "reaction") == {**echo, "reply_to": None}
    # stored: a new socket (or a rebuilt room) has it
    fetched = await anna.player.get(path)
    assert fetched["options"]["reactions_for_spectators"] is True
    await watcher.close()
    for seat in (anna, ben):
        await seat.close()
