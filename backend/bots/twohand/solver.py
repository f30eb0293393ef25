"""Exact play once the stock is empty (R4 phase 2): alpha-beta over the remaining tricks.

In two-hand 1001 the second phase is a game of perfect information: every card a seat
has not seen is in the opponent's hand. The solver maximizes the mover's *score still
to come* minus the opponent's: card points of the remaining tricks plus declarations
still to be made (R3; a declaration changes the trump at once, for the trick it leads),
and the declarations of a seat that has taken no trick yet, which count only if that
seat takes one (R3, "a player who takes no trick scores nothing for their
declarations"). Maximizing this maximizes the final deal score difference (R5).

Search is by whole tricks in negamax form, from the leader's point of view. A position
is ``(leader's hand, follower's hand, trump, declared suits, leader's pending points,
follower's pending points)`` where *pending* is ``-1`` for a seat that has taken a
trick (its declarations already count) and otherwise the declaration points it would
gain by taking one. The value does not depend on which seat leads, so the
transposition table is shared by both seats.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable

from backend.engine.cards import CARD_POINTS, KING, QUEEN, cards_in
from backend.engine.deal import Play
from backend.engine.kernel import beats, declarable, declaration_points, follow_mask

from ..knowledge import SeatKnowledge
from .policy import DECLARE, MEMO_LIMIT  # DECLARE: a move is a card, plus DECLARE for a lead that declares its marriage

__all__ = [
    "EndgameSolver",
    "Position",
    "Timeout",
    "declaring_lead",
    "leads",
    "position",
    "solve",
    "table_bounds",
    "table_window",
]

CP = CARD_POINTS
INF = 1 << 20
# Ordering of leads and follows: high ranks (so high card points) first.
_RANK_KEY = tuple((c & 7) * 4 + (c >> 3) for c in range(32))


# Memoized hot-loop helpers (hands repeat very often), bounded by policy.MEMO_LIMIT.


@functools.lru_cache(maxsize=MEMO_LIMIT)
def _ordered(mask: int) -> tuple[int, ...]:
    """The cards of ``mask``, high ranks first."""
    return tuple(sorted(cards_in(mask), key=_RANK_KEY.__getitem__))


@functools.lru_cache(maxsize=MEMO_LIMIT)
def _leads(hand: int, declared: int) -> tuple[int, ...]:
    """``leads(hand, declared)`` as a tuple (the search's inner loop)."""
    moves: list[int] = []
    for s in declarable(hand, declared):
        moves.append(8 * s + QUEEN | DECLARE)
        moves.append(8 * s + KING | DECLARE)
    moves.extend(_ordered(hand))
    return tuple(moves)


@functools.lru_cache(maxsize=MEMO_LIMIT)
def _follows(hand: int, lead: int, trump: int) -> tuple[int, ...]:
    """The phase-2 follows of ``hand`` to ``lead`` (R4, the kernel's ``follow_mask``) in search order:
    the winners, cheapest first, then the others, cheapest first (a third fewer nodes than high ranks first at
    the last phase-1 trick, ``bench/search_speed.py``; the order changes no value)."""
    win = beats(lead, trump)
    legal = _ordered(follow_mask(hand, lead, trump, False))
    return tuple(sorted(legal, key=lambda f: (not win >> f & 1, CP[f])))


def _first(moves: tuple[int, ...], first: int) -> tuple[int, ...]:
    """``moves`` with ``first`` (a transposition table's best move, one of them, or -1) moved to the front."""
    if first < 0 or moves[0] == first:
        return moves
    i = moves.index(first)
    return (first, *moves[:i], *moves[i + 1 :])


def leads(hand: int, declared: int, first: int = -1) -> list[int]:
    """Every lead of ``hand``: a declarable marriage's Q and K declaring it (R3, ``| DECLARE``), then every
    card, high ranks first; ``first`` (a transposition table's best lead), if given, moved to the front."""
    out = list(_leads(hand, declared))
    if first >= 0 and first in out:
        out.remove(first)
        out.insert(0, first)
    return out


class Timeout(Exception):
    """A search passed its deadline."""


def declaring_lead(card: int, declared: int, pending: int, by_suit: bool) -> tuple[int, int, int, int]:
    """R3: leading ``card`` to declare its marriage makes its suit trump from this trick on and scores the
    declaration — at once for a seat that has taken a trick (``pending`` is -1), else added to the points
    that wait for its first trick. Returns ``(trump, declared suits, points gained now, pending)``."""
    suit = card >> 3
    points = declaration_points(by_suit, suit, declared.bit_count())
    if pending < 0:
        return suit, declared | 1 << suit, points, pending
    return suit, declared | 1 << suit, 0, pending + points


def table_window(lo: int, hi: int, alpha: int, beta: int) -> tuple[int, int]:
    """The alpha-beta window narrowed by a table entry's bounds ``lo`` ≤ value ≤ ``hi``. An empty window
    (first ≥ second) means the entry answers the search: its value is the first."""
    if lo >= beta or lo == hi:
        return lo, lo
    if hi <= alpha:
        return hi, hi
    return (lo if lo > alpha else alpha), (hi if hi < beta else beta)


def table_bounds(best: int, alpha: int, beta: int, lo: int, hi: int) -> tuple[int, int]:
    """The bounds a fail-soft search returning ``best`` in the window (``alpha``, ``beta``) proves,
    tightening the entry's earlier ``lo``, ``hi``: an upper bound below the window, a lower one above it."""
    if best <= alpha:
        return lo, best
    if best >= beta:
        return best, hi
    return best, best


class Position:
    """A phase-2 position (stock empty) with the seat to move, in engine terms.

    ``pending[s]`` is ``-1`` once seat ``s`` has taken a trick, else the sum of its
    declaration points so far (they count only if it takes a trick, R3).
    """

    __slots__ = ("declared", "hands", "leader", "pending", "trick", "trump")

    def __init__(
        self,
        hands: tuple[int, int],
        leader: int,
        trick: tuple[int, ...],
        trump: int,
        declared: int,
        pending: tuple[int, int],
    ) -> None:
        self.hands = hands
        self.leader = leader
        self.trick = trick
        self.trump = trump
        self.declared = declared
        self.pending = pending


class EndgameSolver:
    """Alpha-beta with a transposition table over phase-2 tricks. One instance per rules option.

    A solver may be reused across positions of the same deal. The rules of play (legal
    follows, the trick winner, declarations and their points) are the engine's ``kernel``.
    The search reads ``clock()`` every 256 nodes and raises ``Timeout`` once it is past
    ``deadline`` (none by default).
    """

    def __init__(
        self, by_suit: bool = True, deadline: float = math.inf, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.by_suit = by_suit
        self.deadline = deadline
        self.clock = clock
        self.nodes = 0
        self.tt: dict[tuple[int, int, int, int, int, int], tuple[int, int, int]] = {}

    # ------------------------------------------------------------ the search

    def _search(self, hl: int, hf: int, trump: int, declared: int, pl: int, pf: int, alpha: int, beta: int) -> int:
        """Value for the leader (its points to come minus the follower's), fail-soft."""
        if not hl:
            return 0
        if not hl & (hl - 1):  # last trick: both cards forced
            c = hl.bit_length() - 1
            f = hf.bit_length() - 1
            pts = CP[c] + CP[f]
            if beats(c, trump) >> f & 1:
                return -pts - (pf if pf > 0 else 0)
            return pts + (pl if pl > 0 else 0)

        self.nodes += 1
        if not self.nodes & 255 and self.clock() > self.deadline:
            raise Timeout
        key = (hl, hf, trump, declared, pl, pf)
        tt = self.tt
        entry = tt.get(key)
        best_move = -1
        lo, hi = -INF, INF
        if entry is not None:
            lo, hi, best_move = entry
            alpha, beta = table_window(lo, hi, alpha, beta)
            if alpha >= beta:
                return alpha
        alpha0, beta0 = alpha, beta

        moves = _first(_leads(hl, declared), best_move)
        best = -INF
        best_lead = moves[0]
        by_suit = self.by_suit
        search = self._search
        follows = _follows
        for move in moves:
            if move & DECLARE:
                c = move & 31
                t, dec, gain, npl = declaring_lead(c, declared, pl, by_suit)
            else:
                c = move
                t, dec, gain, npl = trump, declared, 0, pl
            nhl = hl & ~(1 << c)
            winning = beats(c, t)
            worst = INF
            cpc = CP[c]
            if not nhl & (nhl - 1):  # two tricks left: the last one is forced, valued here, not searched
                lc = CP[nhl.bit_length() - 1] if nhl else 0
                for f in follows(hf, c, t):
                    nhf = hf & ~(1 << f)
                    a, b = nhl.bit_length() - 1, nhf.bit_length() - 1
                    last = lc + CP[b]
                    if winning >> f & 1:  # the follower takes this trick and leads b to the last one
                        base = gain - cpc - CP[f] - (pf if pf > 0 else 0)
                        v = base - (-last - (npl if npl > 0 else 0) if beats(b, t) >> a & 1 else last)
                    else:
                        base = gain + cpc + CP[f] + (npl if npl > 0 else 0)
                        v = base + (-last - (pf if pf > 0 else 0) if beats(a, t) >> b & 1 else last)
                    if v < worst:
                        worst = v
                        if worst <= alpha:
                            break
            else:
                for f in follows(hf, c, t):
                    ub = beta if beta < worst else worst
                    if winning >> f & 1:
                        base = gain - cpc - CP[f] - (pf if pf > 0 else 0)
                        v = base - search(hf & ~(1 << f), nhl, t, dec, -1, npl, base - ub, base - alpha)
                    else:
                        base = gain + cpc + CP[f] + (npl if npl > 0 else 0)
                        v = base + search(nhl, hf & ~(1 << f), t, dec, -1, pf, alpha - base, ub - base)
                    if v < worst:
                        worst = v
                        if worst <= alpha:
                            break
            if worst > best:
                best = worst
                best_lead = move
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break

        lo, hi = table_bounds(best, alpha0, beta0, lo, hi)
        tt[key] = (lo, hi, best_lead)
        return best

    # ------------------------------------------------------------ root helpers

    def _after_follow(self, pos: Position, follow: int) -> int:
        """Value for the seat that plays ``follow`` to the trick in progress."""
        lead = pos.trick[0]
        leader = pos.leader
        me = 1 - leader
        hl = pos.hands[leader]
        hf = pos.hands[me] & ~(1 << follow)
        pts = CP[lead] + CP[follow]
        p = pos.pending
        if beats(lead, pos.trump) >> follow & 1:
            base = pts + (p[me] if p[me] > 0 else 0)
            return base + self._search(hf, hl, pos.trump, pos.declared, -1, p[leader], -INF, INF)
        base = -pts - (p[leader] if p[leader] > 0 else 0)
        return base - self._search(hl, hf, pos.trump, pos.declared, -1, p[me], -INF, INF)

    def values(self, pos: Position) -> dict[Play, int]:
        """Exact value of every legal play for the seat to move: its score to come minus the opponent's."""
        out: dict[Play, int] = {}
        if pos.trick:
            me = 1 - pos.leader
            for f in cards_in(follow_mask(pos.hands[me], pos.trick[0], pos.trump, False)):
                out[Play(f)] = self._after_follow(pos, f)
            return out
        me = pos.leader
        hand = pos.hands[me]
        for c in cards_in(hand):
            out[Play(c)] = self._lead_value(pos, c, False)
        for s in declarable(hand, pos.declared):
            for c in (8 * s + KING, 8 * s + QUEEN):
                out[Play(c, True)] = self._lead_value(pos, c, True)
        return out

    def _lead_value(self, pos: Position, c: int, declare: bool) -> int:
        me = pos.leader
        trump, declared, gain, pl = pos.trump, pos.declared, 0, pos.pending[me]
        if declare:
            trump, declared, gain, pl = declaring_lead(c, declared, pl, self.by_suit)
        after = Position(
            hands=(pos.hands[0] & ~(1 << c), pos.hands[1]) if me == 0 else (pos.hands[0], pos.hands[1] & ~(1 << c)),
            leader=me,
            trick=(c,),
            trump=trump,
            declared=declared,
            pending=(pl, pos.pending[1]) if me == 0 else (pos.pending[0], pl),
        )
        follows = self.values(after)
        return gain - max(follows.values())

    def best(self, pos: Position) -> tuple[Play, int]:
        """The best play for the seat to move and its value (first best in a fixed order on ties)."""
        if pos.trick:
            values = self.values(pos)
            play = max(values, key=lambda p: values[p])
            return play, values[play]
        me = pos.leader
        hl, hf = pos.hands[me], pos.hands[1 - me]
        value = self._search(hl, hf, pos.trump, pos.declared, pos.pending[me], pos.pending[1 - me], -INF, INF)
        entry = self.tt.get((hl, hf, pos.trump, pos.declared, pos.pending[me], pos.pending[1 - me]))
        if entry is None:  # one card left: no table entry
            c = hl.bit_length() - 1
            return Play(c), value
        move = entry[2]
        return Play(move & 31, bool(move & DECLARE)), value


def position(k: SeatKnowledge) -> Position:
    """The exact phase-2 position of a seat's knowledge: every unseen card is the opponent's (R4)."""
    hands = [0, 0]
    hands[k.seat] = k.hand
    hands[k.opponent] = k.unseen
    pending = k.pending
    return Position((hands[0], hands[1]), k.leader, k.trick, k.trump, k.declared_suits, (pending[0], pending[1]))


def solve(k: SeatKnowledge) -> Play:
    """The best play once the stock is empty (R4 phase 2: perfect information)."""
    play, _ = EndgameSolver(k.rules.by_suit).best(position(k))
    return play
