"""R5 (scoring a deal and the match) and R6 (stakes, resignation)."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest

from backend.engine import (
    DealOver,
    DealStarted,
    IllegalAction,
    MatchOver,
    Play,
    Resign,
    Rules,
    deal_result,
    legal_mask,
    new_deal,
    new_match,
    stake_owed,
)
from backend.engine import match as match_rules
from backend.engine.cards import cards_in
from backend.engine.match import deal_seed, first_dealer, match_winner

from .support import POINTS, name


def random_play(match, rng: random.Random):
    seat = match.deal.turn
    return match_rules.apply(match, seat, Play(rng.choice(list(cards_in(legal_mask(match.deal))))))


def finish_deal(match, rng: random.Random):
    number = match.deal_number
    events = []
    while match.deal_number == number and not match.over:
        match, new = random_play(match, rng)
        events += new
    return match, events


# R5.1 scenarios: the first deal of match seed 3, played by always choosing the first legal card,
# scores (72, 48); the match totals before that deal are set so that the deal decides the case.
MATCH_SEED = 3


def play_first_legal(state):
    while not state.over:
        state, _ = match_rules.deal_rules.apply(state, state.turn, Play(next(cards_in(legal_mask(state)))))
    return state


FIXED_SCORE = deal_result(play_first_legal(new_match(Rules(), MATCH_SEED).deal)).score


def match_on_fixed_deal(totals, target=1001):
    assert max(totals) < target  # nobody has reached the target before this deal
    return replace(new_match(Rules(target=target), MATCH_SEED), totals=totals)


def play_match_deal(match):
    while not match.over and not match.history:
        match, events = match_rules.apply(match, match.deal.turn, Play(next(cards_in(legal_mask(match.deal)))))
    return match, events


# ---------------------------------------------------------------- R5 deal scoring


def test_r5_deal_score_is_card_points_plus_declarations_without_last_trick_bonus():
    rng = random.Random(3)
    for seed in range(40):
        state = new_deal(Rules(declaration_scoring=("by_suit", "by_order")[seed % 2]), seed, seed // 2 % 2)
        while not state.over:
            seat = state.turn
            declare = bool(not state.trick and rng.random() < 0.7)
            options = [a for a in match_rules.deal_rules.legal_actions(state, seat) if a.declare == declare]
            options = options or [Play(c) for c in cards_in(legal_mask(state))]
            state, _ = match_rules.deal_rules.apply(state, seat, rng.choice(options))
        result = deal_result(state)
        taken = [0, 0]
        for t in state.tricks:  # count from R1 independently of the engine's running totals
            taken[t.winner] += sum(POINTS[name(c)[0]] for c in t.cards)
        assert tuple(taken) == result.card_points and sum(taken) == 120
        declared = [sum(d.points for d in state.declarations if d.seat == s and result.tricks_won[s]) for s in (0, 1)]
        assert result.score == (taken[0] + declared[0], taken[1] + declared[1])
        assert len(state.tricks) == 12


def test_r5_totals_accumulate_only_at_the_end_of_a_deal_and_the_dealer_alternates():
    rng = random.Random(11)
    match = new_match(Rules(), 2024)
    assert match.first_dealer == first_dealer(Rules(), 2024) and match.deal.dealer == match.first_dealer
    assert match.deal.seed == deal_seed(2024, 0)
    while not match.over and len(match.history) < 3:
        before = match.totals
        number = match.deal_number
        match, _ = random_play(match, rng)
        if match.deal_number == number:
            assert match.totals == before  # R5.1: not during a deal
        else:
            record = match.history[-1]
            score = record.result.score
            assert match.totals == (before[0] + score[0], before[1] + score[1]) == record.totals
            assert match.deal.dealer == 1 - record.dealer  # R2: the deal alternates
            assert match.deal.seed == deal_seed(2024, match.deal_number)


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ((0, 0), 1001, None),
        ((1000, 999), 1001, None),
        ((1001, 1000), 1001, 0),
        ((999, 1001), 1001, 1),
        ((1100, 1050), 1001, 0),  # R5.1: both past the target, the higher total wins
        ((1050, 1100), 1001, 1),
        ((1050, 1050), 1001, None),  # R5.1: an exact tie past the target: another deal
        ((501, 400), 501, 0),
        ((520, 520), 501, None),
        ((300, 301), 301, 1),
    ],
)
def test_r5_1_match_winner(totals, target, winner):
    assert match_winner(totals, target) == winner


def test_r5_target_option_values():
    for target in (1001, 501, 301):
        assert Rules(target=target).target == target
    for bad in (1000, 0, "1001", 1001.0, True):
        with pytest.raises(ValueError):
            Rules(target=bad)
    assert Rules().target == 1001


def test_r5_1_constructed_both_reach_target_higher_wins():
    a, b = FIXED_SCORE
    match, events = play_match_deal(match_on_fixed_deal((1001 - a + 5, 1001 - b + 4)))
    # both pass the target in the same deal (totals 1006 and 1005): the higher one wins
    assert min(match.totals) >= 1001 and match.totals == (1006, 1005)
    assert match.over and match.winner == 0 and match.end_reason == "target"
    assert events[-1] == MatchOver(winner=0, loser=None, reason="target", totals=(1006, 1005))
    over = events[-2]
    assert isinstance(over, DealOver) and over.score == FIXED_SCORE and over.totals == (1006, 1005)
    assert over.number == 0 and over.seed == str(match.history[0].seed)


def test_r5_1_constructed_exact_tie_plays_another_deal():
    a, b = FIXED_SCORE
    match, events = play_match_deal(match_on_fixed_deal((1001 - a + 20, 1001 - b + 20)))
    assert match.totals == (1021, 1021)
    assert not match.over and match.winner is None
    assert match.deal_number == 1 and not match.deal.over  # a fresh deal is under way
    assert events[-1] == DealStarted(number=1, dealer=match.deal.dealer)
    assert events[-2].kind == "deal_over"


@pytest.mark.parametrize("target", [501, 301])
def test_r5_short_match_targets(target):
    a, b = FIXED_SCORE
    match, _ = play_match_deal(match_on_fixed_deal((target - a, target - b - 1), target=target))
    assert match.totals == (target, target - 1)
    assert match.winner == 0
    assert stake_owed(Decimal("1"), target, match.totals[1]) == Decimal("1")


def test_r5_random_match_reaches_target_and_ends():
    rng = random.Random(5)
    match = new_match(Rules(target=301), 77)
    while not match.over:
        match, _ = random_play(match, rng)
    assert max(match.totals) >= 301 and match.totals[match.winner] > match.totals[1 - match.winner]
    assert match.end_reason == "target"
    with pytest.raises(IllegalAction) as refused:
        match_rules.apply(match, 0, Play(0))
    assert refused.value.code == "match_over"


# ---------------------------------------------------------------- R6 stakes


def test_r6_stake_owed_exact_decimal():
    assert stake_owed(Decimal("0.01"), 1001, 850) == Decimal("1.51")
    assert stake_owed(Decimal("0.1"), 301, 298) == Decimal("0.3")  # exact, where 0.1 * 3 in floats is not
    assert stake_owed(Decimal("1"), 501, 0) == Decimal("501")
    assert stake_owed(Decimal("0"), 1001, 10) == Decimal("0")  # a friendly game
    assert isinstance(stake_owed(Decimal("2.5"), 1001, 1), Decimal)


def test_r6_stake_owed_never_negative():
    # R5.1: a loser may be past the target when both reach it in the same deal
    assert stake_owed(Decimal("0.01"), 1001, 1001) == Decimal("0")
    assert stake_owed(Decimal("0.01"), 1001, 1200) == Decimal("0")
    with pytest.raises(ValueError):
        stake_owed(Decimal("-0.01"), 1001, 500)


@pytest.mark.parametrize("stake", [0.01, 1.0, 1, "0.01"])
def test_r6_1_stake_owed_refuses_floats_and_non_decimals(stake):
    with pytest.raises(TypeError):
        stake_owed(stake, 1001, 500)


@pytest.mark.parametrize("reason", ["resign", "absence"])
@pytest.mark.parametrize("seat", [0, 1])
def test_r6_2_resign_ends_the_match_as_a_loss_with_totals_as_they_stand(seat, reason):
    rng = random.Random(seat)
    match = new_match(Rules(), 9)
    match, _ = finish_deal(match, rng)
    for _ in range(5):  # part of the next deal: its points do not count
        match, _ = random_play(match, rng)
    totals = match.totals
    assert totals == match.history[-1].totals and sum(totals) > 0
    ended, events = match_rules.apply(match, seat, Resign(reason))
    assert ended.over and ended.winner == 1 - seat and ended.end_reason == reason
    assert ended.totals == totals
    assert events == (MatchOver(winner=1 - seat, loser=seat, reason=reason, totals=totals),)
    assert stake_owed(Decimal("0.01"), 1001, ended.totals[seat]) == Decimal(1001 - totals[seat]) / 100
    with pytest.raises(IllegalAction) as refused:
        match_rules.apply(ended, 1 - seat, Resign())
    assert refused.value.code == "match_over"


def test_r6_2_resign_is_allowed_out_of_turn():
    match = new_match(Rules(), 4)
    not_to_move = 1 - match.deal.turn
    ended, _ = match_rules.apply(match, not_to_move, Resign())
    assert ended.winner == match.deal.turn and ended.totals == (0, 0)
