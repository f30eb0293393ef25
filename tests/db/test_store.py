"""The repository on a real SQLite file and PostgreSQL: migrations, compare-and-swap, group commit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from backend.db.group_commit import GroupCommitter
from backend.db.models import Base
from backend.db.store import Store
from backend.db.writes import (
    AbsenceWrite,
    ActionRecord,
    ActionWrite,
    JoinWrite,
    MatchEnd,
    NewMatch,
    RematchOfferWrite,
    SeatTaken,
    SettlementRow,
    VersionConflict,
)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = Store(database_url)
    yield store
    store.dispose()


def _room_with_match(store: Store) -> tuple[str, str]:
    anna, _ = store.players.create("Anna")
    ben, _ = store.players.create("Ben")
    room = store.rooms.create(anna.id, {"target": 301}, "public")
    match = NewMatch(id=f"m_{room.id}", options={"target": 301}, seed=7, first_dealer=0, seat_ids=(anna.id, ben.id))
    store.rooms.write(JoinWrite(room.id, ben.id, match))
    return room.id, match.id


def _play(room_id: str, match_id: str, version: int, seq: int) -> ActionWrite:
    return ActionWrite(
        room_id=room_id,
        expected_version=version,
        match_id=match_id,
        seq=seq,
        action=ActionRecord(seat=seq % 2, kind="play", card="AC"),
        client_msg_id=seq,
        deals=(),
        end=None,
        totals=(0, 0),
    )


def test_migrations_match_the_models(store: Store) -> None:
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_a_stale_version_is_refused_and_writes_nothing(store: Store) -> None:
    room_id, match_id = _room_with_match(store)  # joining moved the room to version 1
    store.actions.commit([_play(room_id, match_id, 1, 1)])
    with pytest.raises(VersionConflict):
        store.actions.commit([_play(room_id, match_id, 1, 2)])
    stored = store.actions.load_room(room_id)
    assert stored is not None and stored.record.room.version == 2 and [a.seq for a in stored.actions] == [1]


def test_group_commit_stores_a_batch_and_isolates_a_conflict(store: Store) -> None:
    rooms = [_room_with_match(store) for _ in range(3)]
    writes = [_play(room_id, match_id, 1, 1) for room_id, match_id in rooms]
    writes[1] = _play(*rooms[1], 5, 1)  # made against a version the room never had
    outcomes = store.actions.commit(writes)
    assert outcomes[0] is None and outcomes[2] is None and isinstance(outcomes[1], VersionConflict)
    versions = [store.actions.load_room(room_id).record.room.version for room_id, _ in rooms]  # type: ignore[union-attr]
    assert versions == [2, 1, 2]


async def test_group_committer_answers_every_caller(store: Store) -> None:
    rooms = [_room_with_match(store) for _ in range(20)]
    committer = GroupCommitter(store.actions)
    try:
        await asyncio.gather(*(committer.commit(_play(room_id, match_id, 1, 1)) for room_id, match_id in rooms))
        with pytest.raises(VersionConflict):
            await committer.commit(_play(*rooms[0], 1, 2))
    finally:
        committer.close()
    assert all(store.actions.load_room(room_id).record.room.version == 2 for room_id, _ in rooms)  # type: ignore[union-attr]


def test_a_batch_of_plain_moves_is_stored_whole_and_a_stale_one_alone_refused(store: Store) -> None:
    rooms = [_room_with_match(store) for _ in range(4)]
    # two statements for the whole batch (the plain moves' own path), every log row stored
    assert store.actions.commit([_play(room_id, match_id, 1, 1) for room_id, match_id in rooms[:2]]) == [None, None]
    writes = [_play(room_id, match_id, 1, 1) for room_id, match_id in rooms[2:]]
    writes.append(_play(*rooms[0], 1, 2))  # made against version 1: the room is at 2 now
    outcomes = store.actions.commit(writes)
    assert outcomes[:2] == [None, None] and isinstance(outcomes[2], VersionConflict)
    for room_id, _ in rooms:
        stored = store.actions.load_room(room_id)
        assert stored is not None and stored.record.room.version == 2 and [a.seq for a in stored.actions] == [1]


def test_a_write_fenced_by_an_older_lease_token_is_refused_at_the_right_version(store: Store) -> None:
    """Fencing (migration 0013): each takeover claims a greater token; a move, a batch of moves and
    a rematch offer that name an older one are refused in the same statement as the version check,
    even at the version the room is at; the owner's own token goes through."""
    rooms = [_room_with_match(store) for _ in range(2)]
    for room_id, _ in rooms:
        assert store.rooms.claim(room_id) == 1  # the paused owner
        assert store.rooms.claim(room_id) == 2  # the one that took the room over
    room_id, match_id = rooms[0]
    with pytest.raises(VersionConflict):
        store.actions.commit([replace(_play(room_id, match_id, 1, 1), lease=1)])
    stale_batch = [replace(_play(r, m, 1, 1), lease=1) for r, m in rooms]
    assert all(isinstance(outcome, VersionConflict) for outcome in store.actions.commit(stale_batch))
    with pytest.raises(VersionConflict):
        store.rooms.write(RematchOfferWrite(room_id, 1, None, None, lease=1))
    owners = [replace(_play(r, m, 1, 1), lease=2) for r, m in rooms]
    assert store.actions.commit(owners) == [None, None]  # the batch's fenced path, two statements
    for room_id, _ in rooms:
        stored = store.actions.load_room(room_id)
        assert stored is not None and stored.record.room.version == 2 and [a.seq for a in stored.actions] == [1]
        assert stored.record.room.lease_token == 2
    assert store.rooms.claim("r_nobody") is None


