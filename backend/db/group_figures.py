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

from sqlalchemy import Column, Connection, MetaData, Table, and_, case, func, select
from sqlalchemy.dialects import postgresql, sqlite

from .models import Action, Deal, DealSeat, GroupFigure, GroupMatch, GroupStake, Match, MatchSeat, Player, Settlement

GROUP_SEPARATOR = ","

# ``group_figures`` as migrations 0008–0011 left it (no ``shared``), for their rebuilds.
_BEFORE_0012 = Table(
    "group_figures",
    MetaData(),
    *(
        Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
        for c in GroupFigure.__table__.columns
        if c.name != "shared"
    ),
)


def group_key(player_ids: Sequence[str]) -> str:
    """The key of a group of people: their ids, sorted, comma-joined (the order asked in is not part of it)."""
    return GROUP_SEPARATOR.join(sorted(player_ids))


def _insert(connection: Connection, table: Any) -> Any:
    return (postgresql if connection.dialect.name == "postgresql" else sqlite).insert(table)


def record_group_match(connection: Connection, match_id: str, *, shared_column: bool = True) -> None:
    """Add the finished match ``match_id`` to every group of two or more of its people.

    In a group, a member ``won`` a match when first (R5, V0.9) and no other member of the group was
    (others at the table may have been: at a table of three Anna beat Ben when Cleo left and Anna
    and Ben shared first place, V0.10a); two or more members first together ``shared`` it — a draw
    between them, which neither wins nor loses a streak. The biggest win is a won match with a lead
    (the member's total over the best of everyone else's): a win by a resignation while level or
    behind has none to show.

    ``shared_column=False`` is for the migrations before 0012, whose ``group_figures`` has no
    ``shared`` column: it counts every first place as ``won``, as they did (0012 rebuilds the tables)."""
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
            firsts = sum(1 for row in group if row.place == 1)
            for row in group:
                dealt = deals.get(row.seat, (0, 0, 0, 0, 0))
                first = row.place == 1
                shared = first and firsts > 1 and shared_column
                won = first and not shared
                lead = row.total - max(t for s, t in enumerate(totals) if s != row.seat)
                margin = lead if won and (lead > 0 or not shared_column) else None
                _add_figures(
                    connection,
                    {
                        "group_key": key,
                        "kind": kind,
                        "computers": computers,
                        "player_id": row.player_id,
                        "matches": 1,
                        "won": int(won),
                        **({"shared": int(shared)} if shared_column else {}),
                        "deals": int(dealt[0] or 0),
                        "points": int(dealt[1] or 0),
                        "marriage_points": int(dealt[2] or 0),
                        "contracts": int(dealt[3] or 0),
                        "contracts_made": int(dealt[4] or 0),
                        "marriages": int(marriages.get(row.seat, 0)),
                        "streak": 1 if won else 0 if shared else -1,
                        "best_margin": margin,
                        "best_total": None if margin is None else row.total,
                        "best_match_id": None if margin is None else match_id,
                        "best_at": None if margin is None else finished_at,
                    },
                    shared_column,
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


SUMMED = ("matches", "won", "shared", "deals", "points", "marriages", "marriage_points", "contracts", "contracts_made")
BEST = ("best_margin", "best_total", "best_match_id", "best_at")


def _add_figures(connection: Connection, values: dict[str, Any], shared_column: bool) -> None:
    table = GroupFigure.__table__ if shared_column else _BEFORE_0012
    insert = _insert(connection, table).values(**values)
    new, old = insert.excluded, table.c
    better = and_(new.best_margin.is_not(None), (old.best_margin.is_(None)) | (new.best_margin > old.best_margin))
    summed = SUMMED if shared_column else tuple(name for name in SUMMED if name != "shared")
    update: dict[str, Any] = {name: getattr(old, name) + getattr(new, name) for name in summed}
    # A shared first place (0) ends any streak: it is neither won nor lost.
    update["streak"] = case(
        (new.streak > 0, case((old.streak > 0, old.streak + 1), else_=1)),
        (new.streak < 0, case((old.streak < 0, old.streak - 1), else_=-1)),
        else_=0,
    )
    update |= {name: case((better, getattr(new, name)), else_=getattr(old, name)) for name in BEST}
    connection.execute(
        insert.on_conflict_do_update(index_elements=["group_key", "kind", "computers", "player_id"], set_=update)
    )
