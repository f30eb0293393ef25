"""A tap plays the card tapped (issue 22, defect 1), on a phone emulated with touch, upright and on
its side: after a reload the first playable card has focus, but focus raises nothing on touch; a tap
counts only where a card is drawn, so a tap on the visible strip of each card of the hand (its box
minus the boxes of the cards drawn over it) plays that card — tapped after a reload each time, the
play caught on its way to the server (``route_web_socket``) so that the same hand comes back; then
one play goes through. With "tap to raise" on (the table's drawer, remembered on the device), a
first tap raises a card, a tap on another moves the raise and a second tap plays. At a table of
three the declarer picks two cards to discard by taps (V7.2): each tap picks the card tapped, and a
picked card covers no other card's strip.

Runs on the seeded server (``MATCH_SEED``): the creator leads the first deal (R4: any card may be led).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess, serving

from .conftest import VIEWPORTS
from .helpers import Seat, choose_name, close_summary, latest_deal, open_seat, play_one, start_computer_match
from .touch import HAND_AT_REST_JS, strips

pytestmark = pytest.mark.browser

TOUCH = {"has_touch": True, "is_mobile": True}
WAIT_S = 30.0
HAND = '[data-testid="hand"]'


def wait_until(page: Page, condition: Any, what: str, timeout_s: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(50)


class Catcher:
    """Stands between the page and the server's socket: forwards every frame both ways, keeps the
    frames the page receives (``seat.frames``) and, while ``holding``, keeps the page's `play`
    intents to itself (``caught``) instead of sending them on."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.holding = True
        self.caught: list[dict[str, Any]] = []
        seat.page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = _json(message)
            if self.holding and data.get("type") == "play":
                self.caught.append(data)
                return
            server.send(message)

        def from_server(message: str | bytes) -> None:
            data = _json(message)
            if data:
                self.seat.frames.append(data)
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)


def _json(message: str | bytes) -> dict[str, Any]:
    try:
        data = json.loads(message)
    except (TypeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def fresh_table(page: Page) -> None:
    """A reload, then the hand drawn with my lead to play (and focus given to its first card)."""
    page.reload()
    ready = f'{HAND}[data-turn="true"][data-pending="false"] button[data-legal="true"]'
    expect(page.locator(ready).first).to_be_visible()
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#app .hand button.card')")
    page.wait_for_function(HAND_AT_REST_JS)  # the deal's cards have flown in (issue 22: cards that travel)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def focus_raises_nothing(page: Page) -> None:
    """The card focused on load keeps its place: not moved, not put on top of its neighbours."""
    style = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return [s.transform, s.zIndex, s.outlineStyle]; }"
    )
    assert style[0] in ("none", "matrix(1, 0, 0, 1, 0, 0)") and style[1] == "auto" and style[2] == "none", style


def tap_strip(page: Page, strip: dict[str, Any]) -> None:
    assert strip["hit"] == strip["card"], f"the middle of {strip['card']}'s strip is {strip['hit']}: {strip}"
    page.touchscreen.tap(strip["x"], strip["y"])


def answer_marriage(page: Page) -> None:
    """A K or Q that may declare asks first (R3): no marriage, the card goes."""
    no = page.get_by_test_id("declare-no")
    try:
        no.wait_for(state="visible", timeout=600)
    except Exception:
        return
    no.tap()


@pytest.mark.parametrize("size", ["390x844", "844x390", "360x640"])
def test_after_a_reload_a_tap_on_each_cards_visible_strip_plays_that_card(
    size: str, seeded_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, seeded_server.url, f"Thumb {size}", VIEWPORTS[size], locale="en-GB", **TOUCH)
    page = seat.page
    catcher = Catcher(seat)
    try:
        start_computer_match(page, "Thumb")
        wait_until(page, lambda: latest_deal(seat).get("turn") == 0, "my first lead")
        fresh_table(page)
        cards = [s["card"] for s in strips(page)]
        rows = page.get_by_test_id("hand").get_attribute("data-rows")
        if size != "844x390":
            assert rows == "2", "the upright phone no longer holds the hand in two rows"
        page.screenshot(path=artifacts / f"touch-hand-{size}.jpg", animations="disabled")
        for index, card in enumerate(cards):
            fresh_table(page)
            focus_raises_nothing(page)
            now = strips(page)
            assert [s["card"] for s in now] == cards
            strip = now[index]
            assert strip["w"] >= 20 and strip["h"] >= 30, f"{card}'s visible strip is {strip['w']:.0f}×{strip['h']:.0f}"
            before = len(catcher.caught)
            tap_strip(page, strip)
            answer_marriage(page)
            wait_until(page, lambda n=before: len(catcher.caught) > n, f"the play of {card}", 5)
            played = catcher.caught[-1]["card"]
            assert played == card, f"a tap on {card}'s strip ({strip['x']:.0f}, {strip['y']:.0f}) played {played}"
        # The last one for real: the server takes the card tapped.
        catcher.holding = False
        fresh_table(page)
        strip = strips(page)[1]
        tap_strip(page, strip)
        answer_marriage(page)
        gone = lambda: strip["card"] not in (latest_deal(seat).get("hand") or [strip["card"]])  # noqa: E731
        wait_until(page, gone, "the card played")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


