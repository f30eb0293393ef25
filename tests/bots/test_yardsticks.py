"""bench/oracle.py's ``hand`` yardstick (issue 14): expert's search told the opponent's true hand, never
the stock order — its worlds differ in the order of the stock alone, the faced card at the bottom (R2)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from backend.bots import observe
from backend.engine.rules import Rules
from tests.bots.support import random_position

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
oracle = pytest.importorskip("oracle")


@pytest.mark.parametrize("rules", [Rules(target=301), Rules(target=301, deck_size=32, show_stock_bottom=True)])
def test_the_hand_oracles_worlds_hold_the_true_hand_and_only_reorder_the_stock(rules: Rules) -> None:
    rng = random.Random(14)
    for tricks_left in (11, 9, 8):
        state = random_position(rules, rng, tricks_left + (rules.deck_size - 24) // 2)
        if not state.stock:
            continue
        seat = state.turn
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
