"""REST routes: health, players, the lobby, match history and the stakes ledger."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Query, Request, Response

from backend.db.action_log import action_record
from backend.db.codes import DeviceLinkCode
from backend.db.models import Match, Player, utcnow
from backend.db.rooms import RoomRecord
from backend.db.store import Store
from backend.db.writes import ActionRecord
from backend.engine import Rules
from backend.history.access import may_read, may_replay, replayable
from backend.history.entries import deal_result, match_detail, match_entry, seated_players
from backend.ratings import Skill, displayed
from backend.rooms.codes import RoomCode
from backend.rooms.hints import hints_problem
from backend.rooms.messages import RoomOut
from backend.rooms.model import RoomState
from backend.rooms.observer import room_out
from backend.rooms.options import TableOptions, computer_seats
from backend.rooms.replay import deal_frames, match_deals, match_replay
from backend.rooms.service import RoomRefused, Rooms
from backend.rooms.sql_store import record_state
from backend.rooms.table_rules import new_table_visibility, visible
from backend.settings import Settings

from .codes import TransportCode
from .deps import CurrentPlayer, OptionalPlayer, RoomsDep, StoreDep, api_error, limited, token_from
from .params import InviteCode, MatchId, PlayerId, RoomId
from .qr import qr_svg
from .schemas import (
    ComputersIn,
    DealReplay,
    DeviceLinkCreated,
    DeviceLinkRedeem,
    Health,
    InvitePreview,
    LedgerEntry,
    MatchDetail,
    MatchReplay,
    Page,
    PlayerCreate,
    PlayerCreated,
    PlayerOut,
    PlayerRatings,
    RatingOut,
    ReplayFrame,
    ReplayResult,
    RoomCreate,
    RoomPatch,
    SeatedMatchPlayer,
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
    RoomCode.HINTS_UNAVAILABLE: 422,
    RoomCode.SERVER_ERROR: 503,
    RoomCode.UNAVAILABLE: 503,  # no process could take the table, or the database is away: try again
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
    signed_out = await asyncio.to_thread(store.players.sign_out_others, player.id, token)
    await _drop_subscriptions(request, player.id)
    return SignedOut(devices=signed_out)


async def _drop_subscriptions(request: Request, player_id: str) -> None:
    """Web Push: no device of the player is notified any more (a device still signed in subscribes
    again when its lobby opens, if its notifications were on)."""
    repo = getattr(request.app.state, "push_repo", None)
    if repo is not None:
        await asyncio.to_thread(repo.drop_player, player_id)


@router.delete("/me", status_code=204, tags=["players"], dependencies=[limited("account")])
async def delete_account(request: Request, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> Response:
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
    await _drop_subscriptions(request, player.id)
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


async def _visible_record(store: StoreDep, room_id: str, player: Player | None) -> RoomRecord:
    record = await asyncio.to_thread(store.rooms.record, room_id)
    if record is None or not visible(record_state(record), None if player is None else player.id):
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
        hints=body.hints is not False,
        pace=body.pace,
        auto_play=body.auto_play,
    )
    problem = hints_problem(options, people=options.seats - body.computers) if body.hints else None
    if problem is not None:
        raise api_error(422, RoomCode.HINTS_UNAVAILABLE, problem)
    visibility = new_table_visibility(body.visibility, body.computers, options.seats)
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
async def get_room(room_id: RoomId, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> RoomOut:
    return await _summary(rooms, await _visible_record(store, room_id, player), player)


async def _join(rooms: Rooms, store: Store, room_id: str, player: Player) -> RoomOut:
    try:
        state = await rooms.join(room_id, player)
    except RoomRefused as error:
        raise _refused(error) from error
    return await _current(rooms, store, room_id, state, player)


@router.post("/rooms/{room_id}/join", response_model=RoomOut, tags=["rooms"], dependencies=[limited("join")])
async def join_room(room_id: RoomId, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> RoomOut:
    record = await _visible_record(store, room_id, player)
    return await _join(rooms, store, record.room.id, player)


async def _by_invite(store: StoreDep, code: str) -> RoomRecord:
    record = await asyncio.to_thread(store.rooms.by_invite, code)
    if record is None or record.room.status == "closed":
        raise api_error(404, RoomCode.ROOM_NOT_FOUND, "no table has this invite code")
    return record


@router.post("/rooms/{room_id}/computers", response_model=RoomOut, tags=["rooms"], dependencies=[limited("tables")])
async def seat_computers(
    room_id: RoomId, body: ComputersIn, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep
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
    room_id: RoomId, body: RoomPatch, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep
) -> RoomOut:
    """A seated player turns watching on or off (spectators watching are sent away, close 4413), or
    the spectators' seeing the quick reactions.
    Anyone else is answered ``403 not_seated``, at a private table too, as ``watch-link`` is."""
    try:
        state = await rooms.set_spectators(room_id, player.id, body.spectators, body.reactions_for_spectators)
    except RoomRefused as error:
        raise _refused(error) from error
    return await _current(rooms, store, room_id, state, player)


@router.post(
    "/rooms/{room_id}/watch-link", response_model=WatchLink, tags=["rooms"], dependencies=[limited("watch_links")]
)
async def watch_link(room_id: RoomId, player: CurrentPlayer, rooms: RoomsDep) -> WatchLink:
    """For a table's players: the code that lets others watch it (needed for private tables)."""
    try:
        return WatchLink(room_id=room_id, code=await rooms.watch_link(room_id, player.id))
    except RoomRefused as error:
        raise _refused(error) from error


