"""Ratings in the browser (issue 27): the lobby's "Rated" box, the change shown at the end of the
match and on the match page, readable at 360 px; an unrated table shows none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.services import ServerProcess

from .conftest import DESKTOP
from .helpers import Seat, choose_name, create_table, join_by_invite, open_seat

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 780}


def resign(seat: Seat) -> None:
    seat.page.get_by_test_id("resign").click()
    seat.page.get_by_test_id("resign-yes").click()


def fits(seat: Seat) -> None:
    width = seat.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"horizontal scrolling at 360 px: scrollWidth {width}"


def test_the_rating_change_shows_at_the_end_and_on_the_match_page(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    anna = open_seat(browser, e2e_server.url, "Anna", DESKTOP)
    ben = open_seat(browser, e2e_server.url, "Ben", NARROW, is_mobile=True, has_touch=True)
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        expect(anna.page.get_by_test_id("opt-rated")).to_be_checked()  # a table between people is rated
        link = create_table(anna.page, target=301)
        join_by_invite(ben.page, link, "Ben")
        resign(ben)  # R6.2: the resigner loses
        for seat, sign in ((anna, "+"), (ben, "−")):
            line = seat.page.get_by_test_id("match-rating")
            expect(line).to_be_visible()
            expect(line).to_contain_text("Rating ")
            expect(line).to_contain_text(f"({sign}")
        assert int(anna.page.get_by_test_id("match-rating").get_attribute("data-change") or "0") > 0
        assert int(ben.page.get_by_test_id("match-rating").get_attribute("data-change") or "0") < 0
        fits(ben)
        ben.page.screenshot(path=artifacts / "rating-match-over-360.jpg", animations="disabled")

        # The match page: each player's change, the winner's first.
        match_id = ben.states()[-1]["room"]["match_id"]
        ben.page.goto(f"/#/history/{match_id}")
        listed = ben.page.get_by_test_id("detail-ratings")
        expect(listed).to_be_visible()
        expect(listed.locator("li")).to_have_count(2)
        expect(ben.page.get_by_test_id("detail-rating-0")).to_contain_text("Anna: Rating")
        expect(ben.page.get_by_test_id("detail-rating-1")).to_contain_text("Ben: Rating")
        assert int(ben.page.get_by_test_id("detail-rating-1").get_attribute("data-change") or "0") < 0
        fits(ben)
        ben.page.screenshot(path=artifacts / "rating-match-page-360.jpg", full_page=True, animations="disabled")

        # The history page: my rating per game kind, with the rated matches counted.
        ben.page.get_by_test_id("back-to-history").click()
        mine = ben.page.get_by_test_id("my-rating-twohand24")
        expect(mine).to_contain_text("1001 for two, 24 cards")
        expect(mine).to_contain_text("1 rated match")
        assert int(mine.get_attribute("data-rating") or "0") < 1000
        fits(ben)
        ben.page.screenshot(path=artifacts / "rating-history-360.jpg", full_page=True, animations="disabled")

        # An unrated table (the box unticked) changes nothing and shows no rating line.
        anna.page.goto("/#/")
        anna.page.get_by_test_id("opt-rated").uncheck()
        link = create_table(anna.page, target=301)
        join_by_invite(ben.page, link)
        assert ben.states()[-1]["room"]["options"]["rated"] is False
        resign(ben)
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("match-result")).to_be_visible()
            expect(seat.page.get_by_test_id("match-rating")).to_be_hidden()
        assert not anna.errors and not ben.errors, anna.errors + ben.errors
    finally:
        anna.context.close()
        ben.context.close()
