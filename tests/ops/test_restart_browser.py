"""The browser's side of a graceful restart: a socket closed with 1012 ("service restart") is
reopened at once, without the backoff that follows any other lost connection.

The page's clock is paused before the close (Playwright's fake clock): a backoff waits for a
timer and could not reconnect while time stands still, so a reconnect then proves it came at once.
The server's close is played by a routed socket (``page.route_web_socket``) in front of a real
server, as a restarting process would send it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.services import ServerProcess, missing_service, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("ops-browser"), BOT_DELAY_S="0.2") as process:
        yield process


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        missing_service(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def wait_until(page: Any, predicate: Any, timeout: float = 10) -> None:
    """Poll (Playwright's own wait lets its event handlers, the routed sockets, run meanwhile)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(20)


def test_a_1012_close_reconnects_at_once(browser: Any, server: ServerProcess) -> None:
    from tests.e2e.conftest import PHONE
    from tests.e2e.helpers import start_computer_match

    context = browser.new_context(viewport=PHONE, base_url=server.url)
    page = context.new_page()
    routed: list[Any] = []
    states: list[int] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"type":"state"' in message.replace(" ", ""):
                states.append(len(routed))
            ws.send(message)

        upstream.on_message(to_page)
        routed.append(ws)

    try:
        page.route_web_socket(re.compile(r"/ws/rooms/"), route)
        page.clock.install()
        start_computer_match(page, "Rita")
        assert len(routed) == 1
        page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # from now on no timer fires
        routed[0].close(code=1012, reason="server restarting; reconnect")
        wait_until(page, lambda: len(routed) == 2)  # a new socket, with time standing still
        wait_until(page, lambda: 2 in states)  # and the server's full state on it
        page.clock.resume()
        hand = page.get_by_test_id("hand").locator("button.card").first
        hand.wait_for(state="visible")
    finally:
        context.close()
