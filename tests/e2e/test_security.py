"""The client under its Content-Security-Policy (issue 23): every page — the lobby, the rules, the
history and a match page, a replay, another device, tables of two, three and four, watching one —
runs without one violation; and a player signs out the other devices and deletes the account."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import DESKTOP, PHONE
from .helpers import Seat, choose_name, open_seat
from .test_polish_pages import scripted_history, sign_in

pytestmark = pytest.mark.browser

# Every violation the page reports, whatever its kind (script, style attribute, socket, image …).
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.effectiveDirective} ${e.blockedURI || 'inline'} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def violations(seat: Seat) -> list[str]:
    found: list[str] = seat.page.evaluate("window.__violations || []")
    return found + [error for error in seat.errors if "Content Security Policy" in error]


def api(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return page.evaluate(
        """async ([method, path, body]) => {
          const { token } = JSON.parse(localStorage.getItem('1001.player'));
          const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
          const answer = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
          return answer.status === 204 ? null : answer.json();
        }""",
        [method, path, body],
    )


def visit(seat: Seat, hash_path: str, testid: str) -> None:
    seat.page.goto(f"/{hash_path}")
    expect(seat.page.get_by_test_id(testid).first).to_be_visible()
    assert not violations(seat), (hash_path, violations(seat))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_runs_under_the_policy_without_a_violation(
    e2e_server: ServerProcess, browser: Any, viewport: dict[str, int]
) -> None:
    history = scripted_history(e2e_server.url, deals=1)
    seat = open_seat(browser, e2e_server.url, "Strict", viewport)
    seat.context.add_init_script(WATCH_VIOLATIONS)
    try:
        page = seat.page
        sign_in(page, history["player"], "en")
        policy = page.evaluate("fetch('/').then((r) => r.headers.get('content-security-policy'))")
        assert "script-src 'self'" in policy and "unsafe" not in policy
        visit(seat, "#/", "site-header")
        visit(seat, "#/rules", "rules-exact-toggle")
        visit(seat, "#/history", f"match-row-{history['match_id']}")
        visit(seat, f"#/history/{history['match_id']}", "match-detail")
        visit(seat, f"#/replay/{history['match_id']}/0", "replay-step")
        visit(seat, "#/device", "device-qr")
        tables = {
            "two-hand": {"opponent": "computer", "bot_level": "easy", "target": 301},
            "three": {"variant": "mcleod", "computer_seats": 2, "bot_level": "easy"},
            "four": {"variant": "bidding", "seats": 4, "computer_seats": 3, "bot_level": "easy"},
        }
        for options in tables.values():
            room = api(page, "POST", "/api/rooms", options)
            visit(seat, f"#/table/{room['id']}", "hand")
            expect(page.get_by_test_id("hand").locator(".card").first).to_be_visible()
            assert not violations(seat), (options, violations(seat))
            code = api(page, "POST", f"/api/rooms/{room['id']}/watch-link")["code"]
            visit(seat, f"#/watch/{room['id']}/{code}", "seat-0-cards")
        assert not violations(seat), violations(seat)
    finally:
        seat.context.close()


def test_a_player_signs_the_other_devices_out_then_deletes_the_account(e2e_server: ServerProcess, browser: Any) -> None:
    laptop = open_seat(browser, e2e_server.url, "Laptop", DESKTOP)
    phone = open_seat(browser, e2e_server.url, "Phone", PHONE, is_mobile=True, has_touch=True)
    try:
        laptop.page.goto("/")
        choose_name(laptop.page, "Mira")
        expect(laptop.page.get_by_test_id("player-chip")).to_be_visible()
        laptop.page.goto("/#/device")
        link = laptop.page.get_by_test_id("device-link").input_value()
        phone.page.goto(link.replace(e2e_server.url, ""))
        expect(phone.page).to_have_url(f"{e2e_server.url}/#/history")
        laptop_token = laptop.page.evaluate("JSON.parse(localStorage.getItem('1001.player')).token")

        phone.page.goto("/#/device")
        phone.page.get_by_test_id("account-sign-out-others").click()
        expect(phone.page.get_by_test_id("account-note")).to_contain_text("1 other device")
        assert (
            httpx.get(f"{e2e_server.url}/api/me", headers={"Authorization": f"Bearer {laptop_token}"}).status_code
            == 401
        )
        laptop.page.goto("/#/history")
        laptop.page.reload()  # its first request is refused: the page forgets the player
        laptop.page.wait_for_function("() => localStorage.getItem('1001.player') === null")
        expect(laptop.page.get_by_test_id("player-chip")).to_be_hidden()
        laptop.page.goto("/#/")
        expect(laptop.page.get_by_test_id("name-input")).to_be_visible()  # asked for a name again

        phone_token = phone.page.evaluate("JSON.parse(localStorage.getItem('1001.player')).token")
        phone.page.get_by_test_id("account-delete").click()
        expect(phone.page.get_by_test_id("account-delete-confirm")).to_be_visible()
        phone.page.get_by_test_id("account-delete-no").click()  # a second thought: nothing happens
        expect(phone.page.get_by_test_id("account-delete-confirm")).to_have_count(0)
        assert (
            httpx.get(f"{e2e_server.url}/api/me", headers={"Authorization": f"Bearer {phone_token}"}).status_code == 200
        )
        phone.page.get_by_test_id("account-delete").click()
        phone.page.get_by_test_id("account-delete-yes").click()
        expect(phone.page.get_by_test_id("name-input")).to_be_visible()
        assert phone.page.evaluate("localStorage.getItem('1001.player')") is None
        assert (
            httpx.get(f"{e2e_server.url}/api/me", headers={"Authorization": f"Bearer {phone_token}"}).status_code == 401
        )
        assert not violations(phone) and not violations(laptop)
    finally:
        laptop.context.close()
        phone.context.close()
