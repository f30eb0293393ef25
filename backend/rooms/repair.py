"""Making good what the cluster loses: rooms whose owner died, presence of a dead process's
sockets, and messages lost while Redis was away.

Every ``SWEEP_S`` a process takes over live rooms without an owner (their deadlines and computer
moves go on) and tells each room it owns who is connected over all processes. After its
subscription came back, and for each message to a player that could not be published, the
players concerned are sent the full current state (what a client's ``hello`` would do), and the
spectators held here the room's state if it is newer than what they have.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine, Iterable
from typing import Any

from redis.exceptions import RedisError

from backend.db.store import Store

from . import commands as cmd
from .cluster import RENEW_S, RedisCluster
from .decide import clocks_settled
from .refused import RoomRefused
from .registry import RoomRegistry
from .routing import CommandRouter
from .watching import Watching

log = logging.getLogger(__name__)

SWEEP_S = 2.0  # how often a cluster process looks for rooms without an owner and for presence changes
# How long a player must be missing from ``presence:{room}`` before the sweep takes it for gone (R6.2:
# that starts its absence clock): more than one heartbeat (the ``alive`` key of the process holding
# its socket is renewed every ``RENEW_S``) plus the listener's reconnect, counted again from this
# process's last resubscribe — after a Redis restart each process announces its sockets again when
# its own subscription is back, which may be a moment after the owner's.
PRESENCE_GRACE_S = 2 * RENEW_S + SWEEP_S


class AbsenceGrace:
    """Which players a sweep may take for gone: those missing from the cluster's presence for
    ``PRESENCE_GRACE_S`` in a row, counted from the last resubscribe at the earliest. Time is an
    input (monotonic seconds), so that the rule is tested without waiting."""

    def __init__(self, grace_s: float = PRESENCE_GRACE_S) -> None:
        self._grace_s = grace_s
        self._missing_since: dict[tuple[str, str], float] = {}
        self._resubscribed_at = float("-inf")

    def resubscribed(self, now: float) -> None:
        self._resubscribed_at = now

    def gone(self, room_id: str, missing: Iterable[str], now: float) -> set[str]:
        """Of the players the room counts present, ``missing`` are not in the cluster's presence now:
        those missing for the whole grace (the others are remembered, and forgotten once seen)."""
        missing = set(missing)
        for key in [key for key in self._missing_since if key[0] == room_id and key[1] not in missing]:
            del self._missing_since[key]
        since_resubscribe = now - self._resubscribed_at
        gone = set()
        for player in missing:
            first = self._missing_since.setdefault((room_id, player), now)
            if now - first >= self._grace_s and since_resubscribe >= self._grace_s:
                gone.add(player)
        return gone

    def forget(self, room_id: str, player: str) -> None:
        self._missing_since.pop((room_id, player), None)


class ClusterRepair:
    def __init__(
        self, store: Store, cluster: RedisCluster, registry: RoomRegistry, router: CommandRouter, watching: Watching
    ) -> None:
        self.store = store
        self._cluster = cluster
        self._registry = registry
        self._router = router
        self._watching = watching
        self._owed: set[tuple[str, str]] = set()  # (room, player) waiting for a fresh state
        self.grace = AbsenceGrace()
        cluster.leases.on_lost = registry.lost
        cluster.link.on_resubscribed.append(self.resubscribed)
        cluster.bus.on_undelivered = self.owe_state

    async def sweep(self) -> None:
        """Take over live rooms that lost their owner, and tell each owned room who is connected."""
        cluster = self._cluster
        while True:
            try:
                for room_id in await asyncio.to_thread(self.store.rooms.live_ids):
                    if not cluster.leases.owns(room_id) and await cluster.leases.owner(room_id) is None:
                        with contextlib.suppress(RoomRefused):
                            await self._registry.owned(room_id)
                for room_id, actor in self._registry.held().items():
                    present = await cluster.bus.present(room_id)
                    for player in present - actor.state.present:
                        await actor.handle(cmd.Connect(player))
                    for player in self.grace.gone(room_id, actor.state.present - present, time.monotonic()):
                        self.grace.forget(room_id, player)
                        await actor.handle(cmd.Disconnect(player))
                    if not clocks_settled(actor.state):
                        # a clock restored with the room (rebuilt after a takeover) for a player who
                        # is here: stopped now rather than when it falls due (R6.2)
                        await actor.handle(cmd.Tick())
                    await self._watching.recount(room_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("room sweep failed: %s", error)
            await asyncio.sleep(SWEEP_S)

    def resubscribed(self) -> None:
        """Redis may have restarted empty and messages may have been lost: this process announces
        again every socket it holds (``presence:{room}``), every socket held here gets the full
        current state again, every spectator held here the room's current state if it is newer than
        the one it has; no player is taken for gone before the grace after this."""
        self.grace.resubscribed(time.monotonic())
        _background(self._reannounce())
        for room_id, player_id in self._cluster.bus.local_players():
            _background(self._router.quietly(room_id, cmd.Hello(player_id)))
        for room_id in self._watching.spectators.rooms_held():
            _background(self._watching.refresh(room_id))

    async def _reannounce(self) -> None:
        try:
            await self._cluster.presence.arrived_all(self._cluster.bus.local_players())
        except (RedisError, OSError) as error:  # gone again: the next resubscribe announces them
            log.info("could not announce the sockets held here again: %s", error)

    def owe_state(self, room_id: str, player_id: str) -> None:
        """A message to ``player_id`` was lost on its way (Redis went away): once Redis answers
        again, send the player the current full state, which supersedes what was lost."""
        if (room_id, player_id) in self._owed:
            return
        self._owed.add((room_id, player_id))
        _background(self._resend_state(room_id, player_id))

    async def _resend_state(self, room_id: str, player_id: str) -> None:
        try:
            for attempt in range(20):
                await asyncio.sleep(0.25 * (attempt + 1))
                try:
                    await self._router.command(room_id, cmd.Hello(player_id))
                    return
                except RoomRefused:
                    continue
                except Exception as error:  # Redis still away
                    log.info("still cannot resend the state of %s in %s: %s", player_id, room_id, error)
        finally:
            self._owed.discard((room_id, player_id))


def _background(work: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(work)
    task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
