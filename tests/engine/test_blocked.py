"""``SeatView.blocked``: the cards a seat may not play now, each with the engine's own refusal code.

The codes come from the engine's one copy of the rules (``deal.refusal_code``); these properties
check that ``legal`` and ``blocked`` partition the hand of the seat to move, that playing a
blocked card is refused with exactly that code, and that a seat not to move sees neither.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from backend.engine import IllegalAction, IllegalCode, Play, card, new_match
from backend.engine import match as match_rules
from backend.engine import view_for as seat_view
from backend.engine.view import plays_for

from .support import build, play, reach_phase2
from .test_properties import PROPERTY_SETTINGS, choices, choose, rules_strategy, seeds


@settings(PROPERTY_SETTINGS, max_examples=150)
@given(rules=rules_strategy, seed=seeds, picks=st.lists(choices, min_size=1, max_size=3))
def test_r4_legal_and_blocked_partition_the_hand_and_blocked_cards_are_refused_with_their_code(rules, seed, picks):
    match = new_match(rules, seed)
    refused_codes: set[IllegalCode] = set()
    for deal_picks in picks:
        for pick in deal_picks:
            if match.over:
                break
            seat = match.deal.turn
            assert seat is not None
            view = seat_view(match, seat)
            legal = [p.card for p in view.legal]
            blocked = [b.card for b in view.blocked]
            assert sorted(legal + blocked) == sorted(view.deal.hand)
            assert not set(legal) & set(blocked)
            other = seat_view(match, 1 - seat)
            assert other.legal == () and other.blocked == ()
            for blocked in view.blocked:
                try:
                    match_rules.apply(match, seat, Play(card(blocked.card)))
                except IllegalAction as refusal:
                    assert refusal.code == blocked.code
                    refused_codes.add(refusal.code)
                else:
                    raise AssertionError(f"{blocked.card} is blocked but was accepted")
            match, _ = match_rules.apply(match, seat, choose(match.deal, pick))
    assert refused_codes <= {IllegalCode.MUST_FOLLOW_SUIT, IllegalCode.MUST_BEAT, IllegalCode.MUST_TRUMP}


def test_r4_blocked_names_the_reason_of_each_card_in_phase_2() -> None:
    # Phase 2, no trump; forehand leads the Q♠: the dealer must follow ♠ and head the trick (R4.1).
    state = reach_phase2("QS 9S AH KH QH JH 9H TD", "AS TS KS JS TH AD KD QD")
    assert not state.stock and state.turn == state.forehand  # R4 phase 2
    after = play(state, state.forehand, "QS")
    dealer = after.dealer
    legal, blocked = plays_for(after, dealer)
    assert {p.card for p in legal} == {"AS", "TS", "KS"}
    assert {(b.card, b.code) for b in blocked} == {
        ("JS", IllegalCode.MUST_BEAT),
        ("TH", IllegalCode.MUST_FOLLOW_SUIT),
        ("AD", IllegalCode.MUST_FOLLOW_SUIT),
        ("KD", IllegalCode.MUST_FOLLOW_SUIT),
        ("QD", IllegalCode.MUST_FOLLOW_SUIT),
    }
    assert plays_for(after, state.forehand) == ((), ())  # not to move: nothing


def test_r4_blocked_is_empty_in_phase_1_and_on_lead() -> None:
    state = build("AC TC KC QC JC 9C AS TS", "KS QS JS 9S AH TH KH QH", "JH 9H AD TD KD QD JD 9D")
    assert state.turn is not None
    assert plays_for(state, state.turn)[1] == ()
    after = play(state, state.turn, "KS")  # forehand (seat 1) leads
    assert after.stock and after.turn is not None  # R4 phase 1: any card may follow
    assert plays_for(after, after.turn)[1] == ()
