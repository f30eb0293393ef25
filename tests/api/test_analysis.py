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
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from backend.analysis.model import ANALYSIS_VERSION, Decision, Rating, grade_of
from backend.db.models import Analysis
from backend.db.store import Store
from backend.ops import metrics
from backend.rooms.analysis import rating_seed
from tests.conftest import DATABASES
from tests.support.app_server import AppServer, FakeClock, app_serving
from tests.support.client import Player, Seat
from tests.support.services import ServerProcess, serving
from tests.support.tables import hidden_from, play_some, strings, table, true_game

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


def counted(outcome: str) -> float:
    """``thousand_analyses_total{outcome}`` of this process (the app is served in it)."""
    return metrics.REGISTRY.get_sample_value("thousand_analyses_total", {"outcome": outcome}) or 0.0


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


async def anonymous(base_url: str, method: str, path: str, **params: str) -> httpx.Response:
    """A visitor with no account: no token, no cookie."""
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.request(method, path, params=params)


def refused(answer: httpx.Response, status: int, code: str) -> bool:
    return answer.status_code == status and answer.json()["detail"]["code"] == code


def match_seed(database_url: str, match_id: str) -> int:
    store = Store(database_url)
    try:
        match = store.history.match(match_id)
        assert match is not None
        return int(match.seed)
    finally:
        store.dispose()


def change_row(database_url: str, match_id: str, number: int, **values: Any) -> None:
    """What a process that died, or an older rater, left in the stored row."""
    store = Store(database_url)
    try:
        with store.database.transaction() as session:
            session.execute(
                update(Analysis).where(Analysis.match_id == match_id, Analysis.number == number).values(**values)
            )
    finally:
        store.dispose()


async def test_a_finished_deal_is_analysed_once_and_served_to_everyone_who_may_replay_it(
    serve: Serve, database_url: str
) -> None:
    rater = FakeRater()
    async with serve(rater) as server:
        (anna, ben), match_id = await finished_match(server, 1)
        carl = await Player(server.url, "Carl").register()  # a stranger: the table is public
        path = deal_path(match_id, 0)
        never = {"status": "none", "done": 0, "total": 0, "analysis": None, "message": None}
        assert await anna.player.get(path) == {"match_id": match_id, "number": 0, **never}

        started = await anna.player.request("POST", path)
        assert started.status_code == 202 and started.json()["status"] in ("queued", "running")
        done = await until_done(anna.player, path)
        assert (done["status"], done["done"], done["total"], done["message"]) == ("done", DEAL_PLAYS, DEAL_PLAYS, None)
        analysis = done["analysis"]
        assert (analysis["version"], analysis["seats"]) == (ANALYSIS_VERSION, 2)
        frames = (await anna.player.get(f"/api/matches/{match_id}/deals/0/replay"))["frames"]
        ratings = analysis["ratings"]
        assert [r["step"] for r in ratings] == list(range(1, DEAL_PLAYS + 1))
        for rating in ratings:
            action = frames[rating["step"]]["action"]  # exactly the replay frame's action object
            assert rating["taken"] == rating["best"] == action and rating["seat"] == action["seat"]
            assert rating["given_away"] == _given(rating["seat"], rating["step"])
            assert rating["grade"] == grade_of(rating["given_away"])
            assert (rating["exact"], rating["worlds"], rating["forced"]) == (False, 24, False)
            assert len(rating["taken_scores"]) == len(rating["best_scores"]) == 2
        assert ratings[2]["grade"] == "blunder"  # 30 points; the others 2.5 (unmarked) or 5 (a slip)
        assert {r["grade"] for r in ratings} == {None, "slip", "blunder"}
        assert analysis["given_away"] == [
            sum(r["given_away"] for r in ratings if r["seat"] == seat) for seat in range(2)
        ]
        seed = match_seed(database_url, match_id)  # the seeds: the match's, the deal's number, the step
        assert rater.asked == [(step, rating_seed(seed, 0, step)) for step in range(1, DEAL_PLAYS + 1)]

        again = await ben.player.request("POST", path)  # stored: served, never computed again
        assert again.status_code == 200 and again.json() == done
        assert (await carl.request("POST", path)).json() == done
        seen = await anonymous(server.url, "GET", path)
        assert seen.status_code == 200 and seen.json() == done
        assert len(rater.asked) == DEAL_PLAYS

        assert await carl.get(f"/api/matches/{match_id}/analysis") == {
            "match_id": match_id,
            "seats": 2,
            "deals": [{"number": 0, "status": "done", "given_away": analysis["given_away"]}],
            "given_away": analysis["given_away"],
            "analysed": 1,
            "finished_deals": 1,
        }
        for method in ("POST", "GET"):  # R6.2: the deal the resignation ended was never played out
            assert refused(await anna.player.request(method, deal_path(match_id, 1)), 409, "deal_unfinished")
            assert refused(await anonymous(server.url, method, deal_path(match_id, 1)), 409, "deal_unfinished")
            assert refused(await anna.player.request(method, deal_path(match_id, 2)), 404, "deal_not_found")
        assert len(rater.asked) == DEAL_PLAYS