@pytest.mark.parametrize("size", ["390x844", "844x390"])
def test_tap_to_raise_a_first_tap_raises_another_moves_it_the_second_plays(
    size: str, seeded_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, seeded_server.url, f"Raiser {size}", VIEWPORTS[size], locale="en-GB", **TOUCH)
    page = seat.page
    catcher = Catcher(seat)
    try:
        start_computer_match(page, "Raiser")
        wait_until(page, lambda: latest_deal(seat).get("turn") == 0, "my first lead")
        # Off by default: a tap plays at once.
        assert page.evaluate("() => localStorage.getItem('1001.tapToRaise')") is None
        page.get_by_test_id("sheet-toggle").tap()
        page.get_by_test_id("sheet-tab-table").tap()
        switch = page.get_by_test_id("tap-to-raise")
        expect(switch).not_to_be_checked()
        expect(page.locator('label[for="tap-to-raise"]')).to_have_text("Tap to raise a card, tap again to play it")
        page.locator('label[for="tap-to-raise"]').tap()
        expect(switch).to_be_checked()
        assert page.evaluate("() => localStorage.getItem('1001.tapToRaise')") == "1"
        fresh_table(page)  # remembered on the device
        page.get_by_test_id("sheet-toggle").tap()
        page.get_by_test_id("sheet-tab-table").tap()
        expect(page.get_by_test_id("tap-to-raise")).to_be_checked()
        page.get_by_test_id("sheet-close").tap()
        expect(page.get_by_test_id("table-sheet")).to_have_attribute("data-open", "false")

        fresh_table(page)
        first = strips(page)
        a, b = first[0], first[4]  # upright: one in each row
        tap_strip(page, a)
        expect(page.get_by_test_id(f"card-{a['card']}")).to_have_attribute("data-raised", "true")
        # Raised, but no neighbour lost its strip: every strip's middle still hits its own card.
        assert all(s["hit"] == s["card"] for s in strips(page)), strips(page)
        tap_strip(page, b)
        expect(page.get_by_test_id(f"card-{b['card']}")).to_have_attribute("data-raised", "true")
        expect(page.locator(f"{HAND} [data-raised]")).to_have_count(1)
        page.screenshot(path=artifacts / f"touch-tap-to-raise-{size}.jpg", animations="disabled")
        page.wait_for_timeout(300)
        assert not catcher.caught, f"a first tap played: {catcher.caught}"
        again = next(s for s in strips(page) if s["card"] == b["card"])
        tap_strip(page, again)
        answer_marriage(page)
        wait_until(page, lambda: bool(catcher.caught), "the second tap's play", 5)
        assert [c["card"] for c in catcher.caught] == [b["card"]]
        # A tap off the hand lowers the raised card.
        fresh_table(page)
        c = strips(page)[2]
        tap_strip(page, c)
        expect(page.get_by_test_id(f"card-{c['card']}")).to_have_attribute("data-raised", "true")
        box = page.get_by_test_id("turn-indicator").bounding_box()
        assert box
        page.touchscreen.tap(box["x"] + 4, box["y"] + box["height"] / 2)
        expect(page.locator(f"{HAND} [data-raised]")).to_have_count(0)
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("e2e-touch"), BOT_DELAY_S="0") as process:
        yield process


@pytest.mark.parametrize("size", ["390x844", "844x390"])
def test_the_declarer_picks_the_card_tapped_and_a_picked_card_covers_no_strip(
    size: str, quick_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, quick_server.url, f"Picker {size}", VIEWPORTS[size], locale="en-GB", **TOUCH)
    page = seat.page
    try:
        page.goto("/")
        choose_name(page, "Picker")
        page.get_by_test_id("create-variant").select_option("bidding")
        page.get_by_test_id("create-seats").select_option("3")
        page.get_by_test_id("create-computer-seats").select_option("2")
        page.get_by_test_id("opt-bot-level").select_option("easy")
        page.get_by_test_id("create-table").click()
        expect(page.get_by_test_id("ring")).to_be_visible()
        # Bid whenever I may until the talon is mine (V7); a deal a computer won is played out.
        deadline = time.monotonic() + 150
        rng = random.Random(3)
        submit = page.get_by_test_id("discard-submit")
        while not (submit.count() and submit.is_visible()):
            assert time.monotonic() < deadline, "never the declarer"
            close_summary(page)
            bid = page.get_by_test_id("bid-submit")
            if bid.count() and bid.is_visible() and bid.is_enabled():
                bid.click()
                page.wait_for_timeout(100)
                continue
            if not play_one(page, rng):
                page.wait_for_timeout(50)
        page.reload()
        expect(page.get_by_test_id("discard-submit")).to_be_visible()
        expect(page.locator(f"{HAND} button.card")).to_have_count(12)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        if size == "390x844":
            assert page.get_by_test_id("hand").get_attribute("data-rows") == "2"
        before = strips(page)
        for strip in before:
            card = strip["card"]
            tap_strip(page, strip)
            expect(page.get_by_test_id(f"card-{card}")).to_have_attribute("aria-pressed", "true")
            expect(page.locator(f'{HAND} [aria-pressed="true"]')).to_have_count(1)
            if strip is before[0]:
                page.screenshot(path=artifacts / f"touch-discard-pick-{size}.jpg", animations="disabled")
            # The picked card covers nobody's strip: each strip's middle, as it was, hits its own card.
            hits = page.evaluate(
                """(points) => points.map(([x, y]) => {
                  const el = document.elementFromPoint(x, y);
                  const card = el && el.closest('[data-testid="hand"] [data-card]');
                  return card ? card.dataset.card : null;
                })""",
                [[s["x"], s["y"]] for s in before],
            )
            assert hits == [s["card"] for s in before], f"with {card} picked: {hits}"
            tap_strip(page, strip)  # and un-picked again
            expect(page.locator(f'{HAND} [aria-pressed="true"]')).to_have_count(0)
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
