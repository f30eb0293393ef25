"""R3, R4 — the rules kernel's hot parts for the compiled search: ``backend.engine.kernel`` once more,
in the subset of Python that numba compiles (ints and tables, no tuples of suits, no strings).

``backend/engine/kernel.py`` stays the rules' one statement for the engine and the bots' playouts;
this module restates only what ``core``'s inner loop calls, written again from RULES.md R3/R4 and
V0.4 (not imported from the engine's tables), and ``tests/search/test_kernel.py`` proves it equal to
the engine's on every variant's pack, duty and trump by hypothesis. Cards and hands are the engine's
(``backend.engine.cards``): card ``8 * suit + rank``, rank 0 the ace; a lower bit is a higher card.

A duty is a small int here (``DUTY_CODES``): ``FOLLOW``, ``FOLLOW_THEN_TRUMP``, ``HEAD``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jit import COMPILED, jit

__all__ = [
    "BEATS",
    "CP",
    "DUTY_CODES",
    "FOLLOW",
    "FOLLOW_THEN_TRUMP",
    "HEAD",
    "NO_TRUMP",
    "beats",
    "declarable_suits",
    "declaration_points",
    "follow_mask",
    "follower_wins",
    "highest_card",
    "lowest_card",
    "obligation_mask",
    "popcount",
    "trick_winner",
    "winning_index",
]

NO_TRUMP = -1
FOLLOW, FOLLOW_THEN_TRUMP, HEAD = 0, 1, 2
DUTY_CODES = {"follow": FOLLOW, "follow_then_trump": FOLLOW_THEN_TRUMP, "head": HEAD}
KING, QUEEN = 2, 3


def _table(values: list[int]) -> Any:
    """A constant table: a numpy array (numba freezes a global array into the machine code) or, in plain
    Python, a tuple (plain ints, and faster to index there than an array)."""
    return np.array(values, dtype=np.int64) if COMPILED else tuple(values)


# R1 card points by card: A 11, T 10, K 4, Q 3, J 2, 9 8 7 nothing.
CP = _table([(11, 10, 4, 3, 2, 0, 0, 0)[c & 7] for c in range(32)])
SUITS = _table([0xFF << (8 * s) for s in range(4)])
# R3 declaration points: by suit ♣ 100, ♠ 80, ♥ 60, ♦ 40; by order the n-th declaration 40, 60, 80, 100.
BY_SUIT = _table([100, 80, 60, 40])
BY_ORDER = _table([40, 60, 80, 100])


def _beats_rows() -> list[int]:
    """R4: for row ``trump + 1`` (row 0: no trump) and a lead, the cards that take the trick from it: a
    higher card of the suit led, and every trump when the lead is not one."""
    rows = []
    for trump in range(-1, 4):
        for lead in range(32):
            suit = lead >> 3
            higher = 0
            for rank in range(lead & 7):
                higher |= 1 << (8 * suit + rank)
            if trump >= 0 and trump != suit:
                higher |= 0xFF << (8 * trump)
            rows.append(higher)
    return rows


BEATS = _table(_beats_rows())

# The index of a lone bit, by de Bruijn multiplication (32-bit masks: every hand fits).
_DEBRUIJN = 0x077CB531
_BIT_INDEX = _table(
    [next(i for i in range(32) if (((1 << i) * _DEBRUIJN) & 0xFFFFFFFF) >> 27 == slot) for slot in range(32)]
)


@jit()
def popcount(m: int) -> int:
    """The number of cards in a mask (32 bits)."""
    m = m - ((m >> 1) & 0x55555555)
    m = (m & 0x33333333) + ((m >> 2) & 0x33333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F
    return ((m * 0x01010101) & 0xFFFFFFFF) >> 24


@jit()
def lowest_card(m: int) -> int:
    """The lowest card id of a non-empty mask (its highest card of the lowest suit)."""
    return _BIT_INDEX[(((m & -m) * _DEBRUIJN) & 0xFFFFFFFF) >> 27]  # type: ignore[no-any-return]


@jit()
def highest_card(m: int) -> int:
    """The highest card id of a non-empty mask (``m.bit_length() - 1``)."""
    m |= m >> 1
    m |= m >> 2
    m |= m >> 4
    m |= m >> 8
    m |= m >> 16
    return _BIT_INDEX[((((m + 1) >> 1) * _DEBRUIJN) & 0xFFFFFFFF) >> 27]  # type: ignore[no-any-return]


@jit()
def beats(lead: int, trump: int) -> int:
    """R4: the cards that take the trick when played to ``lead`` under ``trump`` (``NO_TRUMP`` = -1)."""
    return BEATS[(trump + 1) * 32 + lead]  # type: ignore[no-any-return]


@jit()
def follower_wins(lead: int, follow: int, trump: int) -> bool:
    """R4: does ``follow`` take the trick led with ``lead``?"""
    return (BEATS[(trump + 1) * 32 + lead] >> follow) & 1 == 1  # type: ignore[no-any-return]


@jit()
def trick_winner(leader: int, lead: int, follow: int, trump: int) -> int:
    """R4: the seat (0 or 1) that takes a two-card trick ``leader`` led."""
    if (BEATS[(trump + 1) * 32 + lead] >> follow) & 1:
        return 1 - leader
    return leader


@jit()
def obligation_mask(hand: int, lead: int, winning: int, trump: int, duty: int) -> int:
    """R4 phase 2, V2.7, V3.6 (ruling V3.6a), V4.7/V5/V7.8: the cards of ``hand`` a follower may play to a
    trick led with ``lead`` whose winning card so far is ``winning``."""
    same = hand & SUITS[lead >> 3]
    if same != 0:
        if duty == HEAD:
            higher = same & BEATS[(trump + 1) * 32 + winning]
            return higher if higher != 0 else same  # type: ignore[no-any-return]
        return same  # type: ignore[no-any-return]
    if duty == FOLLOW or trump == NO_TRUMP:
        return hand
    trumps = hand & SUITS[trump]
    if trumps == 0:
        return hand
    if duty == HEAD:
        higher = trumps & BEATS[(trump + 1) * 32 + winning]
        return higher if higher != 0 else trumps  # type: ignore[no-any-return]
    return trumps  # type: ignore[no-any-return]


@jit()
def follow_mask(hand: int, lead: int, trump: int, phase1: bool) -> int:
    """R4, ruling R4.1: any card while the stock lasts, else follow suit and head, else trump, else any."""
    if phase1:
        return hand
    return obligation_mask(hand, lead, lead, trump, HEAD)


@jit()
def winning_index(cards: Any, count: int, trump: int) -> int:
    """V0.4: the index among the first ``count`` of ``cards`` (lead first) of the winning card so far."""
    best = 0
    for i in range(1, count):
        if (BEATS[(trump + 1) * 32 + cards[best]] >> cards[i]) & 1:
            best = i
    return best


@jit()
def declarable_suits(hand: int, declared: int) -> int:
    """R3: the set (bit ``s`` for suit ``s``) of suits whose K and Q are both in ``hand``, not yet declared."""
    out = 0
    for s in range(4):
        pair = (1 << (8 * s + KING)) | (1 << (8 * s + QUEEN))
        if hand & pair == pair and not (declared >> s) & 1:
            out |= 1 << s
    return out


@jit()
def declaration_points(by_suit: bool, suit: int, nth: int) -> int:
    """R3: the points of declaring ``suit`` as the ``nth`` (0-based) declaration of the deal."""
    if by_suit:
        return BY_SUIT[suit]  # type: ignore[no-any-return]
    return BY_ORDER[nth]  # type: ignore[no-any-return]
