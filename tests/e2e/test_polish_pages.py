"""The pages around the table, polished for phones and languages: getting started in the lobby ("Play
the computer now", the picture of a table, Share beside Copy), money by locale (`0,05 €` in German,
no English "chips"), the history and score sheet at 360 px, the race chart, and the rules page as a
player's guide with a worked example and the exact rules folded."""

from __future__ import annotations

import asyncio
import random
import re
import threading
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.client import Player
from tests.support.client import Seat as SocketSeat
from tests.support.services import ServerProcess

from .conftest import DESKTOP, PHONE
from .helpers import open_seat

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}


# ---------------------------------------------------------------- a player with history, scripted


async def _staked_match_then_computer(base_url: str, deals: int) -> dict[str, Any]:
    """Anna and Ben play `deals` deals for 0.05 EUR a point to 1001 — out of reach in two deals, so the
    match always ends by Anna's resignation — (random legal cards through the real
    socket), then Anna resigns (R6.2); Anna also resigns a computer match at once. Returns Anna's
    identity (for the browser's localStorage) and the staked match's id."""
    ws_url = base_url.replace("http://", "ws://")
    anna, ben = Player(base_url, "Anna"), Player(base_url, "Ben")
    await anna.register()
    await ben.register()
    options = {"target": 1001, "stake_per_point": "0.05", "currency": "EUR", "visibility": "private"}
    room = await anna.post("/api/rooms", json=options)
    first = SocketSeat(anna, room["id"], ws_url)
    await first.connect()
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    second = SocketSeat(ben, room["id"], ws_url)
    await second.connect()
    await first.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    rng = random.Random(11)
    seats = (first, second)
    while first.view["winner"] is None and len(first.view["history"]) < deals:
        movers = [seat for seat in seats if seat.my_turn()]
        if not movers:
            await first.wait_for(lambda m: m["type"] == "state")
            continue
        mover = movers[0]
        before = mover.state["version"] if mover.state else 0
        answer = await mover.intent(mover.choose(rng))
        assert answer["type"] == "state", answer
        other = second if mover is first else first
        await other.wait_for(lambda m, v=before: m["type"] == "state" and m["version"] > v)
    if first.view["winner"] is None:
        assert (await first.intent({"type": "resign"}))["type"] == "state"
    match_id = first.state["room"]["match_id"] if first.state else None
    computer_room = await anna.post("/api/rooms", json={"opponent": "computer", "bot_level": "easy"})
    solo = SocketSeat(anna, computer_room["id"], ws_url)
    await solo.connect()
    if solo.state is None or solo.state["view"] is None:  # connect() may have read the first state already
        await solo.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    assert (await solo.resign())["type"] == "state"  # resent while the computer's move makes it stale
    for seat in (first, second, solo):
        await seat.close()
    return {"player": {"id": anna.id, "name": anna.name, "token": anna.token}, "match_id": match_id}


def scripted_history(base_url: str, deals: int = 2) -> dict[str, Any]:
    """Run the scripted players in a thread of their own (Playwright's sync API owns this thread's loop)."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result.update(asyncio.run(_staked_match_then_computer(base_url, deals)))
        except BaseException as error:  # re-raised in the test's thread
            result["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    if "error" in result:
        raise result["error"]
    assert result.get("match_id"), result
    return result


def sign_in(page: Page, player: dict[str, Any], lang: str) -> None:
    page.goto("/")
    page.evaluate(
        "([player, lang]) => { localStorage.setItem('1001.player', JSON.stringify(player));"
        " localStorage.setItem('1001.lang', lang); }",
        [player, lang],
    )
    page.reload()  # the language is chosen when the page loads


def api_json(page: Page, path: str) -> Any:
    return page.evaluate(
        """async (path) => {
          const { token } = JSON.parse(localStorage.getItem('1001.player'));
          const answer = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
          return answer.json();
        }""",
        path,
    )


def overflowing(page: Page, selector: str) -> list[str]:
    """Elements matching `selector` whose content is wider than their box (cut or scrolling sideways)."""
    result: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
             .filter((el) => el.scrollWidth > el.clientWidth + 1)
             .map((el) => `${el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`)""",
        selector,
    )
    return result


