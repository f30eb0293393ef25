"""Running computer opponents off the event loop.

Bots decide in a separate process (a ``ProcessPoolExecutor``): a ``hard`` bot thinking for a
few hundred milliseconds holds a CPU, and in a worker process it cannot hold up the event
loop that serves every other room. A bot gets exactly what its seat may see — the engine
observer's ``SeatView`` and the seat's redacted events of the deal — never the true state (R7).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from backend.bots import choose, knowledge_from_view
from backend.engine import name
from backend.engine.events import Event
from backend.engine.view import SeatView


def decide(level: str, view: SeatView, events: Sequence[Event], seed: int) -> tuple[str, bool]:
    """Runs in a worker process: the bot's play as (card name, declare)."""
    play = choose(level, knowledge_from_view(view, events), random.Random(seed))
    return name(play.card), play.declare


class ProcessBotRunner:
    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> tuple[str, bool]:
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
