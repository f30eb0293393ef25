"""Codes of the transport: refusals that never reach a room, and WebSocket close codes.

Together with ``IllegalCode`` (the rules), ``RoomCode`` (the tables) and ``DeviceLinkCode`` (device
sign-in links) these are every code a
client can receive; ``backend.api.codegen`` writes them into the client's generated module.
"""

from __future__ import annotations

from enum import StrEnum

from backend.db.codes import DeviceLinkCode
from backend.engine.errors import IllegalCode
from backend.rooms.codes import CloseCode, RoomCode

# The socket protocol's version. A client names it when it opens a socket (``?protocol=2``); a socket
# that names another (or none: a page from before protocol 2) is closed with ``OUTDATED_CLIENT``, and
# the client reloads the page for the server's current one (docs/protocol.md, "Versions").
PROTOCOL = 2


class TransportCode(StrEnum):
    BAD_MESSAGE = "bad_message"  # not JSON, an unknown type, a field of the wrong shape
    RATE_LIMITED = "rate_limited"  # too many messages on one socket
    UNAUTHORIZED = "unauthorized"  # a missing or wrong player token or socket ticket
    MATCH_NOT_FOUND = "match_not_found"
    PLAYER_NOT_FOUND = "player_not_found"  # head to head: no person has this id (a computer neither)
    NOT_IN_GROUP = "not_in_group"  # head to head: only a member of the group may read its figures
    MATCH_IN_PROGRESS = "match_in_progress"  # a replay is shown only once the match is over (R7)
    DATABASE_UNAVAILABLE = "database_unavailable"
    REDIS_UNAVAILABLE = "redis_unavailable"


RefusalCode = IllegalCode | RoomCode | TransportCode | DeviceLinkCode
REFUSAL_CODES: tuple[str, ...] = tuple(
    code.value for enum in (IllegalCode, RoomCode, TransportCode, DeviceLinkCode) for code in enum
)

__all__ = ["PROTOCOL", "REFUSAL_CODES", "CloseCode", "DeviceLinkCode", "RefusalCode", "TransportCode"]
