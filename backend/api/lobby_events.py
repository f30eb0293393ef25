"""The lobby's event stream: live "Play again" invitations for the players who have the lobby open.

A player's open lobby streams (``GET /api/me/events``, Server-Sent Events) are ``Listener``s held by
this process. An invitation is written in the ``InvitationBook`` (so that a stream opened later, or
reopened after a drop, is sent the invitations still waiting) and sent to the invitee's streams at
once. An invitation lapses when its table starts or closes (``Lobby.on_table_changed``: a join or a
leave, wherever it was asked) or when the invitee declines it; the book forgets it and the
invitee's streams are sent ``invitation_gone``.

The stream also carries "My games" (``games``: every table the player sits at, sent again whenever
one of them changes: ``room_changed``, called by every room of this process after a committed
change) and the public tables (``tables``: to join and to watch), which replace the lobby's polling.
A player's games are built once per change for all of that player's streams in this process (and
only where the player has one open: a change is announced on the player's channel, each process
holding a stream builds the list); the public tables are built once per process, at most every
``tables_every_s`` while some stream is open here, at once after a join, a leave, a start or an
end seen here, and sent only when they changed.

One process keeps the book in memory and hands events to its own streams. In a cluster
(``REDIS_URL``) the book is in Redis and events travel over the cluster's pub/sub
(``RedisCluster``, channel ``player:{id}``), which every process holding a stream of that player
listens to; no second bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from backend.db.store import Store
from backend.ops import metrics
from backend.rooms.cluster import RedisCluster
from backend.rooms.model import RoomState

from .codes import InvitationEnd, LobbyEvent
from .lobby_messages import Invitation, InvitationGone, LobbyTables, MyGames, sse

log = logging.getLogger(__name__)

QUEUE_LIMIT = 64  # events waiting for a slow stream before it is closed (the client reconnects)
COALESCE_S = 0.1  # changes within this long after the first are sent as one ``games`` / ``tables``


class Listener:
    """One open lobby stream: the events waiting to be written to it, in order."""

    def __init__(self, player_id: str) -> None:
        self.player_id = player_id
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self._queue.qsize() >= QUEUE_LIMIT:
            self.close()
            return
        self._queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def next(self, timeout: float) -> str | None:
        """The next event's text; ``""`` when ``timeout`` passed without one; None once closed."""
        try:
            return await asyncio.wait_for(self._queue.get(), timeout)
        except TimeoutError:
            return ""


class InvitationBook(Protocol):
    """Which invitations wait for whom, until they lapse."""

    async def add(self, invitee_id: str, invitation: Invitation) -> None: ...

    async def waiting(self, invitee_id: str, now: datetime) -> list[Invitation]: ...

    async def remove(self, invitee_id: str, room_id: str) -> bool: ...

    async def invitees(self, room_id: str) -> list[str]:
        """Who holds an invitation to the room (before it lapsed)."""


@dataclass(slots=True)
class MemoryBook:
    """One process: the book in memory."""

    _by_player: defaultdict[str, dict[str, Invitation]] = field(default_factory=lambda: defaultdict(dict))
    _by_room: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    async def add(self, invitee_id: str, invitation: Invitation) -> None:
        self._by_player[invitee_id][invitation.room_id] = invitation
        self._by_room[invitation.room_id].add(invitee_id)

    async def waiting(self, invitee_id: str, now: datetime) -> list[Invitation]:
        held = self._by_player.get(invitee_id, {})
        for room_id in [room_id for room_id, inv in held.items() if inv.expires_at <= now]:
            await self.remove(invitee_id, room_id)
        return sorted(self._by_player.get(invitee_id, {}).values(), key=lambda inv: inv.created_at)

    async def remove(self, invitee_id: str, room_id: str) -> bool:
        held = self._by_player.get(invitee_id)
        if held is None or held.pop(room_id, None) is None:
            return False
        if not held:
            del self._by_player[invitee_id]
        invited = self._by_room.get(room_id)
        if invited is not None:
            invited.discard(invitee_id)
            if not invited:
                del self._by_room[room_id]
        return True

    async def invitees(self, room_id: str) -> list[str]:
        return sorted(self._by_room.get(room_id, ()))


