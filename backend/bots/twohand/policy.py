"""Two-hand 1001's card-play heuristics on bitmasks: the ``medium`` level's play, and the playout policy
of ``hard`` and ``expert``.

Everything here sees only what a seat may see: its own hand, the trump, the declared
suits, the stock count and ``unseen`` — the cards it has not seen (the opponent's hand
plus the stock). In phase 2 the stock is empty, so ``unseen`` *is* the opponent's hand
(R4: two-hand 1001 becomes a game of perfect information) and the heuristics use it to
count trumps and find sure winners.

A move is encoded as an int: the card, plus ``DECLARE`` (32) when the lead declares (R3).
"""

from __future__ import annotations

import functools

from backend.engine.cards import CARD_POINTS, KING, QUEEN, SUIT_MASK, cards_in
from backend.engine.kernel import BY_SUIT_POINTS, NO_TRUMP, beats, declarable, follow_mask

from ..play import DECLARE

__all__ = ["DECLARE", "cards_list", "choose_follow", "choose_lead", "sure_winner"]
CP = CARD_POINTS


def cards_list(mask: int) -> list[int]:
    """The cards of a mask as a list (the hot loops of the bots want a list, not a generator)."""
    return list(cards_in(mask))


# The bound of every memo table of two-hand 1001's playouts and searches: a worker process lives long,
# and one full table is about 12 MB at most.
MEMO_LIMIT = 1 << 16


@functools.lru_cache(maxsize=MEMO_LIMIT)
def _cards(mask: int) -> tuple[int, ...]:
    """The cards of a mask in ascending order, memoized (the playouts ask for the same hands again and again)."""
    return tuple(cards_in(mask))


def _throw_cost(c: int, hand: int, trump: int, declared: int, unseen: int) -> int:
    """How much it hurts to give ``c`` away: its points, more for trumps and marriage halves."""
    cost = CP[c] * 4 + (7 - (c & 7))  # points first, then rank
    suit = c >> 3
    if suit == trump:
        cost += 40
    rank = c & 7
    if rank in (KING, QUEEN) and not declared >> suit & 1:
        partner = c ^ 1  # K (2) ↔ Q (3)
        if (hand | unseen) >> partner & 1:  # the marriage can still be completed or declared
            cost += 30 + BY_SUIT_POINTS[suit] // 4
    return cost


def sure_winner(c: int, opp: int, trump: int) -> bool:
    """Phase 2: does the lead ``c`` win whatever the opponent (holding ``opp``) must play (R4)?"""
    return not follow_mask(opp, c, trump, False) & beats(c, trump)


def choose_lead(hand: int, trump: int, declared: int, stock_n: int, unseen: int, by_suit: bool) -> int:
    """The lead: declare the most valuable marriage; else a sure winner (phase 2) or a cheap card."""
    best_suit, best_key = -1, -1
    for s in declarable(hand, declared):
        # by_suit: the most valuable suit; by_order every suit is worth the same,
        # so prefer the longest one (it becomes trump).
        key = BY_SUIT_POINTS[s] * 16 if by_suit else 0
        key += (hand & SUIT_MASK[s]).bit_count()
        if key > best_key:
            best_suit, best_key = s, key
    if best_suit >= 0:
        return 8 * best_suit + QUEEN | DECLARE  # lead the queen: the king stays to win later

    cards = _cards(hand)
    if not stock_n:
        # Phase 2: cash a sure winner, the one with most points; count trumps — draw the
        # opponent's trumps with a master trump while we hold more of them.
        opp = unseen
        best, best_pts = -1, -1
        for c in cards:
            if CP[c] > best_pts and sure_winner(c, opp, trump):  # the cheap test first: same choice
                best, best_pts = c, CP[c]
        if best >= 0:
            return best
        if trump != NO_TRUMP:
            mine = hand & SUIT_MASK[trump]
            theirs = opp & SUIT_MASK[trump]
            if theirs and mine.bit_count() > theirs.bit_count():
                return mine.bit_length() - 1  # lowest trump: pull theirs
    best, best_cost = cards[0], 1 << 30
    for c in cards:
        cost = _throw_cost(c, hand, trump, declared, unseen)
        if c & 7 <= 1 and c >> 3 != trump:
            # An ace (or a ten whose ace is gone) of a side suit: in phase 1 it keeps
            # the lead unless trumped, but gives 10-11 points to a trump; keep it back.
            cost += 8
        if cost < best_cost:
            best, best_cost = c, cost
    return best


def choose_follow(hand: int, lead: int, trump: int, declared: int, stock_n: int, unseen: int) -> int:
    """The answer to ``lead``: take valuable tricks cheaply, else throw the cheapest card."""
    legal = follow_mask(hand, lead, trump, stock_n > 0)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    cards = _cards(legal)
    lead_pts = CP[lead]
    winning = beats(lead, trump)
    winners = [f for f in cards if winning >> f & 1]
    if winners:
        if stock_n:
            # Phase 1: win a trick holding an ace or ten, or when we hold a marriage to
            # declare from the lead (R3: only the player on lead declares); a side-suit
            # card that costs little may win anyway to take the lead.
            marriage = bool(declarable(hand, declared))
            same = [f for f in winners if f >> 3 == lead >> 3 and f >> 3 != trump]
            ruffs = [f for f in winners if f >> 3 == trump and lead >> 3 != trump]
            trumps_held = (hand & SUIT_MASK[trump]).bit_count() if trump != NO_TRUMP else 0
            if same:
                pick = min(same, key=lambda f: _throw_cost(f, hand, trump, declared, unseen))
                if (
                    lead_pts >= 10
                    or marriage
                    or CP[pick] >= 10
                    or _throw_cost(pick, hand, trump, declared, unseen) < 30
                ):
                    return pick
            if ruffs and (lead_pts >= 10 or (marriage and trumps_held >= 2)):
                return max(ruffs)  # the lowest trump
            if lead >> 3 == trump and (lead_pts >= 10 or marriage):
                trump_winners = [f for f in winners if f >> 3 == trump]
                if trump_winners:
                    return max(trump_winners)
        else:
            # Phase 2: the lowest winner (highest bit = lowest rank), unless the ace or
            # ten can be cashed on this trick because it would fall later anyway.
            same = [f for f in winners if f >> 3 == lead >> 3]
            if same:
                return max(same) if lead_pts < 10 else min(same)
            return max(winners)
    best, best_cost = cards[0], 1 << 30
    for f in cards:
        cost = _throw_cost(f, hand, trump, declared, unseen)
        if cost < best_cost:
            best, best_cost = f, cost
    return best
