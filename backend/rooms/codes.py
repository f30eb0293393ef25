"""Why a room refuses a command. Defined here once; the API maps them to answers and the
client's list is generated from them (``backend.api.codegen``)."""

from __future__ import annotations

from enum import StrEnum


class RoomCode(StrEnum):
    ROOM_NOT_FOUND = "room_not_found"
    STALE_VERSION = "stale_version"  # the intent was made against an older version of the table
    NOT_SEATED = "not_seated"  # the sender has no seat at this table
    NO_MATCH = "no_match"  # the table is waiting for a second player
    REMATCH_INVALID = "rematch_invalid"  # a rematch step that does not fit the current offer
    ALREADY_SEATED = "already_seated"
    ROOM_FULL = "room_full"
    ROOM_CLOSED = "room_closed"
    ROOM_STARTED = "room_started"  # the match has started: leave by resigning
    SERVER_ERROR = "server_error"  # the change could not be stored; nothing was applied
