"""The ratings' pure parts: a kind per game of the family, the arithmetic against openskill itself,
and the rebuild's replay (issue 27)."""

from __future__ import annotations

import re

import pytest
from openskill.models import PlackettLuce

from backend.engine import VARIANTS, Rules
from backend.ratings import INITIAL, RATING_KINDS, Skill, displayed, match_kind, rate, rating_kind
from backend.ratings.rebuild import RatedMatch, StoredRating, differences, replay
from backend.rooms.options import TableOptions
from backend.settings import ROOT

KINDS = [
    (Rules(), "twohand24"),  # R1: 24 cards
    (Rules(deck_size=32), "twohand32"),  # V1
    (Rules("mcleod"), "mcleod"),  # V2
    (Rules("rassel"), "rassel"),  # V3
    (Rules("thousand3"), "thousand3"),  # V4
    (Rules("thousand4"), "thousand4"),  # V5
    (Rules("bidding", seats=3), "bidding3"),  # V7 for three
    (Rules("bidding", seats=4), "bidding4"),  # V7 for four
]


@pytest.mark.parametrize(("rules", "kind"), KINDS, ids=[kind for _, kind in KINDS])
def test_every_game_of_the_family_has_a_kind_of_its_own(rules: Rules, kind: str) -> None:
    assert rating_kind(rules) == kind


def test_the_kinds_are_one_per_game_pack_and_seat_count() -> None:
    assert sorted(RATING_KINDS) == sorted(kind for _, kind in KINDS)
    assert len(RATING_KINDS) == sum(len(game.layouts) for game in VARIANTS.values())


def test_v6_jungfrau_the_target_and_scoring_are_options_not_kinds() -> None:
    assert rating_kind(Rules("mcleod", jungfrau=True, target=301)) == "mcleod"
    assert rating_kind(Rules("thousand4", scoring="simplified")) == "thousand4"
    assert rating_kind(Rules(jungfrau=True, target=501)) == "twohand24"


def test_unrated_tables_and_tables_with_a_computer_have_no_kind() -> None:
    people = TableOptions(rules=Rules())
    assert match_kind(people, people_only=True) == "twohand24"
    assert match_kind(TableOptions(rules=Rules(), rated=False), people_only=True) is None
    assert match_kind(TableOptions(rules=Rules(), bot_level="easy", computer_seats=(1,)), people_only=True) is None
    assert match_kind(people, people_only=False) is None


def test_the_rated_option_round_trips_in_the_stored_options() -> None:
    unrated = TableOptions(rules=Rules("bidding", seats=4), rated=False)
    assert TableOptions.from_json(unrated.to_json()) == unrated
    assert TableOptions.from_json({"target": 1001}).rated  # tables stored before the option were rated


@pytest.mark.parametrize("places", [(1, 2), (2, 1), (1, 2, 3), (3, 1, 1), (1, 1, 3), (2, 4, 1, 3), (1, 2, 2, 4)])
def test_rate_is_openskill_plackett_luce_on_the_places(places: tuple[int, ...]) -> None:
    before = [Skill(25 + 2 * i, 8.333 - i) for i in range(len(places))]
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in before], ranks=list(places))
    after = rate(places, before)
    assert after == [Skill(team[0].mu, team[0].sigma) for team in expected]
    best = places.index(min(places))
    worst = places.index(max(places))
    assert after[best].mu > before[best].mu and after[worst].mu < before[worst].mu


def test_a_newcomer_is_shown_1000_and_a_first_win_raises_it() -> None:
    assert (INITIAL.mu, INITIAL.sigma) == (25.0, 25 / 3)
    assert displayed(INITIAL) == 1000
    winner, loser = rate([1, 2], [INITIAL, INITIAL])
    assert displayed(winner) > 1000 > displayed(loser)
    assert displayed(Skill(30.0, 2.0)) == round(1000 + 40 * (30.0 - 6.0))


def test_rate_refuses_a_match_of_one() -> None:
    with pytest.raises(ValueError, match="two or more"):
        rate([1], [INITIAL])


def test_the_replay_chains_matches_per_kind_and_counts_them() -> None:
    matches = [
        RatedMatch("m1", "twohand24", ("a", "b"), (1, 2)),
        RatedMatch("m2", "mcleod", ("a", "b", "c"), (3, 1, 1)),
        RatedMatch("m3", "twohand24", ("b", "a"), (1, 2)),
    ]
    replayed = replay(matches)
    first = rate([1, 2], [INITIAL, INITIAL])
    third = rate([1, 2], [first[1], first[0]])
    assert replayed.ratings[("a", "twohand24")] == StoredRating(third[1], 2)
    assert replayed.ratings[("b", "twohand24")] == StoredRating(third[0], 2)
    assert replayed.ratings[("c", "mcleod")] == StoredRating(rate([3, 1, 1], [INITIAL] * 3)[2], 1)
    assert [(c.match_id, c.player_id) for c in replayed.changes][:2] == [("m1", "a"), ("m1", "b")]
    assert differences(replayed.ratings, dict(replayed.ratings)) == []
    changed = {**replayed.ratings, ("a", "mcleod"): StoredRating(INITIAL, 1)}
    assert len(differences(replayed.ratings, changed)) == 1


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_every_rating_kind_has_a_name_in_every_language(language: str) -> None:
    """The client names a rating's kind ``rating.kind.<kind>`` (views/history.js)."""
    text = (ROOT / "frontend" / "js" / "i18n" / f"{language}.js").read_text(encoding="utf-8")
    named = set(re.findall(r"""^\s*'rating\.kind\.([a-z0-9]+)':\s*'[^']+'""", text, re.MULTILINE))
    assert named == set(RATING_KINDS)
