"""Backups taken while the game runs, restored, and played on (docs/operating.md).

``python -m backend.admin backup FILE`` (SQLite's online backup API; ``pg_dump`` for PostgreSQL)
runs while two players are in the middle of a match and go on playing; the server is stopped, the
backup restored (``restore FILE``), the server started again: the table is back at the version
it had when the backup was taken, and the match is played on from there to its end.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.support.client import Seat, create_table, play_moves
from tests.support.services import ROOT, ServerProcess, database


def admin(url: str, *args: str) -> None:
    command = [sys.executable, "-m", "backend.admin", "--database-url", url, *args]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def logged_actions(url: str, match_id: str) -> list[int]:
    engine = create_engine(url)
    with engine.connect() as connection:
        seqs = connection.execute(text("SELECT seq FROM actions WHERE match_id = :m ORDER BY seq"), {"m": match_id})
        found = [row[0] for row in seqs]
    engine.dispose()
    return found


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def test_a_backup_taken_mid_match_restores_and_the_match_plays_on(kind: str, tmp_path: Path) -> None:
    rng = random.Random(f"backup-{kind}")
    with database(kind, tmp_path) as url:
        server = ServerProcess(url, tmp_path / "server.log", BOT_DELAY_S="0")
        server.start()
        try:
            anna, ben = await create_table(server.url, server.ws_url, {"target": 301})
            await play_moves((anna, ben), rng, max_moves=6)
            assert anna.state is not None
            saved = anna.state["version"]
            match_id = anna.state["room"]["match_id"]
            backup = tmp_path / f"backup.{kind}"
            admin(url, "backup", str(backup))  # while the server runs
            assert backup.stat().st_size > 0
            await play_moves((anna, ben), rng, max_moves=4)  # the game goes on after the backup
            assert anna.state["version"] > saved
            await anna.close()
            await ben.close()
            server.stop()
            admin(url, "restore", str(backup))
            server.start()
            seats = (Seat(anna.player, anna.room_id, server.ws_url), Seat(ben.player, ben.room_id, server.ws_url))
            for seat, before in zip(seats, (anna, ben), strict=True):
                seat.next_id = before.next_id
                state = await seat.connect()
                assert state["version"] == saved  # exactly where the backup was taken
            await play_moves(seats, rng)
            assert seats[0].view["winner"] is not None and seats[0].view["totals"] == seats[1].view["totals"]
        finally:
            server.stop()
        assert not server.errors(), server.errors()
        seqs = logged_actions(url, match_id)
        assert seqs == list(range(1, len(seqs) + 1))
