"""A chat preview by the sender's seat (issue 22): a chat line from the other player shows its first
words in a bubble by their seat on the felt (the reactions' bubble), for a few seconds, besides the
unread dot on ☰; with the chat muted on the table bar (this browser, this table; it lasts a reload)
the line shows only as the dot. The bar still fits at 360 px with the mute beside the others, the
deal chip wrapping between its two parts rather than running under the buttons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .helpers import Seat, choose_name, create_table, join_by_invite, open_seat, wait_for_bubble_by_seat

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "360x640": {"width": 360, "height": 640},
}

# The preview by `seat`: its centre over the seat box horizontally, touching the box's edge, in view.
BAR_FITS_JS = """
() => {
  const doc = document.scrollingElement || document.documentElement;
  const ids = ['reactions-button', 'reactions-mute', 'chat-mute', 'sheet-toggle', 'resign', 'table-to-lobby'];
  const out = ids.filter((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (!el || !el.getClientRects().length) return false;
    const r = el.getBoundingClientRect();
    return r.left < 0 || r.right > innerWidth || r.width < 40;
  });
  // the deal chip's words end before the first button after it (they wrap, never run under it)
  const chip = document.querySelector('[data-testid="deal-chip"]');
  const next = document.querySelector('[data-testid="reactions-button"]');
  const words = chip ? [...chip.querySelectorAll('span')].map((e) => e.getBoundingClientRect().right) : [];
  const edge = next ? next.getBoundingClientRect().left : Infinity;
  if (words.length && Math.max(...words) > edge + 0.5) out.push(`deal-chip ${Math.max(...words)} > ${edge}`);
  return { wide: doc.scrollWidth > innerWidth + 0.5, out };
}
"""


def _say(page: Page, text: str) -> None:
    page.get_by_test_id("sheet-toggle").click()
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")
    expect(page.get_by_test_id("chat-log")).to_contain_text(text)
    page.keyboard.press("Escape")


def _chat_frames(seat: Seat, text: str) -> list[dict[str, Any]]:
    return [f for f in seat.frames if f.get("type") == "chat" and f.get("text") == text]


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_chat_line_shows_by_the_senders_seat_and_muted_only_as_the_dot(
    e2e_server: ServerProcess, browser: Any, artifacts: Path, size: str
) -> None:
    viewport = VIEWPORTS[size]
    anna = open_seat(browser, e2e_server.url, "Anna", viewport)
    ben = open_seat(browser, e2e_server.url, "Ben", viewport)
    try:
        anna.page.clock.install()  # her page's timers: moved on past the preview's 4 s, not waited out
        anna.page.goto("/")
        choose_name(anna.page, "Anna")
        link = create_table(anna.page)
        join_by_invite(ben.page, link, "Ben")
        for seat in (anna, ben):
            expect(seat.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
            expect(seat.page.get_by_test_id("chat-mute")).to_be_visible()
            fits = seat.page.evaluate(BAR_FITS_JS)
            assert fits == {"wide": False, "out": []}, fits
        mute = anna.page.get_by_test_id("chat-mute")
        expect(mute).to_have_attribute("aria-pressed", "false")

        # Ben (seat 1, at the top of Anna's felt) writes: his first words by his seat on Anna's page.
        line = "Good evening Anna, shall we play one more match after this one?"
        _say(ben.page, line)
        preview = anna.page.locator('[data-testid="chat-preview"][data-seat="1"]')
        expect(preview).to_be_visible()
        words = preview.locator(".chat-preview-text").inner_text()
        assert line.startswith(words.removesuffix("…")) and words.endswith("…") and len(words) <= 49, words
        expect(preview).to_contain_text("Ben")  # named for screen readers
        wait_for_bubble_by_seat(anna.page, '[data-testid="chat-preview"][data-seat="1"]', 1)
        expect(anna.page.get_by_test_id("chat-unread")).to_be_visible()
        # the sender sees no preview of his own line
        expect(ben.page.get_by_test_id("chat-preview")).to_have_count(0)
        anna.page.screenshot(path=str(artifacts / f"chat-preview-{size}.jpg"))
        anna.page.clock.run_for(4500)  # CHAT_PREVIEW_MS, 4 s
        expect(preview).to_have_count(0, timeout=3000)  # it fades

        # Anna mutes the chat on the bar: the choice lasts a reload; a line then shows only as the dot.
        mute.click()
        expect(mute).to_have_attribute("aria-pressed", "true")
        anna.page.reload()
        expect(anna.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        expect(anna.page.get_by_test_id("chat-mute")).to_have_attribute("aria-pressed", "true")
        expect(anna.page.get_by_test_id("chat-unread")).to_be_hidden()
        _say(ben.page, "Still there?")
        anna.page.wait_for_function("() => !document.querySelector('[data-testid=\"chat-unread\"]').hidden")
        assert _chat_frames(anna, "Still there?"), "the line reached Anna's page"
        expect(anna.page.get_by_test_id("chat-preview")).to_have_count(0)

        # unmuted again: the next line shows by Ben's seat once more
        anna.page.get_by_test_id("chat-mute").click()
        expect(anna.page.get_by_test_id("chat-mute")).to_have_attribute("aria-pressed", "false")
        _say(ben.page, "Yes")
        expect(anna.page.locator('[data-testid="chat-preview"][data-seat="1"] .chat-preview-text')).to_have_text("Yes")
        assert not anna.errors and not ben.errors, anna.errors + ben.errors
    finally:
        anna.context.close()
        ben.context.close()
