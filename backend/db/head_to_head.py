"""Head to head: the figures of a group of people (two, or the three or four of a table).

A group's matches are the finished matches at which every one of the group sat (other seats may be
anyone's); matches with a computer seat are kept apart (``computers``). ``head_to_head`` reads what
was kept as each match ended (``group_figures``: a few rows per group, and a page of its matches by
the index ``ix_group_matches_page``), so it costs the same for ten matches or a thousand.
``recount`` works the same figures out again from the matches, one aggregate query per figure
grouped by game kind (``kinds``), computers and member — the check that the kept ones are right.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, case, distinct, exists, func, select
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql.selectable import CTE

from backend.ratings.kinds import RATING_KINDS

from .group_figures import group_key
from .models import Action, Deal, DealSeat, GroupFigure, GroupMatch, GroupStake, Match, MatchSeat, Player, Settlement


@dataclass(frozen=True)
class BiggestWin:
    match_id: str
    total: int
    margin: int  # the winner's total less the best total of the others (> 0: a win without a lead is none)
    finished_at: datetime | None


@dataclass
class Figures:
    """One member's figures in one game kind, people-only matches or matches with a computer."""

    kind: str
    computers: bool
    player_id: str
    matches: int = 0
    won: int = 0  # first place, no other member first (R5, V0.9; R6.2 / V0.10a)
    shared: int = 0  # first place together with another member (V0.10a: both stayed when a third left)
    deals: int = 0
    points: int = 0  # the sum of the deals' scores
    marriages: int = 0  # declared (R3, V0.5): plays with ``declare`` in the action log
    marriage_points: int = 0  # what the marriages counted (R3: none without a trick), deal_seats
    contracts: int = 0  # auctions won (V0.6)
    contracts_made: int = 0  # of them made (V0.8)
    biggest_win: BiggestWin | None = None
    streak: int = 0  # + the latest matches won in a row, − lost in a row, 0 after a shared first place


@dataclass(frozen=True)
class Debt:
    """What ``debtor`` owes ``creditor`` net over the group's matches, in one currency (> 0)."""

    debtor_id: str
    creditor_id: str
    currency: str
    amount: Decimal


@dataclass(frozen=True)
class SeatLine:
    seat: int
    player_id: str
    name: str
    bot_level: str | None
    total: int
    place: int | None


@dataclass(frozen=True)
class MatchLine:
    match_id: str
    kind: str
    computers: bool
    options: dict[str, Any]
    finished_at: datetime | None
    end_reason: str | None
    seats: list[SeatLine]


@dataclass
class HeadToHead:
    figures: list[Figures]
    money: list[Debt]
    people_matches: int  # finished matches of the group with people only
    computer_matches: int  # with at least one computer seat
    page: list[MatchLine] = field(default_factory=list)


def _group_matches(ids: list[str]) -> CTE:
    """The finished matches at which every one of ``ids`` sat: id, kind, end time and a 0/1 flag
    for a computer seat."""
    sat = (
        select(MatchSeat.match_id)
        .where(MatchSeat.player_id.in_(ids))
        .group_by(MatchSeat.match_id)
        .having(func.count(distinct(MatchSeat.player_id)) == len(ids))
    )
    anyone = aliased(MatchSeat)
    computer = exists().where(anyone.match_id == Match.id, Player.id == anyone.player_id, Player.bot_level.is_not(None))
    return (
        select(
            Match.id.label("match_id"),
            Match.kind.label("kind"),
            Match.finished_at.label("finished_at"),
            case((computer, 1), else_=0).label("computers"),
        )
        .where(Match.id.in_(sat), Match.status == "finished")
        .cte("group_matches")
    )


def _by_member(gm: CTE, seat: Any, *columns: ColumnElement[Any]) -> Select[Any]:
    """A query over each member's ``seat`` in the group's matches: kind, computers, player, ``columns``."""
    query = select(gm.c.kind, gm.c.computers, seat.player_id, *columns).select_from(gm)
    return query.join(seat, seat.match_id == gm.c.match_id)


