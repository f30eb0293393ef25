"""Spectators of this process's rooms: their sockets, the caps, and one message per version.

Spectators never go through ``decide``: they change nothing of a room, do not count for
presence (R6.2) and are not stored. The room's actor hands every published change to
``Spectators.publish``, which serializes the spectator's message once and sends the same text
to every spectator of the room.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .codes import CloseCode
from .model import RoomEvent, RoomState
from .observer import watch_state_message, watchers_message
from .ports import Connection


@dataclass(frozen=True, slots=True)
class WatchLimits:
    per_room: int = 50
    per_process: int = 2000


def watch_code(invite_code: str) -> str:
    """A private table's watch code: derived one-way from its invite code, so it lets people watch
    but never join, and needs no storage of its own."""
    return hashlib.sha256(f"watch:{invite_code}".encode()).hexdigest()[:12]


class Spectators:
    def __init__(self, limits: WatchLimits = WatchLimits()) -> None:
        self.limits = limits
        self._rooms: dict[str, set[Connection]] = {}
        self._total = 0
        self.on_count: Callable[[str, int], None] | None = None  # tells a room's players the new count

    @property
    def total(self) -> int:
        return self._total

    def count(self, room_id: str) -> int:
        return len(self._rooms.get(room_id, ()))

    def full(self, room_id: str) -> bool:
        return self._total >= self.limits.per_process or self.count(room_id) >= self.limits.per_room

    def add(self, room_id: str, connection: Connection) -> bool:
        """Register a spectator; False if the table or the process is full."""
        if self.full(room_id):
            return False
        self._rooms.setdefault(room_id, set()).add(connection)
        self._total += 1
        self._changed(room_id)
        return True

    def remove(self, room_id: str, connection: Connection) -> None:
        watching = self._rooms.get(room_id)
        if watching is None or connection not in watching:
            return
        watching.discard(connection)
        self._total -= 1
        if not watching:
            del self._rooms[room_id]
        self._changed(room_id)

    def _changed(self, room_id: str) -> None:
        if self.on_count is not None:
            self.on_count(room_id, self.count(room_id))

    def snapshot(self, state: RoomState) -> str:
        """The current state for a spectator who just came (no events)."""
        return watch_state_message(state, (), self.count(state.id)).model_dump_json()

    def publish(self, state: RoomState, events: Sequence[RoomEvent]) -> None:
        """One change of the room: one serialization, the same text to every spectator."""
        watching = self._rooms.get(state.id)
        if not watching:
            return
        if not state.options.spectators:  # the players turned watching off
            self.close_room(state.id, CloseCode.WATCH_REFUSED, "the players do not allow watching this table")
            return
        text = watch_state_message(state, events, len(watching)).model_dump_json()
        for connection in tuple(watching):
            connection.send(text)

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        for connection in tuple(self._rooms.get(room_id, ())):
            connection.close(code, reason)

    @staticmethod
    def count_text(count: int) -> str:
        return watchers_message(count).model_dump_json()
