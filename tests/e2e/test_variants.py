"""The 1001 family for three (issue 13, RULES-VARIANTS V2–V7) in real browsers on phones: three
friends meet at a table of "1000 for three" through the lobby and the invite link and play a whole
deal by tapping cards, each page showing its own hand and never another's; one person plays a whole
match of 1001 with bidding (V7) against two computer seats, bidding with the stepper, passing and
laying the talon's two cards away by taps; a spectator watches a three-seat table (V2) with
computer seats and sees every seat as card backs, the auction and the trick, and no control."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess, serving
from tests.support.tables import table

from .conftest import PHONE
from .helpers import (
    Seat,
    assert_frames_match_server_models,
    choose_name,
    close_summary,
    dom_cards,
    frame_cards,
    hand,
    hands_by_version,
    open_seat,
    play_one,
    version,
    visible,
)
from .test_polish_pages import api_json, sign_in

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The computer seats answer at once: a whole match on two cores stays short."""
    with serving("sqlite", tmp_path_factory.mktemp("e2e-variants"), BOT_DELAY_S="0") as process:
        yield process


def new_variant_table(page: Page, variant: str, *, computers: int, seats: int | None = None, target: int = 301) -> None:
    """The lobby form: a variant, its seats, how many of them are computers (easy), the target."""
    page.goto("/#/")
    page.get_by_test_id("create-variant").select_option(variant)
    if seats is not None:
        page.get_by_test_id("create-seats").select_option(str(seats))
    page.get_by_test_id("create-computer-seats").select_option(str(computers))
    if computers:
        levels = page.get_by_test_id("opt-bot-level").locator("option")
        assert levels.evaluate_all("els => els.map(e => e.value)") == ["easy", "medium", "hard", "expert"]  # issue 25
        page.get_by_test_id("opt-bot-level").select_option("easy")
    page.get_by_test_id("opt-target").select_option(str(target))
    page.get_by_test_id("create-table").click()


def expect_seat_name(where: Any, seat: int, name: str) -> None:
    """A seat named on the felt: its whole name where it fits, else a shorter one (a computer
    without its level) or only its tag, the whole name in its title and in the seat's label."""
    expect(where.get_by_test_id(f"seat-{seat}")).to_have_attribute("aria-label", name)
    element = where.get_by_test_id(f"seat-{seat}-name")
    expect(element).to_have_attribute("data-fit", re.compile(r"^\d+$|^tag$"))
    if element.get_attribute("data-fit") != "0":
        expect(element).to_have_attribute("title", name)
    expect(where.get_by_test_id(f"seat-{seat}-tag")).to_be_visible()


def screenshots(page: Page, artifacts: Path, tag: str) -> None:
    """The page upright (390×844) and on its side (844×390), then upright again."""
    size: Any = page.viewport_size or PHONE
    viewport: Any
    for viewport in (PHONE, LANDSCAPE):
        page.set_viewport_size(viewport)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        name = f"variants-{tag}-{viewport['width']}x{viewport['height']}.jpg"
        page.screenshot(path=artifacts / name, animations="disabled")
    page.set_viewport_size(size)


def phase(page: Page) -> str:
    ring = page.get_by_test_id("ring")
    return (ring.get_attribute("data-phase") or "") if ring.count() else ""


# What the whole-match loop asks of the page, in one call (each query waits for the page's main
# thread, busy re-rendering the table on a loaded machine): the final standings, a deal summary to
# close, the deal chip, the phase, the auction's controls (pass shown and enabled; the lowest bid when
# a bid may be made) and the discard's (mine to make, or another seat's to watch).
MATCH_LOOK_JS = """() => {
  const q = (id) => document.querySelector(`[data-testid="${id}"]`);
  const shown = (el) => Boolean(el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
  const ring = q('ring'), pass = q('pass'), chip = q('deal-chip');
  return {
    standings: Boolean(q('final-standings')),
    summary: shown(q('deal-summary-close')),
    deal: chip ? chip.innerText : '',
    phase: ring ? ring.dataset.phase || '' : '',
    pass: shown(pass) && !pass.disabled && pass.getAttribute('aria-disabled') !== 'true',
    lowest: shown(q('bid-submit')) && q('bid-amount') ? q('bid-amount').innerText : '',
    discard_submit: shown(q('discard-submit')),
    discard: shown(q('discard')),
  };
}"""


