"""REST routes: health, players, the lobby, match history and the stakes ledger."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Query, Request, Response

from backend.db.action_log import action_record
from backend.db.codes import DeviceLinkCode
from backend.db.common import decimal_text
from backend.db.models import Deal, Match, Player, RatingChange, Settlement, utcnow
from backend.db.rooms import RoomRecord
from backend.db.store import Store
from backend.engine import Rules
from backend.ratings import Skill, displayed
from backend.rooms.codes import RoomCode
from backend.rooms.messages import RoomOut
from backend.rooms.model import RoomState
from backend.rooms.observer import options_out, room_out
from backend.rooms.options import TableOptions, computer_seats
from backend.rooms.replay import deal_frames, match_deals, match_replay
from backend.rooms.service import RoomRefused, Rooms
from backend.rooms.sql_store import record_state
from backend.rooms.watch import watch_code_fits
from backend.settings import Settings

from .codes import TransportCode
from .deps import CurrentPlayer, OptionalPlayer, RoomsDep, StoreDep, api_error, limited, token_from
from .qr import qr_svg
from .schemas import (
    ComputersIn,
    DealReplay,
    DeviceLinkCreated,
    DeviceLinkRedeem,
    Health,
    LedgerEntry,
    MatchDetail,
    MatchReplay,
    Page,
    PlayerCreate,
    PlayerCreated,
    PlayerOut,
    PlayerRatings,
    RatingChangeOut,
    RatingOut,
    RoomCreate,
    RoomPatch,
    SignedOut,
    SocketTicket,
    WatchLink,
)

router = APIRouter(prefix="/api")
TICKET_TTL = timedelta(seconds=30)

# How a room's refusal is answered over HTTP: the rooms layer knows no status codes.
ROOM_STATUS: dict[str, int] = {
    RoomCode.ROOM_NOT_FOUND: 404,
    RoomCode.NOT_SEATED: 403,
    RoomCode.NOT_CREATOR: 403,
    RoomCode.LEVEL_UNAVAILABLE: 422,
    RoomCode.SERVER_ERROR: 503,
}


DEVICE_LINK_STATUS: dict[DeviceLinkCode, int] = {
    DeviceLinkCode.DEVICE_LINK_UNKNOWN: 404,
    DeviceLinkCode.DEVICE_LINK_USED: 410,
    DeviceLinkCode.DEVICE_LINK_EXPIRED: 410,
}
DEVICE_LINK_WORDS: dict[DeviceLinkCode, str] = {
    DeviceLinkCode.DEVICE_LINK_UNKNOWN: "no such sign-in link",
    DeviceLinkCode.DEVICE_LINK_USED: "this sign-in link has been used already; make a new one",
    DeviceLinkCode.DEVICE_LINK_EXPIRED: "this sign-in link has expired; make a new one",
}


def request_now() -> datetime:
    """The time of a request: a dependency, so that tests can set the clock."""
    return utcnow()


Now = Annotated[datetime, Depends(request_now)]


def _refused(error: RoomRefused) -> Exception:
    return api_error(ROOM_STATUS.get(error.code, 409), error.code, error.message)


@router.get("/health", response_model=Health, response_model_exclude_none=True, tags=["health"])
async def health(store: StoreDep, rooms: RoomsDep) -> Health:
    try:
        await asyncio.to_thread(store.ping)
    except Exception as error:
        raise api_error(503, TransportCode.DATABASE_UNAVAILABLE, str(error)) from error
    cluster = rooms.cluster
    if cluster is None:
        return Health(status="ok", database="ok")
    try:
        await cluster.redis.ping()
    except Exception as error:
        raise api_error(503, TransportCode.REDIS_UNAVAILABLE, str(error)) from error
    return Health(status="ok", database="ok", redis="ok", process=cluster.id)


# ------------------------------------------------------------------ players


@router.post(
    "/players", status_code=201, response_model=PlayerCreated, tags=["players"], dependencies=[limited("signup")]
)
async def create_player(body: PlayerCreate, store: StoreDep) -> PlayerCreated:
    player, token = await asyncio.to_thread(store.players.create, body.name)
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me", response_model=PlayerOut, tags=["players"])
async def me(player: CurrentPlayer) -> PlayerOut:
    return PlayerOut(id=player.id, name=player.name)


@router.post(
    "/socket-ticket", status_code=201, response_model=SocketTicket, tags=["players"], dependencies=[limited("tickets")]
)
async def socket_ticket(player: CurrentPlayer, store: StoreDep) -> SocketTicket:
    """A one-time ticket that opens one WebSocket within 30 s: ``/ws/rooms/{id}?ticket=…``.

    Browsers cannot set headers on a WebSocket; the ticket keeps the long-lived token out of URLs."""
    ticket = await asyncio.to_thread(store.players.issue_ticket, player.id, TICKET_TTL)
    return SocketTicket(ticket=ticket, expires_in=int(TICKET_TTL.total_seconds()))


@router.post("/me/sign-out-others", response_model=SignedOut, tags=["players"], dependencies=[limited("account")])
async def sign_out_others(request: Request, player: CurrentPlayer, store: StoreDep) -> SignedOut:
    """Every device but this one is signed out: their tokens, unused sign-in links and socket tickets
    stop working (a socket already open stays so until it closes)."""
    token = token_from(request.headers.get("authorization"), request.cookies.get("token"))
    assert token is not None  # CurrentPlayer found a player by it
    return SignedOut(devices=await asyncio.to_thread(store.players.sign_out_others, player.id, token))


@router.delete("/me", status_code=204, tags=["players"], dependencies=[limited("account")])
async def delete_account(player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> Response:
    """The account is deleted: the player's open tables are closed, every token revoked, and the name
    in finished matches becomes "Deleted player"; the stakes ledger keeps the rows, which are the
    other players' record too. Refused (``409 room_started``) while a match of the player is being
    played: resign it first."""
    records = await asyncio.to_thread(store.rooms.of_player, player.id)
    if any(record.room.status == "playing" for record in records):
        raise api_error(409, RoomCode.ROOM_STARTED, "a match of yours is being played: resign it first")
    for record in records:
        try:
            await rooms.leave(record.room.id, player.id)
        except RoomRefused as error:
            raise _refused(error) from error
    await asyncio.to_thread(store.players.delete, player.id)
    return Response(status_code=204)


# ------------------------------------------------------------------ another device


def _origin(request: Request) -> str:
    """The origin the client talks to: its ``Origin`` if that is this server or an allowed one."""
    settings: Settings = request.app.state.settings
    origin = request.headers.get("origin")
    if origin and (origin in settings.allowed_origins or urlsplit(origin).netloc == request.headers.get("host")):
        return origin
    return str(request.base_url).rstrip("/")


@router.post(
    "/device-links",
    status_code=201,
    response_model=DeviceLinkCreated,
    tags=["players"],
    dependencies=[limited("device_links")],
)
async def create_device_link(request: Request, player: CurrentPlayer, store: StoreDep, now: Now) -> DeviceLinkCreated:
    """A one-time link that signs this player in on another device: ``<origin>/#/signin/<code>``.

    Short-lived (``DEVICE_LINK_TTL_S``) and single use; only the code's hash is stored. The
    player's long-lived token never appears in a URL: the other device gets a token of its own."""
    ttl = timedelta(seconds=request.app.state.settings.device_link_ttl_s)
    code, expires = await asyncio.to_thread(store.players.issue_device_link, player.id, now, ttl)
    link = f"{_origin(request)}/#/signin/{code}"
    return DeviceLinkCreated(code=code, expires_at=expires, qr_svg=qr_svg(link, "1001"))


