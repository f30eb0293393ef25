"""Against the computer in the real browser: a whole match to 301, the result, a rematch it accepts
at once, history and ledger naming it; and the 32-card variant V1 with 6 cards a hand on a phone."""

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
    Seat,
    assert_frames_match_server_models,
    choose_computer,
    choose_name,
    hand,
    match_over,
    open_seat,
    play_one,
    set_advanced,
    version,
)

pytestmark = pytest.mark.browser

MAX_PLAYS = 300
HAND = '[data-testid="hand"] button.card'
LEGAL = '[data-testid="hand"] button[data-legal="true"]:not([disabled])'


def play_against_computer(
    page: Page, rng: random.Random, *, until: Any, limit: int = MAX_PLAYS, keep_summary: bool = False
) -> int:
    """Click highlighted cards until ``until()`` holds; the computer answers on its own."""
    plays = 0
    waited = 0.0
    while not until():
        if play_one(page, rng, keep_summary=keep_summary):
            plays += 1
            waited = 0.0
        else:
            page.wait_for_timeout(50)
            waited += 0.05
        assert waited < 15, "neither I nor the computer could play for 15 s"
        assert plays < limit, "the match did not end"
    return plays


def test_a_whole_match_against_the_computer(e2e_server: ServerProcess, browser: Any, artifacts: Path) -> None:
    seat = open_seat(browser, e2e_server.url, "Solo", DESKTOP)
    page = seat.page
    try:
        page.goto("/")
        choose_name(page, "Solo Sam")

        # The computer as opponent: a level to choose, the stake locked at 0, no visibility to pick.
        page.get_by_test_id("opt-stake").fill("0.05")
        choose_computer(page, "easy", target=301)
        expert = page.get_by_test_id("opt-bot-level").locator('option[value="expert"]')
        expect(expert).to_have_text(re.compile(r"^Expert — .*up to 0\.7 s a card$"))  # issue 14 (shorter: issue 22)
        expect(page.get_by_test_id("opt-stake")).to_be_disabled()
        expect(page.get_by_test_id("opt-stake")).to_have_value("0")
        expect(page.get_by_test_id("opt-currency")).to_be_disabled()
        expect(page.get_by_test_id("opt-visibility")).to_be_hidden()
        expect(page.get_by_test_id("stake-help")).to_have_text("No stake against the computer.")
        expect(page.get_by_test_id("create-table")).to_have_text("Play against the computer")
        page.screenshot(path=artifacts / "lobby-computer-desktop.jpg", animations="disabled")
        # Back to a friend: the stake typed before comes back.
        page.get_by_test_id("opt-opponent-human").check()
        expect(page.get_by_test_id("opt-stake")).to_have_value("0.05")
        expect(page.get_by_test_id("opt-visibility")).to_be_visible()
        page.get_by_test_id("opt-opponent-computer").check()

        # Straight to the table: the computer sits in seat 1 and the match is on.
        page.get_by_test_id("create-table").click()
        expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(8)
        expect(page.get_by_test_id("waiting-panel")).to_have_count(0)
        expect(page.get_by_test_id("seat-1-name")).to_have_text("Computer (easy)")
        expect(page.get_by_test_id("seat-1-presence")).to_have_attribute("data-bot", "easy")
        expect(page.locator('[data-testid$="-grace"]')).to_have_count(0)
        expect(page.get_by_test_id("chat")).to_be_hidden()
        expect(page.get_by_test_id("scoreboard")).to_contain_text("Computer (easy)")
        first = seat.states()[0]
        assert first["room"]["status"] == "playing" and first["room"]["visibility"] == "private"
        assert first["room"]["players"][1]["bot_level"] == "easy"
        assert first["room"]["options"]["stake_per_point"] == "0"

        # Play to the end of the first deal: the last trick stays and its summary holds the next hand back.
        rng = random.Random(301)
        summary = page.get_by_test_id("deal-summary")
        play_against_computer(page, rng, until=lambda: summary.count() > 0 or match_over(page), keep_summary=True)
        if not match_over(page):
            expect(summary).to_contain_text("Deal 1 is over")
            opponent_row = summary.get_by_test_id("summary-row-1").locator("th")  # the computer's seat
            expect(opponent_row).to_have_text("Computer")
            expect(opponent_row).to_have_attribute("title", "Computer (easy)")
            totals = seat.states()[-1]["view"]["totals"]
            me = seat.states()[-1]["view"]["seat"]
            expect(summary.get_by_test_id("summary-row-me").get_by_test_id("summary-total")).to_have_text(
                str(totals[me])
            )
            assert page.evaluate("document.scrollingElement.scrollTop") == 0, "the table page scrolled"
            page.screenshot(path=artifacts / "deal-summary-desktop.jpg", animations="disabled")
            # The next hand waits behind the summary; closing it deals the cards.
            expect(summary).to_be_visible()
            expect(page.locator(HAND)).to_have_count(0)
            page.get_by_test_id("deal-summary-close").click()
            expect(summary).to_have_count(0)
            expect(page.locator(HAND)).to_have_count(8)

        play_against_computer(page, rng, until=lambda: match_over(page))
        expect(page.get_by_test_id("match-result")).to_be_visible()
        expect(page.get_by_test_id("stake-owed")).to_have_text("A friendly game — nobody owes anything.")
        view = seat.states()[-1]["view"]
        assert max(view["totals"]) >= 301 and view["end_reason"] == "target"
        won = view["winner"] == view["seat"]
        expect(page.get_by_test_id("match-result")).to_have_attribute("data-won", str(won).lower())
        if not won:
            expect(page.get_by_test_id("match-result")).to_have_text("Computer (easy) won the match")
        match_id = seat.states()[-1]["room"]["match_id"]
        page.screenshot(path=artifacts / "match-over-computer-desktop.jpg", animations="disabled")

        # Rematch: the computer accepts at once; seats swap and nothing is left waiting.
        expect(page.get_by_test_id("rematch-offer")).to_have_text("Play again")
        page.get_by_test_id("rematch-offer").click()
        expect(page.get_by_test_id("match-over")).to_have_count(0)
        expect(page.get_by_test_id("seat-1-total")).to_have_attribute("data-total", "0")  # my new seat: the seats swap
        expect(page.get_by_test_id("seat-1")).to_have_attribute("data-me", "true")
        expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(8)
        expect(page.get_by_test_id("rematch-status")).to_have_count(0)
        expect(page.get_by_test_id("table-page")).not_to_contain_text("waiting")
        expect(page.get_by_test_id("table-page")).not_to_contain_text("Rematch")
        latest = seat.states()[-1]
        assert latest["room"]["match_id"] != match_id and latest["room"]["status"] == "playing"
        assert latest["view"]["seat"] == 1 - view["seat"], "the seats are swapped in a rematch"
        assert latest["room"]["players"][1 - latest["view"]["seat"]]["bot_level"] == "easy"
        expect(page.get_by_test_id("seat-0-name")).to_have_text("Computer (easy)")
        page.screenshot(path=artifacts / "rematch-computer-desktop.jpg", animations="disabled")
        # The second match is resigned at once (a loss, R6.2).
        before = version(page)
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-yes").click()
        expect(page.get_by_test_id("match-result")).to_have_attribute("data-won", "false")
        assert version(page) > before

        # History and ledger name the computer with its level, in the player's language.
        page.get_by_test_id("nav-history").click()
        row = page.get_by_test_id(f"match-row-{match_id}")
        expect(row.get_by_test_id("match-row-opponent")).to_have_text("Computer (easy)")
        expect(row.get_by_test_id("match-row-result")).to_have_text("won" if won else "lost")
        expect(row.get_by_test_id("match-row-stake")).to_have_text("friendly")
        expect(page.locator('[data-testid^="match-row-m_"]')).to_have_count(2)
        ledger = page.get_by_test_id("ledger-name")
        expect(ledger).to_have_count(1)
        expect(ledger).to_have_text("Computer (easy)")
        expect(page.get_by_test_id("ledger")).to_contain_text("2 played")
        page.screenshot(path=artifacts / "history-computer-desktop.jpg", full_page=True, animations="disabled")
        page.get_by_test_id("lang-select").select_option("de")
        expect(row.get_by_test_id("match-row-opponent")).to_have_text("Computer (leicht)")
        page.get_by_test_id("lang-select").select_option("ru")
        expect(page.get_by_test_id("ledger-name")).to_have_text("Компьютер (лёгкий)")
        page.get_by_test_id("lang-select").select_option("en")

        page.get_by_test_id(f"match-link-{match_id}").click()
        expect(page.get_by_test_id("match-detail")).to_contain_text("Match against Computer (easy)")
        expect(page.get_by_test_id("options-summary")).to_contain_text("Computer (easy)")
        assert page.locator('[data-testid^="deal-row-"]').count() >= 1
        assert assert_frames_match_server_models(seat) > 0
        assert not seat.errors, seat.errors
        assert not e2e_server.errors(), e2e_server.errors()
    finally:
        seat.context.close()


