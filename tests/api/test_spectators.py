"""Spectators over real sockets: a watch socket sees a whole match and never a hidden card (R7),
cannot act, is counted for the players, and is refused where the players or the caps say so."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from backend.api.codes import PROTOCOL
from backend.api.messages import validate_server_message
from backend.db.store import Store
from backend.engine import MatchState, name
from backend.engine.cards import cards_in
from backend.rooms.codes import CloseCode, RoomCode
from tests.api.test_hidden_information import _strings, _true_states
from tests.support.client import Player, Seat, create_table, play_moves
from tests.support.services import ServerProcess, serving

PER_ROOM = 3
PER_PROCESS = 5


@pytest.fixture(scope="module")
def watch_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("watch")
    with serving("sqlite", folder, SPECTATORS_PER_ROOM=str(PER_ROOM), SPECTATORS_PER_PROCESS=str(PER_PROCESS)) as s:
        yield s


class Watcher:
    """A spectator's socket, keeping every message (each checked against the server's models)."""

    def __init__(self, server: ServerProcess, room_id: str, code: str | None = None) -> None:
        self.url = f"{server.ws_url}/ws/rooms/{room_id}/watch?protocol={PROTOCOL}" + (f"&code={code}" if code else "")
        self.messages: list[dict[str, Any]] = []
        self.socket: ClientConnection | None = None
        self._inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> Watcher:
        self.socket = await connect(self.url, compression=None, open_timeout=10)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.socket is not None
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                validate_server_message(message)
                self.messages.append(message)
                self._inbox.put_nowait(message)
        except Exception:
            pass
        finally:
            self._inbox.put_nowait({"type": "_closed"})

    async def wait_for(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        async def scan() -> dict[str, Any]:
            while True:
                message = await self._inbox.get()
                if message["type"] == "_closed":
                    raise ConnectionError(f"closed with {self.close_code}")
                if predicate(message):
                    return message

        return await asyncio.wait_for(scan(), timeout)

    async def closed(self, timeout: float = 10) -> int | None:
        assert self._reader is not None
        await asyncio.wait_for(self._reader, timeout)
        return self.close_code

    @property
    def close_code(self) -> int | None:
        return None if self.socket is None else self.socket.close_code

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 5)


def _hidden_from_spectators(match: MatchState) -> set[str]:
    deal = match.deal
    hidden = {name(c) for seat in (0, 1) for c in cards_in(deal.hands[seat])} | {name(c) for c in deal.stock}
    if deal.stock_bottom is not None:
        hidden.discard(name(deal.stock_bottom))
    if not deal.over:
        hidden.add(str(deal.seed))
    return hidden


def assert_no_hidden_card(store: Store, room_id: str, seen: list[dict[str, Any]]) -> None:
    """Each spectator message, against the true state of its version: no hand, no stock, no
    drawn card (R7), in the view or in the events (but a deal's own end, which shows the hands);
    versions only go up."""
    states, first_version = _true_states(store, room_id)
    versions = [message["version"] for message in seen]
    assert versions == sorted(set(versions)), "a spectator was sent an older state after a newer one"
    for message in seen:
        assert message["room"]["invite_code"] is None
        if message["view"] is None:
            continue
        assert "hand" not in message["view"]["deal"] and "legal" not in message["view"]
        hidden = _hidden_from_spectators(states[message["version"] - first_version])
        leaked = hidden & set(_strings(message["view"]))
        assert not leaked, f"version {message['version']}: a spectator sees {leaked}"
        if not any(e["kind"] == "deal_over" for e in message["events"]):
            leaked = hidden & set(_strings(message["events"]))
            assert not leaked, f"version {message['version']}: a spectator is told {leaked}"
        assert all(e["card"] is None for e in message["events"] if e["kind"] == "card_drawn")


async def _count_seen(seat: Seat, count: int) -> None:
    await seat.wait_for(lambda m: m["type"] == "watchers" and m["count"] == count)


async def test_a_spectator_sees_every_state_of_a_match_and_no_hidden_card(watch_server: ServerProcess) -> None:
    store = Store(watch_server.database_url)
    try:
        for game in range(2):
            options = {"target": 301, "show_stock_bottom": game == 1}
            anna, ben = await create_table(watch_server.url, watch_server.ws_url, options)
            watcher = await Watcher(watch_server, anna.room_id).open()
            first = await watcher.wait_for(lambda m: m["type"] == "watch_state")
            await _count_seen(anna, 1)
            start = first["version"]
            await play_moves((anna, ben), random.Random(game))
            last = await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["view"]["winner"] is not None)
            seen = [m for m in watcher.messages if m["type"] == "watch_state"]
            # every state the players were sent after the spectator came, the spectator was sent too
            played = {m["version"] for m in anna.messages if m["type"] == "state" and m["version"] > start}
            assert played <= {m["version"] for m in seen}
            assert last["version"] == max(played)
            assert_no_hidden_card(store, anna.room_id, seen)
            assert len(seen) > 20
            assert any(e["kind"] == "card_drawn" for m in seen for e in m["events"])
            await watcher.close()
            await _count_seen(anna, 0)
            for seat in (anna, ben):
                await seat.close()
    finally:
        store.dispose()


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
