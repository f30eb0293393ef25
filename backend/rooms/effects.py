"""What ``decide`` asks the actor to do, in order: persist first, then tell the seats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from backend.db.writes import RoomWrite
from backend.engine import Action

from .codes import RoomCode
from .model import RoomEvent


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused command: to a socket it becomes a ``rejected`` message, to REST an error."""

    code: str  # a RoomCode or an engine IllegalCode
    message: str


@dataclass(frozen=True, slots=True)
class Persist:
    """Commit ``write`` before anything else is done; if it fails the new state is dropped."""

    write: RoomWrite


@dataclass(frozen=True, slots=True)
class Publish:
    """Send every connected seat its own state with these events (R7: filtered per seat)."""

    events: Sequence[RoomEvent]
    reply_to: tuple[str, int] | None = None  # this player's intent is answered by its state


@dataclass(frozen=True, slots=True)
class SendState:
    """Send one player the current state (after connect or hello, or as the answer to a resend)."""

    player_id: str
    reply_to: int | None = None


@dataclass(frozen=True, slots=True)
class Reject:
    player_id: str | None  # None: the command came from REST, the refusal goes back to the caller
    msg_id: int | None
    refusal: Refusal


@dataclass(frozen=True, slots=True)
class SendPresence:
    """Tell the other players that ``seat`` came or went (and until when it is held)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SendChat:
    seat: int
    text: str
    at: datetime
    sender: str
    msg_id: int
    echo_only: bool = False  # a resent line: only its sender hears it again


@dataclass(frozen=True, slots=True)
class SendReaction:
    """A quick reaction: echoed to its sender, sent to the other seated people who have not muted
    reactions, and to the spectators if the table allows it (``reactions_for_spectators``)."""

    seat: int
    reaction: str
    at: datetime
    sender: str
    msg_id: int
    echo_only: bool = False  # a resent reaction: only its sender hears it again


@dataclass(frozen=True, slots=True)
class SendChatLog:
    """Send one player the match's chat log (right after its first state on a (re)connect)."""

    player_id: str


@dataclass(frozen=True, slots=True)
class CloseSockets:
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class WakeAt:
    deadline: datetime


@dataclass(frozen=True, slots=True)
class AskBot:
    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class AutoPlay:
    """A person's only legal card at an ``auto_play`` table: played by itself at ``version``."""

    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class AskHint:
    """Work out the expert's choice for ``seat`` at ``version`` in the pool, outside the room's lock;
    it comes back as ``commands.HintReady``."""

    seat: int
    player_id: str
    msg_id: int
    version: int


@dataclass(frozen=True, slots=True)
class SendHint:
    """The hint, to the player who asked for it only."""

    player_id: str
    msg_id: int
    version: int
    seat: int
    action: Action
    reason: str | None


Effect = (
    Persist
    | Publish
    | AutoPlay
    | SendState
    | Reject
    | SendPresence
    | SendChat
    | SendReaction
    | SendChatLog
    | CloseSockets
    | WakeAt
    | AskBot
    | AskHint
    | SendHint
)

STALE = RoomCode.STALE_VERSION
