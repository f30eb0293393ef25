"""The end of a deal is one consistent picture (issue 22, defect 3), at two seats and at three: the
last trick goes to its winner and the card-points chips count it — every chip says what the deal
summary's card points say (R5: the points of the cards taken) — the phase chip says the deal is
over, nobody's turn is shown while the summary is up, and the summary's totals count up to the new
totals (`data-counted`)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import choose_computer, choose_name, open_seat, play_one, set_advanced, visible
from tests.support.services import ServerProcess, serving

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("e2e-deal-end"), BOT_DELAY_S="0") as process:
        yield process


def _play_to_the_summary(page: Page, rng: random.Random) -> None:
    """Play (passing in an auction, laying away any two cards) until a deal's summary is up."""
    deadline = time.monotonic() + 120
    while not (visible(page, "deal-summary") and page.get_by_test_id("summary-thrown-in").count() == 0):
        assert time.monotonic() < deadline, "no deal summary"
        if visible(page, "deal-summary"):  # thrown in (V0.6a): on to the next deal
            page.get_by_test_id("deal-summary-close").click()
            continue
        if visible(page, "pass") and page.get_by_test_id("pass").is_enabled():
            page.get_by_test_id("pass").click()
            continue
        if visible(page, "discard-submit"):
            cards = page.locator('[data-testid="hand"] button.card')
            cards.nth(0).click()
            cards.nth(1).click()
            page.get_by_test_id("discard-submit").click()
            continue
        if not play_one(page, rng, keep_summary=True):
            page.wait_for_timeout(50)


def _check_the_end_of_the_deal(page: Page, seats: int) -> int:
    """The checks above; how many other seats' chips were shown (R7 open_scores)."""
    summary = page.get_by_test_id("deal-summary")
    expect(summary).to_be_visible()
    rows = summary.locator("tbody tr")
    expect(rows).to_have_count(seats)
    points = {
        int(seat): int(value)
        for seat, value in rows.evaluate_all(
            "rows => rows.map(r => [r.dataset.seat, r.querySelector('[data-testid=summary-card-points]').textContent])"
        )
    }
    assert sum(points.values()) > 0, points
    me = int(summary.get_by_test_id("summary-row-me").get_attribute("data-seat") or "-1")
    # the chips count the last trick: mine, and every other seat's where they are shown
    expect(page.get_by_test_id("my-card-points")).to_have_attribute("data-points", str(points[me]))
    shown = 0
    for seat, value in points.items():
        chip = page.get_by_test_id(f"seat-{seat}-card-points")
        if seat != me and chip.count():
            expect(chip).to_have_attribute("data-points", str(value))
            shown += 1
    # the phase chip says the deal is over; nobody's turn is shown
    line = page.get_by_test_id("turn-indicator")
    expect(line.get_by_test_id("phase")).to_have_attribute("data-phase", "over")
    expect(line.get_by_test_id("phase")).to_have_text("Deal over")
    expect(line.locator(".turn-text")).to_have_count(0)
    expect(page.locator('[data-testid^="seat-"][data-turn="true"]')).to_have_count(0)
    expect(page.locator(".turn-dot")).to_have_count(0)
    # the last trick has gone to its winner
    expect(page.get_by_test_id("final-trick")).to_have_count(0, timeout=6000)  # gone to its winner
    # the totals count up and stand at the new totals
    expect(summary).to_have_attribute("data-counted", "true", timeout=5000)
    for cell in summary.get_by_test_id("summary-total").all():
        expect(cell).to_have_text(_signed(int(cell.get_attribute("data-total") or "0")))
    for seat in range(seats):
        total = page.get_by_test_id(f"seat-{seat}-total").get_attribute("data-total")
        row = summary.locator(f'tr[data-seat="{seat}"] [data-testid="summary-total"]')
        assert row.get_attribute("data-total") == total
    return shown


def _signed(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def test_two_seats_the_chip_and_the_summary_agree_at_the_end_of_a_deal(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, server.url, "Dora", PHONE, is_mobile=True, has_touch=True, reduced_motion="no-preference")
    try:
        page = seat.page
        page.goto("/")
        choose_name(page, "Dora")
        choose_computer(page, "easy")
        set_advanced(page, open_scores=True)  # R7 open_scores: the other seat's chip too
        page.get_by_test_id("create-table").click()
        expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        _play_to_the_summary(page, random.Random(3))
        assert _check_the_end_of_the_deal(page, 2) == 1
        page.screenshot(path=artifacts / "deal-end-2-390x844.jpg")
        page.set_viewport_size(LANDSCAPE)
        page.screenshot(path=artifacts / "deal-end-2-844x390.jpg")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_three_seats_the_chips_and_the_summary_agree_at_the_end_of_a_deal(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, server.url, "Dora", PHONE, is_mobile=True, has_touch=True, reduced_motion="no-preference")
    try:
        page = seat.page
        page.goto("/")
        choose_name(page, "Dora")
        page.goto("/#/")
        page.get_by_test_id("create-variant").select_option("thousand3")
        page.get_by_test_id("create-computer-seats").select_option("2")
        page.get_by_test_id("opt-bot-level").select_option("easy")
        page.get_by_test_id("create-table").click()
        expect(page.get_by_test_id("ring")).to_be_visible()
        _play_to_the_summary(page, random.Random(5))
        _check_the_end_of_the_deal(page, 3)
        page.screenshot(path=artifacts / "deal-end-3-390x844.jpg")
        page.set_viewport_size(LANDSCAPE)
        page.screenshot(path=artifacts / "deal-end-3-844x390.jpg")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
