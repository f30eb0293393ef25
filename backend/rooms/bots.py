"""Running computer opponents off the event loop.

Bots decide in a separate process (a ``ProcessPoolExecutor``): a ``hard`` bot thinking for a
few hundred milliseconds holds a CPU, and in a worker process it cannot hold up the event
loop that serves every other room. A bot gets exactly what its seat may see — the engine
observer's ``SeatView`` and the seat's redacted events of the deal — never the true state (R7, V0.11).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from backend.bots import choose, choose_for_view, knowledge_from_view, levels_for
from backend.bots.reasons import reason_for
from backend.engine import Action, Event, MatchState, Pass, Rules, SeatView, legal_actions

from .hints import HINT_LEVEL


def computer_levels(rules: Rules) -> tuple[str, ...]:
    """The levels the computer plays a game at (``bots.levels_for``)."""
    return levels_for(rules)


def level_problem(rules: Rules, level: str) -> str | None:
    """Why the computer cannot play this game at ``level`` (None: it can)."""
    levels = computer_levels(rules)
    return None if level in levels else f"the computer plays this game at {', '.join(levels)}, not {level}"


def fallback_action(match: MatchState, seat: int) -> Action:
    """A move the rules allow ``seat`` now, for a computer whose own choice failed: a pass in an
    auction (never a contract nobody chose), else the first legal action."""
    moves = legal_actions(match, seat)
    return Pass() if Pass() in moves else moves[0]


def decide(level: str, view: SeatView, events: Sequence[Event], seed: int) -> Action:
    """Runs in a worker process: the computer's action for the seat of ``view``."""
    return choose_for_view(level, view, events, random.Random(seed))


def hint(view: SeatView, events: Sequence[Event], seed: int) -> tuple[Action, str | None]:
    """Runs in a worker process: the expert's action for the seat of ``view`` and why (a reason code
    of ``bots.reasons``, or None), both from that seat's knowledge only (R7, V0.11)."""
    knowledge = knowledge_from_view(view, events)
    action = choose(HINT_LEVEL, knowledge, random.Random(seed))
    reason = reason_for(knowledge, action)
    return action, None if reason is None else reason.value


class ProcessBotRunner:
    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a forked copy of a running server (threads, sockets) is not safe to use.
            self._pool = ProcessPoolExecutor(self._workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> Action:
        seed = random.SystemRandom().getrandbits(64)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._started(), decide, level, view, tuple(events), seed)

    async def hint(self, view: SeatView, events: Sequence[Event]) -> tuple[Action, str | None]:
        """A hint (``hint``) in the same pool as the computer's moves."""
        seed = random.SystemRandom().getrandbits(64)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._started(), hint, view, tuple(events), seed)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
