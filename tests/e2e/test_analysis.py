"""The computer's analysis of a finished deal in a real browser on a phone (issue 26): a person who
just lost a deal of two-hand 1001 opens its replay from the match page at 390×844, presses Analyse,
sees the progress bar (role progressbar, done of total) and then the marks along the timeline, the
verdict on a marked move — its grade in a card player's word, the points given away, exact or from
how many guessed deals, the better card ringed in that seat's hand — and every seat's points given
away; the marks' buttons and the slider work from the keyboard. The same for a deal of three (V2)
and of four (V7), where the person's overbid gives the analysis a call to mark, written out. The
match page sums the points given away per deal and for the match, and analyses another deal.

Everything shown is checked against the server's own answer (GET …/analysis), never against
numbers of the test's. The matches are seeded through the sockets, not the browser
(tests/e2e/analysis_seed.py); each deal is analysed once and reused.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.services import ServerProcess, serving

from .analysis_seed import Loop, Seeded, analysed, lost_deal
from .conftest import PHONE
from .helpers import open_seat, screenshots_at
from .test_accessibility import Audit
from .test_polish_pages import api_json, sign_in

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
GRADE_WORD = {"slip": "Slip", "mistake": "Mistake", "blunder": "Blunder"}
ANALYSIS_S = 60  # the longest an analysis may take here (two hands take a few seconds)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Its own server: the computer answers at once, and this module's analyses queue only here."""
    with serving("sqlite", tmp_path_factory.mktemp("e2e-analysis"), BOT_DELAY_S="0", MATCH_SEED="11") as process:
        yield process


@pytest.fixture(scope="module")
def loop() -> Iterator[Loop]:
    running = Loop()
    yield running
    running.close()


@pytest.fixture(scope="module")
def seeded(server: ServerProcess, loop: Loop) -> dict[int, Seeded]:
    """A finished match per seat count, with a deal the person lost; the two-hand one has a second
    deal for the match page to analyse."""
    return {n: lost_deal(loop, server, n, min_deals=2 if n == 2 else 1) for n in (2, 3, 4)}


def shown(x: float) -> int:
    """Points as the page shows them: whole, rounded down (so that they agree with the grade)."""
    return math.floor(x)


def better_words(best: dict[str, Any]) -> str:
    """The start of the better action written out, in English, by its kind."""
    kind = best["kind"]
    return {"bid": f"Better: bid {best.get('amount')}", "pass": "Better: pass", "discard": "Better: lay away"}.get(
        kind, "Better: "
    )


def press_analyse(page: Page) -> None:
    """Analyse: the progress bar while the computer rates the deal, then the analysis."""
    button = page.get_by_test_id("analyse")
    expect(button).to_be_visible()
    expect(button).to_have_text("Analyse")
    button.click()
    progress = page.get_by_test_id("analysis-progress")
    expect(progress).to_be_visible()  # the POST answers 202: queued, then running
    expect(progress).to_have_attribute("role", "progressbar")
    expect(progress).to_have_attribute("aria-label", "Analysis progress")
    assert progress.get_attribute("aria-valuemin") == "0"
    done, most = (
        int(progress.get_attribute("aria-valuenow") or "-1"),
        int(progress.get_attribute("aria-valuemax") or "-1"),
    )
    assert 0 <= done <= max(most, 0), (done, most)
    expect(page.get_by_test_id("analysis")).to_have_attribute("data-status", "done", timeout=ANALYSIS_S * 1000)
    expect(progress).to_have_count(0)


