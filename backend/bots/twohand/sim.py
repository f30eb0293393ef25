"""Playing out a determinized deal on bitmasks, for the ``hard`` bot's Monte Carlo evaluation.

A *world* is one guess of the hidden cards (the opponent's hand and the stock order)
that agrees with everything the bot has seen. ``play_out`` plays such a world to the
end of the deal with the ``policy`` heuristics for both seats (each seat's policy sees
only its own hand, the opponent's hand being "unseen" to it) and returns the score
still to come, as the search core counts it (see ``exact``). The rules of play
(who takes a trick, declaration points) are the engine's ``kernel``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from backend.engine.cards import CARD_POINTS, mask_of
from backend.engine.kernel import declaration_points, follower_wins

from ..knowledge import SeatKnowledge
from ..worlds import World
from .policy import DECLARE, MEMO_LIMIT, choose_follow, choose_lead

CP = CARD_POINTS

# The policy's choices, memoized: playouts of one decision (every move in every world, the search's
# leaves) meet the same (hand, trump, declared, stock count, unseen) situations again and again, and
# the heuristics are pure functions of them (bounded by policy.MEMO_LIMIT).
_lead = functools.lru_cache(maxsize=MEMO_LIMIT)(choose_lead)
_follow = functools.lru_cache(maxsize=MEMO_LIMIT)(choose_follow)


def play_out(
    hands: list[int],
    stock: list[int],
    trump: int,
    declared: int,
    pending: list[int],
    leader: int,
    lead: int,
    by_suit: bool,
    first: int = -1,
) -> int:
    """Play to the end; return seat 0's points to come minus seat 1's.

    ``hands`` and ``pending`` (``-1`` for a seat that took a trick, else its declaration
    points waiting for a first trick) are modified in place; ``stock`` (top first) is only
    read. ``lead`` is the card already led to the trick in progress by ``leader``, or ``-1``.
    ``first``, if not ``-1``, is the next move (a card, plus ``DECLARE`` for a declaring
    lead) instead of the policy's: the move whose value the caller wants.
    """
    value = 0
    pos = 0
    n = len(stock)
    stock_mask = mask_of(stock)
    while True:
        stock_n = n - pos
        if lead < 0:
            if not hands[leader]:
                return value
            if first >= 0:
                move, first = first, -1
            else:
                move = _lead(hands[leader], trump, declared, stock_n, hands[1 - leader] | stock_mask, by_suit)
            lead = move & 31
            hands[leader] &= ~(1 << lead)
            if move & DECLARE:  # R3: trump at once; points count once the declarer takes a trick
                suit = lead >> 3
                points = declaration_points(by_suit, suit, declared.bit_count())
                trump = suit
                declared |= 1 << suit
                if pending[leader] < 0:
                    value += points if leader == 0 else -points
                else:
                    pending[leader] += points
        follower = 1 - leader
        if first >= 0:
            f, first = first, -1
        else:
            f = _follow(hands[follower], lead, trump, declared, stock_n, hands[leader] | stock_mask)
        hands[follower] &= ~(1 << f)
        winner = follower if follower_wins(lead, f, trump) else leader
        gained = CP[lead] + CP[f]
        if pending[winner] > 0:
            gained += pending[winner]
        pending[winner] = -1
        value += gained if winner == 0 else -gained
        if stock_n:  # R4 phase 1: the winner draws first
            top, second = stock[pos], stock[pos + 1]
            pos += 2
            hands[winner] |= 1 << top
            hands[1 - winner] |= 1 << second
            stock_mask &= ~(1 << top | 1 << second)
        leader = winner
        lead = -1


def values_of(k: SeatKnowledge) -> Callable[[World, list[int]], list[int]]:
    """The ``hard`` level's evaluation in two-hand 1001: each move played out in a world with the
    ``policy`` heuristics for both seats, scored as the seat's points still to come minus the
    opponent's."""
    me, by_suit = k.seat, k.rules.by_suit
    sign = 1 if me == 0 else -1
    pending, declared = k.pending, k.declared_suits
    lead = k.trick[0] if k.trick else -1

    def values(world: World, moves: list[int]) -> list[int]:
        out = []
        opp = world.hands[1 - me]
        for move in moves:
            hands = [0, 0]
            hands[me] = k.hand
            hands[1 - me] = opp
            diff = play_out(hands, world.stock, k.trump, declared, list(pending), k.leader, lead, by_suit, move)
            out.append(sign * diff)
        return out

    return values
