"""REST routes: health, players, the lobby, match history and the stakes ledger."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from backend.db.models import Match, Player, Settlement
from backend.db.store import decimal_text
from backend.engine import Rules
from backend.rooms.options import TableOptions
from backend.rooms.room import LiveRoom
from backend.rooms.service import RoomError

from .deps import CurrentPlayer, RoomsDep, StoreDep, api_error
from .schemas import Page, PlayerCreate, PlayerCreated, PlayerOut, RoomCreate

router = APIRouter(prefix="/api")


@router.get("/health", tags=["health"])
async def health(store: StoreDep) -> dict[str, str]:
    try:
        await asyncio.to_thread(store.ping)
    except Exception as error:
        raise api_error(503, "database_unavailable", str(error)) from error
    return {"status": "ok", "database": "ok"}


# ------------------------------------------------------------------ players


@router.post("/players", status_code=201, response_model=PlayerCreated, tags=["players"])
async def create_player(body: PlayerCreate, store: StoreDep) -> dict[str, str]:
    player, token = await asyncio.to_thread(store.create_player, body.name)
    return {"id": player.id, "name": player.name, "token": token}


@router.get("/me", response_model=PlayerOut, tags=["players"])
async def me(player: CurrentPlayer) -> dict[str, str]:
    return {"id": player.id, "name": player.name}


# ------------------------------------------------------------------ rooms


def _room_error(error: RoomError) -> Exception:
    return api_error(error.status, error.code, error.message)


async def _visible_room(rooms: RoomsDep, room_id: str, player: Player | None) -> LiveRoom:
    room = await rooms.room(room_id)
    seated = room is not None and player is not None and room.seat_of(player.id) is not None
    if room is None or (room.visibility == "private" and not seated) or (room.status == "closed" and not seated):
        raise api_error(404, "room_not_found", f"no table {room_id!r}")
    return room


@router.post("/rooms", status_code=201, tags=["rooms"])
async def create_room(body: RoomCreate, player: CurrentPlayer, rooms: RoomsDep) -> dict[str, Any]:
    rules = Rules(
        declaration_scoring=body.declaration_scoring,
        show_stock_bottom=body.show_stock_bottom,
        target=body.target,
        open_scores=body.open_scores,
        deck_size=body.deck_size,
    )
    options = TableOptions(
        rules=rules,
        stake_per_point=body.stake_per_point.normalize(),
        currency=body.currency,
        reconnect_grace_s=body.reconnect_grace_s,
        bot_level=body.bot_level if body.opponent == "computer" else None,
    )
    visibility = "private" if options.bot_level else body.visibility  # nobody else can join a computer game
    room = await rooms.create_room(player.id, options, visibility)
    return room.summary(for_player=player.id)


@router.get("/rooms", tags=["rooms"])
async def open_rooms(store: StoreDep, rooms: RoomsDep) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(store.open_public_rooms)
    found = [await rooms.room(row.id) for row in rows]
    return [room.summary() for room in found if room is not None and room.status == "open"]


@router.get("/rooms/mine", tags=["rooms"])
async def my_rooms(player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(store.rooms_of_player, player.id)
    found = [await rooms.room(row.id) for row in rows]
    return [room.summary(for_player=player.id) for room in found if room is not None]


@router.get("/rooms/{room_id}", tags=["rooms"])
async def get_room(room_id: str, player: CurrentPlayer, rooms: RoomsDep) -> dict[str, Any]:
    room = await _visible_room(rooms, room_id, player)
    return room.summary(for_player=player.id)


async def _join(rooms: RoomsDep, room: LiveRoom, player: Player) -> dict[str, Any]:
    try:
        await rooms.join(room, player.id)
    except RoomError as error:
        raise _room_error(error) from error
    return room.summary(for_player=player.id)


@router.post("/rooms/{room_id}/join", tags=["rooms"])
async def join_room(room_id: str, player: CurrentPlayer, rooms: RoomsDep) -> dict[str, Any]:
    return await _join(rooms, await _visible_room(rooms, room_id, player), player)


async def _room_by_invite(store: StoreDep, rooms: RoomsDep, code: str) -> LiveRoom:
    row = await asyncio.to_thread(store.room_by_invite, code) if len(code) <= 40 else None
    room = None if row is None else await rooms.room(row.id)
    if room is None or room.status == "closed":
        raise api_error(404, "room_not_found", "no table has this invite code")
    return room


@router.get("/invites/{code}", tags=["rooms"])
async def get_invite(code: str, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> dict[str, Any]:
    room = await _room_by_invite(store, rooms, code)
    return room.summary(for_player=player.id)


@router.post("/invites/{code}/join", tags=["rooms"])
async def join_by_invite(code: str, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> dict[str, Any]:
    return await _join(rooms, await _room_by_invite(store, rooms, code), player)


@router.post("/rooms/{room_id}/leave", status_code=204, tags=["rooms"])
async def leave_room(room_id: str, player: CurrentPlayer, rooms: RoomsDep) -> Response:
    room = await _visible_room(rooms, room_id, player)
    try:
        await rooms.leave(room, player.id)
    except RoomError as error:
        raise _room_error(error) from error
    return Response(status_code=204)


# ------------------------------------------------------------------ history and ledger


def _player_json(players: dict[str, Player], player_id: str, seat: int | None = None) -> dict[str, Any]:
    player = players.get(player_id)
    described: dict[str, Any] = {
        "id": player_id,
        "name": player.name if player else "?",
        "bot_level": player.bot_level if player else None,
    }
    return described if seat is None else {"seat": seat, **described}


def _match_json(
    match: Match, player_id: str, players: dict[str, Player], settlement: Settlement | None
) -> dict[str, Any]:
    seat = 0 if match.seat0_id == player_id else 1
    other_id = match.seat1_id if seat == 0 else match.seat0_id
    totals = [match.total0, match.total1]
    stake = None
    if settlement is not None:
        amount = Decimal(settlement.amount)
        won = settlement.winner_id == player_id
        stake = {
            "amount": settlement.amount,
            "currency": settlement.currency,
            "stake_per_point": settlement.stake_per_point,
            "points_short": settlement.points_short,
            "debtor_id": settlement.loser_id,
            "creditor_id": settlement.winner_id,
            "balance": decimal_text(amount if won else -amount),  # + owed to me, − owed by me
        }
    return {
        "id": match.id,
        "room_id": match.room_id,
        "status": match.status,
        "options": match.options,
        "started_at": match.started_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "players": [_player_json(players, match.seat0_id, 0), _player_json(players, match.seat1_id, 1)],
        "my_seat": seat,
        "opponent": _player_json(players, other_id),
        "totals": totals,
        "winner_seat": match.winner_seat,
        "result": None if match.winner_seat is None else ("won" if match.winner_seat == seat else "lost"),
        "end_reason": match.end_reason,
        "stake": stake,
    }


@router.get("/matches", response_model=Page, tags=["history"])
async def my_matches(
    player: CurrentPlayer,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    matches, total = await asyncio.to_thread(store.matches_of_player, player.id, limit, offset)
    ids = {pid for m in matches for pid in (m.seat0_id, m.seat1_id)}
    players = await asyncio.to_thread(store.players, list(ids))
    settlements = await asyncio.to_thread(store.settlements_for, [m.id for m in matches])
    items = [_match_json(m, player.id, players, settlements.get(m.id)) for m in matches]
    return {"total": total, "limit": limit, "offset": offset, "items": items}


@router.get("/matches/{match_id}", tags=["history"])
async def one_match(match_id: str, player: CurrentPlayer, store: StoreDep) -> dict[str, Any]:
    match = await asyncio.to_thread(store.match, match_id) if len(match_id) <= 40 else None
    if match is None or player.id not in (match.seat0_id, match.seat1_id):
        raise api_error(404, "match_not_found", f"no match {match_id!r} of yours")
    players = await asyncio.to_thread(store.players, [match.seat0_id, match.seat1_id])
    settlement = (await asyncio.to_thread(store.settlements_for, [match.id])).get(match.id)
    deals = await asyncio.to_thread(store.deals_of, match.id)
    detail = _match_json(match, player.id, players, settlement)
    detail["deals"] = [
        {
            "number": d.number,
            "dealer": d.dealer,
            "seed": d.seed,
            "card_points": [d.card_points0, d.card_points1],
            "declarations": d.declarations,
            "declaration_points": [d.declaration_points0, d.declaration_points1],
            "score": [d.score0, d.score1],
            "totals": [d.total0, d.total1],
        }
        for d in deals
    ]
    return detail


@router.get("/ledger", tags=["history"])
async def ledger(player: CurrentPlayer, store: StoreDep) -> list[dict[str, Any]]:
    entries = await asyncio.to_thread(store.ledger, player.id)
    for entry in entries:
        if entry["last_played"] is not None:
            entry["last_played"] = entry["last_played"].isoformat()
    return entries
