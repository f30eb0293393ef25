"""A resigned match of four (1000 for four, V5) has a result and a place for everyone (R6.2, ruling
V0.10a: the one who resigns loses alone and is last, everyone who stayed shares the win, whatever
the totals) — in the end-of-match panel, the history list and the match page, in a real browser on
a phone, in players' words ("Ben left the match — you share the win with …").

Anna and Ben are people, the two other seats the computer's (easy). A deal is played through the
sockets so the totals differ; then Ben resigns. Anna's page says she shares the win, and every
seat's place, wherever the match is shown; the options row counts both computer seats.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.client import Seat as SocketSeat
from tests.support.services import ServerProcess, serving
from tests.support.tables import choose, my_turn, table

from .conftest import PHONE
from .helpers import open_seat, screenshots_at
from .test_polish_pages import sign_in

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
# The options row's computer chip (Intl.PluralRules forms): two of four seats, then three.
# Ruling V0.10a in players' words, as Anna (who stayed) reads it: Ben left, she shares the win
# with the two others (the plural form for two names; Russian in the past tense, issue 43)
SHARED_WIN = {
    "en": "Ben left the match — you share the win with ",
    "de": "Ben hat die Partie verlassen — du teilst dir den Sieg mit ",
    "ru": "Игрок Ben покинул партию — вы разделили победу с игроками ",
}
SHARED_CHIP = {
    "en": ("Computer seats", "2 computers (easy)"),
    "de": ("Computerplätze", "2 Computer (leicht)"),
    "ru": ("Места компьютера", "2 компьютера (лёгкий)"),
}
ALONE_CHIP = {
    "en": ("Opponents", "3 computers (easy)"),
    "de": ("Gegner", "3 Computer (leicht)"),
    "ru": ("Соперники", "3 компьютера (лёгкий)"),
}
NARROW = {"width": 360, "height": 640}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("e2e-resign4"), BOT_DELAY_S="0", MATCH_SEED="11") as process:
        yield process


async def one_deal(seats: list[SocketSeat], rng: random.Random) -> None:
    """The people's random legal moves until the first deal is over (the computer plays its own)."""

    def dealt() -> int:
        view = seats[0].state["view"] if seats[0].state else None
        return len(view["history"]) if view else 0

    while dealt() < 1:
        movers = [seat for seat in seats if my_turn(seat)]
        if not movers:
            await asyncio.sleep(0.01)
            continue
        answer = await movers[0].intent(choose(movers[0].view, rng))
        assert answer["type"] in ("state", "rejected"), answer


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_r6_2_v0_10a_a_resigned_four_seat_match_says_the_leaver_lost_alone_and_the_others_share_the_win(
    server: ServerProcess, browser: Any, artifacts: Path, lang: str
) -> None:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def run(coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(90)

    seats: list[SocketSeat] = run(table(server, "thousand4", 4, 1001, people=2))
    anna_socket, ben_socket = seats
    visitor = open_seat(browser, server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    page = visitor.page
    try:
        run(one_deal(seats, random.Random(3)))
        room = seats[0].room_id
        ben = ben_socket.view["seat"]
        assert anna_socket.view["seat"] == 0
        player = {"id": anna_socket.player.id, "name": "Anna", "token": anna_socket.player.token}
        sign_in(page, player, lang)
        page.goto(f"/#/table/{room}")
        expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()

        # Ben gives up (R6.2, V0.10a): he loses alone and is last; everyone who stayed shares the win.
        answer = run(ben_socket.resign())
        assert answer["type"] == "state", answer
        panel = page.get_by_test_id("match-over")
        expect(panel).to_be_visible()
        match_id = anna_socket.state["room"]["match_id"] if anna_socket.state else None
        listed: dict[str, Any] = run(anna_socket.player.get("/api/matches"))["items"][0]
        assert listed["id"] == match_id and listed["status"] == "finished" and listed["end_reason"] == "resign"
        places: list[int] = listed["places"]
        assert places == [4 if seat == ben else 1 for seat in range(4)], places
        assert listed["winner_seat"] is None and listed["result"] == "won"
        firsts = [seat for seat, place in enumerate(places) if place == 1]
        shared = SHARED_WIN[lang]
        names = {p["seat"]: p for p in listed["players"]}

        # The panel: a headline naming the winner(s), every seat with its place, the leaver marked.
        headline = page.get_by_test_id("match-result")
        expect(headline).to_have_attribute("data-winners", ",".join(map(str, firsts)))
        for seat in firsts:
            expect(panel.get_by_test_id(f"standing-{seat}").get_by_test_id("standing-winner")).to_be_visible()
        expect(panel.get_by_test_id(f"standing-{ben}").get_by_test_id("standing-left")).to_be_visible()
        for seat, place in enumerate(places):
            row = panel.get_by_test_id(f"standing-{seat}")
            expect(row).to_have_attribute("data-place", str(place))
            expect(row.get_by_test_id("standing-place")).to_be_visible()
        leader = panel.get_by_test_id(f"standing-{firsts[0]}")
        assert leader.evaluate("el => getComputedStyle(el.querySelector('.who')).textDecorationLine") == "none"
        expect(headline).to_have_attribute("data-won", "true")
        expect(headline).to_contain_text(shared)  # in players' words, never "… lost"
        screenshots_at(page, artifacts, f"resign4-panel-{lang}", (PHONE, LANDSCAPE, NARROW))

        # The history list: a result, not "in progress"; the options row counts the computer seats.
        page.goto("/#/history")
        row = page.get_by_test_id(f"match-row-{match_id}")
        result = row.get_by_test_id("match-row-result")
        expect(result).to_have_attribute("data-result", "won" if places[0] == 1 else "lost")
        expect(row.get_by_test_id("match-row-place")).to_have_attribute("data-place", str(places[0]))
        expect(row.get_by_test_id("match-row-winner")).to_contain_text(shared)
        screenshots_at(page, artifacts, f"resign4-history-{lang}", (PHONE, LANDSCAPE, NARROW))

        # The match page: the result, the winner, and every seat's place in the totals line.
        page.get_by_test_id(f"match-link-{match_id}").click()
        expect(page.get_by_test_id("detail-result")).to_have_attribute(
            "data-result", "won" if places[0] == 1 else "lost"
        )
        totals = page.get_by_test_id("detail-totals")
        for seat, place in enumerate(places):
            expect(totals.get_by_test_id(f"detail-place-{seat}")).to_have_attribute("data-place", str(place))
        expect(page.get_by_test_id("detail-winner")).to_contain_text(shared)
        computers = page.get_by_test_id("options-summary").locator('[data-opt="opponent"]')
        expect(computers).to_have_attribute("data-count", "2")
        screenshots_at(page, artifacts, f"resign4-match-{lang}", (PHONE, LANDSCAPE, NARROW))
        assert sorted(seat for seat, p in names.items() if p["bot_level"] == "easy") == sorted({1, 2, 3} - {ben})
        expect(computers.locator("dt")).to_have_text(SHARED_CHIP[lang][0])
        expect(computers.locator("dd")).to_have_text(SHARED_CHIP[lang][1])

        # Anna alone against three computer seats: the options row counts all three (plural forms).
        alone = run(
            anna_socket.player.post(
                "/api/rooms",
                json={"variant": "thousand4", "seats": 4, "computer_seats": 3, "bot_level": "easy", "target": 1001},
            )
        )
        assert alone["status"] == "playing" and alone["match_id"], alone
        page.goto(f"/#/history/{alone['match_id']}")
        chip = page.get_by_test_id("options-summary").locator('[data-opt="opponent"]')
        expect(chip).to_have_attribute("data-count", "3")
        expect(chip.locator("dt")).to_have_text(ALONE_CHIP[lang][0])
        expect(chip.locator("dd")).to_have_text(ALONE_CHIP[lang][1])
        assert not visitor.errors, visitor.errors
    finally:
        visitor.context.close()

        async def close_all() -> None:
            for seat in seats:
                await seat.close()

        run(close_all())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
