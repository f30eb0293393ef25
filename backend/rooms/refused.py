"""A room's refusal as an exception, for the layers that carry commands to rooms (the API maps
``code`` to an answer), and the refusals they make themselves."""

from __future__ import annotations

from .codes import RoomCode
from .effects import Refusal


class RoomRefused(Exception):
    """A room refused a command; the API maps ``code`` to an answer."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.code = refusal.code
        self.message = refusal.message


UNAVAILABLE = Refusal(RoomCode.UNAVAILABLE, "the table is moving to another server; nothing changed, try again")
DATABASE_AWAY = Refusal(RoomCode.UNAVAILABLE, "the database is unreachable for a moment; try again")


def no_table(room_id: str) -> RoomRefused:
    return RoomRefused(Refusal(RoomCode.ROOM_NOT_FOUND, f"no table {room_id!r}"))
