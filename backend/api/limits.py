"""Limits on what anyone can ask of the server: every REST write, per address and per player.

Each write belongs to a group (signing up, creating a table, joining one, asking for a socket
ticket, a device or watch link, changing a table). A group allows so many requests in a sliding
window per client address and per player; one more is answered ``429 rate_limited`` with
``Retry-After`` (the seconds until the oldest counted request leaves the window). Only accepted
requests count, so a client that keeps hammering is let in again as soon as its window allows, and
the database never holds more rows than the limits let through.

The counters live in memory in one process, and in Redis in a cluster (``REDIS_URL``), so that every
process counts the same requests. The address is the client's as uvicorn gives it: behind the
proxy the forwarded one, which uvicorn believes only from ``FORWARDED_ALLOW_IPS``
(``backend/serve.py``). The time is an input (``clock``), so the decisions are tested without
waiting.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from backend.ops import metrics

Group = Literal[
    "signup",
    "rooms",
    "join",
    "tickets",
    "device_links",
    "redeem",
    "watch_links",
    "tables",
    "account",
    "invites",
    "analyses",
    "push",
]


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``count`` accepted requests in any ``window_s`` seconds."""

    count: int
    window_s: float


@dataclass(frozen=True, slots=True)
class GroupLimits:
    address: Limit | None
    player: Limit | None = None


def _per(count: int, window_s: float) -> Limit:
    return Limit(count, window_s)


# Generous for friends and families behind one address, tight against floods (the peers cap room
# creation at 5 a minute per client). README.md, "Settings", tells how to change them.
DEFAULT_LIMITS: dict[Group, GroupLimits] = {
    "signup": GroupLimits(address=_per(20, 3600)),
    "rooms": GroupLimits(address=_per(30, 60), player=_per(5, 60)),
    "join": GroupLimits(address=_per(60, 60), player=_per(20, 60)),
    "tickets": GroupLimits(address=_per(300, 60), player=_per(60, 60)),
    "device_links": GroupLimits(address=_per(30, 3600), player=_per(10, 3600)),
    "redeem": GroupLimits(address=_per(20, 600)),
    "watch_links": GroupLimits(address=_per(120, 60), player=_per(30, 60)),
    "tables": GroupLimits(address=_per(120, 60), player=_per(30, 60)),
    "account": GroupLimits(address=_per(30, 3600), player=_per(10, 3600)),
    # "Play again": a new private table for a recent opponent, who is told at once; and "Not now".
    "invites": GroupLimits(address=_per(60, 60), player=_per(10, 60)),
    # Asking for a deal's analysis (a stored one is only read; the analyses' own limits bound the work).
    "analyses": GroupLimits(address=_per(120, 60), player=_per(60, 60)),
    # Turning a device's notifications on or off (a subscription is written each time).
    "push": GroupLimits(address=_per(60, 3600), player=_per(30, 3600)),
}


class Counters(Protocol):
    async def take(self, key: str, limit: Limit, now: float) -> float | None:
        """Count a request under ``key`` if ``limit`` allows it (None); else the seconds to wait."""


@dataclass(slots=True)
class MemoryCounters:
    """One process: a deque of accepted times per key (pruned as it is used)."""

    _times: dict[str, deque[float]]

    def __init__(self) -> None:
        self._times = {}

    async def take(self, key: str, limit: Limit, now: float) -> float | None:
        times = self._times.setdefault(key, deque())
        while times and times[0] <= now - limit.window_s:
            times.popleft()
        if len(times) >= limit.count:
            return times[0] + limit.window_s - now
        times.append(now)
        if len(self._times) > 100_000:  # forget the keys whose windows are empty
            self._times = {k: v for k, v in self._times.items() if v and v[-1] > now - 3600}
        return None


# A sorted set per key (score: the request's time), checked and added to in one step.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(ARGV[2] * 1000))
  return ''
end
return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
"""


class RedisCounters:
    """A cluster: the counters in Redis, shared by every process."""

    def __init__(self, redis: Redis, fallback: MemoryCounters | None = None) -> None:
        self._redis = redis
        self._script = redis.register_script(_TAKE)
        self._fallback = fallback or MemoryCounters()
        self._serial = 0

    async def take(self, key: str, limit: Limit, now: float) -> float | None:
        self._serial += 1
        member = f"{now:.6f}:{id(self)}:{self._serial}"
        try:
            oldest = await self._script(keys=[f"limit:{key}"], args=[now, limit.window_s, limit.count, member])
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("limits").inc()
            return await self._fallback.take(key, limit, now)  # Redis away: each process counts alone
        if not oldest:
            return None
        return float(oldest) + limit.window_s - now


class Limiter:
    """The REST limits of one app: which requests a group still accepts, per address and player."""

    def __init__(
        self,
        counters: Counters,
        limits: dict[Group, GroupLimits] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._counters = counters
        self._limits = limits if limits is not None else DEFAULT_LIMITS
        self._clock = clock

    async def check(self, group: Group, address: str | None, player_id: str | None) -> float | None:
        """None if the request may go on (and it is counted), else how long to wait, in seconds."""
        limits = self._limits.get(group)
        if limits is None:
            return None
        now = self._clock()
        for who, limit in (("address", address and limits.address), ("player", player_id and limits.player)):
            if not isinstance(limit, Limit):
                continue
            key = f"{group}:{who}:{address if who == 'address' else player_id}"
            wait = await self._counters.take(key, limit, now)
            if wait is not None:
                metrics.REST_LIMITED.labels(group).inc()
                return max(wait, 0.001)
        return None


def _override(value: list[float] | None, default: Limit | None) -> Limit | None:
    return default if value is None else Limit(int(value[0]), float(value[1]))


def limits_from(overrides: dict[str, dict[str, list[float]]]) -> dict[Group, GroupLimits]:
    """``DEFAULT_LIMITS`` with the groups a setting names replaced: ``{"rooms": {"player": [5, 60],
    "address": [30, 60]}}`` (a count and a window in seconds each; a missing kind keeps its default)."""
    limits = dict(DEFAULT_LIMITS)
    for name, kinds in overrides.items():
        if name not in limits:
            raise ValueError(f"no rate-limit group {name!r}; the groups are {', '.join(limits)}")
        base = limits[name]  # one of the groups: checked just above
        limits[name] = GroupLimits(
            address=_override(kinds.get("address"), base.address), player=_override(kinds.get("player"), base.player)
        )
    return limits
