"""Two friends in two browsers: a private table with a stake, a whole match, history and ledger;
hidden information (R7) in the DOM and in the socket frames; reload and a cut connection."""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.support.services import ServerProcess

from .conftest import DESKTOP, PHONE
from .helpers import (
    Seat,
    assert_frames_match_server_models,
    choose_name,
    close_summary,
    create_table,
    dom_cards,
    frame_cards,
    hand,
    hands_by_version,
    join_by_invite,
    match_over,
    open_seat,
    play_one,
    room_id,
    to_history,
    version,
)

pytestmark = pytest.mark.browser

MAX_PLAYS = 400
LEGAL = '[data-testid="hand"] button[data-legal="true"]:not([disabled])'


def api_get(server: ServerProcess, seat: Seat, path: str) -> Any:
    token = seat.page.evaluate("() => JSON.parse(localStorage.getItem('1001.player')).token")
    response = httpx.get(f"{server.url}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    response.raise_for_status()
    return response.json()


def no_horizontal_scroll(seat: Seat) -> None:
    width = seat.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"horizontal scrolling on the phone: scrollWidth {width}"


def check_dom_hides_opponent(a: Seat, b: Seat) -> None:
    """R7 in the DOM: with both pages at the same version, neither names a card of the other's hand."""
    for _ in range(5):
        va, vb = version(a.page), version(b.page)
        if va == vb:
            hand_a, hand_b = set(hand(a.page)), set(hand(b.page))
            seen_a, seen_b = dom_cards(a.page), dom_cards(b.page)
            if version(a.page) == va and version(b.page) == vb:
                assert not seen_a & hand_b, f"{a.name}'s page shows {b.name}'s cards {seen_a & hand_b}"
                assert not seen_b & hand_a, f"{b.name}'s page shows {a.name}'s cards {seen_b & hand_a}"
                backs = '[data-testid^="seat-"][data-testid$="-cards"] [data-card]'  # the other's cards: backs only
                assert a.page.locator(backs).count() == 0
                return
        a.page.wait_for_timeout(100)


def check_frames_hide_opponent(a: Seat, b: Seat) -> int:
    """R7 on the wire, checked against the other player's own frames.

    B's hand at each version is known from B's own states. A frame to A at version v may name:
    in its view and everywhere but its events, no card of B's hand at v; in its events (the
    step from v-1 to v, which may end one deal and deal the next) only cards played in the open
    (`card_played`, and `trick_won` of cards A saw played) and cards A drew itself — a
    `card_drawn` of B's must carry no card, and nothing else may name a card of B's hand at
    v-1 or v. Returns the number of frames compared."""
    compared = 0
    for viewer, other in ((a, b), (b, a)):
        other_hands = hands_by_version(other)
        my_seat = next(s["view"]["seat"] for s in viewer.states() if s.get("view"))
        played: set[str] = set()
        for frame in viewer.frames:
            v = frame.get("version")
            if v is None or v not in other_hands:
                continue
            hidden = other_hands[v] | other_hands.get(v - 1, set())
            if frame.get("type") == "state" and frame.get("view"):
                my_seat = frame["view"]["seat"]  # seats swap on a rematch
            rest = {k: val for k, val in frame.items() if k != "events"}
            leaked = frame_cards(rest) & other_hands[v]
            assert not leaked, f"a {frame.get('type')} frame to {viewer.name} at version {v} names {leaked}: {rest}"
            for event in frame.get("events") or []:
                kind = event.get("kind")
                if kind == "card_played":
                    played.add(event["card"])
                elif kind == "card_drawn" and event.get("seat") != my_seat:
                    assert event.get("card") is None, f"{viewer.name} was told {other.name}'s drawn card: {event}"
                elif kind == "trick_won":
                    assert set(event["cards"]) <= played, f"trick_won names unplayed cards: {event}"
                elif kind != "card_drawn":
                    leaked = frame_cards(event) & hidden
                    assert not leaked, f"an event to {viewer.name} at version {v} names {leaked}: {event}"
            compared += 1
    return compared


def play_until_over(a: Seat, b: Seat, rng: random.Random, *, check_every: int = 3) -> int:
    plays = 0
    idle_rounds = 0
    while not (match_over(a.page) and match_over(b.page)):
        moved = False
        for seat in (a, b):
            if play_one(seat.page, rng):
                plays += 1
                moved = True
                if plays % check_every == 0:
                    check_dom_hides_opponent(a, b)
        idle_rounds = 0 if moved else idle_rounds + 1
        assert idle_rounds < 100, "nobody could play for a while"
        assert plays < MAX_PLAYS, "the match did not end"
        if not moved:
            a.page.wait_for_timeout(50)
    return plays


def test_two_friends_play_a_private_match_with_a_stake(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    anna = open_seat(browser, e2e_server.url, "Anna", DESKTOP)
    ben = open_seat(browser, e2e_server.url, "Ben", PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        anna.page.screenshot(path=artifacts / "lobby-desktop.jpg", full_page=True, animations="disabled")
        link = create_table(anna.page, target=301, stake="0.01", currency="EUR", visibility="private")
        anna.page.screenshot(path=artifacts / "waiting-desktop.jpg", animations="disabled")

        # Ben opens the invite link without a player yet: a name first, then the table's options.
        ben.page.goto(link)
        choose_name(ben.page, "Ben")
        expect(ben.page.get_by_test_id("options-summary")).to_contain_text("301")
        expect(ben.page.get_by_test_id("options-summary")).to_contain_text("€0.01")  # money by locale (ui.money)
        no_horizontal_scroll(ben)
        ben.page.get_by_test_id("join-invite").click()
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("hand").locator("button.card")).to_have_count(8)
            other = 1 if seat is anna else 0  # Anna created the table: seat 0
            expect(seat.page.get_by_test_id(f"seat-{other}-cards")).to_have_attribute("data-count", "8")
        assert room_id(anna.page) == room_id(ben.page)

        rng = random.Random(1001)
        # A few plays in, take the table screenshots (the trick area has cards by then).
        for _ in range(3):
            for seat in (anna, ben):
                play_one(seat.page, rng)
        anna.page.screenshot(path=artifacts / "table-desktop.jpg", animations="disabled")
        ben.page.screenshot(path=artifacts / "table-phone.jpg", full_page=True, animations="disabled")
        no_horizontal_scroll(ben)

        plays = play_until_over(anna, ben, rng)
        assert plays >= 24  # at least two deals of 12 tricks

        # Both see the result; the stake matches the server's record of the match (R6).
        expect(anna.page.get_by_test_id("match-result")).to_be_visible()
        expect(ben.page.get_by_test_id("match-result")).to_be_visible()
        anna.page.screenshot(path=artifacts / "match-over-desktop.jpg", animations="disabled")
        ben.page.screenshot(path=artifacts / "match-over-phone.jpg", animations="disabled")
        match_id = anna.states()[-1]["room"]["match_id"]
        detail = api_get(e2e_server, anna, f"/api/matches/{match_id}")
        assert detail["status"] == "finished" and detail["end_reason"] == "target"
        winner_seat = detail["winner_seat"]
        totals = detail["totals"]
        loser_total = totals[1 - winner_seat]
        expected = Decimal("0.01") * max(0, 301 - loser_total)
        # a zero amount is left out (protocol 2): a loser at or over the target owes nothing (R5.1)
        owed_amount = detail["stake"]["amount"] if detail["stake"] else "0.00"
        assert Decimal(owed_amount) == expected
        anna_won = detail["my_seat"] == winner_seat
        winner, loser = (anna, ben) if anna_won else (ben, anna)
        expect(winner.page.get_by_test_id("match-result")).to_have_attribute("data-won", "true")
        expect(loser.page.get_by_test_id("match-result")).to_have_attribute("data-won", "false")
        for seat in (anna, ben):
            owed = seat.page.get_by_test_id("stake-owed")
            expect(owed).to_have_attribute("data-currency", "EUR")
            assert Decimal(owed.get_attribute("data-amount") or "x") == expected
            expect(owed).to_contain_text(f"€{owed_amount}")
        if expected > 0:
            expect(winner.page.get_by_test_id("stake-owed")).to_contain_text("owes you")
            expect(loser.page.get_by_test_id("stake-owed")).to_contain_text("You owe")
        else:  # both passed the target (R5.1): the loser fell 0 points short
            expect(loser.page.get_by_test_id("stake-owed")).to_contain_text("Nothing is owed")

        # R7: nothing of the other's hand in either player's socket frames.
        assert check_frames_hide_opponent(anna, ben) > 50

        # Both history pages list the match with the stake, and the ledger shows the balance.
        for seat in (anna, ben):
            to_history(seat.page)
            row = seat.page.get_by_test_id(f"match-row-{match_id}")
            expect(row).to_be_visible()
            expect(row.get_by_test_id("match-row-result")).to_have_text("won" if seat is winner else "lost")
            expect(row.get_by_test_id("match-row-stake")).to_contain_text(f"€{owed_amount}")
            balance = seat.page.get_by_test_id("ledger-balance")
            expect(balance).to_have_count(1)
            sign = Decimal(1) if seat is winner else Decimal(-1)
            assert Decimal(balance.get_attribute("data-amount") or "x") == sign * expected
        anna.page.screenshot(path=artifacts / "history-desktop.jpg", full_page=True, animations="disabled")
        ben.page.screenshot(path=artifacts / "history-phone.jpg", full_page=True, animations="disabled")
        no_horizontal_scroll(ben)

        # One match's score sheet: every deal, ending on the final totals.
        anna.page.get_by_test_id(f"match-link-{match_id}").click()
        rows = anna.page.locator('[data-testid^="deal-row-"]')
        expect(rows).to_have_count(len(detail["deals"]))
        expect(anna.page.get_by_test_id("detail-totals")).to_contain_text(str(totals[detail["my_seat"]]))
        anna.page.screenshot(path=artifacts / "match-detail-desktop.jpg", full_page=True, animations="disabled")
        assert assert_frames_match_server_models(anna, ben) > 50
        assert not anna.errors and not ben.errors, anna.errors + ben.errors
    finally:
        anna.context.close()
        ben.context.close()


def test_reload_and_cut_connection_mid_deal(e2e_server: ServerProcess, browser: Any, artifacts: Path) -> None:
    anna = open_seat(browser, e2e_server.url, "Anna", DESKTOP)
    ben = open_seat(browser, e2e_server.url, "Ben", PHONE)
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        link = create_table(anna.page, target=301, stake="1", currency="chips")
        ben.page.goto("/")
        choose_name(ben.page, "Ben")
        join_by_invite(ben.page, link)
        rng = random.Random(7)
        for _ in range(5):
            for seat in (anna, ben):
                play_one(seat.page, rng)
        close_summary(anna.page)

        # Reload mid-deal: the same table comes back with the same hand and totals.
        before_hand = hand(anna.page)
        before_version = version(anna.page)
        trick_cards = '[data-testid="current-trick"] [data-card]'
        before_trick = anna.page.eval_on_selector_all(trick_cards, "els => els.map(e => e.dataset.card)")
        anna.page.reload()
        expect(anna.page.get_by_test_id("hand").locator("button.card")).to_have_count(len(before_hand))
        assert hand(anna.page) == before_hand
        assert version(anna.page) == before_version
        assert anna.page.eval_on_selector_all(trick_cards, "els => els.map(e => e.dataset.card)") == before_trick

        # Cut the connection: the overlay shows, and once the network is back play resumes.
        ben.context.set_offline(True)
        ben.page.evaluate("() => window.__1001.dropSocket()")
        expect(ben.page.get_by_test_id("reconnecting-overlay")).to_be_visible()
        ben.page.screenshot(path=artifacts / "reconnecting-phone.jpg", animations="disabled")
        expect(anna.page.get_by_test_id("seat-1-presence")).to_have_attribute("data-connected", "false")
        ben.page.wait_for_timeout(1500)  # offline a while: the client retries with its backoff
        ben.context.set_offline(False)
        expect(ben.page.get_by_test_id("reconnecting-overlay")).to_be_hidden(timeout=15_000)
        expect(anna.page.get_by_test_id("seat-1-presence")).to_have_attribute("data-connected", "true")
        # Keyboard: arrow keys move among the legal cards, Enter plays the focused one.
        mover = next(s for s in (anna, ben) if s.page.locator(LEGAL).count())
        legal = mover.page.locator(LEGAL)
        legal.first.focus()
        mover.page.keyboard.press("ArrowRight")
        focused = mover.page.evaluate("document.activeElement.dataset.card")
        expected_focus = legal.nth(1 if legal.count() > 1 else 0).get_attribute("data-card")
        assert focused == expected_focus
        before = version(mover.page)
        mover.page.keyboard.press("Enter")
        if mover.page.get_by_test_id("declare-dialog").count():
            mover.page.keyboard.press("Enter")  # the dialog focuses "Declare …" first
        expect(mover.page.get_by_test_id("table-page")).not_to_have_attribute("data-version", str(before))
        assert focused not in hand(mover.page)

        played = 0
        for _ in range(4):
            for seat in (anna, ben):
                if play_one(seat.page, rng):
                    played += 1
        assert played >= 3

        # Resign with confirmation: a loss with the totals as they stand (R6.2).
        ben.page.get_by_test_id("resign").click()
        ben.page.get_by_test_id("resign-no").click()
        expect(ben.page.get_by_test_id("match-over")).to_have_count(0)
        ben.page.get_by_test_id("resign").click()
        ben.page.get_by_test_id("resign-yes").click()
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("match-result")).to_be_visible()
        expect(anna.page.get_by_test_id("match-result")).to_have_attribute("data-won", "true")
        expect(ben.page.get_by_test_id("stake-owed")).to_contain_text("You owe Anna")

        # Rematch: offered by one, accepted by the other; a new match starts at 0 : 0.
        ben.page.get_by_test_id("rematch-offer").click()
        anna.page.get_by_test_id("rematch-accept").click()
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("match-over")).to_have_count(0)
            expect(seat.page.get_by_test_id("hand").locator("button.card")).to_have_count(8)
            mine = seat.states()[-1]["view"]["seat"]  # the seats are swapped in a rematch
            expect(seat.page.get_by_test_id(f"seat-{mine}")).to_have_attribute("data-me", "true")
            expect(seat.page.get_by_test_id(f"seat-{mine}-total")).to_have_attribute("data-total", "0")
        assert check_frames_hide_opponent(anna, ben) > 10
        assert_frames_match_server_models(anna, ben)
        assert not anna.errors and not ben.errors, anna.errors + ben.errors
    finally:
        anna.context.close()
        ben.context.close()
