""" "Play again": recent opponents, a new private table for one of them, and the lobby's event stream.

``GET /api/me/opponents`` lists the people the player sat with most recently, each with the options
of their last match together; ``POST /api/me/opponents/{id}/invite`` makes a private table with
those options (counted against ``MAX_OPEN_TABLES`` like any table) and invites that person, who sees
the invitation at once if their lobby is open (``GET /api/me/events``, Server-Sent Events).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Annotated, cast

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse
from redis.exceptions import RedisError
from starlette.background import BackgroundTask

from backend.db.models import Player
from backend.db.store import Store
from backend.rooms.observer import options_out
from backend.rooms.options import TableOptions
from backend.rooms.service import RoomRefused
from backend.settings import Settings

from .codes import FriendCode, LobbyEvent, TransportCode
from .deps import CurrentPlayer, RoomsDep, StoreDep, api_error, client_address, limited, player_for_token, token_from
from .lobby_events import LobbyEvents
from .lobby_messages import Invitation, Invited, MyGames, Person, RecentOpponent, StreamReady, sse
from .my_games import my_games
from .params import InvitationId
from .routes import Now, _current, _refused
from .ws import SocketsByAddress

router = APIRouter(prefix="/api")
RECENT_OPPONENTS = 8


def get_lobby_events(request: Request) -> LobbyEvents:
    return cast(LobbyEvents, request.app.state.lobby_events)


LobbyEventsDep = Annotated[LobbyEvents, Depends(get_lobby_events)]


@router.get("/me/opponents", response_model=list[RecentOpponent], tags=["friends"])
async def recent_opponents(player: CurrentPlayer, store: StoreDep) -> list[RecentOpponent]:
    """The people (never a computer) the player played most recently, each once, newest first, with
    the options of their last match together."""
    found = await asyncio.to_thread(store.history.recent_opponents, player.id, RECENT_OPPONENTS)
    return [
        RecentOpponent(
            id=other.id,
            name=other.name,
            last_played=match.started_at,
            match_id=match.id,
            room_id=match.room_id,
            options=options_out(TableOptions.from_json(match.options)),
        )
        for other, match in found
    ]


@router.post(
    "/me/opponents/{player_id}/invite",
    status_code=201,
    response_model=Invited,
    tags=["friends"],
    dependencies=[limited("invites")],
)
async def invite_opponent(
    request: Request,
    player_id: str,
    player: CurrentPlayer,
    store: StoreDep,
    rooms: RoomsDep,
    events: LobbyEventsDep,
    now: Now,
) -> Invited:
    """A new private table with the options of the last match with ``player_id`` (a recent opponent:
    else ``404 opponent_unknown``), and an invitation to it that the opponent sees at once when
    their lobby is open (``online``), or when they open it while the table waits. Refused like
    any new table: ``409 too_many_tables`` at ``MAX_OPEN_TABLES``."""
    found = await asyncio.to_thread(store.history.recent_opponents, player.id, RECENT_OPPONENTS)
    last = next(((other, match) for other, match in found if other.id == player_id), None)
    if last is None:
        raise api_error(404, FriendCode.OPPONENT_UNKNOWN, "not one of your recent opponents")
    invitee, match = last
    settings: Settings = request.app.state.settings
    options = TableOptions.from_json(match.options)
    try:
        state, room_id = await rooms.create_room(player, options, "private", max_open=settings.max_open_tables)
    except RoomRefused as error:
        raise _refused(error) from error
    room = await _current(rooms, store, room_id, state, player)
    assert room.invite_code is not None  # the creator is seated: the code is shown
    invitation = Invitation(
        room_id=room.id,
        invite_code=room.invite_code,
        inviter=Person(id=player.id, name=player.name),
        options=room.options,
        created_at=now,
        expires_at=now + timedelta(seconds=settings.open_table_ttl_s),
    )
    online = await events.invite(invitee.id, invitation)
    pusher = getattr(request.app.state, "pusher", None)
    if pusher is not None and not online:  # not seen in an open lobby: a notification, where allowed
        pusher.invited(invitee.id, room.id, room.invite_code, player.name, invitation.expires_at)
    return Invited(room=room, invitee=Person(id=invitee.id, name=invitee.name), online=online)


@router.post("/me/invitations/{room_id}/decline", status_code=204, tags=["friends"], dependencies=[limited("invites")])
async def decline_invitation(room_id: InvitationId, player: CurrentPlayer, events: LobbyEventsDep) -> Response:
    """ "Not now": the invitation is forgotten (and gone from the player's other devices); the table
    stays open for its creator. ``404 invitation_unknown`` if none waits for the player."""
    try:
        declined = await events.decline(player.id, room_id)
    except (RedisError, OSError) as error:
        raise api_error(503, TransportCode.REDIS_UNAVAILABLE, str(error)) from error
    if not declined:
        raise api_error(404, FriendCode.INVITATION_UNKNOWN, "no such invitation waits for you")
    return Response(status_code=204)


@router.get("/me/games", response_model=MyGames, tags=["friends"])
async def games(player: CurrentPlayer, store: StoreDep, rooms: RoomsDep) -> MyGames:
    """ "My games": every table the player sits at that is open or being played, the player's turn
    first (the soonest deadline first), with who is to act, until when, and the last move."""
    return await my_games(store, rooms, player.id)


async def _stream_player(request: Request, store: Store, ticket: str | None) -> Player | None:
    """A one-time socket ticket (EventSource cannot send headers), else the token (header or cookie)."""
    if ticket:
        return await asyncio.to_thread(store.players.redeem_ticket, ticket)
    return await player_for_token(store, token_from(request.headers.get("authorization"), request.cookies.get("token")))


@router.get(
    "/me/events",
    response_class=StreamingResponse,
    tags=["friends"],
    responses={200: {"content": {"text/event-stream": {}}, "description": "Server-Sent Events"}},
)
async def lobby_stream(
    request: Request,
    store: StoreDep,
    events: LobbyEventsDep,
    now: Now,
    ticket: Annotated[
        str | None, Query(max_length=100, description="a one-time ticket from POST /api/socket-ticket")
    ] = None,
) -> StreamingResponse:
    """The lobby's event stream: ``invitation`` and ``invitation_gone`` as they happen (waiting
    invitations first), ``games`` ("My games") and ``tables`` (the public tables) when it opens and
    whenever they change, then ``ready``; a comment line every ``LOBBY_HEARTBEAT_S`` while idle."""
    player = await _stream_player(request, store, ticket)
    if player is None:
        raise api_error(401, TransportCode.UNAUTHORIZED, "a valid socket ticket or player token is needed")
    settings: Settings = request.app.state.settings
    counted: SocketsByAddress = request.app.state.sockets_by_address
    address = client_address(request) or ""
    if not counted.take(address):
        raise api_error(429, TransportCode.RATE_LIMITED, "too many sockets and streams from this address")
    listener = await events.listen(player.id)
    try:
        waiting = await events.waiting(player.id, now)
        first = await events.first_events(player.id)
    except (RedisError, OSError) as error:  # Redis away: no stream now (the client tries again)
        counted.give_back(address)
        await events.stop(listener)
        raise api_error(503, TransportCode.REDIS_UNAVAILABLE, str(error)) from error
    except BaseException:  # the database away (a 503 from the app's handler), or the client left
        counted.give_back(address)
        await events.stop(listener)
        raise

    async def stream() -> AsyncIterator[str]:
        try:
            for invitation in waiting:
                yield sse(LobbyEvent.INVITATION, invitation)
            for opening in first:  # "My games" and the public tables
                yield opening
            yield sse(LobbyEvent.READY, StreamReady(player_id=player.id, heartbeat_s=settings.lobby_heartbeat_s))
            while True:
                text = await listener.next(settings.lobby_heartbeat_s)
                if text is None:
                    return  # closed here: too slow, or the server is restarting (the client reconnects)
                yield text or ": heartbeat\n\n"
        finally:
            await events.stop(listener)

    async def release() -> None:
        counted.give_back(address)
        await events.stop(listener)  # also when the stream never began (the client left at once)

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"},
        background=BackgroundTask(release),
    )
