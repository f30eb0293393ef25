"""What a room knows, as one immutable value: the input and output of ``decide``.

Everything here is either stored in the database or derived from it (DESIGN promise 6): the
room row, the seats, the match rebuilt from its seed and action log, the ids of the client
messages that log answered, and the deadlines (absence, rematch offer) with their timestamps.
Only presence — which players have a socket open right now — comes from the transport.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Literal

from backend.engine import Event, MatchState

from .options import TableOptions

RoomStatus = Literal["open", "playing", "finished", "closed"]
RematchAction = Literal["offer", "accept", "decline", "withdraw"]
RECENT_ANSWERS = 256  # refusals, chat lines and rematch steps remembered per room for resent ids
# An intent is known by its sender, its client message id and the version it was made against:
# a resend repeats all three, while a new device of the same player may reuse an id.
IntentKey = tuple[str, int, int]
# The chat log kept (and stored) per match: its newest lines, sent to a player on every (re)connect.
CHAT_LOG_LINES = 100


@dataclass(frozen=True, slots=True)
class SeatHolder:
    player_id: str
    name: str
    bot_level: str | None = None  # set for the computer's seat


@dataclass(frozen=True, slots=True)
class Stake:
    """R6 (V0.10 for more seats): what a loser owes a winner once the match is over (exact decimals, R6.1)."""

    amount: Decimal
    currency: str
    stake_per_point: Decimal
    points_short: int
    debtor_seat: int
    creditor_seat: int


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line of the match's chat log (stored with the match; at most ``CHAT_LOG_LINES`` kept)."""

    seat: int
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class RematchOffer:
    """An open rematch offer by ``seat``; at a table of three or four people, the seats of the
    others who have accepted so far (the rematch starts once every person has)."""

    seat: int
    deadline: datetime
    accepted: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """A room event: a new match began (on join or an accepted rematch)."""

    match_id: str
    kind: Literal["match_started"] = "match_started"


@dataclass(frozen=True, slots=True)
class RematchChanged:
    """A room event: a step of the rematch offer (``timeout`` when it lapsed unanswered)."""

    action: Literal["offer", "accept", "decline", "withdraw", "timeout"]
    seat: int
    kind: Literal["rematch"] = "rematch"


RoomEvent = Event | MatchStarted | RematchChanged


@dataclass(frozen=True, slots=True)
class FreshMatch:
    """The randomness a new match needs, drawn by the actor: ``decide`` has no random source."""

    match_id: str
    seed: int


@dataclass(frozen=True, slots=True)
class RoomState:
    id: str
    invite_code: str
    visibility: Literal["public", "private"]
    options: TableOptions
    status: RoomStatus
    created_at: datetime
    seats: tuple[SeatHolder | None, ...]  # index = seat
    version: int = 0
    match_id: str | None = None
    match: MatchState | None = None
    seq: int = 0  # actions in the current match's log
    answered: frozenset[IntentKey] = frozenset()  # intents the current match's action log accepted
    deal_events: tuple[Event, ...] = ()  # every event of the current deal, unredacted (the bot's memory)
    stakes: tuple[Stake, ...] = ()  # once the match is over: what each loser owes (R6, V0.10)
    rematch: RematchOffer | None = None
    absence: tuple[datetime | None, ...] = ()  # per seat: the deadline while its seat is held (R6.2)
    present: frozenset[str] = frozenset()  # players with a socket open
    recent: tuple[tuple[IntentKey, object], ...] = ()  # answers to refused intents, chat lines and rematches
    chat: tuple[ChatLine, ...] = ()  # the current match's chat log, oldest first (bounded, stored)
    # Quick reactions (not stored: lost when the room is rebuilt, docs/protocol.md): the players who
    # muted the others' reactions, and per player the times of its recent reactions (the rate limit).
    reactions_muted: frozenset[str] = frozenset()
    reacted: tuple[tuple[str, tuple[datetime, ...]], ...] = ()
    # The seats whose hint is being worked out (not stored: one at a time per seat, docs/protocol.md "Hints").
    hinting: frozenset[int] = frozenset()
    # R6.3, a turn-based table: until when the seat on turn may act (stored with every move, rooms.turn_deadline).
    # None while the match is not played, or while no person can lose by it (everyone else is a computer).
    turn_deadline: datetime | None = None
    stored_turn: int | None = None  # rooms.turn_seat, for a summary read from the database without its match

    # ------------------------------------------------------------ seats

    def seat_of(self, player_id: str) -> int | None:
        for seat, holder in enumerate(self.seats):
            if holder is not None and holder.player_id == player_id:
                return seat
        return None

    def player_at(self, seat: int) -> str | None:
        holder = self.seats[seat]
        return None if holder is None else holder.player_id

    @property
    def stake(self) -> Stake | None:
        """Two seats: what the loser owes (R6); more: the first settlement."""
        return self.stakes[0] if self.stakes else None

    @property
    def bot_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, holder in enumerate(self.seats) if holder is not None and holder.bot_level)

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people hold (not the computer)."""
        return tuple(seat for seat, holder in enumerate(self.seats) if holder is not None and not holder.bot_level)

    @property
    def turn(self) -> int | None:
        """The seat the game waits for, while a match is being played."""
        return self.match.deal.turn if self.live and self.match is not None else None

    @property
    def turn_seat(self) -> int | None:
        """The seat on turn: from the match when it is loaded, else as stored with the room's last move."""
        if self.match is not None:
            return self.turn
        return self.stored_turn if self.status == "playing" else None

    @property
    def person_on_turn(self) -> bool:
        turn = self.turn
        holder = None if turn is None else self.seats[turn]
        return holder is not None and holder.bot_level is None

    @property
    def resting(self) -> bool:
        """A turn-based table that waits for a person, or whose match is over: nothing happens here
        before a person acts or a stored deadline passes (R6.3), so it needs nothing in memory."""
        if not self.options.turn_based or self.hinting:
            return False
        return self.status in ("finished", "closed") or (self.live and self.person_on_turn)

    def connected(self, seat: int) -> bool:
        """A seat is here while its player has a socket open; the computer always is."""
        holder = self.seats[seat]
        return holder is not None and (holder.bot_level is not None or holder.player_id in self.present)

    @property
    def live(self) -> bool:
        return self.status == "playing" and self.match is not None and not self.match.over

    def deadlines(self) -> list[datetime]:
        found = [deadline for deadline in self.absence if deadline is not None]
        if self.rematch is not None:
            found.append(self.rematch.deadline)
        if self.turn_deadline is not None and self.person_on_turn:
            found.append(self.turn_deadline)
        return found

    def reaction_times(self, player_id: str) -> tuple[datetime, ...]:
        for known, times in self.reacted:
            if known == player_id:
                return times
        return ()

    def recent_answer(self, key: IntentKey) -> object | None:
        for known, answer in self.recent:
            if known == key:
                return answer
        return None
