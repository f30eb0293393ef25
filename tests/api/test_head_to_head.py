"""``GET /api/head-to-head`` on SQLite and PostgreSQL: every figure against matches with known answers.

The players sign up through the real server; their finished matches are written into its database
(``tests.support.match_rows``), so that each figure has an answer worked out by hand below. One more
match is played through the server's sockets — a staked two-hand match that Ben resigns (R6.2) — so
that a match the server wrote itself counts as the written ones do. Matches with a computer seat are
kept apart, never in people's figures; a group counts only the matches every member sat at.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from backend.db.engine import make_engine
from backend.db.group_series import group_series
from backend.db.head_to_head import recount
from backend.db.store import Store
from tests.support.client import Player, Seat
from tests.support.match_rows import DealRow, MatchRows, Owed, add_player, add_room, write_matches
from tests.support.services import ServerProcess, serving

DAY = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)
V7 = {"variant": "bidding", "seats": 3, "target": 301}


def day(n: int) -> datetime:
    return DAY + timedelta(days=n)


class World:
    """The server, four people (Anna, Ben, Cleo, Dan) with their tokens and two computer players."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.people: dict[str, Player] = {}

    def ask(self, who: str, players: list[str], path: str = "/api/head-to-head", **params: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.people[who].token}"} if who else {}
        query = {"players": ",".join(players), **params}
        return httpx.get(f"{self.server.url}{path}", params=query, headers=headers, timeout=10)

    def figures(self, who: str, players: list[str], **params: Any) -> dict[str, Any]:
        answer = self.ask(who, players, **params)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def series(self, who: str, players: list[str]) -> dict[str, Any]:
        answer = self.ask(who, players, SERIES)
        assert answer.status_code == 200, answer.text
        return answer.json()


SERIES = "/api/head-to-head/series"


def matches_of(a: str, b: str, c: str, bot: str, bot2: str, dan: str) -> list[MatchRows]:
    """Anna (a), Ben (b), Cleo (c): the matches whose figures the tests below know."""
    return [
        # 1. two-hand, Anna 1001 – Ben 800: Anna wins by 201; Ben owes 201 × 0.01 EUR.
        MatchRows(
            [a, b],
            [1, 2],
            day(1),
            deals=[DealRow([500, 400], [100, 0]), DealRow([501, 400], [0, 60])],
            declared=[0, 1, 1],
            owed=[Owed(loser=1, winner=0, points_short=201)],
        ),
        # 2. two-hand, Ben at seat 0: Ben 1010 – Anna 950, Ben by 60; Anna owes 51 × 0.01.
        MatchRows(
            [b, a],
            [1, 2],
            day(2),
            deals=[DealRow([600, 500], [60, 40]), DealRow([410, 450])],
            declared=[0, 1],
            owed=[Owed(loser=1, winner=0, points_short=51)],
        ),
        # 3. two-hand, Anna resigns at 400 – 300 (R6.2): Ben first by −100; Anna owes 601 × 0.01.
        MatchRows(
            [a, b],
            [2, 1],
            day(3),
            deals=[DealRow([400, 300])],
            declared=[0],
            owed=[Owed(loser=0, winner=1, points_short=601)],
            end_reason="resign",
        ),
        # 4. V1 (32 cards): Anna 1001 – Ben 500; Ben owes 501 chips.
        MatchRows(
            [a, b],
            [1, 2],
            day(4),
            options={"deck_size": 32},
            deals=[DealRow([1001, 500])],
            owed=[Owed(loser=1, winner=0, points_short=501, stake="1", currency="chips")],
        ),
        # 5. V7 for three: Cleo 330, Anna 310, Ben −70. Anna's contract made, Ben's not, Cleo's made.
        MatchRows(
            [a, b, c],
            [2, 3, 1],
            day(5),
            options=V7,
            deals=[
                DealRow([120, 30, 20], declarer=0, contract=100, made=True),
                DealRow([40, -100, 60], declarer=1, contract=100, made=False),
                DealRow([150, 0, 250], declarer=2, contract=120, made=True),
            ],
            owed=[Owed(loser=1, winner=2, points_short=371)],
        ),
        # 6. Anna against the computer alone: nobody's pair.
        MatchRows([a, bot], [1, 2], day(6), deals=[DealRow([1001, 0])]),
        # 7. V2 with a computer: Ben wins (apart, with computers).
        MatchRows([a, b, bot], [3, 1, 2], day(7), options={"variant": "mcleod"}, deals=[DealRow([50, 400, 200])]),
        # 8. V7 for four with two computers: Anna wins by 970.
        MatchRows(
            [a, bot, b, bot2],
            [1, 4, 3, 2],
            day(8),
            options={"variant": "bidding", "seats": 4},
            deals=[DealRow([1001, 10, 20, 31])],
        ),
        # 9. Anna – Dan, and 10. Anna – Ben still being played: in no figure of Anna and Ben.
        MatchRows([a, dan], [1, 2], day(9), deals=[DealRow([1001, 0])], owed=[Owed(1, 0, 1001)]),
        MatchRows([a, b], [1, 2], day(10), deals=[DealRow([30, 0])], status="playing"),
    ]


