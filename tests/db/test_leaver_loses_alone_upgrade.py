"""Migration 0010 on SQLite and PostgreSQL: ruling V0.10a (R6.2 for n players) for the matches stored
before it.

Until 0010 an abandoned match of three or four was stored with the one who left last and the others
ranked by their totals, the highest of them as ``winner_seat``. Here a database at 0009 holds such
matches, their head-to-head figures and the ratings as the old code kept them; after the upgrade
everyone who stayed is first (``result: won``), nobody is the winner, the ledger's and the
head-to-head's ``won`` count what the ruling says (the figures equal a recount), a table of two and a
match won on the target are unchanged, and ``ratings --rebuild --write`` then ranks the leaver last
and everyone who stayed tied first.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from backend.db.engine import make_engine
from backend.db.group_figures import record_group_match
from backend.db.head_to_head import recount
from backend.db.migrate import upgrade
from backend.db.store import Store
from backend.ratings import options_kind
from tests.support.services import database_at

BEFORE = "9d3a7e5f1b43"  # 0009
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
PLAYERS = ("p_anna", "p_ben", "p_cleo", "p_dan")
MCLEOD = {"variant": "mcleod", "stake_per_point": "0", "currency": "chips"}
THOUSAND4 = {"variant": "thousand4", "seats": 4, "stake_per_point": "0", "currency": "chips"}
TWOHAND = {"stake_per_point": "0", "currency": "chips"}  # no variant: two-hand 1001
# id, options, totals, end_reason, the seat that left, the places stored before 0010 (winner: the
# seat first alone), the places after it
MATCHES = [
    ("m3_resign", MCLEOD, (300, 120, 250), "resign", 1, (1, 3, 2), (1, 3, 1)),
    ("m4_absence", THOUSAND4, (50, 80, 90, 10), "absence", 2, (3, 2, 4, 1), (1, 1, 4, 1)),
    ("m3_leader_left", MCLEOD, (40, 610, -40), "resign", 1, (1, 3, 2), (1, 3, 1)),  # the leader left
    ("m2_resign", TWOHAND, (300, 455), "resign", 0, (2, 1), (2, 1)),  # a table of two: unchanged
    ("m3_target", MCLEOD, (1012, -40, 310), "target", None, (1, 3, 2), (1, 3, 2)),  # won: unchanged
]


@pytest.fixture(params=["sqlite", "postgres"])
def stored_before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_at(request.param, tmp_path, BEFORE, _fill) as url:
        yield url


def _fill(url: str) -> None:
    """The matches as the code before 0010 stored them: places, winner, head-to-head, ratings."""
    engine = make_engine(url)
    meta = sa.MetaData()
    meta.reflect(bind=engine)
    t = meta.tables
    with engine.begin() as connection:
        connection.execute(
            t["players"].insert(),
            [{"id": p, "name": p[2:].title(), "token_hash": f"h_{p}", "created_at": T0} for p in PLAYERS],
        )
        for n, (match_id, options, totals, reason, leaver, before, _) in enumerate(MATCHES):
            room, finished = f"r_{match_id}", T0 + timedelta(minutes=n)
            winner = before.index(1) if before.count(1) == 1 else None
            connection.execute(
                t["rooms"].insert(),
                {"id": room, "invite_code": f"i_{n}", "visibility": "public", "options": options,
                 "status": "finished", "seats": len(totals), "match_id": match_id, "version": 9,
                 "created_at": T0, "updated_at": finished},
            )  # fmt: skip
            connection.execute(
                t["matches"].insert(),
                {"id": match_id, "room_id": room, "options": options, "seed": "7", "first_dealer": 0,
                 "kind": options_kind(options), "status": "finished", "winner_seat": winner,
                 "end_reason": reason, "started_at": T0, "finished_at": finished},
            )  # fmt: skip
            connection.execute(
                t["match_seats"].insert(),
                [{"match_id": match_id, "seat": s, "player_id": PLAYERS[s], "total": total, "place": before[s]}
                 for s, total in enumerate(totals)],
            )  # fmt: skip
            last = (0, "play") if leaver is None else (leaver, "resign")
            connection.execute(
                t["actions"].insert(),
                [{"match_id": match_id, "seq": 1, "seat": (last[0] + 1) % len(totals), "kind": "play",
                  "card": "AH", "declare": False, "reason": None, "room_version": 1, "created_at": T0},
                 {"match_id": match_id, "seq": 2, "seat": last[0], "kind": last[1], "card": None, "declare": False,
                  "reason": reason if leaver is not None else None, "room_version": 2, "created_at": finished}],
            )  # fmt: skip
            record_group_match(connection, match_id, shared_column=False)  # as the code before 0012
    engine.dispose()
    store = Store(url)
    try:
        store.ratings.rebuild(write=True)  # the ratings the old places gave
    finally:
        store.dispose()


def test_0010_v0_10a_everyone_who_stayed_shares_first_place_and_the_counts_follow(stored_before: str) -> None:
    upgrade(stored_before)
    store = Store(stored_before)
    try:
        for match_id, _, _, _, _, _, after in MATCHES:
            match = store.history.match(match_id)
            assert match is not None and match.places == list(after), match_id
            assert match.winner_seat == (after.index(1) if after.count(1) == 1 else None), match_id
        # Anna stayed in all three abandoned matches (first in each), won m3_target and lost m2_resign.
        # Against one opponent `won` is "Anna first, the opponent not", `shared` both first (0012).
        ledger = {entry["opponent_id"]: entry for entry in store.history.ledger("p_anna")}
        assert (ledger["p_ben"]["played"], ledger["p_ben"]["won"], ledger["p_ben"]["shared"]) == (5, 3, 1)
        assert (ledger["p_cleo"]["played"], ledger["p_cleo"]["won"], ledger["p_cleo"]["shared"]) == (4, 2, 2)
        cleo = {entry["opponent_id"]: entry for entry in store.history.ledger("p_cleo")}
        assert (cleo["p_anna"]["won"], cleo["p_ben"]["won"], cleo["p_dan"]["won"]) == (0, 2, 0)
        assert (cleo["p_anna"]["shared"], cleo["p_ben"]["shared"], cleo["p_dan"]["shared"]) == (2, 0, 0)
        for group in (["p_anna", "p_ben"], ["p_anna", "p_cleo"], ["p_anna", "p_ben", "p_cleo"], list(PLAYERS)):
            kept = store.groups.head_to_head(group, False, 100, 0)
            with Session(store.engine) as session:
                figures, money = recount(session, group)
            assert kept.figures == figures and kept.money == money, group
        mcleod_trio = store.groups.head_to_head(["p_anna", "p_ben", "p_cleo"], False, 100, 0)
        won = {f.player_id: (f.won, f.shared) for f in mcleod_trio.figures if f.kind == "mcleod"}
        # of the three McLeod matches: Anna first in all (alone on the target), Ben left two, Cleo
        # first with Anna in the two abandoned
        assert (won["p_anna"], won["p_ben"], won["p_cleo"]) == ((1, 2), (0, 0), (0, 2))

        stale = store.ratings.rebuild(write=False)
        assert stale.differences  # the ratings still follow the old places until they are rebuilt
        assert store.ratings.rebuild(write=True).written
        assert store.ratings.rebuild(write=False).differences == []
        for match_id, _, _, _, leaver, _, after in MATCHES:
            changes = {c.seat: c for c in store.ratings.changes_of(match_id)}
            assert [changes[seat].place for seat in sorted(changes)] == list(after)
            if leaver is not None and len(after) > 2:
                stayed = [changes[seat] for seat in changes if seat != leaver]
                assert all(c.mu_after > c.mu_before for c in stayed), match_id  # each of them won
                assert changes[leaver].mu_after < changes[leaver].mu_before
    finally:
        store.dispose()
