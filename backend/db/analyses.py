"""The stored computer analyses of finished deals (issue 26, table ``deal_analyses``): one row per deal,
claimed by the process that computes it, its progress written as it goes, its result once done.

Whether a stored row still serves (its version, whether it is stale) is the job runner's rule
(``backend/rooms/analysis.py``); here are the queries it asks for. The per-asker limits are counted
from the rows, so that every process of a cluster counts the same analyses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database
from .models import Analysis

Status = Literal["queued", "running", "done", "failed"]
IN_FLIGHT: tuple[Status, ...] = ("queued", "running")


def aware(moment: datetime) -> datetime:
    """A stored time as UTC (SQLite hands it back without its zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class AskerLimits:
    """What one asker may start: one analysis in flight (queued or running, and not stale: updated
    since ``stale_before``), and ``per_window`` analyses started since ``window_start``."""

    stale_before: datetime
    window_start: datetime
    per_window: int


@dataclass(frozen=True, slots=True)
class Claimed:
    """The asker's request started the analysis: the row is queued, and this process computes it."""

    row: Analysis


@dataclass(frozen=True, slots=True)
class Found:
    """The stored row serves as it is (done, or being computed by somebody): nothing was started."""

    row: Analysis


@dataclass(frozen=True, slots=True)
class OverLimit:
    """The asker may not start another analysis now: why, in words."""

    message: str


class AnalysisRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    def get(self, match_id: str, number: int) -> Analysis | None:
        with self._db.sessions() as session:
            return session.get(Analysis, (match_id, number))

    def of_match(self, match_id: str) -> list[Analysis]:
        with self._db.sessions() as session:
            query = select(Analysis).where(Analysis.match_id == match_id).order_by(Analysis.number)
            return list(session.scalars(query).all())

    def claim(
        self,
        match_id: str,
        number: int,
        *,
        asker: str,
        version: int,
        now: datetime,
        serves: Callable[[Analysis], bool],
        limits: AskerLimits,
    ) -> Claimed | Found | OverLimit:
        """Start the analysis of a deal for ``asker`` unless a stored row ``serves``; the asker's
        limits are checked in the same transaction (a row of an older version, a failed or a stale one
        is started again, in place). Two first claims of one deal at once (two processes): the second
        finds the first's row."""
        try:
            with self._db.transaction() as session:
                row = session.get(Analysis, (match_id, number), with_for_update=True)
                if row is not None and serves(row):
                    return Found(row)
                mine = Analysis.asker == asker
                in_flight = session.scalar(
                    select(func.count())
                    .select_from(Analysis)
                    .where(mine, Analysis.status.in_(IN_FLIGHT), Analysis.updated_at >= limits.stale_before)
                )
                if in_flight:
                    return OverLimit("one analysis at a time: wait until yours is done")
                started = session.scalar(
                    select(func.count()).select_from(Analysis).where(mine, Analysis.started_at >= limits.window_start)
                )
                if (started or 0) >= limits.per_window:
                    return OverLimit(f"at most {limits.per_window} analyses an hour: try again later")
                values: dict[str, Any] = {
                    "version": version,
                    "status": "queued",
                    "done": 0,
                    "total": 0,
                    "result": None,
                    "message": None,
                    "asker": asker,
                    "started_at": now,
                    "updated_at": now,
                }
                if row is None:
                    row = Analysis(match_id=match_id, number=number, **values)
                    session.add(row)
                else:
                    for name, value in values.items():
                        setattr(row, name, value)
                return Claimed(row)
        except IntegrityError:
            row = self.get(match_id, number)
            if row is None:
                raise
            return Found(row)

    def _set(self, match_id: str, number: int, **values: Any) -> None:
        with self._db.transaction() as session:
            session.execute(
                update(Analysis).where(Analysis.match_id == match_id, Analysis.number == number).values(**values)
            )

    def progress(self, match_id: str, number: int, done: int, total: int, now: datetime) -> None:
        """``done`` of the deal's ``total`` decisions are rated: the row is running (and not stale)."""
        self._set(match_id, number, status="running", done=done, total=total, updated_at=now)

    def finish(self, match_id: str, number: int, result: dict[str, Any], now: datetime) -> None:
        self._set(match_id, number, status="done", result=result, message=None, updated_at=now)

    def fail(self, match_id: str, number: int, message: str, now: datetime) -> None:
        self._set(match_id, number, status="failed", message=message[:200], updated_at=now)
