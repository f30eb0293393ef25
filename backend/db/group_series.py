"""Head to head's chart: every people-only match of a group, oldest first, as each member's final
total — a few numbers per match, so that the chart shows all of them without the full record of
each (the page of matches, ``head_to_head``, stays paginated).

One query, a row per match: the group's matches by the index ``ix_group_matches_page``
(``group_key``, ``computers``, ``finished_at``, ``match_id``; newest first, at most ``SERIES_CAP`` +
1), each joined to its row of ``matches`` (the game kind) and to each member's seat of
``match_seats`` (its primary key, ``match_id`` first). Past ``SERIES_CAP`` matches the oldest are
left out and the series says ``truncated``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, false, select
from sqlalchemy.orm import Session, aliased

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
    with each member's final total and whether they came first: a row per match, each member's
    seat joined on its own (``match_seats`` by its primary key's ``match_id``)."""
    latest = (
        select(GroupMatch.match_id, GroupMatch.finished_at)
        .where(GroupMatch.group_key == group_key(ids), GroupMatch.computers == false())
        .order_by(GroupMatch.finished_at.desc(), GroupMatch.match_id.desc())
        .limit(cap + 1)
        .subquery()
    )
    seats = [aliased(MatchSeat) for _ in ids]
    query = select(latest.c.match_id, latest.c.finished_at, Match.kind).join(Match, Match.id == latest.c.match_id)
    for seat, player_id in zip(seats, ids, strict=True):
        query = query.add_columns(seat.total, seat.place).join(
            seat, and_(seat.match_id == latest.c.match_id, seat.player_id == player_id)
        )
    rows = session.execute(query.order_by(latest.c.finished_at.desc(), latest.c.match_id.desc())).all()
    points = []
    for match_id, finished_at, kind, *seated in reversed(rows[:cap]):  # unpacked once: a Row's slices cost more
        points.append(SeriesPoint(match_id, kind, finished_at, seated[::2], [place == 1 for place in seated[1::2]]))
    return Series(points=points, truncated=len(rows) > cap)
