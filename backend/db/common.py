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
# The same, fenced: only the owner holding the room's current lease token may advance it.
ADVANCE_FENCED = (
    update(Room)
    .where(Room.id == bindparam("room"), Room.version == bindparam("expected"), Room.lease_token == bindparam("lease"))
    .values(version=bindparam("next"), updated_at=bindparam("now"))
)


# The fence alone, for a write that does not move the version (an absence clock): the room row is
# touched only if this process still holds the lease it claimed.
HOLD_FENCED = (
    update(Room)
    .where(Room.id == bindparam("room"), Room.lease_token == bindparam("lease"))
    .values(lease_token=bindparam("lease"))
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


def advance(
    session: Session | Connection, room_id: str, expected_version: int, lease: int | None = None, **values: Any
) -> None:
    """Move the room from ``expected_version`` to the next, with ``values``; ``VersionConflict`` if
    another writer moved it first (``UPDATE … WHERE version = :expected``) or, with ``lease``, if
    another process has taken the room over since this one claimed ``lease`` (``AND lease_token =
    :lease``, in the same statement: a fence that no timing can slip past)."""
    if values:
        fence = [] if lease is None else [Room.lease_token == lease]
        statement = (
            update(Room)
            .where(Room.id == room_id, Room.version == expected_version, *fence)
            .values(version=expected_version + 1, updated_at=utcnow(), **values)
        )
        advanced = session.execute(statement)
    else:  # the common case, with a statement built once
        parameters = {"room": room_id, "expected": expected_version, "next": expected_version + 1, "now": utcnow()}
        if lease is None:
            advanced = session.execute(ADVANCE_VERSION, parameters)
        else:
            advanced = session.execute(ADVANCE_FENCED, {**parameters, "lease": lease})
    if changed(advanced) != 1:
        raise VersionConflict(f"room {room_id} is no longer at version {expected_version} under lease {lease}")


def hold(session: Session | Connection, room_id: str, lease: int) -> None:
    """``VersionConflict`` unless this process still holds the room under ``lease``; in the same
    transaction as the write it fences, the row lock keeps a takeover from slipping in between."""
    if changed(session.execute(HOLD_FENCED, {"room": room_id, "lease": lease})) != 1:
        raise VersionConflict(f"room {room_id} is no longer held under lease {lease}")
