from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.services import ServerProcess, database


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The same tests run on SQLite (a file) and on PostgreSQL (127.0.0.1:5432)."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    with database("sqlite", tmp_path) as url:
        yield url


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(database_url, tmp_path / "server.log")
    process.start()
    yield process
    process.stop()
    assert not process.errors(), process.log_path.read_text()[-3000:]


@pytest.fixture
def sqlite_server(sqlite_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(sqlite_url, tmp_path / "server.log")
    process.start()
    yield process
    process.stop()
    assert not process.errors(), process.log_path.read_text()[-3000:]
