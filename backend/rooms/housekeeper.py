"""Housekeeping of the rooms this process holds, every ``housekeeping_s``: open tables nobody joined
expire, rooms whose stored deadline passed are woken (a turn-based table's turn, R6.3, or a rematch
offer: the table need not be in any process's memory), finished rooms and turn-based tables waiting
for an absent person leave memory, and rooms somebody else changed in the database are rebuilt (the
rules are ``backend.ops.housekeeping``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime

from backend.db.store import Store
from backend.ops import housekeeping, metrics
from backend.ops.logs import ids

from .ports import Bus, Clock
from .refused import RoomRefused
from .registry import RoomRegistry

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Housekept:
    """What one round of housekeeping did."""

    expired: list[str] = field(default_factory=list)
    woken: list[str] = field(default_factory=list)  # a stored deadline had passed: told the time
    evicted: list[str] = field(default_factory=list)
    refreshed: list[str] = field(default_factory=list)


class Housekeeper:
    def __init__(
        self,
        store: Store,
        registry: RoomRegistry,
        bus: Bus,
        clock: Clock,
        *,
        open_table_ttl_s: float,
        leave: Callable[[str, str], Awaitable[None]],
        tick: Callable[[str], Awaitable[None]],
    ) -> None:
        self.store = store
        self._registry = registry
        self._bus = bus
        self._clock = clock
        self._ttl_s = open_table_ttl_s
        self._leave = leave  # the lobby's: an expired table is left by its creator
        self._tick = tick  # a Tick to the room, here or at its owner (rebuilt if nobody holds it)

    async def every(self, interval_s: float) -> None:
        while True:
            await asyncio.sleep(interval_s)
            try:
                await self.housekeep(self._clock.now())
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("housekeeping failed: %s", error)

    async def housekeep(self, now: datetime) -> Housekept:
        done = Housekept()
        if self._registry.draining:
            return done
        expired = await asyncio.to_thread(housekeeping.expired_open_tables, self.store, now, self._ttl_s)
        for room_id, creator in expired:
            try:
                await self._leave(room_id, creator)
            except RoomRefused:
                continue  # somebody joined (or another process expired it) meanwhile
            done.expired.append(room_id)
            metrics.ROOMS_EXPIRED.inc()
            log.info("open table expired", extra=ids(room=room_id, player=creator, event="room_expired"))
        for room_id in await asyncio.to_thread(self.store.rooms.due, now):
            try:
                await self._tick(room_id)
            except RoomRefused:
                continue  # gone meanwhile, or its owner is restarting: the next round sees it again
            done.woken.append(room_id)
        mine = self._registry.held()
        stored = await asyncio.to_thread(self.store.rooms.versions, list(mine))
        for room_id, actor in mine.items():
            if housekeeping.changed_elsewhere(actor.state, stored.get(room_id)):
                self._registry.forget(actor)  # changed behind our back: rebuild, and tell the players
                with contextlib.suppress(RoomRefused):
                    fresh = await self._registry.owned(room_id)
                    if fresh is not None:
                        fresh.announce()
                done.refreshed.append(room_id)
            elif housekeeping.evictable(actor.state, await self._bus.present(room_id)):
                self._registry.forget(actor)
                done.evicted.append(room_id)
                metrics.ROOMS_EVICTED.inc()
        return done
