"""Issue 23: every change reaches every spectator on every process, in order, whatever the owner
believes about who watches where; a spectator's greeting shows the table of the version it names;
and a socket attached to a room whose owner just died is served by the process that takes it over,
never sent its state and then closed with 1013.

Each race is run many times over real processes (PostgreSQL and a private Redis), and every wait
is a wait for a message with a deadline, never a sleep."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from backend.db.store import Store
from backend.rooms.codes import CloseCode
from backend.rooms.sql_store import SqlRoomStore, rebuild
from tests.cluster.test_cluster import Cluster, running_cluster, table_across
from tests.support.client import Player, Seat
from tests.support.services import ServerProcess
from tests.support.tables import Watcher

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

RELAYED_WITHIN_S = 3.0  # a relayed change arrives in milliseconds; this only bounds a failure


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two processes shared by the tests of this module that kill none (each has a table of its own)."""
    with running_cluster(tmp_path_factory.mktemp("pair"), 2) as cluster:
        yield cluster


@pytest.fixture
def trio(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path, 3) as cluster:
        yield cluster


def _watch_states(watcher: Watcher) -> list[dict[str, Any]]:
    return [m for m in watcher.messages if m["type"] == "watch_state"]


async def _move(seats: list[Seat], rng: random.Random) -> int:
    """One random legal move by whoever is to play; the version it made, once every seat has it."""
    [mover] = [seat for seat in seats if seat.my_turn()]
    answer = await mover.intent(mover.choose(rng))
    assert answer["type"] == "state", answer
    version = int(answer["version"])
    for seat in seats:
        if seat is not mover:
            await seat.wait_for(lambda m: m["type"] == "state" and m["version"] >= version)
    return version


async def _nobody_watches(seat: Seat) -> None:
    """The owner knows that nobody watches any more: the players were told 0."""
    await seat.wait_for(lambda m: m["type"] == "watchers" and m["count"] == 0, timeout=10)


async def _sees_up_to(watcher: Watcher, version: int) -> list[int]:
    """Wait (with a deadline) until the spectator has ``version``; every version it was sent, from
    its greeting on, which must be in order with no gap."""
    if not any(m["version"] >= version for m in _watch_states(watcher)):
        await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["version"] >= version, RELAYED_WITHIN_S)
    versions = [m["version"] for m in _watch_states(watcher)]
    assert versions == list(range(versions[0], versions[-1] + 1)), f"a gap or a step back: {versions}"
    return versions


def _public(view: dict[str, Any]) -> dict[str, Any]:
    """What a seat and a spectator both see of the table: equal when they show the same version."""
    deal = view["deal"]
    shared = ("phase", "dealer", "turn", "hand_counts", "stock_count", "trump", "declarations", "trick",
              "last_trick", "tricks_played", "tricks_won", "calls", "declarer", "contract")  # fmt: skip
    return {
        "deal": {key: deal[key] for key in shared},
        "totals": view["totals"],
        "deal_number": view["deal_number"],
        "history": view["history"],
        "winner": view["winner"],
    }


def _state_at(seat: Seat, version: int) -> dict[str, Any]:
    return next(m for m in reversed(seat.messages) if m["type"] == "state" and m["version"] == version)


async def test_a_spectator_greeted_on_another_process_right_before_a_move_gets_that_move(pair: Cluster) -> None:
    """Defect 1: the owner relayed a change only when its (asynchronously updated) count said that
    somebody watched elsewhere, so a spectator greeted on another process just before a move, or just
    after another spectator joined on the owner, was not sent that move."""
    anna, ben, room = await table_across(pair, {"target": 1001, "visibility": "public"})
    owner, other = pair.servers
    assert pair.owner_of(room["id"]) is owner
    seats, rng = [anna, ben], random.Random(23)
    for attempt in range(12):
        near = await Watcher(owner, room["id"]).open() if attempt % 3 == 2 else None  # one just joined there
        far = Watcher(other, room["id"])
        if attempt % 2:  # the move races the greeting
            _, version = await asyncio.gather(far.open(), _move(seats, rng))
        else:  # the move follows the greeting at once
            await far.open()
            await far.wait_for(lambda m: m["type"] == "watch_state")
            version = await _move(seats, rng)
        versions = await _sees_up_to(far, version)
        assert versions[-1] == version, versions
        if near is not None:
            await _sees_up_to(near, version)
            await near.close()
        await far.close()
        await _nobody_watches(anna)  # the next attempt starts with the owner counting nobody
    for server in pair.servers:
        assert not server.errors(), server.errors()


async def test_a_greeting_during_a_move_shows_the_table_of_the_version_it_names(pair: Cluster) -> None:
    """Defect 2: a greeting read from the database was built from the room row and the action log
    read in two sessions, so it could name version v and show the table after move v + 1."""
    anna, ben, room = await table_across(pair, {"target": 1001, "visibility": "public"})
    other = pair.servers[1]
    seats, rng = [anna, ben], random.Random(29)
    for _ in range(14):
        before = int(anna.state["version"])  # type: ignore[index]
        watcher = Watcher(other, room["id"])
        _, version = await asyncio.gather(watcher.open(), _move(seats, rng))
        greeting = await watcher.wait_for(lambda m: m["type"] == "watch_state")
        assert before <= greeting["version"] <= version
        shown = _public(greeting["view"])
        assert shown == _public(_state_at(anna, greeting["version"])["view"]), greeting["version"]
        assert shown == _public(_state_at(ben, greeting["version"])["view"])
        await _sees_up_to(watcher, version)  # and the move follows, if the greeting came before it
        await watcher.close()
    for server in pair.servers:
        assert not server.errors(), server.errors()


