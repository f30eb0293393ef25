"""The viewport matrix: in English, German and Russian, at 390×844, 844×390, 360×640 and 1366×768,
the table fits the screen at every stage of a match (phase 1, just after a marriage, phase 2, the
deal summary, the result) — no page scroll, no sideways overflow, the trump badge, both scores, the
stock count and every card of the own hand in view — and no page (lobby, invite, rules, history,
match detail, the device page) overflows sideways or cuts a text off in any language.

One match against the computer per language, on a server whose deals are fixed (MATCH_SEED: the
creator leads the first deal holding K♥ Q♥), and the same page resized through the four viewports
at each stage. Every problem found is collected and reported at the end of the language's test, so
one run lists them all; screenshots go to tests/e2e/artifacts/layout-<lang>-<stage>-<viewport>.png.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import VIEWPORTS
from .helpers import (
    Seat,
    invite_code_of_new_room,
    latest_deal,
    open_seat,
    settle,
    start_computer_match,
)

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-GB", "de": "de-DE", "ru": "ru-RU"}
HAND_CARDS = '[data-testid="hand"] [data-card]'
LEGAL = '[data-testid="hand"] button[data-legal="true"]:not([disabled])'
# On the felt at every stage of a deal: the trump badge and both seats' totals (I am seat 0, the
# computer seat 1); the stock count only while there is a stock (R4's phase 1).
ALWAYS_IN_VIEW = ("trump-badge", "seat-0-total", "seat-1-total")
PHASE1_IN_VIEW = (*ALWAYS_IN_VIEW, "stock-count")
WAIT_S = 20.0

# Measures one page as it is now: page scroll, sideways overflow, the test ids and own cards out of
# view, and every visible element that cuts its text off (overflow hidden/clip with more content
# than box; scrollers — overflow auto/scroll — are meant to scroll and are left out).
MEASURE_JS = """
(ids) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const doc = document.scrollingElement || document.documentElement;
  const describe = (el) => {
    const id = el.getAttribute('data-testid');
    const names = typeof el.className === 'string' ? el.className.trim() : '';
    const cls = names ? '.' + names.split(/\\s+/).join('.') : '';
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${cls}${text ? ` "${text}"` : ''}`;
  };
  const shown = (el) => {
    if (!el.getClientRects().length) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && Number(style.opacity) > 0;
  };
  const px = Math.round;
  const rectText = (r) => `(${px(r.left)},${px(r.top)})–(${px(r.right)},${px(r.bottom)})`;
  const outside = (r) => r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5;
  const out = {
    vw, vh, scrollHeight: doc.scrollHeight, scrollWidth: doc.scrollWidth,
    ids: {}, hand: [], handCount: 0, escaping: [], clipped: [],
  };
  for (const id of ids) {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (!el) out.ids[id] = 'missing';
    else if (!shown(el)) out.ids[id] = 'hidden';
    else {
      const r = el.getBoundingClientRect();
      out.ids[id] = outside(r) ? `outside the viewport at ${rectText(r)}` : 'ok';
    }
  }
  for (const card of document.querySelectorAll('[data-testid="hand"] [data-card]')) {
    out.handCount += 1;
    const r = card.getBoundingClientRect();
    if (!shown(card) || outside(r)) out.hand.push(`${card.dataset.card} at ${rectText(r)}`);
  }
  const clips = (style) => ['hidden', 'clip'].includes(style.overflowX) || ['hidden', 'clip'].includes(style.overflowY);
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el) || el.closest('[aria-hidden="true"], .visually-hidden, .skip-link, .ghost-layer')) continue;
    const style = getComputedStyle(el);
    if (style.position === 'fixed' && el.closest('.toast')) continue;
    const r = el.getBoundingClientRect();
    // Sideways overflow "anywhere": a box that sticks out of the viewport's width, unless an
    // ancestor scroller or clipper holds it (those are judged on their own).
    if ((r.right > vw + 1 || r.left < -1) && r.width > 0) {
      let held = false;
      for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible') { held = true; break; }
      }
      if (!held) out.escaping.push(`${describe(el)} at ${rectText(r)}`);
    }
    // Cut-off text: a clipping box with more content than room, holding text.
    if (el.clientWidth > 2 && clips(style) && (el.textContent || '').trim()) {
      const wide = ['hidden', 'clip'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const tall = ['hidden', 'clip'].includes(style.overflowY) && el.scrollHeight > el.clientHeight + 2;
      if (wide || tall) {
        const box = `${el.clientWidth}×${el.clientHeight}`;
        out.clipped.push(`${describe(el)}: content ${el.scrollWidth}×${el.scrollHeight} in ${box}`);
      }
    }
  }
  out.escaping = out.escaping.slice(0, 8);
  out.clipped = out.clipped.slice(0, 8);
  return out;
}
"""


class Matrix:
    """Resizes one page through the viewports and records what is wrong at each."""

    def __init__(self, page: Page, lang: str, artifacts: Path) -> None:
        self.page = page
        self.lang = lang
        self.artifacts = artifacts
        self.problems: list[str] = []
        self.checks = 0

    def page_fits(self, stage: str, *, table: bool = False, in_view: tuple[str, ...] = ()) -> None:
        for label, size in VIEWPORTS.items():
            self.page.set_viewport_size(size)
            settle(self.page)
            m: dict[str, Any] = self.page.evaluate(MEASURE_JS, list(in_view))
            where = f"{self.lang} {stage} {label}"
            self.checks += 1
            if m["scrollWidth"] > m["vw"]:
                self.problems.append(f"{where}: the page scrolls sideways ({m['scrollWidth']} > {m['vw']})")
            if table and m["scrollHeight"] > m["vh"]:
                self.problems.append(f"{where}: the table page scrolls ({m['scrollHeight']} > {m['vh']})")
            for testid, state in m["ids"].items():
                if state != "ok":
                    self.problems.append(f"{where}: {testid} {state}")
            if table and m["hand"]:
                self.problems.append(f"{where}: own cards out of view: {', '.join(m['hand'])}")
            for item in m["escaping"]:
                self.problems.append(f"{where}: sticks out sideways: {item}")
            for item in m["clipped"]:
                self.problems.append(f"{where}: text cut off: {item}")
            self.page.screenshot(path=self.artifacts / f"layout-{self.lang}-{stage}-{label}.png", animations="disabled")
        self.page.set_viewport_size(VIEWPORTS["390x844"])


def wait_until(page: Page, condition: Any, what: str, timeout_s: float = WAIT_S) -> None:
    """Poll a condition on the frames received so far. Waiting through the page, not time.sleep:
    Playwright's sync API hands over socket frames only while one of its calls runs."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(50)


def play_card(page: Page, rng: random.Random, *, prefer: str | None = None, declare: bool = True) -> str | None:
    """Click a legal card (``prefer`` if legal), answering the marriage question; None if not my turn."""
    legal = page.locator(LEGAL)
    count = legal.count()
    if count == 0:
        return None
    chosen = page.locator(f'{LEGAL}[data-card="{prefer}"]') if prefer else None
    target = chosen if chosen is not None and chosen.count() else legal.nth(rng.randrange(count))
    card = target.get_attribute("data-card")
    asks = target.get_attribute("data-declarable") == "true"
    try:
        target.click(timeout=3000)
    except Exception:
        return None  # re-rendered under the click: try again
    if asks:  # a K or Q that may declare: the question comes first
        page.get_by_test_id("declare-yes" if declare else "declare-no").click()
    return card


def play_until(seat: Seat, rng: random.Random, done: Any, what: str, limit: int = 80) -> None:
    deadline = time.monotonic() + 60
    plays = 0
    while not done():
        assert time.monotonic() < deadline, f"timed out playing until {what}"
        if play_card(seat.page, rng):
            plays += 1
            assert plays < limit, f"{plays} cards played and still not {what}"
        else:
            seat.page.wait_for_timeout(50)


def resign(page: Page) -> None:
    button = page.get_by_test_id("resign")
    if not button.is_visible() and page.get_by_test_id("sheet-toggle").count():
        page.get_by_test_id("sheet-toggle").click()
    button.click()
    page.get_by_test_id("resign-yes").click()
    expect(page.get_by_test_id("match-over")).to_be_visible()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_stage_and_page_fits_every_viewport(
    lang: str, seeded_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    # Reduced motion: every box measured and photographed where it comes to rest, not mid-animation.
    seat = open_seat(
        browser,
        seeded_server.url,
        f"Layout {lang}",
        VIEWPORTS["390x844"],
        locale=LOCALES[lang],
        reduced_motion="reduce",
    )
    page = seat.page
    matrix = Matrix(page, lang, artifacts)
    rng = random.Random(11)
    try:
        # ---------------------------------------------------------------- pages around the table
        page.goto("/")
        expect(page.get_by_test_id("name-form")).to_be_visible()
        assert page.evaluate("document.documentElement.lang") == lang
        matrix.page_fits("lobby-first-visit")
        invite = invite_code_of_new_room(seeded_server.url, "Host")

        # ---------------------------------------------------------------- the table, stage by stage
        start_computer_match(page, {"en": "Lena", "de": "Jürgen", "ru": "Светлана"}[lang])
        wait_until(page, lambda: latest_deal(seat).get("turn") == 0, "my first lead")
        deal = latest_deal(seat)
        assert deal.get("stock_count", 0) > 0 and {"KH", "QH"} <= set(deal["hand"]), (
            "MATCH_SEED no longer deals K♥ Q♥ to me"
        )
        matrix.page_fits("phase1", table=True, in_view=PHASE1_IN_VIEW)

        assert play_card(page, rng, prefer="KH") == "KH"
        wait_until(page, lambda: bool(latest_deal(seat).get("declarations")), "the marriage")
        matrix.page_fits("marriage", table=True, in_view=PHASE1_IN_VIEW)

        play_until(seat, rng, lambda: latest_deal(seat).get("stock_count") == 0, "phase 2")  # R4: the stock is empty
        matrix.page_fits("phase2", table=True, in_view=ALWAYS_IN_VIEW)

        summary = page.get_by_test_id("deal-summary")
        play_until(seat, rng, lambda: summary.count() > 0 and summary.first.is_visible(), "the deal summary")
        matrix.page_fits("deal-summary", table=True, in_view=(*ALWAYS_IN_VIEW, "deal-summary"))

        resign(page)
        matrix.page_fits("result", table=True, in_view=(*ALWAYS_IN_VIEW, "match-over"))

        # ---------------------------------------------------------------- the other pages
        page.goto("/#/")
        expect(page.get_by_test_id("create-table")).to_be_visible()
        matrix.page_fits("lobby")

        page.goto(f"/#/invite/{invite}")
        expect(page.get_by_test_id("join-invite")).to_be_visible()
        matrix.page_fits("invite")

        page.goto("/#/history")
        match_link = page.locator('a[href^="#/history/"]').first
        expect(match_link).to_be_visible()
        matrix.page_fits("history")
        match_link.click()
        expect(page.get_by_test_id("detail-result")).to_be_visible()
        matrix.page_fits("match-detail")

        page.goto("/#/rules")
        expect(page.locator("main h1").first).to_be_visible()
        matrix.page_fits("rules")

        page.goto("/#/device")
        if page.evaluate("location.hash") == "#/device":  # the device page, once it exists
            expect(page.get_by_test_id("device-link")).to_be_visible()
            matrix.page_fits("device")

        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
    assert matrix.checks >= 9 * len(VIEWPORTS)
    assert not matrix.problems, f"{len(matrix.problems)} layout problems:\n" + "\n".join(matrix.problems)