@router.get("/invites/{code}", response_model=RoomOut, tags=["rooms"])
async def get_invite(code: InviteCode, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> RoomOut:
    return await _summary(rooms, await _by_invite(store, code), player)


@router.get("/invites/{code}/preview", response_model=InvitePreview, tags=["rooms"], dependencies=[limited("join")])
async def preview_invite(code: InviteCode, store: StoreDep) -> InvitePreview:
    """What an invitation is, for someone without a name yet: who invites, the game, its target and
    stake, and how many seats are taken — no id, no invite code, no other player's name."""
    record = await _by_invite(store, code)
    room = room_out(record_state(record), None)
    people = [p for p in room.players if p is not None and p.bot_level is None]
    return InvitePreview(
        host=people[0].name if people else None,
        options=room.options,
        seats_taken=sum(1 for p in room.players if p is not None),
        status=room.status,
    )


@router.post("/invites/{code}/join", response_model=RoomOut, tags=["rooms"], dependencies=[limited("join")])
async def join_by_invite(code: InviteCode, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> RoomOut:
    record = await _by_invite(store, code)
    return await _join(rooms, store, record.room.id, player)


@router.post("/rooms/{room_id}/leave", status_code=204, tags=["rooms"], dependencies=[limited("tables")])
async def leave_room(room_id: RoomId, player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> Response:
    record = await _visible_record(store, room_id, player)
    try:
        await rooms.leave(record.room.id, player.id)
    except RoomRefused as error:
        raise _refused(error) from error
    return Response(status_code=204)


# ------------------------------------------------------------------ history and ledger
# What a match's history entry holds and who may read it are backend/history's rules; the routes
# load the stored rows those rules are given.


@router.get("/matches", response_model=Page, tags=["history"])
async def my_matches(
    player: CurrentPlayer,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> Page:
    matches, total = await asyncio.to_thread(store.history.matches_of, player.id, limit, offset)
    ids = {pid for m in matches for pid in m.player_ids}
    players = await asyncio.to_thread(store.players.by_ids, list(ids))
    settlements = await asyncio.to_thread(store.history.settlements_for, [m.id for m in matches])
    items = [match_entry(m, player.id, players, settlements.get(m.id, [])) for m in matches]
    return Page(total=total, limit=limit, offset=offset, items=items)


@router.get("/matches/{match_id}", response_model=MatchDetail, tags=["history"])
async def one_match(match_id: MatchId, player: CurrentPlayer, store: StoreDep) -> MatchDetail:
    match = await asyncio.to_thread(store.history.match, match_id)
    if match is None or not may_read(match, player.id):
        raise api_error(404, TransportCode.MATCH_NOT_FOUND, f"no match {match_id!r} of yours")
    players = await asyncio.to_thread(store.players.by_ids, match.player_ids)
    settlements = (await asyncio.to_thread(store.history.settlements_for, [match.id])).get(match.id, [])
    deals = await asyncio.to_thread(store.history.deals_of, match.id)
    changes = await asyncio.to_thread(store.ratings.changes_of, match.id)
    return match_detail(match, player.id, players, settlements, deals, changes)


@router.get("/players/{player_id}/ratings", response_model=PlayerRatings, tags=["players"])
async def player_ratings(player_id: PlayerId, player: CurrentPlayer, store: StoreDep) -> PlayerRatings:
    """A player's ratings per game kind (any signed-in player may read them; none yet: an empty list)."""
    found = await asyncio.to_thread(store.players.by_ids, [player_id])
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


@dataclass(frozen=True)
class ReplaySource:
    """What a replay is built from: the stored match, its players, its action log and its deals' results."""

    match: Match
    rules: Rules
    players: list[SeatedMatchPlayer]
    actions: list[ActionRecord]
    results: dict[int, ReplayResult]


async def replay_source(store: Store, match_id: str, player: Player | None, code: str | None) -> ReplaySource:
    """The stored rows of a match the asker may replay, once it is over; refused to anyone else as if
    it did not exist, so a private match's id reveals nothing."""
    match = await asyncio.to_thread(store.history.match, match_id)
    record = None if match is None else await asyncio.to_thread(store.rooms.record, match.room_id)
    room = None if record is None else record.room
    if match is None or not may_replay(match, None if player is None else player.id, room, code):
        raise api_error(404, TransportCode.MATCH_NOT_FOUND, f"no match {match_id!r} you may replay")
    if not replayable(match):
        raise api_error(409, TransportCode.MATCH_IN_PROGRESS, "a match can be replayed once it is over")
    players = await asyncio.to_thread(store.players.by_ids, match.player_ids)
    rows = await asyncio.to_thread(store.history.actions_of, match.id)
    deals = await asyncio.to_thread(store.history.deals_of, match.id)
    return ReplaySource(
        match=match,
        rules=TableOptions.from_json(match.options).rules,
        players=seated_players(match, players),
        actions=[action_record(row) for row in rows],
        results={d.number: deal_result(d) for d in deals},
    )


# A private table's watch code (``POST /api/rooms/{id}/watch-link``): it opens the table's replays too.
WatchCode = Annotated[str | None, Query(max_length=40, description="a private table's watch code")]


# Both replay routes leave out the optional fields a replay does not set (``response_model_exclude_unset``):
# an action names only its own kind (the replay CLI refuses ``"bid": null`` beside ``"play"``), and a
# document has the stock, the talon and the totals only where its game has them.
@router.get(
    "/matches/{match_id}/replay", response_model=MatchReplay, response_model_exclude_unset=True, tags=["history"]
)
async def match_replay_json(
    match_id: MatchId, player: OptionalPlayer, store: StoreDep, code: WatchCode = None
) -> MatchReplay:
    """The whole finished match, one replay-CLI document per deal (docs/engine-cli.md)."""
    source = await replay_source(store, match_id, player, code)
    document = match_replay(
        source.match.id, source.players, source.rules, int(source.match.seed), source.actions, source.results
    )
    return MatchReplay.model_validate(document)


@router.get(
    "/matches/{match_id}/deals/{number}/replay",
    response_model=DealReplay,
    response_model_exclude_unset=True,
    tags=["history"],
)
async def deal_replay(
    match_id: MatchId, number: int, player: OptionalPlayer, store: StoreDep, code: WatchCode = None
) -> DealReplay:
    """One deal of a finished match stepped through the engine: the position after every action."""
    source = await replay_source(store, match_id, player, code)
    rules = source.rules
    deals = match_deals(rules, int(source.match.seed), source.actions)
    deal = next((d for d in deals if d.number == number), None)
    if deal is None:
        raise api_error(404, TransportCode.MATCH_NOT_FOUND, f"match {match_id!r} has no deal {number}")
    return DealReplay(
        match_id=source.match.id,
        number=number,
        deals=len(deals),  # the viewer links to the other deals without the players' match page
        seats=rules.n,
        variant=rules.game.id,
        dealer=deal.start.dealer,
        players=source.players,
        result=source.results.get(number),
        frames=[ReplayFrame.model_validate(frame) for frame in deal_frames(deal)],
    )


@router.get("/ledger", response_model=list[LedgerEntry], tags=["history"])
async def ledger(player: CurrentPlayer, store: StoreDep) -> list[LedgerEntry]:
    entries = await asyncio.to_thread(store.history.ledger, player.id)
    return [_ledger_entry(**entry) for entry in entries]


def _ledger_entry(last_played: datetime | None, **figures: Any) -> LedgerEntry:
    """One row of ``Store.ledger``, its last match's time as ISO text (as the history's times are)."""
    return LedgerEntry(last_played=None if last_played is None else last_played.isoformat(), **figures)