class RedisBook:
    """A cluster: ``invitations:{player}`` (a hash, room → the invitation's JSON) and
    ``invitees:{room}`` (a set), each kept as long as the newest invitation in it lives."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def add(self, invitee_id: str, invitation: Invitation) -> None:
        ttl = max(1, int((invitation.expires_at - invitation.created_at).total_seconds()))
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(f"invitations:{invitee_id}", invitation.room_id, invitation.model_dump_json())
            pipe.expire(f"invitations:{invitee_id}", ttl)
            pipe.sadd(f"invitees:{invitation.room_id}", invitee_id)
            pipe.expire(f"invitees:{invitation.room_id}", ttl)
            await pipe.execute()

    async def waiting(self, invitee_id: str, now: datetime) -> list[Invitation]:
        found = await self._redis.hgetall(f"invitations:{invitee_id}")
        held = [Invitation.model_validate_json(text) for text in found.values()]
        for invitation in held:
            if invitation.expires_at <= now:
                await self.remove(invitee_id, invitation.room_id)
        return sorted((inv for inv in held if inv.expires_at > now), key=lambda inv: inv.created_at)

    async def remove(self, invitee_id: str, room_id: str) -> bool:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hdel(f"invitations:{invitee_id}", room_id)
            pipe.srem(f"invitees:{room_id}", invitee_id)
            removed, _ = await pipe.execute()
        return bool(removed)

    async def invitees(self, room_id: str) -> list[str]:
        return sorted(str(member) for member in await self._redis.smembers(f"invitees:{room_id}"))


class LobbyEvents:
    """The lobby streams of this process and the invitations they are sent."""

    def __init__(
        self,
        store: Store,
        cluster: RedisCluster | None = None,
        *,
        games: Callable[[str], Awaitable[MyGames]] | None = None,
        tables: Callable[[], Awaitable[LobbyTables]] | None = None,
        tables_every_s: float = 5.0,
    ) -> None:
        self._store = store
        self._cluster = cluster
        self._games = games
        self._tables = tables
        self._tables_every_s = tables_every_s
        self._games_due: set[str] = set()  # players whose games are about to be built
        self._tables_text: str | None = None  # the newest ``tables`` event sent from here
        self._tables_at = 0.0  # when it was built (the loop's clock)
        self._tables_wake = asyncio.Event()
        self._tables_task: asyncio.Task[None] | None = None
        self.book: InvitationBook = MemoryBook() if cluster is None else RedisBook(cluster.redis)
        self._listeners: defaultdict[str, set[Listener]] = defaultdict(set)
        self._tasks: set[asyncio.Task[None]] = set()
        if cluster is not None:
            cluster.players.on_player = self._relayed
            # Events published while the subscription was lost are gone: every stream held here
            # ends, and its client reconnects and is sent the invitations waiting in Redis.
            cluster.link.on_resubscribed.append(self.close_all)

    # ------------------------------------------------------------ streams

    async def listen(self, player_id: str) -> Listener:
        """A new stream of the player: from when this returns, events for the player reach it."""
        listener = Listener(player_id)
        self._listeners[player_id].add(listener)
        if self._tables is not None and (self._tables_task is None or self._tables_task.done()):
            self._tables_task = asyncio.get_running_loop().create_task(self._watch_tables())
        if self._cluster is not None:
            await self._cluster.players.follow(player_id)
        return listener

    async def stop(self, listener: Listener) -> None:
        listener.close()
        held = self._listeners.get(listener.player_id)
        if held is None:
            return
        held.discard(listener)
        if held:
            return
        del self._listeners[listener.player_id]
        if not self._listeners and self._tables_task is not None:
            self._tables_task.cancel()
            self._tables_task = None
        if self._cluster is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._cluster.players.unfollow(listener.player_id, lambda: listener.player_id in self._listeners)

    def close_all(self) -> None:
        """A graceful restart: every stream ends (its client reconnects, to another process)."""
        for held in list(self._listeners.values()):
            for listener in list(held):
                listener.close()

    def streams(self) -> int:
        return sum(len(held) for held in self._listeners.values())

    # ------------------------------------------------------------ invitations

    async def invite(self, invitee_id: str, invitation: Invitation) -> bool:
        """Keep the invitation for the invitee and send it to their streams; whether one got it.

        Redis away: the table is made all the same, and its invite link can be shared by hand."""
        try:
            await self.book.add(invitee_id, invitation)
        except (RedisError, OSError) as error:
            metrics.REDIS_ERRORS.labels("invitations").inc()
            log.info("an invitation could not be kept: %s", error)
        return await self._send(invitee_id, sse(LobbyEvent.INVITATION, invitation))

    async def waiting(self, invitee_id: str, now: datetime) -> list[Invitation]:
        return await self.book.waiting(invitee_id, now)

    async def decline(self, invitee_id: str, room_id: str) -> bool:
        """The invitee said "Not now": forgotten, and gone from their other devices too."""
        if not await self.book.remove(invitee_id, room_id):
            return False
        await self._send(
            invitee_id, sse(LobbyEvent.INVITATION_GONE, InvitationGone(room_id=room_id, reason=InvitationEnd.DECLINED))
        )
        return True

    def table_changed(self, room_id: str) -> None:
        """A join or a leave at a table (``Lobby.on_table_changed``): its invitations lapse once it
        is no longer waiting for players; the public tables are read again."""
        self.tables_changed()
        task = asyncio.get_running_loop().create_task(self._lapse_if_settled(room_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _lapse_if_settled(self, room_id: str) -> None:
        try:
            invited = await self.book.invitees(room_id)
            if not invited:
                return
            record = await asyncio.to_thread(self._store.rooms.record, room_id)
            status = "closed" if record is None else record.room.status
            seated = set() if record is None else {pid for pid in record.room.seat_ids if pid is not None}
            for invitee_id in invited:
                # An invitee who took a seat is done with it, even while the table waits for more.
                if invitee_id in seated:
                    reason = InvitationEnd.ACCEPTED
                elif status == "open":
                    continue
                else:
                    reason = InvitationEnd.CLOSED if status == "closed" else InvitationEnd.STARTED
                if await self.book.remove(invitee_id, room_id):
                    gone = InvitationGone(room_id=room_id, reason=reason)
                    await self._send(invitee_id, sse(LobbyEvent.INVITATION_GONE, gone))
        except (RedisError, OSError) as error:
            metrics.REDIS_ERRORS.labels("invitations").inc()
            log.info("the invitations to %s could not be lapsed: %s", room_id, error)

    # ------------------------------------------------------------ "My games" and the public tables

    async def first_events(self, player_id: str) -> list[str]:
        """What a stream is sent when it opens, before ``ready``: the player's games and the tables."""
        found: list[str] = []
        if self._games is not None:
            found.append(sse(LobbyEvent.MY_GAMES, await self._games(player_id)))
        if self._tables is not None:
            loop = asyncio.get_running_loop()
            if self._tables_text is None or loop.time() - self._tables_at > self._tables_every_s:
                await self._build_tables()
            if self._tables_text is not None:
                found.append(self._tables_text)
        return found

    def room_changed(self, before: RoomState, after: RoomState) -> None:
        """A room of this process committed a change: its players' games are sent again (wherever
        their streams are), and the public tables if a table started, ended or changed its seats."""
        players = {h.player_id for h in (*before.seats, *after.seats) if h is not None and h.bot_level is None}
        for player_id in players:
            self._spawn(self._announce_games(player_id))
        if before.status != after.status or before.seats != after.seats:
            self.tables_changed()

    def tables_changed(self) -> None:
        self._tables_wake.set()

    async def _announce_games(self, player_id: str) -> None:
        if self._cluster is None:
            self._games_soon(player_id)
            return
        try:
            await self._cluster.players.tell(player_id, {"games": True})
        except (RedisError, OSError) as error:  # the stream is sent its games again when it reconnects
            metrics.REDIS_ERRORS.labels("lobby").inc()
            log.info("a change of %s's games could not be published: %s", player_id, error)

    def _games_soon(self, player_id: str) -> None:
        """Build the player's games for the streams held here (once for changes close together)."""
        if self._games is None or player_id not in self._listeners or player_id in self._games_due:
            return
        self._games_due.add(player_id)
        self._spawn(self._send_games(player_id))

    async def _send_games(self, player_id: str) -> None:
        assert self._games is not None
        await asyncio.sleep(COALESCE_S)
        self._games_due.discard(player_id)  # a change from now on builds them again
        if player_id not in self._listeners:
            return
        try:
            games = await self._games(player_id)
        except Exception as error:  # the database away: the next change (or a reconnect) sends them
            log.info("the games of %s could not be read: %s", player_id, error)
            return
        self._deliver(player_id, sse(LobbyEvent.MY_GAMES, games))

    async def _build_tables(self) -> bool:
        """Build the public tables; whether they differ from the ones sent last."""
        assert self._tables is not None
        self._tables_at = asyncio.get_running_loop().time()
        text = sse(LobbyEvent.PUBLIC_TABLES, await self._tables())
        if text == self._tables_text:
            return False
        self._tables_text = text
        return True

    async def _watch_tables(self) -> None:
        """While streams are open here: the public tables, built again after a change seen here or
        every ``tables_every_s`` (a change made by another process), sent to every stream if changed."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tables_wake.wait(), self._tables_every_s)
                await asyncio.sleep(COALESCE_S)
            self._tables_wake.clear()
            try:
                if not await self._build_tables():
                    continue
            except Exception as error:
                log.info("the public tables could not be read: %s", error)
                continue
            text = self._tables_text
            for held in list(self._listeners.values()):
                for listener in list(held):
                    if text is not None:
                        listener.send(text)

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ delivery

    async def _send(self, player_id: str, text: str) -> bool:
        if self._cluster is None:
            return self._deliver(player_id, text)
        try:
            return await self._cluster.players.tell(player_id, {"text": text}) > 0
        except (RedisError, OSError) as error:  # the waiting invitation is sent when the stream reconnects
            metrics.REDIS_ERRORS.labels("invitations").inc()
            log.info("a lobby event could not be published: %s", error)
            return self._deliver(player_id, text)

    def _deliver(self, player_id: str, text: str) -> bool:
        held = self._listeners.get(player_id, set())
        for listener in list(held):
            listener.send(text)
        return bool(held)

    def _relayed(self, player_id: str, message: dict[str, object]) -> None:
        if message.get("games"):
            self._games_soon(player_id)
            return
        text = message.get("text")
        if isinstance(text, str):
            self._deliver(player_id, text)
