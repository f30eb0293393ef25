"""Hostile REST input: refused with a clear 4xx, stored and returned verbatim, and nobody reads
what is not theirs — no token but one's own (once, at sign-up), no stranger's match, no private table."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import httpx
import pytest

from tests.support.services import ServerProcess

from .helpers import SyncSeat, auth, register

MARKUP_NAMES = [
    "<img src=x onerror=1>",
    "<b>bold</b>",
    "\"'><svg onload=x>",
    "&amp;&lt;&#x27;",
    "{{7*7}} ${7*7}",
    "Robert'); DROP TABLE--",
    "Zoë 🂡 中文 עברית",
]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/players", {}, "name"),
        ("/api/players", {"name": ""}, "name"),
        ("/api/players", {"name": "x" * 25}, "name"),
        ("/api/players", {"name": "\x00null"}, "name"),
        ("/api/players", {"name": "line\nbreak"}, "name"),
        ("/api/players", {"name": "\u202eevil"}, "name"),  # bidi override: not printable
        ("/api/players", {"name": ["Anna"]}, "name"),
        ("/api/players", {"name": {"$ne": ""}}, "name"),
        ("/api/players", {"name": 10**30}, "name"),
        ("/api/players", {"name": "x" * 1_000_000}, "name"),
        ("/api/players", {"name": "Anna", "token": "mine"}, "token"),
        ("/api/players", [1, 2], "body"),
        ("/api/players", "Anna", "body"),
        ("/api/rooms", {"target": 1001.5}, "target"),
        ("/api/rooms", {"target": "1001 OR 1=1"}, "target"),
        ("/api/rooms", {"stake_per_point": "NaN"}, "stake_per_point"),
        ("/api/rooms", {"stake_per_point": "Infinity"}, "stake_per_point"),
        ("/api/rooms", {"stake_per_point": "1e999999"}, "stake_per_point"),
        ("/api/rooms", {"stake_per_point": "0.0000001"}, "stake_per_point"),
        ("/api/rooms", {"stake_per_point": "1" * 40}, "stake_per_point"),
        ("/api/rooms", {"stake_per_point": -0.01}, "stake_per_point"),
        ("/api/rooms", {"stake_per_point": 1e308}, "stake_per_point"),
        ("/api/rooms", {"currency": "x" * 13}, "currency"),
        ("/api/rooms", {"currency": "\t"}, "currency"),
        ("/api/rooms", {"deck_size": 52}, "deck_size"),
        ("/api/rooms", {"show_stock_bottom": "maybe"}, "show_stock_bottom"),
        ("/api/rooms", {"visibility": None}, "visibility"),
        ("/api/rooms", {"reconnect_grace_s": 10**12}, "reconnect_grace_s"),
        ("/api/rooms", {"options": {"target": 301}}, "options"),
    ],
)
def test_bodies_that_do_not_validate_get_a_4xx_naming_the_field(
    module_sqlite_server: ServerProcess, path: str, body: Any, field: str
) -> None:
    anna = register(module_sqlite_server.url, "Anna")
    answer = httpx.post(module_sqlite_server.url + path, json=body, headers=auth(anna["token"]), timeout=30)
    assert 400 <= answer.status_code < 500, (body, answer.status_code, answer.text[:300])
    assert answer.headers["content-type"].startswith("application/json")
    detail = answer.json()["detail"]
    assert detail, answer.text[:300]
    if field != "body":
        assert field in json.dumps(detail), (body, answer.text[:300])


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        (b"", "application/json"),
        (b"{", "application/json"),
        (b"\xff\xfe\x00", "application/json"),
        (b'{"name": "Anna"}', "text/html"),
        (b"name=Anna", "application/x-www-form-urlencoded"),
        (b'{"name": "Anna", "name": {"a": "' + b"[" * 5000 + b'"}}', "application/json"),
        (b"[" * 3000 + b"]" * 3000, "application/json"),
    ],
)
def test_malformed_bodies_are_refused_not_crashing(
    module_sqlite_server: ServerProcess, content: bytes, content_type: str
) -> None:
    answer = httpx.post(
        f"{module_sqlite_server.url}/api/players", content=content, headers={"content-type": content_type}, timeout=30
    )
    assert 400 <= answer.status_code < 500, (content[:50], answer.status_code, answer.text[:300])
    assert "token" not in answer.json() if answer.headers["content-type"].startswith("application/json") else True


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": ""},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer \t x"},
        {"Authorization": "Basic QW5uYTpwdw=="},
        {"Authorization": "Bearer " + "x" * 8000},
        {"Authorization": "Bearer ' OR '1'='1"},
        {"Authorization": "bearer%00"},
        {"Cookie": "token=" + "y" * 4000},
        {"Cookie": "token="},
    ],
)
def test_junk_credentials_are_401(module_sqlite_server: ServerProcess, headers: dict[str, str]) -> None:
    for path in ("/api/me", "/api/rooms/mine", "/api/matches", "/api/ledger"):
        answer = httpx.get(module_sqlite_server.url + path, headers=headers, timeout=10)
        assert answer.status_code == 401, (path, headers, answer.status_code)
        assert answer.json()["detail"]["code"] == "unauthorized"


def test_markup_in_names_and_chat_comes_back_verbatim_as_json(module_sqlite_server: ServerProcess) -> None:
    url = module_sqlite_server.url
    for name in MARKUP_NAMES:
        created = httpx.post(f"{url}/api/players", json={"name": name}, timeout=10)
        assert created.status_code == 201 and created.headers["content-type"] == "application/json"
        assert created.json()["name"] == name
        me = httpx.get(f"{url}/api/me", headers=auth(created.json()["token"]), timeout=10)
        assert me.json()["name"] == name and me.headers["content-type"] == "application/json"
    anna = register(url, MARKUP_NAMES[0])
    ben = register(url, MARKUP_NAMES[2])
    room = httpx.post(f"{url}/api/rooms", json={"currency": "<i>€</i>"}, headers=auth(anna["token"])).json()
    assert room["options"]["currency"] == "<i>€</i>"
    joined = httpx.post(f"{url}/api/rooms/{room['id']}/join", headers=auth(ben["token"])).json()
    assert [p["name"] for p in joined["players"]] == [MARKUP_NAMES[0], MARKUP_NAMES[2]]
    seat = SyncSeat.open(module_sqlite_server.ws_url, room["id"], ben["token"])
    assert [p["name"] for p in seat.hello()["room"]["players"]] == [MARKUP_NAMES[0], MARKUP_NAMES[2]]
    line = "<script>alert(document.cookie)</script>"
    echo = seat.intent({"type": "chat", "version": 0, "text": line})
    assert echo["text"] == line and echo["name"] == MARKUP_NAMES[2]
    seat.close()


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_no_endpoint_returns_a_token_or_another_players_data(module_sqlite_server: ServerProcess) -> None:
    url, ws_url = module_sqlite_server.url, module_sqlite_server.ws_url
    anna, ben, cleo = (register(url, n) for n in ("Anna", "Ben", "Cleo"))
    secrets = [p["token"] for p in (anna, ben, cleo)]
    secrets += [hashlib.sha256(t.encode()).hexdigest() for t in list(secrets)]

    def call(method: str, path: str, who: dict[str, str] | None, **kwargs: Any) -> httpx.Response:
        answer = httpx.request(method, url + path, headers=auth(who["token"]) if who else {}, timeout=10, **kwargs)
        assert answer.status_code < 500, (path, answer.text[:300])
        assert not any(secret in answer.text for secret in secrets), (path, "a token or its hash leaked")
        if answer.content and answer.headers["content-type"].startswith("application/json"):
            assert not {"token", "token_hash"} & _keys(answer.json()), path
        return answer

    # Anna and Ben finish a staked match (Anna resigns); Anna also opens a public and a private table.
    played = call("POST", "/api/rooms", anna, json={"stake_per_point": "0.5", "currency": "EUR", "target": 301}).json()
    call("POST", f"/api/rooms/{played['id']}/join", ben)
    seats = [SyncSeat.open(ws_url, played["id"], p["token"]) for p in (anna, ben)]
    seats[0].intent({"type": "resign", "version": seats[0].hello()["version"]})
    match_id = played["match_id"] or call("GET", f"/api/rooms/{played['id']}", anna).json()["match_id"]
    public = call("POST", "/api/rooms", anna, json={}).json()
    private = call("POST", "/api/rooms", anna, json={"visibility": "private"}).json()
    assert public["invite_code"] and private["invite_code"]  # the creator sees them

    # Cleo, a stranger: 404 wherever only seated players may look, nothing of theirs in any list
    for method, path in [
        ("GET", f"/api/matches/{match_id}"),
        ("GET", f"/api/rooms/{private['id']}"),
        ("POST", f"/api/rooms/{private['id']}/join"),
        ("POST", f"/api/rooms/{private['id']}/leave"),
    ]:
        answer = call(method, path, cleo)
        assert answer.status_code == 404, (path, answer.status_code)
    assert call("GET", "/api/matches", cleo).json()["total"] == 0
    assert call("GET", "/api/ledger", cleo).json() == []
    assert call("GET", "/api/rooms/mine", cleo).json() == []
    for viewer in (None, cleo, ben):
        listed = call("GET", "/api/rooms", viewer).json()
        assert private["id"] not in [r["id"] for r in listed]
        assert all(r["visibility"] == "public" and r["invite_code"] is None for r in listed)
    seen_public = call("GET", f"/api/rooms/{public['id']}", cleo).json()
    assert seen_public["invite_code"] is None
    assert call("GET", f"/api/rooms/{played['id']}", cleo).json()["invite_code"] is None
    by_invite = call("GET", f"/api/invites/{private['invite_code']}", cleo).json()
    assert by_invite["invite_code"] is None  # knowing the link lets you join, not re-share it from the API

    # the players themselves see their own match, and every endpoint is crawled for leaks
    for who in (anna, ben):
        for path in [
            "/api/me",
            "/api/rooms",
            "/api/rooms/mine",
            f"/api/rooms/{played['id']}",
            f"/api/rooms/{public['id']}",
            "/api/matches",
            f"/api/matches/{match_id}",
            "/api/ledger",
            f"/api/invites/{private['invite_code']}",
        ]:
            call("GET", path, who)
    detail = call("GET", f"/api/matches/{match_id}", ben).json()
    assert detail["result"] == "won" and detail["stake"]["balance"] == "150.5"
    for seat in seats:
        for message in [*seat.drain(), seat.hello()]:
            text = json.dumps(message)
            assert not any(secret in text for secret in secrets)
        seat.close()
