"""Two-hand 1001's exact values on the search core (``backend.search``), from a seat's knowledge.

Once the stock is empty (R4 phase 2) every card a seat has not seen is the opponent's, so the position
is open and ``phase_two_values`` is exact; in phase 1 a sampled world (the opponent's hand and the
stock order) makes it open too, and ``world_values`` searches it to the end of the deal. Values are
the seat's points still to come minus the opponent's (declarations of a seat without a trick count
once it takes one, R3).

A thread keeps one ``Solver`` per declaration scoring (its transposition table of 2^20 entries is
allocated once); ``solver`` resets it for every decision (a new epoch, in constant time), so that a
decision never depends on the ones before it — on a fake clock it is reproducible.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence

from backend.engine.deal import Play
from backend.search import DECLARE, Solver

from ..knowledge import SeatKnowledge

__all__ = ["phase_two_values", "solve", "solver", "world_values"]

_local = threading.local()


def solver(by_suit: bool, deadline: float = math.inf, clock: Callable[[], float] = time.perf_counter) -> Solver:
    """This thread's solver for ``by_suit``, reset, its deadline and clock set."""
    solvers: dict[bool, Solver] | None = getattr(_local, "solvers", None)
    if solvers is None:
        solvers = _local.solvers = {}
    found = solvers.get(by_suit)
    if found is None:
        found = solvers[by_suit] = Solver(by_suit)
    found.reset()
    found.deadline = deadline
    found.clock = clock
    return found


def world_values(search: Solver, k: SeatKnowledge, opp: int, stock: Sequence[int]) -> dict[int, int]:
    """Every legal move's exact value (``card | DECLARE`` for a declaring lead) for the seat in one world:
    the opponent holds ``opp`` and the stock is ``stock`` (top first). Raises ``Timeout`` past the
    solver's deadline."""
    search.set_stock(stock)
    me, other = k.seat, k.opponent
    pending = k.pending
    if k.trick:  # the opponent led
        return search.follow_values(k.trick[0], opp, k.hand, k.trump, k.declared_suits, pending[other], pending[me])
    return search.lead_values(k.hand, opp, k.trump, k.declared_suits, pending[me], pending[other])


def phase_two_values(k: SeatKnowledge) -> dict[Play, int]:
    """R4 phase 2 (the stock empty: perfect information): every legal play's exact value for the seat."""
    values = world_values(solver(k.rules.by_suit), k, k.unseen, ())
    return {Play(m & 31, bool(m & DECLARE)): v for m, v in values.items()}


def solve(k: SeatKnowledge) -> Play:
    """The best play once the stock is empty; on ties the first in a fixed order: a lead in the core's
    order (declaring leads, then high ranks first), a follow by card."""
    values = phase_two_values(k)
    order = sorted(values, key=lambda p: p.card) if k.trick else list(values)
    return max(order, key=values.__getitem__)