def test_r6_1_settlements_and_the_ledger_are_exact(store: Store) -> None:
    room_id, match_id = _room_with_match(store)
    stored = store.actions.load_room(room_id)
    assert stored is not None and stored.match is not None
    winner, loser = stored.match.player_ids
    amount = Decimal("0.1") * 3  # 0.30000000000000004 as a binary float
    end = MatchEnd(0, (1, 2), "resign", (0, 0), Decimal("0.1"), "EUR", (SettlementRow(winner, loser, 3, amount),))
    store.actions.commit(
        [ActionWrite(room_id, 1, match_id, 1, ActionRecord(seat=1, kind="resign"), 1, (), end, (0, 0))]
    )
    [entry] = store.history.ledger(winner)
    assert entry["balance"] == {"EUR": "0.3"} and entry["won"] == 1
    [entry] = store.history.ledger(loser)
    assert entry["balance"] == {"EUR": "-0.3"} and entry["won"] == 0


def test_a_second_joiner_finds_the_seat_taken(store: Store) -> None:
    room_id, _ = _room_with_match(store)
    cleo, _ = store.players.create("Cleo")
    match = NewMatch(id="m_other", options={"target": 301}, seed=8, first_dealer=0, seat_ids=("x", cleo.id))
    with pytest.raises(SeatTaken):
        store.rooms.write(JoinWrite(room_id, cleo.id, match))


def test_r6_2_deadlines_are_stored_and_cleared_with_the_match_end(store: Store) -> None:
    room_id, match_id = _room_with_match(store)
    deadline = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    store.rooms.write(AbsenceWrite(room_id, 1, deadline))
    record = store.rooms.record(room_id)
    assert record is not None
    [row] = record.deadlines
    assert (row.kind, row.seat) == ("absence", 1)
    assert row.deadline.replace(tzinfo=row.deadline.tzinfo or UTC) == deadline
    first, second = record.room.seat_ids
    assert first is not None and second is not None
    end = MatchEnd(0, (1, 2), "absence", (0, 0), Decimal(0), "chips", (SettlementRow(first, second, 301, Decimal(0)),))
    store.actions.commit(
        [ActionWrite(room_id, 1, match_id, 1, ActionRecord(1, "resign", reason="absence"), None, (), end, (0, 0))]
    )
    assert store.rooms.record(room_id).deadlines == []  # type: ignore[union-attr]


def test_an_absence_clock_fenced_by_an_older_lease_token_is_not_stored(store: Store) -> None:
    # a paused owner's clock for a seat (R6.2) after another process took the room over (issue 44)
    room_id, _ = _room_with_match(store)
    old, new = store.rooms.claim(room_id), store.rooms.claim(room_id)
    assert old is not None and new == old + 1
    deadline = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    with pytest.raises(VersionConflict):
        store.rooms.write(AbsenceWrite(room_id, 1, deadline, lease=old))
    assert store.rooms.record(room_id).deadlines == []  # type: ignore[union-attr]
    store.rooms.write(AbsenceWrite(room_id, 1, deadline, lease=new))
    [row] = store.rooms.record(room_id).deadlines  # type: ignore[union-attr]
    assert (row.kind, row.seat) == ("absence", 1)
    store.rooms.write(AbsenceWrite(room_id, 1, None, lease=new))
    assert store.rooms.record(room_id).deadlines == []  # type: ignore[union-attr]
    assert store.rooms.record(room_id).room.lease_token == new  # type: ignore[union-attr]


def test_a_socket_ticket_opens_once_and_only_in_time(store: Store) -> None:
    anna, _ = store.players.create("Anna")
    ticket = store.players.issue_ticket(anna.id, timedelta(seconds=30))
    assert ticket and anna.id not in ticket
    player = store.players.redeem_ticket(ticket)
    assert player is not None and player.id == anna.id
    assert store.players.redeem_ticket(ticket) is None  # single use
    expired = store.players.issue_ticket(anna.id, timedelta(seconds=-1))
    assert store.players.redeem_ticket(expired) is None
    assert store.players.redeem_ticket("not-a-ticket") is None
