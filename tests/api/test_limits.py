"""Limits on what anyone can ask of the server (issue 23): REST writes per address and per player,
open tables per player, sockets per address — and real players never notice them.

Every request of a test comes from 127.0.0.1; the addresses the server counts are the forwarded
ones (``X-Forwarded-For``), which uvicorn believes from 127.0.0.1 only (``FORWARDED_ALLOW_IPS``).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from backend.api.codes import PROTOCOL, CloseCode, TransportCode
from backend.api.limits import (
    DEFAULT_LIMITS,
    Group,
    GroupLimits,
    Limit,
    Limiter,
    MemoryCounters,
    RedisCounters,
    limits_from,
)
from backend.db.models import Player as PlayerRow
from backend.db.models import Room
from backend.rooms.codes import RoomCode
from tests.support.client import Player
from tests.support.services import REDIS_URL, RedisServer, ServerProcess, database, port_open, serving
from tests.support.tables import over, play_to_the_end, table

LIMITED = {"REST_LIMITS": "1", "MAX_OPEN_TABLES": "3", "MAX_SOCKETS_PER_ADDRESS": "40"}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def address() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def from_address(where: str, token: str | None = None) -> dict[str, str]:
    headers = {"X-Forwarded-For": where}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers


# ------------------------------------------------------------------ the decisions, on a fake clock


@pytest.mark.parametrize("counters", ["memory", "redis"])
async def test_a_sliding_window_admits_its_count_then_names_the_wait(counters: str) -> None:
    if counters == "redis" and not port_open("127.0.0.1", 6379):
        pytest.skip("Redis is not reachable on 127.0.0.1:6379")
    clock = FakeClock()
    redis = None
    if counters == "memory":
        store: MemoryCounters | RedisCounters = MemoryCounters()
    else:
        from redis.asyncio import Redis

        redis = Redis.from_url(REDIS_URL)
        store = RedisCounters(redis)
    limiter = Limiter(store, {"rooms": GroupLimits(address=Limit(3, 60), player=Limit(2, 60))}, clock=clock)
    here, player = address(), f"p_{secrets.token_hex(6)}"
    try:
        assert [await limiter.check("rooms", here, None) for _ in range(3)] == [None, None, None]
        assert await limiter.check("rooms", here, None) == pytest.approx(60)
        clock.now += 20
        assert await limiter.check("rooms", here, None) == pytest.approx(40)  # refusals are not counted
        clock.now += 40.5  # the first three left the window
        assert await limiter.check("rooms", here, None) is None
        # per player, from any address
        assert await limiter.check("rooms", address(), player) is None
        assert await limiter.check("rooms", address(), player) is None
        assert await limiter.check("rooms", address(), player) == pytest.approx(60)
        assert await limiter.check("join", here, player) is None  # a group without limits
    finally:
        if redis is not None:
            await redis.aclose()


def test_limit_settings_replace_only_the_kinds_they_name() -> None:
    limits = limits_from({"rooms": {"player": [2, 10]}})
    assert limits["rooms"] == GroupLimits(address=DEFAULT_LIMITS["rooms"].address, player=Limit(2, 10.0))
    assert limits["signup"] == DEFAULT_LIMITS["signup"]
    with pytest.raises(ValueError, match="no rate-limit group 'room'"):
        limits_from({"room": {"player": [2, 10]}})


# ------------------------------------------------------------------ floods against a real server


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The production defaults (apart from the open tables, 3 here)."""
    with serving("sqlite", tmp_path_factory.mktemp("limited"), **LIMITED) as process:
        yield process


def rows(server: ServerProcess, model: Any, *where: Any) -> int:
    engine = create_engine(server.database_url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(model).where(*where)) or 0)
    finally:
        engine.dispose()


async def flood(http: httpx.AsyncClient, count: int, method: str, path: str, **kwargs: Any) -> list[httpx.Response]:
    return list(await asyncio.gather(*(http.request(method, path, **kwargs) for _ in range(count))))


def refused_for_rate(answers: list[httpx.Response]) -> list[httpx.Response]:
    refused = [answer for answer in answers if answer.status_code == 429]
    for answer in refused:
        assert answer.json()["detail"]["code"] == TransportCode.RATE_LIMITED
        assert int(answer.headers["Retry-After"]) >= 1
    return refused


async def test_300_sign_ups_from_one_address_make_only_the_allowed_players(limited_server: ServerProcess) -> None:
    before = rows(limited_server, PlayerRow)
    flooder = address()
    async with httpx.AsyncClient(base_url=limited_server.url, headers=from_address(flooder)) as http:
        answers = await flood(http, 300, "POST", "/api/players", json={"name": "Spam"})
    allowed = DEFAULT_LIMITS["signup"].address
    assert allowed is not None
    assert sum(answer.status_code == 201 for answer in answers) == allowed.count
    assert len(refused_for_rate(answers)) == 300 - allowed.count
    assert rows(limited_server, PlayerRow) - before == allowed.count
    async with httpx.AsyncClient(base_url=limited_server.url, headers=from_address(address())) as http:
        assert (await http.post("/api/players", json={"name": "Friend"})).status_code == 201


