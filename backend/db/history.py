"""What was played: a player's matches, a match with its deals, log and settlements, the ledger of
what people owe each other, and the people one played with lately ("Play again")."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import aliased

from .common import DELETED_NAME, bot_player_id, decimal_text
from .database import Database
from .models import Action, Deal, Match, MatchSeat, Player, Settlement


class HistoryRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    def matches_of(self, player_id: str, limit: int, offset: int) -> tuple[list[Match], int]:
        """A page of the player's matches, newest first by the time the history shows for each: when
        it ended, or for one still played when it began."""
        mine = Match.id.in_(select(MatchSeat.match_id).where(MatchSeat.player_id == player_id))
        shown = func.coalesce(Match.finished_at, Match.started_at)
        with self._db.sessions() as session:
            total = session.scalar(select(func.count()).select_from(Match).where(mine)) or 0
            rows = session.scalars(
                select(Match).where(mine).order_by(shown.desc(), Match.id).limit(limit).offset(offset)
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
        """Per opponent: finished matches played together, how many of them I won and the opponent
        lost (``won``), how many we both finished first (``shared``: V0.10a, both stayed when
        another left — a draw between us), and the net balance per currency (exact, R6.1).

        Every finished match counts for every pair of its players, whether or not money moved: a
        match for nothing, or the two losers of a table of three (who owe each other nothing,
        V0.10), are still matches played. The balance sums the settlements, one per (match,
        winner, loser).

        The computer is one opponent per level ("the computer at medium"): its seats of one level
        are one row, each match counted once — won when I was first and none of them was, shared
        when one of them was first with me."""
        mine, theirs = aliased(MatchSeat), aliased(MatchSeat)
        with self._db.sessions() as session:
            played = session.execute(
                select(theirs.player_id, Player.bot_level, mine.place, theirs.place, Match.id, Match.finished_at)
                .join(Match, Match.id == mine.match_id)
                .join(theirs, (theirs.match_id == mine.match_id) & (theirs.seat != mine.seat))
                .join(Player, Player.id == theirs.player_id, isouter=True)
                .where(mine.player_id == player_id, Match.status == "finished")
            ).all()
            owed = session.execute(
                select(Settlement).where(or_(Settlement.winner_id == player_id, Settlement.loser_id == player_id))
            ).scalars()
            # opponent → match → (my place, the opponent's best place that match)
            met: dict[str, dict[str, tuple[int | None, int | None]]] = defaultdict(dict)
            last: dict[str, Any] = {}
            level_of: dict[str, str | None] = {}
            for other, level, my_place, their_place, match_id, finished_at in played:
                key = bot_player_id(level) if level else other
                level_of[key] = level
                seen = met[key].get(match_id)
                known = [p for p in (their_place, None if seen is None else seen[1]) if p is not None]
                met[key][match_id] = (my_place, min(known) if known else None)
                if key not in last or (finished_at and (last[key] is None or finished_at > last[key])):
                    last[key] = finished_at
            balances: dict[str, defaultdict[str, Decimal]] = {key: defaultdict(Decimal) for key in met}
            people = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(list(met)))).all()}
            computers = select(Player.id, Player.bot_level).where(Player.bot_level.is_not(None))
            levels: dict[str, str] = {row[0]: row[1] or "" for row in session.execute(computers).all()}
            for settlement in owed:
                won = settlement.winner_id == player_id
                other = settlement.loser_id if won else settlement.winner_id
                key = bot_player_id(levels[other]) if other in levels else other
                amount = Decimal(settlement.amount)
                balances.setdefault(key, defaultdict(Decimal))[settlement.currency] += amount if won else -amount
        result = []
        for key, matches in met.items():
            level = level_of[key]
            result.append(
                {
                    "opponent_id": key,
                    "opponent_name": people[key].name if key in people else f"Computer ({level})" if level else "?",
                    "opponent_bot_level": level,
                    "played": len(matches),
                    "won": sum(1 for mine_, theirs_ in matches.values() if mine_ == 1 and theirs_ != 1),
                    "shared": sum(1 for mine_, theirs_ in matches.values() if mine_ == 1 and theirs_ == 1),
                    "last_played": last.get(key),
                    "balance": {currency: decimal_text(value) for currency, value in sorted(balances[key].items())},
                }
            )
        result.sort(key=lambda e: str(e["last_played"] or ""), reverse=True)
        return result
