"""Patch, don't rebuild (issue 42, point 2): the table keeps its elements from one state message to
the next — the seat boxes, the hand's buttons, the live trick's cards, the side panel's last trick,
the stock's count, the turn line, the bar's chips, the score sheet's lines and the totals' rows are
the very same nodes after every render (watched after each task that changed the page), only what
changed written
into them — and a table patched through a whole deal reads exactly as the same table drawn anew
(a reload): every element, attribute and text of the seats, the middle, the hand, the turn line and
the drawer, compared in a normal form (attributes sorted; the roving tab stop and passing marks such
as a raised or hinted card left out).

On a phone with touch against the computer, at two seats and at a table of three (V7: the auction
passed, the talon's two cards laid away)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import choose_computer, choose_name, open_seat, play_one, version, visible
from tests.support.services import ServerProcess, serving

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
HAND = '[data-testid="hand"]'
READY = f'{HAND}[data-turn="true"][data-pending="false"] button[data-legal="true"]:not([disabled])'

# What is kept, and by what each element is known from one state to the next ("#": its place).
KEPT = {
    "seat": (".ring-seats .ring-seat, .ring-me .ring-seat", "data-seat"),
    "seat-name": (".ring-seat .seat-name", "data-testid"),
    "seat-total": ('.ring-seat [data-testid$="-total"]', "data-testid"),
    "hand-card": (f"{HAND} button.card", "data-card"),
    "trick-card": ('[data-testid="current-trick"] .trick-card', "data-card"),
    "last-trick": ('[data-testid="last-trick"]', "data-testid"),
    "stock-count": ('[data-testid="stock-count"]', "data-testid"),
    "turn-text": ('[data-testid="turn-indicator"] .turn-text', "class"),
    "phase": ('[data-testid="turn-indicator"] [data-testid="phase"]', "data-testid"),
    "deal-chip": ('[data-testid="deal-chip"] span', "#"),
    "sheet-row": ('[data-testid="score-sheet"] tbody tr', "data-testid"),
    "scoreboard-row": ('[data-testid="scoreboard"] tbody tr', "#"),
}

# Installed before the page's scripts: after every task that changed the page (a MutationObserver's
# callback runs once the task's script is done, so once per render), every element of KEPT still
# there by its key must be the node it was: an element drawn anew is noted in `lost`. An element
# that was gone for a moment (the turn line while a summary is up) is new when it comes back.
WATCH_JS = """(kept) => {
  const W = (window.__kept = { lost: [], kept: 0, checks: 0 });
  let before = new Map();
  const check = () => {
    const now = new Map();
    for (const [name, [sel, attr]] of Object.entries(kept)) {
      const els = [...document.querySelectorAll(sel)]
        .filter((el) => !el.closest('.ghost-layer') && !el.classList.contains('deal-ghost'));
      for (const [i, el] of els.entries()) now.set(`${name}:${attr === '#' ? i : el.getAttribute(attr)}`, el);
    }
    for (const [key, el] of now) {
      if (!before.has(key)) continue;
      if (before.get(key) === el) W.kept += 1;
      else W.lost.push(key);
    }
    W.checks += 1;
    before = now;
  };
  const all = { subtree: true, childList: true, attributes: true, characterData: true };
  const start = () => new MutationObserver(check).observe(document.body, all);
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
}"""

# The regions compared with a table drawn anew, in a normal form: tag, sorted attributes, children.
NORMAL_JS = """() => {
  const passing = new Set(['raised', 'hinted', 'sending', 'shake']);
  const skipAttr = new Set(['tabindex', 'data-raised', 'aria-describedby']);
  const form = (node) => {
    if (node.nodeType === 3) return node.nodeValue.trim() ? node.nodeValue : '';
    if (node.nodeType !== 1) return '';
    if (['deal-ghost', 'ghost-layer', 'sending-note'].some((c) => node.classList.contains(c))) return '';
    const attrs = [...node.attributes]
      .filter((a) => !skipAttr.has(a.name))
      .map((a) => a.name !== 'class' ? `${a.name}=${a.value}`
        : `class=${a.value.split(/\\s+/).filter((c) => c && !passing.has(c)).sort().join(' ')}`)
      .sort();
    return `<${node.localName} ${attrs.join(' ')}>${[...node.childNodes].map(form).join('')}</${node.localName}>`;
  };
  const regions = {
    seats: '.ring-seats', me: '.ring-me', stock: '.ring-stock', trick: '[data-testid="current-trick"]',
    side: '.ring-side', hand: '[data-testid="hand"]', turn: '[data-testid="turn-indicator"]',
    sheet: '[data-testid="score-sheet"]', scoreboard: '[data-testid="scoreboard"]', info: '[data-testid="deal-info"]',
    chip: '[data-testid="deal-chip"]',
  };
  const out = {};
  for (const [name, sel] of Object.entries(regions)) {
    const el = document.querySelector(sel);
    out[name] = el ? form(el) : null;
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("e2e-kept"), BOT_DELAY_S="0.05") as process:
        yield process


def _step(page: Page, rng: random.Random) -> bool:
    """One thing a player does now (close a summary, pass, lay away two cards, play); False if nothing."""
    if visible(page, "deal-summary-close"):
        page.get_by_test_id("deal-summary-close").click()
        return True
    if visible(page, "pass") and page.get_by_test_id("pass").is_enabled():
        page.get_by_test_id("pass").click()
        return True
    if visible(page, "discard-submit"):
        cards = page.locator(f"{HAND} button.card")
        cards.nth(0).click()
        cards.nth(1).click()
        page.get_by_test_id("discard-submit").click()
        return True
    return play_one(page, rng) is not None


def _to_my_card(page: Page) -> None:
    """On through a summary, an auction and a talon until a card of mine may be played."""
    deadline = time.monotonic() + 60
    while not (page.locator(READY).count() and not visible(page, "deal-summary")):
        assert time.monotonic() < deadline, "my card's turn did not come"
        if visible(page, "deal-summary-close") or visible(page, "pass") or visible(page, "discard-submit"):
            _step(page, random.Random(1))
        else:
            page.wait_for_timeout(50)


def _where(patched: str | None, fresh: str | None) -> str:
    """Where two normal forms first differ, with a little of each around it."""
    a, b = patched or "", fresh or ""
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"patched …{a[max(0, i - 120) : i + 120]}… drawn anew …{b[max(0, i - 120) : i + 120]}…"


def _start(page: Page, seats: int) -> None:
    page.goto("/")
    choose_name(page, "Kim")
    if seats == 2:
        choose_computer(page, "easy")
    else:
        page.get_by_test_id("create-variant").select_option("bidding")
        page.get_by_test_id("create-computer-seats").select_option(str(seats - 1))
        page.get_by_test_id("opt-bot-level").select_option("easy")
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("ring")).to_be_visible()


