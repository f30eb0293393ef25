"""Migration 0006 on SQLite and PostgreSQL: matches stored before every seat had a place get one.

Until 0006 a match of three or four that one player abandoned (R6.2, V0.10a) was stored without a
winner and without saying who left, so its history gave that seat no result. The upgrade ranks
every finished match with the engine's ``places`` (the seat whose ``resign`` ended the match last,
the others by their totals), fills ``winner_seat`` where one seat is first alone, and the history
and ledger then give every seat a result; the downgrade puts the old shape back.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from backend.db.engine import make_engine
from backend.db.migrate import downgrade, upgrade
from backend.db.store import Store
from tests.support.services import database_at

BEFORE = "9c4b1e7f2a05"  # 0005: seat tables, no place
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
PLAYERS = ("p_anna", "p_ben", "p_cleo", "p_dan")
# id, seats' totals, status, winner_seat, end_reason, the last action (seat, kind), expected places
MATCHES = [
    ("m2_target", (1012, 640), "finished", 0, "target", (1, "play"), [1, 2]),
    ("m2_resign", (300, 455), "finished", 1, "resign", (0, "resign"), [2, 1]),
    ("m3_target", (320, -40, 310), "finished", 0, "target", (2, "play"), [1, 3, 2]),
    ("m3_resign", (120, 250, 120), "finished", None, "resign", (1, "resign"), [1, 3, 1]),
    ("m4_absence", (50, 80, 90, 10), "finished", None, "absence", (2, "resign"), [1, 1, 4, 1]),  # V0.10a
    ("m3_playing", (40, 50, 30), "playing", None, None, (0, "bid"), [None, None, None]),
]


@pytest.fixture(params=["sqlite", "postgres"])
def stored_before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_at(request.param, tmp_path, BEFORE, _fill) as url:
        yield url


def _fill(url: str) -> None:
    engine = make_engine(url)
    meta = sa.MetaData()
    meta.reflect(bind=engine)
    t = meta.tables
    options = {"variant": "mcleod", "stake_per_point": "0", "currency": "chips"}
    with engine.begin() as connection:
        connection.execute(
            t["players"].insert(),
            [{"id": p, "name": p[2:].title(), "token_hash": f"h_{p}", "created_at": T0} for p in PLAYERS],
        )
        for n, (match_id, totals, status, winner, reason, (seat, kind), _) in enumerate(MATCHES):
            room = f"r_{match_id}"
            connection.execute(
                t["rooms"].insert(),
                {"id": room, "invite_code": f"i_{n}", "visibility": "public", "options": options, "status": status,
                 "seats": len(totals), "match_id": match_id, "version": 9, "created_at": T0, "updated_at": T0},
            )  # fmt: skip
            connection.execute(
                t["matches"].insert(),
                {"id": match_id, "room_id": room, "options": options, "seed": "7", "first_dealer": 0,
                 "status": status, "winner_seat": winner, "end_reason": reason, "started_at": T0,
                 "finished_at": None if status == "playing" else T0},
            )  # fmt: skip
            connection.execute(
                t["match_seats"].insert(),
                [{"match_id": match_id, "seat": s, "player_id": PLAYERS[s], "total": total}
                 for s, total in enumerate(totals)],
            )  # fmt: skip
            connection.execute(
                t["actions"].insert(),
                [{"match_id": match_id, "seq": 1, "seat": (seat + 1) % len(totals), "kind": "play", "card": "AH",
                  "declare": False, "reason": None, "room_version": 1, "created_at": T0},
                 {"match_id": match_id, "seq": 2, "seat": seat, "kind": kind, "card": None, "declare": False,
                  "reason": reason if kind == "resign" else None, "room_version": 2, "created_at": T0}],
            )  # fmt: skip
    engine.dispose()


def test_0006_gives_every_seat_of_every_finished_match_a_place_and_a_result(stored_before: str) -> None:
    upgrade(stored_before)
    store = Store(stored_before)
    try:
        for match_id, _, status, _, _, _, expected in MATCHES:
            match = store.history.match(match_id)
            assert match is not None
            assert match.places == (None if status == "playing" else expected), match_id
            firsts = [seat for seat, place in enumerate(expected) if place == 1]
            assert match.winner_seat == (firsts[0] if len(firsts) == 1 else None), match_id
        ledger = {entry["opponent_id"]: entry for entry in store.history.ledger("p_cleo")}
        # Cleo sat at the three finished tables of three and four, first (shared with Anna) in one of
        # them; those were played for nothing, so only the matches and results make her ledger
        assert (ledger["p_anna"]["played"], ledger["p_anna"]["won"], ledger["p_anna"]["shared"]) == (3, 0, 1)
        assert ledger["p_anna"]["balance"] == {}
        assert (ledger["p_dan"]["played"], ledger["p_dan"]["won"]) == (1, 0)
    finally:
        store.dispose()
    downgrade(stored_before, BEFORE)
    engine = make_engine(stored_before)
    with engine.connect() as connection:
        winners = {
            row.id: row.winner_seat for row in connection.execute(sa.text("SELECT id, winner_seat FROM matches"))
        }
        columns = {c["name"] for c in sa.inspect(connection).get_columns("match_seats")}
    engine.dispose()
    assert "place" not in columns
    assert winners == {match_id: winner for match_id, _, _, winner, _, _, _ in MATCHES}
    upgrade(stored_before)  # and up again
