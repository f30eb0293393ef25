"""The viewport matrix: in English, German and Russian, at 390×844, 844×390, 360×640 and 1366×768,
the table fits the screen at every stage of a match (phase 1, just after a marriage, phase 2, the
deal summary, the result) — no page scroll, no sideways overflow, the trump badge, both scores, the
stock count and every card of the own hand in view — and no page (lobby, invite, rules, history,
match detail, the device page) overflows sideways or cuts a text off in any language.

One match against the computer per language, on a server whose deals are fixed (MATCH_SEED: the
creator leads the first deal holding K♥ Q♥), and the same page resized through the four viewports
at each stage. Every problem found is collected and reported at the end of the language's test, so
one run lists them all; screenshots go to tests/e2e/artifacts/layout-<lang>-<stage>-<viewport>.jpg
(JPEG: half the time of a PNG).

Tables of three and four (issue 22), with computer seats, on one page per language, and a spectator
of the table of four: a trick waiting for my card, the deal summary and the drawer's score sheet,
with the seat checks (SEATS_JS) on top of the page checks — no name cut or broken inside a word,
every card of the trick marked with its owner's tag and lying toward its seat, the score sheet with
no sideways scroll. The two-hand stages get the seat checks too.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from backend.engine.cards import RANKS
from tests.support.services import ServerProcess

from .conftest import ARTIFACTS, VIEWPORTS
from .helpers import (
    TIMEOUT_MS,
    Seat,
    choose_name,
    close_summary,
    hand_snapshot,
    invite_code_of_new_room,
    latest_deal,
    open_seat,
    resign,
    settle,
    start_computer_match,
    tap_card,
)
from .test_variants import new_variant_table

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
  const SIDEWAYS = '.table-scroll';
  const WHOLE = '.felt-message, .waiting-panel, .auction, .discard';
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
    // A scroller that scrolls sideways (issue 42, point 4: the waiting panel's words and buttons
    // past the felt's right edge): only a wide table on a page of its own may.
    const scrolls = (o) => o === 'auto' || o === 'scroll';
    if (scrolls(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && !el.matches(SIDEWAYS)) {
      out.clipped.push(`${describe(el)}: scrolls sideways, content ${el.scrollWidth} in ${el.clientWidth}`);
    }
    // A panel a player acts in shows all of it (the talon's "Discard" button below its edge, its
    // title above) and never scrolls: the waiting panel, the auction and the discard.
    if (el.matches(WHOLE) && (el.scrollHeight > el.clientHeight + 2 || el.scrollWidth > el.clientWidth + 1)) {
      const room = `${el.clientWidth}×${el.clientHeight}`;
      out.clipped.push(`${describe(el)}: not whole, content ${el.scrollWidth}×${el.scrollHeight} in ${room}`);
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


# The seats of every table (two, three, four; a player's page or a spectator's): every name shown on
# one line and never cut (no overflow, no ellipsis; a word never broken across lines), every seat a
# tag (initial on colour), every card of the trick marked with its owner's tag (data-owner and a
# visible marker, not covered) and lying toward its owner's seat (for every two cards of a trick,
# the step from one to the other points the way the step between their owners' seats does), and the
# score sheet with no sideways scroll.
SEATS_JS = """
() => {
  const problems = [];
  const shown = (el) => {
    if (!el || !el.getClientRects().length) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && Number(style.opacity) > 0 && !el.closest('[hidden]');
  };
  const text = (el) => (el.textContent || '').trim().replace(/\\s+/g, ' ');
  const centre = (r) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });
  let names = 0, owners = 0, sheets = 0;
  // names: on one line or broken between words only, never cut
  const nameSel = '.ring-seat .seat-name, .sheet-name, .sheet-legend-name, .summary-table .who, .standings .who';
  for (const el of document.querySelectorAll(nameSel)) {
    if (!shown(el) || el.closest('.ghost-layer, [aria-hidden="true"]')) continue;
    names += 1;
    const style = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible')
      problems.push(`name cut: "${text(el)}" (${el.scrollWidth} in ${el.clientWidth})`);
    if (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)
      problems.push(`name cut by an ellipsis: "${text(el)}"`);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) problems.push(`"${m[0]}" broken across lines in "${text(el)}"`);
      }
    }
  }
  const tags = {};
  for (const seat of document.querySelectorAll('.ring-seat[data-seat]')) {
    if (!shown(seat)) continue;
    const tag = seat.querySelector('.seat-tag');
    if (!shown(tag) || !text(tag)) problems.push(`seat ${seat.dataset.seat} has no tag`);
    else {
      const colour = getComputedStyle(tag).backgroundColor;
      tags[seat.dataset.seat] = { tag: text(tag), colour, box: seat.getBoundingClientRect() };
    }
  }
  // the trick: each card's owner marked and the card on its owner's side
  const cards = [...document.querySelectorAll('[data-testid="current-trick"] [data-card]')].filter(shown);
  for (const card of cards) {
    owners += 1;
    const owner = card.dataset.owner;
    const marker = card.querySelector('.trick-owner');
    if (owner === undefined) { problems.push(`trick card ${card.dataset.card} has no data-owner`); continue; }
    if (!shown(marker) || !text(marker)) { problems.push(`trick card ${card.dataset.card} shows no owner`); continue; }
    const seat = tags[owner];
    if (!seat) { problems.push(`trick card ${card.dataset.card}: seat ${owner} is not on the page`); continue; }
    const name = `trick card ${card.dataset.card}`;
    if (text(marker) !== seat.tag) problems.push(`${name} marked "${text(marker)}", its seat "${seat.tag}"`);
    if (getComputedStyle(marker).backgroundColor !== seat.colour) problems.push(`${name}: not its seat's colour`);
    const m = centre(marker.getBoundingClientRect());
    const top = document.elementFromPoint(m.x, m.y);
    const over = top && !marker.contains(top) && top.closest('[data-testid="current-trick"] [data-card]');
    if (over && over !== card) problems.push(`${name}: its owner's marker is under ${over.dataset.card}`);
  }
  for (let i = 0; i < cards.length; i++) {
    for (let j = i + 1; j < cards.length; j++) {
      const a = cards[i], b = cards[j];
      const sa = tags[a.dataset.owner], sb = tags[b.dataset.owner];
      if (!sa || !sb) continue;
      const ca = centre(a.getBoundingClientRect()), cb = centre(b.getBoundingClientRect());
      const oa = centre(sa.box), ob = centre(sb.box);
      const dot = (cb.x - ca.x) * (ob.x - oa.x) + (cb.y - ca.y) * (ob.y - oa.y);
      if (dot <= 0) problems.push(`trick cards ${a.dataset.card} and ${b.dataset.card} do not lie toward their seats`);
    }
  }
  // every word and chip of a seat inside its box (issue 42, point 4: "away — seat held 0:57" 3 px out)
  for (const seat of document.querySelectorAll('.ring-seat[data-seat]')) {
    if (!shown(seat)) continue;
    const box = seat.getBoundingClientRect();
    for (const el of seat.querySelectorAll('*')) {
      if (!shown(el) || ![...el.childNodes].some((c) => c.nodeType === 3 && c.data.trim())) continue;
      const r = el.getBoundingClientRect();
      const out = Math.max(box.left - r.left, box.top - r.top, r.right - box.right, r.bottom - box.bottom);
      if (out > 1.5) problems.push(`seat ${seat.dataset.seat}: "${text(el)}" ${Math.round(out)} px out of its box`);
    }
  }
  // two seats' boxes as wide, their whole names as long: named alike (issue 42, point 4: "C1" on
  // the left, "Computer 2" on the right); one is not cut shorter than the other
  const fits = [...document.querySelectorAll('.ring-seats .ring-seat[data-seat]')].filter(shown).map((seat) => {
    const name = seat.querySelector('.seat-name');
    const width = Math.round(seat.getBoundingClientRect().width);
    const whole = seat.getAttribute('aria-label') || '';
    const shows = name && shown(name) ? text(name) : '';
    return { seat: seat.dataset.seat, width, whole, fit: name ? name.dataset.fit : undefined, shows };
  });
  for (const a of fits) {
    for (const b of fits) {
      const alike = Math.abs(a.width - b.width) <= 1 && a.whole.length === b.whole.length;
      if (a.seat < b.seat && alike && a.fit !== b.fit)
        problems.push(`seats ${a.seat} and ${b.seat} named unlike: "${a.shows}" (${a.fit}), "${b.shows}" (${b.fit})`);
    }
  }
  // while a deal's summary is open, "Last trick" shows the deal's final trick, its label uncovered
  const summary = document.querySelector('[data-testid="deal-summary"]');
  const last = document.querySelector('[data-testid="last-trick"]');
  let lastTricks = 0;
  if (shown(summary) && shown(last)) {
    lastTricks += 1;
    if (!last.querySelector('[data-card]')) problems.push('"Last trick" is empty behind the deal summary');
    const label = last.querySelector('.label');
    if (shown(label)) {
      const c = centre(label.getBoundingClientRect());
      const top = document.elementFromPoint(c.x, c.y);
      const over = top && !last.contains(top) ? top.closest('[data-testid]')?.dataset.testid || top.className : '';
      if (over) problems.push(`"Last trick"'s label is under ${over}`);
    }
  }
  // the score sheet: no sideways scroll
  for (const box of document.querySelectorAll('.sheet-scroll, .table-sheet .sheet-body')) {
    if (!shown(box)) continue;
    sheets += 1;
    const sizes = `${box.scrollWidth} in ${box.clientWidth}`;
    if (box.scrollWidth > box.clientWidth + 1) problems.push(`the score sheet scrolls sideways (${sizes})`);
  }
  return { problems: problems.slice(0, 12), names, owners, sheets, lastTricks };
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
        self.names_checked = 0
        self.owners_checked = 0
        self.sheets_checked = 0
        self.last_tricks_checked = 0

    def page_fits(
        self,
        stage: str,
        *,
        table: bool = False,
        in_view: tuple[str, ...] = (),
        seats: bool = False,
        prepare: Any = None,
        viewports: tuple[str, ...] | None = None,
    ) -> None:
        for label, size in VIEWPORTS.items():
            if viewports is not None and label not in viewports:
                continue
            self.page.set_viewport_size(size)
            settle(self.page)
            if prepare is not None:
                prepare(self.page)
                settle(self.page)
            m: dict[str, Any] = self.page.evaluate(MEASURE_JS, list(in_view))
            where = f"{self.lang} {stage} {label}"
            self.checks += 1
            if seats:
                found: dict[str, Any] = self.page.evaluate(SEATS_JS)
                self.names_checked += found["names"]
                self.owners_checked += found["owners"]
                self.sheets_checked += found["sheets"]
                self.last_tricks_checked += found["lastTricks"]
                self.problems.extend(f"{where}: {item}" for item in found["problems"])
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
            self.page.screenshot(path=self.artifacts / f"layout-{self.lang}-{stage}-{label}.jpg", animations="disabled")
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
    now = hand_snapshot(page)  # one call for the hand (each query waits for the page's main thread)
    legal = now["legal"]
    if not legal:
        return None
    card: str = prefer if prefer in legal else legal[rng.randrange(len(legal))]
    asks = card in now["declarable"]
    if not tap_card(page, card, now["version"]):
        return None  # re-rendered under the click: try again
    if asks:  # a K or Q that may declare: the question comes first
        page.get_by_test_id("declare-yes" if declare else "declare-no").click()
    # The play shown (the tap does not wait for the page): the next look at the hand is after it.
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=table-page]').dataset.version) > v",
        arg=now["version"],
        timeout=TIMEOUT_MS,
    )
    return card


