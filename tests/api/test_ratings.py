"""Ratings through the real server on SQLite and PostgreSQL (issue 27): a finished match between
people changes each player's rating in its game kind, exactly as openskill's Plackett–Luce model
computes it from the stored places (R6.2 / V0.10a: the resigner last, the others by their totals);
unrated tables and tables with a computer change nothing; the admin rebuild equals the incremental
figures."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import text

from backend.db.store import Store
from backend.ratings import displayed
from backend.ratings.skill import Skill
from backend.settings import ROOT
from tests.support.client import Seat
from tests.support.services import ServerProcess
from tests.support.tables import TWO_HAND, play_some, table

MODEL = PlackettLuce()


def expected(places: list[int], before: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """openskill itself, for the same places and ratings before."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=places)]


async def finish_by_resigning(seats: list[Seat], leaver: int) -> dict[str, Any]:
    """``leaver`` resigns (R6.2, V0.10a); every seat hears that the match is over; its detail."""
    answer = await seats[leaver].resign()
    assert answer["type"] == "state" and answer["view"]["end_reason"] == "resign", answer
    for seat in seats:
        if seat.view["end_reason"] is None:
            await seat.wait_for(lambda m: m["type"] == "state" and m["view"]["end_reason"] is not None)
    match_id = seats[0].state["room"]["match_id"]
    for seat in seats:
        await seat.close()
    detail: dict[str, Any] = await seats[0].player.get(f"/api/matches/{match_id}")
    return detail


async def ratings_of(seat: Seat, player_id: str) -> dict[str, dict[str, Any]]:
    found = await seat.player.get(f"/api/players/{player_id}/ratings")
    assert found["player_id"] == player_id
    return {entry["kind"]: entry for entry in found["ratings"]}


