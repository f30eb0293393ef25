"""The table's rules that are asked before (or instead of) a command to its room: who sees a
table, who may seat the computer, share its watch link or watch it, and how visible a new table is.

Pure, like ``decide``: a room's state in, a refusal (or an answer) out. The lobby (``lobby.py``),
the spectators' door (``watching.py``) and the REST routes only carry out what these say.
"""

from __future__ import annotations

from typing import Literal

from .bots import level_problem
from .codes import CloseCode, RoomCode
from .effects import Refusal
from .model import RoomState
from .watch import watch_code_fits

Visibility = Literal["public", "private"]


def not_found(room_id: str) -> Refusal:
    return Refusal(RoomCode.ROOM_NOT_FOUND, f"no table {room_id!r}")


def visible(state: RoomState, player_id: str | None) -> bool:
    """May ``player_id`` (None: nobody signed in) see the table? Its players always; anyone a
    public table that is not closed. Others are answered as if it did not exist."""
    seated = player_id is not None and state.seat_of(player_id) is not None
    return seated or (state.visibility == "public" and state.status != "closed")


def new_table_visibility(requested: Visibility, computers: int, seats: int) -> Visibility:
    """Nobody else can join a table whose other seats are all the computer's: it is private."""
    return "private" if computers == seats - 1 else requested


def computers_refusal(state: RoomState | None, room_id: str, player_id: str, level: str) -> Refusal | None:
    """Why ``player_id`` may not fill the table's empty seats with computers at ``level``, or None:
    only its creator, only while it waits for players, only at a table for nothing, and only at a
    level the computer plays this game at."""
    if state is None or state.status == "closed":
        return not_found(room_id)
    if state.player_at(0) != player_id:
        return Refusal(RoomCode.NOT_CREATOR, "only the table's creator seats the computer")
    if state.status != "open":
        return Refusal(RoomCode.ROOM_STARTED, "the match has started")
    if state.options.stake_per_point:
        return Refusal(RoomCode.STAKED_TABLE, "a table played for a stake takes no computer player")
    problem = level_problem(state.options.rules, level)
    return None if problem is None else Refusal(RoomCode.LEVEL_UNAVAILABLE, problem)


def free_seats(state: RoomState) -> list[int]:
    return [seat for seat, holder in enumerate(state.seats) if holder is None]


def watch_link_refusal(state: RoomState | None, room_id: str, player_id: str) -> Refusal | None:
    """A table's watch code is for its players only."""
    if state is None:
        return not_found(room_id)
    if state.seat_of(player_id) is None:
        return Refusal(RoomCode.NOT_SEATED, "only the table's players can share a watch link")
    return None


def watch_refusal(state: RoomState | None, code: str | None) -> tuple[int, str] | None:
    """Why this room may not be watched with ``code`` (a close code and its reason), or None."""
    if state is None or state.status == "closed":
        return CloseCode.UNKNOWN_ROOM, "unknown room"
    if not state.options.spectators:
        return CloseCode.WATCH_REFUSED, "the players do not allow watching this table"
    if state.visibility == "private" and not watch_code_fits(state.invite_code, code):
        return CloseCode.WATCH_REFUSED, "a private table needs its watch link"
    return None
