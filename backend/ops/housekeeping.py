"""What housekeeping looks for, as pure rules (the queries they need are ``RoomRepository``'s).

* An open table that nobody joined within ``OPEN_TABLE_TTL_S`` expires: its creator "leaves" it
  (``rooms.commands.Leave``, the same path as the creator's own button), so ``decide`` closes it.
* A finished (or closed) room with nobody connected and no rematch offer leaves memory; it is
  rebuilt from the database if anybody comes back. So does a turn-based table that waits for a
  person (ruling R6.3): its deadlines are stored, and the sweep for due deadlines
  (``RoomRepository.due``) brings it back when one passes — a table waiting for days holds nothing
  in any process.
* A room changed in the database by somebody else (``python -m backend.admin close``) has a
  stale copy in memory: it is rebuilt and its players are sent the new state.

Time is an input (``now``), so the tests move it instead of waiting. The rules read a room held in
memory through ``RoomCopy``, so that this module needs nothing of the rooms layer that calls it.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Protocol

from backend.db.store import Store


class RoomCopy(Protocol):
    """What the rules read of a room held in memory (``rooms.model.RoomState`` is one)."""

    @property
    def status(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def rematch(self) -> object | None: ...

    @property
    def resting(self) -> bool: ...


def expiry_cutoff(now: datetime, ttl_s: float) -> datetime:
    """Open tables created before this moment have expired."""
    return now - timedelta(seconds=ttl_s)


def evictable(state: RoomCopy, present: Collection[str]) -> bool:
    """Nothing can happen in this room without somebody connecting first, or without a stored
    deadline passing (a turn-based table, R6.3)."""
    if present:
        return False
    return state.resting or (state.status in ("finished", "closed") and state.rematch is None)


def expired_open_tables(store: Store, now: datetime, ttl_s: float) -> list[tuple[str, str]]:
    """(room id, creator id) of open tables older than the time to live that nobody joined."""
    return store.rooms.unjoined_open_tables(created_before=expiry_cutoff(now, ttl_s))


def changed_elsewhere(state: RoomCopy, stored: tuple[int, str] | None) -> bool:
    """The database has moved past this copy (an admin command, another writer)."""
    if stored is None:
        return False
    version, status = stored
    return version > state.version or status != state.status
