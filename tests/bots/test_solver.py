"""The phase-2 endgame solver (R4 phase 2 is perfect information) against plain minimax."""

from __future__ import annotations

import random

import pytest

from backend.bots import HardBot, observe
from backend.bots.solver import EndgameSolver
from backend.engine import deal as engine
from backend.engine.cards import card
from backend.engine.deal import Declaration
from backend.engine.rules import Rules

from .support import brute_force, counted_so_far, position_of, random_position


@pytest.mark.parametrize("scoring", ["by_suit", "by_order"])
@pytest.mark.parametrize("tricks_left", [1, 2, 3, 4])
@pytest.mark.parametrize("mid_trick", [False, True], ids=["on_lead", "following"])
def test_r4_endgame_solver_agrees_with_brute_force(scoring: str, tricks_left: int, mid_trick: bool) -> None:
    rng = random.Random(f"{scoring}:{tricks_left}:{mid_trick}")
    rules = Rules(declaration_scoring=scoring)
    for _ in range(25 if tricks_left < 4 else 10):
        state = random_position(rules, rng, tricks_left, mid_trick)
        seat = state.turn
        solver = EndgameSolver(scoring == "by_suit")
        position = position_of(state)
        base = counted_so_far(state, seat)
        assert solver.best(position)[1] + base == brute_force(state, seat)
        values = solver.values(position)
        assert set(values) == set(engine.legal_actions(state, seat))
        for play, value in values.items():
            after, _ = engine.apply(state, seat, play)
            assert value + base == brute_force(after, seat), play
        best, best_value = solver.best(position)
        assert best_value == max(values.values())
        assert values[best] == best_value


def test_r3_solver_counts_a_declaration_only_if_the_declarer_takes_a_trick() -> None:
    """Seat 0 declared clubs (100) on trick 1 and lost every trick since: its 100 count only if it wins one."""
    rules = Rules()
    base = engine.new_deal(rules, 7, 1)
    state = base._copy()
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
    position = position_of(state)
    assert position.pending == (100, -1)
    solver = EndgameSolver(True)
    value_for_seat1 = solver.best(position)[1]
    assert value_for_seat1 + counted_so_far(state, 1) == brute_force(state, 1)
    # Seat 1 cannot stop seat 0 from winning a trick (AS beats TS; 9H trumps 9D): 100 + 21 + 0 for seat 0.
    assert value_for_seat1 == -(100 + 21)


@pytest.mark.parametrize("tricks_left", [2, 3, 4])
def test_hard_bot_plays_an_optimal_card_once_the_stock_is_empty(tricks_left: int) -> None:
    rng = random.Random(tricks_left)
    bot = HardBot()
    for _ in range(15):
        state = random_position(Rules(), rng, tricks_left, rng.random() < 0.5)
        seat = state.turn
        play = bot.choose(observe(state, seat), random.Random(1))
        after, _ = engine.apply(state, seat, play)
        best = max(brute_force(engine.apply(state, seat, a)[0], seat) for a in engine.legal_actions(state, seat))
        assert brute_force(after, seat) == best
