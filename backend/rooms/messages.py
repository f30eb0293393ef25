"""Every message the server sends on a socket, as pydantic models (docs/protocol.md).

The game parts — the seat's view and the events — are the engine's own frozen dataclasses
(``SeatView``, the event classes), embedded as they are: pydantic serializes them, so their
shape is defined once, in the engine, and it is one shape for every game of the family and every
seat count (protocol 2, docs/protocol.md). The tests validate every message the api and e2e
suites receive against ``ServerMessage``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from backend.engine import (
    AuctionWon,
    BidMade,
    CardDrawn,
    CardPlayed,
    DealOver,
    DealStarted,
    Declared,
    Discarded,
    MatchOver,
    Passed,
    SeatView,
    TalonTaken,
    ThrownIn,
    TrickWon,
)
from backend.engine.variants import DeclarationScoring, Scoring, VariantId

from .model import MatchStarted, RematchChanged
from .options import Pace


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OptionsOut(Out):
    """The table's options, one shape for every game: its rules (the engine's ``Rules``) and the table's own."""

    variant: VariantId = Field(description="twohand (R1–R7, V1) or a game for three and four (V2–V7)")
    seats: int
    target: int
    scoring: Scoring = Field(description="V4.9 (V4 and V5 may be simplified); original elsewhere")
    jungfrau: bool
    open_scores: bool
    declaration_scoring: DeclarationScoring = Field(description="R3 (two-hand 1001; by_suit in the others)")
    show_stock_bottom: bool = Field(description="R2 (two-hand 1001; false in the others)")
    deck_size: int = Field(description="the pack: 24 or 32 (V1) in two-hand 1001, the game's in the others")
    stake_per_point: str
    currency: str
    reconnect_grace_s: int
    bot_level: str | None
    spectators: bool = True
    computer_seats: list[int] = Field(default_factory=list, description="the seats the computer plays")
    rated: bool = Field(default=True, description="a finished match between people changes their ratings")
    reactions_for_spectators: bool = Field(default=False, description="spectators see the quick reactions too")
    hints: bool = Field(default=True, description="the creator's wish for hints (room.hints: whether they are offered)")
    pace: Pace = Field(default="live", description="R6.3: live, or days per move (1d, 2d, 3d, 7d)")
    auto_play: bool = Field(default=False, description="turn-based: a person's only legal card is played by itself")


class SeatOut(Out):
    seat: int
    id: str
    name: str
    connected: bool
    grace_deadline: datetime | None = Field(description="R6.2: while an absent seat is held, until when")
    bot_level: str | None


class RematchOut(Out):
    offered_by: int
    deadline: datetime
    accepted: list[int] = Field(description="the seats that have accepted so far (a table of three or four people)")


class RoomOut(Out):
    id: str
    invite_code: str | None = Field(description="shown to the room's players only")
    visibility: Literal["public", "private"]
    status: Literal["open", "playing", "finished", "closed"]
    options: OptionsOut
    players: list[SeatOut | None]
    match_id: str | None
    version: int
    rematch: RematchOut | None
    created_at: datetime
    hints: bool = Field(default=False, description="the table offers hints now (backend/rooms/hints.py)")
    turn: int | None = Field(default=None, description="the seat the game waits for, while a match is played")
    turn_deadline: datetime | None = Field(
        default=None, description="R6.3 (turn-based): the person on turn has abandoned the match unless acting by then"
    )


class StakeOut(Out):
    """R6: what the loser owes the winner (exact decimal text, R6.1)."""

    amount: str
    currency: str
    stake_per_point: str
    points_short: int
    debtor_seat: int
    creditor_seat: int


# The engine's one event family, and the room's own events.
EventOut = Annotated[
    BidMade
    | Passed
    | AuctionWon
    | TalonTaken
    | Discarded
    | ThrownIn
    | CardPlayed
    | Declared
    | TrickWon
    | CardDrawn
    | DealOver
    | DealStarted
    | MatchOver
    | MatchStarted
    | RematchChanged,
    Field(discriminator="kind"),
]


