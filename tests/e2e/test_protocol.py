"""Protocol versions (docs/protocol.md, "Versions"): every socket the page opens — a player's and a
spectator's — names the protocol it speaks (``?protocol=2``); a page whose socket names another
version is closed by the real server with 4426 and reloads itself once to fetch the current client;
refused again, it says so instead of reloading for ever. Once a socket is accepted, a later 4426 (the
next deploy) may reload it again.

The page is made "old" by an init script that rewrites the version in every socket URL it opens
(``protocol=1``) while a flag in sessionStorage is set; the server does the rest.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import PHONE
from .helpers import open_seat

pytestmark = pytest.mark.browser

PROTOCOL = 2  # backend/api/codes.py PROTOCOL, as the generated client module has it

# Counts the page's loads, and while `1001.test.old` is set makes every socket name protocol 1.
OLD_PAGE = """
(() => {
  const loads = Number(sessionStorage.getItem('1001.test.loads') || '0') + 1;
  sessionStorage.setItem('1001.test.loads', String(loads));
  const Real = window.WebSocket;
  function Socket(url, protocols) {
    const old = sessionStorage.getItem('1001.test.old') === '1';
    return new Real(old ? String(url).replace(/protocol=\\d+/, 'protocol=1') : url, protocols);
  }
  Socket.prototype = Real.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Socket[k] = Real[k];
  window.WebSocket = Socket;
})();
"""


def loads(page: Page) -> int:
    return int(page.evaluate("Number(sessionStorage.getItem('1001.test.loads'))"))


def computer_table(base_url: str) -> tuple[dict[str, Any], str, str]:
    """A player, a table against the computer (playing at once) and that table's watch code."""
    with httpx.Client(base_url=base_url, timeout=10) as client:
        player = client.post("/api/players", json={"name": "Old page"}).raise_for_status().json()
        auth = {"Authorization": f"Bearer {player['token']}"}
        room = client.post("/api/rooms", json={"opponent": "computer", "bot_level": "easy"}, headers=auth)
        room_id = room.raise_for_status().json()["id"]
        code = client.post(f"/api/rooms/{room_id}/watch-link", headers=auth).raise_for_status().json()["code"]
    return player, room_id, code


def test_an_outdated_page_reloads_once_then_says_so(e2e_server: ServerProcess, browser: Any) -> None:
    player, room_id, code = computer_table(e2e_server.url)
    seat = open_seat(browser, e2e_server.url, "Old page", PHONE)
    page = seat.page
    urls: list[str] = []
    page.on("websocket", lambda ws: urls.append(ws.url))
    try:
        seat.context.add_init_script(f"localStorage.setItem('1001.player', {json.dumps(json.dumps(player))})")
        seat.context.add_init_script(OLD_PAGE)

        # A current page: its socket names protocol 2 and the table plays.
        page.goto(f"/#/table/{room_id}")
        expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        assert urls and all(f"protocol={PROTOCOL}" in url for url in urls), urls
        assert all("token=" not in url for url in urls), urls  # a one-time ticket, never the token

        # The same page made old: 4426 from the server, one reload, then the message (no loop).
        page.evaluate("sessionStorage.setItem('1001.test.old', '1')")
        before = loads(page)
        page.evaluate("window.__1001.dropSocket()")  # the next connect names protocol 1
        error = page.get_by_test_id("table-error")
        expect(error).to_be_visible()
        expect(error).to_contain_text("older than the server")
        assert loads(page) == before + 1, "the page did not reload exactly once"
        page.wait_for_timeout(1500)  # no second reload, no retrying
        assert loads(page) == before + 1
        assert urls[-1].endswith("protocol=1") or "protocol=1" in urls[-1], urls[-1]

        # Current again (a deploy later): the table plays, and the guard is reset by the accepted socket…
        page.evaluate("sessionStorage.removeItem('1001.test.old')")
        page.reload()
        expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        # …so that the next outdated moment reloads once more.
        page.evaluate("sessionStorage.setItem('1001.test.old', '1')")
        before = loads(page)
        page.evaluate("window.__1001.dropSocket()")
        expect(page.get_by_test_id("table-error")).to_be_visible()
        assert loads(page) == before + 1

        # A spectator's socket names the version too: the watch page behaves the same.
        page.evaluate("sessionStorage.removeItem('1001.test.old')")
        page.goto(f"/#/watch/{room_id}/{code}")
        expect(page.get_by_test_id("spectator-table")).to_have_attribute("data-version", re.compile(r"^\d+$"))
        for _ in range(50):  # the version may show (from the room's record) before the socket opens
            watch_urls = [url for url in urls if "/watch" in url]
            if watch_urls:
                break
            page.wait_for_timeout(100)
        assert watch_urls and all(f"protocol={PROTOCOL}" in url for url in watch_urls), watch_urls
        page.evaluate("sessionStorage.setItem('1001.test.old', '1')")
        before = loads(page)
        page.reload()
        expect(page.get_by_test_id("watch-error")).to_contain_text("older than the server")
        assert loads(page) == before + 2, "the watch page did not reload exactly once after its own load"
        page.wait_for_timeout(1500)
        assert loads(page) == before + 2
        unexpected = [e for e in seat.errors if "WebSocket" not in e]
        assert not unexpected, unexpected
    finally:
        seat.context.close()
