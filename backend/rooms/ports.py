"""The small interfaces through which a room actor reaches the outside world.

The actor never imports a database, a socket or a clock: it is given these. One process uses
``SqlRoomStore``, ``LocalBus``, ``SystemClock`` and ``ProcessBotRunner``; the tests give fakes;
several processes (later) a bus over Redis, behind the same ``Bus``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from backend.analysis.model import Decision, Rating
from backend.db.writes import LoggedAction, RoomWrite
from backend.engine import Action, Event, SeatView

from .model import RoomState


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """What the database holds of a room: enough to rebuild its ``RoomState``."""

    state: RoomState  # the room without its match (``match`` None, ``seq`` 0)
    seed: int | None = None  # the current match's seed
    actions: Sequence[LoggedAction] = field(default_factory=tuple)  # the current match's log, in order


class RoomStore(Protocol):
    async def load(self, room_id: str) -> StoredRoom | None: ...

    async def write(self, write: RoomWrite) -> None:
        """Commit ``write``; raise ``VersionConflict`` or ``SeatTaken`` if another writer came first
        (or, for a write fenced by a lease token, another process took the room over since)."""

    async def busy_elsewhere(self, room_id: str, player_ids: Sequence[str]) -> str | None:
        """The name of one of ``player_ids`` now playing in another room, if any."""

    async def version(self, room_id: str) -> int | None:
        """The room's version as stored (None if there is no such room)."""


class Connection(Protocol):
    """One socket, as the rooms layer sees it: sending never blocks."""

    def send(self, text: str, version: int | None = None) -> None:
        """Queue ``text``; a room's state carries its ``version``, and a socket is never sent a
        state older than one it already has (after a lease moved, a stale copy of the room on
        another process may still answer for a moment)."""

    def close(self, code: int, reason: str = "") -> None: ...


class Bus(Protocol):
    """Delivers messages to the sockets of a room's players, wherever they are connected.

    A process may hold sockets of a room it does not own: the owner addresses messages to
    players, and the bus finds their sockets.
    """

    async def attach(self, room_id: str, player_id: str, connection: Connection) -> Connection | None:
        """Register a socket; returns the older socket of the same player it replaces, if any."""

    async def detach(self, room_id: str, player_id: str, connection: Connection) -> bool:
        """Forget a socket; True if it was that player's current one (the player has left)."""

    async def present(self, room_id: str) -> frozenset[str]:
        """The players with a socket open to this room, over every process."""

    def deliver(self, room_id: str, player_id: str, text: str, version: int | None = None) -> None:
        """Send ``text`` to the player's socket, wherever it is; ``version`` as ``Connection.send``."""

    def close_room(self, room_id: str, code: int, reason: str) -> None: ...

    def close_player(self, room_id: str, player_id: str, code: int, reason: str) -> None:
        """Close one player's socket to the room, wherever it is (the player reconnects)."""


class Clock(Protocol):
    def now(self) -> datetime: ...

    async def sleep_until(self, deadline: datetime) -> None: ...


class BotRunner(Protocol):
    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> Action:
        """The computer's action for the seat of ``view``: a card, a bid or a pass, or two discards."""

    async def hint(self, view: SeatView, events: Sequence[Event]) -> tuple[Action, str | None]:
        """The expert's action for the seat of ``view`` (a person's, on turn) and its reason code, if any."""

    def shutdown(self) -> None: ...


# The rating of one decision of a finished deal with a seed (``ProcessBotRunner.rate``: in the bot
# worker pool, never on the event loop); the analyses (``analysis.py``) are given it, the tests a fake.
Rater = Callable[[Decision, int], Awaitable[Rating]]
