"""The keyboard alone: "Skip to content" lands on the page's content, the header is reachable,
dialogs keep Tab inside and give focus back to their opener, the focus ring stands out on the
cream panels and on the felt, and a whole match against the computer is played with Tab, the
arrow keys and Enter — with focus never falling to <body> once a card has been played."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import VIEWPORTS
from .helpers import latest_deal, open_seat, settle, start_computer_match

pytestmark = pytest.mark.browser

MAX_KEYS_PER_CARD = 60
MAX_MY_CARDS = 200

# What has focus now, in the terms the test needs.
ACTIVE_JS = """
() => {
  const a = document.activeElement;
  const hand = document.querySelector('[data-testid="hand"]');
  const card = a && a.closest ? a.closest('[data-card]') : null;
  return {
    body: !a || a === document.body || a === document.documentElement,
    inHand: Boolean(hand && a && hand.contains(a)),
    card: card && hand && hand.contains(card) ? card.dataset.card : null,
    legal: Boolean(
      card && card.dataset.legal === 'true' && !card.disabled && card.getAttribute('aria-disabled') !== 'true'
    ),
    inDialog: Boolean(a && a.closest && a.closest('[role="dialog"], [role="alertdialog"]')),
    testid: a && a.getAttribute ? a.getAttribute('data-testid') : null,
    tag: a ? a.tagName.toLowerCase() : null,
    key: a
      ? [a.tagName, a.getAttribute('data-testid'), a.getAttribute('data-card'), (a.textContent || '').slice(0, 20)]
          .join('|')
      : '',
  };
}
"""


def active(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(ACTIVE_JS)
    return result


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        x = c / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def token_rgb(page: Page, name: str) -> tuple[int, int, int]:
    """A colour token from tokens.css, resolved by the browser to rgb()."""
    text: str = page.evaluate(
        """(name) => { const el = document.createElement('span'); el.style.color = `var(${name})`;
        document.body.append(el); const c = getComputedStyle(el).color; el.remove(); return c; }""",
        name,
    )
    parts = text[text.index("(") + 1 : text.index(")")].replace(",", " ").split()
    return int(float(parts[0])), int(float(parts[1])), int(float(parts[2]))


def test_skip_link_header_and_focus_ring(seeded_server: ServerProcess, browser: Any) -> None:
    seat = open_seat(browser, seeded_server.url, "Keys", VIEWPORTS["390x844"], locale="en-GB")
    page = seat.page
    try:
        page.goto("/#/rules")
        heading = page.locator("main h1").first
        expect(heading).to_be_visible()
        # The first Tab shows "Skip to content"; Enter lands on the rules, not on the lobby.
        page.keyboard.press("Tab")
        expect(page.locator(".skip-link")).to_be_focused()
        expect(page.locator(".skip-link")).to_be_in_viewport()
        page.keyboard.press("Enter")
        assert page.evaluate("location.hash") == "#/rules"
        expect(heading).to_be_focused()
        # The header and its navigation are reachable from the start of the page.
        page.reload()
        expect(heading).to_be_visible()
        reached: set[str] = set()
        for _ in range(12):
            page.keyboard.press("Tab")
            testid = active(page)["testid"]
            if testid:
                reached.add(testid)
        assert {"brand", "nav-lobby", "nav-history", "nav-rules", "lang-select"} <= reached, reached

        # The focus ring: a dark inner band and a bright outer one; on the cream panels and on
        # the felt at least one of them stands out by 3:1 (WCAG 2.2 non-text contrast).
        page.goto("/#/")
        name = page.get_by_test_id("name-input")
        expect(name).to_be_visible()
        # The name form focuses its field a tick after it is drawn: wait for that before the keys, or
        # the late focus lands between them. Then reach the field by keyboard (:focus-visible).
        expect(name).to_be_focused()
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        expect(name).to_be_focused()
        ring = page.evaluate(
            """() => { const s = getComputedStyle(document.activeElement);
            return {style: s.outlineStyle, width: parseFloat(s.outlineWidth),
                    color: s.outlineColor, shadow: s.boxShadow}; }"""
        )
        assert ring["style"] == "solid" and ring["width"] >= 2, ring
        outer, inner = token_rgb(page, "--focus"), token_rgb(page, "--bg")
        assert f"rgb({outer[0]}, {outer[1]}, {outer[2]})" == ring["color"], ring
        assert f"rgb({inner[0]}, {inner[1]}, {inner[2]})" in ring["shadow"], ring
        for surface in ("--paper", "--paper-2", "--felt", "--felt-dark", "--bg"):
            behind = token_rgb(page, surface)
            best = max(contrast(outer, behind), contrast(inner, behind))
            assert best >= 3, f"the focus ring is {best:.2f}:1 on {surface}"
        assert contrast(outer, inner) >= 3  # the two bands tell apart from each other too
    finally:
        seat.context.close()


def test_dialogs_trap_focus_and_return_it(seeded_server: ServerProcess, browser: Any) -> None:
    seat = open_seat(browser, seeded_server.url, "Keys", VIEWPORTS["390x844"], locale="en-GB")
    page = seat.page
    try:
        start_computer_match(page, "Dora")
        # "Skip to content" at the table stays at the table and lands in its content.
        table_hash = page.evaluate("location.hash")
        page.locator(".skip-link").focus()
        page.keyboard.press("Enter")
        assert page.evaluate("location.hash") == table_hash
        assert page.evaluate("document.getElementById('main').contains(document.activeElement)")

        resign = page.get_by_test_id("resign")
        if not resign.is_visible() and page.get_by_test_id("sheet-toggle").count():
            page.get_by_test_id("sheet-toggle").click()
        resign.focus()
        page.keyboard.press("Enter")
        dialog = page.locator('[role="dialog"]').filter(has=page.get_by_test_id("resign-yes"))
        expect(dialog).to_be_visible()
        assert active(page)["inDialog"], "the dialog did not take focus"
        seen = set()
        for key in ["Tab"] * 7 + ["Shift+Tab"] * 7:
            page.keyboard.press(key)
            now = active(page)
            assert now["inDialog"], f"{key} left the dialog for {now}"
            seen.add(now["testid"])
        assert {"resign-yes", "resign-no"} <= seen, seen
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(resign).to_be_focused()  # back to the opener
        expect(page.get_by_test_id("match-over")).to_have_count(0)  # Escape resigned nothing
    finally:
        seat.context.close()


def test_a_whole_match_with_the_keyboard_alone(seeded_server: ServerProcess, browser: Any, artifacts: Path) -> None:
    seat = open_seat(browser, seeded_server.url, "Keys", VIEWPORTS["390x844"], locale="en-GB")
    page = seat.page
    try:
        start_computer_match(page, "Kira", level="easy", target=301)  # the shortest match there is
        played = 0
        body_after: list[str] = []
        deadline = time.monotonic() + 240
        while page.get_by_test_id("match-over").count() == 0:
            assert time.monotonic() < deadline, f"the match did not end ({played} cards played)"
            if page.locator('[data-testid="hand"] [data-legal="true"]').count() == 0:
                page.wait_for_timeout(50)
                continue
            if active(page)["body"]:
                body_after.append(f"before my card #{played + 1} (after the computer's)")
            hand_before = set(latest_deal(seat).get("hand") or [])
            card = keyboard_play(page)
            if card is None:
                continue  # the page changed under the keys (a deal ended): look again
            played += 1
            assert played < MAX_MY_CARDS
            # The card leaves the hand; focus must still be somewhere on the page, not on <body>.
            page.wait_for_function(
                "card => ![...document.querySelectorAll('[data-testid=hand] [data-card]')]"
                ".some(e => e.dataset.card === card)",
                arg=card,
            )
            settle(page)
            if active(page)["body"]:
                body_after.append(f"after my card #{played} {card}")
            assert card in hand_before
        expect(page.get_by_test_id("match-result")).to_be_visible()
        page.screenshot(path=artifacts / "keyboard-match-over.jpg")
        assert played >= 12  # at least a whole deal of my own cards
        assert not body_after, "focus fell to <body>: " + "; ".join(body_after)
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def keyboard_play(page: Page) -> str | None:
    """Move focus to a legal card with Tab and the arrow keys and play it with Enter (answering a
    marriage question with Enter too); the card, or None if no legal card could be reached."""
    visited: set[str] = set()
    tried_home = False
    for _ in range(MAX_KEYS_PER_CARD):
        if page.get_by_test_id("match-over").count():
            return None
        now = active(page)
        if now["legal"]:
            card = str(now["card"])
            page.keyboard.press("Enter")
            if page.get_by_test_id("declare-dialog").count():
                assert active(page)["inDialog"], "the marriage question did not take focus"
                for _ in range(6):  # Tab within the question to "declare", then Enter
                    if active(page)["testid"] == "declare-yes":
                        break
                    page.keyboard.press("Tab")
                assert active(page)["testid"] == "declare-yes"
                page.keyboard.press("Enter")
            return card
        if now["inHand"]:
            # Along the hand with the arrows (a roving focus); a hand of plain Tab stops ignores them.
            if now["key"] not in visited:
                visited.add(now["key"])
                page.keyboard.press("ArrowRight")
                continue
            if not tried_home:
                tried_home = True
                page.keyboard.press("Home")
                continue
        page.keyboard.press("Tab")
    return None