def page_width(page: Page) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


# ---------------------------------------------------------------- getting started


def test_first_visit_shows_the_game_and_plays_the_computer_with_one_tap(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, e2e_server.url, "Newcomer", PHONE, device_scale_factor=2, is_mobile=True)
    page = seat.page
    try:
        page.goto("/")
        start = page.get_by_test_id("getting-started")
        expect(start).to_be_visible()
        # The picture of a table is drawn with the game's own card faces (no image files).
        picture = page.get_by_test_id("intro-picture")
        expect(picture.get_by_role("img").first).to_have_attribute("aria-label", re.compile("1001"))
        assert picture.locator(".card[data-card]").count() >= 5
        assert picture.locator("img").count() == 0
        expect(page.get_by_test_id("save-name")).to_have_text("Play a friend")
        page.screenshot(path=artifacts / "lobby-first-visit-phone.jpg", full_page=True, animations="disabled")
        assert page_width(page) <= PHONE["width"]

        # One tap (with the name typed so far): a computer table opens, the match already playing.
        page.get_by_test_id("name-input").fill("Quick Quinn")
        page.get_by_test_id("play-computer-now").click()
        expect(page).to_have_url(re.compile(r"#/table/"))
        expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        room = next(r for r in api_json(page, "/api/rooms/mine") if page.url.endswith(f"/table/{r['id']}"))
        assert room["status"] == "playing"
        assert any(p and p.get("bot_level") for p in room["players"]), room
        assert Decimal(str(room["options"]["stake_per_point"])) == 0  # no stake against the computer

        # Back in the lobby as a known player: on a phone the create form comes first, and the
        # quick start is still one tap away.
        page.goto("/#/")
        expect(page.get_by_test_id("create-form")).to_be_visible()
        form_box = page.get_by_test_id("create-form").bounding_box()
        mine_box = page.get_by_test_id("my-rooms").bounding_box()
        assert form_box and mine_box and form_box["y"] < mine_box["y"]
        expect(page.get_by_test_id("play-computer-now")).to_be_visible()
        page.get_by_test_id("play-friend").click()
        expect(page.get_by_test_id("opt-opponent-human")).to_be_checked()
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_the_invite_has_a_share_button_where_the_browser_can_share(e2e_server: ServerProcess, browser: Any) -> None:
    sharer = open_seat(browser, e2e_server.url, "Sharer", PHONE, is_mobile=True)
    plain = open_seat(browser, e2e_server.url, "Plain", DESKTOP)
    try:
        # A browser with the Web Share API (as on phones): record what it is asked to share.
        sharer.context.add_init_script(
            "navigator.share = async (data) => { window.__shared = data; }; navigator.canShare = () => true;"
        )
        for seat, name in ((sharer, "Sharing Sid"), (plain, "Plain Pat")):
            seat.page.goto("/")
            seat.page.get_by_test_id("name-input").fill(name)
            seat.page.get_by_test_id("save-name").click()
            expect(seat.page.get_by_test_id("create-form")).to_be_visible()
            seat.page.evaluate(
                """async () => {
                  const { token } = JSON.parse(localStorage.getItem('1001.player'));
                  await fetch('/api/rooms', { method: 'POST',
                    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
                    body: JSON.stringify({ visibility: 'private', target: 301 }) });
                }"""
            )
            seat.page.reload()
        page = sharer.page
        share = page.get_by_test_id("share-invite")
        expect(share).to_be_visible()
        expect(page.get_by_test_id("copy-invite")).to_be_visible()
        link = page.get_by_test_id("invite-link").input_value()
        share.click()
        page.wait_for_function("() => window.__shared !== undefined")
        shared = page.evaluate("window.__shared")
        assert shared["url"] == link and "/#/invite/" in link
        # Without the API (desktop Chromium on Linux) there is no Share button, only Copy.
        expect(plain.page.get_by_test_id("copy-invite")).to_be_visible()
        if not plain.page.evaluate("typeof navigator.share === 'function'"):
            expect(plain.page.get_by_test_id("share-invite")).to_have_count(0)
        assert not sharer.errors and not plain.errors, sharer.errors + plain.errors
    finally:
        sharer.context.close()
        plain.context.close()


