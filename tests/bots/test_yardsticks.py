"""bench/oracle.py's ``hand`` yardstick (issue 14): expert's search told the opponent's true hand, never
the stock order — its worlds differ in the order of the stock alone, the faced card at the bottom (R2)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from backend.bots import observe
from backend.engine import Rules

from .support import two_hand_position

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
oracle = pytest.importorskip("oracle")


@pytest.mark.parametrize(
    "rules", [Rules(target=301), Rules(target=301, deck_size=32, show_stock_bottom=True)], ids=["R", "V1_stock_bottom"]
)
def test_the_hand_oracles_worlds_hold_the_true_hand_and_only_reorder_the_stock(rules: Rules) -> None:
    rng = random.Random(14)
    for tricks_left in (11, 9, 8):
        state = two_hand_position(rules, rng, tricks_left + (rules.layout.deck_size - 24) // 2)
        if not state.stock:
            continue
        seat = state.turn
        assert seat is not None
        hand = oracle.HandOracle()
        hand.opponent_hand = state.hands[1 - seat]
        k = observe(state, seat)
        sampled = hand.sample_worlds(k, rng)
        every = hand.all_worlds(k, 10_000)
        for worlds in (sampled, every or []):
            for opponent, stock in worlds:
                assert opponent == state.hands[1 - seat]
                assert sorted(stock) == sorted(state.stock)
                if rules.show_stock_bottom:
                    assert stock[-1] == state.stock[-1]
        assert len(sampled) == hand.max_worlds
        if every is not None:  # few enough: every order of the stock once
            assert len({tuple(stock) for _, stock in every}) == len(every)


def test_a_deal_pair_against_the_hand_oracle_plays_legally_to_the_end() -> None:
    result = oracle.play_deal_pair(("easy", "hand", 3.0, 2026, Rules(target=1001).to_dict()))
    assert len(result["gains"]) == 2  # the bot in either seat
    assert all(isinstance(gain, int) for gain in result["gains"])
    assert result["times"]  # the bot decided; every play went through the engine's apply, which refuses illegal ones


@pytest.mark.parametrize("name", ["exact", "same_budget"])
def test_the_other_oracles_play_a_deal_pair_legally_to_the_end(name: str) -> None:
    """The exact oracle (search of the true deal, capped at 0.2 s of CPU a decision) and hard's search
    in the true world play whole deals through the engine, which refuses any illegal play."""
    result = oracle.play_deal_pair(("medium", name, 0.2, 2027, Rules(target=1001).to_dict()))
    assert len(result["gains"]) == 2 and all(isinstance(gain, int) for gain in result["gains"])
    exact, decisions = result["exact"]
    assert (decisions > 0 and 0 <= exact <= decisions) if name == "exact" else (exact, decisions) == (0, 0)
