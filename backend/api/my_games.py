"""What the lobby shows a player, built once for every stream of the player in this process: "My
games" (``GET /api/me/games`` and the stream's ``games``) and the public tables (``tables``).

"My games" is read from the database, so that no table needs to be in memory for it (a turn-based
table that waits holds nothing anywhere, R6.3): the rows with their stored turn and deadline, and
the newest action of each match in one query. A live table that this process holds in memory
answers from its actor instead (a live table's turn is not stored; in a cluster a live table held
by another process is listed without its turn).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

from backend.db.models import Action
from backend.db.rooms import RoomRecord
from backend.db.store import Store
from backend.rooms.model import RoomState
from backend.rooms.observer import room_out
from backend.rooms.service import Rooms
from backend.rooms.sql_store import record_state

from .lobby_messages import LastMove, LobbyTables, MyGame, MyGames

LAST_MOVE_KINDS = ("play", "bid", "pass", "discard", "resign")


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def last_move(row: Action | None) -> LastMove | None:
    if row is None or row.kind not in LAST_MOVE_KINDS:
        return None
    return LastMove(seat=row.seat, kind=row.kind, card=row.card, amount=row.amount, at=_aware(row.created_at))  # type: ignore[arg-type]


async def _state(rooms: Rooms, record: RoomRecord) -> RoomState:
    """The room as its actor here has it (with the turn of a live match), else as stored."""
    actor = rooms.registry.get(record.room.id)
    if actor is not None and not actor.stale and rooms.registry.holds(record.room.id):
        return actor.state
    return replace(record_state(record), present=await rooms.bus.present(record.room.id))


def _order(game: MyGame) -> tuple[int, float, float]:
    """The player's turn first (the soonest deadline first, a table without one after those), then
    the others' turn, then the tables waiting for players; the most recent move first within each."""
    room = game.room
    group = 0 if game.my_turn else 1 if room.status == "playing" else 2
    deadline = room.turn_deadline.timestamp() if game.my_turn and room.turn_deadline is not None else float("inf")
    moved = -(game.last_move.at.timestamp() if game.last_move is not None else room.created_at.timestamp())
    return group, deadline, moved


async def my_games(store: Store, rooms: Rooms, player_id: str) -> MyGames:
    """Every table the player sits at that is open or being played, in the lobby's order."""
    records = await asyncio.to_thread(store.rooms.of_player, player_id)
    match_ids = [r.room.match_id for r in records if r.room.match_id is not None and r.room.status == "playing"]
    moves = await asyncio.to_thread(store.rooms.last_moves, match_ids)
    games: list[MyGame] = []
    for record in records:
        state = await _state(rooms, record)
        seat = state.seat_of(player_id)
        if seat is None:
            continue
        room = room_out(state, player_id)
        my_turn = state.status == "playing" and room.turn == seat
        move = moves.get(state.match_id) if state.match_id is not None and state.status == "playing" else None
        games.append(MyGame(room=room, seat=seat, my_turn=my_turn, last_move=last_move(move)))
    games.sort(key=_order)
    return MyGames(games=games, waiting=sum(1 for game in games if game.my_turn))


async def lobby_tables(store: Store, rooms: Rooms) -> LobbyTables:
    """The public tables to join and to watch (``GET /api/rooms``, ``GET /api/rooms/watchable``)."""
    open_records = await asyncio.to_thread(store.rooms.open_public)
    playing = await asyncio.to_thread(store.rooms.watchable_public)
    return LobbyTables(
        open=[room_out(await _summary_state(rooms, r)) for r in open_records],
        watchable=[room_out(await _summary_state(rooms, r)) for r in playing],
    )


async def _summary_state(rooms: Rooms, record: RoomRecord) -> RoomState:
    return replace(record_state(record), present=await rooms.bus.present(record.room.id))
