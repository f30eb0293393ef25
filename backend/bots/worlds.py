"""Guessing the hidden cards: one world sampler over a seat's knowledge, for every game of the family.

A *world* is one guess of every card the seat has not seen — the other hands, the stock and its
order (two-hand 1001), the untaken talon, another declarer's discards — that agrees with everything
the seat saw: each seat gets the cards it is known to hold (a declared marriage's partner, R3/V0.5),
none it is known not to hold (its follows, ``SeatKnowledge.forbidden``), and the faced bottom card
stays at the bottom of the stock (R2).

``sample_world`` deals the shuffled free cards to the places in a fixed order (the other hands in
seat order, the talon, the discards, then the stock, top first) and keeps the first deal that breaks
no constraint: uniform over the consistent worlds. Only when a few shuffles in a row break one does it
fall back to a constrained fill (random, then an exact matching), which always finds a world when
the true deal is consistent with the knowledge, and never raises.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from backend.engine.cards import cards_in

from .knowledge import SeatKnowledge

__all__ = ["World", "sample_world"]

SHUFFLES = 12  # shuffles tried before the constrained fill


@dataclass(frozen=True, slots=True)
class World:
    """One guess of the hidden cards: every hand (this seat's own included), the talon still untaken
    (0 once taken), the declarer's discards (this seat's own when it is the declarer), the stock top first."""

    hands: tuple[int, ...]
    talon: int
    discards: int
    stock: list[int]


def sample_world(k: SeatKnowledge, rng: random.Random) -> World:
    n, me = k.n, k.seat
    known, forbidden = k.known, k.forbidden
    bottom = k.stock_bottom
    held = 0
    for mask in known:
        held |= mask
    free = [c for c in cards_in(k.unseen & ~held) if c != bottom]
    others = [s for s in range(n) if s != me]
    # the places, in dealing order: the other hands, the talon, the discards, the stock
    need = [k.hand_counts[s] - known[s].bit_count() for s in others]
    need += [k.talon_count, k.other_discards_count, k.stock_count - (bottom is not None)]
    banned = [forbidden[s] for s in others] + [0, 0, 0]
    places = _shuffled_deal(free, need, banned, rng) or _fill(free, need, banned, rng)
    hands = [0] * n
    hands[me] = k.hand
    for i, s in enumerate(others):
        hands[s] = known[s] | _mask(places[i])
    stock = places[-1] + ([bottom] if bottom is not None else [])
    discards = k.discards if k.declarer == me else _mask(places[-2])
    return World(tuple(hands), _mask(places[-3]), discards, stock)


def _mask(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _shuffled_deal(free: list[int], need: list[int], banned: list[int], rng: random.Random) -> list[list[int]] | None:
    """Shuffle and deal in place order; the first deal that gives no place a card it may not hold."""
    for _ in range(SHUFFLES):
        rng.shuffle(free)
        places, position, fits = [], 0, True
        for count, ban in zip(need, banned, strict=True):
            cards = free[position : position + count]
            position += count
            if ban and _mask(cards) & ban:
                fits = False
                break
            places.append(cards)
        if fits:
            return places
    return None


def _fill(cards: list[int], need: list[int], banned: list[int], rng: random.Random) -> list[list[int]]:
    """Give every card a place with room that does not ban it, places chosen in proportion to their
    room, the most constrained cards first; else an exact matching; else the counts alone."""
    slots = range(len(need))
    if sum(need) != len(cards):  # a corrupt knowledge (check_consistent refuses it): deal in order
        dealt, position = [], 0
        for count in need:
            dealt.append(cards[position : position + count])
            position += count
        return dealt
    for _ in range(SHUFFLES):
        order = list(cards)
        rng.shuffle(order)
        order.sort(key=lambda c: sum(1 for s in slots if need[s] and not banned[s] >> c & 1))
        room = list(need)
        out: list[list[int]] = [[] for _ in slots]
        for c in order:
            total = sum(room[s] for s in slots if not banned[s] >> c & 1)
            if not total:
                break
            pick = rng.randrange(total)
            for s in slots:
                if banned[s] >> c & 1:
                    continue
                pick -= room[s]
                if pick < 0:
                    room[s] -= 1
                    out[s].append(c)
                    break
        else:
            return out
    matched = _matching(cards, need, banned, rng)
    if matched is not None:
        return matched
    return _fill(cards, need, [0] * len(need), rng)  # the inference was too strict: keep the counts only


def _matching(cards: list[int], need: list[int], banned: list[int], rng: random.Random) -> list[list[int]] | None:
    """Kuhn's augmenting paths from cards to the places' seats: an assignment if one exists."""
    seats = [s for s, count in enumerate(need) for _ in range(count)]
    rng.shuffle(seats)
    owner: list[int | None] = [None] * len(seats)

    def augment(c: int, seen: set[int]) -> bool:
        for p, s in enumerate(seats):
            if p in seen or banned[s] >> c & 1:
                continue
            seen.add(p)
            other = owner[p]
            if other is None or augment(other, seen):
                owner[p] = c
                return True
        return False

    for c in cards:
        if not augment(c, set()):
            return None
    out: list[list[int]] = [[] for _ in need]
    for p, held in enumerate(owner):
        if held is not None:
            out[seats[p]].append(held)
    return out
