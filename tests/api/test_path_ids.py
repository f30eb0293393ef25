"""The ids and codes in REST paths (backend/api/params.py): an id longer than any the server makes
is answered as an unknown one — the same status and code — before anything is looked up, and only
once the asker is known (``401`` first without a token)."""

from __future__ import annotations

import httpx
import pytest

from backend.api.params import ID_LENGTH
from tests.support.client import Player
from tests.support.services import ServerProcess

TOO_LONG = "r_" + "x" * ID_LENGTH

# (method, path, body, status, code): for an overlong id, and for an unknown one of the right length.
ROUTES = [
    ("GET", "/api/rooms/{id}", None, 404, "room_not_found"),
    ("POST", "/api/rooms/{id}/join", None, 404, "room_not_found"),
    ("POST", "/api/rooms/{id}/leave", None, 404, "room_not_found"),
    ("POST", "/api/rooms/{id}/computers", {}, 404, "room_not_found"),
    ("PATCH", "/api/rooms/{id}", {"spectators": False}, 404, "room_not_found"),
    ("POST", "/api/rooms/{id}/watch-link", None, 404, "room_not_found"),
    ("GET", "/api/invites/{id}", None, 404, "room_not_found"),
    ("POST", "/api/invites/{id}/join", None, 404, "room_not_found"),
    ("GET", "/api/invites/{id}/preview", None, 404, "room_not_found"),
    ("GET", "/api/matches/{id}", None, 404, "match_not_found"),
    ("GET", "/api/matches/{id}/replay", None, 404, "match_not_found"),
    ("GET", "/api/matches/{id}/deals/0/replay", None, 404, "match_not_found"),
    ("GET", "/api/players/{id}/ratings", None, 404, "player_not_found"),
    ("POST", "/api/me/invitations/{id}/decline", None, 404, "invitation_unknown"),
]
# the replays and an invitation's preview answer without a player too
SIGNED_IN_ONLY = {path for _, path, _, _, _ in ROUTES if "replay" not in path and "preview" not in path}


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), ROUTES)
async def test_an_overlong_id_is_answered_as_an_unknown_one(
    shared_server: ServerProcess, method: str, path: str, body: object, status: int, code: str
) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    for named in (TOO_LONG, "r_unknown"):
        answer = await anna.request(method, path.format(id=named), json=body)
        assert (answer.status_code, answer.json()["detail"]["code"]) == (status, code), (named, answer.text)
    async with httpx.AsyncClient(base_url=shared_server.url) as stranger:
        answer = await stranger.request(method, path.format(id=TOO_LONG), json=body)
    expected = (401, "unauthorized") if path in SIGNED_IN_ONLY else (status, code)
    assert (answer.status_code, answer.json()["detail"]["code"]) == expected