async def test_a_private_match_is_analysed_for_its_players_and_its_watch_code_only(serve: Serve) -> None:
    rater = FakeRater()
    async with serve(rater) as server:
        (anna, ben), match_id = await finished_match(server, 1, visibility="private")
        code = (await anna.player.post(f"/api/rooms/{anna.room_id}/watch-link"))["code"]
        carl = await Player(server.url, "Carl").register()
        paths = (deal_path(match_id, 0), f"/api/matches/{match_id}/analysis")
        for path in paths:
            for method in ("POST", "GET") if path == paths[0] else ("GET",):
                for answer in (
                    await carl.request(method, path),  # a stranger with an account
                    await anonymous(server.url, method, path),  # one without
                    await anonymous(server.url, method, path, code="0" * len(code)),  # a wrong code
                ):
                    assert refused(answer, 404, "match_not_found"), answer.text
        assert rater.asked == []  # nothing was started for them

        watched = await anonymous(server.url, "POST", paths[0], code=code)  # the watch code opens it
        assert watched.status_code == 202
        done = await until_done(ben.player, paths[0])
        assert done["status"] == "done"
        assert (await anonymous(server.url, "GET", paths[0], code=code)).json() == done
        assert await carl.get(paths[0], params={"code": code}) == done
        assert (await anonymous(server.url, "GET", paths[1], code=code)).json()["analysed"] == 1


@pytest.mark.parametrize("visibility", ["public", "private"])
async def test_nothing_of_a_live_match_goes_through_the_analysis(serve: Serve, visibility: str) -> None:
    """Deal 0 is over and deal 1 is being played: every analysis route answers the player and a
    stranger exactly as the replay does, and no card of the live deal is in any answer."""
    rater = FakeRater()
    async with serve(rater) as server:
        people = await table(server, "twohand", 2, 1001, people=2, visibility=visibility)
        assert await play_some(people, random.Random(7), DEAL_PLAYS + 3) == DEAL_PLAYS + 3
        anna = people[0]
        match_id = anna.state["room"]["match_id"]  # type: ignore[index]
        carl = await Player(server.url, "Carl").register()
        live = true_game(server.database_url, anna.room_id).final
        assert live.deal_number == 1 and not live.deal.over
        askers = (("anna", 0, anna.player.request), ("carl", None, carl.request))
        for _, seat, ask in askers:
            hidden = hidden_from(live, seat)
            for number in (0, 1):
                replay = await ask("GET", f"/api/matches/{match_id}/deals/{number}/replay")
                assert replay.status_code in (404, 409)
                for method in ("POST", "GET"):
                    answer = await ask(method, deal_path(match_id, number))
                    assert (answer.status_code, answer.json()) == (replay.status_code, replay.json())
                    assert not hidden & set(strings(answer.json()))
            whole = await ask("GET", f"/api/matches/{match_id}/replay")
            answer = await ask("GET", f"/api/matches/{match_id}/analysis")
            assert (answer.status_code, answer.json()) == (whole.status_code, whole.json())
        for number in (0, 1):  # and someone with no account at all
            replay = await anonymous(server.url, "GET", f"/api/matches/{match_id}/deals/{number}/replay")
            answer = await anonymous(server.url, "POST", deal_path(match_id, number))
            assert (answer.status_code, answer.json()) == (replay.status_code, replay.json())
        assert rater.asked == []


