"""A command carried to its room: to the actor here, or forwarded to the room's owner.

A command for a room we do not own is forwarded to its owner (``cluster.forwarding``); a room
without an owner that answers is taken over. The owner's side of a forwarded command is
``forwarded``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from redis.exceptions import RedisError

from backend.ops import metrics

from . import commands as cmd
from .actor import STALE_COPY
from .cluster import LEASE_MS, RENEW_S, Forwarded, RedisCluster
from .effects import Refusal
from .model import RoomState
from .refused import UNAVAILABLE, RoomRefused
from .registry import RoomRegistry

log = logging.getLogger(__name__)

# How long a command waits for a table without a reachable owner before it is refused `unavailable`:
# longer than a dead owner's lease takes to lapse, so that a takeover always comes first.
TAKEOVER_WAIT_S = LEASE_MS / 1000 + 2 * RENEW_S


class CommandRouter:
    def __init__(self, registry: RoomRegistry, cluster: RedisCluster | None) -> None:
        self._registry = registry
        self._cluster = cluster

    async def tick(self, room_id: str) -> None:
        """Tell a room the time, here or at its owner: a stored deadline has passed (the sweep)."""
        await self.command(room_id, cmd.Tick())

    async def command(self, room_id: str, command: cmd.Command) -> RoomState | None:
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
                actor = await self._registry.owned(room_id)
                if actor is not None:
                    refusal = await actor.handle(command)
                    if refusal is STALE_COPY and time.monotonic() < deadline:
                        # The copy went stale (another writer, a fenced lease, a commit whose answer
                        # was lost): carried out again on the room rebuilt from the log, which
                        # answers an intent already stored as accepted.
                        continue
                    if refusal is STALE_COPY:
                        break
                    if refusal is not None:
                        raise RoomRefused(refusal)
                    return actor.state
                assert cluster is not None
                owner = await cluster.leases.owner(room_id)
                if owner is None:
                    if not lapsed:
                        lapsed = True
                        continue  # the lease lapsed just now: try to take the room at once
                else:
                    answer = await cluster.forwarding.forward(owner, room_id, command)
                    if answer.refusal is not None:
                        raise RoomRefused(answer.refusal)
                    if not answer.retry:
                        return None
                    if answer.gone and await cluster.leases.take_over(room_id, owner):
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

    async def quietly(self, room_id: str, command: cmd.Command) -> None:
        """The command, its refusal ignored (a repair: nobody waits for its answer)."""
        with contextlib.suppress(RoomRefused):
            await self.command(room_id, command)

    async def forwarded(self, room_id: str, command: cmd.Command) -> Forwarded:
        """A command another process forwarded to us as the room's owner."""
        if not self._registry.holds(room_id):
            return Forwarded(None, retry=True)
        try:
            actor = await self._registry.owned(room_id)
        except RoomRefused as refused:
            return Forwarded(Refusal(refused.code, refused.message))
        if actor is None:
            return Forwarded(None, retry=True)
        refusal = await actor.handle(command)
        if refusal is STALE_COPY:  # rebuilt (here or by the room's new owner): the sender looks again
            return Forwarded(None, retry=True)
        return Forwarded(refusal)
