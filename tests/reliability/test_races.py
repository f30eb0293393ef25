"""Races: intents made against the same version arrive together; exactly one of them is applied.

Frames are written back to back on the sockets before any answer is read, so the server has
them all in hand at once: per room its lock serializes them, and the version check (in memory,
then compare-and-swap in the database) lets exactly one through.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import httpx
import pytest

from tests.support.services import ServerProcess

from .helpers import Database, SyncTable, auth, check_action_log, comparable, register, sync_table

ROUNDS = 30


@pytest.fixture(scope="module")
def db(module_sqlite_server: ServerProcess) -> Iterator[Database]:
    probe = Database(module_sqlite_server.database_url)
    yield probe
    probe.dispose()


def _turn(table: SyncTable) -> int:
    states = [seat.hello() for seat in table.seats]
    return next(i for i, s in enumerate(states) if s["view"]["legal"])


def test_duplicate_and_competing_intents_from_one_seat(module_sqlite_server: ServerProcess, db: Database) -> None:
    """Same id twice plus a different id at the same version, sent without waiting: one move is made."""
    server = module_sqlite_server
    table = sync_table(server.url, server.ws_url, {"target": 1001})
    match_id = table.room["match_id"]
    next_id = 1000
    for _ in range(ROUNDS):
        turn = _turn(table)
        mover, waiter = table.seats[turn], table.seats[1 - turn]
        before = mover.hello()
        waiter.hello()
        version, legal = before["version"], [p["card"] for p in before["view"]["legal"]]
        first = {"type": "play", "id": next_id, "version": version, "card": legal[0]}
        other = {"type": "play", "id": next_id + 1, "version": version, "card": legal[-1]}
        next_id += 2
        actions = len(db.actions(match_id))
        for message in (first, first, other):
            mover.send(message)
        applied = mover.answer(first["id"])
        again = mover.answer(first["id"])  # the duplicate: answered again with the current state
        refused = mover.answer(other["id"])
        assert applied["type"] == again["type"] == "state"
        assert applied["version"] == again["version"] == version + 1
        assert refused["type"] == "rejected" and refused["code"] == "stale_version", refused
        assert len(db.actions(match_id)) == actions + 1
        assert db.room_version(table.room["id"]) == version + 1
        after = mover.hello()
        assert after["version"] == version + 1
        if after["view"]["deal_number"] == before["view"]["deal_number"]:  # (a new deal brings new cards)
            assert legal[0] not in after["view"]["deal"]["hand"]
            assert legal[-1] in after["view"]["deal"]["hand"] or legal[-1] == legal[0]
        seen = waiter.receive_until(lambda m: m["type"] == "state" and m["reply_to"] is None)
        assert seen["version"] == version + 1
        if after["view"]["winner"] is not None:
            break
    table.close()
    check_action_log(db, match_id)


def test_both_seats_racing_a_play_against_a_resignation(module_sqlite_server: ServerProcess, db: Database) -> None:
    """The player on turn plays while the other resigns, both against the same version: one wins."""
    server = module_sqlite_server
    rng = random.Random(7)
    outcomes = {"play": 0, "resign": 0}
    table = sync_table(server.url, server.ws_url, {"target": 1001})
    for round_number in range(ROUNDS):
        turn = _turn(table)
        mover, waiter = table.seats[turn], table.seats[1 - turn]
        version = mover.hello()["version"]
        waiter.hello()
        match_id = table.room["match_id"]
        actions = len(db.actions(match_id))
        play = {
            "type": "play",
            "id": 2 * round_number + 1,
            "version": version,
            "card": mover.state["view"]["legal"][0]["card"],
        }
        resign = {"type": "resign", "id": 2 * round_number + 2, "version": version}
        pairs = [(mover, play), (waiter, resign)]
        rng.shuffle(pairs)
        for seat, message in pairs:
            seat.send(message)
        played, resigned = mover.answer(play["id"]), waiter.answer(resign["id"])
        winners = [a for a in (played, resigned) if a["type"] == "state"]
        losers = [a for a in (played, resigned) if a["type"] == "rejected"]
        assert len(winners) == 1 and len(losers) == 1, (played, resigned)
        assert losers[0]["code"] == "stale_version", losers
        assert winners[0]["version"] == version + 1
        assert len(db.actions(match_id)) == actions + 1
        assert db.room_version(table.room["id"]) == version + 1
        final = [seat.hello() for seat in table.seats]
        assert comparable(final[0])["room"] == comparable(final[1])["room"]
        if resigned["type"] == "state":
            outcomes["resign"] += 1
            assert final[0]["view"]["winner"] == turn and final[0]["view"]["end_reason"] == "resign"
            check_action_log(db, match_id)
            table.close()
            table = sync_table(server.url, server.ws_url, {"target": 1001})
        else:
            outcomes["play"] += 1
            assert final[0]["view"]["winner"] is None
    table.close()
    assert outcomes["play"] and outcomes["resign"], outcomes  # both orders really happened


async def test_leave_racing_a_join_ends_one_way_or_the_other(module_sqlite_server: ServerProcess, db: Database) -> None:
    """The creator leaves while others join: either the table closed empty, or it started with one joiner."""
    url = module_sqlite_server.url
    results = {"closed": 0, "playing": 0}
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        for _ in range(ROUNDS // 3):
            anna = register(url, "Anna")
            joiners = [register(url, f"J{i}") for i in range(3)]
            room = (await http.post("/api/rooms", json={}, headers=auth(anna["token"]))).json()
            calls = [http.post(f"/api/rooms/{room['id']}/leave", headers=auth(anna["token"]))]
            calls += [http.post(f"/api/rooms/{room['id']}/join", headers=auth(j["token"])) for j in joiners]
            left, *joined = await asyncio.gather(*calls)
            assert all(a.status_code < 500 for a in (left, *joined))
            wins = [a for a in joined if a.status_code == 200]
            seen = (await http.get(f"/api/rooms/{room['id']}", headers=auth(anna["token"]))).json()
            if left.status_code == 204:
                assert not wins and seen["status"] == "closed" and seen["players"][1] is None
                assert all(a.status_code in (404, 409) for a in joined)
            else:
                assert left.status_code == 409 and left.json()["detail"]["code"] == "room_started"
                assert len(wins) == 1 and seen["status"] == "playing"
                assert seen["players"][1]["id"] == wins[0].json()["players"][1]["id"]
                assert seen["match_id"] and len(db.actions(seen["match_id"])) == 0
            results[seen["status"]] += 1
    assert sum(results.values()) == ROUNDS // 3, results
