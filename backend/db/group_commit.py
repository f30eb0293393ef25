"""Group commit: one writer thread stores the accepted actions of many rooms together.

Under load many rooms have a move waiting to be stored at the same moment. Writing them one
transaction each costs a transaction and a thread hand-off per move; here a single thread
takes every write that is waiting and stores them in one transaction. Each caller still
waits until its own action is committed before anyone is told of it (DESIGN promise 3).

A batch of plain moves (no deal finished, no match ended: nearly every write) goes in as two
statements for the whole batch, an ``executemany`` of the version compare-and-swap and one of
the log rows: on PostgreSQL a few round trips per batch instead of two per move (psycopg pipelines
an ``executemany``; SQLAlchemy folds the inserts into one ``INSERT … VALUES``), and on SQLite far
fewer hand-offs of the interpreter lock between this thread and the event loop, each of which
can cost the loop's switch interval when the loop is busy. If any room of the batch is no longer
at its expected version the batch is rolled back and the store writes each move on its own, so
the conflicting one is refused and the others are stored, exactly as before.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, bindparam, insert, update

from .models import Action, Room, utcnow
from .store import Store
from .writes import ActionWrite

MAX_BATCH = 256

_Request = tuple[ActionWrite, asyncio.Future[None], asyncio.AbstractEventLoop]

_ADVANCE = (
    update(Room)
    .where(Room.id == bindparam("room"), Room.version == bindparam("expected"))
    .values(version=bindparam("next"), updated_at=bindparam("now"))
)
_LOG = insert(Action)


class _Conflict(Exception):
    """A room of a plain batch was not at its expected version: write the batch one by one."""


class GroupCommitter:
    def __init__(self, store: Store) -> None:
        self._store = store
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
                outcomes = self._commit(writes)
            except Exception as error:  # a batch of one that failed: its caller gets the error
                outcomes = [error]
            # one wake-up of each event loop per batch (a write to its self-pipe), not one per move
            answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Exception | None]]] = {}
            for (_, done, loop), outcome in zip(batch, outcomes, strict=True):
                answers.setdefault(loop, []).append((done, outcome))
            for loop, settled in answers.items():
                loop.call_soon_threadsafe(_settle_all, settled)

    def _commit(self, writes: list[ActionWrite]) -> list[Exception | None]:
        if len(writes) > 1 and all(not write.deals and write.end is None for write in writes):
            try:
                self._commit_moves(writes)
                return [None] * len(writes)
            except Exception:  # rolled back (a stale room, or anything else): the store writes each
                pass  # move on its own, refusing only the one that fails, exactly as before
        return self._store.commit_actions(writes)

    def _commit_moves(self, writes: list[ActionWrite]) -> None:
        """Plain moves of different rooms (one command per room is in flight at a time), in one
        transaction of two statements."""
        now = utcnow()
        # the store's own writer lock (SQLite: one writer per process); the repositories split of
        # db/store.py should expose it rather than this reaching in
        lock = self._store._write_lock
        with lock, self._store.engine.begin() as connection:
            advanced = connection.execute(
                _ADVANCE,
                [
                    {"room": w.room_id, "expected": w.expected_version, "next": w.expected_version + 1, "now": now}
                    for w in writes
                ],
            )
            if cast(CursorResult[Any], advanced).rowcount != len(writes):
                raise _Conflict
            connection.execute(_LOG, [_log_row(write, now) for write in writes])


def _log_row(write: ActionWrite, now: datetime) -> dict[str, Any]:
    action = write.action
    return {
        "match_id": write.match_id,
        "seq": write.seq,
        "seat": action.seat,
        "kind": action.kind,
        "card": action.card,
        "declare": action.declare,
        "reason": action.reason,
        "amount": action.amount,
        "cards": None if action.cards is None else list(action.cards),
        "room_version": write.expected_version + 1,
        "client_msg_id": write.client_msg_id,
        "created_at": now,
    }


def _settle_all(settled: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    for done, outcome in settled:
        if done.cancelled():
            continue
        if outcome is None:
            done.set_result(None)
        else:
            done.set_exception(outcome)
