"""The head-to-head page (``#/h2h/<id>,<id>``) in a real browser: readable on a 390×844 phone in
English, German and Russian (nothing cut, nothing scrolling sideways, the chart of every match
there), reached from the history's opponent names, the ledger and a match page; and at 360 px,
844×390 and on a desktop, for a pair and for the three of a table. A pair with 1,000 matches: the
chart shows every one of them while the list is paged.

The players sign up through the server; their finished matches are written into its database
(``tests.support.match_rows``), so the page's figures are known.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from backend.db.engine import make_engine
from tests.e2e.conftest import DESKTOP, VIEWPORTS
from tests.e2e.helpers import open_seat
from tests.support.match_rows import DealRow, MatchRows, Owed, add_player, add_room, write_matches
from tests.support.services import ServerProcess

START = datetime(2026, 10, 1, 19, 0, tzinfo=UTC)
PAIR_MATCHES = 7


def people(server: ServerProcess, *names: str) -> list[dict[str, Any]]:
    found = []
    for name in names:
        answer = httpx.post(f"{server.url}/api/players", json={"name": name}, timeout=10)
        answer.raise_for_status()
        found.append(answer.json())
    return found


def fill(server: ServerProcess, a: str, b: str, c: str) -> None:
    """Seven two-hand and V1 matches of a and b (a wins four), one V7 match of all three, one with a computer."""
    engine = make_engine(server.database_url)
    with engine.begin() as connection:
        bot = add_player(connection, "Computer", "medium")
        rows = [
            MatchRows(
                [a, b],
                [1, 2] if k % 2 == 0 else [2, 1],
                START + timedelta(days=k),
                options={"deck_size": 32} if k == 3 else {},
                deals=[DealRow([600, 400], [100, 0]), DealRow([401 + 10 * k, 300] if k % 2 == 0 else [300, 402])],
                declared=[0],
                owed=[
                    Owed(loser=1, winner=0, points_short=301)
                    if k % 2 == 0
                    else Owed(loser=0, winner=1, points_short=100)
                ],
            )
            for k in range(PAIR_MATCHES)
        ]
        rows.append(
            MatchRows(
                [a, b, c],
                [2, 3, 1],
                START + timedelta(days=10),
                options={"variant": "bidding", "seats": 3, "target": 301},
                deals=[DealRow([120, 30, 320], declarer=2, contract=120, made=True)],
            )
        )
        rows.append(
            MatchRows(
                [a, b, bot],
                [1, 2, 3],
                START + timedelta(days=11),
                options={"variant": "mcleod"},
                deals=[DealRow([1010, 300, 200])],
            )
        )
        write_matches(connection, add_room(connection), rows)
    engine.dispose()


def sign_in(page: Page, player: dict[str, Any], lang: str) -> None:
    page.goto("/")
    page.evaluate(
        "([player, lang]) => { localStorage.setItem('1001.player', JSON.stringify(player));"
        " localStorage.setItem('1001.lang', lang); }",
        [player, lang],
    )
    page.reload()


CHECKED = ".h2h .card-panel, .h2h-table, .h2h-table th, .h2h-match, .h2h-match > *, .h2h-kind-title"


def cut(page: Page) -> list[str]:
    """Anything of the page wider than its box (cut, or scrolling sideways), and the page's own width."""
    found: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
             .filter((el) => el.scrollWidth > el.clientWidth + 1)
             .map((el) => `${el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`)""",
        CHECKED,
    )
    width: int = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size or {"width": 0}
    return found + ([f"page {width} > {viewport['width']}"] if width > viewport["width"] else [])


WORDS = {
    "en": ("Anna vs Ben", f"{PAIR_MATCHES + 1} matches between people", "With computers"),
    "de": ("Anna gegen Ben", f"{PAIR_MATCHES + 1} Partien unter Menschen", "Mit Computern"),
    "ru": ("Anna — Ben", f"{PAIR_MATCHES + 1} партий между людьми", "С компьютером"),
}


def test_the_page_of_a_pair_on_a_phone_in_three_languages(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    anna, ben, cleo = people(e2e_server, "Anna", "Ben", "Cleo")
    fill(e2e_server, anna["id"], ben["id"], cleo["id"])
    seat = open_seat(browser, e2e_server.url, "Anna", VIEWPORTS["390x844"], device_scale_factor=2, is_mobile=True)
    page = seat.page
    try:
        for lang, (title, count, computers) in WORDS.items():
            sign_in(page, anna, lang)
            page.goto(f"/#/h2h/{anna['id']},{ben['id']}")
            expect(page.get_by_test_id("h2h-title")).to_have_text(title)
            expect(page.locator(".h2h .hero .muted")).to_have_text(count)
            chart = page.get_by_test_id("h2h-chart")
            expect(chart).to_be_visible()
            expect(chart).to_have_attribute("data-matches", str(PAIR_MATCHES + 1))
            expect(chart.locator(".race-series")).to_have_count(4)  # two lines and two legend items
            # Per game: two-hand (6 matches), V1 (1) and V7 (1, with Cleo); the computer's V2 apart.
            expect(page.locator('[data-testid^="h2h-people-"][data-kind]')).to_have_count(3)
            won = page.get_by_test_id("h2h-people-twohand24").locator(
                f'tr[data-row="won"] td[data-player="{anna["id"]}"]'
            )
            expect(won).to_have_text("4")  # k = 0, 2, 4, 6 (k = 3, lost, is V1)
            expect(page.get_by_test_id("h2h-computers-block")).to_contain_text(computers)
            expect(page.get_by_test_id("h2h-computers-mcleod")).to_be_visible()
            expect(page.get_by_test_id("h2h-money").locator("li")).to_have_count(1)
            expect(page.get_by_test_id("h2h-matches").locator("li")).to_have_count(PAIR_MATCHES + 1)
            page.screenshot(path=artifacts / f"h2h-390x844-{lang}.jpg", full_page=True, animations="disabled")
            assert cut(page) == [], (lang, cut(page))
        # Russian plural forms: 8 партий, and a streak of 1 declined.
        assert "1 поражение подряд" in page.get_by_test_id("h2h-people-bidding3").inner_text()
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_links_lead_to_it_and_it_reads_on_every_screen(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    anna, ben, cleo = people(e2e_server, "Anna", "Ben", "Cleo")
    fill(e2e_server, anna["id"], ben["id"], cleo["id"])
    seat = open_seat(browser, e2e_server.url, "Anna", VIEWPORTS["360x640"], is_mobile=True)
    page = seat.page
    pair = re.compile(rf"#/h2h/{anna['id']},{ben['id']}$")
    try:
        sign_in(page, anna, "en")
        page.goto("/#/history")
        # The ledger line of Ben, and an opponent name in the list.
        expect(page.get_by_test_id(f"ledger-{ben['id']}").get_by_test_id("ledger-h2h")).to_have_attribute("href", pair)
        page.get_by_test_id("match-row-h2h").filter(has_text=re.compile(r"^Ben$")).first.click()
        expect(page).to_have_url(pair)
        expect(page.get_by_test_id("h2h-chart")).to_be_visible()
        # A match of three: its page links to the three's head to head.
        page.locator('[data-testid^="h2h-people-bidding"]').wait_for()
        page.get_by_test_id("h2h-matches").locator("li").filter(has_text="Cleo").locator("a.h2h-date").click()
        page.get_by_test_id("detail-h2h").click()
        expect(page).to_have_url(re.compile(rf"#/h2h/{anna['id']},{ben['id']},{cleo['id']}$"))
        expect(page.get_by_test_id("h2h-title")).to_have_text("Anna, Ben, Cleo")
        expect(page.get_by_test_id("h2h-chart")).to_have_attribute("data-matches", "1")
        expect(page.get_by_test_id("h2h-computers-empty")).to_be_visible()
        assert cut(page) == [], cut(page)
        page.screenshot(path=artifacts / "h2h-three-360.jpg", full_page=True, animations="disabled")
        for label, size in (("360x640", VIEWPORTS["360x640"]), ("844x390", VIEWPORTS["844x390"]), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            page.goto("/#/history")  # away and back: the page is drawn afresh
            expect(page.get_by_test_id("match-list")).to_be_visible()
            page.goto(f"/#/h2h/{anna['id']},{ben['id']}")
            expect(page.get_by_test_id("h2h-title")).to_have_text("Anna vs Ben")
            expect(page.get_by_test_id("h2h-chart")).to_be_visible()
            page.get_by_test_id("h2h-computer-show").click()
            expect(page.get_by_test_id("h2h-computer-matches").locator("li")).to_have_count(1)
            page.screenshot(path=artifacts / f"h2h-{label}.jpg", full_page=True, animations="disabled")
            assert cut(page) == [], (label, cut(page))
        # Someone else's pair: refused, said so.
        sign_in(page, cleo, "en")
        page.goto(f"/#/h2h/{anna['id']},{ben['id']}")
        expect(page.get_by_test_id("h2h-error")).to_be_visible()
        assert not [e for e in seat.errors if "403" not in e], seat.errors
    finally:
        seat.context.close()


MANY = 1000  # matches: twenty pages of the list, one chart


def fill_many(server: ServerProcess, a: str, b: str) -> None:
    """A thousand two-hand matches of a and b, a day apart, 1011 – 720 (or 720 – 1011): a wins two
    of three in the first half, one of three in the second."""
    engine = make_engine(server.database_url)
    with engine.begin() as connection:
        won = [(k % 3 != 0) == (k < MANY // 2) for k in range(MANY)]
        rows = [
            MatchRows(
                [a, b],
                [1, 2] if won[k] else [2, 1],
                START - timedelta(days=MANY) + timedelta(days=k),
                deals=[DealRow([1011, 720] if won[k] else [720, 1011])],
            )
            for k in range(MANY)
        ]
        write_matches(connection, add_room(connection), rows)
    engine.dispose()


def test_the_chart_shows_every_match_past_the_list_s_page(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    """The chart draws all 1,000 matches (GET /api/head-to-head/series) while the list shows a page
    of 50; "Show older matches" extends the list alone. At 360 px: thin lines, no markers, nothing cut."""
    anna, ben = people(e2e_server, "Anna", "Ben")
    fill_many(e2e_server, anna["id"], ben["id"])
    seat = open_seat(browser, e2e_server.url, "Anna", VIEWPORTS["360x640"], device_scale_factor=2, is_mobile=True)
    page = seat.page
    try:
        sign_in(page, anna, "en")
        page.goto(f"/#/h2h/{anna['id']},{ben['id']}")
        chart = page.get_by_test_id("h2h-chart")
        expect(chart).to_have_attribute("data-matches", str(MANY))
        expect(chart).to_have_attribute("data-density", "crowded")
        expect(chart.locator(":scope > .race-series .race-point")).to_have_count(0)  # the legend keeps its own
        # Per member the totals (thin) and the average of the last 20 (bold), a point per match each.
        expect(chart.locator(":scope > .race-series polyline.h2h-raw")).to_have_count(2)
        expect(chart.locator(":scope > .race-series polyline.h2h-trend")).to_have_count(2)
        expect(chart).to_have_attribute("data-window", "20")
        expect(page.get_by_test_id("h2h-chart-trend")).to_have_text("Bold lines: the average of the last 20 matches.")
        for line in chart.locator(":scope > .race-series polyline").all():
            assert len((line.get_attribute("points") or "").split()) == MANY
        expect(page.get_by_test_id("h2h-chart-note")).to_have_count(0)  # not truncated
        matches = page.get_by_test_id("h2h-matches").locator("li")
        expect(matches).to_have_count(50)
        page.get_by_test_id("h2h-more").click()
        expect(matches).to_have_count(100)
        expect(chart).to_have_attribute("data-matches", str(MANY))  # the chart had them all already
        chart.screenshot(path=artifacts / "h2h-chart-1000-360.jpg", animations="disabled")
        assert cut(page) == [], cut(page)
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_no_serious_or_critical_axe_violation(e2e_server: ServerProcess, browser: Any, artifacts: Path) -> None:
    """The accessibility audit of tests/e2e/test_accessibility.py, on a pair's page and a table's."""
    from tests.e2e.test_accessibility import Audit

    anna, ben, cleo = people(e2e_server, "Anna", "Ben", "Cleo")
    fill(e2e_server, anna["id"], ben["id"], cleo["id"])
    seat = open_seat(browser, e2e_server.url, "Anna", VIEWPORTS["390x844"], reduced_motion="reduce")
    page = seat.page
    audit = Audit(page, artifacts)
    try:
        sign_in(page, anna, "en")
        for group in ([anna, ben], [anna, ben, cleo]):
            page.goto("/#/history")
            expect(page.get_by_test_id("match-list")).to_be_visible()
            page.goto(f"/#/h2h/{','.join(p['id'] for p in group)}")
            expect(page.get_by_test_id("h2h-chart")).to_be_visible()
            audit.run(f"head to head of {len(group)}")
        assert audit.found == [], "\n".join(audit.found)
    finally:
        seat.context.close()
