"""R3/R4: every bot level only ever makes legal plays, under every table option."""

from __future__ import annotations

import random

import pytest

from backend.bots import EasyBot, ExpertBot, HardBot, MediumBot, observe
from backend.engine import deal as engine
from backend.engine.rules import Rules

from .support import RULE_IDS, RULE_SETS


def _play_deals(bot, rules: Rules, deals: int, seed: int) -> int:
    """Bot against itself for ``deals`` whole deals; every action checked against the engine."""
    rng = random.Random(seed)
    decisions = 0
    for _ in range(deals):
        state = engine.new_deal(rules, rng.randrange(1 << 60), rng.randrange(2))
        while not state.over:
            seat = state.turn
            play = bot.choose(observe(state, seat), rng)
            assert play in engine.legal_actions(state, seat), (play, state)
            state, _ = engine.apply(state, seat, play)
            decisions += 1
    return decisions


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_r4_easy_and_medium_play_only_legal_cards(rules: Rules) -> None:
    for bot in (EasyBot(), MediumBot()):
        assert _play_deals(bot, rules, 150, seed=1) == 150 * rules.deck_size


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_r4_hard_plays_only_legal_cards(rules: Rules) -> None:
    _play_deals(HardBot(plies=1200, min_worlds=4), rules, 12, seed=2)  # a light budget: many positions
    _play_deals(HardBot(), rules, 1, seed=3)  # the real budget


def test_r3_every_level_refuses_to_move_out_of_turn() -> None:
    state = engine.new_deal(Rules(), 1, 0)
    waiting = 1 - state.turn
    for bot in (EasyBot(), MediumBot(), HardBot(), ExpertBot()):
        with pytest.raises(ValueError, match="turn"):
            bot.choose(observe(state, waiting), random.Random(0))
