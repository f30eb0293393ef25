"""R1 — cards as small integers, hands as bitmasks.

A card is ``suit * 8 + rank`` where ``rank`` 0 is the ace (highest) and 7 the seven
(lowest). The 24-card pack uses ranks 0–5 (A T K Q J 9); the 32-card pack of V1
adds ranks 6 and 7 (8 and 7). Bit ``c`` of a hand mask is set when card ``c`` is held,
so within one suit a lower bit is a higher card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "CSHD"  # clubs, spades, hearts, diamonds (R1 notation)
RANKS = "ATKQJ987"  # high → low
RANK_POINTS = (11, 10, 4, 3, 2, 0, 0, 0)  # R1 card points, indexed by rank

ACE, TEN, KING, QUEEN = 0, 1, 2, 3
CLUBS, SPADES, HEARTS, DIAMONDS = 0, 1, 2, 3

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
CARD_POINTS = tuple(RANK_POINTS[c & 7] for c in range(32))
CARD_NAMES = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in range(32))
_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}


def card(name: str) -> int:
    """Parse ``"TH"`` → the ten of hearts. Raises ``ValueError`` for anything else."""
    try:
        return _CARD_BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown card {name!r}") from None


def name(card_id: int) -> str:
    return CARD_NAMES[card_id]


def suit_from_letter(letter: str) -> int:
    if not isinstance(letter, str) or len(letter) != 1 or letter not in SUITS:
        raise ValueError(f"unknown suit {letter!r}")
    return SUITS.index(letter)


def deck_mask(ranks_per_suit: int) -> int:
    """The pack as a mask: the ``ranks_per_suit`` highest ranks of every suit."""
    per_suit = (1 << ranks_per_suit) - 1
    return sum(per_suit << (8 * s) for s in range(4))


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a mask, in ascending id order (by suit, then high → low rank)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def names(mask: int) -> list[str]:
    """A hand mask as sorted card names (suit order C S H D, high → low)."""
    return [CARD_NAMES[c] for c in cards_in(mask)]