async def test_200_tables_from_one_player_leave_the_lobby_with_at_most_three(limited_server: ServerProcess) -> None:
    where = address()
    async with httpx.AsyncClient(base_url=limited_server.url, headers=from_address(where)) as http:
        token = (await http.post("/api/players", json={"name": "Host"})).json()["token"]
        http.headers["Authorization"] = f"Bearer {token}"
        me = (await http.get("/api/me")).json()["id"]
        answers = await flood(http, 200, "POST", "/api/rooms", json={"target": 1001})
        statuses = [answer.status_code for answer in answers]
        allowed = DEFAULT_LIMITS["rooms"].player
        assert allowed is not None
        assert statuses.count(201) == 3  # MAX_OPEN_TABLES
        too_many = [answer.json()["detail"] for answer in answers if answer.status_code == 409]
        assert len(too_many) == allowed.count - 3
        assert {detail["code"] for detail in too_many} == {RoomCode.TOO_MANY_TABLES}
        assert len(refused_for_rate(answers)) == 200 - allowed.count
        lobby = (await http.get("/api/rooms")).json()
        assert sum(room["players"][0]["id"] == me for room in lobby if room["players"][0]) == 3
    created = [answer.json()["id"] for answer in answers if answer.status_code == 201]
    assert rows(limited_server, Room, Room.id.in_(created)) == 3


async def test_a_table_left_makes_room_for_a_new_one(limited_server: ServerProcess) -> None:
    host = Player(limited_server.url, "Keen")
    host_headers = from_address(address())
    async with httpx.AsyncClient(base_url=limited_server.url, headers=host_headers) as http:
        host.token = (await http.post("/api/players", json={"name": "Keen"})).json()["token"]
        http.headers["Authorization"] = f"Bearer {host.token}"
        tables = [(await http.post("/api/rooms", json={"target": 1001})).json()["id"] for _ in range(3)]
        assert (await http.post("/api/rooms", json={"target": 1001})).json()["detail"]["code"] == "too_many_tables"
        assert (await http.post(f"/api/rooms/{tables[0]}/leave")).status_code == 204
        assert (await http.post("/api/rooms", json={"target": 1001})).status_code == 201


@pytest.fixture(scope="module")
def tight_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Every group at 3 a minute per address and 2 per player, so each flood is short."""
    tight = {
        group: {"address": [3, 60], **({"player": [2, 60]} if limits.player else {})}
        for group, limits in DEFAULT_LIMITS.items()
    }
    with serving(
        "sqlite",
        tmp_path_factory.mktemp("tight"),
        **(LIMITED | {"MAX_OPEN_TABLES": "100"}),
        RATE_LIMITS=json.dumps(tight),
    ) as process:
        yield process


async def _signed_up(server: ServerProcess) -> str:
    """A new player's token, signed up from an address of its own."""
    async with httpx.AsyncClient(base_url=server.url, headers=from_address(address())) as http:
        return str((await http.post("/api/players", json={"name": "Host"})).json()["token"])


async def _open_table(server: ServerProcess) -> str:
    """A new player's open table (from an address of its own): its id."""
    token = await _signed_up(server)
    async with httpx.AsyncClient(base_url=server.url, headers=from_address(address(), token)) as http:
        return str((await http.post("/api/rooms", json={"target": 1001})).json()["id"])


# Each REST write: its method and path (given a table's id and its invite code) and its body.
WRITES: dict[Group, tuple[str, str, dict[str, Any] | None]] = {
    "signup": ("POST", "/api/players", {"name": "Spam"}),
    "rooms": ("POST", "/api/rooms", {"target": 1001}),
    "join": ("POST", "/api/rooms/{room}/join", None),
    "tickets": ("POST", "/api/socket-ticket", None),
    "device_links": ("POST", "/api/device-links", None),
    "redeem": ("POST", "/api/device-links/redeem", {"code": "no-such-code"}),
    "watch_links": ("POST", "/api/rooms/{room}/watch-link", None),
    "tables": ("PATCH", "/api/rooms/{room}", {"spectators": False}),
    "account": ("POST", "/api/me/sign-out-others", None),
    "invites": ("POST", "/api/me/invitations/{room}/decline", None),  # counted even when none waits (404)
    "analyses": ("POST", "/api/matches/{room}/deals/0/analysis", None),  # counted even for no such match (404)
}