async def test_the_room_row_and_the_action_log_are_read_in_one_snapshot(pair: Cluster) -> None:
    """Defect 2 at the store, made deterministic: a move is committed between the reading of the room
    row and the reading of the log; the room loaded is the one before it, both parts agreeing."""
    anna, ben, room = await table_across(pair, {"target": 1001, "visibility": "public"})
    rng = random.Random(31)
    for _ in range(3):
        await _move([anna, ben], rng)
    [mover] = [seat for seat in (anna, ben) if seat.my_turn()]
    play = {"seat": mover.view["seat"], "card": mover.view["legal"][0]["card"]}  # as if the owner stored it
    store = Store(pair.database_url)
    injected: list[int] = []

    def commit_a_move_meanwhile(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if injected or "FROM actions" not in statement:
            return
        injected.append(-1)  # once (the statements below come through here too)
        with store.engine.begin() as writer:  # another transaction, as the owner's would be
            version = writer.execute(
                text("UPDATE rooms SET version = version + 1 WHERE id = :r RETURNING version"), {"r": room["id"]}
            ).scalar_one()
            match_id = writer.execute(text("SELECT match_id FROM rooms WHERE id = :r"), {"r": room["id"]}).scalar()
            writer.execute(
                text(
                    "INSERT INTO actions (match_id, seq, seat, kind, card, declare, room_version, created_at)"
                    " SELECT match_id, seq + 1, :seat, 'play', :card, false, :v, created_at FROM actions"
                    " WHERE match_id = :m ORDER BY seq DESC LIMIT 1"
                ),
                {"v": version, "m": match_id, **play},
            )
        injected[0] = version

    try:
        before = store.actions.load_room(room["id"])
        assert before is not None
        event.listen(store.engine, "before_cursor_execute", commit_a_move_meanwhile)
        room_store = SqlRoomStore(store)
        loaded = await room_store.load(room["id"])
        room_store.close()
        event.remove(store.engine, "before_cursor_execute", commit_a_move_meanwhile)
        assert injected == [before.record.room.version + 1]  # the move was committed mid-read
        assert loaded is not None
        assert loaded.state.version == before.record.room.version
        assert len(loaded.actions) == len(before.actions)
        assert all(logged.made_at_version < loaded.state.version for logged in loaded.actions)
        assert rebuild(loaded).seq == len(before.actions)
        after = store.actions.load_room(room["id"])  # and a read after it sees both the row and the move
        assert after is not None and after.record.room.version == injected[0]
        assert len(after.actions) == len(before.actions) + 1
    finally:
        store.dispose()


def _alive(server: ServerProcess) -> bool:
    return server.process is not None and server.process.poll() is None


async def _reattach(seat: Seat, server: ServerProcess) -> Seat:
    """The same player's socket opened once on ``server``: it must be served, not told to come back."""
    fresh = Seat(seat.player, seat.room_id, server.ws_url)
    fresh.player.base_url = server.url
    fresh.next_id = seat.next_id
    await fresh.connect()  # its state, or ConnectionError if it was closed first
    return fresh


async def test_a_socket_attached_while_the_owner_is_dead_is_served_and_never_closed_with_1013(trio: Cluster) -> None:
    """The takeover defect: a socket attached to a room whose owner had died waited about a second for
    a lease that takes four to lapse, then was closed with 1013 (TRY_AGAIN) — even after the process
    that took the room over meanwhile had sent it the state, leaving its hello unanswered."""
    anna, ben, room = await table_across(trio, {"target": 1001, "visibility": "public"})
    seats, rng = [anna, ben], random.Random(37)
    for _ in range(2):  # two survivors of three, then the last one
        await _move(seats, rng)
        owner = trio.owner_of(room["id"])
        assert owner is not None
        survivors = [server for server in trio.servers if server is not owner and _alive(server)]
        watcher = await Watcher(survivors[0], room["id"]).open()
        greeting = await watcher.wait_for(lambda m: m["type"] == "watch_state")
        owner.kill()
        # Both players' sockets reach the survivors at once, while the dead owner's lease still stands.
        moved = (_reattach(seat, survivors[index % len(survivors)]) for index, seat in enumerate(seats))
        seats = list(await asyncio.gather(*moved))
        for seat in seats:
            await seat.send({"type": "hello"})
            await seat.wait_for(lambda m: m["type"] == "state" and m["reply_to"] is None)
        version = await _move(seats, rng)
        assert all(seat.close_code is None for seat in seats)
        assert all(m["type"] != "rejected" for seat in seats for m in seat.messages), "nothing is refused"
        versions = await _sees_up_to(watcher, version)
        assert versions[0] == greeting["version"]
        await watcher.close()
    for seat in seats:
        await seat.close()
        assert seat.close_code != CloseCode.TRY_AGAIN


async def test_a_stranger_turning_watching_off_at_a_private_table_is_told_not_seated_on_any_process(
    pair: Cluster,
) -> None:
    """Defect 3: ``PATCH /api/rooms/{id}`` by a signed-in player without a seat answers ``403
    not_seated`` at a private table too (docs/protocol.md, as ``watch-link`` does), whichever process
    it reaches — the owner or not — and changes nothing."""
    anna, ben, room = await table_across(pair, {"target": 301, "visibility": "private"})
    for server in pair.servers:
        stranger = await Player(server.url, "Dora").register()
        for method, path in (("PATCH", f"/api/rooms/{room['id']}"), ("POST", f"/api/rooms/{room['id']}/watch-link")):
            answer = await stranger.request(method, path, json={"spectators": False})
            assert answer.status_code == 403 and answer.json()["detail"]["code"] == "not_seated", (server.url, path)
    now = await anna.player.get(f"/api/rooms/{room['id']}")
    assert now["options"]["spectators"] is True and now["version"] == anna.state["version"]
    for seat in (anna, ben):
        await seat.close()
