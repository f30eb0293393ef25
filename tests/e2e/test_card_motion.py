"""Cards that travel and card faces worth looking at (issue 22, "What the best sites have").

A played card flies from the hand (or its seat) to the trick and the trick taken to its winner, by
the Web Animations API; a new deal flies in from the stock. None of it holds up input: a card played
while the last trick is still on its way is accepted at once. With reduced motion nothing moves. How
long a finished trick stays is a setting of this device (short, normal, long, or until tapped).
Court cards are SVG figures with a large corner index that stays readable in the two-row phone
hand, and a four-colour deck is a setting too.

Runs on a seeded server (``MATCH_SEED``: the creator leads the first deal, holding K♥ Q♥) whose
computer waits half a second before a card, so that a card's flight can be seen before the answer.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SEEDED_MATCH
from tests.e2e.helpers import close_summary, open_seat, start_computer_match, version
from tests.support.services import ServerProcess, serving

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
RANKS = "AKQJT987"  # highest first, for picking the card likeliest to take the trick
GHOST = '[data-testid="trick-ghost"]'
LEGAL = '[data-testid="hand"] button[data-legal="true"]:not([disabled])'

# Every trick card and hand card put on the page, with how many animations it had when it arrived,
# looked at once the task that inserted it is done and before its frame is drawn: a MutationObserver
# runs after the script that inserted the card, and a microtask queued there after the flights the
# render started once all its writes were done (motion.js afterWrites, issue 42).
PROBE = """
window.__probe = { trick: [], hand: [] };
new MutationObserver((records) => queueMicrotask(() => {
  for (const record of records) for (const node of record.addedNodes) {
    if (!(node instanceof Element)) continue;
    const sel = '.trick-card, .hand .card';
    const found = node.matches(sel) ? [node] : [...node.querySelectorAll(sel)];
    for (const card of found) {
      const anims = card.getAnimations();
      const first = anims.length && anims[0].effect.getKeyframes()[0];
      const entry = {
        card: card.dataset.card,
        ghost: Boolean(card.closest('.ghost-layer')),
        anims: anims.length,
        from: (first && (first.transform || first.translate)) || '',
      };
      (card.matches('.trick-card') ? window.__probe.trick : window.__probe.hand).push(entry);
    }
  }
})).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with (
        tempfile.TemporaryDirectory() as folder,
        serving("sqlite", Path(folder), BOT_DELAY_S="0.5", MATCH_SEED=str(SEEDED_MATCH)) as process,
    ):
        yield process


def my_turn(page: Page) -> None:
    """Wait until a card of mine may be played (closing a deal's summary on the way)."""
    for _ in range(3):
        page.wait_for_function(
            f"() => document.querySelectorAll('{LEGAL}').length > 0"
            " || document.querySelector('[data-testid=deal-summary-close]')",
            timeout=15_000,
        )
        if not page.locator(LEGAL).count():
            close_summary(page)
            continue
        return
    raise AssertionError("my turn never came")


def best_card(page: Page) -> str:
    """My highest legal card that offers no marriage (no dialog in between)."""
    cards: list[str] = page.eval_on_selector_all(
        f"{LEGAL}:not([data-declarable])", "els => els.map((e) => e.dataset.card)"
    )
    if not cards:
        cards = page.eval_on_selector_all(LEGAL, "els => els.map((e) => e.dataset.card)")
    assert cards
    return min(cards, key=lambda c: RANKS.index(c[0]))


def play(page: Page) -> str:
    """Play my best card by a tap on its index corner (declaring if that is all it may do)."""
    my_turn(page)
    card = best_card(page)
    before = version(page)
    target = page.get_by_test_id(f"card-{card}")
    try:
        target.click(position={"x": 10, "y": 10}, timeout=2000)
    except Exception:
        target.dispatch_event("click")  # a raised (focused) neighbour covers its corner: issue 22's defect 1
    if page.get_by_test_id("declare-dialog").count():
        page.get_by_test_id("declare-yes").click()
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=table-page]').dataset.version) > v", arg=before
    )
    return card


def won_trick_and_my_lead(page: Page) -> bool:
    """After my card: the trick just taken is mine and lies on the felt, and I lead the next."""
    my_turn_or_ghost = "() => document.querySelector('%s') || document.querySelectorAll('%s').length > 0"
    page.wait_for_function(my_turn_or_ghost % (GHOST, LEGAL), timeout=15_000)
    ghost = page.locator(GHOST)
    if not ghost.count() or ghost.get_attribute("data-winner") != "0":
        return False
    return page.locator(LEGAL).count() > 0 and page.locator('[data-testid^="trick-card-"]').count() == 0


