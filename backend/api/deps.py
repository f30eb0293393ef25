"""Request dependencies: the services and the authenticated player."""

from __future__ import annotations

import asyncio
from typing import Annotated, cast

from fastapi import Depends, HTTPException, Request

from backend.db.models import Player
from backend.db.store import Store
from backend.rooms.service import Rooms

from .codes import TransportCode


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
    return await asyncio.to_thread(store.player_by_token, token)


async def optional_player(request: Request, store: Annotated[Store, Depends(get_store)]) -> Player | None:
    """The player whose token came with the request, or None (no token, or one no player has)."""
    token = token_from(request.headers.get("authorization"), request.cookies.get("token"))
    return await player_for_token(store, token)


async def current_player(request: Request, store: Annotated[Store, Depends(get_store)]) -> Player:
    player = await optional_player(request, store)
    if player is None:
        raise api_error(401, TransportCode.UNAUTHORIZED, "a valid player token is needed")
    return player


CurrentPlayer = Annotated[Player, Depends(current_player)]
# For what strangers may read too (a replay): never refuses, never creates a player.
OptionalPlayer = Annotated[Player | None, Depends(optional_player)]
StoreDep = Annotated[Store, Depends(get_store)]
RoomsDep = Annotated[Rooms, Depends(get_rooms)]
