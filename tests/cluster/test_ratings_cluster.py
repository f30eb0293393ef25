"""Ratings with several processes sharing PostgreSQL and Redis (issue 27): each match's change is
applied in the transaction that stores the finished match, by whichever process owns the room, so
a person's ratings chain across processes, two matches finishing at once on two processes both
count, and the rebuild from the stored matches equals the figures the processes stored."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from backend.db.store import Store
from tests.cluster.test_cluster import Cluster, running_cluster
from tests.support.client import Player, Seat
from tests.support.services import ServerProcess

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]
MODEL = PlackettLuce()


@pytest.fixture
def group(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path, processes=2) as cluster:
        yield cluster


async def two_hand(creator: tuple[Player, ServerProcess], joiner: tuple[Player, ServerProcess]) -> list[Seat]:
    """A two-hand table made on the creator's process, joined and played through the joiner's."""
    (anna, near), (ben, far) = creator, joiner
    room = await anna.post("/api/rooms", json={"target": 1001})
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    seats = [Seat(anna, room["id"], near.ws_url), Seat(ben, room["id"], far.ws_url)]
    for seat in seats:
        await seat.connect()
    for seat in seats:
        if seat.state is None or seat.state["view"] is None:
            await seat.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    return seats


async def resigned(seats: list[Seat], leaver: int) -> dict[str, Any]:
    answer = await seats[leaver].resign()
    assert answer["type"] == "state" and answer["view"]["end_reason"] == "resign", answer
    match_id = answer["room"]["match_id"]
    for seat in seats:
        await seat.close()
    detail: dict[str, Any] = await seats[1 - leaver].player.get(f"/api/matches/{match_id}")
    return detail


def after(detail: dict[str, Any], seat: int) -> tuple[float, float]:
    change = detail["rating_changes"][seat]
    return change["mu"], change["sigma"]


async def test_ratings_chain_across_processes_and_the_rebuild_equals_them(group: Cluster) -> None:
    first, second = group.servers
    anna, dan = [await Player(first.url, who).register() for who in ("Anna", "Dan")]
    ben, cleo = [await Player(second.url, who).register() for who in ("Ben", "Cleo")]
    # Two matches owned by two processes, finishing at the same moment.
    one = await two_hand((anna, first), (ben, second))
    two = await two_hand((cleo, second), (dan, first))
    first_match, second_match = await asyncio.gather(resigned(one, 1), resigned(two, 1))
    # Anna (the winner of the first) against Cleo (of the second), at a table of Cleo's process.
    third = await resigned(await two_hand((cleo, second), (anna, first)), 1)
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in (after(second_match, 0), after(first_match, 0))]
    expected = [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=[1, 2])]
    assert [after(third, 0), after(third, 1)] == expected
    seen_far = await ben.get(f"/api/players/{anna.id}/ratings")  # the other process reads the same
    assert [(r["kind"], r["matches"], r["mu"]) for r in seen_far["ratings"]] == [("twohand24", 2, expected[1][0])]
    store = Store(first.database_url)
    try:
        report = store.ratings.rebuild()
    finally:
        store.dispose()
    assert report.matches == 3 and report.ratings == 4 and report.differences == []
