"""What housekeeping looks for, as pure rules plus two small queries.

* An open table that nobody joined within ``OPEN_TABLE_TTL_S`` expires: its creator "leaves" it
  (``rooms.commands.Leave``, the same path as the creator's own button), so ``decide`` closes it.
* A finished (or closed) room with nobody connected and no rematch offer leaves memory; it is
  rebuilt from the database if anybody comes back.
* A room changed in the database by somebody else (``python -m backend.admin close``) has a
  stale copy in memory: it is rebuilt and its players are sent the new state.

Time is an input (``now``), so the tests move it instead of waiting.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from sqlalchemy import exists, select
from sqlalchemy.orm import aliased

from backend.db.models import Room, RoomSeat
from backend.db.store import Store
from backend.rooms.model import RoomState


def expiry_cutoff(now: datetime, ttl_s: float) -> datetime:
    """Open tables created before this moment have expired."""
    return now - timedelta(seconds=ttl_s)


def evictable(state: RoomState, present: Collection[str]) -> bool:
    """Nothing can happen in this room without somebody connecting first."""
    return state.status in ("finished", "closed") and state.rematch is None and not present


def expired_open_tables(store: Store, now: datetime, ttl_s: float) -> list[tuple[str, str]]:
    """(room id, creator id) of open tables older than the time to live that nobody joined
    (only the creator's seat 0 is taken)."""
    joiner = aliased(RoomSeat)
    nobody_joined = ~exists().where(joiner.room_id == Room.id, joiner.seat != 0)
    query = (
        select(Room.id, RoomSeat.player_id)
        .join(RoomSeat, (RoomSeat.room_id == Room.id) & (RoomSeat.seat == 0))
        .where(Room.status == "open", nobody_joined, Room.created_at < expiry_cutoff(now, ttl_s))
    )
    with store.engine.connect() as connection:
        return [(str(room_id), str(creator)) for room_id, creator in connection.execute(query).all()]


def changed_elsewhere(state: RoomState, stored: tuple[int, str] | None) -> bool:
    """The database has moved past this copy (an admin command, another writer)."""
    if stored is None:
        return False
    version, status = stored
    return version > state.version or status != state.status


def stored_versions(store: Store, room_ids: Collection[str]) -> dict[str, tuple[int, str]]:
    """(version, status) of each room as the database has it."""
    if not room_ids:
        return {}
    query = select(Room.id, Room.version, Room.status).where(Room.id.in_(list(room_ids)))
    with store.engine.connect() as connection:
        return {str(room_id): (int(version), str(status)) for room_id, version, status in connection.execute(query)}
