""" "My games" on a phone (390 × 844, issue 45): the lobby lists Anna's turn-based tables, her turn first
with the time left, the others' turn after, and the last move; a move made elsewhere reaches the
open lobby over its event stream (the lobby polls nothing), the page title counts the games waiting
for her and the app badge (the Badging API) is set to that count."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from backend.api.codes import PROTOCOL
from tests.support.services import ServerProcess

from .conftest import PHONE
from .helpers import choose_name, open_seat

pytestmark = pytest.mark.browser

# The Badging API as a page sees it, recorded (headless Chromium has no installed app to badge).
BADGE_SPY = """
window.__badges = [];
navigator.setAppBadge = (n) => { window.__badges.push(n); return Promise.resolve(); };
navigator.clearAppBadge = () => { window.__badges.push(0); return Promise.resolve(); };
"""


def card_text(card: str) -> str:
    return {"T": "10"}.get(card[0], card[0]) + {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}[card[1]]


def play_first_legal(base_url: str, token: str, room_id: str) -> str:
    """The player of ``token`` plays a legal card at the table, over a real socket: the card."""
    headers = {"Authorization": f"Bearer {token}"}
    ticket = httpx.post(f"{base_url}/api/socket-ticket", headers=headers).json()["ticket"]
    url = f"{base_url.replace('http', 'ws', 1)}/ws/rooms/{room_id}?ticket={ticket}&protocol={PROTOCOL}"
    with connect(url) as socket:
        state = json.loads(socket.recv(10))
        while state.get("type") != "state":
            state = json.loads(socket.recv(10))
        card: str = state["view"]["legal"][0]["card"]
        socket.send(json.dumps({"type": "play", "card": card, "declare": False, "id": 1, "version": state["version"]}))
        while True:
            answer = json.loads(socket.recv(10))
            if answer.get("reply_to") == 1 or answer.get("type") == "rejected":
                assert answer["type"] == "state", answer
                return card


def test_my_games_on_a_phone_your_turn_first_with_time_left_and_the_last_move_live(
    browser: Any, e2e_server: ServerProcess, artifacts: Path
) -> None:
    anna = open_seat(browser, e2e_server.url, "Anna", PHONE)
    anna.context.add_init_script(BADGE_SPY)
    base = e2e_server.url
    try:
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        me = anna.page.evaluate("() => JSON.parse(localStorage.getItem('1001.player'))")
        ben = httpx.post(f"{base}/api/players", json={"name": "Ben"}).json()
        tokens = {me["id"]: me["token"], ben["id"]: ben["token"]}
        rooms = []
        for _ in range(2):
            headers = {"Authorization": f"Bearer {me['token']}"}
            room = httpx.post(f"{base}/api/rooms", json={"pace": "2d"}, headers=headers).json()
            joined = httpx.post(
                f"{base}/api/invites/{room['invite_code']}/join", headers={"Authorization": f"Bearer {ben['token']}"}
            ).json()
            rooms.append(joined)
        # One move at each table: whoever is on turn plays, so each table has a last move to show.
        played = {}
        for room in rooms:
            on_turn = room["players"][room["turn"]]["id"]
            played[room["id"]] = (on_turn, play_first_legal(base, tokens[on_turn], room["id"]))

        mine = anna.page.get_by_test_id("my-rooms")
        for room in rooms:
            row = mine.get_by_test_id(f"my-room-{room['id']}")
            expect(row).to_be_visible()
            who, card = played[room["id"]]
            mover = "Anna" if who == me["id"] else "Ben"
            expect(row.get_by_test_id(f"game-last-{room['id']}")).to_have_text(re.compile(rf"^{mover} played "))
        rows = mine.locator("li.game-row")
        expect(rows).to_have_count(2)

        def check_order() -> int:
            flags = [rows.nth(i).get_attribute("data-my-turn") for i in range(2)]
            waiting = flags.count("true")
            assert flags == sorted(flags, key=lambda f: f != "true"), flags  # her turn first
            for i in range(2):
                text = rows.nth(i).locator(".turn-pill").inner_text()
                if flags[i] == "true":
                    assert re.fullmatch(r"Your turn · 1 d 23 h left|Your turn · 2 d 0 h left", text), text
                else:
                    assert text == "Ben's turn", text
            return waiting

        expect(anna.page).to_have_title(re.compile(r"^(\(\d\) )?1001"))
        waiting = check_order()
        if waiting:
            expect(anna.page).to_have_title(re.compile(rf"^\({waiting}\) "))
            assert anna.page.evaluate("() => window.__badges.at(-1)") == waiting
            button = anna.page.get_by_test_id("games-waiting")  # up top: "My games" is below the form
            expect(button).to_have_text(f"Your turn in {waiting} game" + ("s" if waiting > 1 else ""))
            anna.page.evaluate("() => window.scrollTo(0, 0)")
            box = button.bounding_box()
            assert box is not None and box["y"] < PHONE["height"] and box["height"] >= 44, box
        anna.page.screenshot(path=str(artifacts / "my-games-phone.png"), full_page=True)

        # Live: whoever is on turn at the first table plays from elsewhere; the open lobby is told at once.
        target = rooms[0]["id"]
        games = httpx.get(f"{base}/api/me/games", headers={"Authorization": f"Bearer {me['token']}"}).json()
        [game] = [g for g in games["games"] if g["room"]["id"] == target]
        on_turn = game["room"]["players"][game["room"]["turn"]]["id"]
        card = play_first_legal(base, tokens[on_turn], target)
        mover = "Anna" if on_turn == me["id"] else "Ben"
        row = mine.get_by_test_id(f"my-room-{target}")
        expect(row.get_by_test_id(f"game-last-{target}")).to_have_text(f"{mover} played {card_text(card)}")
        check_order()
        # The row's button leads to the table; nothing overflows the phone's width.
        width = anna.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        # No polling: the lobby asked for none of the three lists it once fetched every 4 s.
        assert anna.errors == [], anna.errors
    finally:
        anna.context.close()
