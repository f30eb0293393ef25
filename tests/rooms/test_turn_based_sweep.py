"""Ruling R6.3 through the rooms of a process, on a real SQLite database with time as an input: a
turn-based table's deadline is stored with each move (``rooms.turn_deadline``), the table leaves
memory while it waits, a restart does not rebuild it, and the housekeeping sweep that reads the
stored deadlines ends the match of a person who let the time pass — at the deadline, not before,
once. ``housekeep(now)`` and the rooms' clock are handed the same made-up ``now``: nothing sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from backend.db.migrate import upgrade
from backend.db.models import Player
from backend.db.store import Store
from backend.engine import Rules, view_for
from backend.engine.events import Event
from backend.engine.view import SeatView
from backend.rooms.adapters import LocalBus
from backend.rooms.options import TableOptions
from backend.rooms.service import Rooms, RoomTiming
from backend.rooms.sql_store import SqlRoomStore

T0 = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


class FakeClock:
    """The time the rooms see; deadlines never fire on their own (the sweep finds them)."""

    def __init__(self) -> None:
        self.at = T0

    def now(self) -> datetime:
        return self.at

    async def sleep_until(self, deadline: datetime) -> None:
        await asyncio.Event().wait()


class NoBots:
    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> tuple[str, bool]:
        raise AssertionError("no computer in these tests")

    def shutdown(self) -> None:
        pass


class Site:
    def __init__(self, url: str) -> None:
        self.url = url
        self.store = Store(url)
        self.clock = FakeClock()
        self.rooms = self._rooms()

    def _rooms(self) -> Rooms:
        timing = RoomTiming(housekeeping_s=0)
        return Rooms(
            self.store, SqlRoomStore(self.store), bus=LocalBus(), clock=self.clock, bots=NoBots(), timing=timing
        )

    async def restart(self) -> None:
        """A new process over the same database (the old one's memory is gone)."""
        await self.rooms.shutdown()
        self.rooms = self._rooms()
        await self.rooms.start()

    async def housekeep(self, at: datetime) -> list[str]:
        self.clock.at = at
        done = await self.rooms.housekeep(at)
        return done.woken

    def player(self, name: str) -> Player:
        return self.store.players.create(name)[0]

    def row(self, room_id: str) -> tuple[str, int | None, datetime | None]:
        record = self.store.rooms.record(room_id)
        assert record is not None
        room = record.room
        due = room.turn_deadline
        return room.status, room.turn_seat, None if due is None else due.replace(tzinfo=UTC)


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    url = f"sqlite:///{tmp_path / 'turns.db'}"
    upgrade(url)
    site = Site(url)
    await site.rooms.start()
    try:
        yield site
    finally:
        await site.rooms.shutdown()
        site.store.dispose()


async def started(site: Site) -> tuple[str, Player, Player]:
    anna, ben = site.player("Anna"), site.player("Ben")
    options = TableOptions(rules=Rules(target=301), stake_per_point=Decimal("0.5"), currency="EUR", pace="1d")
    _, room_id = await site.rooms.create_room(anna, options, "private")
    state = await site.rooms.join(room_id, ben)
    assert state is not None and state.live
    return room_id, anna, ben


async def test_r6_3_the_turn_is_stored_the_table_leaves_memory_and_the_sweep_ends_it_at_its_deadline(
    site: Site,
) -> None:
    room_id, anna, ben = await started(site)
    status, seat, due = site.row(room_id)
    assert status == "playing" and seat is not None and due == T0 + DAY

    # Nobody has it open: the next round of housekeeping lets it go; nothing of it is held.
    assert await site.housekeep(T0 + timedelta(minutes=1)) == []
    assert site.rooms.rooms_in_memory() == []

    # A move (the table comes back for it) restarts the clock for the next seat, stored with it.
    site.clock.at = T0 + timedelta(hours=20)
    version = await site.rooms.version(room_id)
    assert site.rooms.registry.get(room_id) is None
    mover = anna if seat == 0 else ben
    actor = await site.rooms.registry.owned(room_id)
    assert actor is not None and actor.state.match is not None
    card = view_for(actor.state.match, seat).legal[0].card
    await site.rooms.play(room_id, mover.id, 1, version, card, False)
    status, next_seat, due = site.row(room_id)
    assert due == T0 + timedelta(hours=20) + DAY and next_seat is not None

    # A restart rebuilds nothing (the table waits), and the clock goes on from the stored deadline.
    await site.restart()
    assert site.rooms.rooms_in_memory() == []
    assert await site.housekeep(T0 + timedelta(hours=20) + DAY - timedelta(seconds=1)) == []
    assert site.row(room_id)[0] == "playing"
    assert await site.housekeep(T0 + timedelta(hours=20) + DAY) == [room_id]
    status, seat_after, due_after = site.row(room_id)
    assert (status, seat_after, due_after) == ("finished", None, None)
    loser = anna if next_seat == 0 else ben
    winner = ben if loser is anna else anna
    [entry] = site.store.history.ledger(winner.id)
    assert entry["balance"] == {"EUR": "150.5"}  # R6.2: 0.5 × (301 − 0), a loss by absence for the one on turn
    [match], _ = site.store.history.matches_of(loser.id, 10, 0)
    assert match.end_reason == "absence" and match.places[next_seat] == 2
    assert await site.housekeep(T0 + 5 * DAY) == []  # once only: nothing is due any more
