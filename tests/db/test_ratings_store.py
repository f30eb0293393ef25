"""The ratings in the repository on SQLite and PostgreSQL (issue 27): applied in the transaction of
the finishing action or not at all, and rebuilt in the order applied, matches finished before
ratings were kept first."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest

from backend.db.store import Store
from backend.db.writes import ActionRecord, ActionWrite, JoinWrite, MatchEnd, NewMatch, VersionConflict
from backend.ratings import INITIAL, Skill, rate
from backend.ratings.rebuild import StoredRating


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = Store(database_url)
    yield store
    store.dispose()


def _match(store: Store, players: tuple[str, str], number: int) -> tuple[str, str]:
    room = store.rooms.create(players[0], {"target": 301}, "public")
    match = NewMatch(id=f"m_{number}_{room.id}", options={"target": 301}, seed=7, first_dealer=0, seat_ids=players)
    store.rooms.write(JoinWrite(room.id, players[1], match))
    return room.id, match.id


def _resigned(
    room_id: str, match_id: str, places: tuple[int, int], players: tuple[str, str], rated: bool
) -> ActionWrite:
    loser = places.index(2)
    end = MatchEnd(
        1 - loser, places, "resign", (0, 0), Decimal(0), "chips", (),
        rating_kind="twohand24" if rated else None, player_ids=players,
    )  # fmt: skip
    return ActionWrite(room_id, 1, match_id, 1, ActionRecord(seat=loser, kind="resign"), 1, (), end, (0, 0))


def test_a_refused_finishing_write_changes_no_rating(store: Store) -> None:
    anna, _ = store.players.create("Anna")
    ben, _ = store.players.create("Ben")
    room_id, match_id = _match(store, (anna.id, ben.id), 1)
    stale = _resigned(room_id, match_id, (1, 2), (anna.id, ben.id), rated=True)
    with pytest.raises(VersionConflict):
        store.actions.commit([ActionWrite(**{**_fields(stale), "expected_version": 7})])
    assert store.ratings.of_player(anna.id) == [] and store.ratings.changes_of(match_id) == []
    store.actions.commit([stale])
    [row] = store.ratings.of_player(anna.id)
    won, _ = rate([1, 2], [INITIAL, INITIAL])
    assert (row.kind, row.mu, row.sigma, row.matches) == ("twohand24", won.mu, won.sigma, 1)
    assert [c.player_id for c in store.ratings.changes_of(match_id)] == [anna.id, ben.id]


def _fields(write: ActionWrite) -> dict[str, object]:
    return {name: getattr(write, name) for name in write.__dataclass_fields__}


def test_the_rebuild_rates_matches_from_before_ratings_first_and_write_stores_them(store: Store) -> None:
    anna, _ = store.players.create("Anna")
    ben, _ = store.players.create("Ben")
    players = (anna.id, ben.id)
    old = _match(store, players, 1)  # finished before ratings were kept: no change logged
    store.actions.commit([_resigned(*old, (1, 2), players, rated=False)])
    new = _match(store, players, 2)
    store.actions.commit([_resigned(*new, (2, 1), players, rated=True)])
    assert [c.match_id for c in store.ratings.changes_of(old[1])] == []

    report = store.ratings.rebuild()
    assert report.matches == 2 and report.differences and not report.written
    first = rate([1, 2], [INITIAL, INITIAL])
    second = rate([2, 1], first)
    assert store.ratings.rebuild(write=True).written
    after = {
        row.player_id: StoredRating(Skill(row.mu, row.sigma), row.matches) for row in store.ratings.of_player(anna.id)
    }
    assert after == {anna.id: StoredRating(second[0], 2)}
    assert store.ratings.rebuild().differences == []
    changes = store.ratings.changes_of(old[1]) + store.ratings.changes_of(new[1])
    assert [(c.match_id, c.seat) for c in sorted(changes, key=lambda c: c.id)] == [
        (old[1], 0), (old[1], 1), (new[1], 0), (new[1], 1),
    ]  # fmt: skip
