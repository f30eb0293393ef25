"""Head to head, written as matches end: each finished match is added to the figures of every
group of two or more of its people (``GroupMatch``, ``GroupFigure``, ``GroupStake``), in the
transaction that ends it, so that a group's figures are read in a few rows whatever the number of
its matches. ``head_to_head.recount`` works the same figures out from the matches (the check).

A person plays one match at a time, so a group's matches end one after another; the figures are
still added with upserts (``ON CONFLICT … DO UPDATE``), which two ends at once could not break.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from sqlalchemy import Connection, and_, case, func, select
from sqlalchemy.dialects import postgresql, sqlite

from .models import Action, Deal, DealSeat, GroupFigure, GroupMatch, GroupStake, Match, MatchSeat, Player, Settlement

GROUP_SEPARATOR = ","


def group_key(player_ids: Sequence[str]) -> str:
    """The key of a group of people: their ids, sorted, comma-joined (the order asked in is not part of it)."""
    return GROUP_SEPARATOR.join(sorted(player_ids))


def _insert(connection: Connection, table: Any) -> Any:
    return (postgresql if connection.dialect.name == "postgresql" else sqlite).insert(table)


def record_group_match(connection: Connection, match_id: str) -> None:
    """Add the finished match ``match_id`` to every group of two or more of its people."""
    seats = connection.execute(
        select(MatchSeat.seat, MatchSeat.player_id, MatchSeat.total, MatchSeat.place, Player.bot_level)
        .join(Player, Player.id == MatchSeat.player_id)
        .where(MatchSeat.match_id == match_id)
        .order_by(MatchSeat.seat)
    ).all()
    people = [row for row in seats if row.bot_level is None]
    if len(people) < 2 or any(row.place is None for row in seats):
        return
    kind, finished_at = connection.execute(select(Match.kind, Match.finished_at).where(Match.id == match_id)).one()
    computers = len(people) < len(seats)
    declarer = Deal.declarer == DealSeat.seat
    deals = {
        row[0]: row[1:]
        for row in connection.execute(
            select(
                DealSeat.seat,
                func.count(),
                func.sum(DealSeat.score),
                func.sum(DealSeat.declaration_points),
                func.sum(case((declarer, 1), else_=0)),
                func.sum(case((and_(declarer, Deal.made.is_(True)), 1), else_=0)),
            )
            .join(Deal, Deal.id == DealSeat.deal_id)
            .where(Deal.match_id == match_id)
            .group_by(DealSeat.seat)
        )
    }
    marriages: dict[int, int] = dict(
        connection.execute(
            select(Action.seat, func.count())
            .where(Action.match_id == match_id, Action.declare.is_(True))
            .group_by(Action.seat)
        ).all()
    )
    owed = connection.execute(
        select(
            Settlement.winner_id,
            Settlement.loser_id,
            Settlement.currency,
            Settlement.stake_per_point,
            Settlement.points_short,
        ).where(Settlement.match_id == match_id)
    ).all()
    totals = [row.total for row in seats]
    for size in range(2, len(people) + 1):
        for group in combinations(people, size):
            key = group_key([row.player_id for row in group])
            connection.execute(
                _insert(connection, GroupMatch)
                .values(group_key=key, match_id=match_id, computers=computers, finished_at=finished_at)
                .on_conflict_do_nothing()
            )
            for row in group:
                dealt = deals.get(row.seat, (0, 0, 0, 0, 0))
                won = row.place == 1
                margin = row.total - max(t for s, t in enumerate(totals) if s != row.seat) if won else None
                _add_figures(
                    connection,
                    {
                        "group_key": key,
                        "kind": kind,
                        "computers": computers,
                        "player_id": row.player_id,
                        "matches": 1,
                        "won": int(won),
                        "deals": int(dealt[0] or 0),
                        "points": int(dealt[1] or 0),
                        "marriage_points": int(dealt[2] or 0),
                        "contracts": int(dealt[3] or 0),
                        "contracts_made": int(dealt[4] or 0),
                        "marriages": int(marriages.get(row.seat, 0)),
                        "streak": 1 if won else -1,
                        "best_margin": margin,
                        "best_total": row.total if won else None,
                        "best_match_id": match_id if won else None,
                        "best_at": finished_at if won else None,
                    },
                )
            members = {row.player_id for row in group}
            for winner, loser, currency, stake, short in owed:
                if winner in members and loser in members:
                    insert = _insert(connection, GroupStake).values(
                        group_key=key,
                        winner_id=winner,
                        loser_id=loser,
                        currency=currency,
                        stake_per_point=stake,
                        points_short=short,
                    )
                    connection.execute(
                        insert.on_conflict_do_update(
                            index_elements=["group_key", "winner_id", "loser_id", "currency", "stake_per_point"],
                            set_={"points_short": GroupStake.points_short + insert.excluded.points_short},
                        )
                    )


SUMMED = ("matches", "won", "deals", "points", "marriages", "marriage_points", "contracts", "contracts_made")
BEST = ("best_margin", "best_total", "best_match_id", "best_at")


def _add_figures(connection: Connection, values: dict[str, Any]) -> None:
    insert = _insert(connection, GroupFigure).values(**values)
    new, old = insert.excluded, GroupFigure
    better = and_(new.best_margin.is_not(None), (old.best_margin.is_(None)) | (new.best_margin > old.best_margin))
    update: dict[str, Any] = {name: getattr(old, name) + getattr(new, name) for name in SUMMED}
    update["streak"] = case(
        (new.streak > 0, case((old.streak > 0, old.streak + 1), else_=1)),
        else_=case((old.streak < 0, old.streak - 1), else_=-1),
    )
    update |= {name: case((better, getattr(new, name)), else_=getattr(old, name)) for name in BEST}
    connection.execute(
        insert.on_conflict_do_update(index_elements=["group_key", "kind", "computers", "player_id"], set_=update)
    )
