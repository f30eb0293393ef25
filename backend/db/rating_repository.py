"""Reading a player's ratings and what a match did to them, and rebuilding every rating from the
stored matches (the queries themselves are ``ratings.py``'s, shared with the finishing move)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from backend.ratings.rebuild import change_differences, differences, replay

from . import ratings
from .database import Database
from .models import Rating, RatingChange, utcnow


@dataclass(frozen=True)
class RatingsRebuild:
    """What a rebuild of the ratings found: the rated matches replayed, the ratings they give, and
    where the stored ratings differ from them (none: equal); ``written`` if they replaced them."""

    matches: int
    ratings: int
    differences: list[str]
    written: bool


class RatingRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    def changes_of(self, match_id: str) -> list[RatingChange]:
        """What a finished match did to its players' ratings (none: it was not rated)."""
        with self._db.sessions() as session:
            query = select(RatingChange).where(RatingChange.match_id == match_id).order_by(RatingChange.id)
            return list(session.scalars(query).all())

    def of_player(self, player_id: str) -> list[Rating]:
        """A player's ratings, one per game kind the player has been rated in."""
        with self._db.sessions() as session:
            return list(
                session.scalars(select(Rating).where(Rating.player_id == player_id).order_by(Rating.kind)).all()
            )

    def rebuild(self, write: bool = False) -> RatingsRebuild:
        """Recompute every rating from the stored matches and compare it with the stored ratings;
        with ``write`` store the recomputed ones (and their changes) in their place, every rating
        change of the server held off meanwhile. Without ``write``, PostgreSQL reads everything in one
        snapshot (REPEATABLE READ), so that a match finishing meanwhile is in both sides or neither."""
        engine = self._db.engine
        if not write and self._db.postgres:
            engine = engine.execution_options(isolation_level="REPEATABLE READ")
        with self._db.write_lock, engine.begin() as connection:
            if write:
                ratings.lock_ratings(connection)
            history = ratings.rated_history(connection)
            replayed = replay(history)
            stored = ratings.stored_ratings(connection)
            found = differences(replayed.ratings, stored)
            found += change_differences(replayed.changes, ratings.stored_changes(connection))
            if write:
                ratings.replace_all(connection, replayed, utcnow())
        return RatingsRebuild(matches=len(history), ratings=len(replayed.ratings), differences=found, written=write)