def test_the_32_card_game_on_a_phone(e2e_server: ServerProcess, browser: Any, artifacts: Path) -> None:
    seat: Seat = open_seat(browser, e2e_server.url, "Vee", PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = seat.page
    try:
        page.goto("/")
        choose_name(page, "Vera")
        choose_computer(page, "medium", target=1001)
        set_advanced(page, scoring="by_order", deck_size=32, open_scores=True, grace_s=300)
        page.screenshot(path=artifacts / "lobby-advanced-phone.jpg", full_page=True, animations="disabled")
        page.get_by_test_id("create-table").click()

        # V1: 6 cards to each player, 20 in the stock (32 − 12).
        expect(page.locator(HAND)).to_have_count(6)
        # (5 once the computer, when it is forehand, has led: it waits only BOT_DELAY_S)
        expect(page.get_by_test_id("seat-1-cards")).to_have_attribute("data-count", re.compile(r"^[56]$"))
        expect(page.get_by_test_id("stock-count")).to_have_attribute("data-count", "20")
        for card in hand(page):
            assert re.fullmatch(r"[AKQJT987][CSHD]", card), card
        state = seat.states()[-1]
        assert state["room"]["options"]["deck_size"] == 32 and state["room"]["options"]["open_scores"] is True
        # open_scores: both players' card points, the computer's beside its name.
        expect(page.get_by_test_id("seat-1-card-points")).to_be_visible()
        expect(page.get_by_test_id("card-points")).to_contain_text("Computer (medium)")
        # R6.3: against the computer alone the seat is never lost by absence (whatever the seat hold says).
        expect(page.get_by_test_id("leave-hint")).to_contain_text("The computer waits for you")
        options = page.get_by_test_id("scoreboard").get_by_test_id("options-summary")
        expect(options).to_contain_text("32")
        expect(options).not_to_contain_text("V1")  # no rule codes in player text (issue 22)
        expect(options).to_contain_text("by order")

        # The 8 and the 7 are drawn like every other card: index, suit and a spoken name.
        faces = page.evaluate(
            """async () => {
              const { cardEl } = await import('/js/cards.js');
              return ['8H', '7C'].map((code) => {
                const el = cardEl(code);
                return { label: el.getAttribute('aria-label'), index: el.querySelector('.idx').textContent,
                         suit: el.querySelector('.csuit').textContent, red: el.classList.contains('red') };
              });
            }"""
        )
        assert faces == [
            {"label": "Eight of hearts", "index": "8", "suit": "♥", "red": True},
            {"label": "Seven of clubs", "index": "7", "suit": "♣", "red": False},
        ]

        # A whole deal of 16 tricks; the summary then sits over the computer's side, not over a card.
        rng = random.Random(32)
        summary = page.get_by_test_id("deal-summary")
        while summary.count() == 0 and not match_over(page):
            legal = page.locator(LEGAL)
            if not legal.count():
                page.wait_for_timeout(50)
                continue
            legal.first.click()
            if page.get_by_test_id("declare-dialog").count():
                page.get_by_test_id("declare-no").click()
        deal_over = next(
            e for s in reversed(seat.states()) for e in s["events"] if e["kind"] == "deal_over" and e["number"] == 0
        )
        assert sum(deal_over["card_points"]) == 120, "7s and 8s score nothing: the pack still holds 120"
        expect(summary).to_be_visible()
        # The summary fits the phone and holds the next hand back until it is closed.
        page.screenshot(path=artifacts / "deal-summary-phone.jpg", animations="disabled")
        box = summary.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        expect(page.locator(HAND)).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.get_by_test_id("deal-summary-close").click()
        expect(summary).to_have_count(0)
        expect(page.locator(HAND)).to_have_count(6)
        page.locator(LEGAL).first.wait_for()
        assert play_one(page, rng, scoring="by_order")
        page.screenshot(path=artifacts / "table-32-phone.jpg", animations="disabled")
        assert assert_frames_match_server_models(seat) > 0
        assert not seat.errors, seat.errors
        assert not e2e_server.errors(), e2e_server.errors()
    finally:
        seat.context.close()
