"""Group commit: one writer thread stores the accepted actions of many rooms together.

Under load many rooms have a move waiting to be stored at the same moment. Writing them one
transaction each costs a transaction and a thread hand-off per move; here a single thread
takes every write that is waiting and stores them in one transaction. Each caller still
waits until its own action is committed before anyone is told of it (DESIGN promise 3).
"""

from __future__ import annotations

import asyncio
import queue
import threading

from .action_log import ActionLog
from .writes import ActionWrite

MAX_BATCH = 256

_Request = tuple[ActionWrite, asyncio.Future[None], asyncio.AbstractEventLoop]


class GroupCommitter:
    def __init__(self, log: ActionLog) -> None:
        self._log = log
        self._queue: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="group-commit", daemon=True)
        self._thread.start()

    async def commit(self, write: ActionWrite) -> None:
        """Return once ``write`` is committed; raise what refused it (e.g. ``VersionConflict``)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((write, done, loop))
        await done

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    request = self._queue.get_nowait()
                except queue.Empty:
                    break
                if request is None:
                    self._queue.put(None)  # finish this batch, then stop
                    break
                batch.append(request)
            writes = [write for write, _, _ in batch]
            try:
                outcomes = self._log.commit(writes)
            except Exception as error:  # a batch of one that failed: its caller gets the error
                outcomes = [error]
            # one wake-up of each event loop per batch (a write to its self-pipe), not one per move
            answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Exception | None]]] = {}
            for (_, done, loop), outcome in zip(batch, outcomes, strict=True):
                answers.setdefault(loop, []).append((done, outcome))
            for loop, settled in answers.items():
                loop.call_soon_threadsafe(_settle_all, settled)


def _settle_all(settled: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    for done, outcome in settled:
        if done.cancelled():
            continue
        if outcome is None:
            done.set_result(None)
        else:
            done.set_exception(outcome)
