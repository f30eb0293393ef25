"""The app's own keep-alive (issue 22, defect 7): ``{"type": "ping"}`` is answered ``{"type": "pong"}``
at once, on a player's socket and a spectator's, and never spends the intents' rate limit."""

from __future__ import annotations

import json
from typing import Any

from websockets.asyncio.client import connect

from backend.api.codes import PROTOCOL
from tests.support.client import create_table
from tests.support.services import ServerProcess


async def test_ping_is_answered_with_pong(shared_server: ServerProcess) -> None:
    anna, _ben = await create_table(shared_server.url, shared_server.ws_url)
    await anna.send_raw(json.dumps({"type": "ping"}))
    assert await anna.wait_for(lambda m: m["type"] == "pong") == {"type": "pong"}
    # an intent still works after it, and a ping with anything else in it is a bad message
    await anna.send_raw(json.dumps({"type": "ping", "id": 1}))
    refused = await anna.wait_for(lambda m: m["type"] == "rejected")
    assert refused["code"] == "bad_message"


async def test_spectator_ping_is_answered(shared_server: ServerProcess) -> None:
    anna, _ben = await create_table(shared_server.url, shared_server.ws_url, {"visibility": "public"})
    url = f"{shared_server.ws_url}/ws/rooms/{anna.room_id}/watch?protocol={PROTOCOL}"
    async with connect(url, compression=None, open_timeout=10) as ws:
        first: dict[str, Any] = json.loads(await ws.recv())
        assert first["type"] == "watch_state"
        await ws.send(json.dumps({"type": "ping"}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "pong":
                break


async def test_pings_do_not_spend_the_intent_rate_limit(database_url: str, tmp_path: Any) -> None:
    server = ServerProcess(database_url, tmp_path / "server.log", RATE_LIMIT_INTENTS="5", RATE_LIMIT_WINDOW_S="60")
    server.start()
    try:
        anna, _ben = await create_table(server.url, server.ws_url)
        for _ in range(15):  # more pings than intents allowed, and more than FLOOD_STRIKES
            await anna.send_raw(json.dumps({"type": "ping"}))
        for _ in range(15):
            await anna.wait_for(lambda m: m["type"] == "pong")
        for _ in range(5):
            answer = await anna.intent({"type": "chat", "text": "hello"})
            assert answer["type"] == "chat", answer
        assert not [m for m in anna.messages if m["type"] == "rejected"]
    finally:
        server.stop()