@router.post("/device-links/redeem", response_model=PlayerCreated, tags=["players"], dependencies=[limited("redeem")])
async def redeem_device_link(body: DeviceLinkRedeem, store: StoreDep, now: Now) -> PlayerCreated:
    """Sign in as the player who made the link: the same id and name, a token for this device."""
    outcome = await asyncio.to_thread(store.players.redeem_device_link, body.code, now)
    if isinstance(outcome, DeviceLinkCode):
        raise api_error(DEVICE_LINK_STATUS[outcome], outcome, DEVICE_LINK_WORDS[outcome])
    player, token = outcome
    return PlayerCreated(id=player.id, name=player.name, token=token)


# ------------------------------------------------------------------ rooms


async def _summary(rooms: Rooms, record: RoomRecord, player: Player | None) -> RoomOut:
    """A room as the database and the bus know it: no room needs to be in memory for this."""
    state = replace(record_state(record), present=await rooms.bus.present(record.room.id))
    return room_out(state, None if player is None else player.id)


async def _current(rooms: Rooms, store: Store, room_id: str, state: RoomState | None, player: Player) -> RoomOut:
    """The room after a change: from this process's actor, or from the database when the change
    was carried out by the process that owns the room."""
    if state is not None:
        return room_out(state, player.id)
    record = await asyncio.to_thread(store.rooms.record, room_id)
    if record is None:
        raise api_error(404, RoomCode.ROOM_NOT_FOUND, f"no table {room_id!r}")
    return await _summary(rooms, record, player)