def test_sound_and_vibration_cues_obey_the_mute_switch_per_device(e2e_server: ServerProcess, browser: Any) -> None:
    """feedback.js: every cue sounds (Web Audio, after a gesture) and buzzes unless muted; the switch
    is remembered by this browser (localStorage) and only there."""
    seat = open_seat(browser, e2e_server.url, "Listener", PHONE, is_mobile=True, has_touch=True)
    other = open_seat(browser, e2e_server.url, "Elsewhere", PHONE)
    try:
        seat.context.add_init_script(
            "window.__buzz = []; navigator.vibrate = (pattern) => { window.__buzz.push(pattern); return true; };"
        )
        page = seat.page
        page.goto("/#/rules")
        expect(page.get_by_test_id("rules-page")).to_be_visible()
        page.get_by_test_id("rules-guide-aim").click()  # a user gesture: audio may start
        load = """async () => {
          const base = performance.getEntriesByType('resource').map((e) => e.name)
            .find((n) => new URL(n).pathname.endsWith('/js/app.js')) || location.origin + '/js/app.js';
          window.__fb = await import(new URL('feedback.js', base).href);
        }"""
        page.evaluate(load)
        heard = page.evaluate("() => __fb.CUE_NAMES.map((name) => __fb.cue(name))")
        assert page.evaluate("__fb.CUE_NAMES") == ["turn", "card", "trick", "marriage", "deal", "match"]
        assert heard == [True] * 6
        assert page.evaluate("window.__buzz.length") >= 5  # 'card' is silent to the hand
        page.evaluate("() => { __fb.setMuted(true); window.__buzz = []; }")
        assert page.evaluate("() => [__fb.isMuted(), __fb.cue('turn'), window.__buzz.length]") == [True, False, 0]
        page.reload()
        page.evaluate(load)
        assert page.evaluate("__fb.isMuted()") is True  # remembered on this device
        other.page.goto("/#/rules")
        other.page.evaluate(load)
        assert other.page.evaluate("__fb.isMuted()") is False  # another browser has its own switch
        page.evaluate("__fb.setMuted(false)")
        assert page.evaluate("__fb.isMuted()") is False
        assert not seat.errors and not other.errors, seat.errors + other.errors
    finally:
        seat.context.close()
        other.context.close()


# ---------------------------------------------------------------- money, history and the race chart


def test_money_is_formatted_by_locale_exactly(e2e_server: ServerProcess, browser: Any) -> None:
    """ui.money(): Intl.NumberFormat by the page's language, from the exact decimal string (R6.1);
    ui.num() writes every negative total with the true minus sign, as the table does."""
    seat = open_seat(browser, e2e_server.url, "Counter", DESKTOP)
    try:
        seat.page.goto("/#/rules")
        expect(seat.page.get_by_test_id("rules-page")).to_be_visible()
        got = seat.page.evaluate(
            """async () => {
              // The page's own module instances (whatever URL the server gives them).
              const url = (name) => performance.getEntriesByType('resource').map((e) => e.name)
                .find((n) => new URL(n).pathname.endsWith(`/js/${name}`)) || `/js/${name}`;
              const i18n = await import(url('i18n.js'));
              const ui = await import(url('ui.js'));
              const out = {};
              for (const lang of ['en', 'de', 'ru']) {
                await i18n.setLang(lang);
                out[lang] = [
                  ui.money('0.05', 'EUR'), ui.money('-3.5', 'EUR'), ui.money('12345678901234.05', 'EUR'),
                  ui.money('1', 'chips'), ui.money('5', 'chips'), ui.money('0.5', 'chips'), ui.money('2', 'pts'),
                  ui.num(1001), ui.num(12345),
                  // one minus sign for every negative total (the table's own, U+2212), whatever Intl writes
                  ui.num(-40), ui.num(-12345), ui.signedNum(-98), ui.signedNum(361), ui.signedNum(0),
                ].map((s) => s.replace(/[\\u00a0\\u202f]/g, ' '));
              }
              await i18n.setLang('en');
              return out;
            }"""
        )
        assert got["en"] == [
            *("€0.05", "-€3.50", "€12,345,678,901,234.05"),
            *("1 chip", "5 chips", "0.5 chips", "2 pts", "1001", "12,345"),
            *("−40", "−12,345", "−98", "+361", "±0"),
        ]
        assert got["de"] == [
            *("0,05 €", "-3,50 €", "12.345.678.901.234,05 €"),
            *("1 Chip", "5 Chips", "0,5 Chips", "2 pts", "1001", "12.345"),
            *("−40", "−12.345", "−98", "+361", "±0"),
        ]
        assert got["ru"] == [
            *("0,05 €", "-3,50 €", "12 345 678 901 234,05 €"),
            *("1 фишка", "5 фишек", "0,5 фишки", "2 pts", "1001", "12 345"),
            *("−40", "−12 345", "−98", "+361", "±0"),
        ]
    finally:
        seat.context.close()


