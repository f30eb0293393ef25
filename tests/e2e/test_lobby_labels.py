"""Labels that fit (issue 22): in en, de and ru, at 360 and 390 px wide, every choice of every select
of the lobby's new-table form — the computer's level, the private-table option, marriages, cards —
fits its box beside the arrow (measured in the select's own font), for a table with friends and one with the computer;
and the lobby's tagline speaks of the whole family, not of a game for two only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .helpers import choose_name, open_seat

pytestmark = pytest.mark.browser

# Every option of every visible select whose text is wider than the select's content box.
CUT_OPTIONS_JS = """
() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const ARROW = 24; // Chromium draws the select's arrow inside its content box
  const out = [];
  for (const sel of document.querySelectorAll('form select')) {
    if (!sel.getClientRects().length) continue;
    const cs = getComputedStyle(sel);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - ARROW;
    for (const o of sel.options) {
      const w = ctx.measureText(o.text).width;
      if (w > room) out.push(`${sel.dataset.testid || sel.id}: "${o.text}" ${Math.round(w)} > ${Math.round(room)} px`);
    }
  }
  return out;
}
"""


def _unfold(page: Page) -> None:
    if page.get_by_test_id("opt-advanced").get_attribute("open") is None:
        page.get_by_test_id("opt-advanced-toggle").click()


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
@pytest.mark.parametrize("width", [360, 390])
def test_every_choice_of_the_new_table_form_fits(
    e2e_server: ServerProcess, browser: Any, artifacts: Path, lang: str, width: int
) -> None:
    seat = open_seat(browser, e2e_server.url, "Галина", {"width": width, "height": 800})
    page = seat.page
    try:
        page.add_init_script(f"localStorage.setItem('1001.lang', '{lang}')")
        page.goto("/")
        choose_name(page, "Галина")
        tagline = page.locator(".hero .lead").first
        expect(tagline).to_be_visible()
        assert not any(word in tagline.inner_text() for word in ("two-player", "zu zweit —", "для двоих —")), (
            tagline.inner_text()
        )
        page.get_by_test_id("opt-opponent-computer").check()
        _unfold(page)
        expect(page.get_by_test_id("opt-bot-level")).to_be_visible()
        cut = page.evaluate(CUT_OPTIONS_JS)
        assert cut == [], cut
        page.get_by_test_id("opt-opponent-human").check()
        expect(page.get_by_test_id("opt-visibility")).to_be_visible()
        cut = page.evaluate(CUT_OPTIONS_JS)
        assert cut == [], cut
        page.screenshot(path=str(artifacts / f"lobby-form-{lang}-{width}.jpg"), full_page=True)
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
