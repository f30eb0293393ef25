"""Head to head's chart: every people-only match of a group, oldest first, as each member's final
total — a few numbers per match, so that the chart shows all of them without the full record of
each (the page of matches, ``head_to_head``, stays paginated).

One query: the group's matches by the index ``ix_group_matches_page`` (``group_key``,
``computers``, ``finished_at``, ``match_id``; newest first, at most ``SERIES_CAP`` + 1), each
joined to its row of ``matches`` (the game kind) and its members' ``match_seats`` by their primary
keys. Past ``SERIES_CAP`` matches the oldest are left out and the series says ``truncated``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import false, select
from sqlalchemy.orm import Session

from .group_figures import group_key
from .models import GroupMatch, Match, MatchSeat

SERIES_CAP = 5_000  # matches: a chart of 360 px draws no more than that usefully, and 5,000 stay small


@dataclass(frozen=True)
class SeriesPoint:
    match_id: str
    kind: str
    finished_at: datetime | None
    totals: list[int]  # per member, in the order of ``ids``
    won: list[bool]  # per member: first place (R5, V0.9; R6.2 / V0.10a: the one who left is last)


@dataclass(frozen=True)
class Series:
    points: list[SeriesPoint]  # oldest first
    truncated: bool  # more than ``cap`` matches: the oldest are not in ``points``


def group_series(session: Session, ids: list[str], cap: int = SERIES_CAP) -> Series:
    """The people-only matches of the group ``ids`` (the latest ``cap`` of them), oldest first,
    with each member's final total and whether they came first."""
    latest = (
        select(GroupMatch.match_id, GroupMatch.finished_at)
        .where(GroupMatch.group_key == group_key(ids), GroupMatch.computers == false())
        .order_by(GroupMatch.finished_at.desc(), GroupMatch.match_id.desc())
        .limit(cap + 1)
        .subquery()
    )
    rows = session.execute(
        select(
            latest.c.match_id, latest.c.finished_at, Match.kind, MatchSeat.player_id, MatchSeat.total, MatchSeat.place
        )
        .join(Match, Match.id == latest.c.match_id)
        .join(MatchSeat, MatchSeat.match_id == latest.c.match_id)
        .where(MatchSeat.player_id.in_(ids))
        .order_by(latest.c.finished_at.desc(), latest.c.match_id.desc())
    ).all()
    seats: dict[str, dict[str, tuple[int, bool]]] = {}
    facts: dict[str, tuple[str, datetime | None]] = {}
    for match_id, finished_at, kind, player_id, total, place in rows:  # newest first
        seats.setdefault(match_id, {})[player_id] = (total, place == 1)
        facts[match_id] = (kind, finished_at)
    newest = list(seats)[:cap]
    points = [
        SeriesPoint(
            match_id=match_id,
            kind=facts[match_id][0],
            finished_at=facts[match_id][1],
            totals=[seats[match_id][i][0] for i in ids],
            won=[seats[match_id][i][1] for i in ids],
        )
        for match_id in reversed(newest)
    ]
    return Series(points=points, truncated=len(seats) > cap)
