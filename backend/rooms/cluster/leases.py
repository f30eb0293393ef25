"""Room leases: each room has exactly one owner process at a time, the one holding its lease.

The lease is a Redis key ``room:{id}:owner`` set with ``SET NX PX`` and renewed while the owner
keeps the room, taken only while this process's inbox is listened to. It is an optimisation for
liveness; safety comes from the database: each takeover claims the room's next lease token
(``RoomRepository.claim``) and every write names it beside the version, so a process that lost its
lease — paused, or cut off from Redis — can never commit over the new owner, whatever the timing.
The heartbeat that renews the leases also keeps ``alive:{proc}`` (``presence``) in the same round
trip: one pipeline a second for everything this process claims.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from redis.exceptions import RedisError

from backend.ops import metrics
from backend.ops.logs import ids

from .link import RedisLink
from .presence import ALIVE_S, alive_key

log = logging.getLogger(__name__)

LEASE_MS = 4000  # an owner that stops renewing loses its rooms after this long
RENEW_S = 1.0

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end
"""
# The lease of an owner that is gone, taken at once instead of waiting for it to lapse.
_TAKE_OVER = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
"""


def owner_key(room_id: str) -> str:
    return f"room:{room_id}:owner"


class Leases:
    def __init__(self, link: RedisLink) -> None:
        self.id = link.id
        self._link = link
        self._redis = link.redis
        self._owned: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self.on_lost: Callable[[str], None] = lambda room_id: None  # a lease could not be renewed

    def start(self) -> None:
        self._task = asyncio.create_task(self._heartbeat(), name="cluster-heartbeat")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def acquire(self, room_id: str) -> bool:
        if room_id in self._owned:
            return True
        if not self._link.reachable():  # its inbox not (yet) listened to again: not an owner now
            return False
        try:
            won = await self._redis.set(owner_key(room_id), self.id, nx=True, px=LEASE_MS)
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("acquire").inc()
            return False
        if won:
            self._owned.add(room_id)
        return bool(won)

    async def owner(self, room_id: str) -> str | None:
        value = await self._redis.get(owner_key(room_id))
        return None if value is None else str(value)

    async def take_over(self, room_id: str, gone: str) -> bool:
        """Take the lease of ``gone``, an owner whose inbox nobody listens to (``Forwarded.gone``): a
        process that died holds its lease for up to ``LEASE_MS`` more, and its rooms need an owner
        now. True if this process owns the room now (the lease still named ``gone``).

        A living process never lacks its inbox for long: it subscribes before it owns anything, and
        gives up its rooms while its subscription is lost. Were it wrong, the version
        compare-and-swap in the database still lets only one writer advance the room."""
        if room_id in self._owned:
            return True
        if not self._link.reachable():
            return False
        try:
            won = await self._redis.eval(_TAKE_OVER, 1, owner_key(room_id), gone, self.id, LEASE_MS)
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("acquire").inc()
            return False
        if won:
            self._owned.add(room_id)
            log.info("took over the lease of a dead owner", extra=ids(room=room_id, node=self.id, event="lease_taken"))
        return bool(won)

    def disown(self, room_id: str) -> None:
        """Stop counting the room as this process's at once (``release`` hands the lease back)."""
        self._owned.discard(room_id)

    async def release(self, room_id: str) -> None:
        self._owned.discard(room_id)
        with contextlib.suppress(RedisError, OSError):
            await self._redis.eval(_RELEASE, 1, owner_key(room_id), self.id)

    async def release_all(self) -> None:
        for room_id in list(self._owned):
            await self.release(room_id)

    def owns(self, room_id: str) -> bool:
        return room_id in self._owned

    def owned_count(self) -> int:
        return len(self._owned)

    def drop_all(self) -> None:
        """Redis is away: this process can renew nothing, so it gives up every room until it is back."""
        for room_id in list(self._owned):
            self._owned.discard(room_id)
            self.on_lost(room_id)

    async def _heartbeat(self) -> None:
        """Keep this process alive, renew the leases of its rooms and drop rooms whose lease is lost."""
        while True:
            try:
                owned = list(self._owned)
                async with self._redis.pipeline(transaction=False) as pipe:  # one round trip for all leases
                    pipe.set(alive_key(self.id), "1", ex=ALIVE_S)
                    for room_id in owned:
                        pipe.eval(_RENEW, 1, owner_key(room_id), self.id, LEASE_MS)
                    results = await pipe.execute()
                for room_id, renewed in zip(owned, results[1:], strict=True):
                    if not renewed and room_id in self._owned:
                        self._owned.discard(room_id)
                        self.on_lost(room_id)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                metrics.REDIS_ERRORS.labels("renew").inc()
                log.warning("Redis unreachable (%s): this process gives up its rooms until it is back", error)
                self.drop_all()
            await asyncio.sleep(RENEW_S)
