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
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any, cast
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from backend.db.database import UNREACHABLE
from backend.db.models import Player
from backend.rooms import commands as cmd
from backend.rooms.codes import RoomCode
from backend.rooms.messages import PongMessage, RejectedMessage
from backend.rooms.refused import DATABASE_AWAY
from backend.rooms.service import RoomRefused, Rooms
from backend.settings import Settings

from .codes import PROTOCOL, CloseCode, TransportCode
from .deps import player_for_token
from .schemas import (
    BidIntent,
    ChatIntent,
    DiscardIntent,
    Hello,
    HintIntent,
    MuteReactionsIntent,
    PassIntent,
    Ping,
    PlayIntent,
    ReactIntent,
    RematchIntent,
    ResignIntent,
    client_message,
)

log = logging.getLogger(__name__)
router = APIRouter()

OUTBOX_LIMIT = 256  # queued messages before a client is judged too slow and dropped
FLOOD_STRIKES = 10  # rate-limited intents in a row before the socket is closed
PING_ALLOWANCE = 20  # app-level pings answered per rate window (beside the intents'); more go unanswered
PONG = PongMessage().model_dump_json()
_ping = TypeAdapter(Ping)


def rejected(msg_id: int | None, code: str, message: str, version: int) -> str:
    return RejectedMessage(id=msg_id, code=code, message=message, version=version).model_dump_json()


class SocketOutbox:
    def __init__(self, websocket: WebSocket) -> None:
        self._socket = websocket
        self._queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._writer = asyncio.create_task(self._drain())
        self.closed = False
        self.sent = 0  # messages queued for the client so far
        self.state_version = -1  # the newest room state queued for the client

    def send(self, text: str, version: int | None = None) -> None:
        if self.closed:
            return
        if version is not None:
            if version < self.state_version:
                return  # an older state than the client has (a stale copy answering): dropped
            self.state_version = version
        if self._queue.qsize() >= OUTBOX_LIMIT:
            self.close(CloseCode.POLICY, "too slow")
            return
        self.sent += 1
        self._queue.put_nowait(("send", text))

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


async def _accept(websocket: WebSocket, settings: Settings, *, page: bool) -> bool:
    """Refuse a browser page of another site before the handshake completes; else accept, and close a
    socket that speaks another protocol version at once, telling its page to reload.

    A page (a player's socket opened with a one-time ticket, or a spectator's) must name the protocol:
    one that names none was loaded before protocol 2. A non-browser client authenticated by its token
    may leave it out and speaks the current one."""
    if not origin_allowed(websocket, settings):
        await websocket.close(CloseCode.POLICY, "origin not allowed")
        return False
    await websocket.accept()
    version = websocket.query_params.get("protocol")
    if version != str(PROTOCOL) and (version is not None or page):
        await websocket.close(CloseCode.OUTDATED_CLIENT, f"this page is out of date (protocol {PROTOCOL}): reload it")
        return False
    return True


async def _authenticate(websocket: WebSocket) -> Player | None:
    """A one-time ticket (what the browser uses), else a token for non-browser clients.

    Neither is ever logged (``backend.ops.redaction``)."""
    store = websocket.app.state.store
    ticket = websocket.query_params.get("ticket")
    if ticket:
        if len(ticket) > 100:
            return None
        return await asyncio.to_thread(store.players.redeem_ticket, ticket)
    token = websocket.query_params.get("token") or websocket.cookies.get("token")
    return await player_for_token(store, token)