class StateMessage(Out):
    type: Literal["state"] = "state"
    version: int
    reply_to: int | None
    room: RoomOut
    view: SeatView | None
    events: list[EventOut]
    stake: StakeOut | None = Field(
        description="R6: what the loser owes the winner (two seats; else the first of stakes)"
    )
    stakes: list[StakeOut] = Field(default_factory=list, description="V0.10: every settlement of the finished match")
    resign_price: StakeOut | None = Field(
        default=None,
        description="R6.2, V0.10a: what this seat would owe (each other player) if it resigned now; else None",
    )
    reactions_muted: bool = Field(default=False, description="this player muted the others' quick reactions here")


class RejectedMessage(Out):
    type: Literal["rejected"] = "rejected"
    id: int | None
    code: str
    message: str
    version: int


class ChatMessage(Out):
    type: Literal["chat"] = "chat"
    seat: int
    name: str | None
    text: str
    at: datetime
    reply_to: int | None


class ReactionMessage(Out):
    """A quick reaction (a code of ``reactions.REACTIONS``) by ``seat``: to the seated players who
    have not muted reactions, its sender (with ``reply_to``) and, if the table allows it, the spectators."""

    type: Literal["reaction"] = "reaction"
    seat: int
    reaction: str
    at: datetime
    reply_to: int | None


class PlayedOut(Out):
    """A card played (R4), as the replay's frames name it (``replay.frame_action``)."""

    seat: int
    kind: Literal["play"]
    card: str
    declare: bool


class BidOut(Out):
    seat: int
    kind: Literal["bid"]
    amount: int


class PassOut(Out):
    seat: int
    kind: Literal["pass"]


class DiscardOut(Out):
    seat: int
    kind: Literal["discard"]
    cards: list[str]


FrameAction = Annotated[PlayedOut | BidOut | PassOut | DiscardOut, Field(discriminator="kind")]
frame_action_model: TypeAdapter[FrameAction] = TypeAdapter(FrameAction)


class HintMessage(Out):
    """The expert's choice for the asker's seat at ``version`` (docs/protocol.md, "Hints"), worked out
    from that seat's own view; ``reason`` a code of ``backend.bots.reasons`` or None. To the asker only."""

    type: Literal["hint"] = "hint"
    version: int
    reply_to: int
    action: FrameAction
    reason: str | None


class ChatLogLine(Out):
    seat: int
    name: str | None
    text: str
    at: datetime


class ChatLogMessage(Out):
    """The match's chat log (its newest lines, oldest first), sent right after the first state of a connection."""

    type: Literal["chat_log"] = "chat_log"
    lines: list[ChatLogLine]


class PresenceMessage(Out):
    type: Literal["presence"] = "presence"
    seat: int
    connected: bool
    grace_deadline: datetime | None


class WatchStateMessage(Out):
    """What a spectator is sent: public information only (R7), the same bytes for every spectator."""

    type: Literal["watch_state"] = "watch_state"
    version: int
    room: RoomOut
    view: SeatView | None  # the seat view of nobody (``seat`` None): what every seat sees in common
    events: list[EventOut]
    watchers: int


class WatchersMessage(Out):
    """To the players: how many spectators watch their table now."""

    type: Literal["watchers"] = "watchers"
    count: int


class PongMessage(Out):
    """The answer to the client's ``ping`` (``backend.api.schemas.Ping``): the connection is alive."""

    type: Literal["pong"] = "pong"


ServerMessage = Annotated[
    StateMessage
    | RejectedMessage
    | ChatMessage
    | ReactionMessage
    | HintMessage
    | ChatLogMessage
    | PresenceMessage
    | WatchStateMessage
    | WatchersMessage
    | PongMessage,
    Field(discriminator="type"),
]
server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