def assert_changes(detail: dict[str, Any], kind: str, before: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The match's changes are openskill's for its stored places, from ``before``; the new ratings."""
    places = detail["places"]
    after = expected(places, before)
    changes = detail["rating_changes"]
    assert len(changes) == len(places)
    for seat, (change, old, new) in enumerate(zip(changes, before, after, strict=True)):
        assert change is not None
        assert change["seat"] == seat and change["player_id"] == detail["players"][seat]["id"]
        assert change["kind"] == kind
        assert (change["mu"], change["sigma"]) == new
        assert change["before"] == displayed(Skill(*old)) and change["after"] == displayed(Skill(*new))
        assert change["change"] == change["after"] - change["before"]
    return after


NEW = (MODEL.mu, MODEL.sigma)


async def test_two_hand_matches_rate_both_players_per_pack_as_openskill_does(shared_server: ServerProcess) -> None:
    seats = await table(shared_server, TWO_HAND, 2, 1001, people=2)
    anna, ben = (seat.player.id for seat in seats)
    first = await finish_by_resigning(seats, leaver=1)
    assert first["places"] == [1, 2]  # R6.2: the resigner loses
    after = assert_changes(first, "twohand24", [NEW, NEW])
    assert first["rating_changes"][0]["change"] > 0 > first["rating_changes"][1]["change"]
    for player_id, (mu, sigma) in zip((anna, ben), after, strict=True):
        mine = await ratings_of(seats[0], player_id)
        assert list(mine) == ["twohand24"]
        assert (mine["twohand24"]["mu"], mine["twohand24"]["sigma"], mine["twohand24"]["matches"]) == (mu, sigma, 1)
        assert mine["twohand24"]["rating"] == displayed(Skill(mu, sigma))

    # The same two again, Ben winning this time: the change starts from the first match's ratings.
    rematch = await _same_people(shared_server, seats, {"target": 1001})
    second = await finish_by_resigning(rematch, leaver=0)
    assert second["places"] == [2, 1]
    after = assert_changes(second, "twohand24", after)
    assert (await ratings_of(seats[0], anna))["twohand24"]["matches"] == 2

    # V1's 32 cards are a kind of their own: it starts from a newcomer's rating.
    v1 = await _same_people(shared_server, seats, {"target": 1001, "deck_size": 32})
    third = await finish_by_resigning(v1, leaver=1)
    assert_changes(third, "twohand32", [NEW, NEW])
    assert set(await ratings_of(seats[1], ben)) == {"twohand24", "twohand32"}


async def _close_all(seats: list[Seat]) -> None:
    for seat in seats:
        await seat.close()


async def _same_people(server: ServerProcess, seats: list[Seat], body: dict[str, Any]) -> list[Seat]:
    """A new table of the players of ``seats``, in the same seat order, every one connected."""
    players = [seat.player for seat in seats]
    room = await players[0].post("/api/rooms", json=body)
    for player in players[1:]:
        await player.post(f"/api/invites/{room['invite_code']}/join")
    out = [Seat(player, room["id"], server.ws_url) for player in players]
    for seat in out:
        await seat.connect()
    for seat in out:
        if seat.state is None or seat.state["view"] is None:
            await seat.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    return out


async def test_r6_2_v0_10a_a_resigned_match_of_three_rates_the_resigner_last_and_the_others_tied_first(
    shared_server: ServerProcess,
) -> None:
    seats = await table(shared_server, "mcleod", 3, 301, people=3)
    await play_some(seats, random.Random(27), 40)  # a deal or so, so that the totals differ
    detail = await finish_by_resigning(seats, leaver=2)
    assert detail["status"] == "finished" and detail["places"] == [1, 1, 3]  # whatever the totals
    assert_changes(detail, "mcleod", [NEW, NEW, NEW])
    changes = detail["rating_changes"]
    assert changes[2]["change"] < 0 < changes[0]["change"]
    assert changes[0]["change"] == changes[1]["change"]  # newcomers tied first move alike


async def test_v7_for_four_is_rated_apart_from_v7_for_three(shared_server: ServerProcess) -> None:
    seats = await table(shared_server, "bidding", 4, 301, people=4)
    detail = await finish_by_resigning(seats, leaver=0)
    assert detail["places"][0] == 4
    assert_changes(detail, "bidding4", [NEW] * 4)
    assert list(await ratings_of(seats[1], seats[1].player.id)) == ["bidding4"]


async def test_an_unrated_table_and_a_table_with_a_computer_change_nothing(shared_server: ServerProcess) -> None:
    unrated = await table(shared_server, TWO_HAND, 2, 1001, people=2, rated=False)
    assert unrated[0].state["room"]["options"]["rated"] is False  # round-trips in room.options
    detail = await finish_by_resigning(unrated, leaver=1)
    assert detail["options"]["rated"] is False and detail["rating_changes"] == [None, None]
    for seat in unrated:
        assert await ratings_of(seat, seat.player.id) == {}

    computer = await table(shared_server, "mcleod", 3, 301, people=2)  # one computer seat
    detail = await finish_by_resigning(computer, leaver=0)
    assert detail["options"]["rated"] is True and detail["rating_changes"] == [None, None, None]
    assert await ratings_of(computer[1], computer[1].player.id) == {}


async def test_a_players_ratings_of_nobody_are_not_found(shared_server: ServerProcess) -> None:
    seats = await table(shared_server, TWO_HAND, 2, 1001, people=2)
    answer = await seats[0].player.request("GET", "/api/players/p_nobody/ratings")
    assert answer.status_code == 404 and answer.json()["detail"]["code"] == "player_not_found"
    await _close_all(seats)


def admin(server: ServerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "backend.admin", "--database-url", server.database_url, "ratings", "--rebuild"]
    return subprocess.run([*command, *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)


async def test_the_rebuild_equals_the_incremental_ratings(shared_server: ServerProcess) -> None:
    """After every match of this module: the admin rebuild finds the stored ratings equal; a
    tampered rating is found, and ``--write`` puts the rebuilt one back."""
    await finish_by_resigning(await table(shared_server, "thousand3", 3, 301, people=3), leaver=1)
    done = admin(shared_server)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the stored ratings equal the rebuilt ones" in done.stdout
    store = Store(shared_server.database_url)
    try:
        report = store.ratings.rebuild()
        assert report.differences == [] and report.matches >= 1 and report.ratings >= 3
        with store.engine.begin() as connection:
            row = connection.execute(text("SELECT player_id, kind FROM ratings ORDER BY player_id LIMIT 1")).one()
            connection.execute(
                text("UPDATE ratings SET mu = mu + 1 WHERE player_id = :p AND kind = :k"),
                {"p": row.player_id, "k": row.kind},
            )
        tampered = admin(shared_server)
        assert tampered.returncode == 1 and f"differs: {row.player_id} {row.kind}" in tampered.stdout
        written = admin(shared_server, "--write")
        assert written.returncode == 0, written.stdout + written.stderr
        assert store.ratings.rebuild().differences == []
    finally:
        store.dispose()
