"""Many tables at once on SQLite: 30 matches set up and played concurrently through real sockets,
every move sent as soon as the previous one is answered. No "database is locked", no error in the
server's log, every match finished and stored whole."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from tests.support.client import create_table, play_moves
from tests.support.services import ServerProcess

from .helpers import Database, check_action_log, settlements_owed

pytestmark = pytest.mark.slow

TABLES = 30


async def test_thirty_tables_playing_at_once_on_sqlite(sqlite_url: str, tmp_path: Path) -> None:
    server = ServerProcess(sqlite_url, tmp_path / "server.log")
    server.start()
    db = Database(sqlite_url)
    try:
        started = time.monotonic()
        options = {"target": 301, "stake_per_point": "0.05"}
        tables = await asyncio.gather(*(create_table(server.url, server.ws_url, options) for _ in range(TABLES)))
        moves = await asyncio.gather(*(play_moves(seats, random.Random(i)) for i, seats in enumerate(tables)))
        elapsed = time.monotonic() - started
        for seats in tables:
            assert all(seat.view["winner"] is not None for seat in seats)
            for seat in seats:
                await seat.close()
        matches = {seats[0].state["room"]["match_id"]: seats for seats in tables}
        assert len(matches) == TABLES
        for match_id, seats in matches.items():
            rows = check_action_log(db, match_id)
            assert len(rows) == seats[0].state["version"] - 1
            assert db.settlement_count(match_id) == settlements_owed(seats[0].state)
        finished = [m for m in db.matches() if m.id in matches]
        assert len(finished) == TABLES and all(m.status == "finished" for m in finished)
        print(f"{TABLES} tables: {sum(moves)} moves in {elapsed:.1f} s ({sum(moves) / elapsed:.0f} moves/s)")
    finally:
        server.stop()
        db.dispose()
    log = server.log_path.read_text(errors="replace")
    assert "database is locked" not in log
    assert not server.errors(), log[-3000:]
