"""Why a room refuses a command. Defined here once; the API maps them to answers and the
client's list is generated from them (``backend.api.codegen``)."""

from __future__ import annotations

from enum import IntEnum, StrEnum


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
    NOT_CREATOR = "not_creator"  # only the table's creator may do this (e.g. seat the computer)
    STAKED_TABLE = "staked_table"  # a table played for a stake takes no computer player
    LEVEL_UNAVAILABLE = "level_unavailable"  # no computer at that level for this game
    SERVER_ERROR = "server_error"  # the change could not be stored; nothing was applied
    SPECTATOR_CANNOT_ACT = "spectator_cannot_act"  # a spectator's socket sent an intent
    TOO_MANY_TABLES = "too_many_tables"  # the player has as many open tables as one may (MAX_OPEN_TABLES)
    UNKNOWN_REACTION = "unknown_reaction"  # a reaction code not in the fixed set (backend/rooms/reactions.py)
    TOO_MANY_REACTIONS = "too_many_reactions"  # the seat reacted REACTION_LIMIT times within REACTION_WINDOW_S
    HINTS_OFF = "hints_off"  # the table offers no hints now (backend/rooms/hints.py), or its creator turned them off
    HINTS_UNAVAILABLE = "hints_unavailable"  # a new table asked for hints where they may not be offered
    HINT_PENDING = "hint_pending"  # this seat's previous hint is still being worked out: one at a time
    HINT_FAILED = "hint_failed"  # the hint was not ready within HINT_DEADLINE_S: nothing changed, ask again
    UNAVAILABLE = "unavailable"  # for a moment no server can take the table (a takeover, a database blip): resend


class CloseCode(IntEnum):
    """Why the server closes a socket (the 4xxx range is ours, RFC 6455 §7.4.2)."""

    NORMAL = 1000
    POLICY = 1008  # origin not allowed, flooding, or a client too slow to read
    TOO_BIG = 1009  # a frame over MAX_FRAME_BYTES
    SERVICE_RESTART = 1012  # this server is restarting (SIGTERM): reconnect now, another server takes the table
    STATE_FAILED = 1011  # the server could not build this socket's state after a change: reconnect for it
    TRY_AGAIN = 1013  # no server could take the table just now (a takeover): reconnect in a moment
    BAD_TOKEN = 4401
    NOT_SEATED = 4403
    UNKNOWN_ROOM = 4404
    REPLACED = 4409  # the same player opened a newer socket to this table
    TOO_MANY_SOCKETS = 4428  # this address holds as many sockets on this server as one may (MAX_SOCKETS_PER_ADDRESS)
    OUTDATED_CLIENT = 4426  # the page speaks another protocol version than the server: reload it
    TABLE_CLOSED = 4410
    WATCH_REFUSED = 4413  # watching is off at this table, or a private table without its watch code
    WATCH_FULL = 4429  # the table or this server has all the spectators it takes
