"""Request dependencies: the services and the authenticated player."""

from __future__ import annotations

import asyncio
import math
from typing import Annotated, Any, cast

from fastapi import Depends, HTTPException, Request

from backend.db.models import Player
from backend.db.store import Store
from backend.rooms.service import Rooms

from .codes import TransportCode
from .limits import Group, Limiter


def api_error(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status_code=status, detail={"code": code, "message": message})


def get_store(request: Request) -> Store:
    return cast(Store, request.app.state.store)


def get_rooms(request: Request) -> Rooms:
    return cast(Rooms, request.app.state.rooms)


def token_from(authorization: str | None, cookie: str | None) -> str | None:
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return cookie or None


async def player_for_token(store: Store, token: str | None) -> Player | None:
    if not token or len(token) > 200:
        return None
    return await asyncio.to_thread(store.players.by_token, token)


async def optional_player(request: Request, store: Annotated[Store, Depends(get_store)]) -> Player | None:
    """The player whose token came with the request, or None (no token, or one no player has)."""
    token = token_from(request.headers.get("authorization"), request.cookies.get("token"))
    return await player_for_token(store, token)


async def current_player(player: Annotated[Player | None, Depends(optional_player)]) -> Player:
    if player is None:
        raise api_error(401, TransportCode.UNAUTHORIZED, "a valid player token is needed")
    return player


def client_address(request: Request) -> str | None:
    """The client's address; behind the proxy the forwarded one (uvicorn trusts it from the proxy only)."""
    return request.client.host if request.client else None


def limited(group: Group) -> Any:
    """A route dependency: the request counts against ``group``'s limits, per address and per player
    (the token's, if it has one), or is answered ``429 rate_limited`` with ``Retry-After``."""

    async def check(request: Request, player: Annotated[Player | None, Depends(optional_player)]) -> None:
        limiter: Limiter | None = request.app.state.limiter
        if limiter is None:
            return
        wait = await limiter.check(group, client_address(request), player.id if player else None)
        if wait is not None:
            seconds = math.ceil(wait)
            message = f"too many requests; try again in {seconds} s"
            raise HTTPException(
                status_code=429,
                detail={"code": TransportCode.RATE_LIMITED, "message": message},
                headers={"Retry-After": str(seconds)},
            )

    return Depends(check)


CurrentPlayer = Annotated[Player, Depends(current_player)]
# For what strangers may read too (a replay): never refuses, never creates a player.
OptionalPlayer = Annotated[Player | None, Depends(optional_player)]
StoreDep = Annotated[Store, Depends(get_store)]
RoomsDep = Annotated[Rooms, Depends(get_rooms)]
