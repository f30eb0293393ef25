"""Delivery in the real browser: one dictionary per visit, the preloaded module graph, the lazily
loaded table, and the service worker (it keeps the versioned client and the page, never /api or /ws)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.support.services import ROOT, ServerProcess, serving

from .conftest import PHONE
from .helpers import choose_name, create_table, open_seat

pytestmark = pytest.mark.browser

VERSIONED = re.compile(r"^/v/([0-9a-f]+)/(.+)$")
ANNOUNCED = "[...document.querySelectorAll('link[rel=modulepreload]')].map((link) => link.href)"


def versioned_paths(urls: list[str]) -> list[str]:
    """The files named by versioned URLs, in request order (``js/app.js``)."""
    found = (VERSIONED.match(urlsplit(url).path) for url in urls)
    return [match.group(2) for match in found if match]


def test_first_visit_loads_one_dictionary_and_only_the_preloaded_modules(
    e2e_server: ServerProcess, browser: Any
) -> None:
    seat = open_seat(browser, e2e_server.url, "Sprache", PHONE, locale="de-DE")
    page = seat.page
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    try:
        page.goto("/#/rules")
        expect(page.get_by_test_id("nav-history")).to_have_text("Verlauf")
        expect(page.locator("#app h1")).to_be_visible()
        page.wait_for_load_state("networkidle")
        files = versioned_paths(requested)
        assert [f for f in files if f.startswith("js/i18n/")] == ["js/i18n/de.js"]
        # Every module of the page was announced by a modulepreload line: no import waterfall.
        preloads = page.evaluate(
            "[...document.querySelectorAll('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname)"
        )
        modules = {f for f in files if f.endswith(".js") and not f.startswith("js/i18n/")}
        announced = set(versioned_paths([f"http://x{p}" for p in preloads]))
        assert modules == {"js/app.js", "js/preload-lang.js", *announced} - {"js/i18n/de.js"}
        assert "js/i18n/de.js" in announced  # the page's language, announced by js/preload-lang.js
        # The table and the history are not part of a first visit to the rules.
        assert not any(f.startswith(("js/views/table", "js/table/", "js/views/history")) for f in files)

        # Another language loads its dictionary then; one loaded before is not fetched again.
        page.get_by_test_id("lang-select").select_option("ru")
        expect(page.get_by_test_id("nav-history")).to_have_text("История")
        page.get_by_test_id("lang-select").select_option("de")
        expect(page.get_by_test_id("nav-history")).to_have_text("Verlauf")
        dictionaries = [f for f in versioned_paths(requested) if f.startswith("js/i18n/")]
        assert dictionaries == ["js/i18n/de.js", "js/i18n/ru.js"]

        # A view loaded on demand: its modules were all announced at once (index.html's module
        # graph), none was found on the way.
        requested.clear()
        page.goto("/#/history")
        expect(page.get_by_test_id("nav-history")).to_have_attribute("aria-current", "page")
        expect(page.locator("#app h1")).to_be_visible()
        page.wait_for_load_state("networkidle")
        modules = {f for f in versioned_paths(requested) if f.endswith(".js")}
        announced = set(versioned_paths(page.evaluate(ANNOUNCED)))
        assert "js/views/history.js" in modules and modules <= announced, modules - announced
        assert seat.errors == []
    finally:
        seat.context.close()


@pytest.mark.parametrize(
    ("locale", "saved", "expected"),
    [("fr-FR", None, "en"), ("en-US", "ru", "ru"), ("ru-RU", "xx", "ru"), ("de-AT", None, "de")],
)
def test_the_page_and_the_module_choose_the_same_language(
    e2e_server: ServerProcess, browser: Any, locale: str, saved: str | None, expected: str
) -> None:
    """index.html starts fetching the dictionary before js/i18n.js runs: both must pick the same one."""
    seat = open_seat(browser, e2e_server.url, "Choice", PHONE, locale=locale)
    if saved is not None:
        seat.context.add_init_script(f"localStorage.setItem('1001.lang', '{saved}')")
    requested: list[str] = []
    seat.page.on("request", lambda request: requested.append(request.url))
    try:
        seat.page.goto("/#/rules")
        expect(seat.page.locator("#app h1")).to_be_visible()
        assert seat.page.evaluate("document.documentElement.lang") == expected
        seat.page.wait_for_load_state("networkidle")
        assert [f for f in versioned_paths(requested) if f.startswith("js/i18n/")] == [f"js/i18n/{expected}.js"]
        assert seat.errors == []
    finally:
        seat.context.close()


FIRST_VISIT_BUDGET = 80 * 1024  # bytes transferred on a first visit (bench/delivery.py's goal)


@pytest.mark.parametrize("path", ["/", "/#/rules"])
def test_a_first_visit_stays_within_80_kb_with_the_card_faces_and_the_motion(
    e2e_server: ServerProcess, browser: Any, path: str
) -> None:
    """Issue 22: the court cards' pictures (inline SVG), the four-colour deck and the cards' motion
    add no image file and keep a first visit of the lobby or the rules at or under 80 KB transferred
    (the sum of every response's encoded length, as bench/delivery.py counts it)."""
    seat = open_seat(browser, e2e_server.url, "Weight", PHONE)
    page = seat.page
    cdp = seat.context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: dict[str, int] = {}
    urls: dict[str, str] = {}
    cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    try:
        page.goto(path)
        expect(page.locator("#app h1")).to_be_visible()
        page.wait_for_load_state("networkidle")
        total = sum(sizes.values())
        files = sorted(((size, urls.get(rid, "?")) for rid, size in sizes.items()), reverse=True)
        assert total <= FIRST_VISIT_BUDGET, (total, files[:8])
        images = [url for url in urls.values() if re.search(r"\.(png|jpe?g|webp|gif)(\?|$)", url)]
        assert all("/icons/" in url for url in images), images  # card faces are never image files
        assert seat.errors == []
    finally:
        seat.context.close()


def cached_urls(page: Any) -> dict[str, list[str]]:
    return page.evaluate(
        """async () => {
          const out = {};
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            out[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
          }
          return out;
        }"""
    )


def test_service_worker_keeps_the_client_and_never_the_game(e2e_server: ServerProcess, browser: Any) -> None:
    seat = open_seat(browser, e2e_server.url, "Offline", PHONE)
    page = seat.page
    try:
        page.goto("/#/")
        choose_name(page, "Worker")
        assert page.evaluate("navigator.serviceWorker.ready.then(() => window.isSecureContext)") is True
        page.reload()
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        # A player with a name: the table's modules were preloaded while the page was idle.
        # (A predicate as a function: an expression would be eval'ed in the page, which its policy forbids.)
        page.wait_for_function("() => document.querySelector('link[rel=modulepreload][href$=\"/js/views/table.js\"]')")
        announced = set(versioned_paths(page.evaluate(ANNOUNCED)))
        assert {"js/views/table.js", "js/table/store.js"} <= announced
        # The game under the worker: REST calls, a socket, the lazily loaded table view.
        create_table(page)
        page.goto("/#/history")
        expect(page.get_by_test_id("nav-history")).to_have_attribute("aria-current", "page")
        page.wait_for_load_state("networkidle")
        version = page_version(page)
        caches = cached_urls(page)
        assert list(caches) == [f"1001-static-{version}"]
        kept = next(iter(caches.values()))
        assert "/" in kept and f"/v/{version}/js/app.js" in kept
        assert f"/v/{version}/js/views/table.js" in kept  # loaded later, through the worker
        assert all(path == "/" or path.startswith(f"/v/{version}/") for path in kept), kept
        assert not [path for path in kept if path.startswith(("/api", "/ws"))]

        # Offline, the page still opens from what the worker kept.
        seat.context.set_offline(True)
        page.goto("/#/rules")
        page.reload()
        expect(page.get_by_test_id("nav-rules")).to_have_attribute("aria-current", "page")
        expect(page.locator("#app h1")).to_be_visible()
        seat.context.set_offline(False)
        assert not [e for e in seat.errors if "ERR_INTERNET_DISCONNECTED" not in e], seat.errors
    finally:
        seat.context.close()


def test_a_page_that_fails_to_load_reloads_once(e2e_server: ServerProcess, browser: Any) -> None:
    """A view that cannot be imported (after a deploy, old and new modules may not fit): one reload."""
    seat = open_seat(browser, e2e_server.url, "Reload", PHONE, service_workers="block")
    page = seat.page
    refused: list[str] = []

    def refuse_once(route: Any) -> None:
        if refused:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    try:
        page.goto("/#/")
        expect(page.locator("#app h1")).to_be_visible()
        page.route("**/js/views/history.js", refuse_once)
        with page.expect_navigation():
            page.goto("/#/history")
        expect(page.get_by_test_id("nav-history")).to_have_attribute("aria-current", "page")
        expect(page.locator("#app h1")).to_be_visible()
        assert len(refused) == 1
        assert page.evaluate("sessionStorage.getItem('1001.reloaded-for-update')") is None
        assert [e for e in seat.errors if "could not load the page" not in e and "ERR_FAILED" not in e] == []
    finally:
        seat.context.close()


def test_a_new_version_replaces_the_kept_one(browser: Any, tmp_path: Path) -> None:
    """A deploy (here: an edited file of a copy of the client) gives a new worker, which keeps the
    new version and deletes the old version's cache."""
    client = tmp_path / "frontend"
    shutil.copytree(ROOT / "frontend", client)
    with serving("sqlite", tmp_path, FRONTEND_DIR=str(client)) as server:
        seat = open_seat(browser, server.url, "Deploy", PHONE)
        page = seat.page
        try:
            page.goto("/#/rules")
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            before = page_version(page)
            page.wait_for_function(f"async () => (await caches.keys()).join() === '1001-static-{before}'")

            rules = client / "js" / "views" / "rules.js"
            rules.write_text(rules.read_text() + "\n// a new version\n")
            page.reload()
            after = page_version(page)
            assert after != before
            page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
            # The new worker fills its cache file by file, then deletes the old version's cache.
            # (wait_for_function does not await an async predicate, so poll from here.)
            wanted = f"/v/{after}/js/views/rules.js"
            for _ in range(300):  # up to 30 s on a busy machine
                caches = cached_urls(page)
                if list(caches) == [f"1001-static-{after}"] and wanted in caches[f"1001-static-{after}"]:
                    break
                page.wait_for_timeout(100)
            assert list(caches) == [f"1001-static-{after}"], caches
            assert wanted in caches[f"1001-static-{after}"], caches
            assert not [e for e in seat.errors if "ERR_INTERNET_DISCONNECTED" not in e], seat.errors
        finally:
            seat.context.close()


def page_version(page: Any) -> str:
    src = page.evaluate("document.querySelector('script[type=module]').src")
    match = VERSIONED.match(urlsplit(src).path)
    assert match, src
    return match.group(1)
