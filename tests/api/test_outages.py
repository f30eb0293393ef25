"""A database outage seen from outside (docs/reliability.md, "Outages"): every REST route answers
`503 database_unavailable` (with `Retry-After`), never a 500; a socket's intent is answered once,
`unavailable`, the socket stays open, and the same intent resent once the database is back is
carried out (or found in the log) exactly once.

The outage is the driver's own error (``sqlalchemy.exc.OperationalError``, what psycopg raises when
the server is gone) raised by the repositories; the chaos test (tests/reliability/test_faults.py)
stops a real PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.exc import OperationalError
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from backend.api.codes import PROTOCOL, CloseCode
from backend.db.action_log import ActionLog
from backend.db.players import PlayerRepository
from backend.db.rooms import RoomRepository
from tests.support.app_server import AppServer, FakeClock, app_serving
from tests.support.client import Player, create_table


def _gone(*args: Any, **kwargs: Any) -> Any:
    raise OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly"))


async def _no_rater(*args: Any) -> Any:
    raise AssertionError("no analysis here")


@pytest.fixture
async def served(sqlite_url: str, tmp_path: Path) -> AsyncIterator[AppServer]:
    clock = FakeClock(datetime(2026, 12, 5, 9, 0, tzinfo=UTC))
    async with app_serving(sqlite_url, tmp_path, clock=clock, rater=_no_rater) as server:
        yield server


ROUTES: list[tuple[str, str, type, str]] = [
    ("POST", "/api/socket-ticket", PlayerRepository, "issue_ticket"),
    ("GET", "/api/me", PlayerRepository, "by_token"),
    ("GET", "/api/rooms", RoomRepository, "open_public"),
    ("POST", "/api/rooms", RoomRepository, "create"),
]


@pytest.mark.parametrize(("method", "path", "repository", "reads"), ROUTES)
async def test_a_route_during_a_database_outage_answers_503_database_unavailable(
    served: AppServer, monkeypatch: pytest.MonkeyPatch, method: str, path: str, repository: type, reads: str
) -> None:
    anna = await Player(served.url, "Anna").register()
    monkeypatch.setattr(repository, reads, _gone)
    async with httpx.AsyncClient(base_url=served.url, timeout=10) as client:
        body = {} if method == "POST" else None
        answer = await client.request(method, path, headers=anna.headers, json=body)
    assert answer.status_code == 503, answer.text
    assert answer.json()["detail"]["code"] == "database_unavailable"
    assert answer.headers["retry-after"] == "1"


async def test_a_move_during_an_outage_is_answered_once_and_carried_out_once_when_resent(
    served: AppServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, ben = await create_table(served.url, served.ws_url)
    mover, other = (anna, ben) if anna.my_turn() else (ben, anna)
    card = mover.legal_cards[0]
    version = mover.state["version"] if mover.state else -1
    for repository, name in ((ActionLog, "commit"), (ActionLog, "load_room"), (RoomRepository, "record")):
        monkeypatch.setattr(repository, name, _gone)
    play = {"type": "play", "id": 1, "version": version, "card": card, "declare": False}
    await mover.send(play)
    first = await mover.answer(1)
    assert first["type"] == "rejected" and first["code"] == "unavailable"
    await mover.send_raw('{"type": "ping"}')  # everything the server sent about the intent comes before the pong
    await mover.wait_for(lambda m: m["type"] == "pong")
    assert [m for m in mover.messages if m["type"] == "rejected" and m["id"] == 1] == [first]
    assert mover.close_code is None  # the socket is served on

    monkeypatch.undo()  # the database is back: the client resends the same id and version
    await mover.send(play)
    accepted = await mover.wait_for(lambda m: m.get("reply_to") == 1)
    assert accepted["version"] == version + 1
    await other.wait_for(lambda m: m["type"] == "state" and m["version"] == version + 1)
    for seat in (anna, ben):
        await seat.close()


async def test_a_spectator_during_an_outage_is_told_to_reconnect_not_that_the_table_is_gone(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock(datetime(2026, 12, 5, 9, 0, tzinfo=UTC))
    async with app_serving(sqlite_url, tmp_path, clock=clock, rater=_no_rater) as first:
        anna = await Player(first.url, "Anna").register()
        room_id = (await anna.post("/api/rooms", json={"visibility": "public"}))["id"]  # waits for a player
    # a process that holds no copy of the table (a live one it would take up at its start), and
    # cannot read the database
    async with app_serving(sqlite_url, tmp_path, clock=clock, rater=_no_rater) as served:
        url = f"{served.ws_url}/ws/rooms/{room_id}/watch?protocol={PROTOCOL}"
        for repository, name in ((RoomRepository, "claim"), (ActionLog, "load_room"), (RoomRepository, "record")):
            monkeypatch.setattr(repository, name, _gone)
        async with connect(url, compression=None, open_timeout=10) as ws:
            with pytest.raises(ConnectionClosed):
                await ws.recv()
        assert ws.close_code == CloseCode.TRY_AGAIN, ws.close_reason  # the spectator's page reconnects
        monkeypatch.undo()  # the database is back: the same link shows the table
        async with connect(url, compression=None, open_timeout=10) as ws:
            greeting = json.loads(await ws.recv())
        assert greeting["type"] == "watch_state" and greeting["room"]["id"] == room_id
