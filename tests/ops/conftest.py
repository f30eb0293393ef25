"""Shared by the restart tests: two app processes on PostgreSQL and a private Redis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.services import RedisServer, ServerProcess, database

SHUTDOWN_S = 6.0
# A handshake that reaches a process in the very milliseconds uvicorn itself shuts down is refused by
# uvicorn with a 500 and this line (docs/operating.md); the client simply reconnects elsewhere.
UVICORN_SHUTDOWN_RACE = "ASGI callable returned without completing handshake"


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[list[ServerProcess], RedisServer, str]]:
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    try:
        with database("postgres", tmp_path) as url:
            env = {"REDIS_URL": redis_server.url, "BOT_DELAY_S": "0", "SHUTDOWN_TIMEOUT_S": str(SHUTDOWN_S)}
            servers = [ServerProcess(url, tmp_path / f"app{i}.log", **env) for i in range(2)]
            for server in servers:
                server.start()
            try:
                yield servers, redis_server, url
            finally:
                for server in servers:
                    server.stop()
            for server in servers:
                problems = [line for line in server.errors() if UVICORN_SHUTDOWN_RACE not in line]
                assert not problems, problems
    finally:
        redis_server.stop()
