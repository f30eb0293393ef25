"""The changes a room asks the database to make, as plain values (the rooms layer builds them,
the repositories carry them out, each in one transaction: ``ActionLog.commit`` the moves,
``RoomRepository.write`` the rest)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any


@dataclass(frozen=True, slots=True)
class TurnWrite:
    """R6.3, a turn-based table: the seat on turn and until when it may act, stored on the room row
    with the change that gave it the turn (``rooms.turn_seat``, ``rooms.turn_deadline``; both None
    once the match is over). The sweep for lapsed turns reads them (``RoomRepository.due``)."""

    seat: int | None
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class NewMatch:
    id: str
    options: dict[str, Any]
    seed: int
    first_dealer: int
    seat_ids: tuple[str, ...]
    turn: TurnWrite | None = None  # a turn-based table: the first turn (R6.3)


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seat: int
    kind: str  # play | resign | bid | pass | discard
    card: str | None = None
    declare: bool = False
    reason: str | None = None
    amount: int | None = None  # a bid
    cards: tuple[str, ...] | None = None  # a discard (two cards)


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """An action as the log holds it: what was done, and which intent (if any) asked for it."""

    action: ActionRecord
    client_msg_id: int | None
    made_at_version: int  # the room version the intent was made against


@dataclass(frozen=True, slots=True)
class DealRow:
    """A finished deal; the per-seat tuples have one entry per seat. The variants add the
    auction's ``declarer`` and ``contract``, whether it was ``made``, a ``thrown_in`` deal, and
    ``extra`` details (rounding, bonuses)."""

    number: int
    dealer: int
    seed: int
    card_points: tuple[int, ...]
    declaration_points: tuple[int, ...]
    score: tuple[int, ...]
    totals: tuple[int, ...]
    declarations: list[dict[str, Any]]
    declarer: int | None = None
    contract: int | None = None
    made: bool | None = None
    thrown_in: bool = False
    extra: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SettlementRow:
    """One settlement of a finished match: ``loser_id`` owes ``winner_id`` ``amount`` (R6, V0.10)."""

    winner_id: str
    loser_id: str
    points_short: int
    amount: Decimal


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """How a match ended and what is owed: one settlement for two seats; for 3 or 4 seats each
    other player owes the winner (V0.10), or the one who abandoned owes every other player (V0.10a)."""

    winner_seat: int | None  # the one seat in first place; None when two share it (V0.10a, after a resignation)
    places: tuple[int, ...]  # every seat's place, 1 the best (a resigned seat last, R6.2 / V0.10a)
    reason: str
    totals: tuple[int, ...]
    stake_per_point: Decimal
    currency: str
    settlements: tuple[SettlementRow, ...]
    # The rating kind the match changes (backend.ratings) and its players in seat order; None: an
    # unrated table or one with a computer seat, which changes no rating.
    rating_kind: str | None = None
    player_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """One accepted action and what it finished: a deal, the match and its stake."""

    room_id: str
    expected_version: int
    match_id: str
    seq: int
    action: ActionRecord
    client_msg_id: int | None
    deals: tuple[DealRow, ...]
    end: MatchEnd | None
    totals: tuple[int, ...]
    turn: TurnWrite | None = None  # a turn-based table's next turn (R6.3); None at a live table
    lease: int | None = None  # the lease token the owner claimed (``RoomRepository.claim``): the fence


@dataclass(frozen=True, slots=True)
class JoinWrite:
    """Take the first free seat and, with ``match``, start the match, atomically: of two racing
    joiners one wins. A match is started only once every seat is taken; ``match`` None takes a
    seat of a table that waits for more players."""

    room_id: str
    player_id: str
    match: NewMatch | None
    seat: int | None = None  # None: the first free seat (a computer is given its own)


@dataclass(frozen=True, slots=True)
class CloseWrite:
    room_id: str
    player_id: str


@dataclass(frozen=True, slots=True)
class RematchOfferWrite:
    """Open (``seat`` and ``deadline`` set) or clear a rematch offer, with the seats that have
    accepted it so far (three or four people); advances the version."""

    room_id: str
    expected_version: int
    seat: int | None
    deadline: datetime | None
    accepted: tuple[int, ...] = ()
    lease: int | None = None


@dataclass(frozen=True, slots=True)
class RematchStartWrite:
    room_id: str
    expected_version: int
    match: NewMatch
    lease: int | None = None


@dataclass(frozen=True, slots=True)
class AbsenceWrite:
    """Hold an absent seat until ``deadline`` (R6.2), or stop holding it (``deadline`` None)."""

    room_id: str
    seat: int
    deadline: datetime | None
    # The owner's lease token: a clock written by a process that lost the room (paused past its
    # lease) would hold a seat the new owner knows to be present; with it the write is refused.
    lease: int | None = None


@dataclass(frozen=True, slots=True)
class ChatWrite:
    """A line of a match's chat log; only the newest ``keep`` lines of the match are kept."""

    match_id: str
    seat: int
    text: str
    at: datetime
    keep: int


@dataclass(frozen=True, slots=True)
class OptionsWrite:
    """The players changed a table option that may change during play (e.g. allowing spectators)."""

    room_id: str
    expected_version: int
    options: dict[str, Any]
    lease: int | None = None


# Every change of a room but a move, each carried out in one transaction (``RoomRepository.write``).
RoomChange = JoinWrite | CloseWrite | RematchOfferWrite | RematchStartWrite | AbsenceWrite | ChatWrite | OptionsWrite
RoomWrite = ActionWrite | RoomChange  # a move goes to the action log, with the group commit


class VersionConflict(Exception):
    """Another writer advanced the room first, or another process took it over (a newer lease
    token): the caller's view of it is stale."""


class StoreUnavailable(Exception):
    """The database could not be reached: nothing was written; the same change may be tried again."""


class SeatTaken(Exception):
    """The seat was taken (or the table closed) by another request first."""


class TooManyTables(Exception):
    """The player has as many open tables as one may (``MAX_OPEN_TABLES``): no new one was made."""
