"""Running computer opponents off the event loop.

Bots decide in a separate process (a ``ProcessPoolExecutor``): a ``hard`` bot thinking for a
few hundred milliseconds holds a CPU, and in a worker process it cannot hold up the event
loop that serves every other room. A bot gets exactly what its seat may see — the engine
observer's view (``SeatView``, or ``TableSeatView`` for V2–V7) and the seat's redacted events of
the deal — never the true state (R7, V0.11).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from backend.bots import LEVELS, choose, knowledge_from_view
from backend.bots.table_players import TABLE_LEVELS, choose_table_action
from backend.engine.variants import TableRules
from backend.engine.view import SeatView

from .game import GameAction, GameEvent, GameRules, GameView


def computer_levels(rules: GameRules) -> tuple[str, ...]:
    """The levels the computer plays a game at: every level for two-hand 1001, no ``expert`` for V2–V7."""
    return TABLE_LEVELS if isinstance(rules, TableRules) else LEVELS


def level_problem(rules: GameRules, level: str) -> str | None:
    """Why the computer cannot play this game at ``level`` (None: it can)."""
    levels = computer_levels(rules)
    return None if level in levels else f"the computer plays this game at {', '.join(levels)}, not {level}"


def decide(level: str, view: GameView, events: Sequence[GameEvent], seed: int) -> GameAction:
    """Runs in a worker process: the computer's action for the seat of ``view``."""
    rng = random.Random(seed)
    if isinstance(view, SeatView):
        return choose(level, knowledge_from_view(view, events), rng)  # type: ignore[arg-type]  # two-hand events
    return choose_table_action(level, view, events, rng)  # type: ignore[arg-type]  # a V2–V7 game's events


class ProcessBotRunner:
    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def decide(self, level: str, view: GameView, events: Sequence[GameEvent]) -> GameAction:
        if self._pool is None:
            # "spawn": a forked copy of a running server (threads, sockets) is not safe to use.
            self._pool = ProcessPoolExecutor(self._workers, mp_context=multiprocessing.get_context("spawn"))
        seed = random.SystemRandom().getrandbits(64)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, decide, level, view, tuple(events), seed)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