def _visible(state: RoomState, player: Player | None) -> bool:
    seated = player is not None and state.seat_of(player.id) is not None
    return seated or (state.visibility == "public" and state.status != "closed")


async def _visible_record(store: StoreDep, room_id: str, player: Player | None) -> RoomRecord:
    record = await asyncio.to_thread(store.rooms.record, room_id) if len(room_id) <= 40 else None
    if record is None or not _visible(record_state(record), player):
        raise api_error(404, RoomCode.ROOM_NOT_FOUND, f"no table {room_id!r}")
    return record


@router.post("/rooms", status_code=201, response_model=RoomOut, tags=["rooms"], dependencies=[limited("rooms")])
async def create_room(
    request: Request, body: RoomCreate, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep
) -> RoomOut:
    rules = body.rules()
    options = TableOptions(
        rules=rules,
        stake_per_point=body.stake_per_point.normalize(),
        currency=body.currency,
        reconnect_grace_s=body.reconnect_grace_s,
        bot_level=body.bot_level if body.computers else None,
        spectators=body.spectators,
        computer_seats=computer_seats(rules.n, body.computers),
        rated=body.rated,
        reactions_for_spectators=body.reactions_for_spectators,
    )
    # Nobody else can join a table whose other seats are all the computer's.
    visibility = "private" if body.computers == options.seats - 1 else body.visibility
    try:
        state, room_id = await rooms.create_room(
            player, options, visibility, max_open=request.app.state.settings.max_open_tables
        )
    except RoomRefused as error:
        raise _refused(error) from error
    return await _current(rooms, store, room_id, state, player)


@router.get("/rooms", response_model=list[RoomOut], tags=["rooms"])
async def open_rooms(store: StoreDep, rooms: RoomsDep) -> list[RoomOut]:
    records = await asyncio.to_thread(store.rooms.open_public)
    return [await _summary(rooms, record, None) for record in records]


