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
from .helpers import choose_computer, choose_name, hand_snapshot, open_seat, start_computer_match, tap_card

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
        my_turn(page)
        button = page.get_by_test_id("hint")
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44  # a thumb's target
        button.click()
        expect(page.get_by_test_id("hint-box")).to_be_visible()
        expect(page.get_by_test_id("hint-action")).to_contain_text("The computer would")
        card = hinted(page)
        reason = page.get_by_test_id("hint-reason")
        if reason.count():
            assert reason.get_attribute("data-reason") in REASON_CODES
            expect(reason).not_to_be_empty()
        assert card in hand_snapshot(page)["legal"]  # the expert's card is one I may play
        page.screenshot(path=str(artifacts / "hint-phone.png"))
        # the hint box stays within the phone's width
        hint_box = page.get_by_test_id("hint-box").bounding_box()
        assert hint_box is not None and hint_box["x"] >= 0 and hint_box["x"] + hint_box["width"] <= PHONE["width"]
        before = hand_snapshot(page)["version"]
        assert tap_card(page, card, before, ({"x": 14, "y": 14}, None))
        if page.get_by_test_id("declare-dialog").count():
            page.get_by_test_id("declare-yes").click()
        page.wait_for_function(
            "v => Number(document.querySelector('[data-testid=table-page]').dataset.version) > v", arg=before
        )
        expect(page.locator('[data-testid="hand"] button.card.hinted')).to_have_count(0)  # gone with its version
        expect(page.get_by_test_id("hint-box")).to_be_hidden()

        # The keyboard: the button takes focus and Enter asks again at my next turn.
        my_turn(page)
        button.focus()
        page.keyboard.press("Enter")
        hinted(page)
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