def test_history_ledger_and_score_sheet_on_a_small_phone(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seeded = scripted_history(e2e_server.url, deals=2)
    seat = open_seat(browser, e2e_server.url, "Anna", SMALL_PHONE, device_scale_factor=2, is_mobile=True)
    page = seat.page
    try:
        sign_in(page, seeded["player"], "de")
        detail = api_json(page, f"/api/matches/{seeded['match_id']}")
        deals = len(detail["deals"])
        assert deals >= 2 and detail["end_reason"] == "resign"

        page.goto("/#/history")
        row = page.get_by_test_id(f"match-row-{seeded['match_id']}")
        expect(row).to_be_visible()
        # German money: "0,05 €"-style, never "EUR 3.70" or English words.
        stake = row.get_by_test_id("match-row-stake")
        expect(stake).to_have_text(re.compile(r"^Du schuldest Ben \d+,\d\d\s€$"))
        balance = page.get_by_test_id("ledger-balance").filter(has_text="€")
        expect(balance).to_have_text(re.compile(r"^du schuldest \d+,\d\d\s€$"))
        expect(page.get_by_test_id("ledger")).to_contain_text("ausgeglichen")  # the computer, no stake
        body = page.locator("body").inner_text()
        assert "chips" not in body.lower() and "EUR" not in body, body
        # 360 px: nothing scrolls sideways or is cut, dates on one line.
        page.screenshot(path=artifacts / "history-360-de.jpg", full_page=True, animations="disabled")
        assert page_width(page) <= SMALL_PHONE["width"]
        assert not overflowing(page, ".match-card, .match-card > *, .ledger-row, .card-panel")
        lines = page.evaluate(
            """() => [...document.querySelectorAll('.match-date')].map((el) => {
                 const range = document.createRange();
                 range.selectNodeContents(el);
                 return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
               })"""
        )
        assert lines and all(n == 1 for n in lines), lines

        # The score sheet: a group per deal, no column cut at 360 px, and the race chart beside it.
        page.get_by_test_id(f"match-link-{seeded['match_id']}").click()
        expect(page.locator('[data-testid^="deal-row-"]')).to_have_count(deals)
        chart = page.get_by_test_id("race-chart")
        expect(chart).to_be_visible()
        expect(chart).to_have_attribute("role", "img")
        expect(chart).to_have_attribute("data-deals", str(deals))
        expect(chart).to_have_attribute("data-target", "1001")
        # One point per deal for each player, at that deal's totals.
        for series, seat_index in ((".race-me", detail["my_seat"]), (".race-opp", 1 - detail["my_seat"])):
            points = chart.locator(f"{series} .race-point[data-deal]")
            expect(points).to_have_count(deals)
            totals = [int(points.nth(i).get_attribute("data-total") or "-1") for i in range(deals)]
            assert totals == [d["totals"][seat_index] for d in detail["deals"]]
        expect(chart.locator("title").first).to_have_text("Das Rennen bis 1001")
        expect(chart.locator("desc")).to_have_text(re.compile(rf"^Nach {deals} Spielen: Anna \d+, Ben \d+\.$"))
        page.screenshot(path=artifacts / "match-detail-360-de.jpg", full_page=True, animations="disabled")
        assert page_width(page) <= SMALL_PHONE["width"]
        assert not overflowing(page, ".sheet-table, .card-panel, .detail-grid > section")
        sheet = page.get_by_test_id("deal-sheet").bounding_box()
        panel = page.get_by_test_id("match-detail").bounding_box()
        assert sheet and panel and sheet["x"] + sheet["width"] <= panel["x"] + panel["width"]

        # Russian: the same pages, and the deal count in the chart's description declined.
        page.get_by_test_id("lang-select").select_option("ru")
        expect(page.get_by_test_id("race-chart").locator("desc")).to_have_text(re.compile(rf"^После {deals} сдач: "))
        page.screenshot(path=artifacts / "match-detail-360-ru.jpg", full_page=True, animations="disabled")
        assert page_width(page) <= SMALL_PHONE["width"]
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=artifacts / "match-detail-desktop-ru.jpg", full_page=True, animations="disabled")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


