"""The computer analysis of finished deals (issue 26): one job per deal, its decisions rated in the bot
worker pool, the result stored once and served to everyone who may replay the deal.

``Analyses.request`` answers from the stored row when it serves — done by the current
``ANALYSIS_VERSION``, or queued or running and not stale — and otherwise starts the job, within the
limits: per asker (a player, or the address of someone without one) one analysis in flight and so many
an hour, counted from the stored rows so that every process of a cluster counts the same; per process
so many queued or running. A row left queued or running by a process that died stops serving once it
has not moved for ``stale_s`` (measured with the injected clock): it is started again, as is a failed
one or one of an older version.

A job plans the deal's decisions (``backend.analysis.decisions``), rates them one at a time with
the injected ``Rater`` (in production ``ProcessBotRunner.rate``: the bot pool, never the event loop),
writes ``done``/``total`` into the row after each one, so that any process can show the progress,
and stores the summary (``summarize``) as the JSON the API serves, or why it failed. At most
``concurrent`` jobs of a process rate at once (the pool keeps as many processes for them, so a
computer's move never waits behind a rating: ``ProcessBotRunner``); the others wait queued. Each
rating's seed is derived from the match's seed, the deal's number and the step: the same deal is
rated the same every time.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from backend.analysis import decisions, summarize
from backend.analysis.model import ANALYSIS_VERSION, DealAnalysis
from backend.db.analyses import IN_FLIGHT, AskerLimits, Claimed, Found, OverLimit, aware
from backend.db.common import hash_token
from backend.db.models import Analysis
from backend.db.store import Store
from backend.engine import Action, DealState
from backend.ops import metrics

from .ports import Clock, Rater
from .replay import frame_action

log = logging.getLogger(__name__)

HOUR = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class AnalysisLimits:
    """What the analyses of one process may take (settings ``ANALYSIS_*``, docs/operating.md)."""

    per_hour: int = 20  # analyses one asker may start in any hour
    queue: int = 8  # analyses queued or running in this process at most; one more: queue full
    concurrent: int = 1  # rated at once in this process; the others wait queued
    stale_s: float = 600.0  # a queued or running row unchanged this long was left by a process that died
    retry_after_s: int = 30  # what a refusal for a full queue tells the client to wait


@dataclass(frozen=True, slots=True)
class DealToAnalyse:
    """A finished deal of a stored match, as its replay cuts it (``replay.ReplayDeal``)."""

    match_id: str
    match_seed: int
    number: int
    n: int
    start: DealState
    plays: tuple[tuple[int, Action], ...]


@dataclass(frozen=True, slots=True)
class QueueFull:
    """This process has as many analyses queued or running as it takes: try again after ``retry_after_s``."""

    message: str
    retry_after_s: int


def asker_of(player_id: str | None, address: str | None) -> str:
    """Whom the per-asker limits count: the player, or (hashed, never stored as it is) the client
    address of someone without one."""
    if player_id is not None:
        return player_id
    return "address:" + hash_token(address or "unknown")[:48]


def rating_seed(match_seed: int, number: int, step: int) -> int:
    """The seed of one rating: from the match's stored seed, the deal's number and the step."""
    digest = hashlib.sha256(f"analysis:{match_seed}:{number}:{step}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def analysis_document(n: int, analysis: DealAnalysis) -> dict[str, Any]:
    """A deal's analysis as it is stored and served (docs/protocol.md, "Analysis"): the actions as the
    replay's frames show them."""
    return {
        "version": analysis.version,
        "seats": n,
        "given_away": list(analysis.given_away),
        "ratings": [
            {
                "step": r.step,
                "seat": r.seat,
                "taken": frame_action(r.seat, r.taken),
                "best": frame_action(r.seat, r.best),
                "taken_scores": list(r.taken_scores),
                "best_scores": list(r.best_scores),
                "given_away": r.given_away,
                "grade": r.grade,
                "exact": r.exact,
                "worlds": r.worlds,
                "forced": r.forced,
            }
            for r in analysis.ratings
        ],
    }


