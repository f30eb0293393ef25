"""The rooms of this process: finding (or rebuilding) a room's actor and handing it commands.

This is what the API talks to. In one process every room is ours. With a cluster (Redis), a
room is served by the process that holds its lease: a command for a room we do not own is
forwarded to its owner; a room without an owner is taken over by whoever needs it first, by
rebuilding it from the database (DESIGN promise 5). Either way a room's state lives only in its
owner's actor, and everything the actor knows is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from redis.exceptions import RedisError

from backend.db.common import bot_player_id, new_id
from backend.db.models import Player
from backend.db.store import Store
from backend.db.writes import TooManyTables
from backend.engine import new_seed
from backend.ops import housekeeping, metrics
from backend.ops.logs import ids

from . import commands as cmd
from .actor import STALE_COPY, RoomActor
from .bots import level_problem
from .cluster import LEASE_MS, RENEW_S, Forwarded, RedisCluster
from .codes import CloseCode, RoomCode
from .decide import Limits
from .effects import Refusal
from .model import FreshMatch, RematchAction, RoomState
from .options import TableOptions
from .ports import BotRunner, Bus, Clock, Connection
from .reactions import DEFAULT_LIMITS, ReactionLimits
from .sql_store import SqlRoomStore, rebuild
from .watch import Spectators, watch_code, watch_refusal

log = logging.getLogger(__name__)
SWEEP_S = 2.0  # how often a cluster process looks for rooms without an owner and for presence changes
# How long a command waits for a table without a reachable owner before it is refused `unavailable`:
# longer than a dead owner's lease takes to lapse, so that a takeover always comes first.
TAKEOVER_WAIT_S = LEASE_MS / 1000 + 2 * RENEW_S


class RoomRefused(Exception):
    """A room refused a command; the API maps ``code`` to an answer."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.code = refusal.code
        self.message = refusal.message


@dataclass(frozen=True, slots=True)
class RoomTiming:
    bot_delay_s: float = 0.6
    rematch_timeout_s: float = 120.0
    open_table_ttl_s: float = 86400.0  # an open table nobody joined expires after this long
    housekeeping_s: float = 60.0  # how often housekeeping runs (0: never on its own)
    reactions: ReactionLimits = DEFAULT_LIMITS  # quick reactions per seat and window


@dataclass(slots=True)
class Housekept:
    """What one round of housekeeping did."""

    expired: list[str] = field(default_factory=list)
    evicted: list[str] = field(default_factory=list)
    refreshed: list[str] = field(default_factory=list)


def fresh_match(seed: int | None = None) -> FreshMatch:
    """A new match's id and seed, from the secure source (R2) unless a test fixes the seed."""
    return FreshMatch(match_id=new_id("m"), seed=new_seed() if seed is None else seed)


