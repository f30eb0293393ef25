"""The owner's spectator messages, relayed to the processes that hold spectators of its room.

``watch:{id}`` carries the owner's message for each version of a room, serialized once and sent on
by every process that holds spectators of the room (``backend.rooms.watch``); the owner's inbox
is told how many watch over the cluster (``watchers``), so that it can tell the players.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from .link import RedisLink
from .presence import Presence

SUBSCRIBED_WITHIN_S = 2.0  # how long a follower waits for Redis to confirm a subscription


class RedisWatchRelay:
    def __init__(self, link: RedisLink, presence: Presence) -> None:
        self._link = link
        self._presence = presence
        self._lock = asyncio.Lock()  # one follow or unfollow at a time, in the order asked
        self._watched: set[str] = set()  # rooms whose spectator channel this process listens to
        # The owner's spectator messages (``watch``/``close``/``reaction``) for rooms watched here.
        self.on_watch: Callable[[str, dict[str, Any]], None] = lambda room_id, message: None
        # This process owns a room and is told how many watch it over the whole cluster.
        self.on_watchers: Callable[[str, int], None] = lambda room_id, count: None
        link.route("watch", self._on_watch_message)
        link.route_inbox("watchers", lambda message: self.on_watchers(message["room"], int(message["count"])))

    def watched(self) -> list[str]:
        return sorted(self._watched)

    async def follow_watch(self, room_id: str) -> None:
        """Listen to the room's spectator channel; returns once Redis has confirmed the subscription
        (or after ``SUBSCRIBED_WITHIN_S``), so that a state read afterwards misses no relayed change."""
        async with self._lock:
            self._watched.add(room_id)
            await self._link.follow(f"watch:{room_id}", SUBSCRIBED_WITHIN_S)

    async def unfollow_watch(self, room_id: str, wanted: Callable[[], bool] = lambda: False) -> None:
        """Stop listening to the room's spectator channel, unless ``wanted()`` says that a spectator
        of the room arrived here meanwhile."""
        async with self._lock:
            if room_id not in self._watched or wanted():
                return
            self._watched.discard(room_id)
            with contextlib.suppress(RedisError, OSError):
                await self._presence.forget_watchers(room_id)
            await self._link.unfollow(f"watch:{room_id}", SUBSCRIBED_WITHIN_S)

    def relay_watch(self, room_id: str, version: int, text: str) -> None:
        """The owner's spectator message, for the spectators other processes hold."""
        payload = json.dumps({"kind": "watch", "from": self._link.id, "version": version, "text": text})
        self._link.publish_later(f"watch:{room_id}", payload)

    def relay_watch_close(self, room_id: str, code: int, reason: str) -> None:
        payload = json.dumps({"kind": "close", "from": self._link.id, "code": code, "reason": reason})
        self._link.publish_later(f"watch:{room_id}", payload)

    def relay_watch_reaction(self, room_id: str, text: str) -> None:
        """A quick reaction the owner lets the spectators see (no version: sent on as it comes)."""
        payload = json.dumps({"kind": "reaction", "from": self._link.id, "text": text})
        self._link.publish_later(f"watch:{room_id}", payload)

    async def tell_owner_watchers(self, owner: str, room_id: str, count: int) -> None:
        await self._link.publish(f"proc:{owner}", {"kind": "watchers", "room": room_id, "count": count})

    def _on_watch_message(self, room_id: str, message: dict[str, Any]) -> None:
        if message.get("from") != self._link.id:  # the owner served its own spectators
            self.on_watch(room_id, message)