async def test_progress_one_analysis_at_a_time_per_asker_and_a_queue_per_process(serve: Serve) -> None:
    rater = FakeRater(held=True)
    async with serve(rater, analysis_queue=2) as server:
        (anna, ben), match_id = await finished_match(server, 3)
        carl = await Player(server.url, "Carl").register()
        first, second, third = (deal_path(match_id, number) for number in range(3))
        before = {outcome: counted(outcome) for outcome in ("started", "limited", "queue_full", "done")}
        assert (await anna.player.request("POST", first)).status_code == 202
        await rater.asked_for(1)  # planned: 24 decisions, none rated yet
        assert (await anna.player.get(first))[("status")] == "running"
        rater.allow(2)
        await rater.asked_for(3)  # two rated, their progress stored, the third asked for
        progress = await ben.player.get(first)
        assert (progress["status"], progress["done"], progress["total"], progress["analysis"]) == (
            "running",
            2,
            DEAL_PLAYS,
            None,
        )

        mine = await anna.player.request("POST", second)  # one analysis in flight per asker
        assert refused(mine, 429, "analysis_limit")
        joined = await ben.player.request("POST", first)  # asking for one on its way counts nothing
        assert joined.status_code == 202 and joined.json()["done"] == 2
        queued = await ben.player.request("POST", second)  # ben's own: it waits for the one running
        assert queued.status_code == 202 and queued.json()["status"] == "queued"
        full = await carl.request("POST", third)  # the process has two queued or running
        assert refused(full, 503, "analysis_queue_full") and full.headers["retry-after"] == "30"
        assert len(rater.asked) == 3

        rater.let_go()
        assert (await until_done(anna.player, first))["status"] == "done"
        assert (await until_done(ben.player, second))["status"] == "done"
        assert len(rater.asked) == 2 * DEAL_PLAYS
        assert (await carl.request("POST", third)).status_code == 202  # room again
        assert (await until_done(carl, third))["status"] == "done"
        grown = {outcome: counted(outcome) - before[outcome] for outcome in before}
        assert grown == {"started": 3, "limited": 1, "queue_full": 1, "done": 3}
        assert metrics.REGISTRY.get_sample_value("thousand_analyses_in_flight") == 0


async def test_an_asker_starts_so_many_analyses_an_hour(serve: Serve, clock: FakeClock) -> None:
    rater = FakeRater()
    async with serve(rater, analysis_per_hour=2) as server:
        (anna, _), match_id = await finished_match(server, 3)
        for number in (0, 1):
            assert (await anna.player.request("POST", deal_path(match_id, number))).status_code == 202
            assert (await until_done(anna.player, deal_path(match_id, number)))["status"] == "done"
        over = await anna.player.request("POST", deal_path(match_id, 2))
        assert refused(over, 429, "analysis_limit") and "an hour" in over.json()["detail"]["message"]
        stored = await anna.player.request("POST", deal_path(match_id, 0))  # a stored one is still served
        assert stored.status_code == 200
        visitor = await anonymous(server.url, "POST", deal_path(match_id, 2))  # another asker (an address)
        assert visitor.status_code == 202
        assert (await until_done(anna.player, deal_path(match_id, 2)))["status"] == "done"

        clock.advance(timedelta(minutes=59))
        change_row(server.database_url, match_id, 2, version=ANALYSIS_VERSION - 1)  # to be made again
        assert refused(await anna.player.request("POST", deal_path(match_id, 2)), 429, "analysis_limit")
        clock.advance(timedelta(minutes=1, seconds=1))  # the first of anna's two is an hour old
        assert (await anna.player.request("POST", deal_path(match_id, 2))).status_code == 202