UNAVAILABLE = Refusal(RoomCode.UNAVAILABLE, "the table is moving to another server; nothing changed, try again")


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
        self.spectators = spectators or Spectators()
        self.spectators.on_count = self._watchers_changed
        self._watch_sharing = asyncio.Lock()
        self.store = store
        self._match_seed = match_seed  # tests only (MATCH_SEED): the same deals in every match
        self.bus = bus
        self._room_store = room_store
        self._clock = clock
        self._bots = bots
        self._timing = timing
        self._cluster = cluster
        self.cluster = cluster
        self._limits = Limits(rematch_timeout_s=timing.rematch_timeout_s, reactions=timing.reactions)
        self._actors: dict[str, RoomActor] = {}
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._housekeeper: asyncio.Task[None] | None = None
        self._owed: set[tuple[str, str]] = set()  # (room, player) waiting for a fresh state
        self._sockets: dict[Connection, tuple[str, str]] = {}  # every socket held here → (room, player)
        self.draining = False  # a graceful restart is under way: no new rooms, no new sockets
        # Somebody joined or left a table (through this process): "Play again" invitations to it
        # lapse once it is no longer waiting for players (``backend.api.lobby_events``).
        self.on_table_changed: Callable[[str], None] = lambda room_id: None
        metrics.track(metrics.ROOMS_LIVE, lambda: len(self._actors))
        metrics.track(metrics.SOCKETS_OPEN, lambda: len(self._sockets))
        if cluster is not None:
            metrics.track(metrics.ROOMS_OWNED, cluster.owned_count)

    # ------------------------------------------------------------ start and stop

    async def start(self) -> int:
        """One process: rebuild every live room now. A cluster: join it and take unowned rooms as
        they are found (each room is rebuilt by one process only)."""
        if self._timing.housekeeping_s > 0:
            self._housekeeper = asyncio.create_task(self._housekeeping(), name="rooms-housekeeping")
        if self._cluster is None:
            live = await asyncio.to_thread(self.store.rooms.live_ids)
            for room_id in live:
                await self._owned_actor(room_id)
            return len(live)
        self._cluster.on_lost = self._lost
        self._cluster.on_resubscribed = self._repair
        self._cluster.on_undelivered = self._owe_state
        self._cluster.on_watch = self.spectators.relayed
        self._cluster.on_watchers = self._watchers_told
        self.spectators.relay = self._cluster
        await self._cluster.start(self._forwarded)
        self._sweeper = asyncio.create_task(self._sweep(), name="rooms-sweep")
        return 0

    async def shutdown(self) -> None:
        for task in (self._sweeper, self._housekeeper):
            if task is not None:
                task.cancel()
        for actor in self._actors.values():
            actor.stop()
        if self._cluster is not None:
            await self._cluster.stop()
        self._bots.shutdown()
        self._room_store.close()

    async def drain(self, code: int, reason: str) -> None:
        """A graceful restart (SIGTERM): take no more rooms, let every commit in flight finish,
        hand the rooms over (release their leases, so another process takes them at once), then
        close every socket held here with ``code`` so that the clients reconnect elsewhere."""
        self.draining = True
        for task in (self._sweeper, self._housekeeper):
            if task is not None:
                task.cancel()
        async with self._loading:  # a room being rebuilt right now is included
            actors = list(self._actors.values())
            self._actors.clear()
        await asyncio.gather(*(actor.retire() for actor in actors))
        cluster = self._cluster
        if cluster is not None:
            owned = [actor.id for actor in actors if cluster.owns(actor.id)]
            await asyncio.gather(*(cluster.release(room_id) for room_id in owned))
            metrics.HANDED_OVER.inc(len(owned))
            log.info("handed %d room(s) over", len(owned), extra=ids(node=cluster.id, event="drain"))
        for connection in list(self._sockets):
            connection.close(code, reason)
        self.spectators.close_all(code, reason)

    async def sockets_closed(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until every socket held here has gone."""
        deadline = time.monotonic() + timeout
        while self._sockets and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return not self._sockets

    # ------------------------------------------------------------ housekeeping

    async def _housekeeping(self) -> None:
        while True:
            await asyncio.sleep(self._timing.housekeeping_s)
            try:
                await self.housekeep(self._clock.now())
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("housekeeping failed: %s", error)

    async def housekeep(self, now: datetime) -> Housekept:
        """Expire open tables nobody joined, drop finished rooms from memory, and rebuild rooms
        somebody else changed in the database (``backend.ops.housekeeping``)."""
        done = Housekept()
        if self.draining:
            return done
        ttl = self._timing.open_table_ttl_s
        for room_id, creator in await asyncio.to_thread(housekeeping.expired_open_tables, self.store, now, ttl):
            try:
                await self.leave(room_id, creator)
            except RoomRefused:
                continue  # somebody joined (or another process expired it) meanwhile
            done.expired.append(room_id)
            metrics.ROOMS_EXPIRED.inc()
            log.info("open table expired", extra=ids(room=room_id, player=creator, event="room_expired"))
        mine = {room_id: actor for room_id, actor in self._actors.items() if self._holds(room_id)}
        stored = await asyncio.to_thread(self.store.rooms.versions, list(mine))
        for room_id, actor in mine.items():
            if housekeeping.changed_elsewhere(actor.state, stored.get(room_id)):
                self._forget(actor)  # changed behind our back: rebuild, and tell the players
                with contextlib.suppress(RoomRefused):
                    fresh = await self._owned_actor(room_id)
                    if fresh is not None:
                        fresh.announce()
                done.refreshed.append(room_id)
            elif housekeeping.evictable(actor.state, await self.bus.present(room_id)):
                self._forget(actor)
                done.evicted.append(room_id)
                metrics.ROOMS_EVICTED.inc()
        return done

    def _holds(self, room_id: str) -> bool:
        return self._cluster is None or self._cluster.owns(room_id)

    def rooms_in_memory(self) -> list[RoomState]:
        return [actor.state for actor in self._actors.values()]

    # ------------------------------------------------------------ actors and ownership

    async def _owned_actor(self, room_id: str, created: bool = False) -> RoomActor | None:
        """The room's actor if this process owns the room (taking it over if nobody does),
        None if another process owns it; ``RoomRefused`` if there is no such room."""
        cluster = self._cluster
        actor = self._actors.get(room_id)
        if actor is not None and (cluster is None or cluster.owns(room_id)):
            return actor
        if self.draining:  # handing rooms over, not taking them
            if cluster is None:
                raise RoomRefused(UNAVAILABLE)
            return None
        if cluster is not None and not await cluster.acquire(room_id):
            return None
        async with self._loading:
            actor = self._actors.get(room_id)
            if actor is None or actor.stale:
                stored = await self._room_store.load(room_id)
                if stored is None:
                    if cluster is not None:
                        await cluster.release(room_id)
                    raise RoomRefused(Refusal(RoomCode.ROOM_NOT_FOUND, f"no table {room_id!r}"))
                state = replace(rebuild(stored), present=await self.bus.present(room_id))
                actor = RoomActor(
                    state,
                    store=self._room_store,
                    bus=self.bus,
                    clock=self._clock,
                    bots=self._bots,
                    limits=self._limits,
                    bot_delay_s=self._timing.bot_delay_s,
                    on_stale=self._forget,
                    spectators=self.spectators,
                )
                self._actors[room_id] = actor
                actor.resume()
                if cluster is not None:
                    await self._learn_watchers(cluster, room_id)
                    actor.announce()
                    if not created:
                        metrics.TAKEOVERS.inc()
                        log.info("took the room over", extra=ids(room=room_id, node=cluster.id, event="takeover"))
        return actor

    async def _learn_watchers(self, cluster: RedisCluster, room_id: str) -> None:
        """A room just taken: how many watch it on other processes (they need its changes)."""
        try:
            self.spectators.set_watching(room_id, await cluster.watcher_total(room_id))
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("watchers").inc()

    def _forget(self, actor: RoomActor) -> None:
        if self._actors.get(actor.id) is actor:
            del self._actors[actor.id]
        actor.stop()
        if self._cluster is not None and self._cluster.owns(actor.id):
            asyncio.get_running_loop().create_task(self._cluster.release(actor.id))

    def _lost(self, room_id: str) -> None:
        """The lease could not be renewed: another process may own the room now."""
        actor = self._actors.pop(room_id, None)
        if actor is not None:
            actor.stop()

    async def _command(self, room_id: str, command: cmd.Command) -> RoomState | None:
        """Carry out ``command`` on its room, here or on the owner; the new state when it is here.

        While the room has no owner that answers (it died, or its lease just moved) the command is
        tried again, for up to ``TAKEOVER_WAIT_S``: an owner whose inbox nobody listens to is dead,
        and its room is taken over at once rather than when its lease lapses. Only then, or when
        the owner does not answer at all, is the command refused ``unavailable``."""
        cluster = self._cluster
        deadline = time.monotonic() + TAKEOVER_WAIT_S
        pause, lapsed = 0.05, False
        while True:
            try:
                actor = await self._owned_actor(room_id)
                if actor is not None:
                    refusal = await actor.handle(command)
                    if refusal is STALE_COPY:
                        continue  # the copy went stale while the command waited for it: rebuilt, again
                    if refusal is not None:
                        raise RoomRefused(refusal)
                    return actor.state
                assert cluster is not None
                owner = await cluster.owner(room_id)
                if owner is None:
                    if not lapsed:
                        lapsed = True
                        continue  # the lease lapsed just now: try to take the room at once
                else:
                    answer = await cluster.forward(owner, room_id, command)
                    if answer.refusal is not None:
                        raise RoomRefused(answer.refusal)
                    if not answer.retry:
                        return None
                    if answer.gone and await cluster.take_over(room_id, owner):
                        continue  # its owner is dead: the room is ours to rebuild now
            except TimeoutError:
                break  # the owner did not answer (it may have died): the client resends
            except (RedisError, OSError) as error:  # Redis away for a moment
                metrics.REDIS_ERRORS.labels("command").inc()
                log.info("room %s: Redis error while looking for its owner: %s", room_id, error)
            if time.monotonic() + pause > deadline:
                break
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.5)
        metrics.REFUSALS.labels(UNAVAILABLE.code).inc()
        raise RoomRefused(UNAVAILABLE)

    async def _forwarded(self, room_id: str, command: cmd.Command) -> Forwarded:
        """A command another process forwarded to us as the room's owner."""
        if self._cluster is None or not self._cluster.owns(room_id):
            return Forwarded(None, retry=True)
        try:
            actor = await self._owned_actor(room_id)
        except RoomRefused as refused:
            return Forwarded(Refusal(refused.code, refused.message))
        if actor is None:
            return Forwarded(None, retry=True)
        return Forwarded(await actor.handle(command))

    # ------------------------------------------------------------ the cluster's housekeeping

    async def _sweep(self) -> None:
        """Take over live rooms that lost their owner (their deadlines and computer moves go on),
        and tell each owned room who is connected over all processes (a dead process's sockets)."""
        cluster = self._cluster
        assert cluster is not None
        while True:
            try:
                for room_id in await asyncio.to_thread(self.store.rooms.live_ids):
                    if not cluster.owns(room_id) and await cluster.owner(room_id) is None:
                        with contextlib.suppress(RoomRefused):
                            await self._owned_actor(room_id)
                for room_id, actor in list(self._actors.items()):
                    if not cluster.owns(room_id):
                        continue
                    present = await cluster.present(room_id)
                    for player in present - actor.state.present:
                        await actor.handle(cmd.Connect(player))
                    for player in actor.state.present - present:
                        await actor.handle(cmd.Disconnect(player))
                    # Spectators of a process that died stop counting; a lost notice is made good.
                    watching = self.spectators.watching(room_id)
                    await self._learn_watchers(cluster, room_id)
                    if self.spectators.watching(room_id) != watching:
                        self._tell_watchers(room_id, self.spectators.watching(room_id))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("room sweep failed: %s", error)
            await asyncio.sleep(SWEEP_S)

    def _repair(self) -> None:
        """After the cluster's subscription came back: messages may have been lost, so every
        socket held here gets the full current state again (what a client's hello would do), and
        every spectator held here the room's current state if it is newer than the one it has."""
        assert self._cluster is not None
        for room_id, player_id in self._cluster.local_players():
            task = asyncio.get_running_loop().create_task(self._quiet(room_id, cmd.Hello(player_id)))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
        for room_id in self.spectators.rooms_held():
            task = asyncio.get_running_loop().create_task(self._refresh_spectators(room_id))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _refresh_spectators(self, room_id: str) -> None:
        actor = self._actors.get(room_id)
        state = actor.state if actor is not None and self._holds(room_id) else await self._stored_state(room_id)
        if state is not None:
            self.spectators.refresh(state)

    async def _quiet(self, room_id: str, command: cmd.Command) -> None:
        with contextlib.suppress(RoomRefused):
            await self._command(room_id, command)

    def _owe_state(self, room_id: str, player_id: str) -> None:
        """A message to ``player_id`` was lost on its way (Redis went away): once Redis answers
        again, send the player the current full state, which supersedes what was lost."""
        if (room_id, player_id) in self._owed:
            return
        self._owed.add((room_id, player_id))
        task = asyncio.get_running_loop().create_task(self._resend_state(room_id, player_id))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _resend_state(self, room_id: str, player_id: str) -> None:
        try:
            for attempt in range(20):
                await asyncio.sleep(0.25 * (attempt + 1))
                try:
                    await self._command(room_id, cmd.Hello(player_id))
                    return
                except RoomRefused:
                    continue
                except Exception as error:  # Redis still away
                    log.info("still cannot resend the state of %s in %s: %s", player_id, room_id, error)
        finally:
            self._owed.discard((room_id, player_id))

    # ------------------------------------------------------------ the lobby (REST)

    async def create_room(
        self, player: Player, options: TableOptions, visibility: str, max_open: int | None = None
    ) -> tuple[RoomState | None, str]:
        """The new room's state (None if another process has it) and its id. The computer takes its
        seats at once (``options.computer_seats``), each seat a computer player of its own; the
        match starts when the last seat is taken. A player with ``max_open`` tables waiting for
        others is refused a new one (``too_many_tables``) rather than losing the oldest, whose
        invite link may be on its way to a friend."""
        try:
            row = await asyncio.to_thread(
                self.store.rooms.create, player.id, options.to_json(), visibility, options.seats, max_open
            )
        except TooManyTables:
            raise RoomRefused(
                Refusal(RoomCode.TOO_MANY_TABLES, f"you have {max_open} open tables already; start or leave one first")
            ) from None
        if not options.computer_seats:
            actor = await self._owned_actor(row.id, created=True)
            return (None if actor is None else actor.state), row.id
        assert options.bot_level is not None
        return await self._seat_computers(row.id, options.bot_level, options.computer_seats, {player.id}), row.id

    async def seat_computers(self, room_id: str, player_id: str, level: str) -> RoomState | None:
        """The creator of an open table fills its empty seats with computer players at ``level``
        (a table for nothing only, as at creation); the match starts with the last of them."""
        record = await asyncio.to_thread(self.store.rooms.record, room_id)
        if record is None or record.room.status == "closed":
            raise RoomRefused(Refusal(RoomCode.ROOM_NOT_FOUND, f"no table {room_id!r}"))
        seats = record.room.seat_ids
        if seats[0] != player_id:
            raise RoomRefused(Refusal(RoomCode.NOT_CREATOR, "only the table's creator seats the computer"))
        if record.room.status != "open":
            raise RoomRefused(Refusal(RoomCode.ROOM_STARTED, "the match has started"))
        options = TableOptions.from_json(record.room.options)
        if options.stake_per_point:
            raise RoomRefused(Refusal(RoomCode.STAKED_TABLE, "a table played for a stake takes no computer player"))
        problem = level_problem(options.rules, level)
        if problem is not None:
            raise RoomRefused(Refusal(RoomCode.LEVEL_UNAVAILABLE, problem))
        free = [seat for seat, pid in enumerate(seats) if pid is None]
        return await self._seat_computers(room_id, level, free, {pid for pid in seats if pid is not None})

    async def _seat_computers(
        self, room_id: str, level: str, seats: Sequence[int], taken: set[str]
    ) -> RoomState | None:
        """A computer player at ``level`` joins at each of ``seats``, each a player of its own (not
        one of ``taken``); the state after the last join."""
        state, number = None, 1
        for seat in seats:
            while bot_player_id(level, number) in taken:
                number += 1
            bot = await asyncio.to_thread(self.store.players.bot, level, number)
            taken.add(bot.id)
            state = await self.join(room_id, bot, seat)
        return state

    async def join(self, room_id: str, player: Player, seat: int | None = None) -> RoomState | None:
        state = await self._command(
            room_id, cmd.Join(player.id, player.name, player.bot_level, fresh_match(self._match_seed), seat)
        )
        self.on_table_changed(room_id)
        return state

    async def leave(self, room_id: str, player_id: str) -> None:
        await self._command(room_id, cmd.Leave(player_id))
        self.on_table_changed(room_id)
        actor = self._actors.pop(room_id, None)
        if actor is not None:
            self._forget(actor)

    async def version(self, room_id: str) -> int:
        """The room's current version, for refusals made before a room was asked."""
        actor = self._actors.get(room_id)
        if actor is not None:
            return actor.state.version
        record = await asyncio.to_thread(self.store.rooms.record, room_id)
        return 0 if record is None else record.room.version

    # ------------------------------------------------------------ sockets

    async def connect(self, room_id: str, player_id: str, connection: Connection) -> None:
        if self.draining:
            connection.close(CloseCode.SERVICE_RESTART, "this server is restarting; reconnect")
            return
        self._sockets[connection] = (room_id, player_id)
        log.info("socket opened", extra=ids(room=room_id, player=player_id, event="socket_open"))
        replaced = await self.bus.attach(room_id, player_id, connection)
        if replaced is not None:
            replaced.close(CloseCode.REPLACED, "replaced by a newer connection")
            await self._command(room_id, cmd.Hello(player_id))
            return
        await self._command(room_id, cmd.Connect(player_id))
        if self.spectators.count(room_id):
            connection.send(self.spectators.count_text(self.spectators.count(room_id)))

    # ------------------------------------------------------------ spectators

    async def watch(self, room_id: str, code: str | None, connection: Connection) -> tuple[int, str] | None:
        """Let ``connection`` watch the room: None, or why not (a close code and its reason).

        The room's owner serves its spectators from the room's state in memory; another process
        of a cluster follows the owner's relayed messages and greets a newcomer with the state
        read from the database (``Spectators`` keeps the order of versions)."""
        if self.draining:
            return CloseCode.SERVICE_RESTART, "this server is restarting; reconnect"
        cluster = self._cluster
        if cluster is None:
            try:
                actor = await self._owned_actor(room_id)
            except RoomRefused:
                return CloseCode.UNKNOWN_ROOM, "unknown room"
            assert actor is not None
            refusal = watch_refusal(actor.state, code)
            if refusal is None and not self.spectators.add(room_id, connection, actor.state):
                refusal = CloseCode.WATCH_FULL, "this table has all the spectators it takes"
            return refusal
        if not self.spectators.admit(room_id, connection):
            return CloseCode.WATCH_FULL, "this table has all the spectators it takes"
        # Listen before reading the state, so that no change after the read is missed: the owner
        # relays every change, and one relayed while the state is read is kept for the greeting
        # (``Spectators`` sends whichever is newer, and never a version it has sent already).
        await cluster.follow_watch(room_id)
        try:
            actor = await self._owned_actor(room_id)
            state = actor.state if actor is not None else await self._stored_state(room_id)
        except RoomRefused:
            state = None
        refusal = watch_refusal(state, code)
        if refusal is not None or state is None:
            self.unwatch(room_id, connection)
            return refusal
        self.spectators.greet(connection, state)
        return None

    async def _stored_state(self, room_id: str) -> RoomState | None:
        stored = await self._room_store.load(room_id)
        return None if stored is None else rebuild(stored)

    def unwatch(self, room_id: str, connection: Connection) -> None:
        self.spectators.remove(room_id, connection)

    def _watchers_changed(self, room_id: str, here: int) -> None:
        """This process's spectators of a room changed: tell the players how many watch in all."""
        cluster = self._cluster
        if cluster is None:
            self._tell_watchers(room_id, here)
            return
        task = asyncio.get_running_loop().create_task(self._share_watchers(cluster, room_id))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _share_watchers(self, cluster: RedisCluster, room_id: str) -> None:
        """Record this process's count in Redis, then tell the owner the total (it tells the players)."""
        async with self._watch_sharing:  # in the order of the changes
            here = self.spectators.count(room_id)
            try:
                total = await cluster.count_watchers(room_id, here)
                if not self.spectators.holds(room_id):  # unless a newcomer is being greeted here
                    await cluster.unfollow_watch(room_id, lambda: self.spectators.holds(room_id))
                owner = await cluster.owner(room_id)
                if owner is not None and owner != cluster.id:
                    await cluster.tell_owner_watchers(owner, room_id, total)
            except (RedisError, OSError) as error:
                metrics.REDIS_ERRORS.labels("watchers").inc()
                log.info("could not share the spectators of %s: %s", room_id, error)
                return
            self.spectators.set_watching(room_id, total)
            if owner == cluster.id:
                self._tell_watchers(room_id, total)

    def _watchers_told(self, room_id: str, total: int) -> None:
        """The owner learns how many watch its room over the cluster."""
        self.spectators.set_watching(room_id, total)
        self._tell_watchers(room_id, total)

    def _tell_watchers(self, room_id: str, count: int) -> None:
        """The players of the room see how many watch (not a change of the room: no version)."""
        actor = self._actors.get(room_id)
        if actor is None:
            return
        text = self.spectators.count_text(count)
        for holder in actor.state.seats:
            if holder is not None and holder.bot_level is None:
                self.bus.deliver(room_id, holder.player_id, text)

    async def set_spectators(
        self, room_id: str, player_id: str, allowed: bool | None, reactions: bool | None = None
    ) -> RoomState | None:
        return await self._command(room_id, cmd.SetSpectators(player_id, allowed, reactions))

    async def watch_link(self, room_id: str, player_id: str) -> str:
        """A private table's watch code, for its players only."""
        record = await asyncio.to_thread(self.store.rooms.record, room_id)
        if record is None:
            raise RoomRefused(Refusal(RoomCode.ROOM_NOT_FOUND, f"no table {room_id!r}"))
        if player_id not in record.room.seat_ids:
            raise RoomRefused(Refusal(RoomCode.NOT_SEATED, "only the table's players can share a watch link"))
        return watch_code(record.room.invite_code)

    async def disconnect(self, room_id: str, player_id: str, connection: Connection) -> None:
        if self._sockets.pop(connection, None) is not None:
            log.info("socket closed", extra=ids(room=room_id, player=player_id, event="socket_close"))
        if not await self.bus.detach(room_id, player_id, connection):
            return  # an older socket that a newer one replaced
        if self.draining:
            return  # the player reconnects to another process; its owner sees any real absence
        if self._cluster is None and room_id not in self._actors:
            return
        with contextlib.suppress(RoomRefused):
            await self._command(room_id, cmd.Disconnect(player_id))
        actor = self._actors.get(room_id)
        if actor is None:
            return
        state = actor.state
        if not await self.bus.present(room_id) and state.status in ("finished", "closed") and state.rematch is None:
            # Nothing can happen here without a socket: free the memory; the room is rebuilt
            # from the database if anybody comes back.
            self._forget(actor)

    async def _intent(self, room_id: str, command: cmd.Command) -> None:
        """A socket's intent, timed from its arrival here to its answer (``thousand_intent_seconds``)."""
        started = time.perf_counter()
        route = "local"
        try:
            if await self._command(room_id, command) is None:
                route = "forwarded"
        finally:
            metrics.INTENT_SECONDS.labels(route).observe(time.perf_counter() - started)

    async def hello(self, room_id: str, player_id: str) -> None:
        await self._command(room_id, cmd.Hello(player_id))

    async def play(self, room_id: str, player_id: str, msg_id: int, version: int, card: str, declare: bool) -> None:
        await self._intent(room_id, cmd.PlayCard(player_id, msg_id, version, card, declare))

    async def move(self, room_id: str, command: cmd.GameCommand) -> None:
        """A bid, pass or discard (V0.6, V0.7) from a player's socket."""
        await self._intent(room_id, command)

    async def resign(self, room_id: str, player_id: str, msg_id: int, version: int) -> None:
        await self._intent(room_id, cmd.Resign(player_id, msg_id, version))

    async def rematch(self, room_id: str, player_id: str, msg_id: int, version: int, action: RematchAction) -> None:
        record = await asyncio.to_thread(self.store.rooms.record, room_id)
        if record is None:
            return
        others = [p.id for p in record.players.values() if p.bot_level is None]
        busy = await self._room_store.busy_elsewhere(room_id, others) if action in ("accept", "offer") else None
        await self._intent(
            room_id, cmd.Rematch(player_id, msg_id, version, action, fresh_match(self._match_seed), busy)
        )

    async def chat(self, room_id: str, player_id: str, msg_id: int, version: int, text: str) -> None:
        await self._intent(room_id, cmd.Chat(player_id, msg_id, version, text))

    async def react(self, room_id: str, player_id: str, msg_id: int, version: int, reaction: str) -> None:
        await self._intent(room_id, cmd.React(player_id, msg_id, version, reaction))

    async def mute_reactions(self, room_id: str, player_id: str, msg_id: int, version: int, muted: bool) -> None:
        await self._intent(room_id, cmd.MuteReactions(player_id, msg_id, version, muted))
