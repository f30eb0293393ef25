"""Helpers for the bot tests: random positions and engine-based brute force."""

from __future__ import annotations

import random

from backend.bots.solver import Position
from backend.engine import deal as engine
from backend.engine.deal import DealState
from backend.engine.rules import Rules

RULE_SETS = (
    Rules(target=301),
    Rules(target=301, declaration_scoring="by_order"),
    Rules(target=301, show_stock_bottom=True),
    Rules(target=301, deck_size=32, show_stock_bottom=True),  # V1
)
RULE_IDS = ("by_suit", "by_order", "stock_bottom", "v1_32_cards")


def random_play(state: DealState, rng: random.Random) -> engine.Play:
    return rng.choice(engine.legal_actions(state, state.turn))


def random_position(rules: Rules, rng: random.Random, tricks_left: int, mid_trick: bool = False) -> DealState:
    """A deal played at random until ``tricks_left`` tricks remain (plus a lead if ``mid_trick``)."""
    state = engine.new_deal(rules, rng.randrange(1 << 60), rng.randrange(2))
    while len(state.tricks) < rules.deck_size // 2 - tricks_left:
        state, _ = engine.apply(state, state.turn, random_play(state, rng))
    if mid_trick:
        state, _ = engine.apply(state, state.turn, random_play(state, rng))
    return state


def final_difference(state: DealState, seat: int) -> int:
    """R5: the finished deal's score of ``seat`` minus the opponent's."""
    score = engine.deal_result(state).score
    return score[seat] - score[1 - seat]


def brute_force(state: DealState, seat: int) -> int:
    """Plain minimax through the engine itself (no pruning, no table): final score difference for ``seat``."""
    if state.over:
        return final_difference(state, seat)
    values = [brute_force(engine.apply(state, state.turn, a)[0], seat) for a in engine.legal_actions(state, state.turn)]
    return max(values) if state.turn == seat else min(values)


def counted_so_far(state: DealState, seat: int) -> int:
    """Score difference already certain: card points taken plus declarations of seats that took a trick (R3)."""
    points = list(state.card_points)
    for d in state.declarations:
        if state.tricks_won[d.seat]:
            points[d.seat] += d.points
    return points[seat] - points[1 - seat]


def position_of(state: DealState) -> Position:
    """The solver's position for a phase-2 state, read straight off the state (R3: pending declarations)."""
    pending = [0, 0]
    for d in state.declarations:
        pending[d.seat] += d.points
    won = state.tricks_won
    return Position(
        state.hands,
        state.leader,
        tuple(state.trick),
        state.trump,
        state.declared_suits,
        (-1 if won[0] else pending[0], -1 if won[1] else pending[1]),
    )
