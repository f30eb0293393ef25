"""The action log's vocabulary: an engine action as the ``actions`` table stores it, and back.

The rooms hand actions to the engine (``backend.engine``: ``apply``, ``view_for``, ``events_for``,
``payments``) and store each accepted one as an ``ActionRecord``; the rebuild after a restart, the
replays and the bots' fallback read them back here. A card a client names that is no card becomes
``UNKNOWN_CARD``, which the engine refuses as not held — in the order of its checks (V0.12).
"""

from __future__ import annotations

from backend.db.writes import ActionRecord
from backend.engine import Bid, Discard, MatchAction, Pass, Play, Resign, card, name

UNKNOWN_CARD = -1


def action_record(seat: int, action: MatchAction) -> ActionRecord:
    """An action as the log stores it."""
    match action:
        case Play():
            return ActionRecord(seat=seat, kind="play", card=name(action.card), declare=action.declare)
        case Resign():
            return ActionRecord(seat=seat, kind="resign", reason=action.reason)
        case Bid():
            return ActionRecord(seat=seat, kind="bid", amount=action.amount)
        case Pass():
            return ActionRecord(seat=seat, kind="pass")
        case Discard():
            return ActionRecord(seat=seat, kind="discard", cards=(name(action.card_a), name(action.card_b)))


def engine_action(record: ActionRecord) -> MatchAction:
    """A logged action as the engine takes it (the rebuild from the log, replays)."""
    match record.kind:
        case "play" if record.card is not None:
            return Play(card(record.card), record.declare)
        case "bid" if record.amount is not None:
            return Bid(record.amount)
        case "pass":
            return Pass()
        case "discard" if record.cards is not None and len(record.cards) == 2:
            return Discard(card(record.cards[0]), card(record.cards[1]))
    return Resign("absence" if record.reason == "absence" else "resign")


def card_or_unknown(card_name: str) -> int:
    """A card named by a client: its id, or ``UNKNOWN_CARD``, which the engine refuses as not held."""
    try:
        return card(card_name)
    except ValueError:
        return UNKNOWN_CARD
