"""The table's polish as two people see it (issue 11): the opponent's marriage is announced on the
felt (R3), chat survives a reload and shows an unread dot, resigning states its price before the
player confirms (R6.2), and a tap on a card the rules refuse (R4) says why and changes nothing.

Runs on the seeded server (``MATCH_SEED``): the table's creator leads the first deal holding K♥ Q♥.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

from playwright.sync_api import expect

from tests.e2e.helpers import (
    Seat,
    choose_name,
    close_summary,
    create_table,
    join_by_invite,
    latest_deal,
    open_seat,
    play_one,
    start_computer_match,
    version,
)
from tests.support.services import ServerProcess

PHONE = {"width": 390, "height": 844}
WAIT_S = 30


def wait_until(page: Any, condition: Any, what: str) -> None:
    """Poll the frames the page receives (Playwright delivers them while the page waits)."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(50)


def last_state(seat: Seat) -> dict[str, Any]:
    states = seat.states()
    assert states, "no state received"
    return states[-1]


def test_opponents_marriage_chat_after_reload_and_the_price_of_resigning(
    seeded_server: ServerProcess, browser: Any
) -> None:
    anna = open_seat(browser, seeded_server.url, "Anna", PHONE)
    ben = open_seat(browser, seeded_server.url, "Ben", PHONE)
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        link = create_table(anna.page, stake="0.05", currency="EUR")
        ben.page.goto("/")
        join_by_invite(ben.page, link, "Ben")
        expect(anna.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        expect(ben.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()

        # R3: Anna leads K♥ and declares; Ben sees "Anna: marriage ♥ +…" with the pair on the felt.
        first_lead = lambda: latest_deal(anna).get("turn") == latest_deal(anna).get("forehand") == 0  # noqa: E731
        wait_until(anna.page, first_lead, "Anna's lead")
        assert {"KH", "QH"} <= set(latest_deal(anna)["hand"]), "MATCH_SEED no longer deals K♥ Q♥ to the creator"
        anna.page.get_by_test_id("card-KH").click()
        anna.page.get_by_test_id("declare-yes").click()
        banner = ben.page.get_by_test_id("marriage-banner")
        expect(banner).to_be_visible()
        expect(banner).to_have_attribute("data-suit", "H")
        expect(banner).to_have_attribute("data-seat", "0")
        expect(banner).to_contain_text("Anna")
        expect(banner).to_contain_text(re.compile(r"\+\s?\d+"))
        # Anna's marriage by her seat (0), on Ben's page and on her own
        expect(ben.page.get_by_test_id("seat-0-declarations")).to_contain_text("♥")
        expect(anna.page.get_by_test_id("seat-0-declarations")).to_contain_text("♥")
        expect(anna.page.get_by_test_id("seat-1-declarations")).to_have_count(0)

        # Chat: Ben writes from the drawer; Anna's closed drawer shows the unread dot.
        ben.page.get_by_test_id("sheet-toggle").click()
        ben.page.get_by_test_id("chat-input").fill("Nice <b>marriage</b>")
        ben.page.get_by_test_id("chat-input").press("Enter")
        expect(anna.page.get_by_test_id("chat-unread")).to_be_visible()
        # A reload (and the reconnect it makes) brings the match's chat log back, as text.
        ben.page.reload()
        expect(ben.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        ben.page.get_by_test_id("sheet-toggle").click()
        expect(ben.page.get_by_test_id("chat-log")).to_contain_text("Nice <b>marriage</b>")
        anna.page.get_by_test_id("sheet-toggle").click()
        expect(anna.page.get_by_test_id("chat-log")).to_contain_text("Nice <b>marriage</b>")
        expect(anna.page.get_by_test_id("chat-unread")).to_be_hidden()
        anna.page.keyboard.press("Escape")

        # R6.2: the resign dialog names the price the server computed for Anna, before she confirms.
        price = last_state(anna)["resign_price"]
        assert price and price["debtor_seat"] == 0 and price["currency"] == "EUR", price
        anna.page.get_by_test_id("resign").click()
        shown = anna.page.get_by_test_id("resign-price")
        expect(shown).to_be_visible()
        expect(shown).to_contain_text(price["amount"])
        expect(shown).to_contain_text("Ben")
        anna.page.get_by_test_id("resign-yes").click()
        expect(anna.page.get_by_test_id("match-over")).to_be_visible()
        expect(anna.page.get_by_test_id("match-reason")).to_have_text("You resigned.")
        owed = anna.page.get_by_test_id("stake-owed")
        expect(owed).to_have_attribute("data-amount", price["amount"])
        stake = last_state(anna)["stake"]
        assert stake is not None and stake["amount"] == price["amount"], (stake, price)
    finally:
        anna.context.close()
        ben.context.close()


def test_a_refused_tap_shakes_and_says_why_in_the_players_words(seeded_server: ServerProcess, browser: Any) -> None:
    seat = open_seat(browser, seeded_server.url, "Tapper", PHONE)
    page = seat.page
    rng = random.Random(5)
    try:
        start_computer_match(page, "Tapper", target=1001)

        def blocked_now() -> list[dict[str, str]]:
            view = last_state(seat).get("view") or {}
            return list(view.get("blocked") or [])

        # Play on until a trick of phase 2 (R4) leaves me cards I may not play. A card is played only
        # on a state where it is my turn and nothing is refused, so the chance cannot be played away.
        deadline = time.monotonic() + 120
        while not blocked_now():
            assert time.monotonic() < deadline, "no refused card came up in two minutes of play"
            view = last_state(seat)["view"]
            assert view["winner"] is None, "the match ended before a card was refused"
            if not view["legal"] or play_one(page, rng) is None:
                page.wait_for_timeout(50)  # lets Playwright deliver the socket frames meanwhile
        close_summary(page)  # a summary still open would refuse every card for its own reason
        refused = blocked_now()[0]
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-version", str(last_state(seat)["version"]))
        card = page.get_by_test_id(f"card-{refused['card']}")
        expect(card).to_have_attribute("data-legal", "false")
        before = version(page)
        # Tap it; the table re-renders at once, so the shake is looked for right after the tap.
        shaking = page.evaluate(
            """(code) => {
              document.querySelector(`[data-testid="card-${code}"]`).click();
              return document.querySelector(`[data-testid="card-${code}"]`).classList.contains('shake');
            }""",
            refused["card"],
        )
        assert shaking, "the refused card does not shake"
        reason = page.get_by_test_id("illegal-reason")
        expect(reason).to_be_visible()
        text = reason.inner_text()
        assert "only" in text and not re.search(r"\bR\d", text), text  # the player's terms, no rule numbers
        # Nothing was sent: the version and the hand stay as they were.
        page.wait_for_timeout(300)
        assert version(page) == before
        assert refused["card"] in latest_deal(seat)["hand"]
    finally:
        seat.context.close()
