"""The in-process implementations of the ports: a bus of local sockets and the system clock."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from datetime import UTC, datetime

from .ports import Connection


class LocalBus:
    """Sockets of this process, by room and player: one current socket per player and room."""

    def __init__(self) -> None:
        self._sockets: defaultdict[str, dict[str, Connection]] = defaultdict(dict)

    async def attach(self, room_id: str, player_id: str, connection: Connection) -> Connection | None:
        room = self._sockets[room_id]
        previous = room.get(player_id)
        room[player_id] = connection
        return previous if previous is not connection else None

    async def detach(self, room_id: str, player_id: str, connection: Connection) -> bool:
        room = self._sockets.get(room_id)
        if room is None or room.get(player_id) is not connection:
            return False  # an older socket that was replaced
        del room[player_id]
        if not room:
            del self._sockets[room_id]
        return True

    async def present(self, room_id: str) -> frozenset[str]:
        return frozenset(self._sockets.get(room_id, ()))

    def deliver(self, room_id: str, player_id: str, text: str, version: int | None = None) -> None:
        connection = self._sockets.get(room_id, {}).get(player_id)
        if connection is not None:
            connection.send(text, version)

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        for connection in self._sockets.pop(room_id, {}).values():
            connection.close(code, reason)

    def close_player(self, room_id: str, player_id: str, code: int, reason: str) -> None:
        connection = self._sockets.get(room_id, {}).get(player_id)
        if connection is not None:
            connection.close(code, reason)


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, deadline: datetime) -> None:
        await asyncio.sleep(max(0.0, (deadline - self.now()).total_seconds()))
