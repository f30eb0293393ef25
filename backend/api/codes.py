"""Codes of the transport: refusals that never reach a room, and WebSocket close codes.

Together with ``IllegalCode`` (the rules), ``RoomCode`` (the tables) and ``DeviceLinkCode`` (device
sign-in links), ``FriendCode`` ("Play again") and ``AnalysisCode`` (the analysis of a deal) these are every code a
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
    PLAYER_NOT_FOUND = "player_not_found"  # no person has this id (a computer neither): ratings, head to head
    NOT_IN_GROUP = "not_in_group"  # head to head: only a member of the group may read its figures
    MATCH_IN_PROGRESS = "match_in_progress"  # a replay is shown only once the match is over (R7)
    DATABASE_UNAVAILABLE = "database_unavailable"
    REDIS_UNAVAILABLE = "redis_unavailable"


class FriendCode(StrEnum):
    """Refusals of "Play again" (``/api/me/opponents``, ``/api/me/invitations``)."""

    OPPONENT_UNKNOWN = "opponent_unknown"  # not a person among the player's recent opponents
    INVITATION_UNKNOWN = "invitation_unknown"  # no such invitation waits for the player


class PushCode(StrEnum):
    """Refusals of a Web Push subscription (``/api/me/push-subscriptions``)."""

    PUSH_SUBSCRIPTION_INVALID = "push_subscription_invalid"  # not a known push service's https URL, bad keys, too big
    TOO_MANY_SUBSCRIPTIONS = "too_many_subscriptions"  # the player has PUSH_MAX_SUBSCRIPTIONS devices subscribed
    PUSH_UNAVAILABLE = "push_unavailable"  # this server sends no notifications (PUSH=0)


class AnalysisCode(StrEnum):
    """Refusals of the computer analysis of a finished deal (``/api/matches/{id}/deals/{n}/analysis``)."""

    DEAL_NOT_FOUND = "deal_not_found"  # the match has no deal of this number
    DEAL_UNFINISHED = "deal_unfinished"  # the deal a resignation ended: never analysed
    ANALYSIS_LIMIT = "analysis_limit"  # the asker has one in flight, or started the hour's allowance
    ANALYSIS_QUEUE_FULL = "analysis_queue_full"  # the process has as many queued as it takes (Retry-After)


class LobbyEvent(StrEnum):
    """The event names of the lobby's stream, ``GET /api/me/events`` (Server-Sent Events)."""

    READY = "ready"  # the stream is listened to: invitations sent from now on arrive
    INVITATION = "invitation"  # a recent opponent invites the player to a new private table
    INVITATION_GONE = "invitation_gone"  # it lapsed: the table started or closed, or it was declined
    MY_GAMES = "games"  # every table the player sits at ("My games"), whenever one of them changes
    PUBLIC_TABLES = "tables"  # the public tables to join and to watch, whenever they change


class InvitationEnd(StrEnum):
    """Why an invitation lapsed (``invitation_gone``)."""

    ACCEPTED = "accepted"  # the invitee took a seat at the table (on this or another device)
    STARTED = "started"  # the table filled up and its match began
    CLOSED = "closed"  # its creator left it, or it expired unjoined
    DECLINED = "declined"  # the invitee said "Not now" (on this or another device)


RefusalCode = IllegalCode | RoomCode | TransportCode | DeviceLinkCode | FriendCode | AnalysisCode | PushCode
REFUSAL_CODES: tuple[str, ...] = tuple(
    code.value
    for enum in (IllegalCode, RoomCode, TransportCode, DeviceLinkCode, FriendCode, AnalysisCode, PushCode)
    for code in enum
)

__all__ = [
    "PROTOCOL",
    "REFUSAL_CODES",
    "AnalysisCode",
    "CloseCode",
    "DeviceLinkCode",
    "FriendCode",
    "InvitationEnd",
    "LobbyEvent",
    "PushCode",
    "RefusalCode",
    "TransportCode",
]
