"""The computer analysis of a finished deal (issue 26) over HTTP, on SQLite and PostgreSQL: computed
once in the bot pool and stored, served to everyone who may replay the match and to nobody else, never
for a deal that was not played to the end, limited per asker and per process.

The analysis of a match against the computer runs end to end with the real rater in a server process.
The other tests serve the app in the test's own event loop (``tests/support/app_server.py``), with a
fake rater the test holds back, lets go or makes fail, and a clock it moves: no test waits for a timer.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from backend.analysis.model import Decision, Rating
from tests.support.app_server import AppServer, FakeClock, app_serving
from tests.support.client import Player, Seat
from tests.support.services import ServerProcess
from tests.support.tables import play_some, table

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
DEAL_PLAYS = 24  # two-hand 1001: every deal is 24 plays (R4), no auction


class FakeRater:
    """A ``Rater`` (``backend.rooms.ports``) that searches nothing: the action taken is the best one and
    each decision gives away ``2.5 × (seat + 1)`` points (the third 30: a blunder). Held back, each
    rating waits for a permit (``allow``); ``fail_at`` makes the rating of that step raise."""

    def __init__(self, *, held: bool = False, fail_at: int | None = None) -> None:
        self.held = held
        self.fail_at = fail_at
        self.asked: list[tuple[int, int]] = []  # (step, seed) of every rating asked for, in order
        self._permits = asyncio.Semaphore(0)
        self._changed = asyncio.Condition()

    def allow(self, count: int = 1) -> None:
        for _ in range(count):
            self._permits.release()

    def let_go(self) -> None:
        self.held = False
        self.allow(10_000)

    async def asked_for(self, count: int) -> None:
        """Until ``count`` ratings were asked for: then ``count - 1`` are done and their progress stored."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: len(self.asked) >= count), 10)

    async def __call__(self, decision: Decision, seed: int) -> Rating:
        async with self._changed:
            self.asked.append((decision.step, seed))
            self._changed.notify_all()
        if self.held:
            await self._permits.acquire()
        if decision.step == self.fail_at:
            raise RuntimeError("no world agrees with the cards seen")
        given = 30.0 if decision.step == 3 else 2.5 * (decision.seat + 1)
        n = decision.state.n
        taken = tuple(-given if seat == decision.seat else 0.0 for seat in range(n))
        best = (0.0,) * n
        action = decision.action
        return Rating(decision.step, decision.seat, action, action, taken, best, given, False, 24, False)


def _given(seat: int, step: int) -> float:
    return 30.0 if step == 3 else 2.5 * (seat + 1)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


Serve = Any  # (rater, **settings) -> an async context manager of the served app


@pytest.fixture
def serve(database_url: str, tmp_path: Path, clock: FakeClock) -> Serve:
    """The app on the test's database (SQLite, PostgreSQL) with the fake clock and the given rater."""

    def start(rater: FakeRater, **settings: object) -> Any:
        return app_serving(database_url, tmp_path, clock=clock, rater=rater, match_seed=2026, **settings)

    return start


def deal_path(match_id: str, number: int) -> str:
    return f"/api/matches/{match_id}/deals/{number}/analysis"


async def finished_match(server: AppServer | ServerProcess, deals: int, **options: Any) -> tuple[list[Seat], str]:
    """Two people play ``deals`` whole deals of two-hand 1001 to 1001 and one card of the next, then
    the first resigns (R6.2): ``deals`` finished deals and the one the resignation ended."""
    people = await table(server, "twohand", 2, 1001, people=2, **options)
    assert await play_some(people, random.Random(deals), DEAL_PLAYS * deals + 1) == DEAL_PLAYS * deals + 1
    resigned = await people[0].resign()
    assert resigned["view"]["end_reason"] == "resign"
    return people, resigned["room"]["match_id"]


async def until_done(player: Player, path: str, **params: str) -> dict[str, Any]:
    """The deal's analysis once it is no longer queued or running (the job is real work, not a timer)."""

    async def poll() -> dict[str, Any]:
        while True:
            body: dict[str, Any] = await player.get(path, params=params)
            if body["status"] not in ("queued", "running"):
                return body
            await asyncio.sleep(0.02)

    return await asyncio.wait_for(poll(), 120)


async def test_a_finished_deal_is_analysed_once_and_stored(serve: Serve) -> None:
    rater = FakeRater()
    async with serve(rater) as server:
        (anna, ben), match_id = await finished_match(server, 1)
        path = deal_path(match_id, 0)
        never = {"status": "none", "done": 0, "total": 0, "analysis": None, "message": None}
        assert await anna.player.get(path) == {"match_id": match_id, "number": 0, **never}
        started = await anna.player.request("POST", path)
        assert started.status_code == 202 and started.json()["status"] in ("queued", "running")
        done = await until_done(anna.player, path)
        assert done["status"] == "done" and done["done"] == done["total"] == DEAL_PLAYS
        again = await ben.player.request("POST", path)
        assert again.status_code == 200 and again.json() == done
        assert len(rater.asked) == DEAL_PLAYS  # computed once
