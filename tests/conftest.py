from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.services import ServerProcess, database, serving

DATABASES = ["sqlite", "postgres"]


def _serve(database_url: str, log_dir: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(database_url, log_dir / "server.log")
    process.start()
    yield process
    process.stop()
    assert not process.errors(), process.log_path.read_text()[-3000:]


@pytest.fixture(params=DATABASES)
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
    """A server of its own, for tests that kill, restart or reconfigure it."""
    yield from _serve(database_url, tmp_path)


@pytest.fixture
def sqlite_server(sqlite_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _serve(sqlite_url, tmp_path)


@pytest.fixture(scope="module", params=DATABASES)
def shared_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server per test module and database, for tests that only add their own players and tables."""
    with serving(request.param, tmp_path_factory.mktemp(request.param)) as process:
        yield process