class SocketsByAddress:
    """The sockets each client address holds open on this process, at most ``cap`` each: one
    address cannot take every connection a process can serve."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open: Counter[str] = Counter()

    def take(self, address: str) -> bool:
        """Count one more connection of ``address`` if it may hold one (a socket or a lobby stream)."""
        if self._open[address] >= self.cap:
            return False
        self._open[address] += 1
        return True

    def give_back(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]

    @contextlib.asynccontextmanager
    async def admitted(self, websocket: WebSocket) -> AsyncIterator[bool]:
        address = websocket.client.host if websocket.client else ""
        if not self.take(address):
            await websocket.accept()  # so that the client can read why
            await websocket.close(CloseCode.TOO_MANY_SOCKETS, "too many sockets from this address")
            yield False
            return
        try:
            yield True
        finally:
            self.give_back(address)


def _sockets_by_address(websocket: WebSocket) -> SocketsByAddress:
    return cast(SocketsByAddress, websocket.app.state.sockets_by_address)


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    async with _sockets_by_address(websocket).admitted(websocket) as admitted:
        if admitted:
            await _play(websocket, room_id)


@router.websocket("/ws/rooms/{room_id}/watch")
async def watch_socket(websocket: WebSocket, room_id: str) -> None:
    """A spectator: no account and no token; public tables by id, private ones with ``?code=``.

    It is sent ``watch_state`` messages (public information only) and may send nothing that acts:
    every intent is answered ``rejected`` with ``spectator_cannot_act``."""
    async with _sockets_by_address(websocket).admitted(websocket) as admitted:
        if admitted:
            await _watch(websocket, room_id)


async def _play(websocket: WebSocket, room_id: str) -> None:
    app = websocket.app
    settings: Settings = app.state.settings
    rooms: Rooms = app.state.rooms
    if not await _accept(websocket, settings, page="ticket" in websocket.query_params):
        return
    try:
        player = await _authenticate(websocket)
        record = await asyncio.to_thread(app.state.store.rooms.record, room_id) if len(room_id) <= 40 else None
    except UNREACHABLE as error:  # the database is away: the client reconnects in a moment
        log.info("a socket could not be opened: the database is unreachable: %s", error)
        await websocket.close(CloseCode.TRY_AGAIN, "the database is unreachable for a moment; reconnect")
        return
    if player is None:
        await websocket.close(CloseCode.BAD_TOKEN, "missing or wrong token or ticket")
        return
    if record is None or record.room.status == "closed":
        await websocket.close(CloseCode.UNKNOWN_ROOM, "unknown room")
        return
    if player.id not in record.room.seat_ids:
        await websocket.close(CloseCode.NOT_SEATED, "no seat in this room")
        return

    outbox = SocketOutbox(websocket)
    try:
        try:
            await rooms.connect(room_id, player.id, outbox)
        except RoomRefused as refused:
            # No server took the table in time. But a socket that has been sent its state is served
            # (the owner that sent it counts the player present, and its sweep makes up the connect):
            # it is never closed now with 1013, its hello unanswered; its intents get `unavailable`
            # until then, which the client resends.
            if refused.code != RoomCode.UNAVAILABLE or not outbox.sent:
                outbox.close(CloseCode.TRY_AGAIN, "the table is busy for a moment; reconnect")
                return
        async for text, limited in _frames(websocket, settings, outbox):
            if text is None:
                version = await _version(rooms, room_id, outbox)
                outbox.send(rejected(None, TransportCode.BAD_MESSAGE, "frames must be JSON text", version))
                continue
            if limited:
                version = await _version(rooms, room_id, outbox)
                slow_down = "too many messages; slow down"
                outbox.send(rejected(_message_id(text), TransportCode.RATE_LIMITED, slow_down, version))
                continue
            try:
                await _handle(rooms, room_id, player.id, outbox, text)
            except RoomRefused as refused:  # the one answer to the intent: refused (the client resends)
                version = await _version(rooms, room_id, outbox)
                outbox.send(rejected(_message_id(text), refused.code, refused.message, version))
            except UNREACHABLE:  # read before the room was asked (a rematch's players): nothing changed
                version = await _version(rooms, room_id, outbox)
                outbox.send(rejected(_message_id(text), DATABASE_AWAY.code, DATABASE_AWAY.message, version))
    except (WebSocketDisconnect, RoomRefused):
        pass
    finally:
        with contextlib.suppress(RoomRefused):
            await rooms.disconnect(room_id, player.id, outbox)
        await outbox.finish()


async def _version(rooms: Rooms, room_id: str, outbox: SocketOutbox) -> int:
    """The room's version for a refusal; while the database cannot be read, the newest this socket
    was sent (never an older one than the client has: it would take it back)."""
    try:
        return await rooms.version(room_id)
    except UNREACHABLE:
        return max(outbox.state_version, 0)


async def _watch(websocket: WebSocket, room_id: str) -> None:
    settings: Settings = websocket.app.state.settings
    rooms: Rooms = websocket.app.state.rooms
    if not await _accept(websocket, settings, page=True):
        return
    if len(room_id) > 40:
        await websocket.close(CloseCode.UNKNOWN_ROOM, "unknown room")
        return
    code = websocket.query_params.get("code")
    outbox = SocketOutbox(websocket)
    try:
        refused = await rooms.watch(room_id, code[:40] if code else None, outbox)
        if refused is not None:
            outbox.close(*refused)
            return
        async for text, limited in _frames(websocket, settings, outbox):
            if limited:
                continue  # a spectator is told nothing more while it floods
            version = await _version(rooms, room_id, outbox)
            message_id = _message_id(text or "")
            outbox.send(rejected(message_id, RoomCode.SPECTATOR_CANNOT_ACT, "spectators cannot act", version))
    except WebSocketDisconnect:
        pass
    finally:
        rooms.unwatch(room_id, outbox)
        await outbox.finish()


async def _frames(
    websocket: WebSocket, settings: Settings, outbox: SocketOutbox
) -> AsyncIterator[tuple[str | None, bool]]:
    """The socket's frames until it closes, each as (its text, or None for a binary frame; whether
    the rate limit refused it). A frame over ``max_frame_bytes`` closes the socket (1009), and so do
    ``FLOOD_STRIKES`` refused frames in a row (1008). A ``ping`` is answered here with a ``pong``,
    outside the intents' rate limit, from an allowance of its own (pings beyond it go unanswered)."""
    bucket = TokenBucket(settings.rate_limit_intents, settings.rate_limit_window_s)
    pings = TokenBucket(PING_ALLOWANCE, settings.rate_limit_window_s)
    strikes = 0
    while not outbox.closed:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            yield None, False
            continue
        if len(text.encode()) > settings.max_frame_bytes:
            outbox.close(CloseCode.TOO_BIG, "frame too large")
            return
        if _is_ping(text):
            if pings.take():
                outbox.send(PONG)
            continue
        if bucket.take():
            strikes = 0
            yield text, False
            continue
        strikes += 1
        yield text, True
        if strikes >= FLOOD_STRIKES:
            outbox.close(CloseCode.POLICY, "flooding")
            return


