"""Driving the real client like a person: names, tables, invite links and clicking cards."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import re
import threading
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import BrowserContext, Page, expect

from tests.support.client import Seat as SocketSeat
from tests.support.client import create_table as create_socket_table
from tests.support.client import play_moves

T = TypeVar("T")

CARD = re.compile(r"^(?:[AKQJT9]|[87])[CSHD]$")
TIMEOUT_MS = 10_000
DECLARE_TEXT = {"C": "Declare ♣ (100)", "S": "Declare ♠ (80)", "H": "Declare ♥ (60)", "D": "Declare ♦ (40)"}


@dataclass
class Seat:
    """One friend: a browser context, its page, and every socket frame it received."""

    name: str
    context: BrowserContext
    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]


def open_seat(browser: Any, base_url: str, name: str, viewport: dict[str, int], **context_args: Any) -> Seat:
    """A browser context and page for one person. Cards do not travel unless a test asks for the
    motion (``reduced_motion="no-preference"``): the motion is only drawn and never holds up input
    (tests/e2e/test_card_motion.py checks both), so a game-flow test need not wait for it."""
    context_args.setdefault("reduced_motion", "reduce")
    context = browser.new_context(viewport=viewport, base_url=base_url, **context_args)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    seat = Seat(name, context, page)

    def on_socket(ws: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            try:
                seat.frames.append(json.loads(payload))
            except (ValueError, TypeError):
                seat.frames.append({"type": "<unparsable>", "raw": str(payload)})

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: seat.errors.append(str(error)))
    page.on("console", lambda msg: _console_error(seat, msg))
    return seat


# While a test has the network cut, the browser itself logs the failed socket handshakes and the
# failed requests for a socket ticket (the client retries both with backoff).
NETWORK_CUT_NOTES = ("WebSocket connection to", "net::ERR_INTERNET_DISCONNECTED")


def _console_error(seat: Seat, msg: Any) -> None:
    if msg.type != "error" or any(note in msg.text for note in NETWORK_CUT_NOTES):
        return
    # "Failed to load resource: net::…" names no URL in its text; the location says which request it was
    url = (msg.location or {}).get("url", "")
    seat.errors.append(f"{msg.text} ({url})" if url and url not in msg.text else msg.text)


def choose_name(page: Page, name: str) -> None:
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("save-name").click()
    expect(page.get_by_test_id("name-form")).to_have_count(0)


def set_advanced(
    page: Page,
    *,
    scoring: str | None = None,
    stock_bottom: bool | None = None,
    open_scores: bool | None = None,
    deck_size: int | None = None,
    grace_s: int | None = None,
) -> None:
    """Unfold "More options" in the lobby form and set the options given."""
    details = page.get_by_test_id("opt-advanced")
    if details.get_attribute("open") is None:
        page.get_by_test_id("opt-advanced-toggle").click()
    if scoring is not None:
        page.get_by_test_id("opt-scoring").select_option(scoring)
    if stock_bottom is not None:
        page.get_by_test_id("opt-stock-bottom").set_checked(stock_bottom)
    if open_scores is not None:
        page.get_by_test_id("opt-open-scores").set_checked(open_scores)
    if deck_size is not None:
        page.get_by_test_id("opt-deck").select_option(str(deck_size))
    if grace_s is not None:
        page.get_by_test_id("opt-grace").select_option(str(grace_s))


def create_table(
    page: Page,
    *,
    target: int = 301,
    stake: str = "0",
    currency: str = "EUR",
    visibility: str = "private",
    scoring: str = "by_suit",
    stock_bottom: bool = False,
) -> str:
    """Fill the lobby form, create the table and return the invite link shown while waiting."""
    page.goto("/#/")
    page.get_by_test_id("opt-opponent-human").check()
    page.get_by_test_id("opt-target").select_option(str(target))
    page.get_by_test_id("opt-stake").fill(stake)
    page.get_by_test_id("opt-currency").fill(currency)
    page.get_by_test_id("opt-visibility").select_option(visibility)
    set_advanced(page, scoring=scoring, stock_bottom=stock_bottom)
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("waiting-panel")).to_be_visible()
    link = page.get_by_test_id("invite-link")
    expect(link).to_have_value(re.compile(r"/#/invite/"))
    return link.input_value()


def choose_computer(page: Page, level: str, *, target: int = 301) -> None:
    """In the lobby form: the computer as opponent at ``level``; the stake is then locked at 0."""
    page.get_by_test_id("opt-opponent-computer").check()
    page.get_by_test_id("opt-bot-level").select_option(level)
    page.get_by_test_id("opt-target").select_option(str(target))


def join_by_invite(page: Page, link: str, name: str | None = None) -> None:
    page.goto(link)
    if name is not None:
        choose_name(page, name)
    page.get_by_test_id("join-invite").click()
    expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()


def visible(page: Page, test_id: str) -> bool:
    """The element is on the page and shown (without waiting for it)."""
    locator = page.get_by_test_id(test_id)
    return locator.count() > 0 and locator.first.is_visible()


def room_id(page: Page) -> str:
    return page.get_by_test_id("table-page").get_attribute("data-room") or ""


def version(page: Page) -> int:
    value = page.get_by_test_id("table-page").get_attribute("data-version")
    return int(value) if value else -1


def hand(page: Page) -> list[str]:
    return page.eval_on_selector_all('[data-testid="hand"] [data-card]', "els => els.map(e => e.dataset.card)")


def dom_cards(page: Page) -> set[str]:
    """Every card name the page's DOM mentions in an attribute (data-card, test ids, labels).

    The sweep animation of a trick just taken (`.ghost-layer`) is left out: it shows the cards
    of a `trick_won` event, played in the open, which may belong to the deal that just ended
    (the frame check covers those events)."""
    return set(
        page.evaluate(
            """() => {
              const found = new Set();
              const re = /^(?:card-|trick-card-|last-trick-card-)?((?:[AKQJT987])[CSHD])$/;
              for (const el of document.querySelectorAll('*')) {
                if (el.closest('.ghost-layer')) continue;
                for (const attr of el.attributes) {
                  const m = attr.value.match(re);
                  if (m) found.add(m[1]);
                }
              }
              return [...found];
            }"""
        )
    )


def close_summary(page: Page) -> None:
    button = page.get_by_test_id("deal-summary-close")
    if button.count() and button.is_visible():
        button.click()


def to_history(page: Page) -> None:
    """Open the history from the site header; at a table on a phone (where the table keeps the
    whole screen, also once the match is over) by way of its bar's lobby link first."""
    nav = page.get_by_test_id("nav-history")
    if not nav.is_visible() and page.get_by_test_id("table-to-lobby").is_visible():
        page.get_by_test_id("table-to-lobby").click()
    nav.click()