async def test_a_stale_or_outdated_analysis_is_made_again_the_same(serve: Serve, clock: FakeClock) -> None:
    rater = FakeRater()
    async with serve(rater, analysis_stale_s=600) as server:
        (anna, ben), match_id = await finished_match(server, 1)
        path = deal_path(match_id, 0)
        await anna.player.post(path)
        first = await until_done(anna.player, path)
        seeds = list(rater.asked)

        # A process that died while it ran the analysis left the row running.
        change_row(server.database_url, match_id, 0, status="running", done=5, result=None, updated_at=clock.now())
        clock.advance(timedelta(seconds=599))
        running = await ben.player.request("POST", path)  # still on its way elsewhere, for all we know
        assert running.status_code == 202 and running.json()["done"] == 5
        assert len(rater.asked) == DEAL_PLAYS
        clock.advance(timedelta(seconds=2))  # no progress for longer than ANALYSIS_STALE_S: it is gone
        assert (await ben.player.get(path))["status"] == "none"
        assert (await ben.player.request("POST", path)).status_code == 202
        assert await until_done(ben.player, path) == first  # the same seeds: the same analysis
        assert rater.asked == seeds + seeds

        change_row(server.database_url, match_id, 0, version=ANALYSIS_VERSION - 1)  # an older rater's
        assert (await anna.player.get(path))["status"] == "none"
        assert (await anna.player.request("POST", path)).status_code == 202
        assert await until_done(anna.player, path) == first
        assert len(rater.asked) == 3 * DEAL_PLAYS


async def test_a_failing_rater_leaves_the_analysis_failed_with_why(serve: Serve) -> None:
    rater = FakeRater(fail_at=5)
    async with serve(rater) as server:
        (anna, _), match_id = await finished_match(server, 1)
        path = deal_path(match_id, 0)
        await anna.player.post(path)
        failed = await until_done(anna.player, path)
        assert (failed["status"], failed["done"], failed["total"], failed["analysis"]) == (
            "failed",
            4,
            DEAL_PLAYS,
            None,
        )
        assert failed["message"] == "the analysis failed: RuntimeError: no world agrees with the cards seen"
        summary = await anna.player.get(f"/api/matches/{match_id}/analysis")
        assert summary["deals"] == [{"number": 0, "status": "failed", "given_away": None}]
        assert (summary["analysed"], summary["given_away"]) == (0, [0.0, 0.0])

        rater.fail_at = None  # asked again, it is made again
        assert (await anna.player.request("POST", path)).status_code == 202
        assert (await until_done(anna.player, path))["status"] == "done"


async def test_the_match_sums_the_points_given_away_per_seat_over_the_analysed_deals(serve: Serve) -> None:
    rater = FakeRater()
    async with serve(rater) as server:
        (anna, ben), match_id = await finished_match(server, 3)
        given = {}
        for number, who in ((0, anna), (2, ben)):
            await who.player.post(deal_path(match_id, number))
            given[number] = (await until_done(who.player, deal_path(match_id, number)))["analysis"]["given_away"]
        replays = [await anna.player.get(f"/api/matches/{match_id}/deals/{n}/replay") for n in (0, 2)]
        for number, replay in zip((0, 2), replays, strict=True):  # the fake's figures, step by step
            actions = [frame["action"] for frame in replay["frames"][1:]]
            expected = [sum(_given(s, step) for step, a in enumerate(actions, 1) if a["seat"] == s) for s in (0, 1)]
            assert given[number] == expected
        summary = await ben.player.get(f"/api/matches/{match_id}/analysis")
        assert summary == {
            "match_id": match_id,
            "seats": 2,
            "deals": [
                {"number": 0, "status": "done", "given_away": given[0]},
                {"number": 1, "status": "none", "given_away": None},
                {"number": 2, "status": "done", "given_away": given[2]},
            ],
            "given_away": [given[0][seat] + given[2][seat] for seat in (0, 1)],
            "analysed": 2,
            "finished_deals": 3,
        }