async def resigned_by_ben(world: World) -> None:
    """A real match (day 11): Anna and Ben at a staked two-hand table; Ben resigns at once (R6.2)."""
    anna, ben = world.people["Anna"], world.people["Ben"]
    room = await anna.post("/api/rooms", json={"stake_per_point": "0.01", "currency": "EUR", "visibility": "private"})
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    seat = Seat(ben, room["id"], world.server.ws_url)
    await seat.connect()
    await seat.resign()
    await seat.close()
    played = (await anna.get("/api/matches", params={"limit": 1}))["items"][0]  # the newest
    assert played["status"] == "finished" and played["result"] == "won"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    folder: Path = tmp_path_factory.mktemp(f"h2h_{request.param}")
    with serving(request.param, folder) as server:
        found = World(server)

        async def sign_up() -> None:
            for name in ("Anna", "Ben", "Cleo", "Dan"):
                found.people[name] = await Player(server.url, name).register()

        asyncio.run(sign_up())
        engine = make_engine(server.database_url)
        with engine.begin() as connection:  # the matches of November, then the real one today
            bot, bot2 = add_player(connection, "Computer", "medium"), add_player(connection, "Computer 2", "medium")
            found.bots = [bot, bot2]  # type: ignore[attr-defined]
            ids = [found.people[n].id for n in ("Anna", "Ben", "Cleo")]
            write_matches(connection, add_room(connection), matches_of(*ids, bot, bot2, found.people["Dan"].id))
        engine.dispose()
        asyncio.run(resigned_by_ben(found))
        yield found
        assert server.errors() == []


def ids(world: World, *names: str) -> list[str]:
    return [world.people[n].id for n in names]


def kinds(block: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k["kind"]: k for k in block["kinds"]}


def member(kind: dict[str, Any], player_id: str) -> dict[str, Any]:
    [found] = [m for m in kind["members"] if m["player_id"] == player_id]
    return found