def start(page: Page, name: str) -> None:
    page.context.add_init_script(PROBE)
    start_computer_match(page, name)


def test_a_played_card_travels_and_a_card_played_during_the_flight_is_accepted(
    server: ServerProcess, browser: Any
) -> None:
    seat = open_seat(
        browser, server.url, "Flight", PHONE, is_mobile=True, has_touch=True, reduced_motion="no-preference"
    )
    page = seat.page
    seat.context.add_init_script("localStorage.setItem('1001.trick-stay', 'long')")
    try:
        start(page, "Flight")
        # The table opened on a fresh deal: its cards were dealt from the felt, one after another.
        page.wait_for_function("() => window.__probe.hand.filter((e) => e.anims > 0).length >= 6")
        card = play(page)
        # My card flew from its place in my hand (the first keyframe is elsewhere, then its own place).
        page.wait_for_function(
            "(c) => window.__probe.trick.some((e) => e.card === c && e.anims > 0 && e.from.includes('translate('))",
            arg=card,
        )
        # The computer's answer flies in from its seat, and the trick taken goes to its winner.
        page.wait_for_function("(c) => window.__probe.trick.some((e) => e.card !== c && e.anims > 0)", arg=card)
        played_during_flight = False
        for _ in range(24):
            my_turn(page)
            ghost = page.locator(GHOST)
            if ghost.count():
                # The trick just taken is still on the felt (or on its way to the winner): play now,
                # as a quick thumb would, without waiting for the motion.
                target = best_card(page)
                before = version(page)
                flying = page.evaluate(
                    """(c) => {
                      const ghost = document.querySelector('[data-testid="trick-ghost"]');
                      document.querySelector(`[data-testid="card-${c}"]`).click();
                      return Boolean(ghost && ghost.isConnected);
                    }""",
                    target,
                )
                assert flying
                if page.get_by_test_id("declare-dialog").count():
                    page.get_by_test_id("declare-yes").click()
                page.wait_for_function(
                    "v => Number(document.querySelector('[data-testid=table-page]').dataset.version) > v",
                    arg=before,
                )
                # Accepted: gone from my hand, on the felt, no refusal shown.
                expect(page.get_by_test_id(f"card-{target}")).to_have_count(0)
                assert page.get_by_test_id("rejected-message").count() == 0
                played = [s for s in seat.states() if s.get("events")]
                assert any(
                    e.get("kind") == "card_played" and e.get("card") == target and e.get("seat") == 0
                    for s in played[-3:]
                    for e in s["events"]
                )
                played_during_flight = True
                break
            play(page)
        assert played_during_flight, "no trick was still on the felt when my turn came"
        assert seat.errors == []
    finally:
        seat.context.close()


def test_with_reduced_motion_no_card_travels(server: ServerProcess, browser: Any) -> None:
    seat = open_seat(browser, server.url, "Still", PHONE, reduced_motion="reduce")
    page = seat.page
    try:
        start(page, "Still")
        card = play(page)
        page.wait_for_function("(c) => window.__probe.trick.some((e) => e.card === c)", arg=card)
        page.wait_for_function("() => window.__probe.trick.length >= 2")  # the answer too
        probe = page.evaluate("() => window.__probe")
        assert probe["hand"] and probe["trick"]
        assert all(e["anims"] == 0 for e in probe["trick"] + probe["hand"]), probe
        moving = page.evaluate(
            "() => document.getAnimations()"
            ".filter((a) => a.effect && a.effect.target && a.effect.target.closest('.card')).length"
        )
        assert moving == 0
        assert seat.errors == []
    finally:
        seat.context.close()


