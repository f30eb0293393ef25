"""Migration 0008 on a database written by the code of before (``fixtures/main-cf7bfcd.sqlite``, see
test_upgrade_from_main.py), on SQLite and PostgreSQL: every match gets its game kind from its
options (``backend.ratings.kinds.options_kind``), and the head-to-head figures it fills from the stored matches are
those the aggregate queries over the matches give (``head_to_head.recount``), for every group.
"""

from __future__ import annotations

import json
from itertools import combinations

import sqlalchemy as sa
from sqlalchemy.orm import Session

from backend.db.engine import make_engine
from backend.db.head_to_head import recount
from backend.db.store import Store
from backend.ratings import RATING_KINDS, options_kind
from tests.db.test_upgrade_from_main import upgraded

__all__ = ["upgraded"]  # the fixture, shared


def test_kinds_of_every_stored_match(upgraded: str) -> None:
    engine = make_engine(upgraded)
    with engine.connect() as connection:
        rows = connection.execute(sa.text("SELECT options, kind FROM matches")).all()
    engine.dispose()
    assert rows
    for options, kind in rows:
        stored = options if isinstance(options, dict) else json.loads(options)  # SQLite: the JSON text
        assert kind == options_kind(stored) and kind in RATING_KINDS
    assert {kind for _, kind in rows} >= {"twohand24", "twohand32", "mcleod"}


def test_the_filled_figures_equal_a_recount_for_every_group(upgraded: str) -> None:
    store = Store(upgraded)
    try:
        with store.engine.connect() as connection:
            seats = connection.execute(
                sa.text(
                    "SELECT s.match_id, s.player_id FROM match_seats s JOIN players p ON p.id = s.player_id "
                    "JOIN matches m ON m.id = s.match_id WHERE p.bot_level IS NULL AND m.status = 'finished'"
                )
            ).all()
        people: dict[str, list[str]] = {}
        for match_id, player_id in seats:
            people.setdefault(match_id, []).append(player_id)
        groups = {
            tuple(sorted(g)) for ids in people.values() for n in range(2, len(ids) + 1) for g in combinations(ids, n)
        }
        assert len(groups) >= 2
        for group in groups:
            kept = store.groups.head_to_head(list(group), False, 100, 0)
            with Session(store.engine) as session:
                figures, money = recount(session, list(group))
            assert kept.figures == figures and kept.money == money, group
            assert kept.figures and kept.people_matches + kept.computer_matches >= 1
    finally:
        store.dispose()