@pytest.mark.parametrize("seats", [2, 3])
def test_the_table_keeps_its_elements_and_reads_as_drawn_anew(server: ServerProcess, browser: Any, seats: int) -> None:
    seat = open_seat(browser, server.url, "Kim", PHONE, is_mobile=True, has_touch=True)
    try:
        page = seat.page
        page.add_init_script(f"({WATCH_JS})({json.dumps(KEPT)})")
        _start(page, seats)
        rng = random.Random(5)
        plays = 0
        deadline = time.monotonic() + 150
        # through a deal's end and into the next deal
        while plays < 16 or not page.locator('[data-testid="score-sheet"] tbody tr').count():
            assert time.monotonic() < deadline, f"the match did not get far enough ({plays} steps)"
            if _step(page, rng):
                plays += 1
            else:
                page.wait_for_timeout(30)
        watched = page.evaluate("() => window.__kept")
        assert not watched["lost"], f"drawn anew instead of kept: {sorted(set(watched['lost']))}"
        assert watched["checks"] > 40 and watched["kept"] > 40 * 10, watched  # many states, many elements kept
        # at my turn to play a card, nothing in flight: the patched table reads as the table drawn anew
        _to_my_card(page)
        page.wait_for_function("() => !document.querySelector('.ghost-layer .ring-ghost')", timeout=10_000)
        at = version(page)
        patched = page.evaluate(NORMAL_JS)
        page.reload()
        expect(page.locator(READY).first).to_be_visible(timeout=20_000)
        assert version(page) == at
        fresh = page.evaluate(NORMAL_JS)
        for region, text in fresh.items():
            assert patched[region] == text, (
                f"{region} differs from the table drawn anew: {_where(patched[region], text)}"
            )
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