def test_how_long_a_finished_trick_stays_is_a_setting_and_tap_to_clear_keeps_it_until_tapped(
    server: ServerProcess, browser: Any
) -> None:
    seat = open_seat(browser, server.url, "Stay", PHONE, is_mobile=True, has_touch=True, reduced_motion="no-preference")
    page = seat.page
    try:
        page.clock.install()  # time flows; fast_forward() runs the timers due without waiting
        start(page, "Stay")
        # The setting lives in the drawer's Table tab, beside the sound switch, kept on this device.
        page.get_by_test_id("sheet-toggle").click()
        page.get_by_test_id("sheet-tab-table").click()
        stay = page.get_by_test_id("trick-stay")
        expect(stay).to_have_value("normal")
        assert stay.locator("option").evaluate_all("els => els.map((e) => e.value)") == [
            "short",
            "normal",
            "long",
            "tap",
        ]
        stay.select_option("tap")
        assert page.evaluate("localStorage.getItem('1001.trick-stay')") == "tap"
        page.get_by_test_id("sheet-close").click()

        checks = ["tap", "long", "short"]
        for _ in range(40):
            if not checks:
                break
            play(page)
            if not won_trick_and_my_lead(page):
                continue
            ghost = page.locator(GHOST)
            mode = checks[0]
            expect(ghost).to_have_attribute("data-stay", mode)
            if mode == "tap":
                page.clock.fast_forward(8000)  # far longer than "long"
                expect(ghost).to_have_count(1)
                expect(page.locator(".ghost-hint")).to_have_text("Tap to clear")
                page.get_by_test_id("trick").tap()
                expect(ghost).to_have_count(0)
            elif mode == "long":
                page.clock.fast_forward(1700)  # "normal" would have cleared it by now (1.1 s + the flight in)
                expect(ghost).to_have_count(1)
                page.clock.fast_forward(1500)
                expect(ghost).to_have_count(0)
            else:
                expect(ghost).to_have_count(1)
                page.clock.fast_forward(1000)  # 0.5 s + the flight in
                expect(ghost).to_have_count(0)
            checks.pop(0)
            if checks:
                page.evaluate("(v) => localStorage.setItem('1001.trick-stay', v)", checks[0])
        assert not checks, f"no trick of mine to check {checks}"
        assert seat.errors == []
    finally:
        seat.context.close()


def test_court_cards_are_pictures_with_a_readable_index_and_the_four_colour_deck_is_a_setting(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, server.url, "Faces", PHONE, is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = seat.page
    try:
        start_computer_match(page, "Faces")
        hand = page.get_by_test_id("hand")
        expect(hand).to_have_attribute("data-rows", "2")  # the smallest cards: the phone's two-row hand
        report = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid="hand"] button.card')].map((card) => {
                 const idx = card.querySelector('.corner.tl .idx');
                 const r = idx.getBoundingClientRect();
                 const c = card.getBoundingClientRect();
                 const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                 return {
                   card: card.dataset.card,
                   court: Boolean(card.querySelector('.court-face svg.court path')),
                   letter: Boolean(card.querySelector('.face-letter')),
                   size: parseFloat(getComputedStyle(idx).fontSize),
                   inside: r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.top >= c.top - 0.5,
                   visible: Boolean(hit && hit.closest('button.card') === card),
                 };
               })"""
        )
        assert len(report) >= 6
        for card in report:
            assert card["court"] == (card["card"][0] in "KQJ"), card
            assert not card["letter"], card
            assert card["size"] >= 16, card  # a large index on the smallest hand card
            assert card["inside"], card  # the whole index on the card
            assert card["visible"], card  # not covered by a neighbour
        assert any(card["court"] for card in report)
        hand.screenshot(path=artifacts / "card-faces-390x844.jpg")

        def colour(suit: str) -> str:
            value: str = page.evaluate(
                "(s) => getComputedStyle(document.querySelector(`[data-testid=hand] .card.suit-${s}`)).color", suit
            )
            return value

        suits = {c["card"][1] for c in report}
        assert {"C", "D", "H"} <= suits
        assert colour("C") == "rgb(23, 25, 28)" and colour("D") == "rgb(192, 38, 45)"
        page.get_by_test_id("sheet-toggle").click()
        page.get_by_test_id("sheet-tab-table").click()
        page.get_by_test_id("four-colour").check()
        assert colour("C") == "rgb(23, 128, 61)" and colour("D") == "rgb(26, 95, 196)"
        assert colour("H") == "rgb(192, 38, 45)"
        page.get_by_test_id("sheet-close").click()
        hand.screenshot(path=artifacts / "card-faces-four-colour-390x844.jpg")
        page.reload()  # kept on this device
        expect(hand.locator("button.card").first).to_be_visible()
        assert colour("C") == "rgb(23, 128, 61)"
        page.get_by_test_id("sheet-toggle").click()
        page.get_by_test_id("sheet-tab-table").click()
        expect(page.get_by_test_id("four-colour")).to_be_checked()
        page.get_by_test_id("four-colour").uncheck()
        assert colour("D") == "rgb(192, 38, 45)"
        assert seat.errors == []
    finally:
        seat.context.close()