# ---------------------------------------------------------------- the real rater, in the bot pool


@pytest.fixture(scope="module", params=DATABASES)
def computer_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server process whose computer plays at once (the analyses' pool is the computer's)."""
    with serving(request.param, tmp_path_factory.mktemp(request.param), BOT_DELAY_S="0") as process:
        yield process


async def test_a_deal_against_the_computer_is_analysed_in_the_bot_pool(computer_server: ServerProcess) -> None:
    """End to end with the real rater: a deal lost to the computer, analysed from what each seat knew."""
    (anna,) = await table(computer_server, "twohand", 2, 1001, people=1)  # private: the computer's table
    assert await play_some([anna], random.Random(11), 13) == 13  # anna's 12 cards of deal 0, one of deal 1
    resigned = await anna.resign()
    match_id = resigned["room"]["match_id"]
    path = deal_path(match_id, 0)
    started = await anna.player.request("POST", path)
    assert started.status_code in (200, 202)
    done = await until_done(anna.player, path)
    assert (done["status"], done["done"], done["total"]) == ("done", DEAL_PLAYS, DEAL_PLAYS), done
    analysis = done["analysis"]
    frames = (await anna.player.get(f"/api/matches/{match_id}/deals/0/replay"))["frames"]
    assert [r["taken"] for r in analysis["ratings"]] == [frame["action"] for frame in frames[1:]]
    for rating in analysis["ratings"]:
        assert rating["given_away"] >= 0 and rating["worlds"] >= (0 if rating["forced"] else 1)
        assert rating["grade"] == (None if rating["forced"] else grade_of(rating["given_away"]))
        assert rating["best"]["seat"] == rating["seat"] and rating["best"]["kind"] == rating["taken"]["kind"]
    assert analysis["ratings"][-1]["forced"]  # the last card of a deal is nobody's choice
    assert any(r["exact"] for r in analysis["ratings"])  # R4 phase 2: the solver's exact values
    assert analysis["given_away"] == pytest.approx(
        [sum(r["given_away"] for r in analysis["ratings"] if r["seat"] == seat) for seat in range(2)]
    )
    again = await anna.player.request("POST", path)
    assert again.status_code == 200 and again.json() == done  # stored: the same body, not made again
    assert refused(await anna.player.request("POST", deal_path(match_id, 1)), 409, "deal_unfinished")


async def test_v0_6_a_deal_of_three_against_the_computer_is_analysed_bids_and_cards(
    computer_server: ServerProcess,
) -> None:
    """V7 for three (V0.6 auction, V0.7 talon and discard): every call, the discard and every card rated."""
    (anna,) = await table(computer_server, "bidding", 3, 1001, people=1)
    rng = random.Random(3)
    while not anna.view["history"]:  # until deal 0 is over
        assert await play_some([anna], rng, 1) == 1
    match_id = (await anna.resign())["room"]["match_id"]
    path = deal_path(match_id, 0)
    assert (await anna.player.request("POST", path)).status_code in (200, 202)
    done = await until_done(anna.player, path)
    frames = (await anna.player.get(f"/api/matches/{match_id}/deals/0/replay"))["frames"]
    assert (done["status"], done["done"], done["total"]) == ("done", len(frames) - 1, len(frames) - 1), done
    analysis = done["analysis"]
    assert analysis["seats"] == 3 and len(analysis["given_away"]) == 3
    assert [r["taken"] for r in analysis["ratings"]] == [frame["action"] for frame in frames[1:]]
    kinds = {r["taken"]["kind"] for r in analysis["ratings"]}
    assert "pass" in kinds and (frames[-1]["thrown_in"] or {"discard", "play"} <= kinds)
    for rating in analysis["ratings"]:
        assert len(rating["taken_scores"]) == len(rating["best_scores"]) == 3
        assert rating["grade"] == (None if rating["forced"] else grade_of(rating["given_away"]))
