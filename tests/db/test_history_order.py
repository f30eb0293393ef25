"""The history list is ordered by the time it shows for each match (issue 43): when the match ended,
or for one still being played when it began — not by when each began (a long match begun first
and ended last was listed below shorter ones that ended before it)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

from backend.db.engine import make_engine
from backend.db.models import Match
from backend.db.store import Store
from tests.support.match_rows import DealRow, MatchRows, add_room, write_matches
from tests.support.services import database

T0 = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)


def test_the_matches_come_newest_first_by_the_time_shown(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url:
        engine = make_engine(url)
        with engine.begin() as connection:
            for p in ("p_anna", "p_ben"):
                connection.execute(
                    sa.text("INSERT INTO players (id, name, token_hash, created_at) VALUES (:i, :n, :h, :t)"),
                    {"i": p, "n": p[2:], "h": f"h_{p}", "t": T0},
                )
            # (ended at, began at): the long one began first and ended last
            times = {"m_long": (15, 1), "m_short": (11, 5), "m_mid": (13, 9)}
            rows = [
                MatchRows(["p_anna", "p_ben"], [1, 2], T0 + timedelta(minutes=end), deals=[DealRow([1001, 0])], id=key)
                for key, (end, _) in times.items()
            ]
            rows.append(
                MatchRows(["p_anna", "p_ben"], [1, 2], T0 + timedelta(minutes=14), status="playing", id="m_now")
            )
            write_matches(connection, add_room(connection), rows)
            for key, (_, began) in times.items():
                connection.execute(
                    sa.update(Match).where(Match.id == key).values(started_at=T0 + timedelta(minutes=began))
                )
            # the one being played began at 7:14 (no end): shown, and placed, at its start
            connection.execute(
                sa.update(Match).where(Match.id == "m_now").values(started_at=T0 + timedelta(minutes=14))
            )
        engine.dispose()
        store = Store(url)
        try:
            matches, total = store.history.matches_of("p_anna", 10, 0)
            assert total == 4 and [m.id for m in matches] == ["m_long", "m_now", "m_mid", "m_short"]
            page, _ = store.history.matches_of("p_anna", 2, 2)
            assert [m.id for m in page] == ["m_mid", "m_short"]
        finally:
            store.dispose()
