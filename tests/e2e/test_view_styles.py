"""The views' own stylesheets (backend/api/static.py, ``data-for`` in index.html): left out of the
first visit, linked by the router when a view opens, and loaded before the view draws (no flash of
an unstyled page) — after a navigation from the lobby and on a direct load of the view's URL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import PHONE
from .helpers import ScriptedTable, open_seat, start_computer_match

pytestmark = pytest.mark.browser

# Each time #app gets its first child after being emptied (a view drew): the route and, for every
# bundle linked so far, whether its sheet had loaded.
RECORD_DRAWS = """
window.__draws = [];
document.addEventListener('DOMContentLoaded', () => {
  const app = document.getElementById('app');
  if (!app) return; // about:blank
  let empty = true;
  new MutationObserver(() => {
    if (app.children.length && empty) {
      const linked = {};
      for (const link of document.querySelectorAll('link[rel=stylesheet]')) {
        linked[new URL(link.href).pathname.replace(/^\\/v\\/[0-9a-f]+\\//, '')] = !!link.sheet;
      }
      window.__draws.push({ hash: location.hash, linked });
    }
    empty = app.children.length === 0;
  }).observe(app, { childList: true });
});
"""


def view_styles(page: Page) -> dict[str, list[str]]:
    listed = json.loads(page.locator("#view-styles").text_content() or "{}")
    views: dict[str, list[str]] = listed["views"]
    return views


def assert_styled_when_drawn(page: Page, prefix: str, view: str) -> None:
    """The last draw on a route starting with ``prefix`` had every bundle ``view`` needs loaded."""
    needed = view_styles(page)[f"js/views/{view}.js"]
    draws = [d for d in page.evaluate("() => window.__draws") if d["hash"].startswith(prefix)]
    assert draws, (prefix, page.evaluate("() => window.__draws"))
    linked = draws[-1]["linked"]
    assert linked.get("css/_all.css") is True
    for bundle in needed:
        assert linked.get(bundle) is True, (view, bundle, linked)


def grid(page: Page, selector: str) -> None:
    expect(page.locator(selector).first).to_have_css("display", "grid")


def fresh(browser: Any, base_url: str, name: str) -> Any:
    seat = open_seat(browser, base_url, name, PHONE)
    seat.page.add_init_script(RECORD_DRAWS)
    return seat


def test_the_first_visit_has_only_the_common_sheet_and_rules_get_theirs_before_drawing(
    e2e_server: ServerProcess, browser: Any
) -> None:
    seat = fresh(browser, e2e_server.url, "Sheets")
    page = seat.page
    try:
        page.goto("/#/")
        expect(page.get_by_test_id("name-form")).to_be_visible()
        sheets = page.evaluate("() => [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.href)")
        assert len(sheets) == 1 and sheets[0].endswith("/css/_all.css"), sheets
        page.get_by_test_id("nav-rules").click()
        expect(page.locator(".rules-toc ol")).to_have_css("display", "flex")
        assert_styled_when_drawn(page, "#/rules", "rules")
        page.goto("/#/")
        page.reload()  # a direct load of the rules, too
        page.goto("/#/rules")
        expect(page.locator(".rules-toc ol")).to_have_css("display", "flex")
        assert_styled_when_drawn(page, "#/rules", "rules")
        assert seat.errors == []
    finally:
        seat.context.close()


def test_table_watch_replay_history_and_h2h_are_styled_from_the_lobby_and_on_a_direct_load(
    e2e_server: ServerProcess, browser: Any
) -> None:
    seat = fresh(browser, e2e_server.url, "Tisch")
    try:
        start_computer_match(seat.page, "Tisch")  # lobby → table
        grid(seat.page, ".ring")
        assert_styled_when_drawn(seat.page, "#/table/", "table")
        seat.page.reload()  # a direct load of #/table/<room>
        expect(seat.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        grid(seat.page, ".ring")
        assert_styled_when_drawn(seat.page, "#/table/", "table")
        assert seat.errors == []
    finally:
        seat.context.close()

    table = ScriptedTable(e2e_server.url, {"visibility": "public"})
    visitor = fresh(browser, e2e_server.url, "Zuschauer")
    page = visitor.page
    try:
        page.goto(f"/#/watch/{table.room_id}")  # direct load
        expect(page.get_by_test_id("spectator-table")).to_be_visible()
        grid(page, ".ring")
        assert_styled_when_drawn(page, "#/watch/", "watch")
        table.play(27)
        table.resign()
        match_id = table.match_id
        ids = [s.player.id for s in table.seats]
        for url, view, selector in (
            (f"#/replay/{match_id}/0", "replay", ".replay-page"),
            (f"#/history/{match_id}", "history", None),
            (f"#/h2h/{ids[0]},{ids[1]}", "h2h", None),  # a visitor without a name: asked for one
        ):
            # From the lobby, then directly.
            for direct in (False, True):
                page.goto("/#/")
                expect(page.get_by_test_id("name-form")).to_be_visible()
                if direct:
                    page.goto("about:blank")
                page.goto(f"/{url}")
                expect(page.locator("#app > *").first).to_be_visible()
                if selector:
                    grid(page, selector)
                page.wait_for_load_state("networkidle")
                assert_styled_when_drawn(page, url.split("/")[0] + "/" + url.split("/")[1], view)
        assert visitor.errors == []
    finally:
        visitor.context.close()
        table.close()
