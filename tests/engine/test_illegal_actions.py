"""Every refusal code of the deal engine, provoked on hand-built deals (R2–R4); a refused action
changes nothing."""

from __future__ import annotations

import pytest

from backend.engine import ILLEGAL_CODES, IllegalAction, Play, card
from backend.engine import apply_deal as apply
from backend.engine import check_deal as check
from backend.engine import deal_actions as legal_actions

from .support import build, play, reach_phase2, snapshot, trick

DEAL = ("AC TC KC QC JC 9C AS TS", "KS QS JS 9S AH TH KH QH", "JH 9H AD TD KD QD JD 9D")  # seat 1 leads


def assert_refused(state, seat, card_name, code, declare=False):
    before = snapshot(state)
    action = Play(card(card_name), declare)
    with pytest.raises(IllegalAction) as error:
        apply(state, seat, action)
    assert error.value.code == code
    assert error.value.message and str(error.value) == error.value.message
    with pytest.raises(IllegalAction) as checked:
        check(state, seat, action)
    assert checked.value.code == code
    assert action not in legal_actions(state, seat)
    assert snapshot(state) == before  # hands, stock, trick, turn, trump, tricks, points: all unchanged


def test_r4_not_your_turn():
    state = build(*DEAL)
    assert_refused(state, 0, "AC", "not_your_turn")  # the dealer may not lead the first trick (R4)
    state = play(state, 1, "KS")
    assert_refused(state, 1, "QS", "not_your_turn")  # nor play twice to a trick


def test_r4_card_not_held():
    state = build(*DEAL)
    assert_refused(state, 1, "AC", "card_not_held")  # the opponent's card
    assert_refused(state, 1, "JH", "card_not_held")  # a stock card
    state = play(state, 1, "KS")
    assert_refused(state, 0, "KS", "card_not_held")  # a card already on the table
    with pytest.raises(IllegalAction) as error:
        apply(state, 0, Play(99))  # not a card at all
    assert error.value.code == "card_not_held"


def test_r4_phase2_must_follow_suit_code():
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH", declare="QH")
    state = play(state, 1, "AS")
    assert_refused(state, 0, "TC", "must_follow_suit")
    assert_refused(state, 0, "AH", "must_follow_suit")


def test_r4_phase2_must_beat_code():
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH", declare="QH")
    state = play(state, 1, "JC")
    assert_refused(state, 0, "9C", "must_beat")


def test_r4_phase2_must_trump_code():
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH", declare="QH")
    state = play(state, 1, "AD")
    assert_refused(state, 0, "TC", "must_trump")


def test_r3_cannot_declare_code():
    state = build(*DEAL)
    assert_refused(state, 1, "AH", "cannot_declare", declare=True)  # not a K or Q
    assert_refused(state, 1, "JS", "cannot_declare", declare=True)
    state = build("AC TC KC 9H JC 9C AS TS", "KS QS JS 9S AH TH KH QC", "JH QH AD TD KD QD JD 9D")
    assert_refused(state, 1, "KH", "cannot_declare", declare=True)  # QH is in the stock
    state = play(state, 1, "KS")
    assert_refused(state, 0, "KC", "cannot_declare", declare=True)  # not on lead
    state = build(*DEAL)
    state = trick(state, "KH", "9C", declare=True)
    assert_refused(state, 1, "QH", "cannot_declare", declare=True)  # hearts already declared


def test_r5_deal_over_code_after_the_last_trick():
    state = build(*DEAL)
    while not state.over:
        state, _ = apply(state, state.turn, legal_actions(state, state.turn)[0])
    assert_refused(state, 0, "AC", "deal_over")
    assert_refused(state, 1, "AC", "deal_over")


def test_r3_r4_r5_every_refusal_code_is_known():
    assert set(ILLEGAL_CODES) == {
        "not_your_turn",
        "card_not_held",
        "must_follow_suit",
        "must_beat",
        "must_trump",
        "cannot_declare",
        "deal_over",
        "match_over",  # the match layer's own, tested with the match (R5, R6.2)
        # V2–V7 only (RULES-VARIANTS.md V0.12), tested in tests/engine/test_variants_*.py:
        "wrong_phase",
        "bid_not_multiple_of_ten",
        "bid_too_low",
        "bid_over_cap",
        "must_discard_two",
        "meld_not_higher",
        "meld_forbidden",
    }
