"""R3, R4 — the bit-level rules kernel shared by the engine and the bots, against the rules text.

The references below are written on card names from RULES.md, independently of the kernel.
"""

from __future__ import annotations

import itertools
import random

import pytest

from backend.engine import Rules, card, name
from backend.engine.cards import cards_in
from backend.engine.kernel import (
    NO_TRUMP,
    beats,
    declarable,
    declaration_points,
    follow_mask,
    follower_wins,
    trick_winner,
)

from .support import RANKS, SUITS, pack_names

PACK = pack_names(32)  # V1's 32 cards include the 24 of R1


def higher(a: str, b: str) -> bool:
    return RANKS.index(a[0]) < RANKS.index(b[0])


def mask(names: list[str]) -> int:
    out = 0
    for n in names:
        out |= 1 << card(n)
    return out


def reference_follower_wins(lead: str, follow: str, trump: str | None) -> bool:
    """R4: a trick is won by the highest trump in it, or, if it holds no trump, by the highest card of the suit led."""
    trumps = [c for c in (lead, follow) if c[1] == trump]
    if trumps:
        return (len(trumps) == 2 and higher(follow, lead)) or trumps == [follow]
    return follow[1] == lead[1] and higher(follow, lead)


def reference_follows(hand: list[str], lead: str, trump: str | None) -> set[str]:
    """R4 phase 2 with ruling R4.1: follow suit and head; else trump; else anything."""
    same = [c for c in hand if c[1] == lead[1]]
    if same:
        heads = [c for c in same if higher(c, lead)]
        return set(heads or same)
    trumps = [c for c in hand if c[1] == trump]
    return set(trumps or hand)


@pytest.mark.parametrize("trump", [None, *SUITS])
def test_r4_follower_wins_trick_winner_and_beats_for_every_pair(trump):
    t = NO_TRUMP if trump is None else SUITS.index(trump)
    for lead, follow in itertools.permutations(PACK, 2):
        wins = reference_follower_wins(lead, follow, trump)
        assert follower_wins(card(lead), card(follow), t) is wins, (lead, follow, trump)
        assert bool(beats(card(lead), t) >> card(follow) & 1) is wins
        for leader in (0, 1):
            assert trick_winner(leader, card(lead), card(follow), t) == (1 - leader if wins else leader)


def test_r4_follow_mask_phase_1_any_card_phase_2_follow_head_trump():
    rng = random.Random(4)
    for _ in range(3000):
        hand = rng.sample(PACK, rng.randrange(1, 9))
        lead = rng.choice([c for c in PACK if c not in hand])
        trump = rng.choice([None, *SUITS])
        t = NO_TRUMP if trump is None else SUITS.index(trump)
        assert follow_mask(mask(hand), card(lead), t, True) == mask(hand)  # phase 1
        legal = {name(c) for c in cards_in(follow_mask(mask(hand), card(lead), t, False))}
        assert legal == reference_follows(hand, lead, trump), (hand, lead, trump)


def test_r3_declarable_needs_k_and_q_of_an_undeclared_suit():
    rng = random.Random(5)
    for _ in range(3000):
        hand = rng.sample(PACK, rng.randrange(0, 12))
        declared_letters = {s for s in SUITS if rng.random() < 0.3}
        declared = sum(1 << SUITS.index(s) for s in declared_letters)
        expected = tuple(SUITS.index(s) for s in SUITS if s not in declared_letters and {"K" + s, "Q" + s} <= set(hand))
        assert declarable(mask(hand), declared) == expected, (hand, declared_letters)


def test_r3_declaration_points_by_suit_and_by_order():
    by_suit = {"C": 100, "S": 80, "H": 60, "D": 40}
    for s, suit in enumerate(SUITS):
        for nth in range(4):
            assert declaration_points(True, s, nth) == by_suit[suit]
            assert declaration_points(False, s, nth) == [40, 60, 80, 100][nth]
            assert Rules().declaration_points(s, nth) == by_suit[suit]
            assert Rules(declaration_scoring="by_order").declaration_points(s, nth) == [40, 60, 80, 100][nth]
