"""Running computer opponents off the event loop.

Bots decide in a separate process (a ``ProcessPoolExecutor``): a ``hard`` bot thinking for a
few hundred milliseconds holds a CPU, and in a worker process it cannot hold up the event
loop that serves every other room. A bot gets exactly what its seat may see — the engine
observer's ``SeatView`` and the seat's redacted events of the deal — never the true state (R7, V0.11).

The computer analysis of a finished deal (issue 26) rates its decisions in the same pool, one
decision per task (``rate``), so that a bot's move waits behind at most one rating per analysis
running (``ANALYSIS_CONCURRENT``, one by default).

Every worker process is started together with the pool (at its first use: a server, or a test, that
never asks the computer anything starts none; nothing waits for them but that first task) and warms
itself before its first task (``warm_worker``: the bots'
modules imported, two-hand 1001's search core loaded from numba's cache). A pool started lazily, one
process at a time as tasks came (``ProcessPoolExecutor``'s way with "spawn"), made the computer's card
that found every running process busy with a hint or a rating wait for a new process to import
everything, and the hint won the race (issue 41).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from backend.analysis import rate
from backend.analysis.model import Decision, Rating
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


def warm_worker() -> None:
    """Runs once in every worker process as it starts, before its first task: the search core compiled
    or loaded from numba's cache (the bots' and the analysis' modules came with this module's import)."""
    from backend.search import warm

    warm()


def _ready() -> None:
    """A task that does nothing: submitted once per worker so that the pool starts them all at once."""


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


class HintsBusy(RuntimeError):
    """Every process the hints may use is thinking about one already: ask again in a moment."""


class ProcessBotRunner:
    """One pool for the computer's moves, the hints and the analyses. It has ``hint_workers`` and
    ``analysis_workers`` processes more than ``workers``; at most ``hint_workers`` hints think at once
    (counted until their process is really done, even when the room stopped waiting at the deadline),
    and the analyses rate at most ``analysis_workers`` decisions at once (``ANALYSIS_CONCURRENT``, held
    by ``rooms.analysis.Analyses``): so however many hints and analyses are asked, ``workers``
    processes stay free for the computer seats, which never wait for either."""

    def __init__(self, workers: int = 1, hint_workers: int = 1, analysis_workers: int = 1) -> None:
        self._workers = workers
        self._hint_workers = hint_workers
        self._analysis_workers = analysis_workers
        self._hinting = 0
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a forked copy of a running server (threads, sockets) is not safe to use.
            context = multiprocessing.get_context("spawn")
            count = self._workers + self._hint_workers + self._analysis_workers
            self._pool = ProcessPoolExecutor(count, mp_context=context, initializer=warm_worker)
            # With "spawn" the pool starts a process only for a task that finds none idle: as many tasks
            # as processes, submitted at once, start them all now.
            for _ in range(count):
                self._pool.submit(_ready)
        return self._pool

    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> Action:
        seed = random.SystemRandom().getrandbits(64)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), decide, level, view, tuple(events), seed)

    async def hint(self, view: SeatView, events: Sequence[Event]) -> tuple[Action, str | None]:
        """A hint (``hint``), or ``HintsBusy`` at once if ``hint_workers`` hints think already."""
        if self._hinting >= self._hint_workers:
            raise HintsBusy("every hint worker is busy")
        seed = random.SystemRandom().getrandbits(64)
        loop = asyncio.get_running_loop()
        self._hinting += 1
        try:
            future = self._executor().submit(hint, view, tuple(events), seed)
        except BaseException:
            self._hinting -= 1
            raise
        future.add_done_callback(lambda _: self._hint_done(loop))
        return await asyncio.wrap_future(future)

    def _hint_done(self, loop: asyncio.AbstractEventLoop) -> None:
        """From the pool's thread, once the hint's process is done with it (or it never started)."""

        def release() -> None:
            self._hinting -= 1

        with contextlib.suppress(RuntimeError):  # the loop is closed: the server has stopped
            loop.call_soon_threadsafe(release)

    async def rate(self, decision: Decision, seed: int) -> Rating:
        """One decision of a finished deal rated in a worker process (``backend.analysis.rate``): the
        ``Rater`` of the analyses (``backend/rooms/analysis.py``)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), rate, decision, seed)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
