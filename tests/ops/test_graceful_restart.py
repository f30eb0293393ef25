"""Graceful restarts (SIGTERM): the process hands its rooms over and tells its sockets 1012
("service restart": reconnect now, elsewhere), then exits within SHUTDOWN_TIMEOUT_S.

With two processes, a rolling restart of both during a match is invisible to the players except a
short pause: the clients (behind a proxy, here ``Roaming``) reconnect at once to the other process,
which takes the room at once because its lease was released, not after the lease ran out. With
one process, a restart keeps today's behaviour: the sockets close, the room comes back from the
database when the process is up again, and the match goes on.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from sqlalchemy import create_engine, text

from backend.rooms.cluster import LEASE_MS
from backend.rooms.codes import CloseCode
from tests.support.client import Player, Seat, create_table
from tests.support.services import ROOT, RedisServer, ServerProcess, database
from tests.support.tables import Watcher

from .conftest import SHUTDOWN_S
from .roaming import Roaming


def terminate(server: ServerProcess) -> float:
    """SIGTERM, then the seconds until the process exited."""
    assert server.process is not None
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=SHUTDOWN_S + 10)
    return time.monotonic() - started


def action_log(database_url: str, match_id: str) -> list[tuple[int, int]]:
    engine = create_engine(database_url)
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT seq, room_version FROM actions WHERE match_id = :m ORDER BY seq"), {"m": match_id}
        ).all()
    engine.dispose()
    return [(row[0], row[1]) for row in rows]


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
async def test_a_rolling_restart_of_two_processes_during_a_match_is_only_a_short_pause(
    pair: tuple[list[ServerProcess], RedisServer, str],
) -> None:
    servers, redis_server, url = pair
    first, second = servers
    anna = await Player(first.url, "Anna").register()
    ben = await Player(second.url, "Ben").register()
    room = await anna.post("/api/rooms", json={"target": 301})
    owners = redis.Redis.from_url(redis_server.url, decode_responses=True)
    first_id = (await anna.get("/api/health"))["process"]
    assert owners.get(f"room:{room['id']}:owner") == first_id  # the creator's process owns it
    anna_seat = Seat(anna, room["id"], first.ws_url)  # on the owner
    await anna_seat.connect()
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    ben_seat = Seat(ben, room["id"], second.ws_url)  # on the other process
    await ben_seat.connect()
    await anna_seat.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    table = Roaming([anna_seat, ben_seat], servers)
    exits: list[float] = []
    owner_after: list[str | None] = []
    restarts: list[asyncio.Task[None]] = []

    async def restart(server: ServerProcess) -> None:  # in the background: the match goes on meanwhile
        exits.append(await asyncio.to_thread(terminate, server))
        if server is first:
            owner_after.append(owners.get(f"room:{room['id']}:owner"))
        await asyncio.to_thread(server.start)

    async def rolling(moves: int) -> None:
        if moves == 8:  # restart the owner: its room moves to the other process
            restarts.append(asyncio.create_task(restart(first)))
        elif moves == 20:  # then the other one, once the first is back
            await restarts[0]
            restarts.append(asyncio.create_task(restart(second)))

    await table.play(random.Random(15), on_move=rolling)
    await asyncio.gather(*restarts)
    final = [seat.view for seat in table.seats]
    assert final[0]["winner"] is not None and final[0]["end_reason"] == "target"  # nobody was judged absent
    assert final[0]["totals"] == final[1]["totals"]
    assert len(exits) == 2 and all(seconds < SHUTDOWN_S for seconds in exits), exits
    # The room was handed over, not left to a lease that runs out: when the owner had exited, the
    # lease was no longer its own.
    assert owner_after and owner_after[0] != first_id
    assert table.closes and set(table.closes) == {CloseCode.SERVICE_RESTART}, table.closes
    # A takeover after a lapsed lease could not come back before LEASE_MS; these came back sooner.
    assert table.pauses and max(table.pauses) < LEASE_MS / 1000, table.pauses
    print(f"reconnect pauses {[round(p, 3) for p in table.pauses]} s, exits {[round(e, 2) for e in exits]} s")
    log = action_log(url, table.seats[0].state["room"]["match_id"])  # type: ignore[index]
    assert [seq for seq, _ in log] == list(range(1, len(log) + 1))  # gapless: nothing lost, nothing twice


async def test_one_process_restarts_and_the_match_goes_on(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url:
        server = ServerProcess(url, tmp_path / "server.log", SHUTDOWN_TIMEOUT_S=str(SHUTDOWN_S))
        server.start()
        try:
            anna, ben = await create_table(server.url, server.ws_url, {"target": 301})
            watcher = await Watcher(server, anna.room_id).open()
            await watcher.wait_for(lambda m: m["type"] == "watch_state")
            table = Roaming([anna, ben], [server])
            exits: list[float] = []

            async def restart(moves: int) -> None:
                if moves == 6:
                    exits.append(await asyncio.to_thread(terminate, server))
                    await asyncio.to_thread(server.start)

            await table.play(random.Random(4), on_move=restart)
        finally:
            server.stop()
        assert not server.errors(), server.errors()
    assert exits and exits[0] < SHUTDOWN_S
    assert set(table.closes) == {CloseCode.SERVICE_RESTART}, table.closes
    assert await watcher.closed() == CloseCode.SERVICE_RESTART  # spectators reconnect too
    assert table.seats[0].view["winner"] is not None and table.seats[0].view["totals"] == table.seats[1].view["totals"]


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
async def test_admin_close_goes_through_the_rooms_owner_and_its_players_hear_at_once(
    pair: tuple[list[ServerProcess], RedisServer, str],
) -> None:
    servers, redis_server, url = pair
    anna, ben = await create_table(servers[0].url, servers[0].ws_url, {"target": 301, "stake_per_point": "1"})
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_server.url}
    command = [sys.executable, "-m", "backend.admin", "close", anna.room_id, "--loser", anna.player.id]
    done = await asyncio.to_thread(
        subprocess.run, command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0 and "closed by its owner" in done.stdout, done.stdout + done.stderr
    over = await ben.wait_for(lambda m: m["type"] == "state" and m["view"] and m["view"]["winner"] is not None)
    assert over["view"]["end_reason"] == "resign"
    [entry] = await anna.player.get("/api/ledger")
    assert entry["balance"] == {"chips": "-301"}  # R6.2: a loss with the totals as they stand (0 of 301)