def check_analysed(page: Page, body: dict[str, Any], seeded: Seeded) -> list[dict[str, Any]]:
    """Everything the analysed replay shows, against the server's body: the eval line, every seat's
    points given away, a dot per marked move on the timeline and the marks' buttons. Returns the
    marked ratings in step order."""
    analysis = body["analysis"]
    n = seeded.seats
    frames = len(api_json(page, f"/api/matches/{seeded.match_id}/deals/{seeded.deal}/replay")["frames"])
    assert len(analysis["ratings"]) == frames - 1  # one per action of the deal
    line = page.get_by_test_id("eval-line")
    expect(line).to_be_visible()
    expect(line).to_have_attribute("data-seats", str(n))
    expect(line).to_have_attribute("data-steps", str(frames - 1))
    assert line.locator("polyline").count() == n  # a line per seat, in the race chart's colours
    for seat in range(n):
        figure = page.get_by_test_id(f"analysis-given-{seat}")
        expect(figure).to_have_attribute("data-points", str(shown(analysis["given_away"][seat])))
        expect(figure).to_contain_text(re.compile(r"gave away \d+ points? in this deal$"))  # for screen readers
    marked = [r for r in analysis["ratings"] if r["grade"]]
    assert marked, "the analysis marked no move of the deal"
    for r in marked:
        expect(page.get_by_test_id(f"eval-mark-{r['step']}")).to_have_attribute("data-grade", r["grade"])
    expect(page.get_by_test_id("analysis-next-mark")).to_have_attribute("data-marks", str(len(marked)))
    return marked


def check_verdict(page: Page, seeded: Seeded, rating: dict[str, Any]) -> None:
    """The verdict on the step shown: the grade's word, the points given away, the better action
    (the card ringed in its seat's hand, a call or a discard written out) and how it was found."""
    verdict = page.get_by_test_id("analysis-verdict")
    expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", str(rating["step"]))
    expect(verdict).to_have_attribute("data-grade", rating["grade"] or "")
    expect(verdict).to_have_attribute("data-given-away", str(shown(rating["given_away"])))
    expect(verdict).to_contain_text(GRADE_WORD[rating["grade"]])
    expect(verdict).to_contain_text(re.compile(rf"gave away {shown(rating['given_away'])} points?\."))
    how = "exact" if rating["exact"] else f"from {rating['worlds']} deal"
    expect(page.get_by_test_id("analysis-how")).to_contain_text(how)
    best = rating["best"]
    better = page.get_by_test_id("analysis-better")
    expect(better).to_have_attribute("data-kind", best["kind"])
    expect(better).to_contain_text(better_words(best))
    hand = page.get_by_test_id(f"replay-hand-{rating['seat']}")
    if best["kind"] == "play":
        ringed = hand.locator(f'[data-card="{best["card"]}"]')
        expect(ringed).to_have_attribute("data-better", "true")
        expect(ringed).to_be_visible()
        assert hand.locator('[data-better="true"]').count() == 1
    # the slider says the grade too (its aria-valuetext, for a screen reader)
    assert GRADE_WORD[rating["grade"]] in (page.get_by_test_id("replay-slider").get_attribute("aria-valuetext") or "")


def fits(page: Page) -> None:
    size: dict[str, int] = page.evaluate(
        "() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight,"
        " vw: innerWidth, vh: innerHeight })"
    )
    assert size["w"] <= size["vw"] and size["h"] <= size["vh"], size


