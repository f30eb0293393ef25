"""Codes of the transport: refusals that never reach a room, and WebSocket close codes.

Together with ``IllegalCode`` (the rules) and ``RoomCode`` (the tables) these are every code a
client can receive; ``backend.api.codegen`` writes them into the client's generated module.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from backend.engine.errors import IllegalCode
from backend.rooms.codes import RoomCode


class TransportCode(StrEnum):
    BAD_MESSAGE = "bad_message"  # not JSON, an unknown type, a field of the wrong shape
    RATE_LIMITED = "rate_limited"  # too many messages on one socket
    UNAUTHORIZED = "unauthorized"  # a missing or wrong player token or socket ticket
    MATCH_NOT_FOUND = "match_not_found"
    DATABASE_UNAVAILABLE = "database_unavailable"


class CloseCode(IntEnum):
    """Why the server closes a socket (the 4xxx range is ours, RFC 6455 §7.4.2)."""

    NORMAL = 1000
    POLICY = 1008  # origin not allowed, flooding, or a client too slow to read
    TOO_BIG = 1009  # a frame over MAX_FRAME_BYTES
    BAD_TOKEN = 4401
    NOT_SEATED = 4403
    UNKNOWN_ROOM = 4404
    REPLACED = 4409  # the same player opened a newer socket to this table
    TABLE_CLOSED = 4410


RefusalCode = IllegalCode | RoomCode | TransportCode
REFUSAL_CODES: tuple[str, ...] = tuple(code.value for enum in (IllegalCode, RoomCode, TransportCode) for code in enum)
