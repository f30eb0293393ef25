"""Migration 0004 on SQLite and PostgreSQL: a match's bounded chat log, and one-time device sign-in links."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import inspect, select

from backend.db.codes import DeviceLinkCode
from backend.db.common import hash_token
from backend.db.migrate import downgrade, upgrade
from backend.db.models import ChatLine, DeviceLink
from backend.db.store import Store
from backend.db.writes import ChatWrite, JoinWrite, NewMatch

T0 = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = Store(database_url)
    yield store
    store.dispose()


def _match(store: Store) -> tuple[str, str]:
    anna, _ = store.players.create("Anna")
    ben, _ = store.players.create("Ben")
    room = store.rooms.create(anna.id, {"target": 301}, "public")
    match = NewMatch(id=f"m_{room.id}", options={"target": 301}, seed=7, first_dealer=0, seat_ids=(anna.id, ben.id))
    store.rooms.write(JoinWrite(room.id, ben.id, match))
    return room.id, match.id


NEW_TABLES = {"chat_lines", "device_links", "device_tokens"}


def test_migration_0004_goes_down_and_up_again(store: Store, database_url: str) -> None:
    assert set(inspect(store.engine).get_table_names()) >= NEW_TABLES
    downgrade(database_url, "5b1f0c9e7d21")
    store.engine.dispose()
    assert not NEW_TABLES & set(inspect(store.engine).get_table_names())
    upgrade(database_url)
    store.engine.dispose()
    assert set(inspect(store.engine).get_table_names()) >= NEW_TABLES
    upgrade(database_url)  # already at head: nothing to do, nothing fails


def test_the_chat_log_is_stored_with_the_match_and_bounded(store: Store) -> None:
    room_id, match_id = _match(store)
    for n in range(7):
        store.rooms.write(ChatWrite(match_id, n % 2, f"line {n} ✓ <i>", T0 + timedelta(seconds=n), keep=5))
    stored = store.actions.load_room(room_id)
    assert stored is not None
    assert [line.text for line in stored.chat] == [f"line {n} ✓ <i>" for n in range(2, 7)]
    assert [line.seat for line in stored.chat] == [0, 1, 0, 1, 0]
    with store.engine.connect() as connection:
        assert len(connection.execute(select(ChatLine.id)).all()) == 5  # older lines are gone, not hidden


def test_a_device_link_signs_in_once_and_only_in_time(store: Store) -> None:
    anna, anna_token = store.players.create("Anna")
    code, expires = store.players.issue_device_link(anna.id, T0, timedelta(minutes=10))
    assert expires == T0 + timedelta(minutes=10) and anna_token not in code
    with store.engine.connect() as connection:
        hashes = connection.execute(select(DeviceLink.code_hash)).scalars().all()
    assert hashes == [hash_token(code)]  # only the hash is stored
    outcome = store.players.redeem_device_link(code, T0 + timedelta(minutes=9))
    assert not isinstance(outcome, DeviceLinkCode)
    player, token = outcome
    assert player.id == anna.id and token != anna_token
    for held in (token, anna_token):  # the new device has a token of its own; the first keeps its own
        signed_in = store.players.by_token(held)
        assert signed_in is not None and signed_in.id == anna.id
    assert store.players.redeem_device_link(code, T0 + timedelta(minutes=9)) == DeviceLinkCode.DEVICE_LINK_USED
    late, _ = store.players.issue_device_link(anna.id, T0, timedelta(minutes=10))
    assert store.players.redeem_device_link(late, T0 + timedelta(minutes=10)) == DeviceLinkCode.DEVICE_LINK_EXPIRED
    assert store.players.redeem_device_link("not-a-code", T0) == DeviceLinkCode.DEVICE_LINK_UNKNOWN
