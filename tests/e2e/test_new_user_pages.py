"""Issue 43: what a new user tripped over on the lobby, history, ledger and head-to-head pages, on a
390×844 phone in English, German and Russian (one page per test, reused for the three languages).

Anna, Ben, Cleo and Dan sign up through the server; their finished matches are written into its
database (``tests.support.match_rows``), so every figure and sentence is known:

- m1 McLeod: Cleo resigned (R6.2) — Anna and Ben share first place (V0.10a); begun first, ended last
- m2 two-hand: Ben resigned while ahead — Anna won without a lead (no biggest win, no "±0")
- m3 McLeod: Anna won on the target, 300 ahead
- m4 two-hand: Anna stayed away — Ben won; no deal was finished (no analysis block)
- m5 McLeod with two computers at medium, m6 two-hand against one, m8 with Dan and one: Anna won m5
  and m8, lost m6 — one ledger row "the computer at medium"
- m7 McLeod with Ben and a computer: Anna resigned — Ben and the computer share the win
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect

from backend.db.engine import make_engine
from backend.db.models import Match
from tests.support.match_rows import DealRow, MatchRows, add_player, add_room, write_matches
from tests.support.services import ServerProcess

from .conftest import PHONE
from .helpers import open_seat
from .test_polish_pages import sign_in

pytestmark = pytest.mark.browser

LANGS = ("en", "de", "ru")
T0 = datetime(2026, 11, 24, 19, 0, tzinfo=UTC)
MCLEOD = {"variant": "mcleod"}


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def person(server: ServerProcess, name: str) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/players", json={"name": name}, timeout=10)
    answer.raise_for_status()
    found: dict[str, Any] = answer.json()
    return found


class World:
    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.anna, self.ben, self.cleo, self.dan = (person(server, n) for n in ("Anna", "Ben", "Cleo", "Dan"))
        a, b, c, d = (p["id"] for p in (self.anna, self.ben, self.cleo, self.dan))
        engine = make_engine(server.database_url)
        with engine.begin() as connection:
            m1, m2 = add_player(connection, "Computer", "medium"), add_player(connection, "Computer 2", "medium")
            rows = {
                "m1": MatchRows([a, b, c], [1, 1, 3], at(60), MCLEOD, [DealRow([100, 300, 200])], end_reason="resign"),
                "m2": MatchRows([a, b], [1, 2], at(20), deals=[DealRow([100, 300])], end_reason="resign"),
                "m3": MatchRows([a, b, c], [1, 2, 3], at(30), MCLEOD, [DealRow([600, 300, 100])]),
                "m4": MatchRows([a, b], [2, 1], at(40), end_reason="absence"),
                "m5": MatchRows([a, m1, m2], [1, 2, 3], at(10), MCLEOD, [DealRow([600, 300, 100])]),
                "m6": MatchRows([a, m1], [2, 1], at(15), deals=[DealRow([100, 1001])]),
                "m7": MatchRows([a, b, m1], [3, 1, 1], at(50), MCLEOD, [DealRow([300, 200, 100])], end_reason="resign"),
                "m8": MatchRows([a, d, m1], [1, 2, 3], at(5), MCLEOD, [DealRow([600, 300, 100])]),
            }
            self.ids = {key: f"{key}_{a[-8:]}" for key in rows}
            for key, row in rows.items():
                row.id = self.ids[key]
            write_matches(connection, add_room(connection), list(rows.values()))
            # m1 began first of all (it is listed first all the same: it ended last)
            connection.execute(sa.update(Match).where(Match.id == self.ids["m1"]).values(started_at=at(-100)))
        engine.dispose()


@pytest.fixture(scope="module")
def world(e2e_server: ServerProcess) -> World:
    return World(e2e_server)


@pytest.fixture(scope="module")
def phone(browser: Any, e2e_server: ServerProcess) -> Iterator[Any]:
    seat = open_seat(browser, e2e_server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    try:
        yield seat
    finally:
        seat.context.close()


BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""


def broken_words(page: Page, selector: str) -> list[str]:
    """The words of ``selector`` that the layout cut over two lines."""
    found: list[str] = page.evaluate(BROKEN_WORDS, selector)
    return found


# The head to head of Anna and Ben: each match in players' words, addressed to Anna (issue 43, 1)
H2H_WORDS = {
    "en": {
        "m1": "Cleo left the match — you share the win with Ben",
        "m2": "Ben resigned. You won",
        "m3": "You won",
        "m4": "You were away for too long. Ben won",
        "m7": "You left the match — Ben and Computer (medium) share the win",
        "shared": "Shared",
    },
    "de": {
        "m1": "Cleo hat die Partie verlassen — du teilst dir den Sieg mit Ben",
        "m2": "Ben hat aufgegeben. Du hast gewonnen",
        "m3": "Du hast gewonnen",
        "m4": "Du warst zu lange abwesend. Ben hat gewonnen",
        "m7": "Du hast die Partie verlassen — Ben und Computer (mittel) teilen sich den Sieg",
        "shared": "Geteilt",
    },
    "ru": {
        "m1": "Игрок Cleo покинул партию — вы разделили победу с игроком Ben",
        "m2": "Игрок Ben сдал партию. Вы выиграли",
        "m3": "Вы выиграли",
        "m4": "Вы слишком долго отсутствовали. Победитель: Ben",
        "m7": "Вы покинули партию — победу разделили Ben и Компьютер (средний)",
        "shared": "Поровну",
    },
}


def test_the_head_to_head_says_each_match_in_players_words_and_shows_nothing_empty(
    world: World, phone: Any, artifacts: Any
) -> None:
    page = phone.page
    a, b, c, d = (p["id"] for p in (world.anna, world.ben, world.cleo, world.dan))
    for lang in LANGS:
        words = H2H_WORDS[lang]
        sign_in(page, world.anna, lang)
        page.goto(f"/#/h2h/{a},{b}")
        for key in ("m1", "m2", "m3", "m4"):
            expect(page.get_by_test_id(f"h2h-match-{world.ids[key]}").get_by_test_id("h2h-winner")).to_have_text(
                words[key]
            )
        # The computer's matches: its name in the page's language, everywhere it is written.
        page.get_by_test_id("h2h-computer-show").click()
        m7 = page.get_by_test_id(f"h2h-match-{world.ids['m7']}")
        expect(m7.get_by_test_id("h2h-winner")).to_have_text(words["m7"])
        if lang != "en":
            assert "medium" not in page.get_by_test_id("h2h").inner_text()
        # A shared first place is a row of its own (issue 43, 2); McLeod: m1 shared, m3 won.
        mcleod = page.get_by_test_id("h2h-people-mcleod")
        expect(mcleod.locator('tr[data-row="shared"] th')).to_have_text(words["shared"])
        row = {key: mcleod.locator(f'tr[data-row="{key}"] td[data-player="{a}"]') for key in ("won", "shared", "lost")}
        expect(row["won"]).to_have_text("1")
        expect(row["shared"]).to_have_text("1")
        expect(row["lost"]).to_have_text("0")
        expect(mcleod.locator(f'tr[data-row="biggest"] td[data-player="{a}"]')).to_have_text("+300")
        # Two-hand: m2 won by Ben's resignation while behind: no biggest win, no "±0" (issue 43, 8).
        two = page.get_by_test_id("h2h-people-twohand24")
        expect(two.locator('tr[data-row="won"]')).to_have_count(1)
        expect(two.locator('tr[data-row="biggest"]')).to_have_count(0)
        expect(two.locator('tr[data-row="shared"]')).to_have_count(0)
        assert "±0" not in page.get_by_test_id("h2h").inner_text()
        assert broken_words(page, ".h2h") == [], lang

        # The three of m1 and m3: a card each, nothing cut mid-word at 390 px (issue 43, 7).
        page.goto(f"/#/h2h/{a},{b},{c}")
        cards = page.get_by_test_id("h2h-people-mcleod").locator(".h2h-card")
        expect(cards).to_have_count(3)
        expect(cards.nth(0).locator('[data-row="shared"] dd')).to_have_text("1")
        assert broken_words(page, ".h2h") == [], lang
        width: int = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (lang, width)
        page.screenshot(path=artifacts / f"h2h-three-cards-{lang}.jpg", full_page=True, animations="disabled")

        # Anna and Dan played only with a computer at the table: no "0 matches between people", no
        # empty list or chart — the people's block says there is none, once.
        page.goto(f"/#/h2h/{a},{d}")
        expect(page.get_by_test_id("h2h-people-empty")).to_be_visible()
        expect(page.get_by_test_id("h2h-count")).to_have_count(0)
        expect(page.get_by_test_id("h2h-list")).to_have_count(0)
        expect(page.get_by_test_id("h2h-chart")).to_have_count(0)
        expect(page.get_by_test_id("h2h-computers-mcleod")).to_be_visible()
    assert not phone.errors, phone.errors


# The history as Anna reads it (issue 43, 2–5 and 8)
HISTORY_WORDS = {
    "en": {
        "ben": "5 played · 2 won · 1 shared",
        "medium": ("Computer (medium)", "4 played · 2 won"),
        "m1": "Cleo resigned.",
        "m2": "Ben resigned.",
        "m4": "You were away for too long.",
        "m7": "You resigned.",
    },
    "de": {
        "ben": "5 gespielt · 2 gewonnen · 1 geteilt",
        "medium": ("Computer (mittel)", "4 gespielt · 2 gewonnen"),
        "m1": "Cleo hat aufgegeben.",
        "m2": "Ben hat aufgegeben.",
        "m4": "Du warst zu lange abwesend.",
        "m7": "Du hast aufgegeben.",
    },
    "ru": {
        "ben": "сыграно 5 · выиграно 2 · поровну 1",
        "medium": ("Компьютер (средний)", "сыграно 4 · выиграно 2"),
        "m1": "Игрок Cleo сдал партию.",
        "m2": "Игрок Ben сдал партию.",
        "m4": "Вы слишком долго отсутствовали.",
        "m7": "Вы сдали партию.",
    },
}


def test_the_history_and_ledger_read_as_played(world: World, phone: Any) -> None:
    page = phone.page
    ids = world.ids
    for lang in LANGS:
        words = HISTORY_WORDS[lang]
        sign_in(page, world.anna, lang)
        page.goto("/#/history")
        ledger = page.get_by_test_id("ledger")
        # Ben: m2 and m3 won, m1 shared (both stayed when Cleo left), m4 and m7 lost
        ben = page.get_by_test_id(f"ledger-{world.ben['id']}").get_by_test_id("ledger-figures")
        expect(ben).to_have_text(words["ben"])
        expect(ben).to_have_attribute("data-shared", "1")
        # The computer at medium: one row, m5 (two seats of it) and m8 won, m6 and m7 lost
        computer = ledger.locator('[data-testid="ledger-name"][data-bot="medium"]')
        expect(computer).to_have_count(1)
        expect(computer).to_have_text(words["medium"][0])
        expect(computer.locator("xpath=..").get_by_test_id("ledger-figures")).to_have_text(words["medium"][1])
        # The list follows the times it shows, newest first: m1 (begun first, ended last) on top
        links = page.locator('[data-testid^="match-link-"]')
        expect(links).to_have_count(8)
        shown = [link.get_attribute("data-at") for link in links.all()]
        assert (
            shown == sorted(shown, reverse=True)
            and links.first.get_attribute("data-testid") == f"match-link-{ids['m1']}"
        )
        # A match someone left says who and why, to the reader (R6.2)
        for key in ("m1", "m2", "m4", "m7"):
            expect(page.get_by_test_id(f"match-row-{ids[key]}").get_by_test_id("match-row-reason")).to_have_text(
                words[key]
            )
        expect(page.get_by_test_id(f"match-row-{ids['m3']}").get_by_test_id("match-row-reason")).to_have_count(0)
        # A match with no finished deal: no "points given away — 0 of 0 deals analysed"
        page.goto(f"/#/history/{ids['m4']}")
        expect(page.get_by_test_id("detail-reason")).to_have_text(words["m4"])
        expect(page.get_by_test_id("match-analysis")).to_be_hidden()
        page.goto(f"/#/history/{ids['m3']}")
        expect(page.get_by_test_id("match-analysis")).to_be_visible()
    assert not phone.errors, phone.errors


# Every end-of-match text for one, two and three who stayed (issue 43, 5 and 6): the reader in the
# second person, Russian in the past tense, every text in the plural form of its names' count.
END_WORDS = {
    "en": [
        "You won",
        "Ben won",
        "Cleo left the match — you share the win with Ben",
        "Dan left the match — you share the win with Ben and Cleo",
        "You left the match — Ben and Cleo share the win",
        "You left the match — Ben, Cleo, and Dan share the win",
        "Anna left the match — Ben and Cleo share the win",
        "Anna left the match — Ben, Cleo, and Dan share the win",
        "You resigned.",
        "You were away for too long.",
        "Ben resigned.",
        "Ben was away for too long.",
        "You reached 1001.",
        "Ben reached 1001.",
    ],
    "de": [
        "Du hast gewonnen",
        "Ben hat gewonnen",
        "Cleo hat die Partie verlassen — du teilst dir den Sieg mit Ben",
        "Dan hat die Partie verlassen — du teilst dir den Sieg mit Ben und Cleo",
        "Du hast die Partie verlassen — Ben und Cleo teilen sich den Sieg",
        "Du hast die Partie verlassen — Ben, Cleo und Dan teilen sich den Sieg",
        "Anna hat die Partie verlassen — Ben und Cleo teilen sich den Sieg",
        "Anna hat die Partie verlassen — Ben, Cleo und Dan teilen sich den Sieg",
        "Du hast aufgegeben.",
        "Du warst zu lange abwesend.",
        "Ben hat aufgegeben.",
        "Ben war zu lange abwesend.",
        "Du hast 1001 erreicht.",
        "Ben hat 1001 erreicht.",
    ],
    "ru": [
        "Вы выиграли",
        "Победитель: Ben",
        "Игрок Cleo покинул партию — вы разделили победу с игроком Ben",
        "Игрок Dan покинул партию — вы разделили победу с игроками Ben и Cleo",
        "Вы покинули партию — победу разделили Ben и Cleo",
        "Вы покинули партию — победу разделили Ben, Cleo и Dan",
        "Игрок Anna покинул партию — победу разделили Ben и Cleo",
        "Игрок Anna покинул партию — победу разделили Ben, Cleo и Dan",
        "Вы сдали партию.",
        "Вы слишком долго отсутствовали.",
        "Игрок Ben сдал партию.",
        "Игрок Ben слишком долго отсутствовал.",
        "Вы достигли цели 1001.",
        "Игрок Ben достиг цели 1001.",
    ],
}
RENDER_END_WORDS = """async () => {
  const ui = await import('/js/ui.js');
  const names = ['Anna', 'Ben', 'Cleo', 'Dan'];
  const name = (seat) => names[seat];
  const first = (places, loser, me) => ui.firstPlaceWords({ places, loser, me, name });
  const why = (endReason, seat, me) =>
    ui.endReasonWords({ endReason, loser: seat, winner: seat, target: 1001, me, name });
  return [
    first([1, 2], null, 0),  // one who stayed at a table of two: the winner
    first([2, 1], null, 0),
    first([1, 1, 3], 2, 0),  // two stayed, the reader one of them
    first([1, 1, 1, 4], 3, 0),  // three stayed, the reader one of them
    first([3, 1, 1], 0, 0),  // the reader left, two stayed
    first([4, 1, 1, 1], 0, 0),  // the reader left, three stayed
    first([3, 1, 1], 0, null),  // a spectator: two stayed
    first([4, 1, 1, 1], 0, null),  // three stayed
    why('resign', 0, 0), why('absence', 0, 0), why('resign', 1, 0), why('absence', 1, 0),
    why('target', 0, 0), why('target', 1, 0),
  ];
}"""


def test_every_end_of_match_text_for_one_two_and_three_who_stayed(world: World, phone: Any) -> None:
    page = phone.page
    for lang in LANGS:
        sign_in(page, world.anna, lang)
        assert page.evaluate(RENDER_END_WORDS) == END_WORDS[lang], lang
    assert not phone.errors, phone.errors


LOBBY_WORDS = {
    "en": ("Anna invites you to a match", "Three-hand 1001 · 1/3", "Scores", "Score sheet and options"),
    "de": ("Anna lädt dich zu einer Partie ein", "1001 zu dritt · 1/3", "Stand", "Schreibblock und Optionen"),
    "ru": ("Anna приглашает вас на партию", "1001 втроём · 1/3", "Счёт", "Запись счёта и настройки"),
}


def below(upper: Any, lower: Any) -> bool:
    """``lower``'s box starts under ``upper``'s (bounding boxes)."""
    return bool(lower["y"] >= upper["y"] + upper["height"] - 1)


def test_a_new_user_reaches_the_friend_form_in_one_tap_and_reads_an_invitation_before_a_name(
    world: World, browser: Any, e2e_server: ServerProcess, artifacts: Any
) -> None:
    room = httpx.post(
        f"{e2e_server.url}/api/rooms",
        json={
            "variant": "mcleod",
            "target": 501,
            "stake_per_point": "0.05",
            "currency": "EUR",
            "visibility": "private",
        },
        headers={"Authorization": f"Bearer {world.anna['token']}"},
        timeout=10,
    ).json()
    for lang in LANGS:
        host, game, toggle, drawer = LOBBY_WORDS[lang]
        newcomer = open_seat(browser, e2e_server.url, "Newcomer", PHONE, is_mobile=True, has_touch=True)
        page = newcomer.page
        try:
            page.goto("/")
            page.evaluate("(lang) => localStorage.setItem('1001.lang', lang)", lang)
            # The invitation names who invites, the game and the stake before a name is chosen.
            page.goto(f"/#/invite/{room['invite_code']}")
            page.reload()
            expect(page.get_by_test_id("invite-host")).to_have_text(host)
            expect(page.get_by_test_id("invite-game")).to_have_text(game)
            stake = page.get_by_test_id("invite-preview").locator('[data-opt="stake"] dd')
            expect(stake).to_contain_text("0.05" if lang == "en" else "0,05")
            expect(page.get_by_test_id("name-input")).to_be_visible()
            page.screenshot(path=artifacts / f"invite-before-name-{lang}.jpg", full_page=True, animations="disabled")

            # First visit: "Play a friend" saves the name and reaches the form in the same tap.
            page.goto("/#/")
            page.get_by_test_id("name-input").fill(f"New {lang}")
            page.get_by_test_id("save-name").click()
            expect(page.get_by_test_id("create-form")).to_be_visible()
            expect(page.get_by_test_id("opt-opponent-human")).to_be_focused()
            title = page.locator("#create-h").bounding_box()
            assert title and -1 < title["y"] < PHONE["height"], title  # scrolled to it (to a sub-pixel)

            # Back in the lobby: each quick button has its caption right under it.
            page.goto("/#/history")
            page.goto("/#/")
            boxes = {
                testid: page.get_by_test_id(testid).bounding_box()
                for testid in ("play-computer-now", "quick-help", "play-friend", "friend-help")
            }
            computer, caption, friend, friend_caption = boxes.values()
            assert computer and caption and friend and friend_caption, boxes
            assert below(computer, caption) and below(friend, friend_caption), boxes
            assert below(caption, friend) or caption["x"] + caption["width"] <= friend["x"], (
                boxes
            )  # not under "Play a friend"
            page.screenshot(path=artifacts / f"lobby-quick-captions-{lang}.jpg", animations="disabled")

            # A table with nobody to talk to: the drawer is not called "Chat" and has no chat.
            page.get_by_test_id("play-computer-now").click()
            expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
            expect(page.get_by_test_id("sheet-toggle").locator(".bar-label")).to_have_text(toggle)
            page.get_by_test_id("sheet-toggle").click()
            expect(page.locator("#table-sheet-h")).to_have_text(drawer)
            expect(page.get_by_test_id("sheet-tab-chat")).to_be_hidden()
            assert not newcomer.errors, newcomer.errors
        finally:
            newcomer.context.close()
