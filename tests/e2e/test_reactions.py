"""Quick reactions in the browser (issue 27): one friend taps a reaction on the table bar's grid
(44×44 targets), the other's page shows it as a bubble by the sender's seat; the mute toggle stops
them (and still shows as muted after a reload), unmuting brings them back; a spectator sees them
only at a table whose players allowed it; the bar still fits a phone held either way."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .helpers import (
    Seat,
    choose_name,
    create_table,
    join_by_invite,
    open_seat,
    room_id,
    set_advanced,
    wait_for_bubble_by_seat,
)

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "360x640": {"width": 360, "height": 640},
}

GRID_JS = """
els => els.map(e => {
  const r = e.getBoundingClientRect();
  return [r.width, r.height, r.right <= innerWidth, r.bottom <= innerHeight];
})
"""

BAR_FITS_JS = """
() => {
  const doc = document.scrollingElement || document.documentElement;
  const ids = ['reactions-button', 'reactions-mute', 'sheet-toggle', 'resign', 'table-to-lobby'];
  const out = ids.filter((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (!el || !el.getClientRects().length) return false;
    const r = el.getBoundingClientRect();
    return r.left < 0 || r.right > innerWidth || r.width < 40;
  });
  return { wide: doc.scrollWidth > innerWidth + 0.5, out };
}
"""


def _friends(e2e_server: ServerProcess, browser: Any, viewport: dict[str, int], **create: Any) -> tuple[Seat, Seat]:
    anna = open_seat(browser, e2e_server.url, "Anna", viewport)
    ben = open_seat(browser, e2e_server.url, "Ben", viewport)
    ben.page.clock.install()  # his page's timers: moved on past a bubble's 2.5 s, not waited out
    anna.page.goto("/")
    choose_name(anna.page, "Anna")
    link = create_table(anna.page, **create)
    join_by_invite(ben.page, link, "Ben")
    expect(anna.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
    return anna, ben


def _react(page: Page, code: str) -> None:
    page.get_by_test_id("reactions-button").click()
    grid = page.get_by_test_id("reaction-grid")
    expect(grid).to_be_visible()
    page.get_by_test_id(f"reaction-{code}").click()
    expect(grid).to_be_hidden()


def _bubble_by_seat(page: Page, seat: int, code: str) -> None:
    bubble = page.locator(f'[data-testid="reaction-bubble"][data-seat="{seat}"][data-reaction="{code}"]')
    expect(bubble).to_be_visible()
    wait_for_bubble_by_seat(page, f'[data-testid="reaction-bubble"][data-seat="{seat}"][data-reaction="{code}"]', seat)


def _sent_to(seat: Seat, code: str) -> list[dict[str, Any]]:
    return [f for f in seat.frames if f.get("type") == "reaction" and f.get("reaction") == code]


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_reaction_shows_by_the_senders_seat_and_the_mute_toggle_stops_them(
    e2e_server: ServerProcess, browser: Any, artifacts: Path, size: str
) -> None:
    anna, ben = _friends(e2e_server, browser, VIEWPORTS[size])
    try:
        for seat in (anna, ben):
            fits = seat.page.evaluate(BAR_FITS_JS)
            assert fits == {"wide": False, "out": []}, fits
        # the grid: every choice a 44×44 target at least, labelled in the page's language
        anna.page.get_by_test_id("reactions-button").click()
        sizes = anna.page.eval_on_selector_all('[data-testid="reaction-grid"] button', GRID_JS)
        assert len(sizes) >= 8 and all(w >= 44 and h >= 44 and inside and below for w, h, inside, below in sizes), sizes
        expect(anna.page.get_by_test_id("reaction-well_played")).to_have_text("Well played")
        anna.page.screenshot(path=str(artifacts / f"reactions-grid-{size}.jpg"))
        anna.page.keyboard.press("Escape")
        expect(anna.page.get_by_test_id("reaction-grid")).to_be_hidden()

        _react(anna.page, "well_played")
        _bubble_by_seat(ben.page, 0, "well_played")  # Anna created the table: seat 0, at Ben's top
        _bubble_by_seat(anna.page, 0, "well_played")  # her own, over her seat at the bottom
        anna.page.screenshot(path=str(artifacts / f"reactions-sender-{size}.jpg"))
        ben.page.screenshot(path=str(artifacts / f"reactions-{size}.jpg"))
        ben.page.clock.run_for(3000)  # REACTION_MS, 2.5 s
        expect(ben.page.locator('[data-testid="reaction-bubble"]')).to_have_count(0, timeout=3000)  # it fades

        # Ben mutes: the server sends him none; the toggle says so, after a reload too
        mute = ben.page.get_by_test_id("reactions-mute")
        expect(mute).to_have_attribute("aria-pressed", "false")
        mute.click()
        expect(mute).to_have_attribute("aria-pressed", "true")
        _react(anna.page, "thumbs_up")
        _bubble_by_seat(anna.page, 0, "thumbs_up")
        ben.page.reload()
        expect(ben.page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        expect(ben.page.get_by_test_id("reactions-mute")).to_have_attribute("aria-pressed", "true")
        ben.page.get_by_test_id("reactions-mute").click()
        expect(ben.page.get_by_test_id("reactions-mute")).to_have_attribute("aria-pressed", "false")
        _react(anna.page, "good_luck")
        _bubble_by_seat(ben.page, 0, "good_luck")
        # the one sent while Ben was muted never reached his page (the room tells a socket in order)
        assert not _sent_to(ben, "thumbs_up") and _sent_to(ben, "good_luck")
        expect(ben.page.locator('[data-testid="reaction-bubble"][data-reaction="thumbs_up"]')).to_have_count(0)
        assert not anna.errors and not ben.errors, anna.errors + ben.errors
    finally:
        anna.context.close()
        ben.context.close()


@pytest.mark.parametrize(
    ("seats", "computers", "size", "ben_seat"),
    [
        pytest.param(3, 1, "844x390", 1, id="3-seats-landscape"),
        pytest.param(4, 2, "390x844", 2, id="4-seats-upright"),  # two people at four sit opposite
    ],
)
def test_at_three_and_four_seats_the_bubble_is_by_the_senders_seat(
    e2e_server: ServerProcess, browser: Any, artifacts: Path, seats: int, computers: int, size: str, ben_seat: int
) -> None:
    anna = open_seat(browser, e2e_server.url, "Anna", VIEWPORTS[size])
    ben = open_seat(browser, e2e_server.url, "Ben", VIEWPORTS[size])
    try:
        page = anna.page
        page.goto("/")
        choose_name(page, "Anna")
        page.goto("/#/")
        page.get_by_test_id("create-variant").select_option("bidding")
        page.get_by_test_id("create-seats").select_option(str(seats))
        page.get_by_test_id("create-computer-seats").select_option(str(computers))
        page.get_by_test_id("opt-bot-level").select_option("easy")
        page.get_by_test_id("opt-visibility").select_option("private")
        page.get_by_test_id("create-table").click()
        link = page.get_by_test_id("invite-link")
        expect(link).to_have_value(re.compile(r"/#/invite/"))
        join_by_invite(ben.page, link.input_value(), "Ben")
        expect(page.get_by_test_id("ring")).to_have_attribute("data-n", str(seats))
        assert page.evaluate(BAR_FITS_JS) == {"wide": False, "out": []}
        _react(ben.page, "laugh")
        _bubble_by_seat(page, ben_seat, "laugh")
        _bubble_by_seat(ben.page, ben_seat, "laugh")
        page.screenshot(path=str(artifacts / f"reactions-{seats}-seats-{size}.jpg"))
        _react(page, "hurry_up")
        _bubble_by_seat(ben.page, 0, "hurry_up")
        assert not anna.errors and not ben.errors, anna.errors + ben.errors
    finally:
        anna.context.close()
        ben.context.close()


def test_a_spectator_sees_reactions_only_where_the_players_allow_it(e2e_server: ServerProcess, browser: Any) -> None:
    viewport = VIEWPORTS["390x844"]
    allowed = open_seat(browser, e2e_server.url, "Anna", viewport)
    ben = open_seat(browser, e2e_server.url, "Ben", viewport)
    carl = open_seat(browser, e2e_server.url, "Carl", viewport)
    try:
        page = allowed.page
        page.goto("/")
        choose_name(page, "Anna")
        page.goto("/#/")
        set_advanced(page)
        box = page.get_by_test_id("opt-reactions-watch")
        expect(box).not_to_be_checked()  # off by default
        box.check()
        page.get_by_test_id("opt-spectators").uncheck()
        expect(box).to_be_disabled()  # nobody watches: nothing to allow
        page.get_by_test_id("opt-spectators").check()
        expect(box).to_be_enabled()
        page.get_by_test_id("opt-opponent-human").check()
        page.get_by_test_id("opt-visibility").select_option("public")
        page.get_by_test_id("create-table").click()
        link = page.get_by_test_id("invite-link")
        expect(link).to_have_value(re.compile(r"/#/invite/"))
        join_by_invite(ben.page, link.input_value(), "Ben")
        room = room_id(page)
        carl.page.goto(f"/#/watch/{room}")
        expect(carl.page.get_by_test_id("spectator-table").locator('[data-testid="seat-0"]').first).to_be_visible()
        expect(carl.page.get_by_test_id("reactions-button")).to_have_count(0)  # a spectator sends none
        _react(ben.page, "nice_try")
        _bubble_by_seat(carl.page, 1, "nice_try")
        _bubble_by_seat(page, 1, "nice_try")
        assert not carl.errors, carl.errors
    finally:
        for seat in (allowed, ben, carl):
            seat.context.close()


def test_the_players_allow_spectators_their_reactions_at_the_table(e2e_server: ServerProcess, browser: Any) -> None:
    viewport = VIEWPORTS["390x844"]
    anna, ben = _friends(e2e_server, browser, viewport, visibility="public")
    carl = open_seat(browser, e2e_server.url, "Carl", viewport)
    try:
        carl.page.goto(f"/#/watch/{room_id(anna.page)}")
        expect(carl.page.get_by_test_id("spectator-table").locator('[data-testid="seat-0"]').first).to_be_visible()
        _react(anna.page, "oops")  # not allowed (the default): the spectator is sent nothing
        _bubble_by_seat(ben.page, 0, "oops")
        # Anna allows it in the drawer; the next reaction reaches the spectator
        anna.page.get_by_test_id("sheet-toggle").click()
        anna.page.get_by_test_id("sheet-tab-table").click()
        allow = anna.page.get_by_test_id("allow-reactions-watch")
        expect(allow).not_to_be_checked()
        allow.check()
        expect(allow).to_be_enabled()  # the change is stored and applied (PATCH answered)
        expect(allow).to_be_checked()
        anna.page.keyboard.press("Escape")
        _react(ben.page, "thanks")
        _bubble_by_seat(carl.page, 1, "thanks")
        assert not _sent_to(carl, "oops") and _sent_to(carl, "thanks")
        for seat in (anna, ben, carl):
            assert not seat.errors, seat.errors
    finally:
        for seat in (anna, ben, carl):
            seat.context.close()
