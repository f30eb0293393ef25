"""An axe-core audit (axe-playwright-python, which bundles axe-core's own axe.min.js) of every page at
390×844 and 1366×768: the lobby on a first visit and with a name, an invite, the table in phase 1
(also with its drawer and with the resign dialog open) and at the end of the match, the history
list, a match's detail, the rules and the device page (once it exists). No violation of impact
"serious" or "critical" may remain; each one found is listed with its rule, its help text and the
elements it names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import VIEWPORTS
from .helpers import invite_code_of_new_room, open_seat, settle, start_computer_match

pytestmark = pytest.mark.browser

SIZES = ("390x844", "1366x768")
BLOCKING = ("serious", "critical")


class Audit:
    def __init__(self, page: Page, artifacts: Path) -> None:
        from axe_playwright_python.sync_playwright import Axe

        self.axe = Axe()
        self.page = page
        self.artifacts = artifacts
        self.found: list[str] = []
        self.audited: list[str] = []

    def run(self, name: str) -> None:
        for size in SIZES:
            self.page.set_viewport_size(VIEWPORTS[size])
            settle(self.page)
            results = self.axe.run(self.page).response
            self.audited.append(f"{name} {size}")
            for violation in results["violations"]:
                if violation.get("impact") not in BLOCKING:
                    continue
                targets = ["/".join(map(str, node.get("target", []))) for node in violation["nodes"][:4]]
                more = len(violation["nodes"]) - len(targets)
                self.found.append(
                    f"{name} {size}: [{violation['impact']}] {violation['id']} — {violation['help']}: "
                    + ", ".join(targets)
                    + (f" (+{more} more)" if more > 0 else "")
                )
        self.page.set_viewport_size(VIEWPORTS["390x844"])


def test_no_serious_or_critical_axe_violation_on_any_page(
    seeded_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    # Reduced motion: colours are judged where they come to rest, not halfway through a fade.
    seat = open_seat(browser, seeded_server.url, "Axe", VIEWPORTS["390x844"], locale="en-GB", reduced_motion="reduce")
    page = seat.page
    audit = Audit(page, artifacts)
    try:
        page.goto("/")
        expect(page.get_by_test_id("name-form")).to_be_visible()
        audit.run("lobby (first visit)")

        invite = invite_code_of_new_room(seeded_server.url, "Host")
        start_computer_match(page, "Ada")
        audit.run("table (phase 1)")
        toggle = page.get_by_test_id("sheet-toggle")
        if toggle.count() and toggle.is_visible():  # the drawer with chat, score sheet and options
            toggle.click()
            audit.run("table (sheet open)")
            if toggle.is_visible() and toggle.get_attribute("aria-expanded") == "true":
                toggle.click()

        resign = page.get_by_test_id("resign")
        if not resign.is_visible() and page.get_by_test_id("sheet-toggle").count():
            page.get_by_test_id("sheet-toggle").click()
        resign.click()
        expect(page.get_by_test_id("resign-yes")).to_be_visible()
        audit.run("table (resign dialog)")
        page.get_by_test_id("resign-yes").click()
        expect(page.get_by_test_id("match-over")).to_be_visible()
        audit.run("table (match over)")

        page.goto("/#/")
        expect(page.get_by_test_id("create-table")).to_be_visible()
        audit.run("lobby (with a name)")

        page.goto(f"/#/invite/{invite}")
        expect(page.get_by_test_id("join-invite")).to_be_visible()
        audit.run("invite")

        page.goto("/#/history")
        match_link = page.locator('a[href^="#/history/"]').first
        expect(match_link).to_be_visible()
        audit.run("history")
        match_link.click()
        expect(page.get_by_test_id("detail-result")).to_be_visible()
        audit.run("match detail")

        page.goto("/#/rules")
        expect(page.locator("main h1").first).to_be_visible()
        audit.run("rules")

        page.goto("/#/device")
        if page.evaluate("location.hash") == "#/device":  # the device page, once it exists
            expect(page.get_by_test_id("device-link")).to_be_visible()
            audit.run("device")
    finally:
        seat.context.close()
    assert len(audit.audited) >= 9 * len(SIZES)
    assert not audit.found, f"{len(audit.found)} serious or critical axe violations:\n" + "\n".join(audit.found)