def test_a_pair_has_every_figure_per_game_kind(world: World) -> None:
    a, b = ids(world, "Anna", "Ben")
    got = world.figures("Anna", [a, b])
    assert [p["name"] for p in got["players"]] == ["Anna", "Ben"]
    people = kinds(got["people"])
    assert list(people) == ["twohand24", "twohand32", "bidding3"]  # in RATING_KINDS order
    assert got["people"]["matches"] == 6  # 1–5 and the real one; not 6–10
    two = people["twohand24"]
    assert two["matches"] == 4 and [m["player_id"] for m in two["members"]] == [a, b]
    anna, ben = member(two, a), member(two, b)
    # Matches 1–3 and the real one (day 11, Ben resigned: Anna first, R6.2).
    assert (anna["won"], anna["lost"], ben["won"], ben["lost"]) == (2, 2, 2, 2)
    # Deals: 2 + 2 + 1 written; the real match was resigned in its first deal (none stored).
    assert anna["deals"] == ben["deals"] == 5
    assert anna["points"] == 500 + 501 + 500 + 450 + 400 and anna["average_points"] == 470.2
    assert ben["points"] == 400 + 400 + 600 + 410 + 300 and ben["average_points"] == 422.0
    assert (anna["marriages"], anna["marriage_points"]) == (3, 140)  # one each in 1, 2 and the cut deal of 3
    assert (ben["marriages"], ben["marriage_points"]) == (3, 120)
    assert anna["contracts"] == anna["contracts_made"] == 0
    assert anna["biggest_win"]["margin"] == 201 and anna["biggest_win"]["total"] == 1001
    assert ben["biggest_win"]["margin"] == 60 and ben["biggest_win"]["total"] == 1010  # 60 beats −100 (match 3)
    assert (anna["streak"], ben["streak"]) == (1, -1)  # the real match: Anna won the latest


def test_other_kinds_contracts_and_streaks(world: World) -> None:
    a, b = ids(world, "Anna", "Ben")
    people = kinds(world.figures("Anna", [a, b])["people"])
    v1 = people["twohand32"]
    assert member(v1, a)["biggest_win"]["margin"] == 501 and member(v1, b)["biggest_win"] is None
    assert (member(v1, a)["streak"], member(v1, b)["streak"]) == (1, -1)
    v7 = people["bidding3"]
    anna, ben = member(v7, a), member(v7, b)
    assert (anna["won"], anna["lost"], ben["won"], ben["lost"]) == (0, 1, 0, 1)  # Cleo won
    assert (anna["contracts"], anna["contracts_made"], ben["contracts"], ben["contracts_made"]) == (1, 1, 1, 0)
    assert anna["deals"] == 3 and anna["points"] == 310 and anna["average_points"] == 103.3
    assert ben["points"] == -70 and ben["average_points"] == -23.3
    assert anna["streak"] == ben["streak"] == -1


def test_a_pair_s_streak_runs_over_the_latest_matches(world: World) -> None:
    """Before the real match Ben had won 2 and 3 (+2); the real one (Anna's) breaks it: checked above.
    Here Ben's side: the group of Ben first orders members as asked."""
    a, b = ids(world, "Anna", "Ben")
    two = kinds(world.figures("Ben", [b, a])["people"])["twohand24"]
    assert [m["player_id"] for m in two["members"]] == [b, a]


def test_the_money_between_them_nets_each_currency(world: World) -> None:
    a, b = ids(world, "Anna", "Ben")
    money = world.figures("Anna", [a, b])["money"]
    # EUR: Ben owed 2.01 (1); Anna owed 0.51 + 6.01 (2, 3); the real match: Ben resigned at 0, so he
    # owes 1001 × 0.01 = 10.01 — net Ben owes Anna 10.01 + 2.01 − 6.52 = 5.50. Chips: Ben owes 501.
    assert money == [
        {"debtor_id": b, "creditor_id": a, "currency": "EUR", "amount": "5.50"},
        {"debtor_id": b, "creditor_id": a, "currency": "chips", "amount": "501"},
    ]


def test_a_table_of_three_counts_the_matches_all_three_sat_at(world: World) -> None:
    a, b, c = ids(world, "Anna", "Ben", "Cleo")
    got = world.figures("Cleo", [a, b, c])
    assert got["people"]["matches"] == 1 and list(kinds(got["people"])) == ["bidding3"]
    v7 = kinds(got["people"])["bidding3"]
    cleo = member(v7, c)
    assert (cleo["won"], cleo["streak"], cleo["contracts_made"], cleo["points"]) == (1, 1, 1, 330)
    assert cleo["biggest_win"]["margin"] == 20  # 330 against Anna's 310
    assert got["money"] == [{"debtor_id": b, "creditor_id": c, "currency": "EUR", "amount": "3.71"}]
    assert got["computers"] == {"matches": 0, "kinds": []}
    [line] = got["matches"]["items"]
    assert line["kind"] == "bidding3" and line["target"] == 301 and line["winners"] == [c]
    assert [p["total"] for p in line["players"]] == [310, -70, 330]


