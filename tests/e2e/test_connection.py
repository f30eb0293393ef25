"""A connection that stalls without closing (issue 22, defect 7): the socket stays open but nothing
arrives. A card tapped (in the trick at once, issue 42) then says "sending…" within a moment, the
bar's pill says the connection is slow once the app's own ping (``{"type": "ping"}`` → ``pong``)
goes unanswered, and "reconnecting" once the page gives the socket up; when frames flow again the
pill goes and the table goes on.

The stall is made with Playwright's WebSocket routing: the page's frames still reach the server, the
server's are held back (and delivered when the stall ends), as a proxy or a dead radio link would.
The page's clock is Playwright's (``page.clock``): the test moves it on past SENDING_MS, SLOW_MS and
DEAD_MS instead of waiting them out."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import WebSocketRoute, expect

from tests.e2e.helpers import choose_computer, choose_name, open_seat
from tests.support.services import ServerProcess

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
# the languages' words (frontend/js/i18n/*.js), each on a phone of its own size
WORDS = {
    "en": ("en-GB", {"width": 390, "height": 844}, "Sending…", "Connection slow"),
    "de": ("de-DE", {"width": 360, "height": 640}, "Wird gesendet…", "Verbindung langsam"),
    "ru": ("ru-RU", {"width": 844, "height": 390}, "Отправка…", "Связь медленная"),
}


class Stall:
    """Every table socket of a page through a relay that can hold the server's frames back."""

    def __init__(self) -> None:
        self.on = False
        self.held: list[tuple[WebSocketRoute, str | bytes]] = []
        self.sockets = 0

    def route(self, ws: WebSocketRoute) -> None:
        self.sockets += 1
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if self.on:
                self.held.append((ws, message))
            else:
                ws.send(message)

        server.on_message(from_server)

    def release(self) -> None:
        self.on = False
        held, self.held = self.held, []
        for ws, message in held:
            with contextlib.suppress(Exception):  # that socket may have been given up meanwhile
                ws.send(message)


def _start(page: Any, stall: Stall) -> None:
    page.route_web_socket(re.compile(r"/ws/rooms/"), stall.route)
    page.goto("/")
    choose_name(page, "Nadia")
    choose_computer(page, "easy")
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()


def _my_card(page: Any) -> Any:
    """A card I may play now without a marriage dialog (waiting for my turn)."""
    cards = page.locator('[data-testid="hand"] button[data-legal="true"]:not([disabled]):not([data-declarable])')
    expect(cards.first).to_be_visible(timeout=15_000)
    return cards.first


@pytest.mark.parametrize("lang", list(WORDS))
def test_a_stalled_socket_shows_sending_and_the_pill_then_recovers(
    seeded_server: ServerProcess, browser: Any, artifacts: Path, lang: str
) -> None:
    locale, viewport, sending_text, slow_text = WORDS[lang]
    seat = open_seat(browser, seeded_server.url, "Nadia", viewport, locale=locale, is_mobile=True, has_touch=True)
    stall = Stall()
    try:
        page = seat.page
        page.clock.install()  # the page's timers: moved on by the test instead of waited out
        _start(page, stall)
        pill = page.get_by_test_id("connection-pill")
        expect(pill).to_be_hidden()
        card = _my_card(page)
        code = card.get_attribute("data-card")
        stall.on = True
        card.click(position={"x": 14, "y": 14})
        # within a moment (SENDING_MS, 400 ms) the card says so, and so does the pill
        page.clock.run_for(450)
        # the card is in the trick at once (issue 42), and it is the card there that says so
        expect(page.get_by_test_id(f"card-{code}")).to_have_count(0)
        sending = page.locator(f'[data-testid="current-trick"] [data-card="{code}"] [data-testid="sending"]')
        expect(sending).to_be_visible(timeout=1500)
        expect(sending).to_have_text(sending_text)
        expect(pill).to_have_attribute("data-state", "sending", timeout=1500)
        # the ping sent with the move goes unanswered: "connection slow" (SLOW_MS, 3 s)
        page.clock.run_for(3000)
        expect(pill).to_have_attribute("data-state", "slow", timeout=3000)
        expect(pill).to_have_text(slow_text)
        size = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=artifacts / f"connection-slow-{lang}-{size}.jpg")
        # the words are whole and the bar does not overflow
        whole = "e => e.scrollWidth <= e.clientWidth + 1"
        assert pill.evaluate(whole)
        assert page.locator(".table-bar").evaluate(whole)
        assert sending.evaluate(whole), sending.evaluate(
            "e => [e.scrollWidth, e.clientWidth, getComputedStyle(e).fontSize, e.parentElement.clientWidth]"
        )
        # frames flow again: the answer arrives, the card is played, the pill goes
        stall.release()
        expect(page.get_by_test_id(f"card-{code}")).to_have_count(0)
        expect(pill).to_be_hidden()
        expect(page.locator('[data-testid="sending"]')).to_have_count(0)
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_a_socket_that_stays_stalled_is_given_up_and_reopened(
    seeded_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, seeded_server.url, "Nadia", LANDSCAPE)
    stall = Stall()
    try:
        page = seat.page
        page.clock.install()  # the page's timers: moved on by the test instead of waited out
        _start(page, stall)
        pill = page.get_by_test_id("connection-pill")
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-connection", "open")
        before = stall.sockets
        stall.on = True
        # nothing comes back to the keep-alive: slow (a ping unanswered for SLOW_MS, 3 s, after
        # PING_MS, 3 s), then a new socket (DEAD_MS, 8 s)
        page.clock.run_for(6500)
        expect(pill).to_have_attribute("data-state", "slow", timeout=3000)
        page.screenshot(path=artifacts / "connection-slow-844x390.jpg")
        page.clock.run_for(8500)
        expect(pill).to_have_attribute("data-state", "reconnecting", timeout=3000)
        stall.release()  # the new socket gets through
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-connection", "open", timeout=10_000)
        expect(pill).to_be_hidden()
        assert stall.sockets > before
        _my_card(page)  # the table goes on: the current state came with the new socket
        assert not [e for e in seat.errors if "WebSocket" not in e], seat.errors
    finally:
        seat.context.close()
