"""R3, R4, V0.4 — the search core's kernel (``backend.search.kernel``, compiled by numba unless
THOUSAND_NO_JIT=1) equals the engine's (``backend.engine.kernel``) on every variant's packs, duty and
every trump, by hypothesis."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.engine import kernel as engine
from backend.engine.cards import cards_in
from backend.engine.variants import VARIANTS
from backend.search import kernel

# Every (variant, pack) of the family with its duty: the packs are the layouts' (24, 32 and V7's 30 cards).
PACKS = [(v.id, layout.pack, v.duty) for v in VARIANTS.values() for layout in v.layouts]
TRUMPS = st.sampled_from([engine.NO_TRUMP, 0, 1, 2, 3])


@st.composite
def situations(draw: st.DrawFn) -> tuple[str, int, str, int, list[int], int]:
    """A variant's pack and duty, a hand from it, a trick's cards (lead first, not in the hand), a trump."""
    variant, pack, duty = draw(st.sampled_from(PACKS))
    cards = list(cards_in(pack))
    hand_cards = draw(st.lists(st.sampled_from(cards), unique=True, max_size=12))
    rest = [c for c in cards if c not in hand_cards]
    trick = draw(st.lists(st.sampled_from(rest), unique=True, min_size=2, max_size=4))
    hand = 0
    for c in hand_cards:
        hand |= 1 << c
    return variant, pack, duty, hand, trick, draw(TRUMPS)


@settings(max_examples=400, deadline=None)
@given(situations())
def test_r4_v04_follows_and_trick_winners_equal_the_engines(
    situation: tuple[str, int, str, int, list[int], int],
) -> None:
    _variant, _pack, duty, hand, trick, trump = situation
    lead, follow = trick[0], trick[1]
    win = engine.winning_index(trick, trump)
    assert kernel.winning_index(np.array(trick, dtype=np.int64), len(trick), trump) == win
    winning = trick[win]
    code = kernel.DUTY_CODES[duty]
    assert kernel.obligation_mask(hand, lead, winning, trump, code) == engine.obligation_mask(
        hand, lead, winning, trump, duty
    )
    for phase1 in (True, False):
        assert kernel.follow_mask(hand, lead, trump, phase1) == engine.follow_mask(hand, lead, trump, phase1)
    assert kernel.beats(lead, trump) == engine.beats(lead, trump)
    assert kernel.follower_wins(lead, follow, trump) == engine.follower_wins(lead, follow, trump)
    for leader in (0, 1):
        assert kernel.trick_winner(leader, lead, follow, trump) == engine.trick_winner(leader, lead, follow, trump)


@settings(max_examples=300, deadline=None)
@given(situations(), st.integers(0, 15))
def test_r3_declarations_equal_the_engines(situation: tuple[str, int, str, int, list[int], int], declared: int) -> None:
    _variant, _pack, _duty, hand, _trick, _trump = situation
    suits = kernel.declarable_suits(hand, declared)
    assert tuple(s for s in range(4) if suits >> s & 1) == engine.declarable(hand, declared)
    for by_suit in (True, False):
        for suit in range(4):
            for nth in range(4):
                assert kernel.declaration_points(by_suit, suit, nth) == engine.declaration_points(by_suit, suit, nth)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, (1 << 32) - 1))
def test_bit_helpers_equal_pythons(mask: int) -> None:
    assert kernel.popcount(mask) == mask.bit_count()
    assert kernel.lowest_card(mask) == (mask & -mask).bit_length() - 1
    assert kernel.highest_card(mask) == mask.bit_length() - 1
