"""Two-hand 1001's exact values once the stock is empty (R4 phase 2 is perfect information), on the search
core (``twohand.exact``), against plain minimax through the engine."""

from __future__ import annotations

import random

import pytest

from backend.bots import bot_for, observe
from backend.bots.twohand.exact import phase_two_values, solve
from backend.engine import Declaration, Rules, apply_deal, deal_actions, new_deal
from backend.engine.cards import card
from backend.search import Solver

from .support import brute_force, counted_so_far, exact_values, two_hand_position


@pytest.mark.parametrize("scoring", ["by_suit", "by_order"])
@pytest.mark.parametrize("tricks_left", [1, 2, 3, 4])
@pytest.mark.parametrize("mid_trick", [False, True], ids=["on_lead", "following"])
def test_r4_exact_values_agree_with_brute_force(scoring: str, tricks_left: int, mid_trick: bool) -> None:
    rng = random.Random(f"{scoring}:{tricks_left}:{mid_trick}")
    rules = Rules(declaration_scoring=scoring)
    for _ in range(25 if tricks_left < 4 else 10):
        state = two_hand_position(rules, rng, tricks_left, mid_trick)
        seat = state.turn
        assert seat is not None
        k = observe(state, seat)
        base = counted_so_far(state, seat)
        values = phase_two_values(k)
        assert set(values) == set(deal_actions(state, seat))
        for play, value in values.items():
            after, _ = apply_deal(state, seat, play)
            assert value + base == brute_force(after, seat), play
        best = solve(k)
        assert values[best] == max(values.values()) and best in deal_actions(state, seat)


@pytest.mark.parametrize("rules", [Rules(), Rules(declaration_scoring="by_order"), Rules(deck_size=32)])
def test_r4_r7_the_seats_values_are_the_true_positions_once_the_stock_is_empty(rules: Rules) -> None:
    """R4 phase 2: every card a seat has not seen is in the other hand, so the values read off the seat's
    knowledge are those of the true position (pending declarations included, R3)."""
    rng = random.Random(3)
    for _ in range(10):
        state = two_hand_position(rules, rng, rng.randrange(1, 5), rng.random() < 0.5)
        seat = state.turn
        assert seat is not None
        assert phase_two_values(observe(state, seat)) == exact_values(state)
        assert solve(observe(state, seat)) in deal_actions(state, seat)


def test_r3_solver_counts_a_declaration_only_if_the_declarer_takes_a_trick() -> None:
    """Seat 0 declared clubs (100) on trick 1 and lost every trick since: its 100 count only if it wins one."""
    rules = Rules()
    state = new_deal(rules, 7, 1)._copy()
    # Seat 1 leads; seat 0 holds AS 9H, seat 1 holds TS 9D. Hearts trump.
    state.hands = (1 << card("AS") | 1 << card("9H"), 1 << card("TS") | 1 << card("9D"))
    state.stock = ()
    state.trump = 2
    state.declared_suits = 1 | 1 << 2
    state.declarations = (Declaration(0, 0, 100), Declaration(1, 2, 60))
    state.tricks_won = (0, 10)
    state.card_points = (0, 90)
    state.leader = state.turn = 1
    state.trick = ()
    solver = Solver(True)
    solver.set_stock([])
    value_for_seat1 = solver.value(state.hands[1], state.hands[0], state.trump, state.declared_suits, -1, 100)
    assert value_for_seat1 + counted_so_far(state, 1) == brute_force(state, 1)
    # Seat 1 cannot stop seat 0 from winning a trick (AS beats TS; 9H trumps 9D): 100 + 21 + 0 for seat 0.
    assert value_for_seat1 == -(100 + 21)


@pytest.mark.parametrize("tricks_left", [2, 3, 4])
def test_r4_hard_plays_an_optimal_card_once_the_stock_is_empty(tricks_left: int) -> None:
    rng = random.Random(tricks_left)
    rules = Rules()
    bot = bot_for("hard", rules)
    for _ in range(15):
        state = two_hand_position(rules, rng, tricks_left, rng.random() < 0.5)
        seat = state.turn
        assert seat is not None
        play = bot.choose(observe(state, seat), random.Random(1))
        after, _ = apply_deal(state, seat, play)
        best = max(brute_force(apply_deal(state, seat, a)[0], seat) for a in deal_actions(state, seat))
        assert brute_force(after, seat) == best
