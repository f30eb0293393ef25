"""Play again (issue 27) in two browsers: two friends finish a match (one resigns), go back to the
lobby, Anna taps "Play again" on Ben, Ben's lobby shows the invitation at once (over the lobby's
event stream), he joins with one tap, and both are at the new table."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess, database

from .conftest import PHONE
from .helpers import choose_name, create_table, join_by_invite, open_seat, resign, room_id, settle

pytestmark = pytest.mark.browser
NARROW = {"width": 360, "height": 640}


def player_id(page: Page) -> str:
    found = page.evaluate("() => JSON.parse(localStorage.getItem('1001.player') || 'null')?.id ?? null")
    assert isinstance(found, str) and found, found
    return found


def assert_target_size(page: Page, test_id: str) -> None:
    """A thumb's target: at least 44 × 44 px (WCAG 2.5.5), inside the page's width."""
    box = page.get_by_test_id(test_id).bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44, (test_id, box)
    width = page.evaluate("() => document.documentElement.clientWidth")
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (test_id, box, width)


def test_two_friends_play_again_from_the_lobby(browser: Any, e2e_server: ServerProcess, artifacts: Path) -> None:
    anna = open_seat(browser, e2e_server.url, "Anna", PHONE)
    ben = open_seat(browser, e2e_server.url, "Ben", NARROW)
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        link = create_table(anna.page, target=301)
        join_by_invite(ben.page, link, "Ben")
        expect(anna.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        first_room = room_id(anna.page)
        anna_id, ben_id = player_id(anna.page), player_id(ben.page)

        # The match ends quickly: Ben resigns (R6.2); both see the end-of-match panel.
        resign(ben.page)
        expect(anna.page.get_by_test_id("match-over")).to_be_visible()

        # Both open their head-to-head page from the panel: Anna won the one match, Ben lost it.
        assert anna_id != ben_id
        for seat, me, other, won in ((anna, anna_id, ben_id, "1"), (ben, ben_id, anna_id, "0")):
            link = seat.page.get_by_test_id("match-h2h")
            expect(link).to_have_attribute("href", f"#/h2h/{me},{other}")
            link.click()
            expect(seat.page.get_by_test_id("h2h-title")).to_contain_text("Anna")
            expect(seat.page.get_by_test_id("h2h-chart")).to_have_attribute("data-matches", "1")
            mine = seat.page.get_by_test_id("h2h-people-twohand24").locator(
                f'tr[data-row="won"] td[data-player="{me}"]'
            )
            expect(mine).to_have_text(won)
            assert seat.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        anna.page.screenshot(path=artifacts / "play-again-head-to-head-390.jpg", animations="disabled")

        # Back to the lobby; Ben's lobby listens to its event stream before Anna invites him.
        ben.page.goto("/#/")  # from the head-to-head page
        expect(ben.page.locator('[data-testid="invitations"][data-stream="open"]')).to_have_count(1)
        anna.page.goto("/#/")
        row = anna.page.get_by_test_id(f"opponent-{ben_id}")
        expect(row).to_contain_text("Ben")
        assert_target_size(anna.page, f"play-again-{ben_id}")
        expect(ben.page.get_by_test_id(f"opponent-{anna_id}")).to_be_visible()
        settle(ben.page)
        assert ben.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        row.scroll_into_view_if_needed()
        anna.page.screenshot(path=artifacts / "play-again-opponents-390.jpg", animations="disabled")
        anna.page.get_by_test_id(f"play-again-{ben_id}").click()

        # Anna is at her new private table, its invite link there to share; Ben sees the invitation at once.
        expect(anna.page.get_by_test_id("waiting-panel")).to_be_visible()
        expect(anna.page.get_by_test_id("invite-link")).to_have_value(re.compile(r"/#/invite/"))
        expect(anna.page.get_by_test_id("play-again-toast")).to_contain_text("Ben is in the lobby")
        new_room = room_id(anna.page)
        assert new_room and new_room != first_room
        card = ben.page.get_by_test_id(f"invitation-{new_room}")
        expect(card).to_be_visible(timeout=5000)
        expect(card).to_contain_text("Anna invites you to play again")
        assert_target_size(ben.page, "invitation-join")
        assert_target_size(ben.page, "invitation-later")
        ben.page.screenshot(path=artifacts / "play-again-invitation-360.jpg", animations="disabled")

        ben.page.get_by_test_id("invitation-join").click()
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
            assert room_id(seat.page) == new_room
        assert not anna.errors, anna.errors
        assert not ben.errors, ben.errors
    finally:
        anna.context.close()
        ben.context.close()


def test_the_lobby_stream_comes_back_after_a_restart_and_not_now_dismisses(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Ben's lobby stream drops when the server restarts and opens again by itself (a fresh ticket);
    an invitation made afterwards shows at once, and "Not now" dismisses it for good."""
    folder = tmp_path_factory.mktemp("e2e-again-restart")
    with database("sqlite", folder) as url:
        server = ServerProcess(url, folder / "server.log")
        server.start()
        try:
            with httpx.Client(base_url=server.url, timeout=10) as http:
                anna, ben = (http.post("/api/players", json={"name": name}).json() for name in ("Anna", "Ben"))
                room = http.post("/api/rooms", json={"visibility": "private"}, headers=bearer(anna)).json()
                http.post(f"/api/invites/{room['invite_code']}/join", headers=bearer(ben)).raise_for_status()
            seat = open_seat(browser, server.url, "Ben", PHONE)
            try:
                seat.context.add_init_script(f"localStorage.setItem('1001.player', {json.dumps(json.dumps(ben))})")
                seat.page.goto("/#/")
                stream = seat.page.get_by_test_id("invitations")
                expect(stream).to_have_attribute("data-stream", "open")
                server.stop()
                expect(stream).to_have_attribute("data-stream", "connecting")
                server.start()
                expect(stream).to_have_attribute("data-stream", "open", timeout=20_000)

                with httpx.Client(base_url=server.url, timeout=10) as http:
                    invited = http.post(f"/api/me/opponents/{ben['id']}/invite", headers=bearer(anna)).json()
                assert invited["online"] is True
                card = seat.page.get_by_test_id(f"invitation-{invited['room']['id']}")
                expect(card).to_be_visible()
                seat.page.get_by_test_id("lang-select").select_option("de")
                expect(card).to_contain_text("Anna lädt dich zu einer neuen Partie ein")
                expect(card.get_by_test_id("invitation-later")).to_have_text("Nicht jetzt")
                card.get_by_test_id("invitation-later").click()
                expect(card).to_have_count(0)
                seat.page.reload()
                expect(stream).to_have_attribute("data-stream", "open")
                expect(seat.page.locator('[data-testid^="invitation-r_"]')).to_have_count(0)
                seat.page.get_by_test_id("lang-select").select_option("en")
                # The browser logs the refused reconnects while the server was away (ERR_CONNECTION_REFUSED,
                # or ERR_FAILED on some machines): each names its /api/ URL.
                assert not [e for e in seat.errors if "/api/" not in e and "ERR_CONNECTION" not in e], seat.errors
            finally:
                seat.context.close()
        finally:
            server.stop()
    assert not server.errors(), "\n".join(server.errors()[:20])


def bearer(player: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}
