"""Events for one player's lobby streams (``player:{id}``: "Play again" invitations,
``backend.api.lobby_events``), listened to by the processes holding a stream of that player."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from .link import RedisLink
from .watch_relay import SUBSCRIBED_WITHIN_S


class PlayerChannels:
    def __init__(self, link: RedisLink) -> None:
        self._link = link
        self._lock = asyncio.Lock()
        self._players: set[str] = set()  # players whose channel this process listens to
        self.on_player: Callable[[str, dict[str, Any]], None] = lambda player_id, message: None
        link.route("player", lambda player_id, message: self.on_player(player_id, message))

    async def follow(self, player_id: str) -> None:
        """Listen to the player's channel; returns once Redis confirmed it (or after
        ``SUBSCRIBED_WITHIN_S``), so that an event published afterwards reaches this process."""
        async with self._lock:
            self._players.add(player_id)
            await self._link.follow(f"player:{player_id}", SUBSCRIBED_WITHIN_S)

    async def unfollow(self, player_id: str, wanted: Callable[[], bool] = lambda: False) -> None:
        """Stop listening to the player's channel, unless ``wanted()`` says a stream came meanwhile."""
        async with self._lock:
            if player_id not in self._players or wanted():
                return
            self._players.discard(player_id)
            await self._link.unfollow(f"player:{player_id}")

    async def tell(self, player_id: str, message: dict[str, Any]) -> int:
        """Publish an event for the player's lobby streams; how many processes hold one."""
        return await self._link.publish(f"player:{player_id}", message)
