"""Several app processes over Redis, one part per job, composed in ``RedisCluster``.

* ``link`` — the process's id, its Redis connections, the one pub/sub listener and the publisher;
* ``leases`` — which process owns which room (and the heartbeat that keeps it so);
* ``forwarding`` — commands forwarded to a room's owner over its inbox ``proc:{id}``, and replies;
* ``delivery`` — the ``Bus`` over Redis: a room's messages reach its players' sockets (``room:{id}``);
* ``presence`` — which players and how many spectators each living process holds;
* ``watch_relay`` — the owner's spectator messages for the other processes (``watch:{id}``);
* ``players`` — events for one player's lobby streams (``player:{id}``).

Messages between processes use Redis **pub/sub**, chosen over streams deliberately. Pub/sub keeps
nothing: a subscriber that blinks (a Redis restart, a dropped connection) loses what was published
meanwhile. That is acceptable because nothing in it is the source of truth: states are full views,
not diffs, so after (re)subscribing a process asks the owner for a fresh state for each socket it
holds (the same repair as a client's ``hello`` with its last version), and a forwarded command
that got no reply is resent by its client. Streams would keep a backlog per room that nobody needs
to replay, and cost trimming.
"""

from __future__ import annotations

import contextlib

from redis.asyncio import Redis
from redis.exceptions import RedisError

from .delivery import RedisBus
from .forwarding import Forwarded, Forwarding, Handler
from .leases import LEASE_MS, RENEW_S, Leases
from .link import RedisLink
from .players import PlayerChannels
from .presence import Presence
from .watch_relay import RedisWatchRelay

__all__ = ["LEASE_MS", "RENEW_S", "Forwarded", "Handler", "RedisCluster"]


class RedisCluster:
    """This process's membership of the cluster: its parts, started and stopped together."""

    def __init__(self, url: str) -> None:
        self.link = RedisLink(url)
        self.id: str = self.link.id
        self.redis: Redis = self.link.redis
        self.leases = Leases(self.link)
        self.forwarding = Forwarding(self.link)
        self.presence = Presence(self.link)
        self.bus = RedisBus(self.link, self.presence)
        self.watch = RedisWatchRelay(self.link, self.presence)
        self.players = PlayerChannels(self.link)
        # A process whose subscription is lost cannot be reached: it must not own a room meanwhile.
        self.link.on_subscription_lost = self.leases.drop_all

    async def start(self, handler: Handler) -> None:
        """Join the cluster, commands forwarded here carried out by ``handler``; returns once the
        inbox is listened to."""
        self.forwarding.serve(handler)
        self.leases.start()
        await self.link.start()

    async def stop(self) -> None:
        self.link.stop()
        self.leases.stop()
        await self.leases.release_all()
        with contextlib.suppress(RedisError, OSError):
            await self.presence.forget_here(self.bus.local_players(), self.watch.watched())
        await self.link.close()