def _key(row: Any) -> tuple[str, bool, str]:
    return row[0], bool(row[1]), row[2]


def head_to_head(session: Session, ids: list[str], computers: bool, limit: int, offset: int) -> HeadToHead:
    """Every figure of the group ``ids`` (people), and one page of its matches — those with a
    computer seat if ``computers``, else those of people only — newest first. Read from the rows
    kept as matches end (``group_figures``): a few rows, whatever the number of matches."""
    key = group_key(ids)
    rows = session.scalars(select(GroupFigure).where(GroupFigure.group_key == key)).all()
    figures = [
        Figures(
            kind=row.kind,
            computers=row.computers,
            player_id=row.player_id,
            matches=row.matches,
            won=row.won,
            shared=row.shared,
            deals=row.deals,
            points=row.points,
            marriages=row.marriages,
            marriage_points=row.marriage_points,
            contracts=row.contracts,
            contracts_made=row.contracts_made,
            streak=row.streak,
            biggest_win=None
            if row.best_match_id is None or row.best_margin is None or row.best_total is None
            else BiggestWin(row.best_match_id, row.best_total, row.best_margin, row.best_at),
        )
        for row in rows
        if row.player_id in ids
    ]
    counted = {(f.computers, f.kind): f.matches for f in figures}  # every member sat at each of them
    stakes = session.execute(
        select(
            GroupStake.winner_id,
            GroupStake.loser_id,
            GroupStake.currency,
            GroupStake.stake_per_point,
            GroupStake.points_short,
        ).where(GroupStake.group_key == key)
    ).all()
    page = (
        select(
            GroupMatch.match_id,
            Match.kind,
            GroupMatch.computers,
            GroupMatch.finished_at,
            Match.options,
            Match.end_reason,
        )
        .join(Match, Match.id == GroupMatch.match_id)
        .where(GroupMatch.group_key == key, GroupMatch.computers == computers)
        .order_by(GroupMatch.finished_at.desc(), GroupMatch.match_id.desc())
        .limit(limit)
        .offset(offset)
    )
    return HeadToHead(
        figures=_ordered(figures, ids),
        money=_netted(stakes, ids),
        people_matches=sum(n for (with_computers, _), n in counted.items() if not with_computers),
        computer_matches=sum(n for (with_computers, _), n in counted.items() if with_computers),
        page=_lines(session, session.execute(page).all()),
    )


def _ordered(figures: list[Figures], ids: list[str]) -> list[Figures]:
    return sorted(figures, key=lambda f: (f.computers, RATING_KINDS.index(f.kind), ids.index(f.player_id)))


