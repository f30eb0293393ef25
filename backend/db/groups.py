"""Head to head: the figures of a group of people, a page of its matches, and the series of its
totals (the queries are ``head_to_head.py``'s and ``group_series.py``'s)."""

from __future__ import annotations

from .database import Database
from .group_series import Series, group_series
from .head_to_head import HeadToHead, head_to_head


class GroupRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    def head_to_head(self, player_ids: list[str], computers: bool, limit: int, offset: int) -> HeadToHead:
        """The figures of a group of people and one page of its matches, every query read in one
        snapshot (on PostgreSQL one REPEATABLE READ transaction), so that the figures and the page
        agree even while a match of the group ends."""
        with self._db.snapshot() as session:
            return head_to_head(session, player_ids, computers, limit, offset)

    def series(self, player_ids: list[str]) -> Series:
        """Every people-only match of a group of people, oldest first, as each member's final total
        (``group_series``: one query, so one snapshot)."""
        with self._db.sessions() as session:
            return group_series(session, player_ids)
