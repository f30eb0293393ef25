"""A first place shared between two people is a draw between them (ruling V0.10a: everyone who
stayed when a player of three or four left is first), in the ledger per opponent and in the head to
head; migration 0012 rebuilds the stored head-to-head figures (SQLite and PostgreSQL).

The same matches serve both: Anna, Ben and Cleo at tables of three and two, a computer or two at
medium and one at hard. Per opponent the ledger's ``won`` counts the matches the player won and the
opponent lost, ``shared`` those both finished first; the computer is one opponent per level.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from backend.db.common import bot_player_id
from backend.db.engine import make_engine
from backend.db.head_to_head import recount
from backend.db.migrate import upgrade
from backend.db.store import Store
from tests.support.match_rows import DealRow, MatchRows, Owed, write_matches
from tests.support.services import database, database_at

BEFORE = "b7d1f3a9c2e5"  # 0011
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
MCLEOD = {"variant": "mcleod"}
A, B, C = "p_anna", "p_ben", "p_cleo"
MEDIUM, MEDIUM2, HARD = bot_player_id("medium"), bot_player_id("medium", 2), bot_player_id("hard")


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


MATCHES = [
    # 1. McLeod, Anna 600 – Ben 300 – Cleo 100 on the target: Anna won alone.
    MatchRows([A, B, C], [1, 2, 3], at(1), MCLEOD, [DealRow([600, 300, 100])]),
    # 2. Cleo resigned (R6.2): Anna and Ben share first place (V0.10a), Anna behind Ben.
    MatchRows([A, B, C], [1, 1, 3], at(2), MCLEOD, [DealRow([100, 300, 200])], end_reason="resign"),
    # 3. Ben stayed away: Anna and Cleo first, Anna behind Ben (no lead: no biggest win).
    MatchRows([A, B, C], [1, 3, 1], at(3), MCLEOD, [DealRow([200, 400, 200])], end_reason="absence"),
    # 4. Two-hand, Ben resigns while ahead: Anna first alone, with no lead; Ben owes her 0.10 EUR.
    MatchRows([A, B], [1, 2], at(4), deals=[DealRow([100, 300])], end_reason="resign", owed=[Owed(1, 0, 10)]),
    # 5–7. Anna and the computer at medium (two seats of it once), and at hard.
    MatchRows([A, MEDIUM, MEDIUM2], [1, 2, 3], at(5), MCLEOD, [DealRow([600, 300, 100])]),
    MatchRows([A, MEDIUM], [2, 1], at(6), deals=[DealRow([100, 1001])]),
    MatchRows([A, B, MEDIUM], [1, 3, 1], at(7), MCLEOD, [DealRow([300, 200, 100])], end_reason="resign"),
    MatchRows([A, HARD], [1, 2], at(8), deals=[DealRow([1001, 100])]),
]


def _people(connection: sa.Connection) -> None:
    rows = [
        {"id": p, "name": p[2:].title(), "token_hash": f"h_{p}", "bot_level": None, "created_at": T0} for p in (A, B, C)
    ]
    rows += [
        {"id": MEDIUM, "name": "Computer (medium)", "token_hash": "h_m", "bot_level": "medium", "created_at": T0},
        {"id": MEDIUM2, "name": "Computer 2 (medium)", "token_hash": "h_m2", "bot_level": "medium", "created_at": T0},
        {"id": HARD, "name": "Computer (hard)", "token_hash": "h_h", "bot_level": "hard", "created_at": T0},
    ]
    connection.execute(sa.table("players", *(sa.column(k) for k in rows[-1])).insert(), rows)


def _fill(url: str, shared_column: bool) -> None:
    engine = make_engine(url)
    with engine.begin() as connection:
        _people(connection)
        # The room through the table as it is at this revision (the model's later columns, such as
        # 0013's lease_token, are not there yet at 0011).
        rooms = sa.Table("rooms", sa.MetaData(), autoload_with=connection)
        connection.execute(
            rooms.insert().values(
                id="r_1", invite_code="i_1", visibility="private", options={}, status="finished", seats=3, version=0,
                created_at=T0, updated_at=T0,
            )
        )  # fmt: skip
        write_matches(connection, "r_1", MATCHES, shared_column=shared_column)
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def stored_before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_at(request.param, tmp_path, BEFORE, lambda url: _fill(url, shared_column=False)) as url:
        yield url


def _figures(store: Store, group: list[str]) -> dict[tuple[str, str], tuple[int, int, int, int | None, int]]:
    """(player, kind) → (won, shared, lost, biggest win's margin, streak), people only."""
    found = store.groups.head_to_head(group, False, 50, 0)
    return {
        (f.player_id, f.kind): (
            f.won,
            f.shared,
            f.matches - f.won - f.shared,
            f.biggest_win and f.biggest_win.margin,
            f.streak,
        )
        for f in found.figures
        if not f.computers
    }


def test_0012_rebuilds_the_head_to_head_with_a_shared_first_place_apart(stored_before: str) -> None:
    engine = make_engine(stored_before)
    with engine.connect() as connection:  # before: both who stayed had "won" against each other
        old = (
            "SELECT won FROM group_figures"
            " WHERE group_key = :g AND kind = 'mcleod' AND player_id = :p AND NOT computers"
        )
        assert connection.execute(sa.text(old), {"g": f"{A},{B}", "p": B}).scalar() == 1
        assert connection.execute(sa.text(old), {"g": f"{A},{B}", "p": A}).scalar() == 3
    engine.dispose()
    upgrade(stored_before)
    store = Store(stored_before)
    try:
        pair = _figures(store, [A, B])
        # McLeod 1–3: Anna won 1 (target) and 3 (Ben left), shared 2 with Ben; her biggest win is
        # match 1's lead of 300 (3 had none). Ben: shared 2, lost 1 and 3. Latest (3): Anna won.
        assert pair[(A, "mcleod")] == (2, 1, 0, 300, 1)
        assert pair[(B, "mcleod")] == (0, 1, 2, None, -1)
        # Two-hand 4: Anna won on Ben's resignation while behind — a win, but no biggest win.
        assert pair[(A, "twohand24")] == (1, 0, 0, None, 1)
        trio = _figures(store, [A, B, C])
        assert trio[(A, "mcleod")] == (1, 2, 0, 300, 0)  # 2 with Ben, 3 with Cleo: the latest shared
        assert trio[(C, "mcleod")] == (0, 1, 2, None, 0)
        anna_cleo = _figures(store, [A, C])
        assert anna_cleo[(A, "mcleod")] == (2, 1, 0, 300, 0)  # the latest (3) shared with Cleo
        for group in ([A, B], [A, C], [B, C], [A, B, C]):
            kept = store.groups.head_to_head(group, False, 50, 0)
            with Session(store.engine) as session:
                figures, money = recount(session, group)
            assert kept.figures == figures and kept.money == money, group
    finally:
        store.dispose()


def test_the_ledger_counts_won_and_shared_per_opponent_and_the_computer_per_level(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url:
        _fill(url, shared_column=True)
        store = Store(url)
        try:
            anna = {e["opponent_id"]: e for e in store.history.ledger(A)}
            figures = {k: (e["played"], e["won"], e["shared"]) for k, e in anna.items()}
            # Ben: 1, 3, 4 won (Ben lost), 2 shared; 7 too (Ben left, Anna first with the computer).
            assert figures[B] == (5, 4, 1)
            assert figures[C] == (3, 2, 1)  # 1 and 2 won (Cleo last), 3 shared
            # The computer at medium is one opponent: 5 (two seats, one match) won, 6 lost, 7 shared.
            assert figures[MEDIUM] == (3, 1, 1) and MEDIUM2 not in figures
            assert (
                anna[MEDIUM]["opponent_bot_level"] == "medium" and anna[MEDIUM]["opponent_name"] == "Computer (medium)"
            )
            assert figures[HARD] == (1, 1, 0) and anna[HARD]["opponent_bot_level"] == "hard"
            assert anna[B]["balance"] == {"EUR": "0.10"}
            assert store.history.ledger(A)[0]["opponent_id"] == HARD  # most recent first
            ben = {e["opponent_id"]: e for e in store.history.ledger(B)}
            assert (ben[A]["played"], ben[A]["won"], ben[A]["shared"], ben[A]["balance"]) == (5, 0, 1, {"EUR": "-0.10"})
            assert (ben[C]["played"], ben[C]["won"], ben[C]["shared"]) == (3, 1, 0)  # 2 won; 1 and 3 neither first
            assert (ben[MEDIUM]["played"], ben[MEDIUM]["won"], ben[MEDIUM]["shared"]) == (1, 0, 0)
        finally:
            store.dispose()
