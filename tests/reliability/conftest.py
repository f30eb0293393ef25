from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.services import ServerProcess, serving


@pytest.fixture(scope="module")
def module_sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server for a module whose tests only add their own players and tables."""
    with serving("sqlite", tmp_path_factory.mktemp("reliability")) as process:
        yield process
