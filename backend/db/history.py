"""What was played: a player's matches, a match with its deals, log and settlements, the ledger of
what people owe each other, and the people one played with lately ("Play again")."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import aliased

from .common import DELETED_NAME, decimal_text
from .database import Database
from .models import Action, Deal, Match, MatchSeat, Player, Settlement


class HistoryRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    def matches_of(self, player_id: str, limit: int, offset: int) -> tuple[list[Match], int]:
        mine = Match.id.in_(select(MatchSeat.match_id).where(MatchSeat.player_id == player_id))
        with self._db.sessions() as session:
            total = session.scalar(select(func.count()).select_from(Match).where(mine)) or 0
            rows = session.scalars(
                select(Match).where(mine).order_by(Match.started_at.desc(), Match.id).limit(limit).offset(offset)
            ).all()
            return list(rows), total

    def recent_opponents(self, player_id: str, limit: int, scan: int = 200) -> list[tuple[Player, Match]]:
        """The people the player sat at a table with most recently, each once, newest first, with
        the last match they played together (its options make the next table: "Play again").

        Computer players and deleted accounts are left out. The player's newest ``scan`` matches
        are read (an index on ``match_seats.player_id``), which finds ``limit`` people in practice."""
        mine, theirs = aliased(MatchSeat), aliased(MatchSeat)
        with self._db.sessions() as session:
            rows = session.execute(
                select(theirs.player_id, Match)
                .select_from(mine)
                .join(Match, Match.id == mine.match_id)
                .join(theirs, (theirs.match_id == mine.match_id) & (theirs.seat != mine.seat))
                .join(Player, Player.id == theirs.player_id)
                .where(mine.player_id == player_id, theirs.player_id != player_id)
                .where(Player.bot_level.is_(None), Player.name != DELETED_NAME)
                .order_by(Match.started_at.desc(), Match.id.desc())
                .limit(scan)
            ).all()
            last: dict[str, Match] = {}
            for other, match in rows:
                if other not in last:
                    last[other] = match
                if len(last) >= limit:
                    break
            people = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(list(last)))).all()}
            return [(people[other], match) for other, match in last.items() if other in people]

    def match(self, match_id: str) -> Match | None:
        with self._db.sessions() as session:
            return session.get(Match, match_id)

    def deals_of(self, match_id: str) -> list[Deal]:
        with self._db.sessions() as session:
            return list(session.scalars(select(Deal).where(Deal.match_id == match_id).order_by(Deal.number)).all())

    def actions_of(self, match_id: str) -> list[Action]:
        """A match's whole action log, in order (for its replay)."""
        with self._db.sessions() as session:
            return list(session.scalars(select(Action).where(Action.match_id == match_id).order_by(Action.seq)).all())

    def settlements_for(self, match_ids: list[str]) -> dict[str, list[Settlement]]:
        """Per finished match, what each loser owes each winner (one row for two seats)."""
        with self._db.sessions() as session:
            query = select(Settlement).where(Settlement.match_id.in_(match_ids)).order_by(Settlement.id)
            by_match: dict[str, list[Settlement]] = defaultdict(list)
            for row in session.scalars(query).all():
                by_match[row.match_id].append(row)
            return dict(by_match)

    def ledger(self, player_id: str) -> list[dict[str, Any]]:
        """Per opponent: finished matches played together, how many of them I won (first place), and
        the net balance per currency (exact, R6.1).

        Every finished match counts for every pair of its players, whether or not money moved: a
        match for nothing, or the two losers of a table of three (who owe each other nothing,
        V0.10), are still matches played. The balance sums the settlements, one per (match,
        winner, loser)."""
        mine, theirs = aliased(MatchSeat), aliased(MatchSeat)
        with self._db.sessions() as session:
            played = session.execute(
                select(theirs.player_id, mine.place, Match.finished_at)
                .join(Match, Match.id == mine.match_id)
                .join(theirs, (theirs.match_id == mine.match_id) & (theirs.seat != mine.seat))
                .where(mine.player_id == player_id, Match.status == "finished")
            ).all()
            owed = session.execute(
                select(Settlement).where(or_(Settlement.winner_id == player_id, Settlement.loser_id == player_id))
            ).scalars()
            opponents: dict[str, dict[str, Any]] = {}
            for other, place, finished_at in played:
                entry = opponents.setdefault(
                    other, {"opponent_id": other, "played": 0, "won": 0, "last_played": finished_at}
                )
                entry["played"] += 1
                entry["won"] += int(place == 1)
                if finished_at and (entry["last_played"] is None or finished_at > entry["last_played"]):
                    entry["last_played"] = finished_at
            balances: dict[str, defaultdict[str, Decimal]] = {other: defaultdict(Decimal) for other in opponents}
            for settlement in owed:
                won = settlement.winner_id == player_id
                other = settlement.loser_id if won else settlement.winner_id
                amount = Decimal(settlement.amount)
                balances.setdefault(other, defaultdict(Decimal))[settlement.currency] += amount if won else -amount
            people = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(opponents))).all()}
        result = []
        for other, entry in opponents.items():
            entry["opponent_name"] = people[other].name if other in people else "?"
            entry["opponent_bot_level"] = people[other].bot_level if other in people else None
            entry["balance"] = {currency: decimal_text(value) for currency, value in sorted(balances[other].items())}
            result.append(entry)
        result.sort(key=lambda e: str(e["last_played"] or ""), reverse=True)
        return result
