"""Landscape phones (844×390) and the same upright (390×844), issue 22 defect 6: the marriage banner
(R3) never covers the cards of the trick, and at the end of a match the table keeps its full-screen
frame (no site header) with the race chart whole inside a panel that scrolls.

Runs on the seeded server (``MATCH_SEED``): the table's creator leads the first deal holding K♥ Q♥."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import VIEWPORTS
from tests.e2e.helpers import choose_computer, choose_name, open_seat, play_one, settle
from tests.support.services import ServerProcess

pytestmark = pytest.mark.browser

SIZES = ["844x390", "390x844"]


def _box(page: Page, selector: str) -> list[dict[str, float]]:
    return page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, w: r.width, h: r.height}; })",
    )


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    across = a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
    return across and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def _start(page: Page, name: str, target: int = 301) -> None:
    page.goto("/")
    choose_name(page, name)
    choose_computer(page, "easy", target=target)
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_the_marriage_banner_leaves_the_trick_in_view(
    seeded_server: ServerProcess, browser: Any, artifacts: Path, size: str
) -> None:
    seat = open_seat(browser, seeded_server.url, "Lena", VIEWPORTS[size], is_mobile=True, has_touch=True)
    try:
        page = seat.page
        _start(page, "Lena")
        card = page.locator('[data-testid="hand"] button[data-declarable="true"]').first
        expect(card).to_be_visible()
        card.click(position={"x": 14, "y": 14})
        page.get_by_test_id("declare-yes").click()
        banner = page.get_by_test_id("marriage-banner")
        expect(banner).to_be_visible()
        expect(page.locator(".ring-trick .trick-card").first).to_be_visible()
        page.wait_for_function("() => getComputedStyle(document.querySelector('.marriage-banner')).opacity === '1'")
        settle(page)
        page.screenshot(path=artifacts / f"landscape-banner-{size}.jpg")
        banners = _box(page, ".marriage-banner")
        cards = _box(page, '[data-testid="current-trick"] .trick-card, .ghost-layer .trick-card')
        assert banners and cards, (banners, cards)
        hidden = [c for c in cards for b in banners if _overlap(b, c)]
        assert not hidden, f"the banner covers a trick card: {banners} over {hidden}"
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def _resign(page: Page) -> None:
    resign = page.get_by_test_id("resign")
    if not resign.is_visible():
        page.get_by_test_id("sheet-toggle").click()
    resign.click()
    page.get_by_test_id("resign-yes").click()


@pytest.mark.parametrize("size", SIZES)
def test_the_end_of_a_match_keeps_the_table_frame_and_the_whole_race_chart(
    seeded_server: ServerProcess, browser: Any, artifacts: Path, size: str
) -> None:
    seat = open_seat(browser, seeded_server.url, "Lena", VIEWPORTS[size], is_mobile=True, has_touch=True)
    try:
        page = seat.page
        _start(page, "Lena")
        rng = random.Random(11)
        while not page.get_by_test_id("deal-summary").count():  # a deal played: the chart has a line
            if not play_one(page, rng, keep_summary=True):
                page.wait_for_timeout(50)
        page.get_by_test_id("deal-summary-close").click()
        _resign(page)
        panel = page.get_by_test_id("match-over")
        expect(panel).to_be_visible()
        race = panel.get_by_test_id("race-chart")
        expect(race).to_be_visible()
        settle(page)
        page.screenshot(path=artifacts / f"landscape-match-over-{size}.jpg")
        # the table keeps the screen: no site header above it, no page scroll
        expect(page.locator(".site-header")).to_be_hidden()
        assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight + 1")
        # the panel lies inside the screen and scrolls; scrolled to it, the chart is whole in it
        race.scroll_into_view_if_needed()
        settle(page)
        (box,) = _box(page, ".match-panel")
        (chart,) = _box(page, '.match-panel [data-testid="race-chart"]')
        width, height = VIEWPORTS[size]["width"], VIEWPORTS[size]["height"]
        assert box["y"] >= 0 and box["y"] + box["h"] <= height + 1, box
        assert box["x"] >= 0 and box["x"] + box["w"] <= width + 1, box
        assert chart["h"] <= box["h"], (chart, box)
        assert box["y"] - 1 <= chart["y"] and chart["y"] + chart["h"] <= box["y"] + box["h"] + 1, (chart, box)
        assert box["x"] - 1 <= chart["x"] and chart["x"] + chart["w"] <= box["x"] + box["w"] + 1, (chart, box)
        page.screenshot(path=artifacts / f"landscape-match-over-chart-{size}.jpg")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
