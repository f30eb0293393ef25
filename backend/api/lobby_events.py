"""The lobby's event stream: live "Play again" invitations for the players who have the lobby open.

A player's open lobby streams (``GET /api/me/events``, Server-Sent Events) are ``Listener``s held by
this process. An invitation is written in the ``InvitationBook`` (so that a stream opened later, or
reopened after a drop, is sent the invitations still waiting) and sent to the invitee's streams at
once. An invitation lapses when its table starts or closes (``Lobby.on_table_changed``: a join or a
leave, wherever it was asked) or when the invitee declines it; the book forgets it and the
invitee's streams are sent ``invitation_gone``.

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
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from backend.db.store import Store
from backend.ops import metrics
from backend.rooms.cluster import RedisCluster

from .codes import InvitationEnd, LobbyEvent
from .lobby_messages import Invitation, InvitationGone, sse

log = logging.getLogger(__name__)

QUEUE_LIMIT = 64  # events waiting for a slow stream before it is closed (the client reconnects)


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

    def __init__(self, store: Store, cluster: RedisCluster | None = None) -> None:
        self._store = store
        self._cluster = cluster
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
        is no longer waiting for players."""
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
        text = message.get("text")
        if isinstance(text, str):
            self._deliver(player_id, text)
