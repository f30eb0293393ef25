"""The ratings' reads and writes (``backend.ratings`` does the arithmetic): a finished match's change,
applied in the transaction that stores the match, and what a rebuild reads and replaces.

On PostgreSQL the rows of a match's players are locked (``SELECT … FOR UPDATE``) in player-id order
before they are read, so that two processes finishing matches of the same person at once apply
one change after the other, never one over the other; rows of newcomers are made first
(``INSERT … ON CONFLICT DO NOTHING``, in the same order). SQLite has one writer at a time anyway.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, bindparam, delete, func, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from backend.ratings import INITIAL, Skill, match_kind, rate
from backend.ratings.rebuild import Change, RatedMatch, Replayed, StoredRating
from backend.rooms.options import TableOptions

from .models import Match, MatchSeat, Player, Rating, RatingChange

__all__ = ["apply_match", "lock_ratings", "rated_history", "replace_all", "stored_changes", "stored_ratings"]

_UPDATE_RATING = (
    update(Rating)
    .where(Rating.player_id == bindparam("player"), Rating.kind == bindparam("rated_kind"))
    .values(
        mu=bindparam("new_mu"), sigma=bindparam("new_sigma"), matches=bindparam("count"), updated_at=bindparam("now")
    )
)


def apply_match(
    connection: Connection,
    match_id: str,
    kind: str,
    player_ids: Sequence[str],
    places: Sequence[int],
    now: datetime,
) -> list[Change]:
    """Rate a finished match: every player's rating in ``kind`` moves by ``places`` (seat order)
    and each change is logged. Runs inside the caller's transaction."""
    order = sorted(set(player_ids))
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    newcomers = [
        {"player_id": p, "kind": kind, "mu": INITIAL.mu, "sigma": INITIAL.sigma, "matches": 0, "updated_at": now}
        for p in order
    ]
    connection.execute(dialect.insert(Rating).values(newcomers).on_conflict_do_nothing())
    query = (
        select(Rating.player_id, Rating.mu, Rating.sigma, Rating.matches)
        .where(Rating.kind == kind, Rating.player_id.in_(order))
        .order_by(Rating.player_id)
        .with_for_update()
    )
    found = {row.player_id: (Skill(row.mu, row.sigma), row.matches) for row in connection.execute(query)}
    before = [found[p][0] for p in player_ids]
    after = rate(places, before)
    connection.execute(
        _UPDATE_RATING,
        [
            {
                "player": p,
                "rated_kind": kind,
                "new_mu": new.mu,
                "new_sigma": new.sigma,
                "count": found[p][1] + 1,
                "now": now,
            }
            for p, new in zip(player_ids, after, strict=True)
        ],
    )
    changes = [
        Change(match_id, p, kind, seat, place, old, new)
        for seat, (p, place, old, new) in enumerate(zip(player_ids, places, before, after, strict=True))
    ]
    _insert_changes(connection, changes, now)
    return changes


def _insert_changes(connection: Connection, changes: Sequence[Change], now: datetime) -> None:
    if not changes:
        return
    connection.execute(
        insert(RatingChange),
        [
            {
                "match_id": c.match_id,
                "player_id": c.player_id,
                "kind": c.kind,
                "seat": c.seat,
                "place": c.place,
                "mu_before": c.before.mu,
                "sigma_before": c.before.sigma,
                "mu_after": c.after.mu,
                "sigma_after": c.after.sigma,
                "created_at": now,
            }
            for c in changes
        ],
    )


def rated_history(connection: Connection) -> list[RatedMatch]:
    """Every finished match that changes ratings, in the order the changes were applied: the
    matches with logged changes in their changes' order (``rating_changes.id``), after the rated
    matches without any (finished before ratings were kept), which come in the order they finished."""
    computers = set(connection.scalars(select(Player.id).where(Player.bot_level.is_not(None))))
    seats: defaultdict[str, list[tuple[int, str, int | None]]] = defaultdict(list)
    finished = select(Match.id).where(Match.status == "finished")
    for row in connection.execute(
        select(MatchSeat.match_id, MatchSeat.seat, MatchSeat.player_id, MatchSeat.place).where(
            MatchSeat.match_id.in_(finished)
        )
    ):
        seats[row.match_id].append((row.seat, row.player_id, row.place))
    first_change = dict(
        connection.execute(
            select(RatingChange.match_id, func.min(RatingChange.id)).group_by(RatingChange.match_id)
        ).all()
    )
    rows = connection.execute(
        select(Match.id, Match.options, Match.finished_at)
        .where(Match.status == "finished")
        .order_by(Match.finished_at, Match.id)
    ).all()
    found: list[tuple[tuple[int, int], RatedMatch]] = []
    for position, row in enumerate(rows):
        seated = sorted(seats[row.id])
        player_ids = tuple(player_id for _, player_id, _ in seated)
        places = tuple(place for _, _, place in seated)
        if not seated or any(place is None for place in places):
            continue
        kind = match_kind(TableOptions.from_json(row.options), people_only=not computers.intersection(player_ids))
        if kind is None:
            continue
        change = first_change.get(row.id)
        key = (0, position) if change is None else (1, change)
        found.append((key, RatedMatch(row.id, kind, player_ids, tuple(p for p in places if p is not None))))
    found.sort(key=lambda item: item[0])
    return [match for _, match in found]


def stored_ratings(connection: Connection) -> dict[tuple[str, str], StoredRating]:
    return {
        (row.player_id, row.kind): StoredRating(Skill(row.mu, row.sigma), row.matches)
        for row in connection.execute(select(Rating.player_id, Rating.kind, Rating.mu, Rating.sigma, Rating.matches))
    }


def stored_changes(connection: Connection) -> list[Change]:
    """Every logged change, in the order applied."""
    return [
        Change(
            row.match_id,
            row.player_id,
            row.kind,
            row.seat,
            row.place,
            Skill(row.mu_before, row.sigma_before),
            Skill(row.mu_after, row.sigma_after),
        )
        for row in connection.execute(select(RatingChange).order_by(RatingChange.id))
    ]


def lock_ratings(connection: Connection) -> None:
    """Hold off every rating change until the transaction ends (PostgreSQL; SQLite has one writer)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("LOCK TABLE ratings, rating_changes IN EXCLUSIVE MODE"))


def replace_all(connection: Connection, replayed: Replayed, now: datetime) -> None:
    """Store ``replayed`` in place of every rating and change (under ``lock_ratings``)."""
    connection.execute(delete(RatingChange))
    connection.execute(delete(Rating))
    if replayed.ratings:
        connection.execute(
            insert(Rating),
            [
                {
                    "player_id": player_id,
                    "kind": kind,
                    "mu": rating.skill.mu,
                    "sigma": rating.skill.sigma,
                    "matches": rating.matches,
                    "updated_at": now,
                }
                for (player_id, kind), rating in sorted(replayed.ratings.items())
            ],
        )
    _insert_changes(connection, replayed.changes, now)
