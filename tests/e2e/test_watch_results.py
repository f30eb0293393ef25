"""Spectators on a par with players (issue 22): a visitor who has not signed in finds the live
public tables in the lobby and opens one; the spectator sees the turn line at two seats, and when a
deal ends the players' own deal summary (the next deal waits behind it until Continue or its
timer), then the end-of-match panel with the winner and the replay. Phones, en/de/ru."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.services import ServerProcess

from .conftest import PHONE
from .helpers import ScriptedTable, open_seat, screenshots_at

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
NARROW = {"width": 360, "height": 640}


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_an_unsigned_visitor_watches_a_live_table_with_the_turn_line_and_the_deal_summary(
    e2e_server: ServerProcess, browser: Any, artifacts: Path, lang: str
) -> None:
    visitor = open_seat(browser, e2e_server.url, "Visitor", PHONE, is_mobile=True, has_touch=True)
    page = visitor.page
    table = ScriptedTable(e2e_server.url, {"visibility": "public", "target": 301})
    private = ScriptedTable(e2e_server.url, {"visibility": "private", "target": 301})
    try:
        page.goto("/")
        page.evaluate("(lang) => localStorage.setItem('1001.lang', lang)", lang)
        page.reload()
        # The lobby of somebody with no name yet: the live public tables, the private one not.
        link = page.get_by_test_id(f"watch-{table.room_id}")
        expect(link).to_be_visible()
        expect(page.get_by_test_id(f"watch-{private.room_id}")).to_have_count(0)
        expect(page.get_by_test_id("getting-started")).to_be_visible()
        expect(page.get_by_test_id("live-now")).to_be_visible()
        assert int(page.get_by_test_id("live-now").get_attribute("data-count") or 0) >= 1
        screenshots_at(page, artifacts, f"watch-results-lobby-{lang}", (PHONE, LANDSCAPE, NARROW))
        link.click()
        expect(page.get_by_test_id("spectator-table")).to_have_attribute("data-version", re.compile(r"^\d+$"))

        # Two seats: whose turn it is, in words, on the felt.
        turn = page.get_by_test_id("turn-indicator")
        expect(turn).to_be_visible()
        expect(turn).to_be_in_viewport()
        expect(turn.locator(".turn-text")).to_have_text(re.compile(r"\S"))
        text = turn.locator(".turn-text").inner_text()
        assert "Anna" in text or "Ben" in text, text
        viewport: Any
        for viewport in (LANDSCAPE, NARROW, PHONE):
            page.set_viewport_size(viewport)
            expect(turn).to_be_in_viewport()
        screenshots_at(page, artifacts, f"watch-results-play-{lang}", (PHONE, LANDSCAPE, NARROW))

        # A deal ends: the spectator gets the players' summary, and the next deal waits behind it.
        summary = page.get_by_test_id("deal-summary")
        for _ in range(40):
            table.play(3)
            if summary.count():
                break
        expect(summary).to_be_visible()
        expect(summary).to_have_attribute("data-deal", "0")
        expect(summary.locator("tbody tr")).to_have_count(2)
        expect(page.get_by_test_id("spectator-table")).to_have_attribute("data-held", "true")
        screenshots_at(page, artifacts, f"watch-results-summary-{lang}", (PHONE, LANDSCAPE, NARROW))
        page.get_by_test_id("deal-summary-close").click()
        expect(summary).to_have_count(0)
        expect(page.get_by_test_id("spectator-table")).to_have_attribute("data-held", "false")
        expect(turn).to_be_visible()

        # The match ends: the end-of-match panel names the winner; its row offers the replay.
        table.resign()
        panel = page.get_by_test_id("match-over")
        expect(panel).to_be_visible()
        expect(page.get_by_test_id("match-result")).to_have_attribute("data-winners", "1")
        expect(panel.get_by_test_id("standing-1").get_by_test_id("standing-winner")).to_be_visible()
        expect(panel.get_by_test_id("watch-replay")).to_be_visible()
        assert panel.get_by_test_id("rematch-offer").count() == 0
        screenshots_at(page, artifacts, f"watch-results-over-{lang}", (PHONE, LANDSCAPE, NARROW))
        assert page.evaluate("localStorage.getItem('1001.player')") is None
        assert not visitor.errors, visitor.errors
    finally:
        table.close()
        private.close()
        visitor.context.close()