# ---------------------------------------------------------------- the rules as a player's guide


def test_rules_page_is_a_guide_with_an_example_and_the_exact_rules_folded(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, e2e_server.url, "Learner", PHONE, device_scale_factor=2, is_mobile=True)
    page = seat.page
    try:
        page.goto("/#/rules")
        for section in ("aim", "cards", "deal", "tricks", "marriage", "score"):
            expect(page.get_by_test_id(f"rules-guide-{section}")).to_be_visible()
        # Card pictures are the game's own faces: the ranking with its card points.
        ranking = page.get_by_test_id("rules-guide-cards")
        expect(ranking.locator(".card[data-card]")).to_have_count(6)
        expect(ranking.locator("figcaption")).to_have_text(["11", "10", "4", "3", "2", "0"])

        # The worked example: a marriage that makes trump, another that changes it, a phase-2 trick.
        example = page.get_by_test_id("rules-example")
        expect(example.locator(".example-step")).to_have_count(4)
        for card in ("QH", "AC", "KS", "JH", "TD", "AD"):
            expect(example.locator(f'.card[data-card="{card}"]')).to_have_count(1)
        expect(example).to_contain_text("declares hearts")
        expect(example).to_contain_text("spades replace hearts as trump")
        expect(example).to_contain_text("must follow suit and beat the ten")
        only = example.locator(".guide-card.mark", has=page.locator('[data-card="AD"]'))
        expect(only).to_contain_text("the only card Ben may play")
        expect(example).to_contain_text("64 + 60 = 124")

        # The numbered rules stay available, folded.
        exact = page.get_by_test_id("rules-exact")
        assert exact.evaluate("el => el.tagName") == "DETAILS"
        assert exact.get_attribute("open") is None
        expect(page.get_by_test_id("rules-r4")).to_be_hidden()
        page.screenshot(path=artifacts / "rules-guide-phone.jpg", full_page=True, animations="disabled")
        assert page_width(page) <= PHONE["width"]
        page.get_by_test_id("rules-exact-toggle").click()
        expect(page.get_by_test_id("rules-r4")).to_be_visible()
        expect(page.get_by_test_id("rules-rulings")).to_contain_text("R4.1")
        # Still open after a change of language; the example in German and Russian.
        page.get_by_test_id("lang-select").select_option("de")
        expect(page.get_by_test_id("rules-r4")).to_be_visible()
        expect(page.get_by_test_id("rules-example")).to_contain_text("Pik löst Herz als Trumpf ab")
        page.get_by_test_id("lang-select").select_option("ru")
        expect(page.get_by_test_id("rules-example")).to_contain_text("козырями вместо червей становятся пики")
        page.screenshot(path=artifacts / "rules-guide-phone-ru.jpg", full_page=True, animations="disabled")
        assert page_width(page) <= PHONE["width"]
        page.get_by_test_id("lang-select").select_option("en")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
