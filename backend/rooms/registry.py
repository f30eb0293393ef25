"""The actor of every room this process serves, found or rebuilt from the database.

In one process every room is ours. With a cluster, a room is ours while we hold its lease: a room
without an owner is taken by whoever needs it first, by rebuilding it from the database (DESIGN
promise 5). Either way a room's state lives only in its owner's actor, and everything the actor
knows is stored.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from backend.db.writes import StoreUnavailable
from backend.ops import metrics
from backend.ops.logs import ids

from .actor import RoomActor
from .cluster.leases import Leases
from .decide import Limits
from .model import RoomState
from .ports import BotRunner, Bus, Clock
from .refused import DATABASE_AWAY, UNAVAILABLE, RoomRefused, no_table
from .sql_store import SqlRoomStore, rebuild
from .watch import Spectators

log = logging.getLogger(__name__)

RESOLVE_PAUSE_S = 0.25  # the first wait before a room whose commit lost its answer is rebuilt (then doubled)
RESOLVE_PAUSE_MAX_S = 2.0


class RoomRegistry:
    def __init__(
        self,
        room_store: SqlRoomStore,
        *,
        bus: Bus,
        clock: Clock,
        bots: BotRunner,
        limits: Limits,
        bot_delay_s: float,
        spectators: Spectators,
        leases: Leases | None,
    ) -> None:
        self._room_store = room_store
        self._bus = bus
        self._clock = clock
        self._bots = bots
        self._limits = limits
        self._bot_delay_s = bot_delay_s
        self._spectators = spectators
        self._leases = leases
        self._actors: dict[str, RoomActor] = {}
        self._loading = asyncio.Lock()
        # Rooms waiting for the database to say what a commit whose answer was lost did.
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self.draining = False  # a graceful restart is under way: no new rooms
        # A cluster: a room was just taken; learn what the other processes know of it.
        self.on_taken: Callable[[str], Awaitable[None]] | None = None
        # A room of this process committed and published a change (``RoomActor``): the lobby's
        # streams and the push notifications hear of it (a list: each is told, in order).
        self.on_changed: list[Callable[[RoomState, RoomState], None]] = []

    def __len__(self) -> int:
        return len(self._actors)

    def get(self, room_id: str) -> RoomActor | None:
        """The room's actor in memory, held or not (no lookup, no rebuild)."""
        return self._actors.get(room_id)

    def holds(self, room_id: str) -> bool:
        return self._leases is None or self._leases.owns(room_id)

    def held(self) -> dict[str, RoomActor]:
        """The actors of the rooms this process holds."""
        return {room_id: actor for room_id, actor in self._actors.items() if self.holds(room_id)}

    def states(self) -> list[RoomState]:
        return [actor.state for actor in self._actors.values()]

    async def owned(self, room_id: str, created: bool = False) -> RoomActor | None:
        """The room's actor if this process owns the room (taking it over if nobody does),
        None if another process owns it; ``RoomRefused`` if there is no such room."""
        leases = self._leases
        actor = self._actors.get(room_id)
        if actor is not None and not actor.stale and (leases is None or leases.owns(room_id)):
            return actor
        if self.draining:  # handing rooms over, not taking them
            if leases is None:
                raise RoomRefused(UNAVAILABLE)
            return None
        if leases is not None and not await leases.acquire(room_id):
            return None
        async with self._loading:
            actor = self._actors.get(room_id)
            if actor is None or actor.stale:
                resolving = actor is not None  # a commit whose answer was lost: the log says what happened
                actor = await self._rebuild(room_id)
                if resolving:
                    actor.announce()
                elif leases is not None:
                    if self.on_taken is not None:
                        await self.on_taken(room_id)
                    actor.announce()
                    if not created:
                        metrics.TAKEOVERS.inc()
                        log.info("took the room over", extra=ids(room=room_id, node=leases.id, event="takeover"))
        return actor

    async def _rebuild(self, room_id: str) -> RoomActor:
        """The room as the database holds it; ``RoomRefused`` (``unavailable``) while the database
        cannot be read."""
        try:
            lease = await self._room_store.claim(room_id)  # first: every write of a previous owner is in the load
            stored = None if lease is None else await self._room_store.load(room_id)
        except StoreUnavailable as error:
            log.info("room %s cannot be rebuilt now: %s", room_id, error)
            raise RoomRefused(DATABASE_AWAY) from error
        if stored is None:
            if self._leases is not None:
                await self._leases.release(room_id)
            raise no_table(room_id)
        state = replace(rebuild(stored), present=await self._bus.present(room_id))
        actor = RoomActor(
            state,
            store=self._room_store,
            bus=self._bus,
            clock=self._clock,
            bots=self._bots,
            limits=self._limits,
            bot_delay_s=self._bot_delay_s,
            on_stale=self.forget,
            spectators=self._spectators,
            on_unsure=self.resolve_later,
            lease=lease,
            on_changed=self._changed,
        )
        older = self._actors.get(room_id)
        if older is not None:
            older.stop()  # a stale copy: its timers and computer moves are the new copy's now
        self._actors[room_id] = actor
        actor.resume()
        return actor

    def _changed(self, before: RoomState, after: RoomState) -> None:
        for listener in self.on_changed:
            try:
                listener(before, after)
            except Exception:
                log.exception("room %s: a listener of its changes failed", after.id)

    def resolve_later(self, actor: RoomActor) -> None:
        """A commit of ``actor`` lost its answer (the database went away in it): rebuild the room from
        its log as soon as the database answers, so that everybody is told what was stored even if
        nobody sends anything meanwhile (the computer's turn, a sender that gave up)."""
        if actor.id not in self._resolving:
            task = asyncio.get_running_loop().create_task(self._resolve(actor.id))
            self._resolving[actor.id] = task
            task.add_done_callback(lambda _: self._resolving.pop(actor.id, None))

    async def _resolve(self, room_id: str) -> None:
        pause = RESOLVE_PAUSE_S
        while (actor := self._actors.get(room_id)) is not None and actor.stale and not self.draining:
            await asyncio.sleep(pause)
            try:
                await self.owned(room_id)
            except RoomRefused:
                pause = min(pause * 2, RESOLVE_PAUSE_MAX_S)
            except Exception as error:  # Redis away too: the sweep or the next command rebuilds it
                log.info("room %s: not rebuilt yet: %s", room_id, error)
                return

    def forget(self, actor: RoomActor) -> None:
        """Drop the room from memory (and hand its lease back); it is rebuilt when next needed."""
        if self._actors.get(actor.id) is actor:
            del self._actors[actor.id]
        actor.stop()
        if self._leases is not None and self._leases.owns(actor.id):
            # Not ours from now on (a fenced copy's command, retried at once, must look for the owner
            # rather than find the lease still counted here); handed back in Redis in the background.
            self._leases.disown(actor.id)
            asyncio.get_running_loop().create_task(self._leases.release(actor.id))

    def forget_room(self, room_id: str) -> None:
        actor = self._actors.pop(room_id, None)
        if actor is not None:
            self.forget(actor)

    def lost(self, room_id: str) -> None:
        """The lease could not be renewed: another process may own the room now."""
        actor = self._actors.pop(room_id, None)
        if actor is not None:
            actor.stop()

    async def retire_all(self) -> list[RoomActor]:
        """A graceful restart: take no more rooms, and let every commit in flight finish."""
        self.draining = True
        async with self._loading:  # a room being rebuilt right now is included
            actors = list(self._actors.values())
            self._actors.clear()
        await asyncio.gather(*(actor.retire() for actor in actors))
        return actors

    def stop_all(self) -> None:
        for actor in self._actors.values():
            actor.stop()
        for task in self._resolving.values():
            task.cancel()