def test_matches_with_a_computer_are_apart(world: World) -> None:
    a, b = ids(world, "Anna", "Ben")
    got = world.figures("Anna", [a, b])
    computers = kinds(got["computers"])
    assert got["computers"]["matches"] == 2 and list(computers) == ["mcleod", "bidding4"]
    assert member(computers["mcleod"], b)["won"] == 1 and member(computers["mcleod"], b)["biggest_win"]["margin"] == 200
    assert member(computers["bidding4"], a)["biggest_win"]["margin"] == 970
    # … and in no people's figure: Anna's V7 record among people is match 5 alone.
    assert kinds(got["people"])["bidding3"]["matches"] == 1
    listed = world.figures("Anna", [a, b], computers="true")["matches"]
    assert listed["computers"] is True and listed["total"] == 2
    assert [m["kind"] for m in listed["items"]] == ["bidding4", "mcleod"]
    assert all(m["computers"] for m in listed["items"])
    bots = [p for p in listed["items"][0]["players"] if p["bot_level"]]
    assert len(bots) == 2


def test_the_matches_are_paged_newest_first(world: World) -> None:
    a, b = ids(world, "Anna", "Ben")
    first = world.figures("Anna", [a, b], limit=2)["matches"]
    assert (first["total"], first["limit"], first["offset"], len(first["items"])) == (6, 2, 0, 2)
    rest = world.figures("Anna", [a, b], limit=2, offset=2)["matches"]["items"]
    last = world.figures("Anna", [a, b], limit=2, offset=4)["matches"]["items"]
    every = first["items"] + rest + last
    dates = [m["finished_at"] for m in every]
    assert dates == sorted(dates, reverse=True) and len({m["id"] for m in every}) == 6
    assert [m["kind"] for m in every[1:]] == ["bidding3", "twohand32", "twohand24", "twohand24", "twohand24"]
    real = every[0]  # the resigned one, written by the server
    assert real["kind"] == "twohand24" and real["end_reason"] == "resign" and real["winners"] == [a]
    assert every[3]["winners"] == [b] and every[4]["winners"] == [b] and every[5]["winners"] == [a]
    assert every[5]["players"][0] | {"name": "x"} == {
        "seat": 0, "id": a, "name": "x", "bot_level": None, "total": 1001, "place": 1,
    }  # fmt: skip
    assert world.figures("Anna", [a, b], offset=100)["matches"]["items"] == []


@pytest.mark.parametrize("path", ["/api/head-to-head", SERIES])
def test_who_may_ask(world: World, path: str) -> None:
    """The figures and the chart's series answer the same people (one check, ``asked_group``)."""
    a, b, c = ids(world, "Anna", "Ben", "Cleo")
    refused = world.ask("Cleo", [a, b], path)  # not one of the group: nothing about them is told
    assert refused.status_code == 403 and refused.json()["detail"]["code"] == "not_in_group"
    stranger = world.ask("Cleo", [a, "p_nobody"], path)  # refused before any id is looked up
    assert stranger.status_code == 403 and stranger.json()["detail"]["code"] == "not_in_group"
    assert world.ask("", [a, b], path).status_code == 401
    unknown = world.ask("Anna", [a, "p_nobody"], path)
    assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "player_not_found"
    computer = world.ask("Anna", [a, world.bots[0]], path)  # type: ignore[attr-defined]
    assert computer.status_code == 404 and computer.json()["detail"]["code"] == "player_not_found"
    for bad in ([a], [a, a], [a, b, c, "p_x", "p_y"]):
        answer = world.ask("Anna", bad, path)
        assert answer.status_code == 422 and answer.json()["detail"]["code"] == "bad_message"
    assert world.ask("Anna", [a, "p_" + "x" * 60], path).json()["detail"]["code"] == "bad_message"
    assert world.figures("Cleo", [c, world.people["Dan"].id])["people"] == {"matches": 0, "kinds": []}
    assert world.series("Cleo", [c, world.people["Dan"].id])["points"] == []


