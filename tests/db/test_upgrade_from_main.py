"""A database written by the code of before the unification upgrades and replays in the one engine
(issue 21: "stored matches replay exactly"), on SQLite and on PostgreSQL.

``fixtures/main-cf7bfcd.sqlite`` was filled by the server of commit cf7bfcd (two engines, migration
0005) over real sockets: two-hand matches to the target (staked, friendly, V1 with Jungfrau and
``by_order``), a resigned one, matches still being played (one against the computer), a match of
every variant (people, computers, staked, simplified, Jungfrau) and a resigned V2 match of three
people. Here it is upgraded to the current head (on PostgreSQL after its rows are copied into a
database migrated to 0005) and every match is rebuilt from its rules, seed and action log by the
engine: the stored totals, every stored deal's figures, the settlements and the places (0006) must
be what the engine says; every room rebuilds and shows each seat its view; every deal's replay
document reproduces the stored result through the replay CLI.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from backend.db.action_log import action_record
from backend.db.engine import make_engine
from backend.db.migrate import upgrade
from backend.db.store import Store
from backend.engine import apply, legal_actions, new_game, payments, places, view_for
from backend.engine.cards import SUITS
from backend.history.entries import deal_result, seated_players
from backend.rooms.log import engine_action
from backend.rooms.options import TableOptions
from backend.rooms.replay import match_replay
from backend.rooms.sql_store import SqlRoomStore, rebuild
from tests.support.services import postgres_database
from tests.support.table_replay import check_cli_result

FIXTURE = Path(__file__).parent / "fixtures" / "main-cf7bfcd.sqlite"
BEFORE = "9c4b1e7f2a05"  # 0005, the head of commit cf7bfcd


def _copy_rows(source_url: str, target_url: str) -> None:
    """Every row of the fixture into a database at 0005, table by table in foreign-key order."""
    source, target = make_engine(source_url), make_engine(target_url)
    read, write = sa.MetaData(), sa.MetaData()
    read.reflect(bind=source)  # SQLite's declared types: the values come back as dicts, bools, datetimes
    write.reflect(bind=target)
    with source.connect() as reading, target.begin() as writing:
        for table in write.sorted_tables:
            if table.name == "alembic_version":
                continue
            rows = [dict(row._mapping) for row in reading.execute(sa.select(read.tables[table.name]))]
            if rows:
                writing.execute(table.insert(), rows)
        for name in ("deals", "settlements", "chat_lines"):  # the copied ids: new rows go on after them
            writing.execute(
                sa.text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), COALESCE(MAX(id), 1)) FROM {name}")
            )
    source.dispose()
    target.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def upgraded(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    copy = tmp_path / "main.sqlite"
    shutil.copy(FIXTURE, copy)
    sqlite_url = f"sqlite:///{copy}"
    if request.param == "sqlite":
        upgrade(sqlite_url)
        yield sqlite_url
        return
    with postgres_database() as url:
        upgrade(url, BEFORE)
        _copy_rows(sqlite_url, url)
        upgrade(url)
        yield url


def test_a_database_of_before_the_unification_upgrades_and_every_match_replays(upgraded: str) -> None:
    store = Store(upgraded)
    try:
        engine = make_engine(upgraded)
        with engine.connect() as connection:
            ids = [row.id for row in connection.execute(sa.text("SELECT id FROM matches ORDER BY started_at, id"))]
        engine.dispose()
        assert len(ids) == 13
        finished = variants = 0
        for match_id in ids:
            stored = store.history.match(match_id)
            assert stored is not None
            rules = TableOptions.from_json(stored.options).rules
            match = new_game(rules, int(stored.seed))
            rows = store.history.actions_of(match_id)
            for row in rows:
                match, _ = apply(match, row.seat, engine_action(action_record(row)))
            assert list(match.totals) == stored.totals, match_id
            assert match.first_dealer == stored.first_dealer
            deals = store.history.deals_of(match_id)
            assert [d.number for d in deals] == [r.number for r in match.history]
            for deal, record in zip(deals, match.history, strict=True):
                result = record.result
                assert (deal.dealer, int(deal.seed)) == (record.dealer, record.seed)
                assert deal.card_points == list(result.card_points)
                assert deal.declaration_points == list(result.declaration_points)
                assert deal.score == list(result.score) and deal.totals == list(record.totals)
                assert deal.declarations == [
                    {"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in record.declarations
                ]
                assert (deal.declarer, deal.contract, deal.made, deal.thrown_in) == (
                    result.declarer,
                    result.contract,
                    result.made,
                    result.thrown_in,
                )
            variants += not rules.two_hand
            if stored.status != "finished":
                assert not match.over
                continue
            finished += 1
            assert match.over and match.end_reason == stored.end_reason
            assert stored.places == list(places(match.totals, match.winner, match.loser))  # migration 0006
            firsts = [s for s, p in enumerate(stored.places) if p == 1]
            assert stored.winner_seat == (firsts[0] if len(firsts) == 1 else None) == match.winner
            owed = {
                (s.loser_id, s.winner_id, s.points_short, Decimal(s.amount))
                for s in store.history.settlements_for([match_id]).get(match_id, [])
                if Decimal(s.amount)  # a zero row of before: nothing is owed
            }
            players = stored.player_ids
            stake = TableOptions.from_json(stored.options).stake_per_point
            assert owed == {(players[p], players[q], short, a) for p, q, short, a in payments(match, stake)}
            download = match_replay(
                match_id,
                seated_players(stored, store.players.by_ids(players)),
                rules,
                int(stored.seed),
                [action_record(row) for row in rows],
                {d.number: deal_result(d).model_dump() for d in deals},
            )
            for deal in download["deals"]:
                check_cli_result(deal["replay"], deal["result"])
        assert (finished, variants) == (11, 7)
    finally:
        store.dispose()


def test_every_room_of_before_the_unification_rebuilds_and_shows_each_seat_its_view(upgraded: str) -> None:
    store = Store(upgraded)
    rooms = SqlRoomStore(store)
    try:
        engine = make_engine(upgraded)
        with engine.connect() as connection:
            room_ids = [row.id for row in connection.execute(sa.text("SELECT id FROM rooms ORDER BY id"))]
        engine.dispose()
        playing = 0
        for room_id in room_ids:
            loaded = asyncio.run(rooms.load(room_id))
            assert loaded is not None
            state = rebuild(loaded)
            if state.match is None:
                continue
            for seat in range(len(state.seats)):
                view = view_for(state.match, seat)
                assert view.totals == state.match.totals and view.deal.hand is not None
            if state.live:
                playing += 1
                turn = state.match.deal.turn
                assert turn is not None and legal_actions(state.match, turn)  # and play can go on
            else:
                assert state.stakes == tuple(s for s in state.stakes if s.amount)  # no zero stake
        assert playing == 2
    finally:
        rooms.close()
        store.dispose()
