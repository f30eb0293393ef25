"""Another device: a one-time sign-in link (and its QR code) moves a player to a second browser with the
same history and ledger; the long-lived token never appears in a URL, and a used link is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect
from websockets.sync.client import connect

from backend.api.codes import PROTOCOL
from tests.support.services import ServerProcess

from .conftest import DESKTOP, PHONE
from .helpers import open_seat


def _finished_staked_match(base_url: str, ws_url: str) -> tuple[dict[str, Any], str]:
    """Anna and Ben over REST and a socket: a staked match that Anna resigns. Returns Anna and the match id."""
    with httpx.Client(base_url=base_url) as http:
        anna = http.post("/api/players", json={"name": "Anna"}).json()
        ben = http.post("/api/players", json={"name": "Ben"}).json()
        as_anna = {"Authorization": f"Bearer {anna['token']}"}
        options = {"target": 301, "stake_per_point": "0.05", "currency": "EUR"}
        room = http.post("/api/rooms", json=options, headers=as_anna).json()
        http.post(f"/api/invites/{room['invite_code']}/join", headers={"Authorization": f"Bearer {ben['token']}"})
        ticket = http.post("/api/socket-ticket", headers=as_anna).json()["ticket"]
        with connect(f"{ws_url}/ws/rooms/{room['id']}?ticket={ticket}&protocol={PROTOCOL}") as socket:
            state = json.loads(socket.recv(timeout=10))
            assert state["type"] == "state" and state["resign_price"] is not None
            socket.send(json.dumps({"type": "resign", "id": 1, "version": state["version"]}))
            while True:
                message = json.loads(socket.recv(timeout=10))
                if message["type"] == "state" and message.get("reply_to") == 1:
                    break
        [match] = http.get("/api/matches", headers=as_anna).json()["items"]
    return anna, match["id"]


def test_a_sign_in_link_moves_a_player_to_another_browser_once(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    anna, match_id = _finished_staked_match(e2e_server.url, e2e_server.ws_url)
    desktop = open_seat(browser, e2e_server.url, "Anna", DESKTOP)
    phone = open_seat(browser, e2e_server.url, "Anna's phone", PHONE, is_mobile=True, has_touch=True)
    stranger = open_seat(browser, e2e_server.url, "Someone else", PHONE)
    urls: list[str] = []
    for seat in (desktop, phone, stranger):
        seat.page.on("request", lambda request: urls.append(request.url))
    try:
        page = desktop.page
        page.goto("/")
        player = {"id": anna["id"], "name": "Anna", "token": anna["token"]}
        page.evaluate("p => localStorage.setItem('1001.player', JSON.stringify(p))", player)
        page.goto("/#/history")
        page.reload()  # the page frame reads the stored player on load
        expect(page.get_by_test_id(f"match-row-{match_id}")).to_be_visible()
        page.get_by_test_id("device-open").click()
        expect(page).to_have_url(f"{e2e_server.url}/#/device")
        link_field = page.get_by_test_id("device-link")
        expect(link_field).to_be_visible()
        link = link_field.input_value()
        assert link.startswith(f"{e2e_server.url}/#/signin/") and anna["token"] not in link
        qr = page.get_by_test_id("device-qr")
        expect(qr).to_be_visible()
        assert qr.get_attribute("src").startswith("data:image/svg+xml")  # type: ignore[union-attr]
        assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
        expect(page.get_by_test_id("device-expiry")).not_to_be_empty()
        page.screenshot(path=str(artifacts / "device-link-desktop.jpg"))

        # The header's player chip leads here too.
        page.goto("/#/rules")
        page.get_by_test_id("player-chip").click()
        expect(page).to_have_url(f"{e2e_server.url}/#/device")

        # The phone opens the link: it is Anna, with her history and ledger.
        phone.page.goto(link)
        expect(phone.page).to_have_url(f"{e2e_server.url}/#/history")
        expect(phone.page.get_by_test_id(f"match-row-{match_id}")).to_be_visible()
        expect(phone.page.get_by_test_id("ledger-name")).to_have_text("Ben")
        expect(phone.page.get_by_test_id("ledger-balance")).not_to_be_empty()
        stored = phone.page.evaluate("() => JSON.parse(localStorage.getItem('1001.player'))")
        assert stored["id"] == anna["id"] and stored["name"] == "Anna" and stored["token"] != anna["token"]
        expect(phone.page.get_by_test_id("player-chip")).to_have_text("Anna")
        phone.page.screenshot(path=str(artifacts / "device-link-phone-history.jpg"))
        phone.page.goto("/#/device")  # the phone can make a link of its own, and the page fits it
        expect(phone.page.get_by_test_id("device-qr")).to_be_visible()
        assert phone.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        phone.page.screenshot(path=str(artifacts / "device-link-phone.jpg"), full_page=True)

        # The same link a second time: refused, in words.
        stranger.page.goto(link)
        error = stranger.page.get_by_test_id("signin-error")
        expect(error).to_be_visible()
        expect(error).to_have_attribute("data-code", "device_link_used")
        expect(error).to_contain_text("already been used")
        assert stranger.page.evaluate("() => localStorage.getItem('1001.player')") is None
        stranger.page.screenshot(path=str(artifacts / "device-link-used.jpg"))

        # An expired link (the server's clock is tested in tests/api/test_device_links.py; here the
        # browser is handed the server's answer, so nobody waits ten minutes): refused in words.
        expired = {"detail": {"code": "device_link_expired", "message": "this sign-in link has expired"}}
        stranger.page.route(
            "**/api/device-links/redeem",
            lambda route: route.fulfill(status=410, content_type="application/json", body=json.dumps(expired)),
        )
        stranger.page.goto("/#/signin/an-old-code")
        expect(error).to_have_attribute("data-code", "device_link_expired")
        expect(error).to_contain_text("has expired")
        assert stranger.page.evaluate("() => localStorage.getItem('1001.player')") is None

        assert not any(anna["token"] in url or stored["token"] in url for url in urls)  # tokens never in a URL
        for seat in (desktop, phone):
            assert not seat.errors, seat.errors
        assert all("status of 410" in error for error in stranger.errors), stranger.errors  # the refused redeem
    finally:
        for seat in (desktop, phone, stranger):
            seat.context.close()
