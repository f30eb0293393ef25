"""The ``/metrics`` route, mounted only when ``METRICS=1`` (``backend.api.app``)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from backend.settings import Settings

from . import metrics

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def scrape(request: Request) -> Response:
    settings: Settings = request.app.state.settings
    client = request.client.host if request.client is not None else None
    if not metrics.scrape_allowed(settings.metrics_token, request.headers.get("authorization"), client):
        return Response(status_code=404)  # as if there were no such page
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)
