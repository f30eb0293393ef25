"""The one place the rooms layer meets the rules: two-hand 1001 (``engine.match``, R1–R7, V1) or
a game of the family for 3 or 4 seats (``engine.table_match``, V2–V7), behind the same few
functions. ``decide``, the observer, the rebuild from the log and the bot runner call these and
never ask which game a table plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import cast

from backend.db.writes import ActionRecord
from backend.engine import (
    IllegalAction,
    MatchState,
    Play,
    Rules,
    SeatView,
    card,
    events_for_seat,
    events_for_spectator,
    name,
    new_match,
    seat_view,
    spectator_view,
    stake_owed,
)
from backend.engine import match as match_rules
from backend.engine.deal import legal_actions
from backend.engine.errors import IllegalCode
from backend.engine.events import Event
from backend.engine.match import Resign
from backend.engine.table_deal import Bid, Discard, Pass, legal_table_actions
from backend.engine.table_events import TableEvent
from backend.engine.table_match import (
    TableMatchState,
    apply_table_match,
    new_table_match,
    places,
    settlement,
    table_first_dealer,
)
from backend.engine.table_view import TableSeatView, table_events_for_seat, table_seat_view
from backend.engine.variants import TableRules
from backend.engine.view import SpectatorView

__all__ = [
    "Game",
    "GameAction",
    "GameEvent",
    "GameRules",
    "GameView",
    "Payment",
    "action_record",
    "apply",
    "engine_action",
    "events_for",
    "first_dealer",
    "first_legal",
    "new_game",
    "payments",
    "seat_count",
    "standings",
    "view_for",
]

Game = MatchState | TableMatchState
GameRules = Rules | TableRules
GameAction = Play | Resign | Bid | Pass | Discard
GameEvent = Event | TableEvent
GameView = SeatView | SpectatorView | TableSeatView
Payment = tuple[int, int, int, Decimal]  # payer seat, payee seat, points short, amount (R6, V0.10)

UNKNOWN_CARD = -1  # stands for a card name that names no card; the engine refuses it as not held


def seat_count(rules: GameRules) -> int:
    return rules.n if isinstance(rules, TableRules) else 2


def new_game(rules: GameRules, seed: int) -> Game:
    return new_table_match(rules, seed) if isinstance(rules, TableRules) else new_match(rules, seed)


def first_dealer(rules: GameRules, seed: int) -> int:
    return table_first_dealer(rules, seed) if isinstance(rules, TableRules) else match_rules.first_dealer(seed)


def apply(game: Game, seat: int, action: GameAction) -> tuple[Game, tuple[GameEvent, ...]]:
    """The engine's answer to ``seat`` doing ``action``; ``IllegalAction`` if the rules refuse it."""
    if isinstance(game, TableMatchState):
        return apply_table_match(game, seat, action)
    if not isinstance(action, Play | Resign):
        raise IllegalAction(IllegalCode.WRONG_PHASE, "two-hand 1001 has no auction and no talon")
    after, events = match_rules.apply(game, seat, action)
    return after, tuple(events)


def view_for(game: Game, seat: int | None) -> GameView:
    """What ``seat`` may see (R7, V0.11); ``None``: a spectator, who sees what every seat sees."""
    if isinstance(game, TableMatchState):
        return table_seat_view(game, seat)
    return spectator_view(game) if seat is None else seat_view(game, seat)


def events_for(game: Game | None, events: Sequence[GameEvent], seat: int | None) -> list[GameEvent]:
    """The events of one change as ``seat`` (``None``: a spectator) may be told them."""
    if isinstance(game, TableMatchState):
        return list(table_events_for_seat(cast(Sequence[TableEvent], events), seat))
    two_hand = cast(Sequence[Event], events)
    return list(events_for_spectator(two_hand) if seat is None else events_for_seat(two_hand, seat))


def payments(game: Game, stake_per_point: Decimal) -> tuple[Payment, ...]:
    """What a finished match's losers owe (R6 for two; V0.10 and V0.10a for more), nonzero only."""
    if isinstance(game, TableMatchState):
        target = game.rules.goal
        return tuple(
            (payer, payee, max(0, target - game.totals[payer]), amount)
            for payer, payee, amount in settlement(game, stake_per_point)
        )
    assert game.winner is not None
    loser = 1 - game.winner
    target = game.rules.target
    owed = stake_owed(stake_per_point, target, game.totals[loser])
    return ((loser, game.winner, max(0, target - game.totals[loser]), owed),)


def standings(game: Game) -> tuple[int, ...]:
    """A finished match's place of every seat, 1 the best (``table_match.places``, R6.2 for two)."""
    assert game.over and game.end_reason is not None
    if isinstance(game, TableMatchState):
        return places(game.totals, game.winner, game.loser)
    assert game.winner is not None
    return places(game.totals, game.winner, 1 - game.winner)


def first_legal(game: Game, seat: int) -> GameAction:
    """A move the rules allow ``seat`` now, for a computer whose own choice failed: a pass in an
    auction (never a contract nobody chose), else the first legal action."""
    if isinstance(game, TableMatchState):
        moves = legal_table_actions(game.deal, seat)
        return Pass() if game.deal.phase == "auction" else moves[0]
    return legal_actions(game.deal, seat)[0]


def action_record(seat: int, action: GameAction) -> ActionRecord:
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


def engine_action(record: ActionRecord) -> GameAction:
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
