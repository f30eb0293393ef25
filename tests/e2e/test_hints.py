"""Hints in the browser (issue 26) on a 390×844 phone: at a table against the computer the bar's Hint
button, at my turn, marks the expert's card in my hand and says why in my language; the card is then
played; keyboard only, the same. A table whose creator turned hints off shows no button."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from backend.bots.reasons import REASON_CODES
from tests.support.services import ServerProcess

from .conftest import PHONE
from .helpers import (
    choose_computer,
    choose_name,
    declare_and_see_the_play,
    hand_snapshot,
    open_seat,
    start_computer_match,
    tap_card,
)

pytestmark = pytest.mark.browser
LEGAL = '[data-testid=hand] button[data-legal="true"]:not([disabled])'


def my_turn(page: Page) -> None:
    """Wait until a card of mine may be played (the computer may lead first)."""
    page.wait_for_function(f"() => document.querySelector('{LEGAL}')")


def hinted(page: Page) -> str:
    """The card the shown hint marks in my hand."""
    card = page.locator('[data-testid="hand"] button.card.hinted')
    expect(card).to_have_count(1)
    value = card.get_attribute("data-card")
    assert value is not None
    return value


def test_a_hint_on_a_phone_marks_the_card_says_why_and_the_card_is_played(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, e2e_server.url, "Hinted", PHONE)
    page = seat.page
    try:
        start_computer_match(page, "Hilde")
        button = page.get_by_test_id("hint")
        reasons = 0
        for turn in range(12):  # a hint at each of my turns, its card played, until one says why
            my_turn(page)
            expect(button).to_be_visible()
            if turn == 0:
                box = button.bounding_box()
                assert box is not None and box["width"] >= 44 and box["height"] >= 44  # a thumb's target
                button.click()
            else:  # the keyboard: the button takes focus and Enter asks
                button.focus()
                page.keyboard.press("Enter")
            expect(page.get_by_test_id("hint-action")).to_contain_text("The computer would")
            card = hinted(page)
            assert card in hand_snapshot(page)["legal"]  # the expert's card is one I may play
            reason = page.get_by_test_id("hint-reason")
            if reason.count():
                assert reason.get_attribute("data-reason") in REASON_CODES
                expect(reason).not_to_be_empty()
                reasons += 1
                page.screenshot(path=str(artifacts / "hint-phone.jpg"))
                hint_box = page.get_by_test_id("hint-box").bounding_box()
                assert hint_box is not None
                assert 0 <= hint_box["x"] <= hint_box["x"] + hint_box["width"] <= PHONE["width"]
            now = hand_snapshot(page)
            before = now["version"]
            assert tap_card(page, card, before, ({"x": 14, "y": 14}, None))
            declare_and_see_the_play(page, before, asks=card in now["declarable"])
            expect(page.locator('[data-testid="hand"] button.card.hinted')).to_have_count(0)  # gone with its version
            expect(page.get_by_test_id("hint-box")).to_be_hidden()
            if reasons:
                break
        assert reasons, "no hint in twelve said why"
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_no_hint_button_where_the_creator_turned_hints_off(e2e_server: ServerProcess, browser: Any) -> None:
    seat = open_seat(browser, e2e_server.url, "Plain", PHONE)
    page = seat.page
    try:
        page.goto("/")
        choose_name(page, "Paul")
        choose_computer(page, "easy")
        page.get_by_test_id("opt-hints").uncheck()
        page.get_by_test_id("create-table").click()
        my_turn(page)
        expect(page.get_by_test_id("hint")).to_be_hidden()
    finally:
        seat.context.close()


SIZES = ({"width": 390, "height": 844}, {"width": 844, "height": 390}, {"width": 1366, "height": 768})


def new_table(page: Page, seats: int) -> None:
    """One person against the computer (easy): two-hand 1001, V7 for three, V5 for four."""
    if seats == 2:
        choose_computer(page, "easy")
    else:
        page.get_by_test_id("create-variant").select_option("bidding" if seats == 3 else "thousand4")
        if seats == 3:
            page.get_by_test_id("create-seats").select_option("3")
        page.get_by_test_id("create-computer-seats").select_option(str(seats - 1))
        page.get_by_test_id("opt-bot-level").select_option("easy")
        page.get_by_test_id("opt-target").select_option("301")
    expect(page.get_by_test_id("opt-hints")).to_be_checked()  # on by default against the computer
    page.get_by_test_id("create-table").click()


def assert_fits(page: Page, size: dict[str, int]) -> None:
    """The hint, its button and the hand all on the screen; the hint clear of the hand's cards."""
    button = page.get_by_test_id("hint").bounding_box()
    box = page.get_by_test_id("hint-box").bounding_box()
    assert button is not None and box is not None
    assert button["width"] >= 44 and button["height"] >= 44
    for rect in (button, box):
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= size["width"] + 0.5, (size, rect)
        assert rect["y"] >= 0 and rect["y"] + rect["height"] <= size["height"] + 0.5, (size, rect)
    tops = page.locator('[data-testid="hand"] button.card').evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().top)"
    )
    assert tops and box["y"] + box["height"] <= min(tops) + 1, (size, box, min(tops))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_hint_fits_phones_upright_and_on_their_side_and_the_desktop(
    e2e_server: ServerProcess, browser: Any, artifacts: Path, seats: int
) -> None:
    seat = open_seat(browser, e2e_server.url, f"Layout{seats}", SIZES[1])
    page = seat.page
    try:
        page.goto("/")
        choose_name(page, f"Lena {seats}")
        new_table(page, seats)
        page.wait_for_function(
            "() => { const b = document.querySelector('[data-testid=hint]'); return b && !b.hidden; }"
        )
        page.get_by_test_id("hint").click()
        expect(page.get_by_test_id("hint-action")).to_be_visible()
        for size in SIZES:
            page.set_viewport_size(size)
            page.wait_for_timeout(100)  # the hand is laid out again on resize
            assert_fits(page, size)
            page.screenshot(path=str(artifacts / f"hint-{seats}-{size['width']}x{size['height']}.jpg"))
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
