"""The socket messages the server sends, for clients and tests: the models live with the rooms
(``backend.rooms.messages``); this checks a received message against them."""

from __future__ import annotations

from typing import Any

from backend.rooms.messages import ServerMessage, server_message

__all__ = ["ServerMessage", "validate_server_message"]


def validate_server_message(message: dict[str, Any]) -> None:
    """Raise ``pydantic.ValidationError`` if ``message`` is not one the server may send."""
    server_message.validate_python(message)
