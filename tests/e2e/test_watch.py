"""A third browser watches a live public table from the lobby while two friends play: it sees the
trick and the counts, never a face-up card of a hand; the players see that somebody watches."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import DESKTOP, PHONE
from .helpers import Seat, choose_name, create_table, dom_cards, hand, join_by_invite, open_seat, play_one, room_id

pytestmark = pytest.mark.browser


def watch_version(page: Page) -> int:
    value = page.get_by_test_id("spectator-table").get_attribute("data-version")
    return int(value) if value else -1


def table_version(page: Page) -> int:
    value = page.get_by_test_id("table-page").get_attribute("data-version")
    return int(value) if value else -1


def check_spectator_sees_no_hand(watcher: Seat, anna: Seat, ben: Seat) -> bool:
    """At one version on all three pages: the spectator's page names no card of either hand, and
    shows both hands as backs with their true counts. False if the pages never agreed."""
    for _ in range(30):
        v = watch_version(watcher.page)
        if v == table_version(anna.page) == table_version(ben.page):
            hands = set(hand(anna.page)) | set(hand(ben.page))
            seen = dom_cards(watcher.page)
            counts = (
                watcher.page.get_by_test_id("spectator-hand-0").get_attribute("data-count"),
                watcher.page.get_by_test_id("opponent-hand").get_attribute("data-count"),
            )
            if watch_version(watcher.page) == v == table_version(anna.page) == table_version(ben.page):
                assert not seen & hands, f"the spectator's page shows {seen & hands} of a hand"
                assert watcher.page.locator('[data-testid="spectator-table"] [data-testid="hand"]').count() == 0
                assert counts == (str(len(hand(anna.page))), str(len(hand(ben.page))))
                return True
        time.sleep(0.1)
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
        carl.page.screenshot(path=artifacts / "watch-phone.png", animations="disabled")
        anna.page.screenshot(path=artifacts / "watched-table-desktop.png", animations="disabled")
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
