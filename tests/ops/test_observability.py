"""Metrics and logs of a real server through a whole match.

The server runs with ``METRICS=1``, a ``METRICS_TOKEN``, ``LOG_FORMAT=json`` and uvicorn's access
log on: every line it writes is one JSON object, the lines about sockets name the room and the
player, and no player token, socket ticket or invite code appears anywhere in its output. The
metrics count what the match did.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from backend.api.app import create_app
from backend.api.codes import PROTOCOL
from backend.ops.logs import JsonFormatter
from backend.ops.metrics import scrape_allowed
from backend.settings import Settings
from tests.support.client import Player, Seat, play_moves
from tests.support.services import ServerProcess, database

TOKEN = "metrics-secret-for-tests"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("ops-observed")
    with database("sqlite", folder) as url:
        process = ServerProcess(
            url,
            folder / "server.log",
            uvicorn_args=("--log-level", "info", "--access-log"),
            METRICS="1",
            METRICS_TOKEN=TOKEN,
            LOG_FORMAT="json",
            BOT_DELAY_S="0",
        )
        process.start()
        try:
            yield process
        finally:
            process.stop()


def scrape(server: ServerProcess) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = httpx.get(f"{server.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


async def test_a_whole_match_logs_no_secret_and_one_json_object_per_line(server: ServerProcess) -> None:
    anna = await Player(server.url, "Anna").register()
    ben = await Player(server.url, "Ben").register()
    room = await anna.post("/api/rooms", json={"target": 301, "visibility": "private", "stake_per_point": "0.5"})
    secrets_used = {anna.token, ben.token, room["invite_code"]}
    first = Seat(anna, room["id"], server.ws_url)
    await first.connect()
    await ben.get(f"/api/invites/{room['invite_code']}")
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    second = Seat(ben, room["id"], server.ws_url)
    await second.connect()
    await first.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    # A socket opened with a ticket the test keeps, and one with ?token= (non-browser clients).
    ticket = (await ben.post("/api/socket-ticket"))["ticket"]
    secrets_used.add(ticket)
    for query in (f"ticket={ticket}", f"token={ben.token}"):
        async with connect(f"{server.ws_url}/ws/rooms/{room['id']}?{query}&protocol={PROTOCOL}") as extra:
            assert json.loads(await extra.recv())["type"] == "state"
    await second.connect()  # the extra sockets replaced Ben's: open his again
    watch_code = (await anna.post(f"/api/rooms/{room['id']}/watch-link"))["code"]
    secrets_used.add(watch_code)
    async with connect(f"{server.ws_url}/ws/rooms/{room['id']}/watch?protocol={PROTOCOL}&code={watch_code}") as eyes:
        assert json.loads(await eyes.recv())["type"] == "watch_state"
    moves = await play_moves((first, second), random.Random(21))
    assert moves > 0 and first.view["winner"] is not None

    text = server.log_path.read_text()
    for secret in secrets_used:
        assert secret not in text, "a secret reached the log"
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # every line is one JSON object
    assert all({"ts", "level", "logger", "msg"} <= line.keys() for line in lines)
    assert any(line["logger"] == "uvicorn.access" and "/api/invites/[redacted]" in line["msg"] for line in lines)
    opened = [line for line in lines if line.get("event") == "socket_open"]
    assert {(line["room"], line["player"]) for line in opened} == {(room["id"], anna.id), (room["id"], ben.id)}


async def test_metrics_count_the_match_and_are_not_public(server: ServerProcess) -> None:
    assert httpx.get(f"{server.url}/metrics").status_code == 404  # no token, no metrics
    assert httpx.get(f"{server.url}/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 404
    before = scrape(server)
    anna = await Player(server.url, "Cleo").register()
    room = await anna.post("/api/rooms", json={"target": 301, "opponent": "computer", "bot_level": "easy"})
    seat = Seat(anna, room["id"], server.ws_url)
    await seat.connect()
    rng = random.Random(5)
    plays = 0
    for _ in range(6):
        if not seat.my_turn():  # the computer's move comes first
            await seat.wait_for(lambda m: m["type"] == "state" and bool(m["view"]["legal"]), timeout=30)
        answer = await seat.intent(seat.choose(rng))
        assert answer["type"] == "state"
        plays += 1
    stale = await seat.intent({"type": "resign", "version": 0})
    assert stale["code"] == "stale_version"
    after = scrape(server)

    def grew(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert grew("thousand_moves_total", kind="play") >= plays * 2 - 1  # Cleo's cards and the computer's
    assert grew("thousand_intent_seconds_count", route="local") >= plays
    assert grew("thousand_commit_seconds_count") >= plays
    assert grew("thousand_bot_decision_seconds_count", level="easy") >= plays - 1
    assert grew("thousand_refusals_total", code="stale_version") >= 1
    assert after[("thousand_sockets_open", ())] >= 1
    assert after[("thousand_rooms_live", ())] >= 1
    await seat.close()


async def test_metrics_are_off_unless_a_setting_turns_them_on(tmp_path: Path) -> None:
    async def status(**settings: Any) -> int:
        app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}", frontend_dir=tmp_path, **settings))
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
            answer = await http.get("/metrics", headers={"Authorization": "Bearer t"})  # no lifespan needed
        return answer.status_code

    assert await status(metrics_token="t") == 404  # METRICS unset: no such page, whatever the caller shows
    assert await status(metrics=True, metrics_token="t") == 200


def test_without_a_token_only_loopback_may_scrape() -> None:
    assert scrape_allowed(None, None, "127.0.0.1") and scrape_allowed(None, None, "::1")
    assert not scrape_allowed(None, None, "203.0.113.9")  # the world, through a proxy that forwards its address
    assert not scrape_allowed(None, None, None)
    assert scrape_allowed("s", "Bearer s", "203.0.113.9")
    assert not scrape_allowed("s", "Bearer t", "127.0.0.1")  # with a token, even loopback must show it


def test_json_lines_carry_ids_and_never_secrets() -> None:
    import logging

    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s" %d', None, None)
    record.args = ("127.0.0.1:5", "GET /ws/rooms/r_1?ticket=abc123&token=tok456 HTTP/1.1", 101)
    line = json.loads(JsonFormatter().format(record))
    assert "abc123" not in line["msg"] and "tok456" not in line["msg"]
    event = logging.LogRecord("backend", logging.INFO, __file__, 1, "socket opened", None, None)
    event.room, event.player = "r_1", "p_1"
    assert json.loads(JsonFormatter().format(event))["room"] == "r_1"
