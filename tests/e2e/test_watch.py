"""A third browser watches a live public table from the lobby while two friends play: it sees the
trick and the counts, never a face-up card of a hand; the players see that somebody watches. When
a watched match is over, the spectator is offered its replay."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import DESKTOP, PHONE
from .helpers import (
    ScriptedTable,
    Seat,
    choose_name,
    create_table,
    dom_cards,
    hand,
    join_by_invite,
    open_seat,
    play_one,
    room_id,
)

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}


def watch_version(page: Page) -> int:
    value = page.get_by_test_id("spectator-table").get_attribute("data-version")
    return int(value) if value else -1


def table_version(page: Page) -> int:
    value = page.get_by_test_id("table-page").get_attribute("data-version")
    return int(value) if value else -1


def check_spectator_sees_no_hand(watcher: Seat, anna: Seat, ben: Seat) -> bool:
    """At one version on all three pages: the spectator's page names no card of either hand, and
    shows both hands as backs with their true counts (Anna's seat 0, Ben's seat 1). False if the
    pages never agreed."""
    for _ in range(30):
        v = watch_version(watcher.page)
        if v == table_version(anna.page) == table_version(ben.page):
            hands = set(hand(anna.page)) | set(hand(ben.page))
            seen = dom_cards(watcher.page)
            counts = (
                watcher.page.get_by_test_id("seat-0-cards").get_attribute("data-count"),
                watcher.page.get_by_test_id("seat-1-cards").get_attribute("data-count"),
            )
            if watch_version(watcher.page) == v == table_version(anna.page) == table_version(ben.page):
                assert not seen & hands, f"the spectator's page shows {seen & hands} of a hand"
                assert watcher.page.locator('[data-testid="spectator-table"] [data-testid="hand"]').count() == 0
                assert watcher.page.locator('[data-testid$="-cards"] [data-card]').count() == 0  # backs only
                assert counts == (str(len(hand(anna.page))), str(len(hand(ben.page))))
                return True
        watcher.page.wait_for_timeout(100)  # through Playwright, so the pages' socket frames keep arriving
    return False


def test_a_third_browser_watches_a_live_table(e2e_server: ServerProcess, browser: Any, artifacts: Path) -> None:
    anna = open_seat(browser, e2e_server.url, "Anna", DESKTOP)
    ben = open_seat(browser, e2e_server.url, "Ben", PHONE)
    carl = open_seat(browser, e2e_server.url, "Carl", PHONE, is_mobile=True, has_touch=True)
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        link = create_table(anna.page, target=301, visibility="public")
        ben.page.goto("/")
        choose_name(ben.page, "Ben")
        join_by_invite(ben.page, link)
        room = room_id(anna.page)

        # Carl finds the table in the lobby and watches it.
        carl.page.goto("/")
        choose_name(carl.page, "Carl")
        carl.page.goto("/#/")
        carl.page.get_by_test_id(f"watch-{room}").click()
        expect(carl.page.get_by_test_id("spectator-table")).to_be_visible()
        expect(carl.page.get_by_test_id("stock-count")).to_have_attribute("data-count", "8")
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("watchers")).to_have_attribute("data-count", "1")
            expect(seat.page.get_by_test_id("watchers")).to_be_visible()

        rng = random.Random(5)
        checked = 0
        for _ in range(6):
            for seat in (anna, ben):
                if play_one(seat.page, rng):
                    checked += check_spectator_sees_no_hand(carl, anna, ben)
        assert checked >= 4
        carl.page.screenshot(path=artifacts / "watch-phone.jpg", animations="disabled")
        anna.page.screenshot(path=artifacts / "watched-table-desktop.jpg", animations="disabled")
        # the cards on the felt are public: the spectator sees the trick or the last trick
        assert carl.page.locator('[data-testid="spectator-table"] [data-card]').count() > 0
        # nothing on the spectator's page can act
        assert carl.page.locator('[data-testid="spectator-table"] button.card').count() == 0
        assert carl.page.get_by_test_id("resign").count() == 0

        # Anna turns watching off in the drawer: Carl is sent away, the players' count goes down.
        if anna.page.get_by_test_id("sheet-tab-table").is_hidden():
            anna.page.get_by_test_id("sheet-toggle").click()
        anna.page.get_by_test_id("sheet-tab-table").click()
        allow = anna.page.get_by_test_id("allow-watching")
        expect(allow).to_be_checked()
        allow.uncheck()
        expect(carl.page.get_by_test_id("watch-error")).to_be_visible()
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("watchers")).to_be_hidden()
        expect(ben.page.get_by_test_id("table-page")).to_have_attribute("data-version", str(table_version(anna.page)))
        for seat in (anna, ben, carl):
            assert not seat.errors, seat.errors
    finally:
        for seat in (anna, ben, carl):
            seat.context.close()


def test_a_spectator_without_an_account_opens_the_replay_when_the_match_ends(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    """Public and private tables: the link a spectator watches by leads to the finished match's
    replay, carrying a private table's watch code; no account is made for them."""
    visitor = open_seat(browser, e2e_server.url, "Visitor", PHONE, is_mobile=True, has_touch=True)
    page = visitor.page
    try:
        for visibility in ("public", "private"):
            table = ScriptedTable(e2e_server.url, {"visibility": visibility})
            try:
                code = table.watch_code() if visibility == "private" else None
                page.goto(f"/#/watch/{table.room_id}" + (f"/{code}" if code else ""))
                expect(page.get_by_test_id("spectator-table")).to_have_attribute("data-version", re.compile(r"^\d+$"))
                table.play(3)
                expect(page.get_by_test_id("watch-replay")).to_have_count(0)  # not while it is played
                table.resign()
                link = page.get_by_test_id("watch-replay")
                expect(link).to_be_visible()
                href = f"#/replay/{table.match_id}/0" + (f"/{code}" if code else "")
                expect(link).to_have_attribute("href", href)
                if visibility == "public":
                    page.screenshot(path=artifacts / "watch-over-phone.jpg", animations="disabled")
                    page.set_viewport_size(LANDSCAPE)
                    expect(link).to_be_in_viewport()
                    page.screenshot(path=artifacts / "watch-over-landscape.jpg", animations="disabled")
                    page.set_viewport_size(PHONE)
            finally:
                table.close()
            # The players have left (the server forgets the finished room): the link stays.
            page.wait_for_timeout(1000)
            expect(link).to_be_visible()
            link.click()
            expect(page).to_have_url(f"{e2e_server.url}/{href}")
            expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", "0")
            page.get_by_test_id("replay-next").click()
            expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "1")
        assert page.evaluate("localStorage.getItem('1001.player')") is None
        assert not visitor.errors, visitor.errors
    finally:
        visitor.context.close()
