"""Another device: a one-time, short-lived sign-in link moves a player, never their token, to a new device."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from backend.api.app import create_app
from backend.api.routes import request_now
from backend.db.store import Store
from backend.settings import Settings
from tests.support.client import Player
from tests.support.services import ServerProcess

T0 = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)


async def _redeem(base_url: str, code: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.post("/api/device-links/redeem", json={"code": code})


async def test_a_link_signs_the_same_player_in_once(shared_server: ServerProcess) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    created = await anna.request("POST", "/api/device-links", headers={"Origin": shared_server.url})
    assert created.status_code == 201
    link: dict[str, Any] = created.json()
    assert set(link) == {"code", "expires_at", "qr_svg"}
    assert anna.token not in link["code"] and anna.token not in link["qr_svg"]
    expires = datetime.fromisoformat(link["expires_at"])
    assert timedelta(minutes=9) < expires - datetime.now(UTC) <= timedelta(minutes=10)  # the default: 10 min
    assert link["qr_svg"].startswith('<svg xmlns="http://www.w3.org/2000/svg"') and "<script" not in link["qr_svg"]

    redeemed = await _redeem(shared_server.url, link["code"])
    assert redeemed.status_code == 200
    other = redeemed.json()
    assert (other["id"], other["name"]) == (anna.id, "Anna") and other["token"] != anna.token
    phone = Player(shared_server.url, "Anna", other["id"], other["token"])
    assert await phone.get("/api/me") == {"id": anna.id, "name": "Anna"}
    assert await anna.get("/api/me") == {"id": anna.id, "name": "Anna"}  # the first device stays signed in

    again = await _redeem(shared_server.url, link["code"])
    assert again.status_code == 410 and again.json()["detail"]["code"] == "device_link_used"
    unknown = await _redeem(shared_server.url, "no-such-code")
    assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "device_link_unknown"


async def test_making_a_link_needs_the_players_token(shared_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        answer = await http.post("/api/device-links")
    assert answer.status_code == 401 and answer.json()["detail"]["code"] == "unauthorized"
    bad = await _redeem(shared_server.url, "")
    assert bad.status_code == 422


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def app_and_clock(database_url: str, tmp_path: Path) -> Iterator[tuple[FastAPI, Clock, Store]]:
    """The app in this process with its clock injected (no lifespan: the device routes need only the store)."""
    app = create_app(Settings(database_url=database_url, device_link_ttl_s=600, frontend_dir=tmp_path))
    store = Store(database_url)
    app.state.store = store
    clock = Clock()
    app.dependency_overrides[request_now] = clock
    yield app, clock, store
    store.dispose()


async def test_a_link_expires_after_its_time(app_and_clock: tuple[FastAPI, Clock, Store]) -> None:
    app, clock, store = app_and_clock
    _, token = store.players.create("Anna")
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
        first = (await client.post("/api/device-links", headers=auth)).json()
        assert datetime.fromisoformat(first["expires_at"]) == T0 + timedelta(seconds=600)
        clock.now = T0 + timedelta(seconds=599)
        assert (await client.post("/api/device-links/redeem", json={"code": first["code"]})).status_code == 200

        clock.now = T0
        second = (await client.post("/api/device-links", headers=auth)).json()
        clock.now = T0 + timedelta(seconds=600)
        late = await client.post("/api/device-links/redeem", json={"code": second["code"]})
    assert late.status_code == 410 and late.json()["detail"]["code"] == "device_link_expired"
