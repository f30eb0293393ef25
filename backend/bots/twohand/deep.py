"""Perfect-information search over a whole deal whose stock order is known.

With the opponent's hand and the order of the stock given, phase 1 of two-hand 1001
(R4: any card may follow, the winner draws first) is a game of perfect information
too. ``DealSearch`` extends the phase-2 ``EndgameSolver`` with the phase-1 tricks:
alpha-beta by whole tricks in negamax form from the leader's point of view, a
transposition table keyed on the bitmask position and the stock position (with the
search depth, since a depth-capped value is only an estimate), the table's best lead
tried first, declarations next, and follows ordered "win cheaply, else throw cheaply".
Once the stock is empty the inherited exact solver takes over (its table is keyed on
the complete phase-2 position, so it stays valid from one world to the next).

``depth`` counts phase-1 tricks searched exactly; a phase-1 position beyond it is
estimated by playing it out with the ``medium`` heuristics (``sim.play_out``). A depth
at least the number of phase-1 tricks left makes the search exact to the end of the deal.

Every search checks ``clock()`` against ``deadline`` every 64 phase-1 nodes and every 256
phase-2 nodes (the inherited solver's own check) and raises
``Timeout`` once it is past, so a caller can bound its thinking time whatever the
position.

Users: the ``expert`` bot (one search per sampled world) and the oracles of
``bench/oracle.py`` (one search of the true deal). Values are the mover's score still to
come minus the opponent's, counted as ``solver`` counts them.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence

from backend.engine.cards import CARD_POINTS, KING, QUEEN
from backend.engine.kernel import beats

from .policy import DECLARE, MEMO_LIMIT
from .sim import play_out
from .solver import INF, EndgameSolver, Timeout, _first, _leads, declaring_lead, leads, table_bounds, table_window

__all__ = ["DealSearch", "Timeout"]  # Timeout: the solver's, re-exported

CP = CARD_POINTS


@functools.lru_cache(maxsize=MEMO_LIMIT)
def _follow_order(hand: int, lead: int, winning: int, trump: int) -> tuple[int, ...]:
    """Phase-1 follows, likely best first: cheap winners of valuable leads, then cheap throws (memoized;
    ``winning`` is ``beats(lead, trump)``)."""
    keyed = []
    lead_pts = CP[lead]
    m = hand
    while m:
        low = m & -m
        f = low.bit_length() - 1
        m ^= low
        if winning >> f & 1:
            key = CP[f] - 2 * lead_pts + (6 if f >> 3 == trump else 0) - 8
        else:
            key = CP[f] + (4 if f >> 3 == trump else 0) + (3 if (f & 7) in (KING, QUEEN) else 0)
        keyed.append((key, f))
    keyed.sort()
    return tuple(f for _, f in keyed)


class DealSearch(EndgameSolver):
    """Alpha-beta over a deal with a known stock. Set the world with ``set_stock`` before searching."""

    def __init__(
        self,
        by_suit: bool = True,
        deadline: float = math.inf,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(by_suit, deadline, clock)
        self.stock: tuple[int, ...] = ()
        self.tt1: dict[tuple[int, ...], tuple[int, int]] = {}
        self.best1: dict[tuple[int, ...], int] = {}

    def set_stock(self, stock: Sequence[int], best: dict[tuple[int, ...], int] | None = None) -> None:
        """A new world: the stock from its top card. The phase-1 table is cleared, the phase-2 table kept.
        ``best``, if given, is the world's table of best leads (filled in place): a caller deepening the
        same world pass after pass hands it back, so each pass tries the previous pass's best leads first
        (iterative deepening's move ordering; the values do not depend on it)."""
        self.stock = tuple(stock)
        self.tt1.clear()
        if best is None:
            self.best1 = {}
        else:
            self.best1 = best

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 63 and self.clock() > self.deadline:
            raise Timeout

    def estimate(self, hl: int, hf: int, pos: int, trump: int, declared: int, pl: int, pf: int) -> int:
        """A phase-1 position's value for the leader, by a ``medium`` playout (both hands and stock known)."""
        self._tick()
        return play_out([hl, hf], list(self.stock[pos:]), trump, declared, [pl, pf], 0, -1, self.by_suit)

    def search(
        self, hl: int, hf: int, pos: int, trump: int, declared: int, pl: int, pf: int, alpha: int, beta: int, depth: int
    ) -> int:
        """Value for the leader (its points to come minus the follower's), fail-soft; ``pos`` indexes the stock."""
        stock = self.stock
        if pos >= len(stock):
            return self._search(hl, hf, trump, declared, pl, pf, alpha, beta)
        if depth <= 0:
            return self.estimate(hl, hf, pos, trump, declared, pl, pf)
        self._tick()
        okey = (hl, hf, pos, trump, declared, pl, pf)
        key = (*okey, depth)
        entry = self.tt1.get(key)
        lo, hi = entry if entry is not None else (-INF, INF)
        if entry is not None:
            alpha, beta = table_window(lo, hi, alpha, beta)
            if alpha >= beta:
                return alpha
        alpha0, beta0 = alpha, beta

        moves = _first(_leads(hl, declared), self.best1.get(okey, -1))
        top, second = stock[pos], stock[pos + 1]
        by_suit = self.by_suit
        best = -INF
        best_lead = moves[0]
        for move in moves:
            c = move & 31
            if move & DECLARE:
                t, dec, gain, npl = declaring_lead(c, declared, pl, by_suit)
            else:
                t, dec, gain, npl = trump, declared, 0, pl
            nhl = hl & ~(1 << c)
            winning = beats(c, t)
            worst = INF
            for f in _follow_order(hf, c, winning, t):
                nhf = hf & ~(1 << f)
                pts = CP[c] + CP[f]
                ub = beta if beta < worst else worst
                if winning >> f & 1:
                    base = gain - pts - (pf if pf > 0 else 0)
                    v = base - self.search(
                        nhf | 1 << top, nhl | 1 << second, pos + 2, t, dec, -1, npl, base - ub, base - alpha, depth - 1
                    )
                else:
                    base = gain + pts + (npl if npl > 0 else 0)
                    v = base + self.search(
                        nhl | 1 << top, nhf | 1 << second, pos + 2, t, dec, -1, pf, alpha - base, ub - base, depth - 1
                    )
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

        self.tt1[key] = table_bounds(best, alpha0, beta0, lo, hi)
        self.best1[okey] = best_lead
        return best

    # ------------------------------------------------------------ roots (exact values of every move)

    def after_trick(
        self,
        leader_hand: int,
        follower_hand: int,
        pos: int,
        lead: int,
        follow: int,
        trump: int,
        declared: int,
        pl: int,
        pf: int,
        depth: int,
        alpha: int = -INF,
        beta: int = INF,
    ) -> int:
        """Value for the *leader* of a trick once ``lead`` (already paid for: declaration gains are the
        caller's) and ``follow`` are on the table; ``leader_hand``/``follower_hand`` no longer hold them."""
        pts = CP[lead] + CP[follow]
        stock = self.stock
        hl, hf = leader_hand, follower_hand
        if pos < len(stock):
            top, second = stock[pos], stock[pos + 1]
        if beats(lead, trump) >> follow & 1:
            base = -pts - (pf if pf > 0 else 0)
            if pos < len(stock):
                hf |= 1 << top
                hl |= 1 << second
            return base - self.search(hf, hl, pos + 2, trump, declared, -1, pl, base - beta, base - alpha, depth - 1)
        base = pts + (pl if pl > 0 else 0)
        if pos < len(stock):
            hl |= 1 << top
            hf |= 1 << second
        return base + self.search(hl, hf, pos + 2, trump, declared, -1, pf, alpha - base, beta - base, depth - 1)

    def follow_values(
        self, lead: int, hl: int, hf: int, pos: int, trump: int, declared: int, pl: int, pf: int, depth: int
    ) -> dict[int, int]:
        """Every follow's value for the follower (phase 1: any card of ``hf``); ``hl`` no longer holds ``lead``."""
        out = {}
        for f in _follow_order(hf, lead, beats(lead, trump), trump):
            out[f] = -self.after_trick(hl, hf & ~(1 << f), pos, lead, f, trump, declared, pl, pf, depth)
        return out

    def lead_values(
        self, hl: int, hf: int, pos: int, trump: int, declared: int, pl: int, pf: int, depth: int
    ) -> dict[int, int]:
        """Every lead's value for the leader (``card | 32`` for a declaring lead)."""
        out = {}
        for move in leads(hl, declared):
            c = move & 31
            if move & DECLARE:
                t, dec, gain, npl = declaring_lead(c, declared, pl, self.by_suit)
            else:
                t, dec, gain, npl = trump, declared, 0, pl
            nhl = hl & ~(1 << c)
            worst = INF
            for f in _follow_order(hf, c, beats(c, t), t):
                v = self.after_trick(nhl, hf & ~(1 << f), pos, c, f, t, dec, npl, pf, depth, -INF, worst)
                if v < worst:
                    worst = v
            out[move] = gain + worst
        return out