def match_over(page: Page) -> bool:
    return page.get_by_test_id("match-over").count() > 0


def play_one(page: Page, rng: random.Random, *, scoring: str = "by_suit", keep_summary: bool = False) -> str | None:
    """If this seat may play, click a highlighted card (declaring when offered); return it.

    The summary of a deal just over holds the next hand back: it is closed first (as a player would),
    unless ``keep_summary`` (a test that waits for it)."""
    now = hand_snapshot(page)
    if now["summary"] and not keep_summary:
        close_summary(page)
        now = hand_snapshot(page)
    if not now["legal"]:
        return None
    # One look at the page (hand_snapshot) instead of a query per question: each query waits for the
    # page's main thread, which a loaded machine keeps busy re-rendering the table.
    legal, declarable = now["legal"], now["declarable"]
    card: str = declarable[0] if declarable else legal[rng.randrange(len(legal))]
    before: int = now["version"]
    # A card's index corner, as a thumb taps it: on a narrow phone the second row of the hand
    # covers the middle of the first row's cards, and only their upper part takes a tap.
    # Failing that (the hand moving under the tap), its middle.
    if not tap_card(page, card, before, ({"x": 14, "y": 14}, None)):
        return None  # the hand re-rendered under the click; the caller simply tries again
    # R3: "Declare ♥ (60)" names the suit and its points (by_order: 40, 60, 80, 100 in turn).
    said = (
        DECLARE_TEXT[card[1]]
        if scoring == "by_suit"
        else re.compile(DECLARE_TEXT[card[1]][:9] + r" \((40|60|80|100)\)$")
    )
    declare_and_see_the_play(page, before, asks=card in declarable, said=said)
    return card


def declare_and_see_the_play(page: Page, before: int, *, asks: bool, said: str | re.Pattern[str] | None = None) -> None:
    """After a tap on a card (``before``: the table's version then): its marriage question, if it
    ``asks`` one, answered "declare" (its button saying ``said``), then the play shown.

    The tap does not wait for the page, so the question may be drawn only after the tap returns: it
    is waited for (or the play, where none is asked), since a question never answered holds the
    play back."""
    dialog = page.get_by_test_id("declare-dialog")
    if asks:
        page.wait_for_function(
            "v => document.querySelector('[data-testid=declare-dialog]')"
            " || Number(document.querySelector('[data-testid=table-page]').dataset.version) > v",
            arg=before,
            timeout=TIMEOUT_MS,
        )
    if dialog.count():
        if said is not None:
            expect(page.get_by_test_id("declare-yes")).to_have_text(said)
        page.get_by_test_id("declare-yes").click()
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=table-page]').dataset.version) > v",
        arg=before,
        timeout=TIMEOUT_MS,
    )


