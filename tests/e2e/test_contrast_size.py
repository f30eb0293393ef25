"""Contrast and size at the table (issue 22), measured upright (390×844) and on the side (844×390):
the resign flag ⚑ at least 3:1 against every colour behind it (WCAG 1.4.11, a graphic), the gold
"your turn" line at least 4.5:1 (1.4.3, text) — from the computed colours of the element and of
everything under it, gradients by each of their stops; every button of the table bar at least
44×44 px; the replay's next-deal button at least 44×44; and the card the keyboard focused looks
different from the other playable cards (a ring of its own, not only the raise), while the card
focused when the page loads is neither raised nor ringed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import VIEWPORTS
from .helpers import ScriptedTable, latest_deal, open_seat, settle, start_computer_match
from .test_touch_hand import wait_until
from .touch import worst_contrast

pytestmark = pytest.mark.browser

SIZES = ("390x844", "844x390")
TARGET = 44


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.eval_on_selector_all(
        selector,
        """els => els.filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
                 .map(e => { const r = e.getBoundingClientRect();
                   return { id: e.dataset.testid || e.className, w: r.width, h: r.height }; })""",
    )
    return found


def ring(page: Page, selector: str) -> dict[str, str]:
    found: dict[str, str] = page.locator(selector).first.evaluate(
        """el => { const s = getComputedStyle(el);
             return { style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor,
                      shadow: s.boxShadow, transform: s.transform, z: s.zIndex }; }"""
    )
    return found


def test_resign_flag_turn_line_bar_buttons_and_the_focused_card(
    seeded_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    phone = VIEWPORTS["390x844"]
    seat = open_seat(browser, seeded_server.url, "Contrast", phone, locale="en-GB", reduced_motion="reduce")
    page = seat.page
    problems: list[str] = []
    try:
        start_computer_match(page, "Contrast")
        wait_until(page, lambda: latest_deal(seat).get("turn") == 0, "my first lead")
        expect(page.get_by_test_id("turn-indicator")).to_have_attribute("data-my-turn", "true")
        # The card focused on load: no ring, no raise (before any key).
        expect(page.locator('[data-testid="hand"] button.card:focus')).to_have_count(1)
        first = ring(page, '[data-testid="hand"] button.card:focus')
        assert first["style"] == "none" and first["z"] == "auto" and first["transform"] == "none", first
        for size in SIZES:
            page.set_viewport_size(VIEWPORTS[size])
            settle(page)
            flag, seen = worst_contrast(page, '[data-testid="resign"] .flag')
            if flag < 3:
                problems.append(f"{size}: the resign flag is {flag:.2f}:1 ({seen})")
            line, seen = worst_contrast(page, '[data-testid="turn-indicator"].mine .turn-text')
            if line < 4.5:
                problems.append(f"{size}: the gold turn line is {line:.2f}:1 ({seen})")
            for box in boxes(page, ".table-bar button, .table-bar a"):
                if box["w"] < TARGET - 0.5 or box["h"] < TARGET - 0.5:
                    problems.append(f"{size}: the bar's {box['id']} is {box['w']:.0f}×{box['h']:.0f}")
            page.screenshot(path=artifacts / f"contrast-table-{size}.jpg", animations="disabled")

        # The keyboard: an arrow key moves focus along the hand; the focused card has its ring.
        page.set_viewport_size(VIEWPORTS["390x844"])
        page.keyboard.press("ArrowRight")
        focused = ring(page, '[data-testid="hand"] button.card:focus')
        other = ring(page, '[data-testid="hand"] button.card[data-legal="true"]:not(:focus)')
        assert focused["style"] == "solid" and float(focused["width"].rstrip("px")) >= 3, focused
        assert other["style"] == "none", other
        assert (focused["color"], focused["shadow"]) != (other["color"], other["shadow"]), (focused, other)
        assert focused["transform"] != "none" and focused["z"] != "auto", focused  # raised and on top
        page.screenshot(path=artifacts / "contrast-keyboard-focus-390x844.jpg", animations="disabled")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
    assert not problems, "\n".join(problems)


def test_the_replays_next_deal_button_is_44_by_44(e2e_server: ServerProcess, browser: Any, artifacts: Path) -> None:
    table = ScriptedTable(e2e_server.url, {"visibility": "public"})
    try:
        table.play(27)  # a deal is 24 plays: into the second deal
        table.resign()
        match_id = table.match_id
    finally:
        table.close()
    seat = open_seat(browser, e2e_server.url, "Replay", VIEWPORTS["390x844"], locale="en-GB")
    page = seat.page
    problems: list[str] = []
    try:
        page.goto(f"/#/replay/{match_id}/0")
        expect(page.get_by_test_id("replay-deal-next")).to_be_visible()
        for size in (*SIZES, "360x640"):
            page.set_viewport_size(VIEWPORTS[size])
            settle(page)
            for box in boxes(page, '[data-testid="replay-deal-next"], [data-testid="replay-deal-prev"]'):
                if box["w"] < TARGET - 0.5 or box["h"] < TARGET - 0.5:
                    problems.append(f"{size}: {box['id']} is {box['w']:.0f}×{box['h']:.0f}")
            page.screenshot(path=artifacts / f"contrast-replay-{size}.jpg", animations="disabled")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
    assert not problems, "\n".join(problems)
