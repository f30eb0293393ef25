"""Running computer opponents off the event loop.

Bots decide in a separate process (a ``ProcessPoolExecutor``): a ``hard`` bot thinking for a
few hundred milliseconds holds a CPU, and in a worker process it cannot hold up the event
loop that serves every other room. A bot gets exactly what its seat may see — the engine
observer's ``SeatView`` and the seat's redacted events of the deal — never the true state (R7, V0.11).

The computer analysis of a finished deal (issue 26) rates its decisions in the bot pool too, one
decision per task (``rate``), at most ``ANALYSIS_CONCURRENT`` at once (one by default).

Three pools, one per kind of task: the computer's moves (``workers`` processes), the hints
(``hint_workers``) and the ratings (``analysis_workers``), so that no hint or rating can ever hold a
process a computer seat needs. They are started together at the first use of any (a server, or a test,
that never asks the computer anything starts none), each with all its processes at once.

A worker does not import the bots and load the search core from numba's cache itself: the processes
are forked from one fork server (``multiprocessing``'s "forkserver", a fresh interpreter, never a copy
of the running server) that did it once (``backend.rooms.bot_preload``), so a process is ready in
milliseconds of CPU instead of the seconds each spawned process spent importing numba and loading the
core (issue 41: with one shared pool of spawned processes under load, a hint took the only process
that had finished warming while the computer's card waited for another to load the core).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
from collections.abc import Callable, Sequence
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


# Imported once by the fork server that every pool process is forked from: the bots, the analysis and
# the search core ready before the fork (a preload that fails is skipped: a worker then loads it all itself).
PRELOAD = ["backend.rooms.bot_preload"]
# How much lower the hints' and the ratings' processes run than the computer's moves and the server
# (``os.nice``: 10 of 19 gives them about a tenth of the CPU the others get when both want it).
BACKGROUND_NICE = 10


def warm_worker() -> None:
    """Runs once in every worker process as it starts, before its first task: the search core compiled
    or loaded from numba's cache — a no-op in a process forked from the warmed fork server."""
    from backend.search import warm

    warm()


def background_worker() -> None:
    """``warm_worker`` for the processes of the hints and the ratings, which then run at a lower CPU
    priority (``BACKGROUND_NICE``): on a busy machine a hint thinking for its deadline yields the CPU to
    the event loop and to the computer's move it would otherwise slow down."""
    warm_worker()
    os.nice(BACKGROUND_NICE)


def _ready() -> None:
    """A task that does nothing: submitted once per worker so that a pool starts them all at once."""


def _pool(workers: int, initializer: Callable[[], None] = warm_worker) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes forked from the warmed fork server, all started now."""
    # "forkserver": a forked copy of a running server (threads, sockets) is not safe to use; the fork
    # server is a fresh interpreter that imports PRELOAD once before it forks any worker.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=initializer)
    # Like "spawn", "forkserver" starts a process only for a task that finds none idle: as many tasks as
    # processes, submitted at once, start them all now.
    for _ in range(workers):
        pool.submit(_ready)
    return pool


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
    """The pools for the computer's moves, the hints and the analyses: ``workers`` processes for the
    computer seats alone, ``hint_workers`` for the hints and ``analysis_workers`` for the ratings. At most
    ``hint_workers`` hints think at once (counted until their process is really done, even when the room
    stopped waiting at the deadline); the analyses rate at most ``analysis_workers`` decisions at once
    (``ANALYSIS_CONCURRENT``, held by ``rooms.analysis.Analyses``). However many hints and analyses are
    asked, the computer seats never wait for a process busy with either."""

    def __init__(self, workers: int = 1, hint_workers: int = 1, analysis_workers: int = 1) -> None:
        self._sizes = (workers, hint_workers, analysis_workers)
        self._hint_workers = hint_workers
        self._hinting = 0
        self._pools: tuple[ProcessPoolExecutor, ProcessPoolExecutor, ProcessPoolExecutor] | None = None

    def _started(self) -> tuple[ProcessPoolExecutor, ProcessPoolExecutor, ProcessPoolExecutor]:
        """The three pools (moves, hints, ratings), every process of each started at the first use of any."""
        if self._pools is None:
            moves, hints, ratings = self._sizes
            self._pools = (_pool(moves), _pool(hints, background_worker), _pool(ratings, background_worker))
        return self._pools

    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> Action:
        seed = random.SystemRandom().getrandbits(64)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._started()[0], decide, level, view, tuple(events), seed)

    async def hint(self, view: SeatView, events: Sequence[Event]) -> tuple[Action, str | None]:
        """A hint (``hint``), or ``HintsBusy`` at once if ``hint_workers`` hints think already."""
        if self._hinting >= self._hint_workers:
            raise HintsBusy("every hint worker is busy")
        seed = random.SystemRandom().getrandbits(64)
        loop = asyncio.get_running_loop()
        self._hinting += 1
        try:
            future = self._started()[1].submit(hint, view, tuple(events), seed)
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
        return await loop.run_in_executor(self._started()[2], rate, decision, seed)

    def shutdown(self) -> None:
        if self._pools is not None:
            for pool in self._pools:
                pool.shutdown(wait=False, cancel_futures=True)
            self._pools = None