def tap_card(page: Page, card: str, before: int, positions: Sequence[Any] = (None,)) -> bool:
    """Click ``card`` of the hand (the card itself, not "the n-th legal card": a retry must not tap
    another one) at the first of ``positions`` that takes it (None: its middle); whether it was played
    or its marriage question opened. ``before``: the table's version before the click.

    The click does not wait for the page after it (``no_wait_after``): Playwright would wait for the
    page's main thread to say no navigation was scheduled, and on a loaded machine that thread is busy
    drawing the card just played, so a click that landed timed out and cost a retry (2.5 s a card).
    The caller waits for the play itself. A click that fails before it lands (the hand moving under
    it) is checked all the same: if the card left the hand or the question opened, it was played,
    and tapping again would play the next card."""
    button = page.locator(f'[data-testid="hand"] button[data-card="{card}"]')
    for position in positions:
        try:
            button.click(timeout=1500, position=position, no_wait_after=True)
            return True
        except Exception:
            if _tap_landed(page, card, before):
                return True
    return False


_SNAPSHOT_JS = """() => {
  const table = document.querySelector('[data-testid=table-page]');
  const close = document.querySelector('[data-testid=deal-summary-close]');
  const shown = (el) => Boolean(el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
  const cards = (sel) => [...document.querySelectorAll(sel)].map((e) => e.dataset.card);
  return {
    version: table && table.dataset.version ? Number(table.dataset.version) : -1,
    summary: shown(close),
    legal: cards('[data-testid="hand"] button[data-legal="true"]:not([disabled])'),
    declarable: cards('[data-testid="hand"] button[data-declarable="true"]:not([disabled])'),
  };
}"""


def hand_snapshot(page: Page) -> dict[str, Any]:
    """In one call: the table's version (as ``version``), whether a deal summary can be closed
    (as ``close_summary`` sees it), and the cards of the hand that may be played and declared."""
    result: dict[str, Any] = page.evaluate(_SNAPSHOT_JS)
    return result


_LANDED_JS = """([card, before]) => {
  const page = document.querySelector('[data-testid=table-page]');
  if (document.querySelector('[data-testid=declare-dialog]')) return true;
  if (page && Number(page.dataset.version) > before) return true;
  const el = document.querySelector(`[data-testid="hand"] button[data-card="${card}"]`);
  return !el || el.dataset.legal !== 'true' || el.disabled;
}"""


def _tap_landed(page: Page, card: str, before: int) -> bool:
    """After a click reported as failed: did it play ``card`` (or open its marriage question)?
    Waits a moment for the page to show it, as the client sends the play at once."""
    try:
        page.wait_for_function(_LANDED_JS, arg=[card, before], timeout=1000)
    except Exception:
        return False
    return True


def assert_frames_match_server_models(*seats: Seat) -> int:
    """Every socket frame the browsers received validates against the server's own outbound
    message models (``backend.api.messages.validate_server_message``); returns how many."""
    from pydantic import ValidationError

    from backend.api.messages import validate_server_message

    problems: list[str] = []
    checked = 0
    for seat in seats:
        for frame in seat.frames:
            checked += 1
            try:
                validate_server_message(copy.deepcopy(frame))
            except ValidationError as error:
                where = f"a {frame.get('type')} frame to {seat.name} at version {frame.get('version')}"
                problems.append(f"{where}: {error}")
    assert not problems, f"{len(problems)} of {checked} frames do not match backend.api.messages:\n" + "\n".join(
        problems[:10]
    )
    return checked


def frame_cards(frame: Any) -> set[str]:
    """Every card name anywhere in a JSON frame."""
    found: set[str] = set()
    stack = [frame]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and CARD.match(item):
            found.add(item)
    return found


def hands_by_version(seat: Seat) -> dict[int, set[str]]:
    """The seat's own hand at every version it saw, from its own frames."""
    hands: dict[int, set[str]] = {}
    for state in seat.states():
        view = state.get("view")
        if view and view.get("deal"):
            hands[state["version"]] = set(view["deal"]["hand"])
    return hands


# ---------------------------------------------------------------- accessibility and layout suites


def start_computer_match(page: Page, name: str, *, level: str = "easy", target: int = 301) -> None:
    """From a first visit: a name, then a match against the computer, up to the dealt hand."""
    page.goto("/")
    choose_name(page, name)
    choose_computer(page, level, target=target)
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()


def latest_deal(seat: Seat) -> dict[str, Any]:
    """The deal as the last state frame showed it (empty between matches)."""
    states = seat.states()
    view = states[-1].get("view") if states else None
    return (view or {}).get("deal") or {}


