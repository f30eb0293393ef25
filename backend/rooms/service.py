"""The rooms of this process, as the API and the tests see them: one part per job, composed here.

* ``registry`` — the actor of each room this process serves, rebuilt when needed (leases);
* ``router`` — a command carried to its room: here, or forwarded to the room's owner;
* ``lobby`` — the REST use cases (make, join, leave a table, seat the computer, share it);
* ``sockets`` and ``intents`` — a player's socket, and what it asks during play;
* ``watching`` — spectators at the door, and how many watch;
* ``housekeeper`` — expiry, eviction and refresh, every ``housekeeping_s``;
* ``repair`` (a cluster only) — the sweep for ownerless rooms, and what Redis lost.

Each public method below is a part's own, bound here so that a call goes straight to it; only
starting, draining and stopping belong to ``Rooms`` itself, since they run the parts together.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from backend.db.store import Store
from backend.ops import metrics
from backend.ops.logs import ids

from .cluster import RedisCluster
from .decide import Limits
from .housekeeper import Housekeeper, Housekept
from .intents import Intents
from .lobby import Lobby, fresh_match
from .ports import BotRunner, Bus, Clock
from .reactions import DEFAULT_LIMITS, ReactionLimits
from .refused import UNAVAILABLE, RoomRefused
from .registry import RoomRegistry
from .repair import ClusterRepair
from .routing import TAKEOVER_WAIT_S, CommandRouter
from .sockets import Sockets
from .sql_store import SqlRoomStore
from .watch import Spectators
from .watching import Watching

__all__ = ["TAKEOVER_WAIT_S", "UNAVAILABLE", "Housekept", "RoomRefused", "RoomTiming", "Rooms", "fresh_match"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RoomTiming:
    bot_delay_s: float = 0.6
    rematch_timeout_s: float = 120.0
    open_table_ttl_s: float = 86400.0  # an open table nobody joined expires after this long
    housekeeping_s: float = 60.0  # how often housekeeping runs (0: never on its own)
    reactions: ReactionLimits = DEFAULT_LIMITS  # quick reactions per seat and window


class Rooms:
    def __init__(
        self,
        store: Store,
        room_store: SqlRoomStore,
        *,
        bus: Bus,
        clock: Clock,
        bots: BotRunner,
        timing: RoomTiming = RoomTiming(),
        cluster: RedisCluster | None = None,
        match_seed: int | None = None,
        spectators: Spectators | None = None,
    ) -> None:
        self.store = store
        self.bus = bus
        self.cluster = cluster
        self.spectators = spectators or Spectators()
        self._room_store = room_store
        self._bots = bots
        self._timing = timing
        self._tasks: list[asyncio.Task[None]] = []
        self.registry = RoomRegistry(
            room_store,
            bus=bus,
            clock=clock,
            bots=bots,
            limits=Limits(rematch_timeout_s=timing.rematch_timeout_s, reactions=timing.reactions),
            bot_delay_s=timing.bot_delay_s,
            spectators=self.spectators,
            leases=None if cluster is None else cluster.leases,
        )
        self.router = CommandRouter(self.registry, cluster)
        self.lobby = Lobby(store, self.registry, self.router, match_seed)
        self.sockets = Sockets(self.registry, self.router, bus, self.spectators, clustered=cluster is not None)
        self.intents = Intents(store, room_store, self.router, match_seed)
        self.watching = Watching(self.spectators, self.registry, room_store, bus, cluster)
        self.housekeeper = Housekeeper(
            store,
            self.registry,
            bus,
            clock,
            open_table_ttl_s=timing.open_table_ttl_s,
            leave=self.lobby.leave,
            tick=self.router.tick,
        )
        self.repair = None
        if cluster is not None:
            self.repair = ClusterRepair(store, cluster, self.registry, self.router, self.watching)
        metrics.track(metrics.ROOMS_LIVE, lambda: len(self.registry))
        if cluster is not None:
            metrics.track(metrics.ROOMS_OWNED, cluster.leases.owned_count)

        # The lobby (REST).
        self.create_room = self.lobby.create_room
        self.seat_computers = self.lobby.seat_computers
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.version = self.lobby.version
        self.set_spectators = self.lobby.set_spectators
        self.watch_link = self.lobby.watch_link
        # A player's socket.
        self.connect = self.sockets.connect
        self.disconnect = self.sockets.disconnect
        self.hello = self.sockets.hello
        self.sockets_closed = self.sockets.closed
        self.play = self.intents.play
        self.move = self.intents.move
        self.resign = self.intents.resign
        self.rematch = self.intents.rematch
        self.chat = self.intents.chat
        self.react = self.intents.react
        self.mute_reactions = self.intents.mute_reactions
        self.hint = self.intents.hint
        # Spectators.
        self.watch = self.watching.watch
        self.unwatch = self.watching.unwatch
        # Housekeeping, and what is in memory.
        self.housekeep = self.housekeeper.housekeep
        self.rooms_in_memory = self.registry.states

    @property
    def draining(self) -> bool:
        """A graceful restart is under way: no new rooms, no new sockets."""
        return self.registry.draining

    async def start(self) -> int:
        """One process: rebuild every live room now. A cluster: join it and take unowned rooms as
        they are found (each room is rebuilt by one process only)."""
        if self._timing.housekeeping_s > 0:
            every = self.housekeeper.every(self._timing.housekeeping_s)
            self._tasks.append(asyncio.create_task(every, name="rooms-housekeeping"))
        if self.cluster is None:
            live = await asyncio.to_thread(self.store.rooms.live_ids)
            for room_id in live:
                await self.registry.owned(room_id)
            return len(live)
        assert self.repair is not None
        await self.cluster.start(self.router.forwarded)
        self._tasks.append(asyncio.create_task(self.repair.sweep(), name="rooms-sweep"))
        return 0

    async def shutdown(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.registry.stop_all()
        if self.cluster is not None:
            await self.cluster.stop()
        self._bots.shutdown()
        self._room_store.close()

    async def drain(self, code: int, reason: str) -> None:
        """A graceful restart (SIGTERM): take no more rooms, let every commit in flight finish,
        hand the rooms over (release their leases, so another process takes them at once), then
        close every socket held here with ``code`` so that the clients reconnect elsewhere."""
        self.registry.draining = True
        for task in self._tasks:
            task.cancel()
        actors = await self.registry.retire_all()
        cluster = self.cluster
        if cluster is not None:
            owned = [actor.id for actor in actors if cluster.leases.owns(actor.id)]
            await asyncio.gather(*(cluster.leases.release(room_id) for room_id in owned))
            metrics.HANDED_OVER.inc(len(owned))
            log.info("handed %d room(s) over", len(owned), extra=ids(node=cluster.id, event="drain"))
        self.sockets.close_all(code, reason)
        self.spectators.close_all(code, reason)
