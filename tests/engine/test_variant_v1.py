"""V1 — 32-card 1001: 7 to A in each suit, 6 cards to each player, 20 to the stock, 16 tricks."""

from __future__ import annotations

import random

import pytest

from backend.engine import Play, Rules, deal_result, legal_mask, names, new_deal
from backend.engine import apply_deal as apply
from backend.engine.cards import cards_in, deck_mask
from backend.engine.shuffle import shuffled

from .support import POINTS, build, pack_names, trick

V1 = Rules(deck_size=32)


def test_v1_rules_shape():
    hand = V1.layout.hand_size
    assert (hand, V1.layout.deck_size - 2 * hand, V1.layout.deck_size // 2) == (6, 20, 16)
    assert sorted(names(deck_mask(8))) == sorted(pack_names(32))
    assert sum(POINTS[c[0]] for c in pack_names(32)) == 120  # 7 and 8 score nothing
    with pytest.raises(ValueError):
        Rules(deck_size=36)


@pytest.mark.parametrize("dealer", [0, 1])
def test_v1_deal_six_each_from_forehand_and_twenty_to_the_stock(dealer):
    state = new_deal(V1, 99, dealer)
    order = shuffled(list(cards_in(deck_mask(8))), 99)
    forehand = 1 - dealer
    # Ruling (V1 names no packets): 3-3, forehand first
    assert state.hands[forehand] == sum(1 << c for c in order[0:3] + order[6:9])
    assert state.hands[dealer] == sum(1 << c for c in order[3:6] + order[9:12])
    assert list(state.stock) == order[12:] and len(state.stock) == 20
    assert state.turn == forehand


@pytest.mark.parametrize(("high", "low"), [("9", "8"), ("8", "7"), ("J", "7"), ("9", "7")])
def test_v1_seven_and_eight_rank_below_nine(high, low):
    lead_card, follow_card = low + "S", high + "S"
    rest = [c for c in pack_names(32) if c not in (lead_card, follow_card)]
    state = build(" ".join([follow_card, *rest[:5]]), " ".join([lead_card, *rest[5:10]]), " ".join(rest[10:]), rules=V1)
    state = trick(state, lead_card, follow_card)
    assert state.tricks[0].winner == 0 and state.card_points == (POINTS[high], 0)


def test_v1_phase_1_lasts_while_the_stock_has_cards_then_16_tricks():
    rng = random.Random(32)
    for seed in range(20):
        state = new_deal(V1, seed, seed % 2)
        while not state.over:
            assert bool(state.stock) == (len(state.tricks) < 10)  # R4 phase 1 while the stock lasts
            if state.stock and state.trick:
                assert legal_mask(state) == state.hands[state.turn]  # free play while stock remains
            state, _ = apply(state, state.turn, Play(rng.choice(list(cards_in(legal_mask(state))))))
        assert len(state.tricks) == 16
        assert sum(deal_result(state).card_points) == 120
        assert sorted(c for t in state.tricks for c in t.cards) == list(cards_in(deck_mask(8)))