def play_until(seat: Seat, rng: random.Random, done: Any, what: str, limit: int = 80) -> None:
    deadline = time.monotonic() + 60
    plays = 0
    while not done():
        if time.monotonic() > deadline:
            seat.page.screenshot(path=ARTIFACTS / f"layout-stuck-{seat.name}.jpg")
            states = seat.states()
            legal = (states[-1].get("view") or {}).get("legal") if states else None
            cards = seat.page.eval_on_selector_all(
                HAND_CARDS, "els => els.map(e => [e.dataset.card, e.dataset.legal, e.disabled])"
            )
            raise AssertionError(f"timed out playing until {what}: {latest_deal(seat)}, legal {legal}, hand {cards}")
        if play_card(seat.page, rng):
            plays += 1
            assert plays < limit, f"{plays} cards played and still not {what}"
        else:
            seat.page.wait_for_timeout(50)


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
        matrix.page_fits("phase1", table=True, in_view=PHASE1_IN_VIEW, seats=True)

        assert play_card(page, rng, prefer="KH") == "KH"
        wait_until(page, lambda: bool(latest_deal(seat).get("declarations")), "the marriage")
        matrix.page_fits("marriage", table=True, in_view=PHASE1_IN_VIEW, seats=True)

        play_until(seat, rng, lambda: latest_deal(seat).get("stock_count") == 0, "phase 2")  # R4: the stock is empty
        matrix.page_fits("phase2", table=True, in_view=ALWAYS_IN_VIEW, seats=True)

        summary = page.get_by_test_id("deal-summary")
        play_until(seat, rng, lambda: summary.count() > 0 and summary.first.is_visible(), "the deal summary")
        matrix.page_fits("deal-summary", table=True, in_view=(*ALWAYS_IN_VIEW, "deal-summary"), seats=True)

        resign(page)
        matrix.page_fits("result", table=True, in_view=(*ALWAYS_IN_VIEW, "match-over"), seats=True)

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


