"""Spectators of this process's sockets: the caps, and one serialized message per version.

Spectators never go through ``decide``: they change nothing of a room, do not count for
presence (R6.2) and are not stored. The room's owner hands every published change to
``Spectators.publish``, which serializes the spectator's message once and sends the same text
to every spectator of the room it holds; with several processes it also relays that text once
(``WatchRelay``) and each other process sends it on to the spectators it holds (``relayed``).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

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


def watch_code_fits(invite_code: str, code: str | None) -> bool:
    """Is ``code`` the table's watch code? Compared as bytes: ``compare_digest`` refuses non-ASCII
    text, and a code is whatever a visitor typed."""
    return code is not None and hmac.compare_digest(code.encode(), watch_code(invite_code).encode())


class WatchRelay(Protocol):
    """Carries the owner's spectator messages to the other processes (``RedisCluster``)."""

    def relay_watch(self, room_id: str, version: int, text: str) -> None: ...

    def relay_watch_close(self, room_id: str, code: int, reason: str) -> None: ...

    def relay_watch_reaction(self, room_id: str, text: str) -> None: ...


class Spectators:
    def __init__(self, limits: WatchLimits = WatchLimits()) -> None:
        self.limits = limits
        self._rooms: dict[str, set[Connection]] = {}  # room → spectators greeted here
        # Spectators admitted whose checks still await the database: the newest relayed message
        # is kept for each, and sent only if it passes.
        self._waiting: dict[str, set[Connection]] = {}
        self._held: dict[Connection, tuple[int, str] | None] = {}
        # The newest version each spectator was sent: a relayed message can arrive after the
        # state a newcomer was greeted with, and an older state must never follow a newer one.
        self._sent: dict[Connection, int] = {}
        self._total = 0
        self._cluster_counts: dict[str, int] = {}  # room → spectators over every process
        self.relay: WatchRelay | None = None
        self.on_count: Callable[[str, int], None] | None = None  # this process's count of a room changed

    @property
    def total(self) -> int:
        return self._total

    def count(self, room_id: str) -> int:
        """The spectators of the room greeted here."""
        return len(self._rooms.get(room_id, ()))

    def watching(self, room_id: str) -> int:
        """The spectators of the room over every process, as far as this process knows."""
        return max(self.count(room_id), self._cluster_counts.get(room_id, 0))

    def set_watching(self, room_id: str, count: int) -> None:
        if count:
            self._cluster_counts[room_id] = count
        else:
            self._cluster_counts.pop(room_id, None)

    def full(self, room_id: str) -> bool:
        return self._total >= self.limits.per_process or self.watching(room_id) >= self.limits.per_room

    def admit(self, room_id: str, connection: Connection) -> bool:
        """Reserve a place for a spectator whose checks are still running; False if full.

        Nothing is sent to it until ``greet``; ``remove`` it if it is refused."""
        if self.full(room_id):
            return False
        self._waiting.setdefault(room_id, set()).add(connection)
        self._held[connection] = None
        self._total += 1
        return True

    def greet(self, connection: Connection, state: RoomState) -> None:
        """The admitted spectator passed: send it the current state (or a newer relayed one)."""
        _discard(self._waiting, state.id, connection)
        held = self._held.pop(connection, None)
        self._rooms.setdefault(state.id, set()).add(connection)
        if held is None or held[0] <= state.version:
            held = (state.version, watch_state_message(state, (), self.watching(state.id)).model_dump_json())
        connection.send(held[1])
        self._sent[connection] = held[0]
        self._changed(state.id)

    def add(self, room_id: str, connection: Connection, state: RoomState) -> bool:
        """Admit and greet at once (the state is at hand); False if the table or the process is full."""
        if not self.admit(room_id, connection):
            return False
        self.greet(connection, state)
        return True

    def remove(self, room_id: str, connection: Connection) -> None:
        if connection in self._held:  # refused, or gone before its checks ended: never counted
            _discard(self._waiting, room_id, connection)
            del self._held[connection]
            self._total -= 1
            return
        if connection not in self._rooms.get(room_id, ()):
            return
        _discard(self._rooms, room_id, connection)
        self._sent.pop(connection, None)
        self._total -= 1
        self._changed(room_id)

    def _changed(self, room_id: str) -> None:
        if self.on_count is not None:
            self.on_count(room_id, self.count(room_id))

    def publish(self, state: RoomState, events: Sequence[RoomEvent]) -> None:
        """One change of the room, at its owner: one serialization for every spectator anywhere.

        With several processes the owner relays every change, whoever it believes watches: its
        count of the spectators elsewhere is told to it asynchronously, so a spectator greeted
        elsewhere a moment ago may not be in it yet, and that spectator must get this change all
        the same. A process holding no spectator of the room is not subscribed and gets nothing."""
        room_id = state.id
        if self.relay is None and not self._rooms.get(room_id) and not self._waiting.get(room_id):
            return  # one process, and nobody watches: nothing to build
        if not state.options.spectators:  # the players turned watching off (or never allowed it)
            self.close_room(room_id, CloseCode.WATCH_REFUSED, "the players do not allow watching this table")
            return
        text = watch_state_message(state, events, self.watching(room_id)).model_dump_json()
        self._deliver(room_id, state.version, text)
        if self.relay is not None:
            self.relay.relay_watch(room_id, state.version, text)

    def react(self, room_id: str, text: str) -> None:
        """A quick reaction at the table (the owner decided the spectators may see it): sent to the
        spectators greeted here and, with several processes, relayed once to the others. It is no
        version of the room: a spectator still being checked misses it, and that is all."""
        self._send_here(room_id, text)
        if self.relay is not None:
            self.relay.relay_watch_reaction(room_id, text)

    def _send_here(self, room_id: str, text: str) -> None:
        for connection in tuple(self._rooms.get(room_id, ())):
            connection.send(text)

    def holds(self, room_id: str) -> bool:
        """Does this process hold any spectator of the room (greeted, or still being checked)?"""
        return bool(self._rooms.get(room_id) or self._waiting.get(room_id))

    def refresh(self, state: RoomState) -> None:
        """The room's current state for the spectators held here that may have missed a change
        (relayed messages lost while Redis was away); those that have it are sent nothing."""
        if not self.holds(state.id):
            return
        if not state.options.spectators:
            self._close_here(state.id, CloseCode.WATCH_REFUSED, "the players do not allow watching this table")
            return
        text = watch_state_message(state, (), self.watching(state.id)).model_dump_json()
        self._deliver(state.id, state.version, text)

    def rooms_held(self) -> list[str]:
        return sorted({*self._rooms, *self._waiting})

    def relayed(self, room_id: str, message: dict[str, Any]) -> None:
        """The owner's message (from another process) for this room's spectators held here."""
        if message.get("kind") == "close":
            self._close_here(room_id, int(message["code"]), str(message["reason"]))
        elif message.get("kind") == "watch":
            self._deliver(room_id, int(message["version"]), str(message["text"]))
        elif message.get("kind") == "reaction":
            self._send_here(room_id, str(message["text"]))

    def _deliver(self, room_id: str, version: int, text: str) -> None:
        for connection in tuple(self._rooms.get(room_id, ())):
            if self._sent.get(connection, -1) < version:
                connection.send(text)
                self._sent[connection] = version
        for connection in self._waiting.get(room_id, ()):
            held = self._held[connection]
            if held is None or held[0] < version:
                self._held[connection] = (version, text)

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        """Close the room's spectators here and (with several processes) everywhere else."""
        self._close_here(room_id, code, reason)
        if self.relay is not None:
            self.relay.relay_watch_close(room_id, code, reason)

    def _close_here(self, room_id: str, code: int, reason: str) -> None:
        for connection in (*self._rooms.get(room_id, ()), *self._waiting.get(room_id, ())):
            connection.close(code, reason)

    def close_all(self, code: int, reason: str) -> None:
        """A graceful restart: every spectator here reconnects to another process."""
        for room_id in {*self._rooms, *self._waiting}:
            self._close_here(room_id, code, reason)

    @staticmethod
    def count_text(count: int) -> str:
        return watchers_message(count).model_dump_json()


def _discard(rooms: dict[str, set[Connection]], room_id: str, connection: Connection) -> None:
    connections = rooms.get(room_id)
    if connections is not None:
        connections.discard(connection)
        if not connections:
            del rooms[room_id]
