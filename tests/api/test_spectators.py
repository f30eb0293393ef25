"""Spectators over real sockets: a watch socket sees a whole match of any game and never a hidden
card (R7, V0.11), cannot act, is counted for the players, and is refused where the players or the
caps say so."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.rooms.codes import CloseCode, RoomCode
from tests.support.client import Player, Seat, create_table
from tests.support.services import ServerProcess, serving
from tests.support.tables import Watcher, assert_watched_no_hidden_card, play_to_the_end, table

PER_ROOM = 3
PER_PROCESS = 5


@pytest.fixture(scope="module")
def watch_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("watch")
    limits = {"SPECTATORS_PER_ROOM": str(PER_ROOM), "SPECTATORS_PER_PROCESS": str(PER_PROCESS)}
    with serving("sqlite", folder, BOT_DELAY_S="0", **limits) as s:
        yield s


async def _count_seen(seat: Seat, count: int) -> None:
    await seat.wait_for(lambda m: m["type"] == "watchers" and m["count"] == count)


# (variant, seats, people, options): two people at two-hand 1001 (R4's stock, R2's faced bottom card),
# one person and two computers at V7 (V0.7: the talon and the discards are the declarer's only).
WATCHED = [
    pytest.param("twohand", 2, 2, {}, id="twohand"),
    pytest.param("twohand", 2, 2, {"show_stock_bottom": True}, id="twohand-stock_bottom"),
    pytest.param("bidding", 3, 1, {}, id="bidding3"),
]


@pytest.mark.parametrize(("variant", "seats", "people", "options"), WATCHED)
async def test_r7_v0_11_a_spectator_sees_every_state_of_a_match_and_no_hidden_card(
    watch_server: ServerProcess, variant: str, seats: int, people: int, options: dict[str, Any]
) -> None:
    players = await table(watch_server, variant, seats, 301, people=people, **options)
    anna = players[0]
    assert anna.state is not None
    private = anna.state["room"]["visibility"] == "private"  # a table with computers is private
    code = (await anna.player.post(f"/api/rooms/{anna.room_id}/watch-link"))["code"] if private else None
    watcher = await Watcher(watch_server, anna.room_id, code).open()
    first = await watcher.wait_for(lambda m: m["type"] == "watch_state")
    await _count_seen(anna, 1)
    await play_to_the_end(players, random.Random(f"{variant}{options}"))
    last = await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["view"]["end_reason"] is not None)
    seen = [m for m in watcher.messages if m["type"] == "watch_state"]
    # every state the players were sent after the spectator came, the spectator was sent too
    played = {m["version"] for m in anna.messages if m["type"] == "state" and m["version"] > first["version"]}
    assert played <= {m["version"] for m in seen}
    assert last["version"] == max(played)
    assert last["view"]["totals"] == anna.view["totals"] and last["view"]["places"] == anna.view["places"]
    assert_watched_no_hidden_card(watch_server.database_url, anna.room_id, seen)
    assert len(seen) > 20
    events = {e["kind"] for m in seen for e in m["events"]}  # told of every step, without the cards
    # R4 phase 1's draws; V0.6 and V0.7: no match reaches the target without an auction won
    assert ({"card_drawn"} if variant == "twohand" else {"bid", "pass", "talon_taken", "discarded"}) <= events
    await watcher.close()
    await _count_seen(anna, 0)
    for seat in players:
        await seat.close()


async def test_spectator_intents_are_refused_and_change_nothing(watch_server: ServerProcess) -> None:
    anna, ben = await create_table(watch_server.url, watch_server.ws_url)
    watcher = await Watcher(watch_server, anna.room_id).open()
    state = await watcher.wait_for(lambda m: m["type"] == "watch_state")
    mover = anna if anna.my_turn() else ben
    card = mover.legal_cards[0]
    intents = [
        {"type": "play", "id": 1, "version": state["version"], "card": card, "declare": False},
        {"type": "resign", "id": 2, "version": state["version"]},
        {"type": "chat", "id": 3, "version": state["version"], "text": "hello players"},
        {"type": "hello"},
    ]
    for intent in intents:
        assert watcher.socket is not None
        await watcher.socket.send(json.dumps(intent))
        answer = await watcher.wait_for(lambda m: m["type"] == "rejected")
        assert answer["code"] == RoomCode.SPECTATOR_CANNOT_ACT
        assert answer["id"] == intent.get("id")
        assert answer["version"] == state["version"]
    # nothing changed: the mover still holds the card and may play it at the same version
    answer = await mover.intent({"type": "play", "card": card, "declare": False})
    assert answer["type"] == "state" and answer["version"] == state["version"] + 1
    assert not [m for m in anna.messages + ben.messages if m["type"] == "chat"]
    await watcher.close()
    for seat in (anna, ben):
        await seat.close()


async def test_players_see_the_watcher_count_go_up_and_down(watch_server: ServerProcess) -> None:
    anna, ben = await create_table(watch_server.url, watch_server.ws_url)
    await anna.wait_for(lambda m: m["type"] == "presence" and m["connected"])  # Ben's socket is open
    before = len(anna.messages), len(ben.messages)
    one = await Watcher(watch_server, anna.room_id).open()
    await _count_seen(anna, 1)
    two = await Watcher(watch_server, anna.room_id).open()
    await _count_seen(anna, 2)
    await _count_seen(ben, 2)
    second = await two.wait_for(lambda m: m["type"] == "watch_state")
    assert second["watchers"] == 2
    await one.close()
    await _count_seen(anna, 1)
    await two.close()
    await _count_seen(ben, 0)
    # spectators never count for presence (R6.2): coming and going, they changed no seat's
    # presence and no version of the room
    later = anna.messages[before[0] :] + ben.messages[before[1] :]
    assert {m["type"] for m in later} == {"watchers"}
    # a player who comes back is told the count
    three = await Watcher(watch_server, anna.room_id).open()
    await _count_seen(anna, 1)
    await anna.close()
    again = Seat(anna.player, anna.room_id, anna.ws_url)
    await again.connect()
    await _count_seen(again, 1)
    await three.close()
    for seat in (again, ben):
        await seat.close()


async def test_a_private_table_needs_its_watch_link(watch_server: ServerProcess) -> None:
    anna, ben = await create_table(watch_server.url, watch_server.ws_url, {"visibility": "private"})
    refused = await Watcher(watch_server, anna.room_id).open()
    assert await refused.closed() == CloseCode.WATCH_REFUSED
    wrong = await Watcher(watch_server, anna.room_id, "0123456789ab").open()
    assert await wrong.closed() == CloseCode.WATCH_REFUSED
    stranger = await Player(watch_server.url, "Cleo").register()
    answer = await stranger.request("POST", f"/api/rooms/{anna.room_id}/watch-link")
    assert answer.status_code == 403 and answer.json()["detail"]["code"] == RoomCode.NOT_SEATED
    link = await anna.player.post(f"/api/rooms/{anna.room_id}/watch-link")
    assert link["room_id"] == anna.room_id and link["code"] != anna.state["room"]["invite_code"]  # type: ignore[index]
    assert (await ben.player.post(f"/api/rooms/{anna.room_id}/watch-link"))["code"] == link["code"]
    watcher = await Watcher(watch_server, anna.room_id, link["code"]).open()
    state = await watcher.wait_for(lambda m: m["type"] == "watch_state")
    assert state["room"]["visibility"] == "private" and state["room"]["invite_code"] is None
    await watcher.close()
    # the watch code lets nobody join
    assert (await stranger.request("POST", f"/api/invites/{link['code']}/join")).status_code == 404
    for seat in (anna, ben):
        await seat.close()


async def test_watching_turned_off_and_unknown_tables_are_refused(watch_server: ServerProcess) -> None:
    anna, ben = await create_table(watch_server.url, watch_server.ws_url, {"spectators": False})
    assert anna.state is not None and anna.state["room"]["options"]["spectators"] is False
    refused = await Watcher(watch_server, anna.room_id).open()
    assert await refused.closed() == CloseCode.WATCH_REFUSED
    unknown = await Watcher(watch_server, "r_nosuchroom").open()
    assert await unknown.closed() == CloseCode.UNKNOWN_ROOM
    for seat in (anna, ben):
        await seat.close()


async def test_the_caps_per_table_and_per_process(watch_server: ServerProcess) -> None:
    first = await create_table(watch_server.url, watch_server.ws_url)
    second = await create_table(watch_server.url, watch_server.ws_url)
    room_a, room_b = first[0].room_id, second[0].room_id
    watching = [await Watcher(watch_server, room_a).open() for _ in range(PER_ROOM)]
    for watcher in watching:
        await watcher.wait_for(lambda m: m["type"] == "watch_state")
    over_table = await Watcher(watch_server, room_a).open()
    assert await over_table.closed() == CloseCode.WATCH_FULL
    for _ in range(PER_PROCESS - PER_ROOM):
        watcher = await Watcher(watch_server, room_b).open()
        await watcher.wait_for(lambda m: m["type"] == "watch_state")
        watching.append(watcher)
    over_process = await Watcher(watch_server, room_b).open()
    assert await over_process.closed() == CloseCode.WATCH_FULL
    await watching[0].close()  # a place is free again
    await _count_seen(first[0], PER_ROOM - 1)
    late = await Watcher(watch_server, room_b).open()
    await late.wait_for(lambda m: m["type"] == "watch_state")
    for watcher in [*watching[1:], late]:
        await watcher.close()
    for seat in (*first, *second):
        await seat.close()


async def test_the_lobby_lists_public_tables_being_played_that_allow_watching(watch_server: ServerProcess) -> None:
    public = await create_table(watch_server.url, watch_server.ws_url)
    private = await create_table(watch_server.url, watch_server.ws_url, {"visibility": "private"})
    closed = await create_table(watch_server.url, watch_server.ws_url, {"spectators": False})
    listed = {room["id"] for room in await public[0].player.get("/api/rooms/watchable")}
    assert public[0].room_id in listed
    assert not {private[0].room_id, closed[0].room_id} & listed
    for seat in (*public, *private, *closed):
        await seat.close()


async def test_players_turn_watching_off_and_on_during_play(watch_server: ServerProcess) -> None:
    anna, ben = await create_table(watch_server.url, watch_server.ws_url)
    watcher = await Watcher(watch_server, anna.room_id).open()
    first = await watcher.wait_for(lambda m: m["type"] == "watch_state")
    stranger = await Player(watch_server.url, "Dora").register()
    refused = await stranger.request("PATCH", f"/api/rooms/{anna.room_id}", json={"spectators": False})
    assert refused.status_code == 403 and refused.json()["detail"]["code"] == RoomCode.NOT_SEATED
    room = (await ben.player.request("PATCH", f"/api/rooms/{anna.room_id}", json={"spectators": False})).json()
    assert room["options"]["spectators"] is False and room["version"] == first["version"] + 1
    # the spectator watching is sent away, the players get the new state, new spectators are refused
    assert await watcher.closed() == CloseCode.WATCH_REFUSED
    await anna.wait_for(lambda m: m["type"] == "state" and m["room"]["options"]["spectators"] is False)
    late = await Watcher(watch_server, anna.room_id).open()
    assert await late.closed() == CloseCode.WATCH_REFUSED
    await anna.player.request("PATCH", f"/api/rooms/{anna.room_id}", json={"spectators": True})
    again = await Watcher(watch_server, anna.room_id).open()
    state = await again.wait_for(lambda m: m["type"] == "watch_state")
    assert state["room"]["options"]["spectators"] is True
    # the match goes on as before
    await ben.wait_for(lambda m: m["type"] == "state" and m["version"] == state["version"])
    mover = anna if anna.my_turn() else ben
    answer = await mover.intent(mover.choose(random.Random(1)))
    assert answer["type"] == "state"
    await again.wait_for(lambda m: m["type"] == "watch_state" and m["version"] == answer["version"])
    await again.close()
    for seat in (anna, ben):
        await seat.close()


async def test_a_stranger_changing_a_private_table_is_told_not_seated_as_at_a_public_one(
    watch_server: ServerProcess,
) -> None:
    """docs/protocol.md: PATCH by a signed-in player without a seat is ``403 not_seated`` at a private
    table too (as ``watch-link`` answers), not ``404``; the table is unchanged."""
    anna, ben = await create_table(watch_server.url, watch_server.ws_url, {"visibility": "private"})
    stranger = await Player(watch_server.url, "Dora").register()
    for path, method in ((f"/api/rooms/{anna.room_id}", "PATCH"), (f"/api/rooms/{anna.room_id}/watch-link", "POST")):
        refused = await stranger.request(method, path, json={"spectators": False})
        assert refused.status_code == 403 and refused.json()["detail"]["code"] == RoomCode.NOT_SEATED
    unknown = await stranger.request("PATCH", "/api/rooms/r_nothing", json={"spectators": False})
    assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == RoomCode.ROOM_NOT_FOUND
    room = await anna.player.get(f"/api/rooms/{anna.room_id}")
    assert room["options"]["spectators"] is True and room["version"] == anna.state["version"]
    for seat in (anna, ben):
        await seat.close()