# Tables of three and four (issue 22): a long name of two words, the computer in the other seats.
LONG_NAMES = {"en": "Mary-Jane Fitzgerald", "de": "Hans-Jürgen Schwarzbeck", "ru": "Александра Кузнецова"}
VARIANT_OF = {3: "thousand3", 4: "thousand4"}
PHONES = ("390x844", "844x390", "360x640")  # the spectator's page: phones only (the run's time)
SUMMARY_VIEWPORTS = {3: ("390x844", "1366x768", "768x1024"), 4: ("844x390", "360x640", "1024x768")}


def trick_size(seat: Seat) -> int:
    trick = latest_deal(seat).get("trick") or {}
    return len(trick.get("cards") or [])


def my_turn(seat: Seat) -> bool:
    deal = latest_deal(seat)
    return bool(deal) and deal.get("turn") == latest_view_seat(seat)


def latest_view_seat(seat: Seat) -> int:
    states = seat.states()
    view = states[-1].get("view") if states else None
    return int((view or {}).get("seat", 0))


def lowest_legal(seat: Seat) -> str | None:
    """My lowest legal card (R1's order of ranks): a card that seldom takes the trick, so that another
    seat leads the next one and I may be the last to play to it."""
    states = seat.states()
    legal = [play["card"] for play in ((states[-1].get("view") or {}).get("legal") or [])] if states else []
    return max(legal, key=lambda card: RANKS.index(card[0])) if legal else None


