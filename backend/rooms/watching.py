"""Spectators at the door: letting a socket watch a room, and telling the players how many watch.

The room's owner serves its spectators from the room's state in memory; another process of a
cluster follows the owner's relayed messages and greets a newcomer with the state read from the
database (``Spectators`` keeps the order of versions). Each process counts its own spectators in
Redis, and the owner tells the room's players the total.
"""

from __future__ import annotations

import asyncio
import logging

from redis.exceptions import RedisError

from backend.db.writes import StoreUnavailable
from backend.ops import metrics

from .cluster import RedisCluster
from .codes import CloseCode, RoomCode
from .model import RoomState
from .ports import Bus, Connection
from .refused import RoomRefused
from .registry import RoomRegistry
from .sql_store import SqlRoomStore, rebuild
from .table_rules import watch_refusal
from .watch import Spectators

log = logging.getLogger(__name__)

RESTARTING = CloseCode.SERVICE_RESTART, "this server is restarting; reconnect"
FULL = CloseCode.WATCH_FULL, "this table has all the spectators it takes"
# The table exists but cannot be read now (the database or Redis is away): the client reconnects in
# a moment, rather than being told that there is no such table (issue 44: every path answers an outage).
TRY_AGAIN = CloseCode.TRY_AGAIN, "the table cannot be read for a moment; reconnect"


class Watching:
    def __init__(
        self,
        spectators: Spectators,
        registry: RoomRegistry,
        room_store: SqlRoomStore,
        bus: Bus,
        cluster: RedisCluster | None,
    ) -> None:
        self.spectators = spectators
        self._registry = registry
        self._room_store = room_store
        self._bus = bus
        self._cluster = cluster
        self._sharing = asyncio.Lock()
        spectators.on_count = self._changed_here
        if cluster is not None:
            spectators.relay = cluster.watch
            cluster.watch.on_watch = spectators.relayed
            cluster.watch.on_watchers = self._told
            registry.on_taken = self.learn

    async def watch(self, room_id: str, code: str | None, connection: Connection) -> tuple[int, str] | None:
        """Let ``connection`` watch the room: None, or why not (a close code and its reason)."""
        if self._registry.draining:
            return RESTARTING
        cluster = self._cluster
        if cluster is None:
            try:
                actor = await self._registry.owned(room_id)
            except RoomRefused as refused:
                return TRY_AGAIN if refused.code == RoomCode.UNAVAILABLE else (CloseCode.UNKNOWN_ROOM, "unknown room")
            assert actor is not None
            refusal = watch_refusal(actor.state, code)
            if refusal is None and not self.spectators.add(room_id, connection, actor.state):
                refusal = FULL
            return refusal
        if not self.spectators.admit(room_id, connection):
            return FULL
        # Listen before reading the state, so that no change after the read is missed: the owner
        # relays every change, and one relayed while the state is read is kept for the greeting
        # (``Spectators`` sends whichever is newer, and never a version it has sent already).
        try:
            await cluster.watch.follow_watch(room_id)
            actor = await self._registry.owned(room_id)
            state = actor.state if actor is not None else await self.stored_state(room_id)
        except RoomRefused as refused:
            if refused.code == RoomCode.UNAVAILABLE:
                self.unwatch(room_id, connection)
                return TRY_AGAIN
            state = None
        except (StoreUnavailable, RedisError, OSError) as error:
            log.info("a spectator of room %s waits: %s", room_id, error)
            self.unwatch(room_id, connection)
            return TRY_AGAIN
        refusal = watch_refusal(state, code)
        if refusal is not None or state is None:
            self.unwatch(room_id, connection)
            return refusal
        self.spectators.greet(connection, state)
        return None

    def unwatch(self, room_id: str, connection: Connection) -> None:
        self.spectators.remove(room_id, connection)

    async def stored_state(self, room_id: str) -> RoomState | None:
        stored = await self._room_store.load(room_id)
        return None if stored is None else rebuild(stored)

    async def refresh(self, room_id: str) -> None:
        """The room's current state for the spectators held here that may have missed a change."""
        actor = self._registry.get(room_id) if self._registry.holds(room_id) else None
        state = actor.state if actor is not None else await self.stored_state(room_id)
        if state is not None:
            self.spectators.refresh(state)

    async def learn(self, room_id: str) -> None:
        """A room just taken: how many watch it on other processes (they need its changes)."""
        assert self._cluster is not None
        try:
            self.spectators.set_watching(room_id, await self._cluster.presence.watcher_total(room_id))
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("watchers").inc()

    async def recount(self, room_id: str) -> None:
        """The sweep: spectators of a process that died stop counting; a lost notice is made good."""
        watching = self.spectators.watching(room_id)
        await self.learn(room_id)
        if self.spectators.watching(room_id) != watching:
            self.tell_players(room_id, self.spectators.watching(room_id))

    def _changed_here(self, room_id: str, here: int) -> None:
        """This process's spectators of a room changed: tell the players how many watch in all."""
        cluster = self._cluster
        if cluster is None:
            self.tell_players(room_id, here)
            return
        task = asyncio.get_running_loop().create_task(self._share(cluster, room_id))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _share(self, cluster: RedisCluster, room_id: str) -> None:
        """Record this process's count in Redis, then tell the owner the total (it tells the players)."""
        async with self._sharing:  # in the order of the changes
            here = self.spectators.count(room_id)
            try:
                total = await cluster.presence.count_watchers(room_id, here)
                if not self.spectators.holds(room_id):  # unless a newcomer is being greeted here
                    await cluster.watch.unfollow_watch(room_id, lambda: self.spectators.holds(room_id))
                owner = await cluster.leases.owner(room_id)
                if owner is not None and owner != cluster.id:
                    await cluster.watch.tell_owner_watchers(owner, room_id, total)
            except (RedisError, OSError) as error:
                metrics.REDIS_ERRORS.labels("watchers").inc()
                log.info("could not share the spectators of %s: %s", room_id, error)
                return
            self.spectators.set_watching(room_id, total)
            if owner == cluster.id:
                self.tell_players(room_id, total)

    def _told(self, room_id: str, total: int) -> None:
        """The owner learns how many watch its room over the cluster."""
        self.spectators.set_watching(room_id, total)
        self.tell_players(room_id, total)

    def tell_players(self, room_id: str, count: int) -> None:
        """The players of the room see how many watch (not a change of the room: no version)."""
        actor = self._registry.get(room_id)
        if actor is None:
            return
        text = self.spectators.count_text(count)
        for holder in actor.state.seats:
            if holder is not None and holder.bot_level is None:
                self._bus.deliver(room_id, holder.player_id, text)
