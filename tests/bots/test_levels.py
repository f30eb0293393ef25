"""What each level does in typical positions (R3 declarations, R4 trick play)."""

from __future__ import annotations

import random

import pytest

from backend.bots import LEVELS, HardBot, MediumBot, bot_for, choose, observe
from backend.engine import deal as engine
from backend.engine.cards import card
from backend.engine.deal import Play
from backend.engine.rules import Rules

from .support import random_position


def _deal(forehand_hand: str, dealer_hand: str, stock: str, rules: Rules | None = None) -> engine.DealState:
    """Seat 0 is forehand (dealer 1) and leads the first trick."""
    cards = [[card(n) for n in h.split()] for h in (forehand_hand, dealer_hand, stock)]
    return engine.deal_from_hands(rules or Rules(), 1, [cards[0], cards[1]], cards[2])


# Seat 0 holds the clubs and diamonds marriages.
MARRIAGES = _deal("KC QC KD QD 9S JS 9H JH", "AC TC AS TS AH TH AD TD", "JC 9C KS QS KH QH JD 9D")


def test_r3_medium_declares_the_most_valuable_marriage_on_lead() -> None:
    play = MediumBot().choose(observe(MARRIAGES, 0), random.Random(0))
    assert play.declare and play.card >> 3 == 0  # clubs: 100 points (by_suit)


def test_r3_easy_declares_about_half_the_time_when_it_can() -> None:
    knowledge = observe(MARRIAGES, 0)
    rng = random.Random(1)
    plays = [choose("easy", knowledge, rng) for _ in range(600)]
    share = sum(p.declare for p in plays) / len(plays)
    assert 0.42 < share < 0.58
    assert all(p in engine.legal_actions(MARRIAGES, 0) for p in plays)


def test_r3_hard_declares_a_marriage_on_lead() -> None:
    play = HardBot().choose(observe(MARRIAGES, 0), random.Random(2))
    assert play.declare


def test_r4_medium_takes_a_ten_with_its_ace_in_phase_1() -> None:
    state = _deal("TS 9C JC 9H JH 9D JD KH", "AS QS JS KC QC KD QD AH", "AC TC KS TH QH AD TD 9S")
    state, _ = engine.apply(state, 0, Play(card("TS")))
    assert MediumBot().choose(observe(state, 1), random.Random(0)) == Play(card("AS"))


def test_r4_medium_throws_a_low_card_on_a_lost_trick() -> None:
    state = _deal("AH 9C JC 9H JH 9D JD KH", "AS QS JS KC TC KD TD 9S", "AC QC KS TS TH QH AD QD")
    state, _ = engine.apply(state, 0, Play(card("AH")))
    play = MediumBot().choose(observe(state, 1), random.Random(0))
    assert play == Play(card("9S"))  # no heart, no trump: the card worth least


def test_hard_decisions_are_reproducible_with_a_fixed_rng() -> None:
    rng = random.Random(4)
    for _ in range(5):
        state = random_position(Rules(), rng, 12 - rng.randrange(4), rng.random() < 0.5)
        knowledge = observe(state, state.turn)
        assert choose("hard", knowledge, random.Random(9)) == choose("hard", knowledge, random.Random(9))


@pytest.mark.parametrize("show_bottom", [False, True])
def test_r3_r2_hard_samples_worlds_consistent_with_what_it_saw(show_bottom: bool) -> None:
    """Sampled opponent hands keep the declared partner (R3); the faced card stays at the stock bottom (R2)."""
    rules = Rules(show_stock_bottom=show_bottom)
    # Seat 0 declares clubs leading QC: KC is then known to stay in seat 0's hand.
    state = _deal("KC QC 9S JS 9H JH 9D JD", "AC TC AS TS AH TH AD TD", "JC 9C KS QS KH QH KD QD", rules)
    state, _ = engine.apply(state, 0, Play(card("QC"), True))
    knowledge = observe(state, 1)
    bot = HardBot()
    rng = random.Random(0)
    seen = knowledge.hand | knowledge.played | knowledge.trick_mask
    for _ in range(200):
        opp, stock = bot.sample_world(knowledge, rng)
        assert opp >> card("KC") & 1
        assert opp.bit_count() == knowledge.opponent_count == 7
        assert len(stock) == knowledge.stock_count == 8
        stock_mask = sum(1 << c for c in stock)
        assert not (opp & stock_mask) and not (seen & (opp | stock_mask))
        if show_bottom:
            assert stock[-1] == state.stock[-1]


def test_choose_knows_every_level_and_only_those() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert")
    assert [bot_for(level).level for level in LEVELS] == list(LEVELS)
    with pytest.raises(ValueError, match="unknown bot level"):
        bot_for("impossible")
