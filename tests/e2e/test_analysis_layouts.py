"""The analysed replay in the viewport matrix (issue 26, "Done when"): in English, German and Russian,
at 390×844, 844×390 and 1366×768, a deal of two, three and four seats analysed and shown at its
first marked move — the verdict, the eval line along the timeline, every seat's points given away —
fits the screen as the table does (no page scroll, nothing sticking out sideways, no text cut off,
no seat's name cut, the given ids in view), and so do a deal not analysed yet (Analyse) and the
match page with its points given away — under its race chart a bar per seat for each analysed deal,
on the race's deal axis, and a gap for each deal not analysed. The checks are test_layout_matrix.py's own (imported, not
copied); screenshots go to tests/e2e/artifacts/layout-<lang>-analysis-….jpg (JPEG: half the time of a PNG).

The matches are seeded through the sockets and analysed through the API once for the module
(tests/e2e/analysis_seed.py); each language's test only opens pages.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess, serving

from .analysis_seed import Loop, Seeded, analysed, lost_deal
from .conftest import VIEWPORTS
from .helpers import open_seat
from .test_layout_matrix import LOCALES, Matrix
from .test_polish_pages import sign_in

pytestmark = pytest.mark.browser

MATRIX = ("390x844", "844x390", "1366x768")
IN_VIEW = ("analysis-verdict", "analysis-better", "eval-line", "analysis-given-away", "replay-slider", "replay-next")
GRADE_WORDS = {
    "en": ("Slip", "Mistake", "Blunder"),
    "de": ("Unachtsamkeit", "Fehler", "Patzer"),
    "ru": ("Неточность", "Ошибка", "Зевок"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("e2e-analysis-layouts"), BOT_DELAY_S="0", MATCH_SEED="11") as s:
        yield s


@pytest.fixture(scope="module")
def deals(server: ServerProcess) -> Iterator[dict[int, tuple[Seeded, dict[str, Any]]]]:
    """Per seat count a finished match and its lost deal's analysis, made once for the module (the
    two-hand match has a second deal, left unanalysed)."""
    loop = Loop()
    try:
        out = {}
        for n in (2, 3, 4):
            seeded = lost_deal(loop, server, n, min_deals=2 if n == 2 else 1)
            out[n] = (seeded, analysed(loop, server, seeded))
        yield out
    finally:
        loop.close()


def given_away_row_is_checked(page: Page, seeded: Seeded, body: dict[str, Any]) -> None:
    """The row under the race chart: on the race's deal axis, the analysed deal a bar per seat with
    the server's figure (whole, rounded down), every other deal of the match a gap (no bar at all)."""
    row = page.get_by_test_id("given-away-row")
    expect(row).to_be_visible()
    expect(row).to_have_attribute("data-deals", str(seeded.deals))
    expect(row).to_have_attribute("data-analysed", str(seeded.deal))
    others = [k for k in range(seeded.deals) if k != seeded.deal]
    expect(row).to_have_attribute("data-gaps", ",".join(map(str, others)))
    for seat in range(seeded.seats):
        bar = row.get_by_test_id(f"given-away-bar-{seeded.deal}-{seat}")
        expect(bar).to_have_attribute("data-points", str(math.floor(body["analysis"]["given_away"][seat])))
        for k in others:
            expect(row.get_by_test_id(f"given-away-bar-{k}-{seat}")).to_have_count(0)
    # each bar under its deal's point of the race chart (the same deal axis, drawn at the same width)
    race_x = page.get_by_test_id("race-chart").locator(f'.race-series .race-point[data-deal="{seeded.deal + 1}"]')
    centre = race_x.first.bounding_box()
    bar_box = row.get_by_test_id(f"given-away-bar-{seeded.deal}-0").bounding_box()
    assert centre is not None and bar_box is not None
    assert abs((centre["x"] + centre["width"] / 2) - (bar_box["x"] + bar_box["width"] / 2)) < 1.5, (centre, bar_box)


def show_given_away_row(page: Page) -> None:
    page.get_by_test_id("given-away-row").scroll_into_view_if_needed()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_analysed_replay_fits_every_viewport(
    lang: str, server: ServerProcess, deals: dict[int, tuple[Seeded, dict[str, Any]]], browser: Any, artifacts: Path
) -> None:
    seat = open_seat(
        browser, server.url, f"Analysis {lang}", VIEWPORTS["390x844"], locale=LOCALES[lang], reduced_motion="reduce"
    )
    page = seat.page
    matrix = Matrix(page, lang, artifacts)
    try:
        for n, (seeded, body) in deals.items():
            sign_in(page, seeded.player, lang)
            page.goto(f"/#/replay/{seeded.match_id}/{seeded.deal}")
            expect(page.get_by_test_id("analysis")).to_have_attribute("data-status", "done")
            page.get_by_test_id("analysis-next-mark").click()
            first = next(r for r in body["analysis"]["ratings"] if r["grade"])
            expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", str(first["step"]))
            words = dict(zip(("slip", "mistake", "blunder"), GRADE_WORDS[lang], strict=True))
            expect(page.get_by_test_id("analysis-verdict")).to_contain_text(words[first["grade"]])
            matrix.page_fits(f"analysis-{n}seats", table=True, in_view=IN_VIEW, seats=True, viewports=MATRIX)

            if n == 2:
                # a deal of the same match not analysed yet: Analyse, on the same felt
                other = next(k for k in range(seeded.deals) if k != seeded.deal)
                page.goto(f"/#/replay/{seeded.match_id}/{other}")
                expect(page.get_by_test_id("analysis")).to_have_attribute("data-status", "none")
                matrix.page_fits("analysis-none", table=True, in_view=("analyse",), seats=True, viewports=MATRIX)
                # the match page: per deal and per player the points given away, and under the race
                # chart a bar per seat for the analysed deal, gaps (no bar) for the others
                page.goto(f"/#/history/{seeded.match_id}")
                expect(page.get_by_test_id(f"analysis-deal-{seeded.deal}")).to_have_attribute("data-status", "done")
                given_away_row_is_checked(page, seeded, body)
                matrix.page_fits(
                    "analysis-match", in_view=("given-away-row",), prepare=show_given_away_row, viewports=MATRIX
                )
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()
    assert matrix.checks == 5 * len(MATRIX) and matrix.names_checked
    assert not matrix.problems, f"{len(matrix.problems)} layout problems:\n" + "\n".join(matrix.problems)
