"""The FastAPI application factory: ``uvicorn backend.api.app:create_app --factory``."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError

from backend.db.database import UNREACHABLE
from backend.db.store import Store
from backend.db.writes import StoreUnavailable
from backend.ops import logs, shutdown
from backend.ops import web as ops_web
from backend.ops.redaction import install_secret_filter
from backend.push.service import Pusher, PushTiming
from backend.push.store import PushRepository
from backend.push.vapid import VapidKey, new_private_pem
from backend.rooms.adapters import LocalBus, SystemClock
from backend.rooms.analysis import Analyses, AnalysisLimits
from backend.rooms.bots import ProcessBotRunner
from backend.rooms.cluster import RedisCluster
from backend.rooms.codes import CloseCode
from backend.rooms.ports import Clock, Rater
from backend.rooms.reactions import ReactionLimits
from backend.rooms.service import Rooms, RoomTiming
from backend.rooms.sql_store import SqlRoomStore
from backend.rooms.watch import Spectators, WatchLimits
from backend.settings import Settings, get_settings

from . import analysis, friends, head_to_head, my_games, push, routes, ws
from .codes import TransportCode
from .headers import SecurityHeaders
from .limits import Limiter, MemoryCounters, RedisCounters, limits_from
from .lobby_events import LobbyEvents
from .static import StaticClient

log = logging.getLogger("backend")


def create_app(settings: Settings | None = None, *, clock: Clock | None = None, rater: Rater | None = None) -> FastAPI:
    """The app; ``clock`` (the rooms' and the analyses') and ``rater`` (the analyses': by default the
    bot pool's ``ProcessBotRunner.rate``) are the system's unless a test gives its own."""
    settings = settings or get_settings()
    install_secret_filter()
    logs.configure(settings.log_format, settings.log_level)  # docs/operating.md

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        app.state.store = store
        # Without REDIS_URL one process serves every room; with it, this process joins a cluster of
        # identical ones and serves the rooms whose lease it holds (docs/scaling.md).
        cluster = None if settings.redis_url is None else RedisCluster(settings.redis_url)
        app.state.cluster = cluster
        if settings.rest_limits:  # counted in Redis when processes share the rooms, else here
            counters = MemoryCounters() if cluster is None else RedisCounters(cluster.redis)
            app.state.limiter = Limiter(counters, limits_from(settings.rate_limits))
        # One pool: the computer's moves, and processes of their own for the hints and the analyses.
        bots = ProcessBotRunner(settings.bot_workers, analysis_workers=settings.analysis_concurrent)
        the_clock = clock or SystemClock()
        app.state.rooms = Rooms(
            store,
            SqlRoomStore(store, crash_after_commits=settings.crash_after_commits),
            bus=LocalBus() if cluster is None else cluster.bus,
            clock=the_clock,
            bots=bots,
            timing=RoomTiming(
                bot_delay_s=settings.bot_delay_s,
                rematch_timeout_s=settings.rematch_timeout_s,
                open_table_ttl_s=settings.open_table_ttl_s,
                housekeeping_s=settings.housekeeping_interval_s,
                reactions=ReactionLimits(settings.reaction_limit, settings.reaction_window_s),
            ),
            cluster=cluster,
            spectators=Spectators(WatchLimits(settings.spectators_per_room, settings.spectators_per_process)),
            match_seed=settings.match_seed,
        )
        app.state.analyses = Analyses(
            store,
            rater or bots.rate,
            the_clock,
            AnalysisLimits(
                per_hour=settings.analysis_per_hour,
                queue=settings.analysis_queue,
                concurrent=settings.analysis_concurrent,
                stale_s=settings.analysis_stale_s,
                retry_after_s=settings.analysis_retry_after_s,
            ),
        )
        rebuilt = await app.state.rooms.start()
        rooms: Rooms = app.state.rooms
        # "Play again" invitations (backend/api/friends.py), "My games" and the public tables.
        lobby_events = LobbyEvents(
            store,
            cluster,
            games=lambda player_id: my_games.my_games(store, rooms, player_id),
            tables=lambda: my_games.lobby_tables(store, rooms),
            tables_every_s=settings.lobby_tables_s,
        )
        app.state.lobby_events = lobby_events
        rooms.lobby.on_table_changed = lobby_events.table_changed
        rooms.registry.on_changed.append(lobby_events.room_changed)
        pusher = None
        if settings.push:  # Web Push (backend/push): the key pair, made on first start unless a setting gives it
            push_repo = PushRepository(store.database)
            given = settings.vapid_private_key
            private = (
                given.get_secret_value()
                if given is not None
                else await asyncio.to_thread(push_repo.key, new_private_pem)
            )
            app.state.vapid = VapidKey(private, settings.vapid_subject)
            app.state.push_repo = push_repo
            timing = PushTiming(
                settings.push_poll_s, settings.push_timeout_s, settings.push_retries, settings.push_backoff_s
            )
            pusher = Pusher(push_repo, app.state.vapid, the_clock, timing)
            app.state.pusher = pusher
            rooms.registry.on_changed.append(pusher.room_changed)
            pusher.start()

        async def drain() -> None:  # SIGTERM: hand the rooms over, send the sockets elsewhere
            await rooms.drain(CloseCode.SERVICE_RESTART, "server restarting; reconnect")
            lobby_events.close_all()  # the lobby streams reconnect elsewhere too
            await rooms.sockets_closed(timeout=settings.shutdown_timeout_s * 0.2)

        shutdown.install(asyncio.get_running_loop(), drain, settings.shutdown_timeout_s)
        if cluster is None:
            log.info("rebuilt %d live room(s) from the action log", rebuilt)
        else:
            log.info("joined the cluster as %s", cluster.id)
        # Full garbage collections over a large heap stall the event loop for 100 ms and more, the
        # worst of the round-trip tail under load. Objects alive after start-up are frozen out of
        # collection, and collections are made rarer (the game state creates few cycles).
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 20, 100)
        try:
            yield
        finally:
            lobby_events.close_all()
            if pusher is not None:
                await pusher.stop()
            await app.state.analyses.shutdown()
            await app.state.rooms.shutdown()
            store.dispose()

    app = FastAPI(
        title="1001 online",
        version="0.1.0",
        description="Two friends play the German card game 1001 (Tausendundeins). See docs/protocol.md.",
        lifespan=lifespan,
        redoc_url=None,  # /docs is the reference; ReDoc would need fonts and workers from elsewhere
    )
    app.state.settings = settings
    app.state.limiter = None
    app.state.push_repo = None
    app.state.pusher = None
    for away in (*UNREACHABLE, StoreUnavailable):  # an outage is a 503 on every route, never a 500
        app.add_exception_handler(away, _database_away)
    app.add_exception_handler(RedisError, _redis_away)
    app.state.sockets_by_address = ws.SocketsByAddress(settings.max_sockets_per_address)
    app.include_router(routes.router)
    app.include_router(friends.router)
    app.include_router(head_to_head.router)
    app.include_router(analysis.router)
    app.include_router(push.router)
    app.include_router(ws.router)
    if settings.metrics:
        app.include_router(ops_web.router)  # /metrics: off unless METRICS=1 (docs/operating.md)
    app.add_middleware(shutdown.DrainGate)
    docs = get_swagger_ui_html(  # as FastAPI renders /docs, for the hash of its inline script
        openapi_url=app.openapi_url or "/openapi.json",
        title=f"{app.title} - Swagger UI",
        oauth2_redirect_url=app.swagger_ui_oauth2_redirect_url,
        init_oauth=app.swagger_ui_init_oauth,
        swagger_ui_parameters=app.swagger_ui_parameters,
    )
    app.add_middleware(SecurityHeaders, docs_path=app.docs_url, docs_html=bytes(docs.body).decode())
    if settings.frontend_dir.is_dir():
        client = StaticClient(settings.frontend_dir, reload=settings.frontend_reload)  # backend/api/static.py
        app.mount("/", client, name="frontend")
    return app


OUTAGE_RETRY_AFTER_S = "1"  # an outage's 503: try again in a second (docs/reliability.md)


async def _database_away(request: Request, error: Exception) -> JSONResponse:
    log.warning("%s %s: the database is unreachable: %s", request.method, request.url.path, str(error).split("\n")[0])
    return _outage(TransportCode.DATABASE_UNAVAILABLE, "the database is unreachable for a moment; try again")


async def _redis_away(request: Request, error: Exception) -> JSONResponse:
    log.warning("%s %s: Redis is unreachable: %s", request.method, request.url.path, error)
    return _outage(TransportCode.REDIS_UNAVAILABLE, "the cluster's Redis is unreachable for a moment; try again")


def _outage(code: str, message: str) -> JSONResponse:
    body = {"detail": {"code": code, "message": message}}
    return JSONResponse(body, status_code=503, headers={"Retry-After": OUTAGE_RETRY_AFTER_S})
