"""Past one process: three app processes on PostgreSQL and a private Redis (DESIGN promise 5).

Players connect to different processes; a room is owned by one process at a time and survives
the death of its owner, a Redis restart, and intents racing through two processes.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.support.client import Player, Seat
from tests.support.services import RedisServer, ServerProcess, database

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


class Cluster:
    def __init__(self, database_url: str, redis: RedisServer, folder: Path, processes: int = 3, **env: str) -> None:
        self.database_url = database_url
        self.redis = redis
        self.servers = [
            ServerProcess(database_url, folder / f"app{i}.log", REDIS_URL=redis.url, BOT_DELAY_S="0", **env)
            for i in range(processes)
        ]

    def process_id(self, server: ServerProcess) -> str:
        return str(httpx.get(f"{server.url}/api/health", timeout=5).json()["process"])

    def owner_of(self, room_id: str) -> ServerProcess | None:
        import redis

        owner = redis.Redis.from_url(self.redis.url, decode_responses=True).get(f"room:{room_id}:owner")
        for server in self.servers:
            if server.process and server.process.poll() is None and self.process_id(server) == owner:
                return server
        return None

    async def presence_of(self, room_id: str, players: set[str], within: float = 20) -> None:
        """Wait until ``presence:{room}`` names every one of ``players`` (after a Redis restart it is
        filled again by the processes holding their sockets)."""
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(self.redis.url, decode_responses=True)
        try:
            async with asyncio.timeout(within):
                while not players <= set(await client.hgetall(f"presence:{room_id}")):
                    await asyncio.sleep(0.1)
        finally:
            await client.aclose()

    def absence_clocks(self, room_id: str) -> list[int]:
        """The seats of the room held by a stored absence clock (R6.2)."""
        engine = create_engine(self.database_url.replace("postgresql://", "postgresql+psycopg://"))
        with engine.connect() as connection:
            query = text("SELECT seat FROM room_deadlines WHERE room_id = :r AND kind = 'absence'")
            rows = connection.execute(query, {"r": room_id}).all()
        engine.dispose()
        return [row[0] for row in rows]

    def actions(self, match_id: str) -> list[tuple[int, int]]:
        engine = create_engine(self.database_url.replace("postgresql://", "postgresql+psycopg://"))
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT seq, room_version FROM actions WHERE match_id = :m ORDER BY seq"), {"m": match_id}
            ).all()
        engine.dispose()
        return [(row[0], row[1]) for row in rows]


@contextmanager
def running_cluster(folder: Path, processes: int = 3) -> Iterator[Cluster]:
    """``processes`` servers on a fresh PostgreSQL database and a private Redis, stopped afterwards."""
    redis = RedisServer(folder)
    redis.start()
    try:
        with database("postgres", folder) as url:
            group = Cluster(url, redis, folder, processes=processes)
            for server in group.servers:
                server.start()
            try:
                yield group
            finally:
                for server in group.servers:
                    server.stop()
    finally:
        redis.stop()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path) as group:
        yield group


async def table_across(cluster: Cluster, options: dict[str, Any]) -> tuple[Seat, Seat, dict[str, Any]]:
    """Anna creates on process 0 and plays there; Ben joins through process 1 and plays there."""
    first, second = cluster.servers[0], cluster.servers[1]
    anna = await Player(first.url, "Anna").register()
    ben = await Player(second.url, "Ben").register()
    room = await anna.post("/api/rooms", json=options)
    anna_seat = Seat(anna, room["id"], first.ws_url)
    await anna_seat.connect()
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    ben_seat = Seat(ben, room["id"], second.ws_url)
    await ben_seat.connect()
    await anna_seat.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    return anna_seat, ben_seat, room


async def play_on(seats: list[Seat], rng: random.Random, max_moves: int = 10_000, timeout: float = 240) -> int:
    """Random legal moves until the match ends; an intent refused as temporarily unavailable (a
    takeover, a Redis restart) is resent with the same id and version, as a client does."""

    async def loop() -> int:
        moves = 0
        while moves < max_moves:
            movers = [seat for seat in seats if seat.my_turn()]
            if not movers:
                if all(seat.state and seat.view["winner"] is not None for seat in seats):
                    return moves
                await asyncio.sleep(0.02)
                continue
            mover = movers[0]
            message = {**mover.choose(rng), "id": mover.next_id, "version": mover.state["version"]}  # type: ignore[index]
            mover.next_id += 1
            while True:
                try:
                    answer = await mover.intent(message)
                except TimeoutError:
                    continue  # the answer was lost (Redis restarted): the same intent again
                if answer["type"] == "rejected" and answer["code"] in ("unavailable", "server_error"):
                    await asyncio.sleep(0.3)
                    continue  # the same intent again: applied at most once
                break
            if answer["type"] == "rejected":
                assert answer["code"] == "stale_version", answer  # the table moved on meanwhile: look again
                continue
            version = answer["version"]
            for other in seats:
                if other is not mover:
                    await other.wait_for(lambda m, v=version: m["type"] == "state" and m["version"] >= v, timeout=30)
            moves += 1
        return moves

    try:
        return await asyncio.wait_for(loop(), timeout)
    except TimeoutError:
        raise AssertionError(f"the table stood still for {timeout} s:\n" + "\n".join(map(last_heard, seats))) from None


def last_heard(seat: Seat) -> str:
    """What a seat last received, for a table that stands still: the type, version, answer and turn."""

    def brief(message: dict[str, Any]) -> str:
        view = message.get("view") or {}
        deal = view.get("deal") or {}
        return (
            f"{message['type']} v{message.get('version')} reply_to={message.get('reply_to')} "
            f"turn={deal.get('turn')} legal={len(view.get('legal') or [])} code={message.get('code')}"
        )

    return f"{seat.player.name} (close code {seat.close_code}): " + "; ".join(map(brief, seat.messages[-6:]))


async def test_two_players_on_two_processes_play_a_whole_match_and_a_third_sees_the_lobby(cluster: Cluster) -> None:
    third = cluster.servers[2]
    carl = await Player(third.url, "Carl").register()
    anna = await Player(cluster.servers[0].url, "Anna").register()
    room = await anna.post("/api/rooms", json={"target": 301, "stake_per_point": "0.1", "visibility": "public"})
    assert room["id"] in [r["id"] for r in await carl.get("/api/rooms")]  # the lobby, from another process
    anna_seat = Seat(anna, room["id"], cluster.servers[0].ws_url)
    await anna_seat.connect()
    listed = {r["id"]: r for r in await carl.get("/api/rooms")}
    assert listed[room["id"]]["players"][0]["connected"]  # presence over processes
    ben = await Player(cluster.servers[1].url, "Ben").register()
    await ben.post(f"/api/rooms/{room['id']}/join")  # through process 1, which does not own the room
    ben_seat = Seat(ben, room["id"], cluster.servers[1].ws_url)
    await ben_seat.connect()
    assert room["id"] not in [r["id"] for r in await carl.get("/api/rooms")]  # it left the lobby
    await play_on([anna_seat, ben_seat], random.Random(7))
    assert anna_seat.view["end_reason"] == "target"
    assert anna_seat.view["totals"] == ben_seat.view["totals"] and anna_seat.view["winner"] == ben_seat.view["winner"]
    answers = []
    for server in cluster.servers:  # history and ledger agree whichever process answers
        async with httpx.AsyncClient(base_url=server.url, headers=anna.headers) as http:
            answers.append(((await http.get("/api/matches")).json(), (await http.get("/api/ledger")).json()))
    assert answers[0] == answers[1] == answers[2]
    [match] = answers[0][0]["items"]
    assert match["status"] == "finished" and match["totals"] == anna_seat.view["totals"]
    for server in cluster.servers:
        assert not server.errors(), server.errors()


@pytest.mark.parametrize("how", ["sigkill", "crash_after_commit"])
async def test_the_owner_dies_mid_deal_and_another_process_takes_the_room_over(cluster: Cluster, how: str) -> None:
    rng = random.Random(f"takeover-{how}")
    creator, second, third = cluster.servers
    if how == "crash_after_commit":  # the owner exits between a commit and its broadcast
        creator.stop()
        creator.env["CRASH_AFTER_COMMITS"] = str(rng.randint(6, 30))
        creator.start()
    anna = await Player(creator.url, "Anna").register()
    room = await anna.post("/api/rooms", json={"target": 301})
    assert cluster.owner_of(room["id"]) is creator  # the process that created the table owns it
    # SIGKILL: Anna's socket is on the owner and dies with it. Crash: both sockets are elsewhere
    # and survive, so the game must go on for them without a reconnect.
    anna_server, ben_server = (creator, second) if how == "sigkill" else (second, third)
    anna_seat = Seat(anna, room["id"], anna_server.ws_url)
    await anna_seat.connect()
    ben = await Player(ben_server.url, "Ben").register()
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    ben_seat = Seat(ben, room["id"], ben_server.ws_url)
    await ben_seat.connect()
    await anna_seat.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    seats = [anna_seat, ben_seat]
    if how == "sigkill":
        await play_on(seats, rng, max_moves=12)
        creator.kill()
        seats = [*(await _reconnect(cluster, [anna_seat], room["id"], avoid=creator)), ben_seat]
    await play_on(seats, rng)
    if how == "crash_after_commit":
        assert creator.process is not None and creator.process.poll() == 70  # it did die mid-match
    final = [seat.view for seat in seats]
    assert final[0]["winner"] is not None and final[0]["totals"] == final[1]["totals"]
    log = cluster.actions(seats[0].state["room"]["match_id"])  # type: ignore[index]
    assert [seq for seq, _ in log] == list(range(1, len(log) + 1))  # gapless, nothing applied twice
    assert [version for _, version in log] == sorted({version for _, version in log})


async def _reconnect(
    cluster: Cluster, seats: list[Seat], room_id: str, avoid: ServerProcess | None = None
) -> list[Seat]:
    """New sockets, each to a living process (the one that died is avoided)."""
    living = [s for s in cluster.servers if s is not avoid and s.process and s.process.poll() is None]
    fresh = []
    for index, seat in enumerate(seats):
        with_player = Seat(seat.player, room_id, living[index % len(living)].ws_url)
        with_player.player.base_url = living[index % len(living)].url
        with_player.next_id = seat.next_id  # the same client keeps counting
        for _ in range(50):
            try:
                await with_player.connect()
                break
            except (ConnectionError, OSError, httpx.HTTPError, TimeoutError):
                await asyncio.sleep(0.2)
        fresh.append(with_player)
    return fresh


async def test_racing_intents_through_two_processes_apply_exactly_once(cluster: Cluster) -> None:
    anna, ben, _ = await table_across(cluster, {"target": 301})
    rng = random.Random(3)
    outcomes = set()
    for _ in range(6):
        mover, other = (anna, ben) if anna.my_turn() else (ben, anna)
        version = mover.state["version"]  # type: ignore[index]
        play = {**mover.choose(rng), "id": mover.next_id, "version": version}
        resign = {"type": "resign", "id": other.next_id, "version": version}
        mover.next_id += 1
        other.next_id += 1
        if rng.random() < 0.5:
            answers = await asyncio.gather(mover.intent(play), other.intent(resign))
        else:
            answers = list(reversed(await asyncio.gather(other.intent(resign), mover.intent(play))))
        applied = [a for a in answers if a["type"] == "state"]
        assert len(applied) == 1, answers  # exactly one of the two was applied
        refused = [a for a in answers if a["type"] == "rejected"]
        assert [r["code"] for r in refused] == ["stale_version"]
        outcomes.add("play" if applied[0] is answers[0] else "resign")
        if "resign" in outcomes:
            break
        for seat in (mover, other):  # its answer may already have consumed the new state
            if seat.state["version"] <= version:  # type: ignore[index]
                await seat.wait_for(lambda m, v=version: m["type"] == "state" and m["version"] > v)
    assert outcomes


async def test_play_resumes_after_redis_restarts(cluster: Cluster) -> None:
    """Redis restarts empty: every process announces the sockets it holds again (presence), so both
    players, whose sockets never closed, are shown connected and held by no absence clock (R6.2), and
    the match plays on to its end."""
    anna, ben, room = await table_across(cluster, {"target": 301})
    rng = random.Random(11)
    await play_on([anna, ben], rng, max_moves=8)
    cluster.redis.restart()
    await cluster.presence_of(room["id"], {anna.player.id, ben.player.id})
    await play_on([anna, ben], rng, max_moves=8)
    assert cluster.absence_clocks(room["id"]) == []
    for seat in (anna, ben):
        assert all(player["connected"] for player in seat.state["room"]["players"]), seat.state  # type: ignore[index]
    await play_on([anna, ben], rng)
    assert anna.view["winner"] is not None and anna.view["totals"] == ben.view["totals"]
    log = cluster.actions(room["match_id"] or anna.state["room"]["match_id"])  # type: ignore[index]
    assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
