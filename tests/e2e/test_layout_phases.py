"""The phases around the play on phones, upright (390×844) and on their side (844×390), in English,
German and Russian (issue 42, point 4): the waiting-for-players panel at two, three and four seats,
a seat held for a player who went away, and, at tables of 1001 with bidding (V7) for three and for
four, the auction, the talon panel of the player who took the talon and the deal's summary.

The checks are test_layout_matrix.py's (MEASURE_JS and SEATS_JS): nothing past the viewport, no
text cut off (a clipping box with more content than room, a scroller that scrolls sideways, a panel
to act in that does not show all of itself), the names of the seats never cut and alike for names
as long, every word of a seat inside its box, and "Last trick" showing the deal's final trick while
its summary is open. One page per language (a second, for the friend who joins the table of two and
goes away); screenshots go to tests/e2e/artifacts/layout-<lang>-<stage>-<viewport>.jpg.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import VIEWPORTS
from .helpers import choose_name, close_summary, open_seat, resign, version
from .test_layout_matrix import LOCALES, LONG_NAMES, Matrix, play_card
from .test_variants import MATCH_LOOK_JS, new_variant_table

pytestmark = pytest.mark.browser

PHONES = ("390x844", "844x390")


def look(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(MATCH_LOOK_JS)
    return result


def waiting_panel_fits(matrix: Matrix, n: int) -> None:
    page = matrix.page
    expect(page.get_by_test_id("waiting-panel")).to_be_visible()
    expect(page.get_by_test_id("invite-link")).to_have_value(re.compile(r"/#/invite/"))
    matrix.page_fits(f"{n}seats-waiting", table=True, in_view=("waiting-panel",), viewports=PHONES)


def two_seats_waiting_and_a_friend_away(matrix: Matrix, browser: Any, url: str, lang: str) -> None:
    """A table of two for a friend: the waiting panel; the friend joins, then goes away (the seat held)."""
    page = matrix.page
    page.goto("/#/")
    page.get_by_test_id("opt-opponent-human").check()
    page.get_by_test_id("create-table").click()
    waiting_panel_fits(matrix, 2)
    link = page.get_by_test_id("invite-link").input_value()
    friend = open_seat(browser, url, "Friend", VIEWPORTS["390x844"], locale=LOCALES[lang])
    try:
        friend.page.goto(link)
        choose_name(friend.page, "Bartholomew Zimmermann")
        friend.page.get_by_test_id("join-invite").click()
        expect(friend.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
    finally:
        friend.context.close()
    expect(page.get_by_test_id("seat-1-grace")).to_be_visible()
    matrix.page_fits("2seats-away", table=True, in_view=("seat-1-grace",), seats=True, viewports=PHONES)
    resign(page)


def bid_the_most(page: Page) -> None:
    """My call: the stepper up to the highest bid there is, then that bid (nobody may bid over it)."""
    up = page.get_by_test_id("bid-up")
    before = version(page)
    while up.is_enabled():
        up.click()
    page.get_by_test_id("bid-submit").click()
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=table-page]').dataset.version) > v", arg=before
    )


def bidding_table_fits(matrix: Matrix, n: int, rng: random.Random) -> None:
    """1001 with bidding (V7) for ``n``: waiting for the others, then the computer in their seats;
    the auction at my call, my talon with two cards picked, and the deal's summary."""
    page = matrix.page
    new_variant_table(page, "bidding", seats=n, computers=0)
    waiting_panel_fits(matrix, n)
    page.get_by_test_id("fill-level").select_option("easy")
    page.get_by_test_id("fill-computers").click()
    expect(page.get_by_test_id("ring")).to_have_attribute("data-n", str(n))
    totals = tuple(f"seat-{k}-total" for k in range(n))
    auction = talon = False
    summary = page.get_by_test_id("deal-summary")
    deadline = time.monotonic() + 180
    while not talon:
        assert time.monotonic() < deadline, f"no talon of mine at {n} seats: {look(page)}"
        now = look(page)
        if now["summary"]:  # a deal thrown in, or one a computer took: the next
            close_summary(page)
        elif now["phase"] == "auction" and now["pass"]:
            if not auction:
                auction = True
                matrix.page_fits(
                    f"{n}seats-auction", table=True, in_view=(*totals, "auction"), seats=True, viewports=PHONES
                )
            if now["lowest"]:
                bid_the_most(page)
            else:
                page.get_by_test_id("pass").click()
        elif now["phase"] == "discard" and now["discard_submit"]:
            cards = page.locator('[data-testid="hand"] button.card')
            cards.nth(0).click()
            cards.nth(1).click()
            expect(page.get_by_test_id("discard-submit")).to_be_enabled()
            talon_ids = ("discard", "discard-submit")
            matrix.page_fits(f"{n}seats-talon", table=True, in_view=talon_ids, seats=True, viewports=PHONES)
            page.get_by_test_id("discard-submit").click()
            talon = True
        elif not play_card(page, rng):
            page.wait_for_timeout(50)
    while not (summary.count() and summary.first.is_visible()):
        assert time.monotonic() < deadline, f"no summary of the deal at {n} seats: {look(page)}"
        if not play_card(page, rng):
            page.wait_for_timeout(50)
    # The summary closes itself after SUMMARY_MS (12 s): two viewports measured as it opens.
    summary_ids = (*totals, "deal-summary")
    matrix.page_fits(f"{n}seats-deal-summary", table=True, in_view=summary_ids, seats=True, viewports=PHONES)
    close_summary(page)
    resign(page)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_waiting_auction_talon_and_summary_fit_phones_at_two_three_and_four_seats(
    lang: str, seeded_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    started = time.monotonic()
    phone = VIEWPORTS["390x844"]
    seat = open_seat(browser, seeded_server.url, f"Phases {lang}", phone, locale=LOCALES[lang], reduced_motion="reduce")
    page = seat.page
    matrix = Matrix(page, lang, artifacts)
    rng = random.Random(42)
    try:
        page.goto("/")
        choose_name(page, LONG_NAMES[lang])
        two_seats_waiting_and_a_friend_away(matrix, browser, seeded_server.url, lang)
        for n in (3, 4):
            bidding_table_fits(matrix, n, rng)
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
    assert matrix.checks == 2 * 10, matrix.checks
    assert matrix.last_tricks_checked, '"Last trick" was never measured behind a deal summary'
    print(f"{lang}: {matrix.checks} layouts in {time.monotonic() - started:.0f} s")
    problems = matrix.problems
    assert not problems, f"{len(problems)} layout problems:\n" + "\n".join(problems)