def wait_for_my_turn_before_a_trick_of(seat: Seat, rng: random.Random, cards: int) -> None:
    """Play until it is my turn with ``cards`` cards of the others on the felt (or, after a few
    tricks without that, at least one): the page then stands still while it is measured. My lowest
    card each time, so the lead moves on (a deal of four where I kept the lead played a whole deal
    more through the page before it was measured)."""
    deadline = time.monotonic() + 60
    plays = 0
    while True:
        assert time.monotonic() < deadline, "timed out waiting for a trick to answer"
        # A deal that ended meanwhile holds the page on its summary (the next deal is shown once it
        # is closed), as a player would close it.
        close_summary(seat.page)
        if my_turn(seat) and trick_size(seat) >= (cards if plays < 6 else 1):
            expect(seat.page.locator('[data-testid="current-trick"] [data-card]')).to_have_count(trick_size(seat))
            return
        if my_turn(seat) and play_card(seat.page, rng, prefer=lowest_legal(seat)):
            plays += 1
        else:
            seat.page.wait_for_timeout(50)


def open_score_sheet(page: Page) -> None:
    """The drawer open on its score sheet (a resize across the wide breakpoint opens or closes it)."""
    if page.get_by_test_id("table-page").get_attribute("data-sheet") != "open":
        page.get_by_test_id("sheet-toggle").click()
    tab = page.get_by_test_id("sheet-tab-sheet")
    if tab.get_attribute("aria-selected") != "true":
        tab.click()
    expect(page.get_by_test_id("score-sheet").locator("table.sheet")).to_be_visible()


def watch_link(page: Page) -> str:
    page.get_by_test_id("sheet-toggle").click()
    page.get_by_test_id("sheet-tab-table").click()
    page.get_by_test_id("watch-link").click()
    link = page.get_by_test_id("watch-link")
    expect(link).to_have_attribute("data-url", re.compile(r"#/watch/[^/]+/[^/]+$"))
    url = link.get_attribute("data-url") or ""
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-sheet", "closed")
    return url


