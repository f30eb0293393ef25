from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.services import ServerProcess, database

from .helpers import log_problems


@pytest.fixture(scope="module")
def module_sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server for a module whose tests only add their own players and tables."""
    folder = tmp_path_factory.mktemp("reliability")
    with database("sqlite", folder) as url:
        process = ServerProcess(url, folder / "server.log")
        process.start()
        yield process
        process.stop()
        problems = log_problems(process.log_path.read_text(errors="replace"))
        assert not problems, "\n".join(problems[:20])
