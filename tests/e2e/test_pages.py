"""Lobby, rules, languages and the phone layout, in the real browser against the real server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.services import ServerProcess

from .conftest import DESKTOP, PHONE
from .helpers import assert_frames_match_server_models, choose_name, create_table, open_seat

pytestmark = pytest.mark.browser


def test_every_dictionary_has_the_same_keys(e2e_server: ServerProcess, browser: Any) -> None:
    seat = open_seat(browser, e2e_server.url, "Keys", DESKTOP)
    try:
        seat.page.goto("/")
        report = seat.page.evaluate(
            """async () => {
              const DICTS = {};
              for (const lang of ['en', 'de', 'ru']) DICTS[lang] = (await import(`/js/i18n/${lang}.js`)).default;
              const en = Object.keys(DICTS.en).sort().join('|');
              return Object.fromEntries(Object.entries(DICTS).map(([lang, d]) =>
                [lang, { same: Object.keys(d).sort().join('|') === en, n: Object.keys(d).length }]));
            }"""
        )
        assert set(report) == {"en", "de", "ru"}
        assert all(entry["same"] for entry in report.values()), report
        assert report["en"]["n"] > 250
    finally:
        seat.context.close()


def test_language_switch_is_remembered_and_rules_show_the_rulings(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, e2e_server.url, "Polyglot", PHONE, device_scale_factor=2, is_mobile=True)
    page = seat.page
    try:
        page.goto("/#/rules")
        # The numbered rules are folded under "The exact rules" (the guide comes first).
        page.get_by_test_id("rules-exact-toggle").click()
        for ruling in ("R4.1", "R5.1", "R6.1", "R6.2"):
            expect(page.get_by_test_id("rules-rulings")).to_contain_text(ruling)
        for section in range(1, 8):
            expect(page.get_by_test_id(f"rules-r{section}")).to_be_visible()
        expect(page.get_by_test_id("rules-options")).to_contain_text("301")
        # The 32-card variant, open card points, the held seat and the computer's levels, in plain words.
        expect(page.get_by_test_id("rules-v1")).to_contain_text("6 cards")
        for option in ("24 or 32 cards", "Open card points", "Seat held after a dropped connection"):
            expect(page.get_by_test_id("rules-options")).to_contain_text(option)
        for level in ("Easy", "Medium", "Hard", "Expert"):
            expect(page.get_by_test_id("rules-computer").locator(f"dt[data-level={level.lower()}]")).to_have_text(level)
        # V7 calls its talon the skat (V7.5), as its table does; McLeod (V2.5) the talon.
        talon = '[data-aspect="talon"] dt'
        expect(page.get_by_test_id("rules-game-bidding").locator(talon)).to_have_text("Skat")
        expect(page.get_by_test_id("rules-game-mcleod").locator(talon)).to_have_text("Talon")
        page.screenshot(path=artifacts / "rules-phone.jpg", animations="disabled")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        page.get_by_test_id("lang-select").select_option("de")
        expect(page.get_by_test_id("nav-history")).to_have_text("Verlauf")
        expect(page.get_by_test_id("rules-r4")).to_contain_text("Farbe bekennen")
        expect(page.get_by_test_id("rules-v1")).to_contain_text("Acht und eine Sieben")
        expect(page.get_by_test_id("rules-computer")).to_contain_text("Schwer")
        page.get_by_test_id("rules-game-bidding").screenshot(path=artifacts / "rules-bidding-de.jpg")
        page.reload()
        expect(page.get_by_test_id("nav-rules")).to_have_text("Regeln")
        assert page.evaluate("document.documentElement.lang") == "de"

        page.get_by_test_id("lang-select").select_option("ru")
        expect(page.get_by_test_id("nav-lobby")).to_have_text("Лобби")
        expect(page.get_by_test_id("rules-rulings")).to_contain_text("Наши решения")
        expect(page.get_by_test_id("rules-options")).to_contain_text("Открытые очки")
        expect(page.get_by_test_id("rules-computer")).to_contain_text("Сложный")
        expect(page.get_by_test_id("rules-game-bidding").locator(talon)).to_have_text("Скат")
        expect(page.get_by_test_id("rules-game-mcleod").locator(talon)).to_have_text("Прикуп")
        page.get_by_test_id("rules-game-bidding").screenshot(path=artifacts / "rules-bidding-ru.jpg")
        page.screenshot(path=artifacts / "rules-phone-ru.jpg", animations="disabled")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.get_by_test_id("lang-select").select_option("en")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_public_table_is_listed_and_joined_from_the_lobby(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    host = open_seat(browser, e2e_server.url, "Host", DESKTOP)
    guest = open_seat(browser, e2e_server.url, "Guest", PHONE, device_scale_factor=2, is_mobile=True)
    try:
        host.page.goto("/")
        choose_name(host.page, "Hosting Hanna")
        create_table(host.page, target=501, stake="0", visibility="public", scoring="by_order", stock_bottom=True)
        room = host.page.get_by_test_id("table-page").get_attribute("data-room")

        guest.page.goto("/")
        choose_name(guest.page, "Guest Gustav")
        row = guest.page.get_by_test_id(f"open-room-{room}")
        expect(row).to_be_visible(timeout=10_000)  # the list refreshes every few seconds
        expect(row).to_contain_text("Hosting Hanna")
        expect(row).to_contain_text("by order")
        guest.page.screenshot(path=artifacts / "lobby-phone.jpg", full_page=True, animations="disabled")
        assert guest.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        guest.page.get_by_test_id(f"join-{room}").click()
        for seat in (host, guest):
            expect(seat.page.get_by_test_id("hand").locator("button.card")).to_have_count(8)
            # show_stock_bottom: the faced bottom card lies under the stock for both (R2).
            expect(seat.page.get_by_test_id("stock-bottom")).to_have_count(1)
            expect(seat.page.get_by_test_id("target")).to_have_attribute("data-target", "501")

        # Back in the lobby, the table is among the guest's unfinished tables, to return to.
        guest.page.get_by_test_id("table-to-lobby").click()
        expect(guest.page.get_by_test_id(f"my-room-{room}")).to_be_visible()
        guest.page.get_by_test_id(f"return-{room}").click()
        expect(guest.page.get_by_test_id("hand").locator("button.card")).to_have_count(8)

        # Chat is shown as text, never as HTML (on the phone it is in the drawer, one tap away).
        guest.page.get_by_test_id("sheet-toggle").click()
        guest.page.get_by_test_id("chat-input").fill("<b>hi</b> <img src=x onerror=alert(1)>")
        guest.page.get_by_test_id("chat-send").click()
        line = host.page.get_by_test_id("chat-log").locator("li").last
        expect(line).to_contain_text("<b>hi</b>")
        assert host.page.locator('[data-testid="chat-log"] img, [data-testid="chat-log"] b').count() == 0
        assert_frames_match_server_models(host, guest)
        assert not host.errors and not guest.errors, host.errors + guest.errors
    finally:
        host.context.close()
        guest.context.close()


def test_invite_link_for_a_missing_table_and_a_copy_button(
    e2e_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seat = open_seat(browser, e2e_server.url, "Lost", DESKTOP)
    page = seat.page
    try:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.goto("/")
        choose_name(page, "Copy Cat")
        link = create_table(page, target=1001, stake="0.5", currency="chips")
        page.get_by_test_id("copy-invite").click()
        expect(page.get_by_test_id("copy-status")).not_to_be_empty()
        # Closing the table before anybody joins: back in the lobby it is gone.
        page.get_by_test_id("leave-table").click()
        expect(page.get_by_test_id("create-form")).to_be_visible()
        page.goto(link)
        expect(page.get_by_test_id("invite-error")).to_be_visible()
        page.goto("/#/invite/definitely-not-a-code")
        expect(page.get_by_test_id("invite-error")).to_be_visible()
        page.goto("/#/table/r_missing")
        expect(page.get_by_test_id("table-error")).to_be_visible()
        expect(page.get_by_test_id("reconnecting-overlay")).to_be_hidden()
        # The only console errors are the browser's notes on the 404 answers provoked above.
        assert all("status of 404" in error for error in seat.errors), seat.errors
    finally:
        seat.context.close()