class Analyses:
    """The analysis jobs of one process, over the stored rows."""

    def __init__(self, store: Store, rater: Rater, clock: Clock, limits: AnalysisLimits = AnalysisLimits()) -> None:
        self._store = store
        self._rater = rater
        self._clock = clock
        self._limits = limits
        self._slots = asyncio.Semaphore(limits.concurrent)
        self._jobs: dict[tuple[str, int], asyncio.Task[None]] = {}
        metrics.track(metrics.ANALYSES_IN_FLIGHT, lambda: len(self._jobs))

    def serves(self, row: Analysis) -> bool:
        """Whether a stored row is the deal's analysis, or one being made: of the current version, and
        done, or queued or running here or, elsewhere, not stale."""
        if row.version != ANALYSIS_VERSION:
            return False
        if row.status == "done":
            return True
        if row.status not in IN_FLIGHT:
            return False
        running_here = (row.match_id, row.number) in self._jobs
        return running_here or aware(row.updated_at) > self._clock.now() - timedelta(seconds=self._limits.stale_s)

    def shown(self, row: Analysis | None) -> Analysis | None:
        """The stored row as the deal's analysis is shown (None: never asked, or of an older version, or
        left behind by a process that died); a failed one is shown with why."""
        if row is None or row.version != ANALYSIS_VERSION:
            return None
        return row if row.status == "failed" or self.serves(row) else None

    async def request(self, deal: DealToAnalyse, asker: str) -> Analysis | OverLimit | QueueFull:
        """The deal's analysis: served as stored, or started for ``asker`` (queued), or refused."""
        key = (deal.match_id, deal.number)
        stored = await asyncio.to_thread(self._store.analyses.get, *key)
        if stored is not None and self.serves(stored):
            return stored
        if len(self._jobs) >= self._limits.queue:
            metrics.ANALYSES.labels("queue_full").inc()
            return QueueFull(
                f"{len(self._jobs)} analyses are waiting here; try again in {self._limits.retry_after_s} s",
                self._limits.retry_after_s,
            )
        now = self._clock.now()
        limits = AskerLimits(
            stale_before=now - timedelta(seconds=self._limits.stale_s),
            window_start=now - HOUR,
            per_window=self._limits.per_hour,
        )
        outcome = await asyncio.to_thread(
            self._store.analyses.claim,
            *key,
            asker=asker,
            version=ANALYSIS_VERSION,
            now=now,
            serves=self.serves,
            limits=limits,
        )
        if isinstance(outcome, OverLimit):
            metrics.ANALYSES.labels("limited").inc()
            return outcome
        if isinstance(outcome, Claimed) and key not in self._jobs:
            metrics.ANALYSES.labels("started").inc()
            self._jobs[key] = asyncio.create_task(self._run(deal), name=f"analysis-{deal.match_id}-{deal.number}")
        assert isinstance(outcome, Claimed | Found)
        return outcome.row

    async def _run(self, deal: DealToAnalyse) -> None:
        key = (deal.match_id, deal.number)
        try:
            async with self._slots:
                planned = await asyncio.to_thread(decisions, deal.start, deal.plays)
                await self._progress(deal, 0, len(planned))
                ratings = []
                for decision in planned:
                    seed = rating_seed(deal.match_seed, deal.number, decision.step)
                    ratings.append(await self._rater(decision, seed))
                    await self._progress(deal, len(ratings), len(planned))
                document = analysis_document(deal.n, summarize(deal.n, ratings))
                await asyncio.to_thread(self._store.analyses.finish, *key, document, self._clock.now())
                metrics.ANALYSES.labels("done").inc()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.warning("the analysis of deal %d of match %s failed: %r", deal.number, deal.match_id, error)
            metrics.ANALYSES.labels("failed").inc()
            message = f"the analysis failed: {type(error).__name__}: {error}"
            try:
                await asyncio.to_thread(self._store.analyses.fail, *key, message, self._clock.now())
            except Exception as unstored:  # the database is away too: the row goes stale instead
                log.warning("the failed analysis of match %s could not be stored: %r", deal.match_id, unstored)
        finally:
            self._jobs.pop(key, None)

    async def _progress(self, deal: DealToAnalyse, done: int, total: int) -> None:
        now = self._clock.now()
        await asyncio.to_thread(self._store.analyses.progress, deal.match_id, deal.number, done, total, now)

    async def shutdown(self) -> None:
        """Stop the jobs of this process; their rows are marked failed, so that the next request starts
        them again at once (a process that dies instead leaves them to go stale)."""
        jobs: Sequence[tuple[tuple[str, int], asyncio.Task[None]]] = list(self._jobs.items())
        for _, job in jobs:
            job.cancel()
        await asyncio.gather(*(job for _, job in jobs), return_exceptions=True)
        for (match_id, number), _ in jobs:
            message = "the analysis was interrupted by a restart of the server: ask again"
            await asyncio.to_thread(self._store.analyses.fail, match_id, number, message, self._clock.now())
