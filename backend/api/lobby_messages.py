""" "Play again": the recent opponents a player can invite, and the messages of the lobby's event stream.

``GET /api/me/opponents`` answers ``RecentOpponent`` items; ``POST /api/me/opponents/{id}/invite``
answers ``Invited``; ``GET /api/me/events`` sends ``Invitation``, ``InvitationGone`` and
``StreamReady`` as Server-Sent Events, each the JSON of its model under the event name of
``LobbyEvent`` (docs/protocol.md, "The lobby's event stream").
"""

from __future__ import annotations

from datetime import datetime

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


class StreamReady(LobbyOut):
    """``ready``: the stream is listened to; waiting invitations were sent just before it."""

    player_id: str
    heartbeat_s: float = Field(description="a comment line comes at least this often while nothing else does")


def sse(event: LobbyEvent, message: LobbyOut) -> str:
    """One Server-Sent Event: its name and its JSON on one data line."""
    return f"event: {event.value}\ndata: {message.model_dump_json()}\n\n"
