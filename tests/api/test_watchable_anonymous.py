"""The live tables without signing in (issue 22): ``GET /api/rooms/watchable`` answers a visitor with
no token with the public tables being played that allow watching — never a private table, one
still waiting for its players, one whose players turned watching off, or a finished one — and
names no invite code. On SQLite and PostgreSQL (``shared_server``)."""

from __future__ import annotations

import httpx

from tests.support.client import Player, create_table
from tests.support.services import ServerProcess


async def test_a_visitor_without_an_account_sees_the_public_live_tables_only(shared_server: ServerProcess) -> None:
    url, ws_url = shared_server.url, shared_server.ws_url
    live = await create_table(url, ws_url)
    private = await create_table(url, ws_url, {"visibility": "private"})
    unwatched = await create_table(url, ws_url, {"spectators": False})
    finished = await create_table(url, ws_url)
    answer = await finished[0].intent({"type": "resign"})  # R6.2: the match is over
    assert answer["type"] == "state" and answer["view"]["end_reason"] == "resign"
    waiting_host = await Player(url, "Wanda").register()
    waiting = await waiting_host.post("/api/rooms", json={"target": 301, "visibility": "public", "opponent": "human"})
    assert waiting["status"] == "open"

    async with httpx.AsyncClient(base_url=url) as visitor:  # no Authorization header
        response = await visitor.get("/api/rooms/watchable")
    assert response.status_code == 200, response.text
    rooms = response.json()
    listed = {room["id"] for room in rooms}
    assert live[0].room_id in listed
    assert not {private[0].room_id, unwatched[0].room_id, finished[0].room_id, waiting["id"]} & listed
    for room in rooms:
        assert room["visibility"] == "public" and room["status"] == "playing"
        assert room["options"]["spectators"] is True
        assert room.get("invite_code") is None  # a visitor is seated nowhere: no way in but watching
    for seat in (*live, *private, *unwatched, *finished):
        await seat.close()
