"""The players' long-lived tokens never leave the Authorization header: the socket opens with a
one-time ticket (``POST /api/socket-ticket``, then ``/ws/rooms/{id}?ticket=…``), so no token is in
any URL the browser uses, in any page, or in the server's own output — checked after a match for a
stake between two browsers (cards played, a socket dropped, a page reloaded, a resignation, the
history pages) on a server that logs every request (uvicorn at ``--log-level info``)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.support.services import ServerProcess, database

from .conftest import DESKTOP, PHONE
from .helpers import (
    Seat,
    assert_frames_match_server_models,
    choose_name,
    create_table,
    join_by_invite,
    match_over,
    open_seat,
    play_one,
    resign,
    to_history,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def logged_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own whose stdout and stderr carry every access-log line (the suite's shared
    server logs warnings only, where a token in a URL would never show)."""
    folder = tmp_path_factory.mktemp("e2e-logged")
    with database("sqlite", folder) as url:
        server = ServerProcess(
            url, folder / "server.log", uvicorn_args=("--log-level", "info", "--access-log"), BOT_DELAY_S="0.2"
        )
        server.start()
        try:
            yield server
        finally:
            server.stop()
        assert not server.errors(), "\n".join(server.errors()[:20])


@dataclass
class Traffic:
    """Every URL one browser page asked for, its socket URLs, and the socket tickets it was given."""

    urls: list[str] = field(default_factory=list)
    sockets: list[str] = field(default_factory=list)
    tickets: list[dict[str, Any]] = field(default_factory=list)


def watch(seat: Seat) -> Traffic:
    traffic = Traffic()
    seat.page.on("request", lambda request: traffic.urls.append(request.url))
    seat.page.on("websocket", lambda ws: traffic.sockets.append(ws.url))

    def on_response(response: Any) -> None:
        if response.url.endswith("/api/socket-ticket"):
            traffic.tickets.append({"status": response.status, "method": response.request.method, **response.json()})

    seat.page.on("response", on_response)
    return traffic


def token_of(seat: Seat) -> str:
    token = seat.page.evaluate("() => JSON.parse(localStorage.getItem('1001.player')).token")
    assert isinstance(token, str) and len(token) >= 16, token
    return token


def play_a_few_cards(*seats: Seat, rng: random.Random) -> None:
    for _ in range(3):
        for seat in seats:
            play_one(seat.page, rng)


def test_tokens_stay_out_of_urls_pages_and_server_logs(
    logged_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    anna = open_seat(browser, logged_server.url, "Anna", DESKTOP)
    ben = open_seat(browser, logged_server.url, "Ben", PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    traffic = {anna.name: watch(anna), ben.name: watch(ben)}
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        link = create_table(anna.page, target=301, stake="0.01", currency="EUR", visibility="private")
        ben.page.goto("/")
        choose_name(ben.page, "Ben")
        join_by_invite(ben.page, link)
        tokens = {seat.name: token_of(seat) for seat in (anna, ben)}
        pages: dict[str, list[str]] = {seat.name: [] for seat in (anna, ben)}

        def snapshot() -> None:
            for seat in (anna, ben):
                pages[seat.name].append(seat.page.url)
                pages[seat.name].append(seat.page.content())

        # A few cards, then a cut connection and a reload: every (re)connect asks for a new ticket.
        rng = random.Random(4401)
        play_a_few_cards(anna, ben, rng=rng)
        snapshot()
        sockets_before = len(traffic[ben.name].sockets)
        ben.page.evaluate("() => window.__1001.dropSocket()")
        deadline = time.monotonic() + 15
        while len(traffic[ben.name].sockets) <= sockets_before:
            assert time.monotonic() < deadline, "the dropped socket was not opened again"
            ben.page.wait_for_timeout(100)
        expect(ben.page.get_by_test_id("table-page")).to_have_attribute("data-connection", "open", timeout=15_000)
        anna.page.reload()
        expect(anna.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()

        # A few cards more on the new sockets, then Anna resigns: the match is over, for a stake.
        play_a_few_cards(anna, ben, rng=rng)
        resign(anna.page)
        expect(ben.page.get_by_test_id("match-over")).to_be_visible()
        assert match_over(anna.page) and match_over(ben.page)
        snapshot()
        match_id = anna.states()[-1]["room"]["match_id"]
        for seat in (anna, ben):
            to_history(seat.page)
            expect(seat.page.get_by_test_id(f"match-row-{match_id}")).to_be_visible()
            seat.page.get_by_test_id(f"match-link-{match_id}").click()
            expect(seat.page.get_by_test_id("match-detail")).to_be_visible()
        snapshot()
        anna.page.screenshot(path=artifacts / "tokens-history-desktop.jpg", animations="disabled")

        for seat in (anna, ben):
            seen = traffic[seat.name]
            # One fresh ticket per (re)connect, used once, in the socket URL instead of the token.
            assert seen.tickets, f"{seat.name} never asked POST /api/socket-ticket"
            assert all(t["status"] == 201 and t["method"] == "POST" and t["expires_in"] > 0 for t in seen.tickets)
            assert len({t["ticket"] for t in seen.tickets}) == len(seen.tickets), "a ticket was handed out twice"
            assert len(seen.sockets) >= 2, f"{seat.name} should have reconnected at least once: {seen.sockets}"
            used = [parse_qs(urlsplit(url).query) for url in seen.sockets]
            assert all("token" not in query and len(query.get("ticket", [])) == 1 for query in used), seen.sockets
            assert {query["ticket"][0] for query in used} <= {t["ticket"] for t in seen.tickets}
            for name, token in tokens.items():
                for url in seen.urls + seen.sockets + pages[seat.name][::2]:
                    assert token not in url, f"{name}'s token is in a URL {seat.name}'s browser used: {url}"
                for html in pages[seat.name][1::2]:
                    assert token not in html, f"{name}'s token is in a page {seat.name}'s browser showed"

        # The server's captured stdout and stderr: it logged the requests, and no token in them.
        logged = logged_server.log_path.read_text(errors="replace")
        assert "/ws/rooms/" in logged and "/api/socket-ticket" in logged, "the server log holds no access lines"
        for name, token in tokens.items():
            assert token not in logged, f"{name}'s token is in the server's output"
        assert_frames_match_server_models(anna, ben)
        assert not anna.errors and not ben.errors, anna.errors + ben.errors
    finally:
        anna.context.close()
        ben.context.close()
