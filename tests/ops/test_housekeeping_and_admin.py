"""Housekeeping and the admin command, on a real SQLite database with time as an input.

Open tables nobody joined expire after OPEN_TABLE_TTL_S (``housekeep(now)`` is handed a made-up
``now``: nothing sleeps); finished rooms leave memory; ``python -m backend.admin close`` ends a
stuck match as R6.2 says (through ``decide``, the stake settled) and the server holding the room
rebuilds it at its next round; ``rooms`` and ``ledger`` print what an operator needs.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from backend.admin.__main__ import main as admin
from backend.db.migrate import upgrade
from backend.db.models import Player
from backend.db.store import Store
from backend.engine import Rules
from backend.engine.events import Event
from backend.engine.view import SeatView
from backend.rooms.adapters import LocalBus
from backend.rooms.options import TableOptions
from backend.rooms.service import Rooms, RoomTiming
from backend.rooms.sql_store import SqlRoomStore

TTL_S = 3600.0


class FrozenClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, deadline: datetime) -> None:
        await asyncio.Event().wait()  # deadlines never fire on their own here


class NoBots:
    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> tuple[str, bool]:
        raise AssertionError("no computer in these tests")

    def shutdown(self) -> None:
        pass


@dataclass
class Site:
    url: str
    store: Store
    rooms: Rooms

    def player(self, name: str) -> Player:
        return self.store.players.create(name)[0]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    url = f"sqlite:///{tmp_path / 'ops.db'}"
    upgrade(url)
    store = Store(url)
    timing = RoomTiming(open_table_ttl_s=TTL_S, housekeeping_s=0)
    rooms = Rooms(store, SqlRoomStore(store), bus=LocalBus(), clock=FrozenClock(), bots=NoBots(), timing=timing)
    await rooms.start()
    try:
        yield Site(url, store, rooms)
    finally:
        await rooms.shutdown()
        store.dispose()


def options(stake: str = "0") -> TableOptions:
    return TableOptions(rules=Rules(target=301), stake_per_point=Decimal(stake), currency="EUR")


def status(site: Site, room_id: str) -> str:
    record = site.store.rooms.record(room_id)
    assert record is not None
    return record.room.status


async def test_an_open_table_nobody_joined_expires_after_its_time(site: Site) -> None:
    anna = site.player("Anna")
    _, room_id = await site.rooms.create_room(anna, options(), "public")
    now = datetime.now(UTC)
    assert (await site.rooms.housekeep(now + timedelta(seconds=TTL_S - 60))).expired == []
    assert status(site, room_id) == "open"
    done = await site.rooms.housekeep(now + timedelta(seconds=TTL_S + 1))
    assert done.expired == [room_id]
    assert status(site, room_id) == "closed"
    assert room_id not in {state.id for state in site.rooms.rooms_in_memory()}
    assert (await site.rooms.housekeep(now + timedelta(seconds=TTL_S * 2))).expired == []  # once only


async def test_a_joined_table_never_expires_and_a_finished_room_leaves_memory(site: Site) -> None:
    anna, ben = site.player("Anna"), site.player("Ben")
    _, room_id = await site.rooms.create_room(anna, options(), "public")
    state = await site.rooms.join(room_id, ben)
    assert state is not None and state.status == "playing"
    later = datetime.now(UTC) + timedelta(seconds=TTL_S * 10)
    done = await site.rooms.housekeep(later)
    assert done.expired == [] and done.evicted == []  # a match in play stays, with or without sockets
    await site.rooms.resign(room_id, anna.id, 1, state.version)
    assert status(site, room_id) == "finished"
    done = await site.rooms.housekeep(later)
    assert done.evicted == [room_id]
    assert site.rooms.rooms_in_memory() == []
    assert await site.rooms.version(room_id) == state.version + 1  # from the database now


async def test_admin_closes_a_stuck_match_as_r6_2_says_and_the_server_catches_up(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    anna, ben = site.player("Anna"), site.player("Ben")
    _, room_id = await site.rooms.create_room(anna, options(stake="0.5"), "private")
    state = await site.rooms.join(room_id, ben)
    assert state is not None and state.match is not None
    on_turn = state.player_at(state.match.deal.turn or 0)
    winner = ben.id if on_turn == anna.id else anna.id

    assert await asyncio.to_thread(admin, ["--database-url", site.url, "rooms"]) == 0
    listing = capsys.readouterr().out
    assert room_id in listing and "Anna" in listing and "Ben" in listing

    # The operator closes it (another process, here another thread): the player the game waits
    # for abandons the match, a loss with the totals as they stand (R6.2).
    assert await asyncio.to_thread(admin, ["--database-url", site.url, "close", room_id]) == 0
    assert "R6.2" in capsys.readouterr().out
    assert status(site, room_id) == "finished"
    [entry] = site.store.history.ledger(winner)
    assert entry["balance"] == {"EUR": "150.5"}  # 0.5 × (301 − 0)

    done = await site.rooms.housekeep(datetime.now(UTC))  # the server's copy was stale: rebuilt
    assert done.refreshed == [room_id]
    [memory] = site.rooms.rooms_in_memory()
    assert memory.status == "finished" and memory.match is not None and memory.match.end_reason == "resign"

    assert await asyncio.to_thread(admin, ["--database-url", site.url, "ledger", winner]) == 0
    assert "150.5 EUR" in capsys.readouterr().out
    assert await asyncio.to_thread(admin, ["--database-url", site.url, "close", room_id]) == 1  # nothing to close
    assert "finished" in capsys.readouterr().out


async def test_admin_closes_an_open_table(site: Site, capsys: pytest.CaptureFixture[str]) -> None:
    _, room_id = await site.rooms.create_room(site.player("Anna"), options(), "public")
    assert await asyncio.to_thread(admin, ["--database-url", site.url, "close", room_id]) == 0
    assert status(site, room_id) == "closed"
    assert (await site.rooms.housekeep(datetime.now(UTC))).refreshed == [room_id]
    assert await asyncio.to_thread(admin, ["--database-url", site.url, "close", "r_nosuchroom"]) == 1
    assert "no room" in capsys.readouterr().out