def test_a_person_who_lost_a_two_hand_deal_sees_on_a_phone_where_points_went(
    server: ServerProcess, loop: Loop, seeded: dict[int, Seeded], browser: Any, artifacts: Path
) -> None:
    deal = seeded[2]
    assert deal.scores[0] < deal.scores[1], deal  # the person (seat 0) lost it
    person = open_seat(browser, server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    page = person.page
    try:
        sign_in(page, deal.player, "en")
        page.goto(f"/#/history/{deal.match_id}")
        page.get_by_test_id(f"deal-replay-{deal.deal}").click()
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", str(deal.deal))
        expect(page.get_by_test_id("analysis")).to_have_attribute("data-status", "none")
        fits(page)
        press_analyse(page)
        body = analysed(loop, server, deal)  # the server's own answer, now stored
        marked = check_analysed(page, body, deal)
        fits(page)

        # To the first marked move with its button (from the start), the next one by the keyboard.
        page.keyboard.press("Home")
        expect(page.get_by_test_id("analysis-prev-mark")).to_be_disabled()
        page.get_by_test_id("analysis-next-mark").click()
        check_verdict(page, deal, marked[0])
        screenshots_at(page, artifacts, "analysis-2seats", (PHONE, LANDSCAPE))
        fits(page)
        if len(marked) > 1:
            page.get_by_test_id("analysis-next-mark").focus()
            page.keyboard.press("Enter")
            check_verdict(page, deal, marked[1])
            page.get_by_test_id("analysis-prev-mark").focus()
            page.keyboard.press("Enter")
            check_verdict(page, deal, marked[0])
        # A step the player did as well as the computer could: no mark, no better action.
        fine = next((r for r in body["analysis"]["ratings"] if not r["grade"] and r["given_away"] < 0.5), None)
        if fine is not None:
            page.get_by_test_id("replay-slider").fill(str(fine["step"]))
            verdict = page.get_by_test_id("analysis-verdict")
            expect(verdict).to_have_attribute("data-grade", "")
            expect(page.get_by_test_id("analysis-better")).to_have_count(0)
            expect(page.get_by_test_id("replay-hand-0").locator('[data-better="true"]')).to_have_count(0)

        # No serious or critical axe violation at a marked move, on a phone and on a desktop.
        page.get_by_test_id("analysis-next-mark").click()
        audit = Audit(page, artifacts)
        audit.run("analysed replay")
        assert not audit.found, "\n".join(audit.found)

        # Opened again: the stored analysis shows at once, nothing to press.
        page.reload()
        expect(page.get_by_test_id("analysis")).to_have_attribute("data-status", "done")
        expect(page.get_by_test_id("analyse")).to_have_count(0)

        # The deal the resignation cut short replays, but offers nothing to analyse.
        page.goto(f"/#/replay/{deal.match_id}/{deal.deals}")
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", str(deal.deals))
        expect(page.get_by_test_id("replay-slider")).to_be_visible()
        expect(page.get_by_test_id("analysis")).to_have_count(0)
        assert not person.errors, person.errors
    finally:
        person.context.close()


@pytest.mark.parametrize("seats", [3, 4])
def test_a_deal_of_three_or_four_is_analysed_the_same_with_the_calls_written_out(
    seats: int, server: ServerProcess, loop: Loop, seeded: dict[int, Seeded], browser: Any, artifacts: Path
) -> None:
    deal = seeded[seats]
    assert deal.scores[0] < max(deal.scores[1:]), deal
    person = open_seat(browser, server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    page = person.page
    try:
        sign_in(page, deal.player, "en")
        page.goto(f"/#/replay/{deal.match_id}/{deal.deal}")
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-seats", str(seats))
        press_analyse(page)
        body = analysed(loop, server, deal)
        marked = check_analysed(page, body, deal)
        page.get_by_test_id("analysis-next-mark").click()
        check_verdict(page, deal, marked[0])
        # The person's overbid (or a discard) is marked: its better action written out, not pointed at.
        written = next((r for r in marked if r["best"]["kind"] != "play"), None)
        assert written is not None, [(r["step"], r["taken"], r["best"]) for r in marked]
        page.get_by_test_id("replay-slider").fill(str(written["step"]))
        check_verdict(page, deal, written)
        if written["best"]["kind"] in ("bid", "pass"):  # a call: no card to point at
            expect(page.locator('[data-better="true"]')).to_have_count(0)
        fits(page)
        screenshots_at(page, artifacts, f"analysis-{seats}seats", (PHONE, LANDSCAPE))
        assert not person.errors, person.errors
    finally:
        person.context.close()


def test_the_match_page_shows_the_points_given_away_per_deal_and_analyses_another(
    server: ServerProcess, loop: Loop, seeded: dict[int, Seeded], browser: Any, artifacts: Path
) -> None:
    deal = seeded[2]
    first = analysed(loop, server, deal)  # done already when the phone test ran first
    other = next(n for n in range(deal.deals) if n != deal.deal)
    person = open_seat(browser, server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    page = person.page
    try:
        sign_in(page, deal.player, "en")
        page.goto(f"/#/history/{deal.match_id}")
        block = page.get_by_test_id("match-analysis")
        expect(block).to_be_visible()
        expect(block.locator("h2")).to_have_text("Points given away")
        row = page.get_by_test_id(f"analysis-deal-{deal.deal}")
        expect(row).to_have_attribute("data-status", "done")
        for seat in range(2):
            points = str(shown(first["analysis"]["given_away"][seat]))
            expect(page.get_by_test_id(f"analysis-deal-{deal.deal}-seat-{seat}")).to_have_attribute(
                "data-points", points
            )
        expect(page.get_by_test_id(f"analysis-deal-{other}")).to_have_attribute("data-status", "none")
        # under the race chart: a bar per seat for the analysed deal, a gap (no bar) for the other
        given = page.get_by_test_id("given-away-row")
        expect(given).to_have_attribute("data-analysed", str(deal.deal))
        expect(given.get_by_test_id(f"given-away-bar-{deal.deal}-1")).to_have_attribute(
            "data-points", str(shown(first["analysis"]["given_away"][1]))
        )
        expect(given.locator(f'[data-deal="{other}"]')).to_have_count(0)

        # Analyse the other deal from here: it runs, then both count in the match's figures.
        page.get_by_test_id(f"match-analyse-{other}").click()
        expect(page.get_by_test_id(f"analysis-deal-{other}")).to_have_attribute(
            "data-status", "done", timeout=ANALYSIS_S * 1000
        )
        summary = api_json(page, f"/api/matches/{deal.match_id}/analysis")
        assert (summary["analysed"], summary["finished_deals"]) == (2, deal.deals), summary
        expect(page.get_by_test_id("match-analysed")).to_have_attribute("data-analysed", "2")
        expect(given).to_have_attribute("data-analysed", ",".join(map(str, sorted({deal.deal, other}))))
        expect(given).to_have_attribute(
            "data-gaps", ",".join(str(k) for k in range(deal.deals) if k not in (deal.deal, other))
        )
        for seat in range(2):
            expect(page.get_by_test_id(f"match-given-away-{seat}")).to_have_attribute(
                "data-points", str(shown(summary["given_away"][seat]))
            )
        # each analysed deal links to its replay
        page.get_by_test_id(f"analysis-replay-{other}").click()
        expect(page.get_by_test_id("replay-viewer")).to_have_attribute("data-deal", str(other))
        expect(page.get_by_test_id("analysis")).to_have_attribute("data-status", "done")
        page.go_back()
        expect(block).to_be_visible()
        block.scroll_into_view_if_needed()
        screenshots_at(page, artifacts, "analysis-match", (PHONE,))
        assert not person.errors, person.errors
    finally:
        person.context.close()


def test_a_refused_analysis_is_said_in_words_and_tried_again(
    server: ServerProcess, loop: Loop, browser: Any, artifacts: Path
) -> None:
    """One analysis in flight per person (429 analysis_limit): asked for a second one meanwhile, the
    replay says so in words (role alert) and offers to try again, which works once the first is done."""
    deal = lost_deal(loop, server, 2, seed=9, min_deals=2)
    other = next(n for n in range(deal.deals) if n != deal.deal)
    person = open_seat(browser, server.url, "Anna", PHONE, is_mobile=True, has_touch=True)
    page = person.page
    try:
        sign_in(page, deal.player, "en")
        page.goto(f"/#/replay/{deal.match_id}/{deal.deal}")
        expect(page.get_by_test_id("analyse")).to_be_visible()
        posted = page.evaluate(
            """async (path) => {
              const { token } = JSON.parse(localStorage.getItem('1001.player'));
              const answer = await fetch(path, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
              return answer.status;
            }""",
            f"/api/matches/{deal.match_id}/deals/{other}/analysis",
        )
        assert posted == 202, posted  # the other deal's analysis is on its way
        page.get_by_test_id("analyse").click()
        refused = page.get_by_test_id("analysis-error")
        expect(refused).to_have_attribute("data-code", "analysis_limit")
        expect(refused).to_have_attribute("role", "alert")
        expect(refused).to_contain_text("try again later")
        fits(page)
        screenshots_at(page, artifacts, "analysis-refused", (PHONE,))
        analysed(loop, server, deal, other)  # the first one done
        page.get_by_test_id("analysis-retry").click()
        expect(page.get_by_test_id("analysis")).to_have_attribute("data-status", "done", timeout=ANALYSIS_S * 1000)
        expect(page.get_by_test_id("analysis-error")).to_have_count(0)
        # the browser logs the refused request (429) itself; nothing else went wrong
        assert [e for e in person.errors if "429" not in e] == [], person.errors
    finally:
        person.context.close()
