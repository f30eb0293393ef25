"""The socket protocol's version (docs/protocol.md, "Versions"): every page names it as
``?protocol=2``; a page's socket naming none (a page from before protocol 2) or another is closed at
once with 4426, told nothing, so that the page reloads — players' and spectators' sockets alike. A
non-browser client opening with its token may leave it out (it speaks the current one), but not name
another."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from backend.api.codes import PROTOCOL
from backend.rooms.codes import CloseCode
from tests.support.client import Seat, create_table
from tests.support.services import ServerProcess

OUTDATED = [pytest.param("", id="none"), pytest.param("&protocol=1", id="protocol1")]


async def _closed_at_once(url: str) -> tuple[int | None, list[Any]]:
    """Open ``url`` and read until the server closes it: the close code and every message sent before."""
    received: list[Any] = []
    async with connect(url, compression=None, open_timeout=10) as socket:

        async def read() -> None:
            try:
                async for raw in socket:
                    received.append(json.loads(raw))
            except ConnectionClosed:
                pass

        await asyncio.wait_for(read(), 10)
        return socket.close_code, received


@pytest.mark.parametrize("version", OUTDATED)
async def test_a_players_socket_of_another_protocol_is_closed_with_4426_and_told_nothing(
    shared_server: ServerProcess, version: str
) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url)
    before = anna.state
    assert before is not None
    await ben.close()
    ticket = (await ben.player.post("/api/socket-ticket"))["ticket"]
    url = f"{shared_server.ws_url}/ws/rooms/{ben.room_id}?ticket={ticket}{version}"
    assert await _closed_at_once(url) == (CloseCode.OUTDATED_CLIENT, [])  # no state, no chat log
    # before its ticket or its room is even looked at: the page must reload, not sign in again
    nothing = f"{shared_server.ws_url}/ws/rooms/r_nosuchroom?ticket=wrong{version}"
    assert await _closed_at_once(nothing) == (CloseCode.OUTDATED_CLIENT, [])

    # The page reloaded speaks protocol 2: its socket gets the state, and the match goes on.
    again = Seat(ben.player, ben.room_id, shared_server.ws_url)
    state = await again.connect()
    assert state["version"] == before["version"] and state["view"]["seat"] == 1
    await again.wait_for(lambda m: m["type"] == "chat_log")
    mover = anna if anna.my_turn() else again
    answer = await mover.intent(mover.choose(random.Random(1)))
    assert answer["type"] == "state" and answer["version"] == before["version"] + 1
    for seat in (anna, again):
        await seat.close()


@pytest.mark.parametrize("version", OUTDATED)
async def test_a_spectators_socket_of_another_protocol_is_closed_with_4426_and_told_nothing(
    shared_server: ServerProcess, version: str
) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url)  # public: anyone may watch
    url = f"{shared_server.ws_url}/ws/rooms/{anna.room_id}/watch"
    assert await _closed_at_once(url + version.replace("&", "?")) == (CloseCode.OUTDATED_CLIENT, [])

    async with connect(f"{url}?protocol={PROTOCOL}", compression=None, open_timeout=10) as socket:
        first = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert first["type"] == "watch_state" and first["view"]["seat"] is None
        assert first["version"] == anna.state["version"]  # type: ignore[index]
        # the players are told of this spectator only: the outdated socket was never counted
        counted = await anna.wait_for(lambda m: m["type"] == "watchers")
        assert counted["count"] == 1
    for seat in (anna, ben):
        await seat.close()


async def test_a_token_client_without_a_protocol_speaks_the_current_one_but_not_another(
    shared_server: ServerProcess,
) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url)
    await ben.close()
    url = f"{shared_server.ws_url}/ws/rooms/{ben.room_id}?token={ben.player.token}"
    async with connect(url, compression=None, open_timeout=10) as socket:  # a script, as the container probe
        first = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert first["type"] == "state" and first["view"]["seat"] == 1
    assert await _closed_at_once(url + "&protocol=1") == (CloseCode.OUTDATED_CLIENT, [])
    await anna.close()
