"""Issue: play against the computer. The bot takes seat 1 at once and decides in a worker process."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest

from tests.support.client import Player, Seat
from tests.support.services import ServerProcess, serving


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("bots"), BOT_DELAY_S="0") as process:
        yield process


async def _play_against_the_computer(seat: Seat, rng: random.Random, timeout: float = 120) -> None:
    async def loop() -> None:
        while seat.view["winner"] is None:
            if seat.my_turn():
                version = seat.state["version"]
                answer = await seat.intent(seat.choose(rng))
                assert answer["type"] == "state", answer
                if answer["version"] == version:
                    continue
            else:
                await seat.wait_for(lambda m: m["type"] == "state")

    await asyncio.wait_for(loop(), timeout)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
async def test_a_whole_match_against_each_level(bot_server: ServerProcess, level: str) -> None:
    anna = await Player(bot_server.url, "Anna").register()
    room = await anna.post("/api/rooms", json={"opponent": "computer", "bot_level": level, "target": 301})
    assert room["status"] == "playing" and room["visibility"] == "private"
    assert room["players"][1]["bot_level"] == level and room["players"][1]["connected"]
    seat = Seat(anna, room["id"], bot_server.ws_url)
    await seat.connect()
    await _play_against_the_computer(seat, random.Random(level))
    assert seat.view["end_reason"] == "target"

    [match] = (await anna.get("/api/matches"))["items"]
    assert match["opponent"]["bot_level"] == level
    assert match["stake"] is None and match["settlements"] == []  # a friendly match owes nothing (R6)
    assert seat.state["stake"] is None and seat.state["stakes"] == []  # type: ignore[index]
    [entry] = await anna.get("/api/ledger")
    assert entry["opponent_bot_level"] == level

    # Rematch: the computer accepts at once, seats swapped.
    answer = await seat.intent({"type": "rematch", "action": "offer"})
    assert answer["type"] == "state"
    assert [e["kind"] for e in answer["events"]] == ["rematch", "rematch", "match_started"]  # offered, accepted
    started = answer
    assert started["view"]["seat"] == 1 and started["view"]["totals"] == [0, 0]


async def test_computer_games_have_no_stake(bot_server: ServerProcess) -> None:
    anna = await Player(bot_server.url, "Anna").register()
    answer = await anna.request("POST", "/api/rooms", json={"opponent": "computer", "stake_per_point": "0.1"})
    assert answer.status_code == 422
    assert "no stake" in answer.text


async def test_the_computer_carries_on_after_a_restart(bot_server: ServerProcess) -> None:
    anna = await Player(bot_server.url, "Anna").register()
    room = await anna.post("/api/rooms", json={"opponent": "computer", "bot_level": "medium", "target": 301})
    seat = Seat(anna, room["id"], bot_server.ws_url)
    await seat.connect()
    rng = random.Random(1)
    for _ in range(9):  # into the deal, so the bot's history of this deal must be rebuilt
        if not seat.my_turn():
            await seat.wait_for(lambda m: m["type"] == "state" and bool(m["view"]["legal"]))
        await seat.intent(seat.choose(rng))
    bot_server.kill()
    bot_server.start()
    seat = Seat(anna, room["id"], bot_server.ws_url)
    await seat.connect()
    await _play_against_the_computer(seat, rng)
    assert seat.view["winner"] is not None
