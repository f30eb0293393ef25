"""The rater (issue 26, ``backend.analysis.rate``): every decision of a deal rated from its seat's knowledge —
exact against the two-hand search core and plain minimax in phase 2 (R4), blind to the hidden cards everywhere
(the hidden cards dealt again: the same rating), and whole deals of every game analysed."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.analysis import decisions, rate, summarize
from backend.analysis.model import ANALYSIS_VERSION, Decision, Rating
from backend.analysis.rate import Budget, _rating
from backend.bots import choose, observe
from backend.db.writes import ActionRecord
from backend.engine import (
    Action,
    Bid,
    DealState,
    Discard,
    Pass,
    Play,
    Rules,
    apply,
    apply_deal,
    deal_actions,
    new_match,
)
from backend.rooms.log import action_record
from backend.rooms.replay import deal_frames, match_deals
from tests.bots.support import GAME_IDS, GAMES, brute_force, counted_so_far, exact_values, two_hand_position

from .support import bot_deal, redealt

LIGHT = Budget(
    table_worlds=6,
    two_hand_worlds=3,
    enumerate_limit=40,
    search_reads=6,
    exact_reads=60,
    exact_worlds=60,
    exact_nodes=30_000,
    discard_options=4,
    low_bids=2,
)
LIGHT_TWO_HAND = Budget(two_hand_worlds=4, search_reads=8)


def _decision(state: DealState, action: Action, step: int = 1) -> Decision:
    assert state.turn is not None
    return Decision(step, state.turn, state, action, state.totals)


def _edge(scores: tuple[float, ...], seat: int) -> float:
    return scores[seat] - scores[1 - seat]


# ---------------------------------------------------------------- two-hand phase 2: exact (R4)


def _phase2(rules: Rules, rng: random.Random, tricks_left: int, mid_trick: bool) -> DealState:
    while True:
        state = two_hand_position(rules, rng, tricks_left, mid_trick)
        if not state.stock and state.turn is not None:
            return state


def _check_exact(state: DealState, seed: int) -> None:
    seat = state.turn
    assert seat is not None
    values = exact_values(state)
    base = counted_so_far(state, seat)
    best_value = max(values.values())
    for play, value in values.items():
        rating = rate(_decision(state, play), seed)
        assert rating.taken == play
        if len(values) == 1:
            assert rating.forced and rating.given_away == 0
            continue
        assert rating.exact and rating.worlds == 1 and not rating.forced
        assert _edge(rating.taken_scores, seat) == value + base  # the written difference once the deal is over
        assert _edge(rating.best_scores, seat) == best_value + base
        assert values[rating.best] == best_value  # type: ignore[index]
        assert rating.given_away == (best_value - value) / 2  # model.points_given_away for two seats
        if value == best_value:
            assert rating.best == play and rating.given_away == 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    tricks_left=st.integers(1, 5),
    mid_trick=st.booleans(),
    scoring=st.sampled_from(["by_suit", "by_order"]),
)
def test_r4_phase_two_ratings_are_the_solvers_values(
    seed: int, tricks_left: int, mid_trick: bool, scoring: str
) -> None:
    state = _phase2(Rules(declaration_scoring=scoring), random.Random(seed), tricks_left, mid_trick)
    _check_exact(state, seed)


@pytest.mark.parametrize("tricks_left", [2, 3])
def test_r4_r5_phase_two_scores_are_the_written_difference_of_plain_minimax(tricks_left: int) -> None:
    rng = random.Random(tricks_left)
    for _ in range(6):
        state = _phase2(Rules(), rng, tricks_left, rng.random() < 0.5)
        seat = state.turn
        assert seat is not None
        for play in deal_actions(state, seat):
            rating = rate(_decision(state, play), 1)
            if not rating.forced:
                after, _ = apply_deal(state, seat, play)
                assert _edge(rating.taken_scores, seat) == brute_force(after, seat)


def test_r4_a_card_that_loses_a_rich_trick_is_a_blunder() -> None:
    rng = random.Random(26)
    for _ in range(400):
        state = _phase2(Rules(), rng, 4, False)
        seat = state.turn
        assert seat is not None
        values = exact_values(state)
        worst = min(values, key=lambda p: values[p])
        if (max(values.values()) - values[worst]) / 2 >= 25:
            break
    else:
        pytest.fail("no position with a blunder found")
    rating = rate(_decision(state, worst), 3)
    assert rating.grade == "blunder" and rating.given_away >= 25
    assert rating.best != worst and rating.best in deal_actions(state, seat)
    assert rate(_decision(state, rating.best), 3).grade is None


# ---------------------------------------------------------------- forced, determinism, picklable


def test_a_single_legal_card_is_forced_and_gives_nothing_away() -> None:
    rng = random.Random(5)
    state = _phase2(Rules(), rng, 1, True)  # the last card of the deal: no choice (R4)
    (only,) = deal_actions(state, state.turn or 0)
    rating = rate(_decision(state, only), 9)
    assert rating.forced and rating.best == only == rating.taken
    assert rating.given_away == 0 and rating.worlds == 0 and rating.grade is None


def test_a_rating_is_the_same_for_a_seed_and_survives_pickling() -> None:
    start, plays = bot_deal(Rules("mcleod"), 4)
    decision = decisions(start, plays)[len(plays) // 2]
    again = pickle.loads(pickle.dumps(decision))
    assert rate(again, 17) == rate(decision, 17)
    rating = rate(decision, 17)
    assert pickle.loads(pickle.dumps(rating)) == rating


# ---------------------------------------------------------------- no information from the hidden cards (R7, V0.11)


def _blind(decision: Decision, seed: int, budget: Budget = LIGHT) -> Rating:
    """Rate ``decision`` and the same decision with the hidden cards dealt again: equal ratings."""
    rating = rate(decision, seed, budget)
    rng = random.Random(seed)
    moved = False
    for _ in range(2):
        other = redealt(decision.state, decision.seat, rng)
        moved |= other.hands != decision.state.hands
        assert observe(other, decision.seat) == observe(decision.state, decision.seat)
        again = Decision(decision.step, decision.seat, other, decision.action, decision.totals)
        assert rate(again, seed, budget) == rating
    assert moved  # the hidden cards did change
    return rating


def _first(found: list[Decision], kind: type, phase1: bool = False) -> Decision:
    for d in found:
        if isinstance(d.action, kind) and (not phase1 or d.state.stock) and len(observe(d.state, d.seat).plays) != 1:
            return d
    pytest.fail(f"no {kind.__name__} decision")


def test_r7_two_hand_phase_one_rating_does_not_see_the_opponent_or_the_stock() -> None:
    start, plays = bot_deal(Rules(), 8)
    found = decisions(start, plays)
    rating = _blind(_first(found, Play, phase1=True), 2, LIGHT_TWO_HAND)
    assert not rating.exact and rating.worlds == LIGHT_TWO_HAND.two_hand_worlds
    late = next(d for d in found if len(d.state.stock) == 2 and not d.state.trick)  # the last phase-1 trick
    assert _blind(late, 3, Budget()).exact  # every world taken, each searched to the end (R4)


@pytest.mark.parametrize("rules", [Rules("mcleod"), Rules("bidding", seats=4)], ids=["V2_mcleod", "V7_bidding4"])
def test_v0_11_auction_discard_and_play_ratings_do_not_see_the_hidden_cards(rules: Rules) -> None:
    for seed in range(20):
        start, plays = bot_deal(rules, seed)
        found = decisions(start, plays)
        if any(isinstance(d.action, Discard) for d in found):
            break
    for kind in (Pass, Discard, Play):
        rating = _blind(_first(found, kind), seed)
        assert rating.worlds == LIGHT.table_worlds and not rating.exact
    bids = [d for d in found if isinstance(d.action, Bid)]
    assert bids and _blind(bids[0], 5).taken == bids[0].action
    late = [d for d in found if isinstance(d.action, Play) and d.state.hands[d.seat].bit_count() == 2]
    exact = [r for r in (rate(d, 1) for d in late) if not r.forced]
    assert exact and all(r.exact for r in exact)  # the last tricks, every world searched to the end
    assert _blind(next(d for d in late if not rate(d, 1).forced), 6, Budget()).exact


# ---------------------------------------------------------------- whole deals of every game


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_every_game_a_whole_medium_deal_is_analysed(rules: Rules) -> None:
    start, plays = bot_deal(rules, 31)
    found = decisions(start, plays)
    assert [(d.seat, d.action) for d in found] == plays
    assert [d.step for d in found] == list(range(1, len(plays) + 1))
    ratings = [rate(d, d.step, LIGHT) for d in found]
    for d, r in zip(found, ratings, strict=True):
        assert r.taken == d.action and r.seat == d.seat and r.step == d.step
        assert r.given_away >= 0 and len(r.taken_scores) == len(r.best_scores) == rules.n
        legal = deal_actions(d.state, d.seat)
        assert any(_same(r.best, a) for a in legal)
        if len(legal) == 1:
            assert r.forced and r.best == r.taken
    assert any(r.exact for r in ratings)  # two-hand phase 2 (R4), the last tricks of three and four
    analysis = summarize(rules.n, ratings)
    assert analysis.version == ANALYSIS_VERSION and analysis.ratings == tuple(ratings)
    for seat in range(rules.n):
        assert analysis.given_away[seat] == pytest.approx(sum(r.given_away for r in ratings if r.seat == seat))


def _same(a: Action, b: Action) -> bool:
    if isinstance(a, Discard) and isinstance(b, Discard):
        return {a.card_a, a.card_b} == {b.card_a, b.card_b}
    return a == b


def test_summarize_sums_the_points_given_away_per_seat() -> None:
    play = Play(3)
    ratings = [
        Rating(1, 0, play, play, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 5.5, False, 24, False),
        Rating(2, 2, play, play, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 12.0, True, 1, False),
        Rating(3, 0, play, play, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.5, False, 24, False),
    ]
    analysis = summarize(3, ratings)
    assert analysis.given_away == (7.0, 0.0, 12.0)
    assert analysis.ratings == tuple(ratings) and analysis.version == ANALYSIS_VERSION


def test_a_sampled_figure_better_by_chance_marks_nothing() -> None:
    decision = _decision(_phase2(Rules(), random.Random(2), 3, False), Play(0))
    noisy = [(40.0, 60.0), (90.0, 10.0), (45.0, 55.0), (85.0, 15.0)]  # better on average, within the noise
    steady = [(52.0, 48.0), (53.0, 47.0), (52.0, 48.0), (54.0, 46.0)]  # better in every world
    taken = [(50.0, 50.0)] * 4
    seat = decision.seat
    flip = [(b, a) for a, b in noisy] if seat else noisy
    sure = [(b, a) for a, b in steady] if seat else steady
    rating = _rating(decision, 2, [(Play(0), taken), (Play(1), flip)], False)
    assert rating.best == Play(0) and rating.given_away == 0
    rating = _rating(decision, 2, [(Play(0), taken), (Play(1), flip), (Play(2), sure)], False)
    assert rating.best == Play(2) and rating.given_away == pytest.approx(2.75)
    rating = _rating(decision, 2, [(Play(0), taken), (Play(1), flip)], True)  # exact: compared as they are
    assert rating.best == Play(1) and rating.given_away == pytest.approx(15.0)


def test_v6_two_hand_jungfrau_is_not_exact_while_a_seat_has_no_trick() -> None:
    rules = Rules(target=301, jungfrau=True)
    rng = random.Random(12)
    for _ in range(300):
        state = _phase2(rules, rng, 3, False)
        if not all(state.tricks_won) and len(deal_actions(state, state.turn or 0)) > 1:
            break
    else:
        pytest.fail("no phase-2 position with a seat without a trick")
    rating = rate(_decision(state, deal_actions(state, state.turn or 0)[0]), 1)
    assert not rating.exact and rating.worlds == 1


@pytest.mark.parametrize("rules", [Rules(target=1001), Rules("bidding", seats=3)], ids=["R_two_hand", "V7_bidding3"])
def test_r5_decisions_of_a_replayed_deal_are_its_frames_with_the_match_totals_before_it(rules: Rules) -> None:
    match = new_match(rules, 21)
    log: list[ActionRecord] = []
    rng = random.Random(21)
    while match.deal_number < 2:
        seat = match.deal.turn
        assert seat is not None
        action = choose("medium", observe(match.deal, seat, match.totals), rng)
        match, _ = apply(match, seat, action)
        log.append(action_record(seat, action))
    second = match_deals(rules, 21, log)[1]
    found = decisions(second.start, second.plays)
    frames = deal_frames(second)
    assert len(found) == len(frames) - 1
    for d, frame in zip(found, frames[1:], strict=True):
        assert frame["step"] == d.step and frame["action"]["seat"] == d.seat
        assert d.totals == match.history[0].totals  # what the bots read (knowledge.observe's totals)
