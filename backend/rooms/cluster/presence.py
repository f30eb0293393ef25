"""Who is where over the cluster: players' sockets and spectator counts, by process.

``presence:{room}`` maps each connected player to the process holding the socket, and
``watchers:{room}`` each process to how many spectators of the room it holds. Every process
refreshes ``alive:{proc}`` (a key with a short TTL, kept by the leases' heartbeat); whatever a
process that stopped refreshing held no longer counts.
"""

from __future__ import annotations

from collections.abc import Iterable

from redis.asyncio import Redis

from .link import RedisLink

ALIVE_S = 6  # a process is alive while its key lives


def alive_key(proc: str) -> str:
    return f"alive:{proc}"


class Presence:
    def __init__(self, link: RedisLink) -> None:
        self.id = link.id
        self._redis: Redis = link.redis

    async def arrived(self, room_id: str, player_id: str) -> None:
        await self._redis.hset(f"presence:{room_id}", player_id, self.id)

    async def arrived_all(self, players: Iterable[tuple[str, str]]) -> None:
        """After Redis came back (empty, perhaps): this process is alive and holds these sockets
        (room, player), in one round trip, so that no owner takes a connected player for away."""
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.set(alive_key(self.id), "1", ex=ALIVE_S)
            for room_id, player_id in players:
                pipe.hset(f"presence:{room_id}", player_id, self.id)
            await pipe.execute()

    async def left(self, room_id: str, player_id: str) -> None:
        # Only if the presence still points here: the player may have moved to another process.
        if await self._redis.hget(f"presence:{room_id}", player_id) == self.id:
            await self._redis.hdel(f"presence:{room_id}", player_id)

    async def players(self, room_id: str) -> frozenset[str]:
        """The players with a socket open to the room on a living process."""
        found = await self._redis.hgetall(f"presence:{room_id}")
        holders = {str(player): str(proc) for player, proc in found.items()}
        if not holders:
            return frozenset()
        living = await self._living(set(holders.values()))
        return frozenset(player for player, proc in holders.items() if proc in living)

    async def count_watchers(self, room_id: str, here: int) -> int:
        """Record how many spectators of the room this process holds; how many watch in all."""
        key = f"watchers:{room_id}"
        if here:
            await self._redis.hset(key, self.id, here)
        else:
            await self._redis.hdel(key, self.id)
        return await self.watcher_total(room_id)

    async def forget_watchers(self, room_id: str) -> None:
        await self._redis.hdel(f"watchers:{room_id}", self.id)

    async def watcher_total(self, room_id: str) -> int:
        """Spectators of the room over every living process."""
        found = await self._redis.hgetall(f"watchers:{room_id}")
        counts = {str(proc): int(count) for proc, count in found.items()}
        if not counts:
            return 0
        living = await self._living(set(counts))
        return sum(count for proc, count in counts.items() if proc in living)

    async def forget_here(self, players: Iterable[tuple[str, str]], watched: Iterable[str]) -> None:
        """This process stops: it is no longer alive, and holds no socket and no spectator."""
        await self._redis.delete(alive_key(self.id))
        for room_id, player_id in players:
            await self._redis.hdel(f"presence:{room_id}", player_id)
        for room_id in watched:
            await self.forget_watchers(room_id)

    async def _living(self, procs: set[str]) -> set[str]:
        ordered = sorted(procs)
        alive = await self._redis.mget([alive_key(proc) for proc in ordered])
        return {proc for proc, flag in zip(ordered, alive, strict=True) if flag}