@pytest.mark.parametrize("lang", list(LOCALES))
def test_three_and_four_seats_and_the_spectator_fit_every_viewport(
    lang: str, seeded_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    """Tables of three and of four with computer seats, on one page per language: a trick waiting
    for my card, the deal summary and the drawer's score sheet at every viewport; at four a
    spectator's page too (the trick, and the deal summary once spectators get one). Besides the
    page checks: no name cut or broken inside a word, every trick card marked with its owner's
    tag and lying toward its seat, the score sheet without sideways scroll."""
    started = time.monotonic()
    context = {"locale": LOCALES[lang], "reduced_motion": "reduce"}
    seat = open_seat(browser, seeded_server.url, f"Seats {lang}", VIEWPORTS["390x844"], **context)
    watcher = open_seat(browser, seeded_server.url, f"Watch {lang}", VIEWPORTS["390x844"], **context)
    page = seat.page
    matrix = Matrix(page, lang, artifacts)
    spectator = Matrix(watcher.page, lang, artifacts)
    rng = random.Random(22)
    spectator_summary = False
    summary = page.get_by_test_id("deal-summary")
    try:
        page.goto("/")
        choose_name(page, LONG_NAMES[lang])
        for n in (3, 4):
            new_variant_table(page, VARIANT_OF[n], computers=n - 1)
            expect(page.get_by_test_id("ring")).to_have_attribute("data-n", str(n))
            totals = tuple(f"seat-{k}-total" for k in range(n))
            if n == 4:
                watcher.page.goto(watch_link(page))
                expect(watcher.page.get_by_test_id("spectator-table").get_by_test_id("ring")).to_be_visible()

            wait_for_my_turn_before_a_trick_of(seat, rng, n - 1)
            matrix.page_fits(f"{n}seats-trick", table=True, in_view=totals, seats=True)
            if n == 4:
                count = trick_size(seat)
                close_summary(watcher.page)  # the spectator saw a deal end meanwhile: closed, as a person would
                expect(watcher.page.locator('[data-testid="current-trick"] [data-card]')).to_have_count(count)
                spectator.page_fits("watch-4seats-trick", table=True, in_view=totals, seats=True, viewports=PHONES)

            play_until(seat, rng, lambda: summary.count() > 0 and summary.first.is_visible(), "the deal summary")
            # The summary closes itself after SUMMARY_MS (12 s): half the viewports at each table.
            views = SUMMARY_VIEWPORTS[n]
            matrix.page_fits(
                f"{n}seats-deal-summary", table=True, in_view=(*totals, "deal-summary"), seats=True, viewports=views
            )
            if n == 4:
                shown = watcher.page.get_by_test_id("deal-summary")
                try:
                    expect(shown).to_be_visible(timeout=3000)
                    spectator_summary = True
                except AssertionError:
                    spectator_summary = False
                if spectator_summary:
                    spectator.page_fits(
                        "watch-4seats-deal-summary",
                        table=True,
                        in_view=(*totals, "deal-summary"),
                        seats=True,
                        viewports=PHONES,
                    )

            close_summary(page)
            matrix.page_fits(f"{n}seats-sheet", table=True, seats=True, prepare=open_score_sheet)
            assert matrix.sheets_checked, "the score sheet was never measured"
            page.keyboard.press("Escape")  # the drawer closed: the table no longer inert under it
            expect(page.get_by_test_id("table-page")).to_have_attribute("data-sheet", "closed")
            resign(page)
            page.goto("/#/")
            expect(page.get_by_test_id("create-table")).to_be_visible()
        assert not seat.errors, seat.errors
        assert not watcher.errors, watcher.errors
    finally:
        seat.context.close()
        watcher.context.close()
    problems = matrix.problems + spectator.problems
    assert matrix.owners_checked >= 2 * len(VIEWPORTS) and spectator.owners_checked >= len(PHONES)
    assert matrix.names_checked and spectator.names_checked
    print(f"{lang}: {matrix.checks + spectator.checks} layouts in {time.monotonic() - started:.0f} s")
    assert not problems, f"{len(problems)} layout problems:\n" + "\n".join(problems)
    if not spectator_summary:
        pytest.xfail("the spectator's page shows no deal summary yet (issue 22, defect 4): its layout is unchecked")
