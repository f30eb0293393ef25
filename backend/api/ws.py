"""The WebSocket endpoint: authenticate, then turn frames into intents for the room service.

Each socket gets an outbox (a queue drained by its own writer task), so a slow or dead
client never holds up the room that broadcasts to it; every send is guarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from backend.rooms.room import LiveRoom
from backend.rooms.service import RoomService, rejected
from backend.settings import Settings

from .deps import player_for_token
from .schemas import ChatIntent, Hello, PlayIntent, RematchIntent, ResignIntent, client_message

log = logging.getLogger(__name__)
router = APIRouter()

CLOSE_BAD_TOKEN = 4401
CLOSE_NOT_SEATED = 4403
CLOSE_UNKNOWN_ROOM = 4404
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
OUTBOX_LIMIT = 256  # queued messages before a client is judged too slow and dropped
FLOOD_STRIKES = 10  # rate-limited intents in a row before the socket is closed


class SocketOutbox:
    def __init__(self, websocket: WebSocket) -> None:
        self._socket = websocket
        self._queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._writer = asyncio.create_task(self._drain())
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self._queue.qsize() >= OUTBOX_LIMIT:
            self.close(CLOSE_POLICY, "too slow")
            return
        self._queue.put_nowait(("send", json.dumps(message, separators=(",", ":"))))

    def close(self, code: int, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(("close", (code, reason)))

    async def _drain(self) -> None:
        while True:
            kind, payload = await self._queue.get()
            try:
                if kind == "send":
                    await self._socket.send_text(payload)
                else:
                    await self._socket.close(*payload)
                    return
            except Exception:  # the peer is gone; the reader notices and cleans up
                self.closed = True
                return

    async def finish(self) -> None:
        """Let queued messages go out, then stop the writer."""
        self.close(1000)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, timeout=2)
        self._writer.cancel()


class TokenBucket:
    def __init__(self, capacity: int, window_s: float) -> None:
        self.capacity = capacity
        self.rate = capacity / window_s
        self.tokens = float(capacity)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: Origin protects browsers' users only
    if origin in settings.allowed_origins:
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host")


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    app = websocket.app
    settings: Settings = app.state.settings
    rooms: RoomService = app.state.rooms
    if not origin_allowed(websocket, settings):
        await websocket.close(CLOSE_POLICY, "origin not allowed")
        return
    await websocket.accept()
    token = websocket.query_params.get("token") or websocket.cookies.get("token")
    player = await player_for_token(app.state.store, token)
    if player is None:
        await websocket.close(CLOSE_BAD_TOKEN, "missing or wrong token")
        return
    room = await rooms.room(room_id) if len(room_id) <= 40 else None
    if room is None or room.status == "closed":
        await websocket.close(CLOSE_UNKNOWN_ROOM, "unknown room")
        return
    if room.seat_of(player.id) is None:
        await websocket.close(CLOSE_NOT_SEATED, "no seat in this room")
        return

    outbox = SocketOutbox(websocket)
    rooms.connect(room, player.id, outbox)
    bucket = TokenBucket(settings.rate_limit_intents, settings.rate_limit_window_s)
    strikes = 0
    try:
        while not outbox.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                outbox.send(rejected(None, "bad_message", "frames must be JSON text", room.version))
                continue
            if len(text.encode()) > settings.max_frame_bytes:
                outbox.close(CLOSE_TOO_BIG, "frame too large")
                break
            if not bucket.take():
                strikes += 1
                outbox.send(rejected(_message_id(text), "rate_limited", "too many messages; slow down", room.version))
                if strikes >= FLOOD_STRIKES:
                    outbox.close(CLOSE_POLICY, "flooding")
                    break
                continue
            strikes = 0
            await _handle(rooms, room, player.id, outbox, text)
    except WebSocketDisconnect:
        pass
    finally:
        rooms.disconnect(room, player.id, outbox)
        await outbox.finish()


def _message_id(text: str) -> int | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # deeply nested arrays exhaust the parser's stack
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if type(value) is int else None


async def _handle(rooms: RoomService, room: LiveRoom, player_id: str, outbox: SocketOutbox, text: str) -> None:
    try:
        message = client_message.validate_json(text)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "message"
        outbox.send(rejected(_message_id(text), "bad_message", f"{where}: {problem['msg']}", room.version))
        return
    match message:
        case Hello():
            rooms.send_state(room, player_id)
        case PlayIntent():
            await rooms.play(room, player_id, message.id, message.version, message.card, message.declare)
        case ResignIntent():
            await rooms.resign(room, player_id, message.id, message.version)
        case RematchIntent():
            await rooms.rematch(room, player_id, message.id, message.version, message.action)
        case ChatIntent():
            rooms.chat(room, player_id, message.id, message.text)