@pytest.mark.parametrize("group", sorted(WRITES))
async def test_every_rest_write_holds_its_limit_per_address_and_per_player(
    tight_server: ServerProcess, group: Group
) -> None:
    method, path, body = WRITES[group]
    url = path.format(room=await _open_table(tight_server))
    kwargs: dict[str, Any] = {} if body is None else {"json": body}
    # Per address: a new player each time would not help.
    tokens = [await _signed_up(tight_server) for _ in range(4)]
    one_address = address()
    async with httpx.AsyncClient(base_url=tight_server.url) as http:
        answers = [
            await http.request(method, url, headers=from_address(one_address, tokens[i % 4]), **kwargs)
            for i in range(6)
        ]
        assert len(refused_for_rate(answers)) == 3, [answer.status_code for answer in answers]
        # Per player (where the write has one): a new address each time would not help.
        token = await _signed_up(tight_server)
        answers = [await http.request(method, url, headers=from_address(address(), token), **kwargs) for _ in range(5)]
        assert len(refused_for_rate(answers)) == (0 if DEFAULT_LIMITS[group].player is None else 5 - 2)
        # Someone else is served as ever.
        other_url = path.format(room=await _open_table(tight_server))
        answer = await http.request(
            method, other_url, headers=from_address(address(), await _signed_up(tight_server)), **kwargs
        )
        assert answer.status_code != 429


async def test_the_forwarded_address_counts_only_from_the_proxy(tmp_path: Path) -> None:
    """A server that trusts another proxy than the caller counts the caller's own address."""
    with database("sqlite", tmp_path) as url:
        server = ServerProcess(
            url, tmp_path / "server.log", uvicorn_args=("--forwarded-allow-ips", "10.99.99.99"), **LIMITED,
            RATE_LIMITS=json.dumps({"signup": {"address": [3, 60]}}),
        )  # fmt: skip
        server.start()
        try:
            async with httpx.AsyncClient(base_url=server.url) as http:
                answers = [
                    await http.post("/api/players", json={"name": "Spoof"}, headers=from_address(address()))
                    for _ in range(5)
                ]
        finally:
            server.stop()
    assert [answer.status_code for answer in answers] == [201, 201, 201, 429, 429]


# ------------------------------------------------------------------ sockets per address


async def test_one_address_holds_at_most_its_sockets(tmp_path: Path) -> None:
    with serving("sqlite", tmp_path, **(LIMITED | {"MAX_SOCKETS_PER_ADDRESS": "3"})) as server:
        anna = await Player(server.url, "Anna").register()
        room = await anna.post("/api/rooms", json={"target": 1001, "spectators": True})
        url = f"{server.ws_url}/ws/rooms/{room['id']}/watch?protocol={PROTOCOL}"
        crowd, elsewhere = address(), address()

        async def watcher(where: str) -> tuple[Any, int | None]:
            """A spectator's socket and None once it is greeted, or the code it was closed with."""
            socket = await connect(url, additional_headers=from_address(where), open_timeout=10)
            try:
                assert json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] == "watch_state"
            except ConnectionClosed:
                return socket, socket.close_code
            return socket, None

        held = [await watcher(crowd) for _ in range(3)]
        assert [code for _, code in held] == [None, None, None]
        assert (await watcher(crowd))[1] == CloseCode.TOO_MANY_SOCKETS
        other = await watcher(elsewhere)
        assert other[1] is None
        await held.pop()[0].close()
        again = await watcher(crowd)
        for _ in range(100):  # the server frees the slot as the closed socket's handler ends
            if again[1] is None:
                break
            assert again[1] == CloseCode.TOO_MANY_SOCKETS
            again = await watcher(crowd)
        assert again[1] is None
        for socket, _ in (*held, other, again):
            await socket.close()


# ------------------------------------------------------------------ a cluster counts together


async def test_in_a_cluster_every_process_counts_the_same_requests(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        with database("postgres", tmp_path) as url:
            env = {**LIMITED, "REDIS_URL": redis.url, "RATE_LIMITS": json.dumps({"signup": {"address": [4, 60]}})}
            servers = [ServerProcess(url, tmp_path / f"server{i}.log", **env) for i in range(2)]
            for server in servers:
                server.start()
            try:
                where = address()
                statuses = []
                for i in range(8):
                    async with httpx.AsyncClient(base_url=servers[i % 2].url, headers=from_address(where)) as http:
                        statuses.append((await http.post("/api/players", json={"name": "Spam"})).status_code)
            finally:
                for server in servers:
                    server.stop()
            assert statuses.count(201) == 4 and statuses.count(429) == 4
            assert not any(server.errors() for server in servers)
    finally:
        redis.stop()


# ------------------------------------------------------------------ real players never notice


async def test_a_family_behind_one_address_plays_a_whole_match_under_the_default_limits(
    limited_server: ServerProcess,
) -> None:
    """Four players behind one router: sign-ups, a table for four, joins, sockets (a ticket each time),
    a whole match, and a look at the history — nothing refused for its rate."""
    seats = await table(limited_server, "thousand4", 4, 100, 4, scoring="simplified")
    await play_to_the_end(seats, random.Random(5))
    for seat in seats:
        assert over(seat)
        await seat.close()
        page = await seat.player.get("/api/matches")
        assert page["items"], "the finished match is in everyone's history"
