"""What can happen to a room: the inputs of ``decide``.

Intents from a socket carry the client's message id and the version they were made against;
commands from REST (join, leave) and from the room's own machinery (connect, disconnect, the
computer's move, time passing) carry neither.
"""

from __future__ import annotations

from dataclasses import dataclass

from backend.engine import Action, Play, name
from backend.engine import Bid as BidAction
from backend.engine import Discard as DiscardAction
from backend.engine import Pass as PassAction

from .model import FreshMatch, RematchAction


@dataclass(frozen=True, slots=True)
class Join:
    player_id: str
    name: str
    bot_level: str | None
    fresh: FreshMatch
    seat: int | None = None  # the first free seat, unless a computer is given its own


@dataclass(frozen=True, slots=True)
class Leave:
    player_id: str


@dataclass(frozen=True, slots=True)
class Connect:
    """The player's first socket to this room opened (a newer one replaces an older one)."""

    player_id: str


@dataclass(frozen=True, slots=True)
class Disconnect:
    """The player's last socket to this room closed."""

    player_id: str


@dataclass(frozen=True, slots=True)
class Hello:
    """A socket asks for the current state (on connect, or ``hello`` with its last version)."""

    player_id: str


@dataclass(frozen=True, slots=True)
class PlayCard:
    player_id: str
    msg_id: int | None  # None for the computer's own move
    version: int
    card: str
    declare: bool


@dataclass(frozen=True, slots=True)
class Bid:
    """V0.6: a bid in the auction of a V2, V3 or V7 deal."""

    player_id: str
    msg_id: int | None  # None for the computer's own move
    version: int
    amount: int


@dataclass(frozen=True, slots=True)
class Pass:
    """V0.6: a pass in the auction."""

    player_id: str
    msg_id: int | None
    version: int


@dataclass(frozen=True, slots=True)
class Discard:
    """V0.7: the declarer's two discards, by card name."""

    player_id: str
    msg_id: int | None
    version: int
    cards: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Resign:
    player_id: str
    msg_id: int
    version: int


@dataclass(frozen=True, slots=True)
class Rematch:
    player_id: str
    msg_id: int
    version: int
    action: RematchAction
    fresh: FreshMatch
    busy: str | None  # the name of a player of this room now playing elsewhere, looked up by the actor


@dataclass(frozen=True, slots=True)
class Chat:
    player_id: str
    msg_id: int
    version: int
    text: str


@dataclass(frozen=True, slots=True)
class React:
    """A quick reaction (a code of ``reactions.REACTIONS``) from a seated player."""

    player_id: str
    msg_id: int
    version: int
    reaction: str


@dataclass(frozen=True, slots=True)
class MuteReactions:
    """A seated player stops (or starts again) receiving the others' reactions at this table."""

    player_id: str
    msg_id: int
    version: int
    muted: bool


@dataclass(frozen=True, slots=True)
class Hint:
    """A seated player asks for the expert's choice at its turn (docs/protocol.md, "Hints")."""

    player_id: str
    msg_id: int
    version: int


@dataclass(frozen=True, slots=True)
class HintReady:
    """The room's own: the hint asked at ``version`` came back from the pool (``action`` None: it
    failed or missed its deadline). Never forwarded: the owner that asked it hears it."""

    player_id: str
    msg_id: int
    version: int
    seat: int
    action: Action | None
    reason: str | None


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed: deadlines at or before ``now`` fire."""


@dataclass(frozen=True, slots=True)
class SetSpectators:
    """A seated player allows or forbids watching the table, or the spectators' seeing the quick
    reactions (REST); None leaves that option as it is."""

    player_id: str
    allowed: bool | None
    reactions: bool | None = None


Command = (
    Join
    | Leave
    | Connect
    | Disconnect
    | Hello
    | PlayCard
    | Bid
    | Pass
    | Discard
    | Resign
    | Rematch
    | Chat
    | React
    | MuteReactions
    | Hint
    | HintReady
    | Tick
    | SetSpectators
)
GameCommand = PlayCard | Bid | Pass | Discard  # a move in the game itself (the computer makes them too)


def command_for(player_id: str, version: int, action: Action) -> GameCommand:
    """The computer's move as a command (no message id: it is not a client's intent)."""
    match action:
        case Play():
            return PlayCard(player_id, None, version, name(action.card), action.declare)
        case BidAction():
            return Bid(player_id, None, version, action.amount)
        case PassAction():
            return Pass(player_id, None, version)
        case DiscardAction():
            return Discard(player_id, None, version, (name(action.card_a), name(action.card_b)))
    raise ValueError(f"the computer does not resign ({action!r})")