@router.get("/rooms/mine", response_model=list[RoomOut], tags=["rooms"])
async def my_rooms(player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> list[RoomOut]:
    records = await asyncio.to_thread(store.rooms.of_player, player.id)
    return [await _summary(rooms, record, player) for record in records]


@router.get("/rooms/watchable", response_model=list[RoomOut], tags=["rooms"])
async def watchable_rooms(store: StoreDep, rooms: RoomsDep) -> list[RoomOut]:
    """Public tables being played that anyone may watch (``/ws/rooms/{id}/watch``)."""
    records = await asyncio.to_thread(store.rooms.watchable_public)
    return [await _summary(rooms, record, None) for record in records]


@router.get("/rooms/{room_id}", response_model=RoomOut, tags=["rooms"])
async def get_room(room_id: str, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> RoomOut:
    return await _summary(rooms, await _visible_record(store, room_id, player), player)


async def _join(rooms: Rooms, store: Store, room_id: str, player: Player) -> RoomOut:
    try:
        state = await rooms.join(room_id, player)
    except RoomRefused as error:
        raise _refused(error) from error
    return await _current(rooms, store, room_id, state, player)


@router.post("/rooms/{room_id}/join", response_model=RoomOut, tags=["rooms"], dependencies=[limited("join")])
async def join_room(room_id: str, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> RoomOut:
    record = await _visible_record(store, room_id, player)
    return await _join(rooms, store, record.room.id, player)


async def _by_invite(store: StoreDep, code: str) -> RoomRecord:
    record = await asyncio.to_thread(store.rooms.by_invite, code) if len(code) <= 40 else None
    if record is None or record.room.status == "closed":
        raise api_error(404, RoomCode.ROOM_NOT_FOUND, "no table has this invite code")
    return record


@router.post("/rooms/{room_id}/computers", response_model=RoomOut, tags=["rooms"], dependencies=[limited("tables")])
async def seat_computers(
    room_id: str, body: ComputersIn, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep
) -> RoomOut:
    """The creator of an open table for nothing fills its empty seats with computer players; the
    match starts (``403 not_creator``, ``409 staked_table`` / ``room_started``)."""
    await _visible_record(store, room_id, player)
    try:
        state = await rooms.seat_computers(room_id, player.id, body.level)
    except RoomRefused as error:
        raise _refused(error) from error
    return await _current(rooms, store, room_id, state, player)


@router.patch("/rooms/{room_id}", response_model=RoomOut, tags=["rooms"], dependencies=[limited("tables")])
async def change_room(
    room_id: str, body: RoomPatch, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep
) -> RoomOut:
    """A seated player turns watching on or off (spectators watching are sent away, close 4413), or
    the spectators' seeing the quick reactions.
    Anyone else is answered ``403 not_seated``, at a private table too, as ``watch-link`` is."""
    if len(room_id) > 40:
        raise api_error(404, RoomCode.ROOM_NOT_FOUND, "unknown room")
    try:
        state = await rooms.set_spectators(room_id, player.id, body.spectators, body.reactions_for_spectators)
    except RoomRefused as error:
        raise _refused(error) from error
    return await _current(rooms, store, room_id, state, player)


@router.post(
    "/rooms/{room_id}/watch-link", response_model=WatchLink, tags=["rooms"], dependencies=[limited("watch_links")]
)
async def watch_link(room_id: str, player: CurrentPlayer, rooms: RoomsDep) -> WatchLink:
    """For a table's players: the code that lets others watch it (needed for private tables)."""
    if len(room_id) > 40:
        raise api_error(404, RoomCode.ROOM_NOT_FOUND, "unknown room")
    try:
        return WatchLink(room_id=room_id, code=await rooms.watch_link(room_id, player.id))
    except RoomRefused as error:
        raise _refused(error) from error


@router.get("/invites/{code}", response_model=RoomOut, tags=["rooms"])
async def get_invite(code: str, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> RoomOut:
    return await _summary(rooms, await _by_invite(store, code), player)


@router.post("/invites/{code}/join", response_model=RoomOut, tags=["rooms"], dependencies=[limited("join")])
async def join_by_invite(code: str, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> RoomOut:
    record = await _by_invite(store, code)
    return await _join(rooms, store, record.room.id, player)


@router.post("/rooms/{room_id}/leave", status_code=204, tags=["rooms"], dependencies=[limited("tables")])
async def leave_room(room_id: str, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> Response:
    record = await _visible_record(store, room_id, player)
    try:
        await rooms.leave(record.room.id, player.id)
    except RoomRefused as error:
        raise _refused(error) from error
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


def _seated_players(match: Match, players: dict[str, Player]) -> list[dict[str, Any]]:
    places = match.places
    seated = [_player_json(players, player_id, seat) for seat, player_id in enumerate(match.player_ids)]
    if places is None:
        return seated
    return [{**player, "place": place, "result": _result(place)} for player, place in zip(seated, places, strict=True)]


def _result(place: int) -> str:
    """A finished match is won by whoever is first (R5, ruling V0.9; R6.2 / V0.10a after a resignation)."""
    return "won" if place == 1 else "lost"


def _stake_json(player_id: str, settlements: list[Settlement]) -> dict[str, Any] | None:
    """What the match's settlements mean to ``player_id``: with two seats the one settlement.
    With 3 or 4 seats only those the player is part of count: a loser's debt to the winner, or
    for the winner the sum owed by the losers (amounts and points short added up, the first
    debtor named); ``balance`` is always the player's net (+ owed to me, − owed by me)."""
    mine = [s for s in settlements if player_id in (s.winner_id, s.loser_id)] or settlements[:1]
    if not mine:
        return None
    first = mine[0]
    if len(mine) == 1:
        amount_text, points_short = first.amount, first.points_short
    else:
        amount_text = decimal_text(sum((Decimal(s.amount) for s in mine), Decimal(0)))
        points_short = sum(s.points_short for s in mine)
    balance = sum(
        (Decimal(s.amount) * (1 if s.winner_id == player_id else -1 if s.loser_id == player_id else 0) for s in mine),
        Decimal(0),
    )
    return {
        "amount": amount_text,
        "currency": first.currency,
        "stake_per_point": first.stake_per_point,
        "points_short": points_short,
        "debtor_id": first.loser_id,
        "creditor_id": first.winner_id,
        "balance": decimal_text(balance),  # + owed to me, − owed by me
    }


def _match_json(
    match: Match, player_id: str, players: dict[str, Player], settlements: list[Settlement]
) -> dict[str, Any]:
    player_ids = match.player_ids
    seat = player_ids.index(player_id) if player_id in player_ids else 0
    other_id = player_ids[(seat + 1) % len(player_ids)]  # the only opponent with two seats; the next seat with more
    return {
        "id": match.id,
        "room_id": match.room_id,
        "status": match.status,
        "options": options_out(TableOptions.from_json(match.options)).model_dump(),
        "started_at": match.started_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "players": _seated_players(match, players),
        "my_seat": seat,
        "opponent": _player_json(players, other_id),
        "totals": match.totals,
        "winner_seat": match.winner_seat,
        "result": None if match.places is None else _result(match.places[seat]),
        "places": match.places,
        "end_reason": match.end_reason,
        "stake": _stake_json(player_id, settlements),
        "settlements": [
            {
                "debtor_id": owed.loser_id,
                "creditor_id": owed.winner_id,
                "amount": owed.amount,
                "currency": owed.currency,
                "stake_per_point": owed.stake_per_point,
                "points_short": owed.points_short,
            }
            for owed in settlements
        ],
    }


@router.get("/matches", response_model=Page, tags=["history"])
async def my_matches(
    player: CurrentPlayer,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    matches, total = await asyncio.to_thread(store.history.matches_of, player.id, limit, offset)
    ids = {pid for m in matches for pid in m.player_ids}
    players = await asyncio.to_thread(store.players.by_ids, list(ids))
    settlements = await asyncio.to_thread(store.history.settlements_for, [m.id for m in matches])
    items = [_match_json(m, player.id, players, settlements.get(m.id, [])) for m in matches]
    return {"total": total, "limit": limit, "offset": offset, "items": items}


@router.get("/matches/{match_id}", response_model=MatchDetail, tags=["history"])
async def one_match(match_id: str, player: CurrentPlayer, store: StoreDep) -> dict[str, Any]:
    match = await asyncio.to_thread(store.history.match, match_id) if len(match_id) <= 40 else None
    if match is None or player.id not in match.player_ids:
        raise api_error(404, TransportCode.MATCH_NOT_FOUND, f"no match {match_id!r} of yours")
    players = await asyncio.to_thread(store.players.by_ids, match.player_ids)
    settlements = (await asyncio.to_thread(store.history.settlements_for, [match.id])).get(match.id, [])
    deals = await asyncio.to_thread(store.history.deals_of, match.id)
    detail = _match_json(match, player.id, players, settlements)
    detail["deals"] = [{"number": d.number, "dealer": d.dealer, "seed": d.seed, **_deal_result(d)} for d in deals]
    changes = {c.seat: c for c in await asyncio.to_thread(store.ratings.changes_of, match.id)}
    detail["rating_changes"] = [_rating_change(changes.get(seat)) for seat in range(len(match.player_ids))]
    return detail


def _rating_change(change: RatingChange | None) -> RatingChangeOut | None:
    if change is None:
        return None
    before = displayed(Skill(change.mu_before, change.sigma_before))
    after = displayed(Skill(change.mu_after, change.sigma_after))
    return RatingChangeOut(
        seat=change.seat,
        player_id=change.player_id,
        kind=change.kind,
        before=before,
        after=after,
        change=after - before,
        mu=change.mu_after,
        sigma=change.sigma_after,
    )


@router.get("/players/{player_id}/ratings", response_model=PlayerRatings, tags=["players"])
async def player_ratings(player_id: str, player: CurrentPlayer, store: StoreDep) -> PlayerRatings:
    """A player's ratings per game kind (any signed-in player may read them; none yet: an empty list)."""
    found = await asyncio.to_thread(store.players.by_ids, [player_id]) if len(player_id) <= 40 else {}
    if player_id not in found:
        raise api_error(404, TransportCode.PLAYER_NOT_FOUND, f"no player {player_id!r}")
    rows = await asyncio.to_thread(store.ratings.of_player, player_id)
    return PlayerRatings(
        player_id=player_id,
        ratings=[
            RatingOut(kind=r.kind, rating=displayed(Skill(r.mu, r.sigma)), mu=r.mu, sigma=r.sigma, matches=r.matches)
            for r in rows
        ],
    )


def _deal_result(deal: Deal) -> dict[str, Any]:
    """A stored deal's result, and its auction (V0.6–V0.8; none in two-hand 1001, V4 and V5)."""
    return {
        "card_points": deal.card_points,
        "declarations": deal.declarations,
        "declaration_points": deal.declaration_points,
        "score": deal.score,
        "totals": deal.totals,
        "declarer": deal.declarer,
        "contract": deal.contract,
        "made": deal.made,
        "thrown_in": deal.thrown_in,
    }


async def _may_replay(store: Store, match: Match, player: Player | None, code: str | None) -> bool:
    """Who may read a match's replay (issue 12): its players; others as they could watch it live —
    anyone if its table is public, whoever has the watch code if it is private, and nobody else if
    the players turned watching off."""
    if player is not None and player.id in match.player_ids:
        return True
    record = await asyncio.to_thread(store.rooms.record, match.room_id)
    if record is None or not TableOptions.from_json(record.room.options).spectators:
        return False
    return record.room.visibility == "public" or watch_code_fits(record.room.invite_code, code)


async def _replay_source(store: Store, match_id: str, player: Player | None, code: str | None) -> dict[str, Any]:
    """What a replay is built from, once the match is over (R7); refused to anyone else as if it
    did not exist, so a private match's id reveals nothing."""
    match = await asyncio.to_thread(store.history.match, match_id) if len(match_id) <= 40 else None
    if match is None or not await _may_replay(store, match, player, code):
        raise api_error(404, TransportCode.MATCH_NOT_FOUND, f"no match {match_id!r} you may replay")
    if match.status != "finished":
        raise api_error(409, TransportCode.MATCH_IN_PROGRESS, "a match can be replayed once it is over")
    rules = TableOptions.from_json(match.options).rules
    players = await asyncio.to_thread(store.players.by_ids, match.player_ids)
    rows = await asyncio.to_thread(store.history.actions_of, match.id)
    deals = await asyncio.to_thread(store.history.deals_of, match.id)
    return {
        "match_id": match.id,
        "players": _seated_players(match, players),
        "rules": rules,
        "seed": int(match.seed),
        "actions": [action_record(row) for row in rows],
        "results": {d.number: _deal_result(d) for d in deals},
    }


# A private table's watch code (``POST /api/rooms/{id}/watch-link``): it opens the table's replays too.
WatchCode = Annotated[str | None, Query(max_length=40, description="a private table's watch code")]


# Both replay routes leave out the optional fields a replay does not set (``response_model_exclude_unset``):
# an action names only its own kind (the replay CLI refuses ``"bid": null`` beside ``"play"``), and a
# document has the stock, the talon and the totals only where its game has them.
@router.get(
    "/matches/{match_id}/replay", response_model=MatchReplay, response_model_exclude_unset=True, tags=["history"]
)
async def match_replay_json(
    match_id: str, player: OptionalPlayer, store: StoreDep, code: WatchCode = None
) -> dict[str, Any]:
    """The whole finished match, one replay-CLI document per deal (docs/engine-cli.md)."""
    return match_replay(**await _replay_source(store, match_id, player, code))


@router.get(
    "/matches/{match_id}/deals/{number}/replay",
    response_model=DealReplay,
    response_model_exclude_unset=True,
    tags=["history"],
)
async def deal_replay(
    match_id: str, number: int, player: OptionalPlayer, store: StoreDep, code: WatchCode = None
) -> dict[str, Any]:
    """One deal of a finished match stepped through the engine: the position after every action."""
    source = await _replay_source(store, match_id, player, code)
    rules: Rules = source["rules"]
    deals = match_deals(rules, source["seed"], source["actions"])
    deal = next((d for d in deals if d.number == number), None)
    if deal is None:
        raise api_error(404, TransportCode.MATCH_NOT_FOUND, f"match {match_id!r} has no deal {number}")
    return {
        "match_id": source["match_id"],
        "number": number,
        "deals": len(deals),  # the viewer links to the other deals without the players' match page
        "seats": rules.n,
        "variant": rules.variant,
        "dealer": deal.start.dealer,
        "players": source["players"],
        "result": source["results"].get(number),
        "frames": deal_frames(deal),
    }


@router.get("/ledger", response_model=list[LedgerEntry], tags=["history"])
async def ledger(player: CurrentPlayer, store: StoreDep) -> list[dict[str, Any]]:
    entries = await asyncio.to_thread(store.history.ledger, player.id)
    for entry in entries:
        if entry["last_played"] is not None:
            entry["last_played"] = entry["last_played"].isoformat()
    return entries
