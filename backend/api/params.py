"""The ids and codes that REST paths carry, each one annotated type checked in one place.

Every id and code the server makes is at most ``ID_LENGTH`` characters (``new_id``, invite codes):
a longer one names nothing, and is answered as an unknown one is — ``404`` with the route's code —
before anything is looked up.

The check is an ``AfterValidator`` raising the answer itself rather than ``Path(max_length=…)``,
which would answer ``422`` and document a limit no client needs, or a ``Depends``, which is solved
in the order the parameters are declared (an id declared before the player would be refused before
a missing token is: ``401`` first, as before, would rest on that order) and would move the
parameter in the OpenAPI document. Path parameters are checked once the dependencies are solved,
and pydantic lets any exception but ``ValueError`` and ``AssertionError`` pass through a
validator, so FastAPI answers this ``HTTPException`` as it is — before the body is read: an
overlong id with a bad body too is answered ``404``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from pydantic import AfterValidator

from backend.rooms.codes import RoomCode

from .codes import FriendCode, TransportCode
from .deps import api_error

ID_LENGTH = 40


def id_fits(text: str) -> bool:
    """Could the server have made this id or code?"""
    return len(text) <= ID_LENGTH


def _known_length(code: str, words: Callable[[str], str]) -> AfterValidator:
    def check(value: str) -> str:
        if not id_fits(value):
            raise api_error(404, code, words(value))
        return value

    return AfterValidator(check)


RoomId = Annotated[str, _known_length(RoomCode.ROOM_NOT_FOUND, lambda room_id: f"no table {room_id!r}")]
InviteCode = Annotated[str, _known_length(RoomCode.ROOM_NOT_FOUND, lambda _: "no table has this invite code")]
MatchId = Annotated[str, _known_length(TransportCode.MATCH_NOT_FOUND, lambda match_id: f"no match {match_id!r}")]
PlayerId = Annotated[str, _known_length(TransportCode.PLAYER_NOT_FOUND, lambda player_id: f"no player {player_id!r}")]
# The room of an invitation to decline: an unknown one is no invitation (``404 invitation_unknown``).
InvitationId = Annotated[
    str, _known_length(FriendCode.INVITATION_UNKNOWN, lambda _: "no such invitation waits for you")
]
