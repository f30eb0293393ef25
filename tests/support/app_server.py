"""The real app served by uvicorn on a real socket inside the test's own event loop, for tests that
give it ports of their own (a clock the test moves, a rater it holds back or makes fail), which a
server in a child process could not be given. ``FakeClock`` is such a clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import uvicorn

from backend.api.app import create_app
from backend.rooms.ports import Clock, Rater
from backend.settings import Settings
from tests.support.services import free_port


class FakeClock:
    """The app's clock (``rooms.ports.Clock``): it stands still until the test moves it."""

    def __init__(self, now: datetime) -> None:
        self._now = now
        self._moved = asyncio.Event()

    def now(self) -> datetime:
        return self._now

    def advance(self, by: timedelta) -> None:
        self._now += by
        self._moved.set()

    async def sleep_until(self, deadline: datetime) -> None:
        while self._now < deadline:
            self._moved.clear()
            await self._moved.wait()


@dataclass(frozen=True)
class AppServer:
    """Where the app listens (the attributes ``tests.support.tables.table`` reads of a server)."""

    url: str
    ws_url: str
    database_url: str


@asynccontextmanager
async def app_serving(
    database_url: str, folder: Path, *, clock: Clock, rater: Rater, **settings: object
) -> AsyncIterator[AppServer]:
    """The app on ``database_url`` with ``clock`` and ``rater``, served until the block ends. Scripted
    clients are let play as fast as they can, as ``ServerProcess`` lets them."""
    configured = Settings.model_validate(
        {
            "database_url": database_url,
            "frontend_dir": folder / "no-client",
            "rest_limits": False,
            "rate_limit_intents": 100_000,
            "max_open_tables": 1000,
            "max_sockets_per_address": 100_000,
            "bot_delay_s": 0,
            **settings,
        }
    )
    app = create_app(configured, clock=clock, rater=rater)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False, lifespan="on"
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            serving.result()  # it failed to start: raise why
        await asyncio.sleep(0.01)
    try:
        yield AppServer(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", database_url)
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 30)