def test_the_series_is_every_people_only_match_oldest_first(world: World) -> None:
    """The chart's series: matches 1–5 and the real one (day 11) — not 6–8 (a computer sat), 9 (no
    Ben) or 10 (still played) — oldest first, each member's final total in the order asked."""
    a, b = ids(world, "Anna", "Ben")
    got = world.series("Anna", [a, b])
    assert got["players"] == [a, b] and got["truncated"] is False and got["cap"] == 5000
    points = got["points"]
    assert [p["kind"] for p in points] == ["twohand24"] * 3 + ["twohand32", "bidding3", "twohand24"]
    assert [p["finished_at"][:10] for p in points[:5]] == [day(n).date().isoformat() for n in range(1, 6)]
    assert points[5]["finished_at"] > points[4]["finished_at"]  # the real one, today
    assert [p["totals"] for p in points[:5]] == [[1001, 800], [950, 1010], [400, 300], [1001, 500], [310, -70]]
    # First place: Anna, Ben, Ben (Anna resigned, R6.2), Anna, Cleo (neither), Anna (Ben resigned).
    assert [p["won"] for p in points] == [
        [True, False], [False, True], [False, True], [True, False], [False, False], [True, False],
    ]  # fmt: skip
    page = world.figures("Anna", [a, b], limit=50)["matches"]
    assert len(points) == page["total"]  # every match of the list, and only those
    seats = [{s["id"]: s["total"] for s in m["players"]} for m in reversed(page["items"])]
    assert [p["totals"] for p in points] == [[seat[a], seat[b]] for seat in seats]
    swapped = world.series("Ben", [b, a])
    assert swapped["players"] == [b, a]
    assert [p["totals"] for p in swapped["points"]] == [p["totals"][::-1] for p in points]
    three = world.series("Cleo", ids(world, "Anna", "Ben", "Cleo"))["points"]
    assert [(p["kind"], p["totals"], p["won"]) for p in three] == [("bidding3", [310, -70, 330], [False, False, True])]


def test_a_series_past_its_cap_keeps_the_latest_matches(world: World) -> None:
    """Past the cap (5,000 for the API; 2 here) the oldest are left out, said by ``truncated``."""
    a, b = ids(world, "Anna", "Ben")
    every = world.series("Anna", [a, b])["points"]
    store = Store(world.server.database_url)
    try:
        with Session(store.engine) as session:
            cut = group_series(session, [a, b], cap=2)
            whole = group_series(session, [a, b], cap=6)
    finally:
        store.dispose()
    assert cut.truncated is True and whole.truncated is False
    assert [p.totals for p in cut.points] == [p["totals"] for p in every[-2:]]
    assert [p.totals for p in whole.points] == [p["totals"] for p in every]


def test_the_figures_kept_as_matches_end_equal_a_recount(world: World) -> None:
    """What ``group_figures`` added up match by match (the server's real match too) is what the
    aggregate queries over the matches give, for every group asked above."""
    store = Store(world.server.database_url)
    try:
        a, b, c, dan = ids(world, "Anna", "Ben", "Cleo", "Dan")
        for group in ([a, b], [b, a], [a, b, c], [a, c], [a, dan], [c, dan]):
            kept = store.groups.head_to_head(group, False, 10, 0)
            with Session(store.engine) as session:
                figures, money = recount(session, group)
            assert kept.figures == figures and kept.money == money
    finally:
        store.dispose()