def _is_ping(text: str) -> bool:
    """The client's keep-alive ``{"type": "ping"}`` (a short frame; anything else is an intent)."""
    if len(text) > 64 or "ping" not in text:
        return False
    try:
        _ping.validate_json(text)
    except ValidationError:
        return False
    return True


def _message_id(text: str) -> int | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # deeply nested arrays exhaust the parser's stack
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if type(value) is int else None


async def _handle(rooms: Rooms, room_id: str, player_id: str, outbox: SocketOutbox, text: str) -> None:
    try:
        message = client_message.validate_json(text)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "message"
        version = await _version(rooms, room_id, outbox)
        outbox.send(rejected(_message_id(text), TransportCode.BAD_MESSAGE, f"{where}: {problem['msg']}", version))
        return
    match message:
        case Hello():
            await rooms.hello(room_id, player_id)
        case PlayIntent():
            await rooms.play(room_id, player_id, message.id, message.version, message.card, message.declare)
        case BidIntent():
            await rooms.move(room_id, cmd.Bid(player_id, message.id, message.version, message.amount))
        case PassIntent():
            await rooms.move(room_id, cmd.Pass(player_id, message.id, message.version))
        case DiscardIntent():
            first, second = message.cards
            await rooms.move(room_id, cmd.Discard(player_id, message.id, message.version, (first, second)))
        case ResignIntent():
            await rooms.resign(room_id, player_id, message.id, message.version)
        case RematchIntent():
            await rooms.rematch(room_id, player_id, message.id, message.version, message.action)
        case ChatIntent():
            await rooms.chat(room_id, player_id, message.id, message.version, message.text)
        case ReactIntent():
            await rooms.react(room_id, player_id, message.id, message.version, message.reaction)
        case MuteReactionsIntent():
            await rooms.mute_reactions(room_id, player_id, message.id, message.version, message.muted)
        case HintIntent():
            await rooms.hint(room_id, player_id, message.id, message.version)