def recount(session: Session, ids: list[str]) -> tuple[list[Figures], list[Debt]]:
    """The group's figures and stakes worked out again from its matches, one aggregate query each
    (what ``head_to_head`` reads as kept, for the check that both agree)."""
    gm = _group_matches(ids)
    figures: dict[tuple[str, bool, str], Figures] = {}

    def entry(row: Any) -> Figures:
        key = _key(row)
        if key not in figures:
            figures[key] = Figures(kind=key[0], computers=key[1], player_id=key[2])
        return figures[key]

    # Matches, wins and shared first places (R5, V0.9; R6.2 / V0.10a: the one who left is last).
    seat = aliased(MatchSeat)
    outcome = _outcome(seat, ids)
    query = _by_member(
        gm, seat, func.count(), func.sum(case((outcome == 1, 1), else_=0)), func.sum(case((outcome == 0, 1), else_=0))
    )
    for row in session.execute(_grouped(query.where(seat.player_id.in_(ids)), gm, seat)):
        found = entry(row)
        found.matches, found.won, found.shared = row[3], int(row[4] or 0), int(row[5] or 0)

    # Deals, their scores, the marriages' points and the auctions won and made.
    declarer = Deal.declarer == DealSeat.seat
    query = _by_member(
        gm,
        seat,
        func.count(),
        func.sum(DealSeat.score),
        func.sum(DealSeat.declaration_points),
        func.sum(case((declarer, 1), else_=0)),
        func.sum(case((and_(declarer, Deal.made.is_(True)), 1), else_=0)),
    )
    query = query.join(Deal, Deal.match_id == gm.c.match_id).join(
        DealSeat, and_(DealSeat.deal_id == Deal.id, DealSeat.seat == seat.seat)
    )
    for row in session.execute(_grouped(query.where(seat.player_id.in_(ids)), gm, seat)):
        found = entry(row)
        found.deals, found.points, found.marriage_points = row[3], int(row[4] or 0), int(row[5] or 0)
        found.contracts, found.contracts_made = int(row[6] or 0), int(row[7] or 0)

    # Marriages declared: the declaring plays of the log.
    query = _by_member(gm, seat, func.count()).join(
        Action, and_(Action.match_id == gm.c.match_id, Action.seat == seat.seat, Action.declare.is_(True))
    )
    for row in session.execute(_grouped(query.where(seat.player_id.in_(ids)), gm, seat)):
        entry(row).marriages = row[3]

    _biggest_wins(session, gm, ids, entry)
    _streaks(session, gm, ids, entry)
    return _ordered(list(figures.values()), ids), _money(session, gm, ids)


def _outcome(seat: Any, ids: list[str]) -> ColumnElement[int]:
    """A member's match in the group: 1 won (first, no other member first), 0 shared (first with
    another member), -1 lost."""
    other = aliased(MatchSeat)
    another_first = exists().where(
        other.match_id == seat.match_id, other.seat != seat.seat, other.player_id.in_(ids), other.place == 1
    )
    return case((and_(seat.place == 1, ~another_first), 1), (seat.place == 1, 0), else_=-1)


def _grouped(query: Select[Any], gm: CTE, seat: Any) -> Select[Any]:
    return query.group_by(gm.c.kind, gm.c.computers, seat.player_id)


def _biggest_wins(session: Session, gm: CTE, ids: list[str], entry: Any) -> None:
    """Per member: the won match with the widest lead over the best of the others (the earliest of
    equals); a win without a lead (a resignation while level or behind) is none."""
    seat, other = aliased(MatchSeat), aliased(MatchSeat)
    best_other = (
        select(func.max(other.total)).where(other.match_id == seat.match_id, other.seat != seat.seat).scalar_subquery()
    )
    margin = seat.total - best_other
    ranked = (
        select(
            gm.c.kind,
            gm.c.computers,
            seat.player_id,
            seat.match_id,
            seat.total,
            margin.label("margin"),
            gm.c.finished_at,
            func.row_number()
            .over(
                partition_by=(gm.c.kind, gm.c.computers, seat.player_id),
                order_by=(margin.desc(), gm.c.finished_at.asc(), seat.match_id.asc()),
            )
            .label("rank"),
        )
        .select_from(gm)
        .join(seat, seat.match_id == gm.c.match_id)
        .where(seat.player_id.in_(ids), _outcome(seat, ids) == 1, margin > 0)
        .subquery()
    )
    for row in session.execute(select(ranked).where(ranked.c.rank == 1)):
        entry(row).biggest_win = BiggestWin(match_id=row[3], total=row[4], margin=int(row[5]), finished_at=row[6])


