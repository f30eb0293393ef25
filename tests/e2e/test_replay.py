"""The replay viewer (issue 12): a finished deal opens from the match detail, steps card by card with
the buttons, the arrow keys and the slider, and shows the stored hands and points; phone-sized
screens do not scroll. A visitor without an account opens a public match's replay by its link, and a
private one's only with the table's watch code; neither makes them a player."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess

from .conftest import PHONE
from .helpers import ScriptedTable, open_seat
from .test_polish_pages import api_json, scripted_history, sign_in

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
SMALL_PHONE = {"width": 360, "height": 640}
DESKTOP_WIDE = {"width": 1366, "height": 768}


def _hand(page: Page, seat: int) -> list[str]:
    cards: list[str] = (
        page.get_by_test_id(f"replay-hand-{seat}")
        .locator(".card[data-card]")
        .evaluate_all("els => els.map((el) => el.dataset.card)")
    )
    return sorted(cards)


def _step(page: Page) -> int:
    return int(page.get_by_test_id("replay-step").get_attribute("data-step") or "-1")


def _fits(page: Page) -> dict[str, int]:
    size: dict[str, int] = page.evaluate(
        "() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight,"
        " vw: innerWidth, vh: innerHeight })"
    )
    return size


def test_a_finished_deal_replays_card_by_card_as_stored(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    history = scripted_history(e2e_server.url, deals=1)
    match_id = history["match_id"]
    seat = open_seat(browser, e2e_server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    page = seat.page
    try:
        sign_in(page, history["player"], "en")
        download = api_json(page, f"/api/matches/{match_id}/replay")
        deal = download["deals"][0]
        frames = api_json(page, f"/api/matches/{match_id}/deals/0/replay")["frames"]
        actions = deal["replay"]["actions"]
        assert len(frames) == len(actions) + 1 and deal["result"] is not None

        # From the match detail: the "Download JSON" button and a replay link per deal.
        page.goto(f"/#/history/{match_id}")
        expect(page.get_by_test_id("match-download")).to_be_visible()
        page.get_by_test_id("deal-replay-0").click()
        expect(page).to_have_url(f"{e2e_server.url}/#/replay/{match_id}/0")
        viewer = page.get_by_test_id("replay-viewer")
        expect(viewer).to_be_visible()
        expect(page.get_by_test_id("replay-download")).to_be_visible()

        # The start: both hands face up, as dealt.
        assert _step(page) == 0
        hands = deal["replay"]["deal"]["hands"]
        assert _hand(page, 0) == sorted(hands[0]) and _hand(page, 1) == sorted(hands[1])
        expect(page.get_by_test_id("replay-prev")).to_be_disabled()
        size = _fits(page)
        assert size["h"] <= size["vh"] and size["w"] <= size["vw"], size
        page.screenshot(path=artifacts / "replay-phone.jpg", animations="disabled")

        # Forward with the button: the card played leaves its hand.
        first = actions[0]
        page.get_by_test_id("replay-next").click()
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "1")
        assert first["play"] not in _hand(page, first["seat"])
        expect(page.get_by_test_id("current-trick").locator(f'[data-card="{first["play"]}"]')).to_be_visible()

        # Arrow keys: right twice (a whole trick and the draws), left once.
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "3")
        page.keyboard.press("ArrowLeft")
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "2")
        frame = frames[2]
        assert _hand(page, 0) == sorted(frame["hands"][0]) and _hand(page, 1) == sorted(frame["hands"][1])
        expect(page.get_by_test_id("replay-points")).to_have_attribute(
            "data-points", ",".join(map(str, frame["card_points"]))
        )
        assert frame["drawn"], frame  # phase 1: the trick's winner and loser drew
        events = page.get_by_test_id("replay-events")
        expect(events).to_contain_text("draws")

        # Back with the button, to the start.
        page.get_by_test_id("replay-prev").click()
        page.get_by_test_id("replay-prev").click()
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "0")

        # The slider to the end: the stored card points and deal score.
        slider = page.get_by_test_id("replay-slider")
        slider.fill(str(len(actions)))
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", str(len(actions)))
        points = page.get_by_test_id("replay-points")
        result = deal["result"]
        expect(points).to_have_attribute("data-points", ",".join(map(str, result["card_points"])))
        expect(points).to_have_attribute("data-score", ",".join(map(str, result["score"])))
        for s, score in enumerate(result["score"]):
            mine = page.get_by_test_id(f"replay-score-{s}")
            expect(mine).to_have_attribute("data-score", str(score))
            expect(mine).to_have_attribute("data-total", str(result["totals"][s]))
            expect(mine).to_contain_text(f"+{score}" if score > 0 else str(score))
        assert _hand(page, 0) == [] and _hand(page, 1) == []
        expect(page.get_by_test_id("replay-next")).to_be_disabled()

        # Autoplay from the start moves on by itself.
        page.get_by_test_id("replay-speed").select_option("4")
        page.get_by_test_id("replay-play").click()  # at the end: it starts over
        expect(page.get_by_test_id("replay-step")).not_to_have_attribute("data-step", "0", timeout=5000)
        page.get_by_test_id("replay-play").click()

        # A phone on its side: still no page scroll.
        page.set_viewport_size(LANDSCAPE)
        page.get_by_test_id("replay-next").click()
        size = _fits(page)
        assert size["h"] <= size["vh"] and size["w"] <= size["vw"], size
        page.screenshot(path=artifacts / "replay-phone-landscape.jpg", animations="disabled")
        for name, viewport in (("small", SMALL_PHONE), ("desktop", DESKTOP_WIDE)):
            page.set_viewport_size(viewport)
            size = _fits(page)
            assert size["h"] <= size["vh"] and size["w"] <= size["vw"], (name, size)
            page.screenshot(path=artifacts / f"replay-{name}.jpg", animations="disabled")
        # The deal a resignation cut short replays too, from its own link on the match page.
        detail = api_json(page, f"/api/matches/{match_id}")
        if detail["end_reason"] != "target":
            unfinished = download["deals"][-1]
            assert unfinished["result"] is None and unfinished["number"] == len(detail["deals"])
            page.get_by_test_id("replay-back").click()
            page.get_by_test_id(f"deal-replay-{unfinished['number']}").click()
            expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", str(unfinished["number"]))
            page.keyboard.press("End")
            expect(page.get_by_test_id("replay-step")).to_have_attribute(
                "data-step", str(len(unfinished["replay"]["actions"]))
            )
            expect(page.get_by_test_id("replay-points")).to_have_attribute("data-score", "")

        # In Russian (the longest words), on a phone: the same step, translated, still no page scroll.
        page.set_viewport_size(PHONE)
        page.get_by_test_id("lang-select").select_option("ru")
        expect(page.get_by_test_id("replay-next")).to_have_attribute("aria-label", "Следующая карта")
        expect(page.get_by_test_id("replay-step")).to_contain_text(" из ")
        size = _fits(page)
        assert size["h"] <= size["vh"] and size["w"] <= size["vw"], size
        page.screenshot(path=artifacts / "replay-phone-ru.jpg", animations="disabled")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def _no_account(page: Page, posted: list[str]) -> None:
    """Nothing made this visitor a player: no identity stored, no player created."""
    assert page.evaluate("localStorage.getItem('1001.player')") is None
    assert "/api/players" not in posted, posted


def _visitor(browser: Any, base_url: str) -> tuple[Any, list[str]]:
    """A third browser context without an account, and the paths of every POST it sends."""
    seat = open_seat(browser, base_url, "Visitor", PHONE, is_mobile=True, has_touch=True)
    posted: list[str] = []
    seat.page.on("request", lambda r: posted.append(urlsplit(r.url).path) if r.method == "POST" else None)
    return seat, posted


def _download_opens(page: Page, match_id: str) -> None:
    with page.expect_download() as saving:
        page.get_by_test_id("replay-download").click()
    download = saving.value
    assert download.suggested_filename == f"1001-{match_id}.json"
    saved = json.loads(Path(download.path()).read_text())
    assert saved["match_id"] == match_id and saved["deals"]


def test_a_visitor_without_an_account_replays_a_public_match_by_its_link(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    table = ScriptedTable(e2e_server.url, {"visibility": "public"})
    try:
        table.play(27)  # a deal is 24 plays: the second deal, cut short by the resignation
        table.resign()
        match_id = table.match_id
    finally:
        table.close()
    visitor, posted = _visitor(browser, e2e_server.url)
    page = visitor.page
    try:
        page.goto(f"/#/replay/{match_id}/0")
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", "0")
        expect(page.get_by_test_id("name-form")).to_have_count(0)
        expect(page.get_by_test_id("replay-back")).to_have_attribute("href", "#/")  # no match page of its own
        expect(page.get_by_test_id("replay-deal-prev")).to_have_count(0)
        page.get_by_test_id("replay-next").click()
        page.keyboard.press("ArrowRight")
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "2")
        size = _fits(page)
        assert size["h"] <= size["vh"] and size["w"] <= size["vw"], size
        page.screenshot(path=artifacts / "replay-visitor-phone.jpg", animations="disabled")
        _download_opens(page, match_id)

        # The next deal (the unfinished one) from the bar, and back.
        page.get_by_test_id("replay-deal-next").click()
        expect(page).to_have_url(f"{e2e_server.url}/#/replay/{match_id}/1")
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", "1")
        expect(page.get_by_test_id("replay-deal-next")).to_have_count(0)
        page.keyboard.press("End")
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "3")
        page.set_viewport_size(LANDSCAPE)
        size = _fits(page)
        assert size["h"] <= size["vh"] and size["w"] <= size["vw"], size
        page.screenshot(path=artifacts / "replay-visitor-landscape.jpg", animations="disabled")
        page.get_by_test_id("replay-deal-prev").click()
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", "0")
        _no_account(page, posted)
        assert not visitor.errors, visitor.errors
    finally:
        visitor.context.close()


def test_a_private_match_replays_only_with_its_watch_code(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    table = ScriptedTable(e2e_server.url, {"visibility": "private"})
    try:
        table.play(26)
        table.resign()
        match_id, code = table.match_id, table.watch_code()
    finally:
        table.close()
    visitor, posted = _visitor(browser, e2e_server.url)
    page = visitor.page
    try:
        # Without the code: refused in words that say what is missing, nothing of the match shown.
        page.goto(f"/#/replay/{match_id}/0")
        refused = page.get_by_test_id("replay-error")
        expect(refused).to_contain_text("watch link")
        expect(page.get_by_test_id("replay-viewer")).to_have_count(0)
        page.screenshot(path=artifacts / "replay-private-refused-phone.jpg", animations="disabled")
        page.goto(f"/#/replay/{match_id}/0/{'0' * len(code)}")
        expect(refused).to_be_visible()

        # With it: the replay, and the code kept by the links to other deals and the download.
        page.goto(f"/#/replay/{match_id}/0/{code}")
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", "0")
        page.get_by_test_id("replay-next").click()
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "1")
        _download_opens(page, match_id)
        page.get_by_test_id("replay-deal-next").click()
        expect(page).to_have_url(f"{e2e_server.url}/#/replay/{match_id}/1/{code}")
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", "1")
        _no_account(page, posted)
        # The browser logs the two refused requests (404) itself; nothing else went wrong.
        assert [e for e in visitor.errors if "404" not in e] == [], visitor.errors
    finally:
        visitor.context.close()