def invite_code_of_new_room(base_url: str, host_name: str) -> str:
    """A private table for two people opened over the REST API by someone else; its invite code."""
    import httpx

    with httpx.Client(base_url=base_url, timeout=10) as client:
        player = client.post("/api/players", json={"name": host_name}).raise_for_status().json()
        room = (
            client.post(
                "/api/rooms",
                json={"target": 301, "visibility": "private", "opponent": "human"},
                headers={"Authorization": f"Bearer {player['token']}"},
            )
            .raise_for_status()
            .json()
        )
    code = room["invite_code"]
    assert isinstance(code, str) and code
    return code


def resign(page: Page) -> None:
    """Resign through the bar's button (the drawer's, where the bar has no room for it) and its
    confirmation: the match is over."""
    button = page.get_by_test_id("resign")
    if not button.is_visible() and page.get_by_test_id("sheet-toggle").count():
        page.get_by_test_id("sheet-toggle").click()
    button.click()
    page.get_by_test_id("resign-yes").click()
    expect(page.get_by_test_id("match-over")).to_be_visible()


def settle(page: Page) -> None:
    """Two animation frames: the layout after a resize or a render has been computed and painted."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


class ScriptedTable:
    """Two players at one table over the real REST API and sockets (tests/support/client.py), driven
    from a browser test: their event loop runs in a thread of its own, since Playwright's sync API
    owns the test thread's loop. For tests where the browser only watches or replays."""

    def __init__(self, base_url: str, options: dict[str, Any]) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self.seats: tuple[SocketSeat, SocketSeat] = self._run(
            create_socket_table(base_url, base_url.replace("http://", "ws://"), options)
        )

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(60)

    @property
    def room_id(self) -> str:
        return self.seats[0].room_id

    @property
    def match_id(self) -> str:
        state = self.seats[0].state
        assert state is not None and state["room"]["match_id"], state
        match_id: str = state["room"]["match_id"]
        return match_id

    def watch_code(self) -> str:
        code: str = self._run(self.seats[0].player.post(f"/api/rooms/{self.room_id}/watch-link"))["code"]
        return code

    def play(self, moves: int, seed: int = 7) -> None:
        self._run(play_moves(self.seats, random.Random(seed), max_moves=moves))

    def resign(self) -> None:
        """The first seat gives up (R6.2): the match is over."""
        answer = self._run(self.seats[0].intent({"type": "resign"}))
        assert answer["type"] == "state", answer

    def close(self) -> None:
        async def close_all() -> None:
            for seat in self.seats:
                await seat.close()

        self._run(close_all())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()


def screenshots_at(page: Page, artifacts: Path, prefix: str, viewports: Sequence[dict[str, int]]) -> None:
    """The page at each of ``viewports`` (``<prefix>-<w>x<h>.jpg``), then back at its own size."""
    size: Any = page.viewport_size
    for viewport in viewports:
        page.set_viewport_size(viewport)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        page.screenshot(
            path=artifacts / f"{prefix}-{viewport['width']}x{viewport['height']}.jpg", animations="disabled"
        )
    if size:
        page.set_viewport_size(size)


# A bubble (`selector`) by `seat`: its centre over the seat box horizontally, and touching the box's
# edge (above the bottom seat, under the others), within the viewport; 'ok' or what is wrong.
BUBBLE_BY_SEAT_JS = """
([selector, seat]) => {
  const bubble = document.querySelector(selector);
  const box = document.querySelector(`[data-testid="felt"] [data-testid="seat-${seat}"]`);
  if (!bubble || !box) return 'missing';
  const b = bubble.getBoundingClientRect(), r = box.getBoundingClientRect();
  const cx = (b.left + b.right) / 2;
  if (b.left < 0 || b.right > innerWidth || b.top < 0 || b.bottom > innerHeight) return 'outside the viewport';
  if (cx < r.left - 1 || cx > r.right + 1) return `not over the seat: ${cx} vs ${r.left}–${r.right}`;
  const gap = box.dataset.pos === 'bottom' ? r.top - b.bottom : b.top - r.bottom;
  return gap >= -2 && gap <= 20 ? 'ok' : `${gap}px from the seat`;
}
"""


def wait_for_bubble_by_seat(page: Page, selector: str, seat: int, timeout_ms: float = 3000) -> None:
    """Wait until the bubble ``selector`` stands by ``seat``'s box (``BUBBLE_BY_SEAT_JS``)."""
    page.wait_for_function(f"(args) => ({BUBBLE_BY_SEAT_JS})(args) === 'ok'", arg=[selector, seat], timeout=timeout_ms)
