"""Waiting turn-based tables hold nothing (issue 45, docs/scaling.md "Waiting tables").

Seeds ``--tables`` turn-based tables (two-hand 1001, 1 day per move), each waiting for a person's
first move, through the rooms layer itself (``Rooms.create_room`` and ``join``: the same commands and
writes as the API), then starts ``--processes`` app processes on that database (with a private Redis
when more than one, or with ``--redis``) and measures, against the same processes on an empty
database:

* each process's RSS once started and settled (``VmRSS``), empty and with the waiting tables;
* Redis commands (``INFO commandstats``) and PostgreSQL transactions (``pg_stat_database``) per second
  while nobody plays, empty and with the waiting tables: a waiting table must add none;
* the move on a table that waited: a client connects (the table is rebuilt from its log), and the
  person on turn plays; the time from sending the card to the answer, over ``--moves`` tables.

A private PostgreSQL cluster (initdb in a temporary folder) unless ``--sqlite``.

    nice -n 10 .venv/bin/python bench/waiting_tables.py --tables 10000 --processes 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import redis  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from backend.api.codes import PROTOCOL  # noqa: E402
from backend.db.migrate import upgrade  # noqa: E402
from backend.db.store import Store  # noqa: E402
from backend.engine import Rules  # noqa: E402
from backend.rooms.adapters import LocalBus, SystemClock  # noqa: E402
from backend.rooms.options import TableOptions  # noqa: E402
from backend.rooms.service import Rooms, RoomTiming  # noqa: E402
from backend.rooms.sql_store import SqlRoomStore  # noqa: E402
from bench.faults import PrivatePostgres, _initdb  # noqa: E402
from tests.support.services import RedisServer, ServerProcess  # noqa: E402

IDLE_S = 20.0  # the window in which traffic is counted while nobody plays
SETTLE_S = 8.0  # after start: the first sweep and housekeeping have run


class NoBots:
    async def decide(self, *args: Any) -> Any:
        raise AssertionError("no computer at these tables")

    async def hint(self, *args: Any) -> Any:
        raise AssertionError("no hints")

    def shutdown(self) -> None:
        pass


async def seed(url: str, tables: int, players: int) -> list[tuple[str, str]]:
    """``tables`` turn-based tables, each waiting for its first move; (room, token of the person on turn)."""
    store = Store(url)
    rooms = Rooms(
        store,
        SqlRoomStore(store),
        bus=LocalBus(),
        clock=SystemClock(),
        bots=NoBots(),  # type: ignore[arg-type]
        timing=RoomTiming(housekeeping_s=0),
    )
    people = [store.players.create(f"P{n}") for n in range(players)]
    options = TableOptions(rules=Rules("twohand"), pace="1d")
    waiting: list[tuple[str, str]] = []
    for n in range(tables):
        (host, host_token), (guest, guest_token) = people[(2 * n) % players], people[(2 * n + 1) % players]
        _, room_id = await rooms.create_room(host, options, "private")
        state = await rooms.join(room_id, guest)
        assert state is not None and state.turn is not None
        waiting.append((room_id, host_token if state.turn == 0 else guest_token))
        rooms.registry.forget_room(room_id)  # as housekeeping does with a table that waits for a person
        if n % 1000 == 999:
            print(f"  seeded {n + 1} tables", flush=True)
    await rooms.shutdown()
    store.dispose()
    return waiting


def rss_kb(server: ServerProcess) -> int:
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def redis_calls(url: str | None) -> int:
    if url is None:
        return 0
    stats = redis.Redis.from_url(url).info("commandstats")
    return sum(int(value["calls"]) for value in stats.values())


def pg_transactions(url: str) -> int:
    if not url.startswith("postgresql"):
        return 0
    engine = create_engine(url)
    with engine.connect() as connection:
        found = connection.execute(
            text("SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()")
        ).scalar()
    engine.dispose()
    return int(found or 0)


def measure_idle(servers: list[ServerProcess], redis_url: str | None, db_url: str) -> dict[str, float]:
    time.sleep(SETTLE_S)
    before_redis, before_pg = redis_calls(redis_url), pg_transactions(db_url)
    time.sleep(IDLE_S)
    after_redis, after_pg = redis_calls(redis_url), pg_transactions(db_url)
    return {
        "rss_mb": [round(rss_kb(s) / 1024, 1) for s in servers],  # type: ignore[dict-item]
        "redis_per_s": round((after_redis - before_redis - (1 if redis_url else 0)) / IDLE_S, 1),  # less the INFO
        "pg_xact_per_s": round((after_pg - before_pg) / IDLE_S, 1),
    }


async def moves(servers: list[ServerProcess], waiting: list[tuple[str, str]], count: int) -> dict[str, float]:
    rng = random.Random(45)
    picked = rng.sample(waiting, min(count, len(waiting)))
    connect_ms: list[float] = []
    move_ms: list[float] = []
    for room_id, token in picked:
        server = rng.choice(servers)
        async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as http:
            ticket = (await http.post("/api/socket-ticket")).json()["ticket"]
        started = time.perf_counter()
        url = f"{server.ws_url}/ws/rooms/{room_id}?ticket={ticket}&protocol={PROTOCOL}"
        async with connect(url, compression=None) as socket:
            state = json.loads(await socket.recv())
            while state.get("type") != "state" or state.get("view") is None:
                state = json.loads(await socket.recv())
            connect_ms.append((time.perf_counter() - started) * 1000)
            card = state["view"]["legal"][0]["card"]
            sent = time.perf_counter()
            await socket.send(
                json.dumps({"type": "play", "id": 1, "version": state["version"], "card": card, "declare": False})
            )
            while True:
                answer = json.loads(await socket.recv())
                if answer.get("reply_to") == 1 or (answer.get("type") == "rejected" and answer.get("id") == 1):
                    break
            assert answer["type"] == "state", answer
            move_ms.append((time.perf_counter() - sent) * 1000)
    q = statistics.quantiles
    return {
        "moves": len(move_ms),
        "move_p50_ms": round(statistics.median(move_ms), 1),
        "move_p95_ms": round(q(move_ms, n=20)[18], 1),
        "connect_p50_ms": round(statistics.median(connect_ms), 1),
        "connect_p95_ms": round(q(connect_ms, n=20)[18], 1),
    }


def serve(url: str, folder: Path, processes: int, redis_url: str | None, tag: str) -> list[ServerProcess]:
    env = {"BOT_DELAY_S": "0", "HOUSEKEEPING_INTERVAL_S": "5", "PUSH": "0"}
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    servers = [ServerProcess(url, folder / f"{tag}{i}.log", **env) for i in range(processes)]
    for server in servers:
        server.start(timeout=120)
    return servers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of a private PostgreSQL")
    parser.add_argument("--redis", action="store_true", help="a private Redis even for one process")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="waiting-tables-"))
    os.chmod(folder, 0o777)
    postgres = None
    redis_server = None
    results: dict[str, Any] = {"load_before": os.getloadavg()}
    try:
        if args.sqlite:
            url = f"sqlite:///{folder / 'bench.db'}"
        else:
            assert _initdb() is not None, "no initdb: use --sqlite"
            postgres = PrivatePostgres(folder)
            postgres.start()
            url = postgres.url
        upgrade(url)
        redis_url = None
        if args.processes > 1 or args.redis:
            redis_server = RedisServer(folder)
            redis_server.start()
            redis_url = redis_server.url

        servers = serve(url, folder, args.processes, redis_url, "empty")
        results["empty"] = measure_idle(servers, redis_url, url)
        for server in servers:
            server.stop()

        started = time.perf_counter()
        waiting = asyncio.run(seed(url, args.tables, args.players))
        results["seed_s"] = round(time.perf_counter() - started, 1)

        servers = serve(url, folder, args.processes, redis_url, "waiting")
        results["waiting"] = measure_idle(servers, redis_url, url)
        results["rss_growth_mb"] = [
            round(w - e, 1) for w, e in zip(results["waiting"]["rss_mb"], results["empty"]["rss_mb"], strict=True)
        ]
        results.update(asyncio.run(moves(servers, waiting, args.moves)))
        for server in servers:
            server.stop()
        results["load_after"] = os.getloadavg()
        results["setup"] = {
            "tables": args.tables,
            "processes": args.processes,
            "database": "sqlite" if args.sqlite else "postgresql (private)",
            "redis": redis_url is not None,
        }
        print(json.dumps(results, indent=2))
    finally:
        if redis_server is not None:
            redis_server.stop()
        if postgres is not None:
            postgres.stop()


if __name__ == "__main__":
    main()
