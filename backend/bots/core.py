"""Bit-level rules helpers shared by the bots (R3, R4), kept free of engine objects for speed.

These mirror ``backend.engine.deal`` (legal plays, trick winner, declaration points);
the tests check every bot move against the engine itself.
"""

from __future__ import annotations

from backend.engine.cards import CARD_POINTS, KING, QUEEN, SUIT_MASK, cards_in
from backend.engine.deal import NO_TRUMP, Play
from backend.engine.rules import BY_ORDER_POINTS, BY_SUIT_POINTS

from .knowledge import SeatKnowledge

CP = CARD_POINTS
KQ = tuple(1 << (8 * s + KING) | 1 << (8 * s + QUEEN) for s in range(4))
KING_OF = tuple(8 * s + KING for s in range(4))
QUEEN_OF = tuple(8 * s + QUEEN for s in range(4))


def decl_points(by_suit: bool, suit: int, declared: int) -> int:
    """R3: points for declaring ``suit`` when the suits in ``declared`` already were."""
    return BY_SUIT_POINTS[suit] if by_suit else BY_ORDER_POINTS[declared.bit_count()]


def declarable(hand: int, declared: int) -> list[int]:
    """R3: suits whose K and Q are in ``hand`` and which were not declared yet."""
    return [s for s in range(4) if not declared >> s & 1 and hand & KQ[s] == KQ[s]]


def follow_mask(hand: int, lead: int, trump: int, phase1: bool) -> int:
    """R4 and ruling R4.1: the cards ``hand`` may play to ``lead``."""
    if phase1:
        return hand
    same = hand & SUIT_MASK[lead >> 3]
    if same:
        return same & ((1 << lead) - 1) or same
    if trump != NO_TRUMP:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            return trumps
    return hand


def follower_wins(lead: int, follow: int, trump: int) -> bool:
    """R4: does the follower's card take the trick?"""
    if follow >> 3 == lead >> 3:
        return follow < lead
    return follow >> 3 == trump


def cards_list(mask: int) -> list[int]:
    """The cards of a mask as a list (the hot loops of the bots want a list, not a generator)."""
    return list(cards_in(mask))


def lowest_bit_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def legal_plays(k: SeatKnowledge) -> list[Play]:
    """Every action the seat may take now (as ``engine.legal_actions``), from its knowledge."""
    if k.turn != k.seat:
        return []
    if k.trick:
        return [Play(c) for c in cards_in(follow_mask(k.hand, k.trick[0], k.trump, k.stock_count > 0))]
    plays = [Play(c) for c in cards_in(k.hand)]
    for s in declarable(k.hand, k.declared_suits):
        plays.append(Play(KING_OF[s], True))
        plays.append(Play(QUEEN_OF[s], True))
    return plays
