"""What every repository of ``backend/db`` shares: ids and token hashes, exact decimal text, and the
one compare-and-swap that advances a room's version (DESIGN.md promise 5)."""

from __future__ import annotations

import hashlib
import secrets
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import Connection, CursorResult, Result, bindparam, update
from sqlalchemy.orm import Session

from .models import Room, utcnow
from .writes import VersionConflict

DELETED_NAME = "Deleted player"  # what finished matches show for a player who deleted the account

# Built once: constructing statements costs more than running them on the per-move hot path.
ADVANCE_VERSION = (
    update(Room)
    .where(Room.id == bindparam("room"), Room.version == bindparam("expected"))
    .values(version=bindparam("next"), updated_at=bindparam("now"))
)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_urlsafe(12)}"


def decimal_text(value: Decimal) -> str:
    """Exact decimal text; adding zero turns a negative zero ("-0.00") into "0.00"."""
    return str(value + 0)


def bot_player_id(level: str, number: int = 1) -> str:
    """The id of the player row that stands for the ``number``-th computer player at ``level`` (a
    table of four may seat three of one level, each a player of its own)."""
    return f"p_bot_{level}" if number == 1 else f"p_bot_{level}_{number}"


def changed(result: Result[Any]) -> int:
    """Rows an UPDATE or DELETE changed (``execute`` is typed as returning any ``Result``)."""
    return cast(CursorResult[Any], result).rowcount


def advance(session: Session | Connection, room_id: str, expected_version: int, **values: Any) -> None:
    """Move the room from ``expected_version`` to the next, with ``values``; ``VersionConflict`` if
    another writer moved it first (``UPDATE … WHERE version = :expected``)."""
    if values:
        statement = (
            update(Room)
            .where(Room.id == room_id, Room.version == expected_version)
            .values(version=expected_version + 1, updated_at=utcnow(), **values)
        )
        advanced = session.execute(statement)
    else:  # the common case, with a statement built once
        advanced = session.execute(
            ADVANCE_VERSION,
            {"room": room_id, "expected": expected_version, "next": expected_version + 1, "now": utcnow()},
        )
    if changed(advanced) != 1:
        raise VersionConflict(f"room {room_id} is no longer at version {expected_version}")
