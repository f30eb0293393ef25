"""Migration 0009 on SQLite and PostgreSQL: the stored analyses of finished deals (issue 26), and the
one transaction in which a deal's analysis is claimed within its asker's limits."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import inspect

from backend.db.analyses import AskerLimits, Claimed, Found, OverLimit
from backend.db.migrate import downgrade, upgrade
from backend.db.models import Analysis
from backend.db.store import Store
from backend.db.writes import JoinWrite, NewMatch

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
BEFORE = "8b2f6c4d0e32"  # 0008


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = Store(database_url)
    yield store
    store.dispose()


def _match(store: Store) -> str:
    anna, _ = store.players.create("Anna")
    ben, _ = store.players.create("Ben")
    room = store.rooms.create(anna.id, {"target": 301}, "public")
    match = NewMatch(id=f"m_{room.id}", options={"target": 301}, seed=7, first_dealer=0, seat_ids=(anna.id, ben.id))
    store.rooms.write(JoinWrite(room.id, ben.id, match))
    return match.id


def test_migration_0009_goes_down_and_up_again(store: Store, database_url: str) -> None:
    assert "deal_analyses" in inspect(store.engine).get_table_names()
    downgrade(database_url, BEFORE)
    store.engine.dispose()
    assert "deal_analyses" not in inspect(store.engine).get_table_names()
    upgrade(database_url)
    store.engine.dispose()
    assert "deal_analyses" in inspect(store.engine).get_table_names()
    assert {index["name"] for index in inspect(store.engine).get_indexes("deal_analyses")} == {"ix_deal_analyses_asker"}


def _limits(now: datetime, per_window: int = 2) -> AskerLimits:
    return AskerLimits(
        stale_before=now - timedelta(minutes=10), window_start=now - timedelta(hours=1), per_window=per_window
    )


def test_a_claim_starts_a_deal_once_within_the_askers_limits(store: Store) -> None:
    match_id = _match(store)

    def claim(number: int, asker: str, now: datetime, serves: bool = True) -> Claimed | Found | OverLimit:
        return store.analyses.claim(
            match_id, number, asker=asker, version=1, now=now, serves=lambda _: serves, limits=_limits(now)
        )

    first = claim(0, "p_anna", T0)
    assert isinstance(first, Claimed) and (first.row.status, first.row.done, first.row.asker) == ("queued", 0, "p_anna")
    assert isinstance(claim(0, "p_ben", T0), Found)  # stored and serving: nothing is started
    busy = claim(1, "p_anna", T0)  # one in flight per asker
    assert isinstance(busy, OverLimit) and "one analysis at a time" in busy.message
    store.analyses.progress(match_id, 0, 3, 24, T0)
    store.analyses.finish(match_id, 0, {"version": 1}, T0 + timedelta(seconds=5))
    assert isinstance(claim(1, "p_anna", T0 + timedelta(seconds=5)), Claimed)
    store.analyses.fail(match_id, 1, "x" * 300, T0 + timedelta(seconds=6))
    failed = store.analyses.get(match_id, 1)
    assert failed is not None and failed.status == "failed" and failed.message == "x" * 200
    over = claim(2, "p_anna", T0 + timedelta(seconds=7))  # two started within the hour
    assert isinstance(over, OverLimit) and "an hour" in over.message
    again = claim(1, "p_anna", T0 + timedelta(hours=1, seconds=1), serves=False)  # the first is an hour old
    assert isinstance(again, Claimed) and again.row.status == "queued" and again.row.message is None
    done = store.analyses.get(match_id, 0)
    assert done is not None and (done.status, done.done, done.total, done.result) == ("done", 3, 24, {"version": 1})
    assert [row.number for row in store.analyses.of_match(match_id)] == [0, 1]
    assert isinstance(store.analyses.get(match_id, 0), Analysis)
