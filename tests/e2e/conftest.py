"""Browser fixtures: a real uvicorn server on a temporary SQLite file, and Debian's chromium.

Playwright's own browser downloads are never used: the tests launch /usr/bin/chromium. Without it
the tests skip, unless REQUIRE_SERVICES=1 (CI), where a missing browser fails them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.services import ServerProcess, missing_service, serving

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="package")
def e2e_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the whole browser suite (each test creates its own players and tables)."""
    # The computer opponent waits 0.6 s before each card so that people can follow; tests need not.
    with serving("sqlite", tmp_path_factory.mktemp("e2e"), BOT_DELAY_S="0.05") as server:
        yield server


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """Package-scoped: Playwright's sync API keeps an event loop running in this thread while it is
    open, which would break every asyncio test collected after the browser suite."""
    if not Path(CHROMIUM).exists():
        missing_service(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the dev extra installs it
        missing_service("playwright is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# MATCH_SEED=6 (tests only): in every match's first deal the room's creator (seat 0) leads and holds
# K♥ Q♥, so a marriage can be declared on the first card (checked by the tests that rely on it).
SEEDED_MATCH = 6
VIEWPORTS = {
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "360x640": {"width": 360, "height": 640},
    "1366x768": {"width": 1366, "height": 768},
    "768x1024": {"width": 768, "height": 1024},  # a tablet, upright
    "1024x768": {"width": 1024, "height": 768},  # a tablet, on its side
}


@pytest.fixture(scope="package")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose matches all deal the same cards (MATCH_SEED) and whose computer answers quickly."""
    with serving(
        "sqlite", tmp_path_factory.mktemp("e2e-seeded"), BOT_DELAY_S="0.05", MATCH_SEED=str(SEEDED_MATCH)
    ) as server:
        yield server