def _streaks(session: Session, gm: CTE, ids: list[str], entry: Any) -> None:
    """Per member: how many of the latest matches in a row went as the latest one did (won or lost;
    none after a shared first place)."""
    seat = aliased(MatchSeat)
    won = _outcome(seat, ids)
    partition = (gm.c.kind, gm.c.computers, seat.player_id)
    newest = (gm.c.finished_at.desc(), gm.c.match_id.desc())
    ordered = (
        select(
            gm.c.kind,
            gm.c.computers,
            seat.player_id,
            won.label("won"),
            func.row_number().over(partition_by=partition, order_by=newest).label("number"),
            func.first_value(won).over(partition_by=partition, order_by=newest).label("latest"),
        )
        .select_from(gm)
        .join(seat, seat.match_id == gm.c.match_id)
        .where(seat.player_id.in_(ids))
        .subquery()
    )
    o = ordered.c
    query = select(
        o.kind,
        o.computers,
        o.player_id,
        func.max(o.latest),
        func.count(),
        func.min(case((o.won != o.latest, o.number))),
    ).group_by(o.kind, o.computers, o.player_id)
    for row in session.execute(query):
        length = row[5] - 1 if row[5] is not None else row[4]
        entry(row).streak = length * int(row[3])  # the latest: 1 won, -1 lost, 0 shared


def _money(session: Session, gm: CTE, ids: list[str]) -> list[Debt]:
    """The settlements between members in the group's matches, netted per pair and currency. Summed
    exactly: each amount is ``stake_per_point × points_short`` (R6, R6.1), so SQL adds the integer
    points short per stake and the decimals are multiplied here."""
    query = (
        select(
            Settlement.winner_id,
            Settlement.loser_id,
            Settlement.currency,
            Settlement.stake_per_point,
            func.sum(Settlement.points_short),
        )
        .join(gm, gm.c.match_id == Settlement.match_id)
        .where(Settlement.winner_id.in_(ids), Settlement.loser_id.in_(ids))
        .group_by(Settlement.winner_id, Settlement.loser_id, Settlement.currency, Settlement.stake_per_point)
    )
    return _netted(session.execute(query).all(), ids)


def _netted(stakes: Iterable[tuple[str, str, str, str, int]], ids: list[str]) -> list[Debt]:
    """(winner, loser, currency, stake, points short) rows netted per pair and currency."""
    net: defaultdict[tuple[str, str, str], Decimal] = defaultdict(Decimal)  # (first, second, currency): + first is owed
    for winner, loser, currency, stake, short in stakes:
        first, second = sorted((winner, loser), key=ids.index)
        amount = Decimal(stake) * int(short or 0)
        net[first, second, currency] += amount if winner == first else -amount
    debts = []
    for (first, second, currency), amount in sorted(
        net.items(), key=lambda i: (ids.index(i[0][0]), ids.index(i[0][1]), i[0][2])
    ):
        if amount > 0:
            debts.append(Debt(debtor_id=second, creditor_id=first, currency=currency, amount=amount))
        elif amount < 0:
            debts.append(Debt(debtor_id=first, creditor_id=second, currency=currency, amount=-amount))
    return debts


def _lines(session: Session, rows: Sequence[Any]) -> list[MatchLine]:
    """The page's matches, every seat named: (id, kind, computers, finished_at, options, end_reason) rows."""
    if not rows:
        return []
    seats: defaultdict[str, list[SeatLine]] = defaultdict(list)
    query = (
        select(
            MatchSeat.match_id,
            MatchSeat.seat,
            MatchSeat.player_id,
            Player.name,
            Player.bot_level,
            MatchSeat.total,
            MatchSeat.place,
        )
        .join(Player, Player.id == MatchSeat.player_id)
        .where(MatchSeat.match_id.in_([row[0] for row in rows]))
        .order_by(MatchSeat.match_id, MatchSeat.seat)
    )
    for match_id, number, player_id, name, level, total, place in session.execute(query):
        seats[match_id].append(SeatLine(number, player_id, name, level, total, place))
    return [
        MatchLine(
            match_id=row[0],
            kind=row[1],
            computers=bool(row[2]),
            options=row[4],
            finished_at=row[3],
            end_reason=row[5],
            seats=seats[row[0]],
        )
        for row in rows
    ]
