""" "Play again": the recent opponents a player can invite, and the messages of the lobby's event stream.

``GET /api/me/opponents`` answers ``RecentOpponent`` items; ``POST /api/me/opponents/{id}/invite``
answers ``Invited``; ``GET /api/me/events`` sends ``Invitation``, ``InvitationGone``, ``MyGames``,
``LobbyTables`` and ``StreamReady`` as Server-Sent Events, each the JSON of its model under the event name of
``LobbyEvent`` (docs/protocol.md, "The lobby's event stream").
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from backend.rooms.messages import OptionsOut, RoomOut

from .codes import InvitationEnd, LobbyEvent


class LobbyOut(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Person(LobbyOut):
    id: str
    name: str


class RecentOpponent(LobbyOut):
    """A person the player sat at a table with, and the last match they played together."""

    id: str
    name: str
    last_played: datetime = Field(description="when that last match started")
    match_id: str
    room_id: str
    options: OptionsOut = Field(description="the last match's options: the next table is made with them")


class Invited(LobbyOut):
    """The private table made for a recent opponent, who was invited to it."""

    room: RoomOut = Field(description="the new table, with its invite code to share")
    invitee: Person
    online: bool = Field(description="the invitee has the lobby open now and saw the invitation at once")


class Invitation(LobbyOut):
    """``invitation``: a recent opponent made a private table for the player and invites them to it."""

    room_id: str
    invite_code: str = Field(description="joins the table: POST /api/invites/{invite_code}/join")
    inviter: Person
    options: OptionsOut
    created_at: datetime
    expires_at: datetime = Field(description="the invitation is forgotten after this (an open table's lifetime)")


class InvitationGone(LobbyOut):
    """``invitation_gone``: the invitation to ``room_id`` is no longer on offer."""

    room_id: str
    reason: InvitationEnd


class LastMove(LobbyOut):
    """The newest action of a table's match, as "My games" tells it ("Anna played K♥")."""

    seat: int
    kind: Literal["play", "bid", "pass", "discard", "resign"]
    card: str | None = Field(default=None, description="the card played (a play)")
    amount: int | None = Field(default=None, description="the bid (a bid)")
    at: datetime


class MyGame(LobbyOut):
    """One table the player sits at, open or being played (``GET /api/me/games``, ``games``)."""

    room: RoomOut = Field(description="the table: ``turn`` and ``turn_deadline`` say who is to act, until when")
    seat: int = Field(description="the player's own seat")
    my_turn: bool = Field(description="the game waits for this player")
    last_move: LastMove | None = None


class MyGames(LobbyOut):
    """``games``: every table the player sits at, the player's turn first (the soonest deadline
    first), then the others' turn, then the tables waiting for players; sent when the stream opens
    and again whenever one of them changes."""

    games: list[MyGame]
    waiting: int = Field(description="how many of them wait for the player (the page title and the app badge)")


class LobbyTables(LobbyOut):
    """``tables``: the public tables waiting for players and the public matches one may watch (as
    ``GET /api/rooms`` and ``GET /api/rooms/watchable``); sent when the stream opens and whenever
    they change."""

    open: list[RoomOut]
    watchable: list[RoomOut]


class StreamReady(LobbyOut):
    """``ready``: the stream is listened to; waiting invitations were sent just before it."""

    player_id: str
    heartbeat_s: float = Field(description="a comment line comes at least this often while nothing else does")


def sse(event: LobbyEvent, message: LobbyOut) -> str:
    """One Server-Sent Event: its name and its JSON on one data line."""
    return f"event: {event.value}\ndata: {message.model_dump_json()}\n\n"
