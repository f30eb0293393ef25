"""The search core of two-hand 1001: one alpha-beta over both phases, compiled by numba.

``core`` is the search, ``kernel`` the rules kernel's hot parts it calls, ``jit`` how both are compiled
(``numba.njit(cache=True)``) or run as plain Python (``THOUSAND_NO_JIT=1``). This module is their typed
face: ``Solver`` holds the transposition table and the other arrays of one searcher and answers exact
values of every lead or follow, and of a position, within a deadline read from an injected clock.

The core is imported (compiled, or loaded from numba's cache) on first use, never at import: a process
that only serves pages never pays for it. ``warm()`` does it on purpose: the bot workers call it as
they start (``backend.rooms.bots``), ``python -m backend.search`` fills numba's cache (the Makefile's
test target before pytest, the Dockerfile at build).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from .jit import COMPILED

__all__ = ["COMPILED", "DECLARE", "INF", "Solver", "Timeout", "warm"]

DECLARE = 32  # a move that leads a K or Q declaring its marriage (core.DECLARE, bots.play.DECLARE)
INF = 30000  # core.INF: beyond every value

# Nodes searched between two readings of the clock (about 5 ms compiled).
SLICE_NODES = 16384
_NO_LIMIT = 1 << 62


class Timeout(Exception):
    """A search passed its deadline."""


def _core() -> ModuleType:
    from . import core

    return core


def _ints(size: int, fill: int = 0) -> Any:
    if COMPILED:
        import numpy as np

        return np.full(size, fill, dtype=np.int64)
    return [fill] * size


class Solver:
    """One searcher: a transposition table of ``2 ** table_bits`` entries and the core's other arrays.

    ``set_stock`` sets the world (the stock from its top card; empty once the stock is out): phase-1
    table entries of other worlds stop counting, phase-2 ones go on serving until ``reset``. ``lead_values``,
    ``follow_values`` and ``value`` search exactly to the end of the deal. The search runs in slices of
    ``slice_nodes`` nodes and reads ``clock()`` between them; past ``deadline`` it raises ``Timeout``.
    ``nodes`` counts the nodes searched since the solver was made.
    """

    def __init__(
        self,
        by_suit: bool = True,
        *,
        table_bits: int = 20,
        deadline: float = math.inf,
        clock: Callable[[], float] = time.perf_counter,
        slice_nodes: int = SLICE_NODES,
    ) -> None:
        core = _core()
        self._core = core
        self.deadline = deadline
        self.clock = clock
        self.slice_nodes = slice_nodes
        size = 1 << table_bits
        self._tt = _ints(4 * size, -1)  # four ints an entry: two of key, one of data, one unused
        self._stock = _ints(32)
        self._stats = _ints(core.STATS)
        self._killers = _ints(128, -1)
        self._buf = _ints(64 * 32)
        self._moves = _ints(32)
        self._values = _ints(32)
        s = self._stats
        s[core.BY_SUIT] = int(by_suit)
        s[core.MASK] = size - 1
        s[core.TAKEN] = -1
        s[core.LIMIT] = _NO_LIMIT

    @property
    def nodes(self) -> int:
        return int(self._stats[self._core.NODES])

    @property
    def by_suit(self) -> bool:
        """R3's declaration scoring: by suit (True) or by order (False)."""
        return bool(self._stats[self._core.BY_SUIT])

    @by_suit.setter
    def by_suit(self, by_suit: bool) -> None:
        self._stats[self._core.BY_SUIT] = int(by_suit)
        self.reset()  # the table's values were counted under the other scoring

    @property
    def stock_count(self) -> int:
        return int(self._stats[self._core.STOCK_N])

    def set_stock(self, stock: Sequence[int]) -> None:
        """A new world: ``stock`` from its top card (an even number of cards, R4's draws in pairs)."""
        if len(stock) % 2 or len(stock) > 30:
            raise ValueError(f"a stock of {len(stock)} cards")
        core, s = self._core, self._stats
        for i, c in enumerate(stock):
            self._stock[i] = c
        s[core.STOCK_N] = len(stock)
        self._next_generation()
        for i in range(len(self._killers)):
            self._killers[i] = -1

    def _next_generation(self) -> int:
        core, s = self._core, self._stats
        s[core.GEN] += 1
        if s[core.GEN] >= 1 << 19:  # the generation's bits are used up: forget every entry
            s[core.GEN] = 1
            s[core.EPOCH] = 0
            self._tt[:] = _ints(len(self._tt), -1)
        return int(s[core.GEN])

    def reset(self) -> None:
        """Forget every table entry and killer move (in constant time: a new epoch), so that what follows
        searches the same nodes as a new solver would; the node count goes on."""
        self._stats[self._core.EPOCH] = self._next_generation()
        self.set_stock([])

    def _arrays(self) -> tuple[Any, ...]:
        return self._tt, self._stock, self._stats, self._killers, self._buf

    def _sliced(self, run: Callable[[], int]) -> int:
        """``run()`` in slices of nodes until it finishes, reading the clock between them."""
        core, s = self._core, self._stats
        if self.deadline == math.inf:
            s[core.LIMIT] = _NO_LIMIT
            s[core.ABORT] = 0
            return run()
        while True:
            if self.clock() > self.deadline:
                raise Timeout
            s[core.LIMIT] = s[core.NODES] + self.slice_nodes
            s[core.ABORT] = 0
            out = run()
            if not s[core.ABORT]:
                return out

    def lead_values(self, hl: int, hf: int, trump: int, declared: int, pl: int, pf: int) -> dict[int, int]:
        """Every lead's exact value for the leader (``card | DECLARE`` for a declaring lead): its points to
        come minus the follower's; ``pl``/``pf`` the pending declaration points (-1: a trick taken)."""
        core = self._core
        moves, values = self._moves, self._values
        count = self._sliced(
            lambda: int(core.lead_values(hl, hf, trump, declared, pl, pf, moves, values, *self._arrays()))
        )
        return {int(moves[i]): int(values[i]) for i in range(count)}

    def follow_values(self, lead: int, hl: int, hf: int, trump: int, declared: int, pl: int, pf: int) -> dict[int, int]:
        """Every legal follow's exact value for the follower to ``lead`` (which ``hl`` no longer holds)."""
        core = self._core
        moves, values = self._moves, self._values
        count = self._sliced(
            lambda: int(core.follow_values(lead, hl, hf, trump, declared, pl, pf, moves, values, *self._arrays()))
        )
        return {int(moves[i]): int(values[i]) for i in range(count)}

    def value(self, hl: int, hf: int, trump: int, declared: int, pl: int, pf: int) -> int:
        """The exact value of the position for the seat on lead (no card of the trick played yet)."""
        core = self._core
        return self._sliced(lambda: int(core.search(hl, hf, 0, trump, declared, pl, pf, -INF, INF, *self._arrays())))


def warm() -> float:
    """Compile the core (or load it from numba's cache) and run every entry point once; the seconds taken."""
    start = time.perf_counter()
    solver = Solver(True, table_bits=10)
    # Late in a deal of R2's 24 cards: three cards each (a declarable marriage each, so every path is
    # taken), a stock of two, then the last three tricks alone.
    hands = (1 << 0 | 1 << 2 | 1 << 3, 1 << 8 | 1 << 10 | 1 << 11)
    solver.set_stock([16, 17])
    solver.lead_values(hands[0], hands[1], -1, 0, 0, 0)
    solver.follow_values(0, hands[0] & ~1, hands[1], -1, 0, 0, 0)
    solver.set_stock([])
    solver.value(hands[0], hands[1], -1, 0, 0, 0)
    return time.perf_counter() - start
