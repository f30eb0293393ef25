"""The computer analysis of a finished deal (issue 26): ``POST`` starts it, ``GET`` shows its progress
or result, ``GET /api/matches/{id}/analysis`` every finished deal's status and the points each seat
gave away (docs/protocol.md, "Analysis").

Who may ask is exactly who may replay the match (``routes.replay_source``: its players; others as they
could have watched it, with the watch code at a private table; only once the match is over, refused
as the replay is). A deal a resignation ended is never analysed (``409 deal_unfinished``): nothing
of a deal that was not played out goes through this path. The jobs, the stored rows and the limits
are ``backend/rooms/analysis.py``'s.
"""

from __future__ import annotations

import asyncio
from typing import cast

from fastapi import APIRouter, HTTPException, Request, Response

from backend.db.analyses import OverLimit
from backend.db.models import Analysis
from backend.rooms.analysis import Analyses, DealToAnalyse, QueueFull, asker_of
from backend.rooms.replay import match_deals

from .codes import AnalysisCode
from .deps import OptionalPlayer, StoreDep, api_error, client_address, limited
from .params import MatchId
from .routes import ReplaySource, WatchCode, replay_source
from .schemas import AnalysisStatus, DealAnalysisOut, DealAnalysisState, MatchAnalysis, MatchAnalysisDeal

router = APIRouter(prefix="/api")


def _analyses(request: Request) -> Analyses:
    return cast(Analyses, request.app.state.analyses)


def _finished_deal(source: ReplaySource, number: int) -> DealToAnalyse:
    """The deal ``number`` of the match, if it was played out (404 ``deal_not_found``, 409
    ``deal_unfinished``)."""
    match = source.match
    deal = next((d for d in match_deals(source.rules, int(match.seed), source.actions) if d.number == number), None)
    if deal is None:
        raise api_error(404, AnalysisCode.DEAL_NOT_FOUND, f"match {match.id!r} has no deal {number}")
    if source.results.get(number) is None:
        raise api_error(409, AnalysisCode.DEAL_UNFINISHED, "a resignation ended this deal: it cannot be analysed")
    return DealToAnalyse(match.id, int(match.seed), number, source.rules.n, deal.start, deal.plays)


def _state(match_id: str, number: int, row: Analysis | None) -> DealAnalysisState:
    if row is None:
        return DealAnalysisState(
            match_id=match_id, number=number, status="none", done=0, total=0, analysis=None, message=None
        )
    result = None if row.status != "done" or row.result is None else DealAnalysisOut.model_validate(row.result)
    return DealAnalysisState(
        match_id=match_id,
        number=number,
        status=cast(AnalysisStatus, row.status),
        done=row.done,
        total=row.total,
        analysis=result,
        message=row.message if row.status == "failed" else None,
    )


# ``response_model_exclude_unset``: an action names only its own kind's fields, as the replay's frames do.
@router.post(
    "/matches/{match_id}/deals/{number}/analysis",
    response_model=DealAnalysisState,
    response_model_exclude_unset=True,
    status_code=202,
    responses={200: {"model": DealAnalysisState, "description": "the analysis is stored: done"}},
    tags=["analysis"],
    dependencies=[limited("analyses")],
)
async def analyse_deal(
    request: Request,
    response: Response,
    match_id: MatchId,
    number: int,
    player: OptionalPlayer,
    store: StoreDep,
    code: WatchCode = None,
) -> DealAnalysisState:
    """Start the deal's analysis unless it is stored: ``202`` while it is queued or running, ``200``
    once done. ``429 analysis_limit``: the asker has one in flight, or started the hour's allowance;
    ``503 analysis_queue_full`` (``Retry-After``): this process has as many as it takes."""
    source = await replay_source(store, match_id, player, code)
    deal = _finished_deal(source, number)
    analyses = _analyses(request)
    outcome = await analyses.request(deal, asker_of(None if player is None else player.id, client_address(request)))
    if isinstance(outcome, OverLimit):
        raise api_error(429, AnalysisCode.ANALYSIS_LIMIT, outcome.message)
    if isinstance(outcome, QueueFull):
        raise HTTPException(
            status_code=503,
            detail={"code": AnalysisCode.ANALYSIS_QUEUE_FULL, "message": outcome.message},
            headers={"Retry-After": str(outcome.retry_after_s)},
        )
    state = _state(source.match.id, number, analyses.shown(outcome))
    response.status_code = 200 if state.status == "done" else 202
    return state


@router.get(
    "/matches/{match_id}/deals/{number}/analysis",
    response_model=DealAnalysisState,
    response_model_exclude_unset=True,
    tags=["analysis"],
)
async def deal_analysis(
    request: Request, match_id: MatchId, number: int, player: OptionalPlayer, store: StoreDep, code: WatchCode = None
) -> DealAnalysisState:
    """The deal's analysis as stored: ``none`` if nobody asked for it (or it must be made again)."""
    source = await replay_source(store, match_id, player, code)
    deal = _finished_deal(source, number)
    row = await asyncio.to_thread(store.analyses.get, deal.match_id, number)
    return _state(source.match.id, number, _analyses(request).shown(row))


@router.get("/matches/{match_id}/analysis", response_model=MatchAnalysis, tags=["analysis"])
async def match_analysis(
    request: Request, match_id: MatchId, player: OptionalPlayer, store: StoreDep, code: WatchCode = None
) -> MatchAnalysis:
    """Every finished deal's analysis status, and per seat the points given away over the analysed ones."""
    source = await replay_source(store, match_id, player, code)
    n = source.rules.n
    analyses = _analyses(request)
    rows = {row.number: analyses.shown(row) for row in await asyncio.to_thread(store.analyses.of_match, match_id)}
    deals: list[MatchAnalysisDeal] = []
    total = [0.0] * n
    for number in sorted(number for number, result in source.results.items() if result is not None):
        state = _state(source.match.id, number, rows.get(number))
        given = None if state.analysis is None else state.analysis.given_away
        for seat, points in enumerate(given or ()):
            total[seat] += points
        deals.append(MatchAnalysisDeal(number=number, status=state.status, given_away=given))
    return MatchAnalysis(
        match_id=source.match.id,
        seats=n,
        deals=deals,
        given_away=total,
        analysed=sum(deal.status == "done" for deal in deals),
        finished_deals=len(deals),
    )
