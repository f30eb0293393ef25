"""Heuristics for the auction and the talon (V0.6, V0.7) of V2, V3 and V7: what a hand is worth to a
declarer, and which two cards to lay away. Pure functions on bitmasks; the ``medium`` level bids and
discards by them, and ``hard`` plays its candidates out.
"""

from __future__ import annotations

from backend.engine.cards import CARD_POINTS, KING, QUEEN, SUIT_MASK, cards_in

__all__ = ["choose_discard", "discard_candidates", "hand_estimate"]

CP = CARD_POINTS


def hand_estimate(hand: int, values: tuple[int, ...], n: int, talon_size: int, may_meld: bool) -> int:
    """A quick guess of the deal points a declarer holding ``hand`` takes (before the talon): sure
    winners and their captures, guarded tens, marriages (the first one is sure — the declarer leads,
    V0.6d — the others need the lead back), long suits, and a share of the talon."""
    est = 0
    marriages = []
    for s in range(4):
        suit = hand & SUIT_MASK[s]
        if not suit:
            continue
        length = suit.bit_count()
        ace, ten = suit >> 8 * s & 1, suit >> 8 * s + 1 & 1
        if ace:
            est += 11 + 3 * (n - 1)
        if ten:
            est += 10 + 2 * (n - 1) if ace else (6 if length >= 3 else 2)
        king, queen = suit >> 8 * s + KING & 1, suit >> 8 * s + QUEEN & 1
        if king and queen and may_meld:
            marriages.append(values[s])
            est += 4
        else:
            est += 2 * (king + queen)
        if length >= 4:
            est += 6 * (length - 3)
    marriages.sort(reverse=True)
    for i, v in enumerate(marriages):
        est += v if i == 0 else v // 2
    est += 6 * talon_size
    return est


def _discard_value(c: int, hand: int, values: tuple[int, ...]) -> int:
    """How good it is to lay ``c`` away (V0.7: the discards count for the declarer)."""
    s = c >> 3
    suit = hand & SUIT_MASK[s]
    length = suit.bit_count()
    rank = c & 7
    has_ace = suit >> 8 * s & 1
    if rank in (KING, QUEEN) and hand >> (c ^ 1) & 1:
        return -200 - values[s]  # half of a marriage in hand
    if rank == 0:
        return -60 + (10 if length == 1 else 0)  # an ace wins its own trick
    if rank == 1:
        return -40 if has_ace else 30 - 4 * length  # an unguarded ten is banked rather than lost
    value = CP[c] * 3 + 12 - 3 * length  # low cards of short suits: void them
    if has_ace and length >= 3:
        value -= 10
    return value


def discard_candidates(hand: int, values: tuple[int, ...], limit: int) -> list[tuple[int, int]]:
    """The ``limit`` best pairs to discard by the heuristic, best first (voiding a suit is a bonus)."""
    cards = list(cards_in(hand))
    value = {c: _discard_value(c, hand, values) for c in cards}
    pairs = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            score = value[a] + value[b]
            if a >> 3 == b >> 3 and (hand & SUIT_MASK[a >> 3]).bit_count() == 2:
                score += 15  # the pair voids a suit
            pairs.append((score, a, b))
    pairs.sort(key=lambda t: -t[0])
    return [(a, b) for _, a, b in pairs[:limit]]


def choose_discard(hand: int, values: tuple[int, ...]) -> tuple[int, int]:
    return discard_candidates(hand, values, 1)[0]