def match_look(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(MATCH_LOOK_JS)
    return result


def others_hidden_in_frames(seats: list[Seat]) -> int:
    """No state frame to a seat names a card another seat held at that version (V0.11)."""
    hands = [hands_by_version(seat) for seat in seats]
    checked = 0
    for index, seat in enumerate(seats):
        for state in seat.states():
            v = state["version"]
            if not state.get("view") or not all(v in h for h in hands):
                continue
            others = set().union(*(h[v] for i, h in enumerate(hands) if i != index))
            leaked = frame_cards(state["view"]) & others
            assert not leaked, f"{seat.name} at version {v} was sent {leaked} of another hand"
            checked += 1
    return checked


def others_hidden_on_pages(seats: list[Seat]) -> bool:
    """At one version on every page: no page names a card of another page's hand. False if the
    pages never agreed on a version (the check is then left to the next play)."""
    for _ in range(20):
        versions = {version(seat.page) for seat in seats}
        if len(versions) == 1:
            hands = [set(hand(seat.page)) for seat in seats]
            seen = [dom_cards(seat.page) for seat in seats]
            if len({version(seat.page) for seat in seats} | versions) == 1:
                for i, seat in enumerate(seats):
                    others = set().union(*(h for j, h in enumerate(hands) if j != i))
                    assert not seen[i] & others, f"{seat.name}'s page shows {seen[i] & others} of another hand"
                return True
        seats[0].page.wait_for_timeout(50)  # through Playwright: the pages' frames keep arriving
    return False


def test_three_friends_play_a_deal_of_1000_for_three_on_phones_and_all_three_accept_a_rematch(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    names = ("Anna", "Ben", "Cleo")
    seats = [open_seat(browser, server.url, name, PHONE, is_mobile=True, has_touch=True) for name in names]
    anna, ben, cleo = seats
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        new_variant_table(anna.page, "thousand3", computers=0)
        expect(anna.page.get_by_test_id("waiting-panel")).to_be_visible()
        expect(anna.page.get_by_test_id("seats-taken")).to_have_attribute("data-taken", "1")
        link = anna.page.get_by_test_id("invite-link").input_value()

        # Ben joins by the link and waits with Anna for the third; Cleo's join starts the match.
        for seat in (ben, cleo):
            seat.page.goto(link)
            choose_name(seat.page, seat.name)
            taken = 1 if seat is ben else 2
            expect(seat.page.get_by_test_id("invite-game")).to_have_text(f"1000 for three · {taken}/3")
            seat.page.get_by_test_id("join-invite").click()
            if seat is ben:  # Anna and Ben wait for the third
                expect(ben.page.get_by_test_id("seats-taken")).to_have_attribute("data-taken", "2")
                expect(ben.page.get_by_test_id("waiting-panel")).to_contain_text("Waiting for one more player")
        for seat in seats:
            expect(seat.page.get_by_test_id("ring")).to_be_visible()
            expect(seat.page.get_by_test_id("hand").locator("button.card")).to_have_count(8)  # V4.2: 8 a hand
            expect(seat.page.get_by_test_id("phase")).to_have_attribute("data-phase", "play")  # V4.1: no auction
        # each sees the two others around the felt, by name, with 8 cards face down
        for me, seat in enumerate(seats):
            for other in {0, 1, 2} - {me}:
                expect(seat.page.get_by_test_id(f"seat-{other}-name")).to_have_text(names[other])
                expect(seat.page.get_by_test_id(f"seat-{other}-cards")).to_have_attribute("data-count", "8")
        dealt = [set(hand(seat.page)) for seat in seats]
        assert len(dealt[0] | dealt[1] | dealt[2]) == 24, dealt

        rng = random.Random(13)
        plays = checked = 0
        shot = False
        deadline = time.monotonic() + 90
        while not all(visible(seat.page, "deal-summary") for seat in seats):
            if time.monotonic() > deadline:
                for seat in seats:
                    seat.page.screenshot(path=artifacts / f"variants-stuck-{seat.name}.jpg")
                raise AssertionError(f"the deal did not end after {plays} plays")
            moved = False
            for seat in seats:
                if play_one(seat.page, rng, keep_summary=True):
                    plays += 1
                    moved = True
                    checked += others_hidden_on_pages(seats)
                    if plays == 4 and not shot:  # the second trick under way
                        shot = True
                        screenshots(ben.page, artifacts, "thousand3-play")
            if not moved:
                seats[0].page.wait_for_timeout(50)
        assert plays == 24 and checked >= 12, (plays, checked)
        for seat in seats:
            summary = seat.page.get_by_test_id("deal-summary")
            expect(summary).to_have_attribute("data-deal", "0")
            expect(summary.get_by_test_id("summary-row-me")).to_be_visible()
            expect(summary.locator("tbody tr")).to_have_count(3)
        screenshots(cleo.page, artifacts, "thousand3-summary")
        # the three pages agree on the totals, each with its own row first (once counted up)
        for seat in seats:
            expect(seat.page.get_by_test_id("deal-summary")).to_have_attribute("data-counted", "true")
        totals = [
            [int(x.replace("−", "-")) for x in seat.page.get_by_test_id("summary-total").all_inner_texts()]
            for seat in seats
        ]
        assert totals[1] == totals[0][1:] + totals[0][:1] and totals[2] == totals[0][2:] + totals[0][:2], totals

        # Ben gives up (ruling V0.10a). Anna offers a rematch; it starts once Ben and Cleo have both accepted.
        resign = ben.page.get_by_test_id("resign")
        if not resign.is_visible() and ben.page.get_by_test_id("sheet-toggle").count():
            ben.page.get_by_test_id("sheet-toggle").click()
        resign.click()
        ben.page.get_by_test_id("resign-yes").click()
        for seat in seats:
            expect(seat.page.get_by_test_id("match-over")).to_be_visible()
        anna.page.get_by_test_id("rematch-offer").click()
        expect(anna.page.get_by_test_id("rematch-status")).to_have_text("Rematch — waiting for Ben, Cleo.")
        ben.page.get_by_test_id("rematch-accept").click()
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("rematch-status")).to_have_text("Rematch — waiting for Cleo.")
        expect(cleo.page.get_by_test_id("rematch-accept")).to_be_visible()
        cleo.page.get_by_test_id("rematch-accept").click()
        for seat in seats:
            expect(seat.page.get_by_test_id("match-over")).to_be_hidden()
            expect(seat.page.get_by_test_id("hand").locator("button.card")).to_have_count(8)

        assert others_hidden_in_frames(seats) > 20
        assert_frames_match_server_models(*seats)
        for seat in seats:
            assert not seat.errors, (seat.name, seat.errors)
    finally:
        for seat in seats:
            seat.context.close()


def test_one_person_plays_a_whole_match_of_1001_with_bidding_against_two_computers(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    solo = open_seat(browser, server.url, "Solo", PHONE, is_mobile=True, has_touch=True)
    page = solo.page
    try:
        page.goto("/")
        choose_name(page, "Solo")
        new_variant_table(page, "bidding", seats=3, computers=2)
        expect(page.get_by_test_id("ring")).to_be_visible()
        for seat in (1, 2):  # two computers, told apart by number (the whole name where it fits)
            expect_seat_name(page, seat, f"Computer {seat} (easy)")

        rng = random.Random(7)
        done = {"bid": 0, "pass": 0, "discard": 0, "play": 0, "watched_discard": 0}
        seen_deals: set[str] = set()
        deadline = time.monotonic() + 240
        while True:
            assert time.monotonic() < deadline, f"the match did not end: {done}"
            look = match_look(page)
            if look["standings"]:
                break
            if look["summary"]:
                close_summary(page)
                continue
            deal, now = look["deal"], look["phase"]
            if now == "auction" and look["pass"]:
                lowest = look["lowest"]
                before = version(page)
                if not done["pass"] or not lowest or int(lowest) > 80:
                    if not done["pass"]:
                        # V7.5: the game's own word for its talon, the skat, as its lobby and rules page say
                        talon = page.get_by_test_id("talon-count")
                        expect(talon.locator(".label")).to_have_text("Skat")
                        expect(talon).to_have_attribute("aria-label", "Skat: 2 cards")
                        screenshots(page, artifacts, "bidding-auction")
                    page.get_by_test_id("pass").click()  # the first deal: let a computer declare
                    done["pass"] += 1
                elif deal not in seen_deals:
                    # the stepper: +10, −10 back, then bid the lowest
                    seen_deals.add(deal)
                    page.get_by_test_id("bid-up").click()
                    expect(page.get_by_test_id("bid-amount")).to_have_text(str(int(lowest) + 10))
                    expect(page.get_by_test_id("bid-submit")).to_have_text(f"Bid {int(lowest) + 10}")
                    page.get_by_test_id("bid-down").click()
                    expect(page.get_by_test_id("bid-amount")).to_have_text(lowest)
                    page.get_by_test_id("bid-submit").click()
                    done["bid"] += 1
                else:
                    page.get_by_test_id("bid-submit").click()
                    done["bid"] += 1
                # the call made: the auction moves on
                page.wait_for_function(
                    "v => Number(document.querySelector('[data-testid=table-page]').dataset.version) > v", arg=before
                )
                continue
            if now == "discard" and look["discard_submit"]:
                submit = page.get_by_test_id("discard-submit")
                expect(submit).to_be_disabled()
                expect(page.get_by_test_id("talon").locator("[data-card]")).to_have_count(2)
                cards = page.locator('[data-testid="hand"] button.card')
                expect(cards).to_have_count(12)  # 10 + the talon's 2 (V7.2)
                first, second = cards.nth(0).get_attribute("data-card"), cards.nth(5).get_attribute("data-card")
                cards.nth(0).click()
                expect(page.get_by_test_id("discard-count")).to_have_attribute("data-count", "1")
                expect(submit).to_be_disabled()
                page.get_by_test_id(f"card-{second}").click()
                expect(page.get_by_test_id(f"card-{first}")).to_have_attribute("aria-pressed", "true")
                expect(submit).to_be_enabled()
                if not done["discard"]:
                    expect(page.locator(".discard-title")).to_contain_text("took the skat")
                    expect(page.get_by_test_id("phase")).to_have_text("Skat")
                    screenshots(page, artifacts, "bidding-discard")
                submit.click()
                expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(10)
                expect(page.get_by_test_id(f"discard-card-{first}")).to_be_attached()  # only the declarer sees them
                done["discard"] += 1
                continue
            if now == "discard" and look["discard"]:
                # a computer took the talon: nobody else sees its cards, only two backs
                assert page.get_by_test_id("talon").count() == 0
                done["watched_discard"] += 1
            card = play_one(page, rng)
            if card:
                done["play"] += 1
                if done["play"] == 15:
                    screenshots(page, artifacts, "bidding-play")
            else:
                page.wait_for_timeout(50)
        assert done["bid"] >= 1 and done["pass"] >= 1 and done["discard"] >= 1, done

        standings = page.get_by_test_id("final-standings")
        expect(standings).to_be_visible()
        expect(standings.locator("li")).to_have_count(3)
        totals = [int(x) for x in standings.locator("li").evaluate_all("els => els.map(e => e.dataset.total)")]
        assert totals == sorted(totals, reverse=True) and totals[0] >= 301, totals
        # the race to the target, a line per seat, the player's own first
        race = page.get_by_test_id("match-over").get_by_test_id("race-chart")
        expect(race).to_have_attribute("data-players", "3")
        expect(race.locator(".race-me").first).to_have_attribute("data-seat", "0")
        screenshots(page, artifacts, "bidding-final")
        assert_frames_match_server_models(solo)
        assert not solo.errors, solo.errors
    finally:
        solo.context.close()


def test_a_spectator_watches_a_three_seat_table_with_computer_seats(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    """McLeod (V2): one person and two computers; a friend watches on a phone by the watch link."""
    anna = open_seat(browser, server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    carl = open_seat(browser, server.url, "Carl", PHONE, is_mobile=True, has_touch=True)
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        new_variant_table(anna.page, "mcleod", computers=2)
        expect(anna.page.get_by_test_id("ring")).to_be_visible()
        if phase(anna.page) == "auction":  # V2.5: McLeod's talon is called the talon (V7's the skat)
            expect(anna.page.get_by_test_id("talon-count").locator(".label")).to_have_text("Talon")

        # Anna takes the watch link from the drawer (a table of three offers one with computer seats).
        anna.page.get_by_test_id("sheet-toggle").click()
        anna.page.get_by_test_id("sheet-tab-table").click()
        anna.page.get_by_test_id("watch-link").click()
        watch_link = anna.page.get_by_test_id("watch-link")
        expect(watch_link).to_have_attribute("data-url", re.compile(r"#/watch/[^/]+/[^/]+$"))
        url = anna.page.get_by_test_id("watch-link").get_attribute("data-url") or ""
        anna.page.keyboard.press("Escape")
        expect(anna.page.get_by_test_id("table-page")).to_have_attribute("data-sheet", "closed")

        carl.page.goto(url)
        watch = carl.page.get_by_test_id("spectator-table")
        expect(watch.get_by_test_id("ring")).to_be_visible()
        for number, name in ((0, "Anna"), (1, "Computer 1 (easy)"), (2, "Computer 2 (easy)")):
            expect_seat_name(watch, number, name)
            expect(watch.get_by_test_id(f"seat-{number}-cards")).to_be_visible()  # backs and a count, Anna's too
        expect(anna.page.get_by_test_id("watchers")).to_have_attribute("data-count", "1")

        rng = random.Random(2)
        saw_auction = saw_trick = False
        checks = 0
        deadline = time.monotonic() + 60
        while not (saw_trick and checks >= 6):
            assert time.monotonic() < deadline, (saw_auction, saw_trick, checks)
            if phase(carl.page) == "auction":
                saw_auction = saw_auction or watch.get_by_test_id("auction").is_visible()
            if watch.locator('[data-testid="current-trick"] [data-card]').count():
                if not saw_trick:
                    screenshots(carl.page, artifacts, "watch-mcleod-trick")
                saw_trick = True
            # nothing on the spectator's page can act, and it names no card of Anna's hand
            for control in ("hand", "bid-submit", "pass", "discard-submit", "resign"):
                assert not visible(carl.page, control), control
            # a deal over: the spectator has the players' summary, the next deal waiting behind it (issue 22)
            if watch.get_attribute("data-held") == "true":
                if visible(carl.page, "deal-summary-close"):
                    carl.page.get_by_test_id("deal-summary-close").click()
                continue
            mine = set(hand(anna.page))
            if version(anna.page) == int(watch.get_attribute("data-version") or -1):
                seen = dom_cards(carl.page)
                if version(anna.page) == int(watch.get_attribute("data-version") or -1):
                    assert not seen & mine, f"the spectator's page shows {seen & mine} of Anna's hand"
                    count = watch.get_by_test_id("seat-0-cards").get_attribute("data-count")
                    assert count == str(len(mine)), (count, mine)
                    checks += 1
            page = anna.page
            if phase(page) == "auction" and visible(page, "pass") and page.get_by_test_id("pass").is_enabled():
                page.get_by_test_id("pass").click()
            elif not play_one(page, rng):
                page.wait_for_timeout(80)
        assert saw_auction or saw_trick
        for seat in (anna, carl):
            assert not seat.errors, (seat.name, seat.errors)
    finally:
        for seat in (anna, carl):
            seat.context.close()


def test_a_creator_tired_of_waiting_fills_the_empty_seats_with_the_computer(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    host = open_seat(browser, server.url, "Host", PHONE, is_mobile=True, has_touch=True)
    page = host.page
    try:
        page.goto("/")
        choose_name(page, "Host")
        new_variant_table(page, "rassel", computers=0, target=300)
        expect(page.get_by_test_id("waiting-panel")).to_be_visible()
        expect(page.get_by_test_id("seats-taken")).to_have_attribute("data-taken", "1")
        expect(page.get_by_test_id("fill-level").locator("option")).to_have_count(4)  # easy … expert (issue 25)
        page.get_by_test_id("fill-level").select_option("easy")
        page.get_by_test_id("fill-computers").click()
        expect(page.get_by_test_id("ring")).to_be_visible()
        for seat in (1, 2):
            expect_seat_name(page, seat, f"Computer {seat} (easy)")
        expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", re.compile("auction|play"))
        screenshots(page, artifacts, "rassel-filled")
        assert not host.errors, host.errors
    finally:
        host.context.close()


def _three_seat_match_given_up_in_its_second_deal(server: ServerProcess) -> dict[str, Any]:
    """One person and two computers play a deal of McLeod (V2) through the API's sockets — the person
    bids whenever it may, so that the deal has an auction, a talon, a discard and the play — then the
    person gives up in the second deal (ruling V0.10a): a finished match of two deals to replay."""

    async def play() -> dict[str, Any]:
        [seat] = await table(server, "mcleod", 3, 301, 1)
        rng = random.Random(5)
        try:
            while not seat.view["history"]:
                view = seat.view
                if not (view["legal"] or view["may_pass"] or view["must_discard"]):
                    await seat.wait_for(lambda m: m["type"] == "state")
                    continue
                if view["may_pass"]:
                    move: dict[str, Any] = (
                        {"type": "bid", "amount": view["bids"][0]} if view["bids"] else {"type": "pass"}
                    )
                elif view["must_discard"]:
                    move = {"type": "discard", "cards": sorted(view["deal"]["hand"])[:2]}
                else:
                    choice = rng.choice(view["legal"])
                    move = {"type": "play", "card": choice["card"], "declare": choice["declare"] is not None}
                answer = await seat.intent(move)
                assert answer["type"] == "state" or answer["code"] == "stale_version", answer
            answer = await seat.resign()  # the computers may be bidding in the second deal already
            assert answer["type"] == "state" and answer["room"]["status"] == "finished", answer
            player = seat.player
            return {
                "match_id": answer["room"]["match_id"],
                "player": {"id": player.id, "name": player.name, "token": player.token},
            }
        finally:
            await seat.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread's event loop
        return pool.submit(asyncio.run, play()).result(60)


def fits(page: Page) -> bool:
    size = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]"
    )
    return bool(size[0] <= size[2] and size[1] <= size[3])


def test_a_three_seat_deal_replays_move_by_move_on_a_phone(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    """The replay viewer for three seats: every hand face up, the auction call by call, the talon to
    the declarer and its two discards, the contract, the tricks and points after each move, and the
    stored deal's score at the end — stepped with the buttons, the arrow keys and the slider; the match
    page offers it and draws the race for three."""
    match = _three_seat_match_given_up_in_its_second_deal(server)
    match_id = match["match_id"]
    anna = open_seat(browser, server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    page = anna.page
    try:
        sign_in(page, match["player"], "en")
        detail = api_json(page, f"/api/matches/{match_id}")
        stored = detail["deals"][0]
        frames = api_json(page, f"/api/matches/{match_id}/deals/0/replay")["frames"]
        assert stored["contract"] is not None and not stored["thrown_in"], stored

        # The match page: ▶ for the variant's deal, and the race with a line per player.
        page.goto(f"/#/history/{match_id}")
        expect(page.get_by_test_id("race-chart")).to_have_attribute("data-players", "3")
        expect(
            page.get_by_test_id("race-chart").locator(".race-series[data-seat] .race-point[data-deal]")
        ).to_have_count(3)
        page.get_by_test_id("deal-replay-0").click()
        viewer = page.get_by_test_id("replay-viewer")
        expect(viewer).to_have_attribute("data-seats", "3")
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "0")

        def hands() -> list[list[str]]:
            return [
                sorted((page.get_by_test_id(f"replay-hand-{s}").get_attribute("data-cards") or "").split())
                for s in range(3)
            ]

        def at(step: int) -> None:
            expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", str(step))
            assert hands() == [sorted(h) for h in frames[step]["hands"]], step
            expect(page.get_by_test_id("replay-points")).to_have_attribute(
                "data-points", ",".join(map(str, frames[step]["card_points"]))
            )

        # As dealt: every hand face up, the talon face up on the felt, nobody has called.
        at(0)
        for s in range(3):
            expect(page.get_by_test_id(f"replay-hand-{s}").locator(".card[data-card]")).to_have_count(6)
        expect(page.get_by_test_id("replay-talon")).to_have_attribute("data-cards", " ".join(frames[0]["talon"]))
        expect(page.get_by_test_id("auction-calls").locator("li[data-seat]")).to_have_count(0)
        expect(page.get_by_test_id("replay-prev")).to_be_disabled()
        assert fits(page)

        # The auction, one call a move: by the button, then by the arrow keys (and one back).
        page.get_by_test_id("replay-next").click()
        at(1)
        call = frames[1]["calls"][0]
        expect(page.get_by_test_id("auction-calls").locator("li[data-seat]").first).to_have_attribute(
            "data-bid", "pass" if call["bid"] is None else str(call["bid"])
        )
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        at(2)
        expect(page.get_by_test_id("high-bid")).to_have_attribute("data-amount", str(frames[2]["high_bid"] or ""))

        # The talon goes to the declarer, face up; then its two discards; the contract on the felt.
        took = next(i for i, f in enumerate(frames) if f["talon_taken"])
        page.get_by_test_id("replay-slider").fill(str(took))
        at(took)
        expect(page.get_by_test_id("replay-talon-taken")).to_have_attribute(
            "data-cards", " ".join(frames[took]["talon"])
        )
        assert set(frames[took]["talon"]) <= set(hands()[stored["declarer"]])
        screenshots(page, artifacts, "replay-mcleod-talon")
        page.get_by_test_id("replay-next").click()
        at(took + 1)
        expect(page.get_by_test_id("discards").locator("[data-card]")).to_have_count(2)
        contract = page.get_by_test_id("contract")
        expect(contract).to_have_attribute("data-declarer", str(stored["declarer"]))
        expect(contract).to_have_attribute("data-contract", str(stored["contract"]))

        # A trick under way, each card at its seat's side; the tricks taken after the first trick.
        first_trick = next(i for i, f in enumerate(frames) if f["trick_won"])
        page.get_by_test_id("replay-slider").fill(str(first_trick - 1))
        at(first_trick - 1)
        for played in frames[first_trick - 1]["trick"]:
            expect(page.get_by_test_id(f"trick-card-{played['card']}")).to_have_attribute(
                "data-seat", str(played["seat"])
            )
        page.keyboard.press("ArrowRight")
        at(first_trick)
        winner = frames[first_trick]["trick_won"]["seat"]
        expect(page.get_by_test_id(f"seat-{winner}-tricks")).to_have_attribute("data-count", "1")
        assert fits(page)

        # The end: the stored card points, scores, totals and contract.
        page.keyboard.press("End")
        at(len(frames) - 1)
        points = page.get_by_test_id("replay-points")
        expect(points).to_have_attribute("data-points", ",".join(map(str, stored["card_points"])))
        expect(points).to_have_attribute("data-score", ",".join(map(str, stored["score"])))
        for s in range(3):
            expect(page.get_by_test_id(f"replay-score-{s}")).to_have_attribute("data-total", str(stored["totals"][s]))
        expect(page.get_by_test_id("summary-contract")).to_have_attribute("data-made", str(stored["made"]).lower())
        expect(page.get_by_test_id("replay-next")).to_be_disabled()
        assert fits(page)
        screenshots(page, artifacts, "replay-mcleod-end")
        page.keyboard.press("Home")
        at(0)

        # The deal the resignation cut short, from the bar: no score at its last move.
        page.get_by_test_id("replay-deal-next").click()
        expect(viewer).to_have_attribute("data-deal", "1")
        page.keyboard.press("End")
        expect(page.get_by_test_id("replay-points")).to_have_attribute("data-score", "")
        expect(page.get_by_test_id("replay-events")).to_be_visible()
        assert not anna.errors, anna.errors
    finally:
        anna.context.close()
