"""R3, R4 (and V0.4, V0.5, V2.7, V3.6, V4.7 for n seats) — the rules of card play on bitmasks, written once.

The engine (``deal``: legal plays, refusals, applying a play; ``rules``: declaration points)
and the bots (their simulations and endgame search) all call these functions; nothing else
in the code base restates who wins a trick, what a follower must play or what may be
declared. They take plain ints (hands as masks, see ``cards``) so that the bots' inner
loops can call them directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .cards import KING, QUEEN, SUIT_MASK

__all__ = [
    "BY_ORDER_POINTS",
    "BY_SUIT_POINTS",
    "DUTIES",
    "MARRIAGE",
    "NO_TRUMP",
    "Duty",
    "beats",
    "declarable",
    "declaration_points",
    "follow_mask",
    "follower_wins",
    "obligation_mask",
    "trick_winner",
    "winning_index",
]

# What a follower owes the trick (V0.12 names them "follow, beat, trump"):
# "follow" — V4.7, V5, V7.8: follow suit if able, else any card;
# "follow_then_trump" — ruling V2.7: follow suit if able, else any trump if able, else any card;
# "head" — R4 phase 2 and V3.6 (ruling V3.6a): as "follow_then_trump", and within the suit owed
#          (the suit led, else trumps) a card that beats the trick (the winning card so far) if able.
Duty = Literal["follow", "follow_then_trump", "head"]
DUTIES: tuple[Duty, ...] = ("follow", "follow_then_trump", "head")

NO_TRUMP = -1  # R3: a deal starts without a trump suit

# R3 `by_suit`: ♣ 100, ♠ 80, ♥ 60, ♦ 40 (suit order C S H D).
BY_SUIT_POINTS = (100, 80, 60, 40)
# R3 `by_order`: the n-th declaration of a deal, whatever its suit.
BY_ORDER_POINTS = (40, 60, 80, 100)

# The K and Q of each suit, as a mask: a marriage (R3).
MARRIAGE = tuple(1 << (8 * s + KING) | 1 << (8 * s + QUEEN) for s in range(4))

# Suits of a 4-bit suit set, in suit order: _SUITS_IN[0b0101] == (0, 2).
_SUITS_IN = tuple(tuple(s for s in range(4) if bits >> s & 1) for bits in range(16))
_KING_BITS = sum(1 << (8 * s + KING) for s in range(4))


def _beats_table(trump: int) -> tuple[int, ...]:
    """``beats`` for every lead under ``trump``, written out from R4."""
    table = []
    for lead in range(32):
        suit = lead >> 3
        higher = SUIT_MASK[suit] & ((1 << lead) - 1)  # within a suit a lower bit is a higher card
        table.append(higher if trump in (NO_TRUMP, suit) else higher | SUIT_MASK[trump])
    return tuple(table)


# Indexed by trump, NO_TRUMP (-1) being the last row.
_BEATS = tuple(_beats_table(trump) for trump in (0, 1, 2, 3, NO_TRUMP))


def follow_mask(hand: int, lead: int, trump: int, phase1: bool) -> int:
    """R4 and ruling R4.1: the cards of ``hand`` that may be played to ``lead``.

    Phase 1 (stock not empty): any card. Phase 2: follow suit and head the trick if able;
    else trump if able (``trump`` is the suit in force when the follower plays); else any card.
    """
    if phase1:
        return hand
    return obligation_mask(hand, lead, lead, trump, "head")  # two cards: the lead is the winning card so far


def obligation_mask(hand: int, lead: int, winning: int, trump: int, duty: Duty) -> int:
    """The cards of ``hand`` a follower may play to a trick led with ``lead`` whose winning card
    so far (``winning_index``, V0.4) is ``winning``, under ``trump`` and the variant's ``duty``.

    R4 phase 2 (two cards, ``winning`` is ``lead``), V2.7, V3.6 with ruling V3.6a, V4.7/V5/V7.8.
    """
    same = hand & SUIT_MASK[lead >> 3]
    if same:
        if duty == "head":
            return same & _BEATS[trump][winning] or same  # V3.6a: no higher card of it, any card of it
        return same
    if duty == "follow" or trump == NO_TRUMP:
        return hand
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    if duty == "head":
        return trumps & _BEATS[trump][winning] or trumps  # V3.6a: trumps all lower, still a trump
    return trumps


def beats(lead: int, trump: int) -> int:
    """R4: the mask of the cards that take the trick when played to ``lead``.

    The highest trump wins, else the highest card of the suit led: so a higher card of the
    suit led, or any trump when the lead is not a trump.
    """
    return _BEATS[trump][lead]


def follower_wins(lead: int, follow: int, trump: int) -> bool:
    """R4: does the follower's card take the trick?"""
    return bool(_BEATS[trump][lead] >> follow & 1)


def trick_winner(leader: int, lead: int, follow: int, trump: int) -> int:
    """R4: the seat that takes the trick ``leader`` led ``lead`` to and the other seat followed with ``follow``."""
    return 1 - leader if follower_wins(lead, follow, trump) else leader


def winning_index(cards: Sequence[int], trump: int) -> int:
    """V0.4 (R4 for n cards): the index in ``cards`` (lead first) of the winning card so far.

    A card becomes the winning one when it beats the one winning before it (``beats``).
    """
    best = 0
    for i in range(1, len(cards)):
        if _BEATS[trump][cards[best]] >> cards[i] & 1:
            best = i
    return best


def declarable(hand: int, declared: int) -> tuple[int, ...]:
    """R3: the suits (in suit order) whose K and Q are in ``hand`` and which are not in ``declared`` (a suit set).

    Only the seat on lead may declare: the caller checks that.
    """
    both = hand & hand >> 1 & _KING_BITS  # bit 8s+KING set where the Q (the next bit) is held too
    both >>= KING
    suits = (both | both >> 7 | both >> 14 | both >> 21) & 0xF
    return _SUITS_IN[suits & ~declared]


def declaration_points(by_suit: bool, suit: int, nth: int) -> int:
    """R3: points for declaring ``suit`` as the ``nth`` (0-based) declaration of the deal."""
    return BY_SUIT_POINTS[suit] if by_suit else BY_ORDER_POINTS[nth]
