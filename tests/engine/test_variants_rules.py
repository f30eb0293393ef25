"""RULES-VARIANTS.md — one example test (at least) named after every numbered rule and ruling of V0, V2–V7.

Deals are written by card name, seat by seat (``variant_support.table``); dealer 0 unless said, so
forehand is seat 1. Actions are short strings (``variant_support.action``): ``b40``, ``p``,
``dTH,QD``, ``KH``, ``KH!`` (lead and declare).
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from backend.engine import (
    AuctionWon,
    Bid,
    Discard,
    Discarded,
    IllegalAction,
    Pass,
    Play,
    Resign,
    Rules,
    TalonTaken,
    ThrownIn,
    card,
    deal_result,
    first_dealer,
    names,
    new_deal,
    new_match,
    payments,
    places,
    refusal_code,
)
from backend.engine import apply as apply_match
from backend.engine import apply_deal as apply
from backend.engine import deal_actions as legal_actions
from backend.engine import events_for as table_events_for_seat
from backend.engine import replay_match as replay_table_match
from backend.engine import view_for as table_seat_view
from backend.engine.cards import cards_in
from backend.engine.deal import bid_cap, legal_bids, legal_mask, round_points
from backend.engine.kernel import NO_TRUMP, obligation_mask, winning_index
from backend.engine.match import match_winner as table_match_winner
from backend.engine.shuffle import shuffled
from backend.engine.variants import VARIANTS

from .support import POINTS, hand_names, ids
from .variant_support import act, action, finish, scored, table

# V2: seat 0 holds K-Q clubs, seat 1 K-Q spades, seat 2 K-Q hearts; the talon TH QD.
V2_HANDS = ["TC KC QC AS JD AH", "AC JC TS KS QS JS", "KH QH JH AD TD KD"]
V2_TALON = "TH QD"
# V3: seat 1 K-Q hearts and clubs, seat 2 K-Q spades, seat 0 K-Q diamonds.
V3_HANDS = ["TH JH AD TD KD QD JD 9D", "KH QH AC TC KC QC JC 9C", "AH 9H AS TS KS QS JS 9S"]
# V4: seat 1 holds all four marriages.
V4_HANDS = ["AH TH JH 9C AD TD JD 9D", "KD QD KH QH KS QS KC QC", "AC TC JC 9H AS TS JS 9S"]
# V5: a suit each.
V5_HANDS = ["AD TD KD QD JD 9D 8D 7D", "AC TC KC QC JC 9C 8C 7C", "AS TS KS QS JS 9S 8S 7S", "AH TH KH QH JH 9H 8H 7H"]
# V7, three seats: seat 1 K-Q clubs, seat 2 no pair, seat 0 K-Q diamonds; the skat 8D 7D.
V7_HANDS = ["QS QH 8H 7H AD TD KD QD JD 9D", "AC TC KC QC JC 9C 8C 7C AS TS", "KS JS 9S 8S 7S AH TH KH JH 9H"]
V7_TALON = "8D 7D"
# V7, four seats (no 7H, 7D): the skat 9D 8D.
V7_4_HANDS = ["9H 8H AD TD KD QD JD", "AC TC KC QC JC 9C 8C", "7C AS TS KS QS JS 9S", "8S 7S AH TH KH QH JH"]
V7_4_TALON = "9D 8D"


def refused(state, seat, text) -> str:
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action(text))
    return info.value.code


def legal_cards(state) -> set[str]:
    return set(names(legal_mask(state)))


def pack_points(pack: int) -> int:
    return sum(POINTS[c[0]] for c in names(pack))


# ---------------------------------------------------------------- V0


def test_V0_1_seats_clockwise_forehand_left_of_dealer_first_dealer_from_the_seed():
    state = table("rassel", V3_HANDS, dealer=2)
    assert state.forehand == 0 and state.turn == 0
    state = act(state, "p")
    assert state.turn == 1  # clockwise
    firsts = {first_dealer(Rules("bidding", seats=4), seed) for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert new_match(Rules("mcleod"), 5).first_dealer == new_match(Rules("mcleod"), 5).first_dealer


def test_V0_1a_the_deal_passes_left_after_every_deal_thrown_in_included():
    match = new_match(Rules("bidding", seats=4), 11)
    first = match.first_dealer
    for k in range(1, 6):
        for _ in range(4):
            match, events = apply_match(match, match.deal.turn, Pass())
        assert any(isinstance(e, ThrownIn) for e in events)
        assert match.deal.dealer == (first + k) % 4 and match.deal_number == k
        assert match.totals == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("variant", "seats"),
    [("mcleod", 3), ("rassel", 3), ("thousand3", 3), ("thousand4", 4), ("bidding", 3), ("bidding", 4)],
)
def test_V0_2_dealt_from_the_top_in_packets_forehand_to_dealer_no_stock(variant, seats):
    rules = Rules(variant, seats=seats)
    layout = rules.layout
    dealer = 1
    state = new_deal(rules, 77, dealer)
    order = iter(shuffled(list(cards_in(layout.pack)), 77))
    hands: list[list[int]] = [[] for _ in range(seats)]
    talon: list[int] = []
    for kind, size in layout.packets:
        if kind == "talon":
            talon += [next(order) for _ in range(size)]
        else:
            for k in range(1, seats + 1):
                hands[(dealer + k) % seats] += [next(order) for _ in range(size)]
    assert state.initial_hands == tuple(sum(1 << c for c in h) for h in hands)
    assert state.talon == tuple(talon)
    every = sum(state.initial_hands) + sum(1 << c for c in state.talon)
    assert every == layout.pack  # every card outside the talon is dealt: no stock


def test_V0_3_ranks_and_card_points_every_pack_holds_120():
    for game in VARIANTS.values():
        for layout in game.layouts:
            assert pack_points(layout.pack) == 120
    state = table("thousand4", V5_HANDS)
    state = act(state, "7C 8S 9H 9D")  # all of one trick score 0
    assert state.card_points == (0, 0, 0, 0)


def test_V0_4_winning_card_so_far_highest_trump_else_highest_of_suit_led():
    assert winning_index(ids("JS AS 9S"), NO_TRUMP) == 1
    assert winning_index(ids("JS AH TS"), NO_TRUMP) == 2  # AH is not of the suit led
    assert winning_index(ids("JS 9H AS QH"), 2) == 3  # hearts trump: the highest trump wins
    state = table("rassel", V3_HANDS)
    state = act(state, "b10 p p KH! AH JH")
    assert state.tricks[0].winner == 2 and state.turn == 2  # the winner leads next


def test_V0_5_declare_on_lead_with_k_and_q_trump_at_once_once_per_suit():
    state = table("rassel", V3_HANDS)
    state = act(state, "b10 p p")
    assert refused(state, 1, "AC!") == "cannot_declare"
    state = act(state, "KH!")
    assert state.trump == 2 and state.declarations[0].points == 100  # V3.5: hearts 100
    assert refused(state, 2, "AH!") == "cannot_declare"  # not on lead
    state = act(state, "AH JH")  # AH takes KH: trump at once, for that trick too
    assert state.tricks[0].winner == 2


def test_V0_5a_a_declaration_is_allowed_on_the_first_lead():
    state = table("thousand3", V4_HANDS)
    assert {(a.card, a.declare) for a in legal_actions(state, 1) if isinstance(a, Play) and a.declare}
    state = act(state, "KH!")
    assert state.declarations[0].points == 60


def test_V0_5b_no_declaration_scoring_option_values_by_suit():
    with pytest.raises(ValueError, match="unknown rules option"):
        Rules.from_dict({"variant": "mcleod", "declaration_scoring": "by_order"})
    with pytest.raises(ValueError, match="options of two-hand 1001"):
        Rules("mcleod", declaration_scoring="by_order")
    assert VARIANTS["bidding"].declaration_values == (100, 80, 60, 40)


def test_V0_6_auction_clockwise_tens_higher_than_the_high_bid_pass_is_final():
    state = table("mcleod", V2_HANDS, V2_TALON)
    assert state.phase == "auction" and state.turn == 1
    assert refused(state, 1, "b45") == "bid_not_multiple_of_ten"
    state = act(state, "b60")
    assert refused(state, 2, "b60") == "bid_too_low"
    state = act(state, "p b90")  # seat 2 passes, seat 0 jumps
    assert state.turn == 1  # seat 2 passed for good: skipped
    state = act(state, "b100 b110")
    assert state.turn == 1
    state, events = apply(state, 1, Pass())
    assert state.declarer == 0 and state.contract == 110
    assert AuctionWon(seat=0, contract=110) in events


def test_V0_6a_everyone_passes_thrown_in_nobody_scores():
    state = table("rassel", V3_HANDS)
    state = act(state, "p p")
    state, events = apply(state, 0, Pass())
    assert state.phase == "thrown_in" and state.over and events[-1] == ThrownIn()
    result = deal_result(state)
    assert result.thrown_in and result.score == (0, 0, 0) and result.jungfrau == (0, 0, 0)


def test_V0_6b_over_120_only_with_a_pair_and_never_over_120_plus_its_pairs():
    state = table("bidding", V7_HANDS, V7_TALON)
    assert bid_cap(state, 1) == 220 and bid_cap(state, 0) == 160 and bid_cap(state, 2) == 120
    state = act(state, "b120")
    assert refused(state, 2, "b130") == "bid_over_cap"
    state = act(state, "p")
    assert refused(state, 0, "b170") == "bid_over_cap"
    state = act(state, "b160")
    assert legal_bids(state, 1) == tuple(range(170, 221, 10))
    v3 = table("rassel", V3_HANDS)  # V3's own values: hearts 100 + clubs 40
    assert bid_cap(v3, 1) == 260 and bid_cap(v3, 2) == 180 and bid_cap(v3, 0) == 200


def test_V0_6c_no_raise_after_the_talon_is_seen():
    state = act(table("mcleod", V2_HANDS, V2_TALON), "b40 p p")
    assert state.phase == "discard"
    assert refused(state, 1, "b60") == "wrong_phase"
    state = act(state, "dTS,JS")
    assert refused(state, 1, "b60") == "wrong_phase" and state.contract == 40


def test_V0_6d_the_declarer_leads_to_the_first_trick():
    state = act(table("rassel", V3_HANDS), "p b20 p")  # seat 2 is declarer
    assert state.declarer == 2 and state.phase == "play" and state.turn == 2 and state.leader == 2
    state = act(table("bidding", V7_HANDS, V7_TALON), "p p b40 dQS,QH")
    assert state.declarer == 0 and state.turn == 0


def test_V0_6e_no_other_customs_four_nines_are_not_redealt_nobody_must_bid():
    nines = ["9C 9S 9H 9D AD TD KD QD", "KH QH AC TC KC QC JC JD", "AH TH JH AS TS KS QS JS"]
    state = table("rassel", nines)
    assert state.phase == "auction" and state.turn == 1
    assert Pass() in legal_actions(state, 1)


def test_V0_7_declarer_takes_the_talon_then_discards_two_which_count_for_them():
    state = table("mcleod", V2_HANDS, V2_TALON)
    state = act(state, "b40 p")
    state, events = apply(state, 0, Pass())
    assert isinstance(events[-1], TalonTaken) and events[-1].cards == ("TH", "QD")
    assert hand_names(state.hands[1]) == set(V2_HANDS[1].split()) | {"TH", "QD"}
    assert refused(state, 1, "KS") == "wrong_phase"  # ruling V7.5a: no lead before discarding
    state, events = apply(state, 1, Discard(card("TH"), card("AC")))
    assert events == (Discarded(seat=1, cards=("TH", "AC")),)
    assert state.hands[1].bit_count() == 6 and state.seat_card_points(1) == 21
    assert state.card_points == (0, 0, 0)  # the discards are not a trick


def test_V0_7a_nobody_but_the_declarer_sees_the_talon():
    rules = Rules("mcleod")
    match = replace(new_match(rules, 3), deal=table("mcleod", V2_HANDS, V2_TALON))
    for seat in range(3):
        assert table_seat_view(match, seat).deal.talon is None
    match, events = apply_match(match, 1, Bid(40))
    match, events = apply_match(match, 2, Pass())
    match, events = apply_match(match, 0, Pass())
    assert table_seat_view(match, 1).deal.talon == ("TH", "QD")
    for seat in (0, 2, None):
        assert table_seat_view(match, seat).deal.talon is None
        taken = [e for e in table_events_for_seat(events, seat) if isinstance(e, TalonTaken)]
        assert taken == [TalonTaken(seat=1, cards=None)]
    assert next(e for e in table_events_for_seat(events, 1) if isinstance(e, TalonTaken)).cards == ("TH", "QD")


def test_V0_8_contract_made_when_deal_points_reach_it():
    state = finish(act(table("mcleod", V2_HANDS, V2_TALON), "b40 p b50 p dTH,QD KC!"))
    result = deal_result(state)
    assert result.deal_points[0] == result.card_points[0] + result.declaration_points[0]
    assert result.card_points[0] == state.card_points[0] + 13  # the discards TH + QD
    assert result.made is (result.deal_points[0] >= 50) and result.made


def test_V0_8a_contract_judged_on_exact_points_before_rounding():
    rules = Rules("mcleod")
    state = scored(rules, (76, 24, 20), (4, 1, 1), declarer=0, contract=80)
    result = deal_result(state)
    assert result.rounded[0] == 80 and result.made is False and result.score[0] == -80
    state = scored(Rules("rassel"), (71, 29, 20), (4, 1, 1), declarer=0, contract=80)
    result = deal_result(state)
    assert result.rounded[0] == 80 and result.made is False and result.score[0] == 0


def test_V0_9_unique_highest_total_at_or_over_target_wins_else_play_on():
    assert table_match_winner((1001, 990, 0), 1001) == 0
    assert table_match_winner((1020, 1050, 0), 1001) == 1
    assert table_match_winner((1050, 1050, 1200), 1001) == 2
    assert table_match_winner((1050, 1050, 10), 1001) is None  # a tie on top: another deal
    assert table_match_winner((1000, 990, 980), 1001) is None
    assert table_match_winner((1000, 990, 980), 1000) == 0  # V3's target of 1000


def test_V0_10_each_loser_owes_the_winner_their_shortfall_even_below_zero():
    match = replace(new_match(Rules("mcleod"), 1), totals=(1010, -50, 1001), winner=0, end_reason="target")
    assert payments(match, Decimal("0.01")) == ((1, 0, 1051, Decimal("10.51")),)
    with pytest.raises(TypeError):
        payments(match, 0.01)  # type: ignore[arg-type]


def test_V0_10a_abandonment_the_leaver_owes_every_other_player():
    match = new_match(Rules("thousand4"), 1)
    match = replace(match, totals=(100, 200, 300, 400))
    over, events = apply_match(match, 2, Resign())
    assert over.over and over.loser == 2 and events[0].loser == 2
    # the leaver loses alone: the three who stayed share first place, so nobody is the winner
    assert over.winner is None and events[0].winner is None
    assert places(over.totals, over.winner, over.loser) == (1, 1, 4, 1)
    assert payments(over, Decimal(1)) == tuple((2, s, 701, Decimal(701)) for s in (0, 1, 3))
    with pytest.raises(IllegalAction) as info:
        apply_match(over, 0, Pass())
    assert info.value.code == "match_over"


def test_V0_11_a_seat_sees_its_hand_counts_bids_declarer_contract_and_its_own_points():
    rules = Rules("mcleod")
    match = replace(new_match(rules, 3), deal=table("mcleod", V2_HANDS, V2_TALON))
    for text in ("b40", "p", "b50", "p", "dTH,QD", "KC!", "JC", "KD"):
        match, _ = apply_match(match, match.deal.turn, action(text))
    for seat in range(3):
        view = table_seat_view(match, seat)
        assert set(view.deal.hand) == hand_names(match.deal.hands[seat])
        assert view.deal.hand_counts == (5, 5, 5)
        assert [(c.seat, c.bid) for c in view.deal.calls] == [(1, 40), (2, None), (0, 50), (1, None)]
        assert (view.deal.declarer, view.deal.contract, view.deal.trump) == (0, 50, "C")
        assert view.deal.discards == (("TH", "QD") if seat == 0 else None)
        assert view.deal.card_points is None  # open_scores off
        assert view.deal.my_card_points == match.deal.seat_card_points(seat)
    assert table_seat_view(match, 0).deal.my_card_points == 10 + 13  # KC JC KD, and the discards TH QD
    open_rules = Rules("mcleod", open_scores=True)
    open_match = replace(new_match(open_rules, 3), deal=table("mcleod", V2_HANDS, V2_TALON, open_scores=True))
    for text in ("b40", "p", "b50", "p", "dTH,QD", "KC!", "JC", "KD"):
        open_match, _ = apply_match(open_match, open_match.deal.turn, action(text))
    assert table_seat_view(open_match, 2).deal.card_points == (10, 0, 0)  # trick points: not the discards


def test_V0_12_the_first_refusal_in_order():
    state = table("mcleod", V2_HANDS, V2_TALON)
    assert refused(state, 2, "KH") == "wrong_phase"  # phase before turn
    assert refused(state, 2, "b45") == "not_your_turn"  # turn before the bid's own checks
    assert refused(state, 1, "b35") == "bid_not_multiple_of_ten"  # not a multiple before too low
    state = act(state, "b200")
    assert refused(state, 2, "b190") == "bid_too_low"
    assert refused(state, 2, "b500") == "bid_over_cap"
    state = act(state, "p p")
    assert refusal_code(state, 1, Discard(card("AH"), card("AH"))) == "must_discard_two"
    assert refused(state, 1, "dAH,TS") == "card_not_held"
    state = act(state, "dAC,JC")
    assert refused(state, 1, "AD!") == "card_not_held"  # card before declare
    assert refused(state, 1, "TS!") == "cannot_declare"
    state = finish(state)
    assert refused(state, 1, "b40") == "deal_over"  # the deal is over before anything else


# ---------------------------------------------------------------- V2 McLeod


def test_V2_1_three_seats():
    assert Rules("mcleod").seats == 3
    with pytest.raises(ValueError):
        Rules("mcleod", seats=4)


def test_V2_2_twenty_cards_ten_to_ace():
    pack = Rules("mcleod").layout.pack
    assert pack.bit_count() == 20 and not any(c[0] == "9" for c in names(pack)) and pack_points(pack) == 120


def test_V2_3_three_each_two_to_the_talon_three_each():
    assert Rules("mcleod").layout.packets == (("each", 3), ("talon", 2), ("each", 3))
    state = new_deal(Rules("mcleod"), 9, 0)
    assert [h.bit_count() for h in state.hands] == [6, 6, 6] and len(state.talon) == 2


def test_V2_4_minimum_40_and_the_declarer_leads():
    state = table("mcleod", V2_HANDS, V2_TALON)
    assert refused(state, 1, "b30") == "bid_too_low"
    assert legal_bids(state, 1)[0] == 40
    state = act(state, "b40 p p dTS,JS")
    assert state.turn == 1


def test_V2_5_declarer_takes_two_and_discards_two():
    state = act(table("mcleod", V2_HANDS, V2_TALON), "b40 p b50 p")
    assert state.hands[0].bit_count() == 8
    assert all(isinstance(a, Discard) for a in legal_actions(state, 0))
    assert len(legal_actions(state, 0)) == 28  # any two of eight
    state = act(state, "dTH,QD")
    assert state.hands[0].bit_count() == 6 and state.phase == "play"


def test_V2_5a_the_discards_count_for_the_declarer():
    state = finish(act(table("mcleod", V2_HANDS, V2_TALON), "b40 p b50 p dTH,QD"))
    result = deal_result(state)
    assert result.card_points[0] == state.card_points[0] + 13 and sum(result.card_points) == 120


def test_V2_6_declarations_by_suit_none_without_a_trick():
    assert VARIANTS["mcleod"].declaration_values == (100, 80, 60, 40)
    state = scored(
        Rules("mcleod"),
        (60, 60, 0),
        (3, 3, 0),
        declarer=0,
        contract=40,
        declarations=((0, "C", 100), (2, "H", 60)),
    )
    assert deal_result(state).declaration_points == (100, 0, 0)


def test_V2_7_follow_suit_else_trump_no_duty_to_overtrump():
    state = act(table("mcleod", V2_HANDS, V2_TALON), "b40 p b50 p dTH,QD KC!")
    assert legal_cards(state) == {"AC", "JC"}  # any club: no duty to head
    assert refused(state, 1, "TS") == "must_follow_suit"
    state = act(state, "JC")
    assert legal_cards(state) == set(V2_HANDS[2].split())  # void and no trump: any card
    state = act(state, "KD JD")
    assert legal_cards(state) == {"AC"}  # void in diamonds: a trump
    assert refused(state, 1, "TS") == "must_trump"
    # no duty to overtrump: every trump, also one below the trump in the trick
    assert obligation_mask(sum(1 << c for c in ids("9C AC 9S")), card("AD"), card("KC"), 0, "follow_then_trump") == (
        1 << card("9C") | 1 << card("AC")
    )


def test_V2_8_trick_winner_as_V0_4():
    state = act(table("mcleod", V2_HANDS, V2_TALON), "b40 p b50 p dTH,QD KC! JC KD JD AC AD")
    assert [t.winner for t in state.tricks] == [0, 1]


def test_V2_9_scoring_rounded_points_or_minus_the_contract():
    rules = Rules("mcleod")
    made = deal_result(scored(rules, (84, 23, 13), (4, 1, 1), declarer=0, contract=80))
    assert made.made and made.score == (80, 20, 10)
    failed = deal_result(scored(rules, (74, 33, 13), (4, 1, 1), declarer=0, contract=80, declarations=((0, "D", 40),)))
    assert failed.deal_points[0] == 114 and failed.made  # 114 ≥ 80
    failed = deal_result(scored(rules, (34, 73, 13), (2, 3, 1), declarer=0, contract=80))
    assert not failed.made and failed.score == (-80, 70, 10)


def test_V2_9a_a_remainder_of_5_rounds_up():
    state = scored(Rules("mcleod"), (45, 44, 31), (1, 1, 1))
    assert [round_points(state.rules, p, False) for p in (45, 44, 0, 115)] == [50, 40, 0, 120]


def test_V2_10_target_1001_by_default_501_and_301_offered():
    assert Rules("mcleod").target == 1001
    assert Rules("mcleod", target=301).target == 301
    with pytest.raises(ValueError):
        Rules("mcleod", target=1000)


# ---------------------------------------------------------------- V3 Rassel


def test_V3_1_three_seats():
    assert VARIANTS["rassel"].seat_counts == (3,)


def test_V3_2_twenty_four_cards():
    pack = names(Rules("rassel").layout.pack)
    assert len(pack) == 24 and {c[0] for c in pack} == set("ATKQJ9")


def test_V3_3_eight_each_no_card_left():
    state = new_deal(Rules("rassel"), 4, 2)
    assert [h.bit_count() for h in state.hands] == [8, 8, 8] and state.talon == ()


def test_V3_3a_packets_three_two_three():
    assert Rules("rassel").layout.packets == (("each", 3), ("each", 2), ("each", 3))


def test_V3_3b_no_talon_no_discard():
    state = act(table("rassel", V3_HANDS), "b10 p p")
    assert state.phase == "play" and state.discards == 0
    assert refused(state, 1, "dAC,TC") == "wrong_phase"


def test_V3_4_auction_without_minimum_declarer_leads():
    state = table("rassel", V3_HANDS)
    assert legal_bids(state, 1)[0] == 10
    state = act(state, "b10 p p")
    assert (state.declarer, state.contract, state.turn) == (1, 10, 1)


def test_V3_4a_the_lowest_bid_is_10():
    state = table("rassel", V3_HANDS)
    assert refused(state, 1, "b0") == "bid_too_low"
    assert Rules("rassel").game.minimum_bid == 10


def test_V3_5_values_hearts_100_diamonds_80_spades_60_clubs_40():
    assert VARIANTS["rassel"].declaration_values == (40, 60, 100, 80)
    state = act(table("rassel", V3_HANDS), "b10 p p QC!")
    assert state.declarations[-1].points == 40


def test_V3_6_must_head_the_trick_within_suit_and_with_trumps():
    state = act(table("rassel", V3_HANDS), "b10 p p KH!")
    assert legal_cards(state) == {"AH"}  # holds hearts: one that beats the KH
    assert refused(state, 2, "9H") == "must_beat"
    assert refused(state, 2, "AS") == "must_follow_suit"
    state = act(state, "AH JH 9S")
    assert legal_cards(state) == {"TH"}  # void in spades: a trump (it beats)
    assert refused(state, 0, "AD") == "must_trump"


def test_V3_6a_cannot_beat_still_follow_or_trump():
    state = act(table("rassel", V3_HANDS), "b10 p p KH! AH")
    assert legal_cards(state) == {"TH", "JH"}  # nothing beats AH: any heart
    state = act(state, "JH 9S TH")
    assert legal_cards(state) == {"QH"}  # void, its trump is lower than TH: still a trump
    assert refused(state, 1, "AC") == "must_trump"


def test_V3_7_trick_winner_as_V0_4():
    state = act(table("rassel", V3_HANDS), "b10 p p KH! AH JH 9S TH QH")
    assert [t.winner for t in state.tricks] == [2, 0]


def test_V3_8_rounded_up_failed_declarer_scores_points_less_contract():
    rules = Rules("rassel")
    state = scored(rules, (61, 59, 0), (3, 3, 0), declarer=0, contract=60)
    assert deal_result(state).score == (70, 60, 0)
    state = scored(rules, (138, -20 + 22, 0), (6, 2, 0))  # no contract: rounded points
    assert deal_result(state).rounded[0] == 140
    state = scored(rules, (98, 22, 0), (4, 2, 0), declarer=0, contract=180, declarations=((0, "H", 100),))
    result = deal_result(state)
    assert result.deal_points[0] == 198 and result.made
    state = scored(rules, (78, 42, 0), (4, 2, 0), declarer=0, contract=180, declarations=((0, "H", 100),))
    result = deal_result(state)
    assert result.deal_points[0] == 178 and not result.made and result.score[0] == 180 - 180


def test_V3_9_reaching_1000_wins():
    assert Rules("rassel").target == 1000
    assert table_match_winner((1000, 0, 0), 1000) == 0


def test_V3_9a_targets_1000_500_300():
    assert VARIANTS["rassel"].targets == (1000, 500, 300)
    with pytest.raises(ValueError):
        Rules("rassel", target=1001)


# ---------------------------------------------------------------- V4 1000 for three


def test_V4_1_three_seats_no_auction_no_talon():
    state = table("thousand3", V4_HANDS)
    assert state.phase == "play" and state.talon == () and legal_bids(state, 1) == ()
    assert refused(state, 1, "b40") == "wrong_phase"


def test_V4_2_twenty_four_cards():
    assert Rules("thousand3").layout.pack.bit_count() == 24


def test_V4_3_three_three_two():
    assert Rules("thousand3").layout.packets == (("each", 3), ("each", 3), ("each", 2))


def test_V4_4_forehand_leads_no_trump_until_a_meld():
    state = table("thousand3", V4_HANDS, dealer=1)
    assert state.turn == 2 and state.trump == NO_TRUMP


def test_V4_5_a_meld_must_be_higher_than_every_earlier_one():
    state = act(table("thousand3", V4_HANDS), "KH! 9H JH")
    assert state.tricks[0].winner == 1
    assert refused(state, 1, "KD!") == "meld_not_higher"
    assert {a.card for a in legal_actions(state, 1) if isinstance(a, Play) and a.declare} == set(ids("KS QS KC QC"))
    state = act(state, "KS!")
    assert state.declarations[-1].points == 80


def test_V4_5a_values_clubs_100_spades_80_hearts_60_diamonds_40():
    assert VARIANTS["thousand3"].declaration_values == (100, 80, 60, 40)


def test_V4_5b_the_player_on_lead_melds():
    state = act(table("thousand3", V4_HANDS), "KH!")
    assert refused(state, 2, "9H!") == "cannot_declare"


def test_V4_6_a_meld_counts_without_a_trick():
    state = scored(Rules("thousand3"), (0, 60, 60), (0, 4, 4), declarations=((0, "D", 40),))
    assert deal_result(state).score == (40, 60, 60)


def test_V4_7_follow_suit_no_duty_to_trump_or_head():
    state = act(table("thousand3", V4_HANDS), "KH!")
    assert legal_cards(state) == {"9H"}
    state = act(state, "9H")
    assert legal_cards(state) == {"AH", "TH", "JH"}  # no duty to head
    state = act(state, "JH KS! 9S 9C QD")
    assert state.trump == 1 and legal_cards(state) == set(V4_HANDS[2].split()) - {"9H", "9S"}  # no duty to trump


def test_V4_7a_the_follow_suit_duty():
    state = act(table("thousand3", V4_HANDS), "KH!")
    assert refused(state, 2, "AC") == "must_follow_suit"


def test_V4_8_trick_winner_as_V0_4():
    state = act(table("thousand3", V4_HANDS), "KH! 9H AH")
    assert state.tricks[0].winner == 0


def test_V4_9_original_or_simplified_with_the_last_trick_rounding_5_up():
    state = scored(Rules("thousand3"), (45, 46, 29), (3, 3, 2), last_winner=0)
    assert deal_result(state).score == (45, 46, 29)
    simple = Rules("thousand3", scoring="simplified")
    assert deal_result(scored(simple, (45, 46, 29), (3, 3, 2), last_winner=0)).score == (5, 5, 3)
    assert deal_result(scored(simple, (45, 46, 29), (3, 3, 2), last_winner=1)).score == (4, 5, 3)
    assert deal_result(scored(simple, (44, 46, 30), (3, 3, 2), last_winner=0)).score == (4, 5, 3)


def test_V4_9a_simplified_is_played_to_100():
    assert Rules("thousand3", scoring="simplified").target == 100
    with pytest.raises(ValueError):
        Rules("thousand3", scoring="simplified", target=1001)
    with pytest.raises(ValueError):
        Rules("mcleod", scoring="simplified")


def test_V4_10_first_to_reach_the_target_wins():
    match = new_match(Rules("thousand3", scoring="simplified"), 6)
    match = replace(match, totals=(95, 0, 0))
    while match.deal_number == 0:
        match, _ = apply_match(match, match.deal.turn, legal_actions(match.deal, match.deal.turn)[0])
    assert match.over == (max(match.totals) >= 100) and match.winner == table_match_winner(match.totals, 100)


# ---------------------------------------------------------------- V5 1000 for four


def test_V5_1_as_V4_for_four_seats_with_32_cards():
    rules = Rules("thousand4")
    assert rules.seats == 4 and rules.layout.pack.bit_count() == 32 and rules.layout.hand_size == 8
    state = act(table("thousand4", V5_HANDS), "KC!")
    assert legal_cards(state) == set(V5_HANDS[2].split())  # void: any card, no duty to trump
    state = finish(state)
    assert len(state.tricks) == 8


def test_V5_2_all_four_play_each_for_themselves():
    state = finish(table("thousand4", V5_HANDS))
    result = deal_result(state)
    assert result.declarer is None and len(result.score) == 4 and sum(result.card_points) == 120


# ---------------------------------------------------------------- V6 Jungfrau


def test_V6_1_a_player_without_a_trick_gets_100_or_10_simplified():
    rules = Rules("thousand3", jungfrau=True)
    assert deal_result(scored(rules, (0, 60, 60), (0, 4, 4))).score == (100, 60, 60)
    simple = Rules("thousand3", jungfrau=True, scoring="simplified")
    assert deal_result(scored(simple, (0, 60, 60), (0, 4, 4))).score == (10, 6, 6)
    off = Rules("thousand3")
    assert deal_result(scored(off, (0, 60, 60), (0, 4, 4))).score == (0, 60, 60)
    thrown = act(table("rassel", V3_HANDS, jungfrau=True), "p p p")
    assert deal_result(thrown).jungfrau == (0, 0, 0)  # a thrown-in deal gives no bonus


def test_V6_2_combines_with_two_hand_1001_and_every_variant():
    for game in VARIANTS.values():
        assert Rules(game.id, jungfrau=True).jungfrau
    rules = Rules(jungfrau=True)
    assert rules.to_dict()["jungfrau"] is True and "jungfrau" not in Rules().to_dict()
    assert Rules.from_dict(rules.to_dict()) == rules and Rules(deck_size=32, jungfrau=True).jungfrau  # V1 too
    state = new_deal(rules, 5, 0)
    while not state.over:
        state, _ = apply(state, state.turn, legal_actions(state, state.turn)[0])
    swept = state._copy()  # the same deal, as if seat 0 had taken every trick
    swept.tricks_won, swept.card_points = (12, 0), (120, 0)
    assert deal_result(swept).jungfrau == (0, 100) and deal_result(swept).score == (120, 100)
    assert deal_result(state).jungfrau == (0, 0)  # both took a trick
    off = state._copy()
    off.dealt = replace(off.dealt, rules=Rules())
    off.tricks_won, off.card_points = (12, 0), (120, 0)
    assert deal_result(off).score == (120, 0)


def test_V6_3_the_declarer_never_receives_it():
    rules = Rules("mcleod", jungfrau=True)
    result = deal_result(scored(rules, (13, 67, 40), (0, 4, 2), declarer=0, contract=40, discards="TH QD"))
    assert result.jungfrau == (0, 0, 0) and result.score == (-40, 70, 40)
    result = deal_result(scored(rules, (0, 80, 40), (4, 0, 2), declarer=0, contract=40))
    assert result.jungfrau == (0, 100, 0) and result.score[1] == 180


def test_V6_4_added_after_rounding_never_towards_the_contract_no_revived_melds():
    rules = Rules("rassel", jungfrau=True)
    result = deal_result(scored(rules, (61, 59, 0), (4, 4, 0), declarations=((2, "H", 100),)))
    assert result.declaration_points == (0, 0, 0) and result.score == (70, 60, 100)
    v7 = Rules("bidding", jungfrau=True)
    result = deal_result(scored(v7, (100, 20, 0), (6, 4, 0), declarer=0, contract=100, declarations=((2, "C", 100),)))
    assert result.score == (100, 20, 100) and result.declaration_points[2] == 0
    v4 = Rules("thousand3", jungfrau=True)
    result = deal_result(scored(v4, (60, 60, 0), (4, 4, 0), declarations=((2, "C", 100),)))
    assert result.score == (60, 60, 200)  # V4.6: melds count anyway


# ---------------------------------------------------------------- V7 1001 with bidding


def test_V7_1_three_or_four_seats():
    assert VARIANTS["bidding"].seat_counts == (3, 4) and Rules("bidding").seats == 3
    with pytest.raises(ValueError):
        Rules("bidding", seats=2)


def test_V7_2_skat_pack_four_seats_without_the_red_sevens():
    three, four = Rules("bidding").layout.pack, Rules("bidding", seats=4).layout.pack
    assert three.bit_count() == 32 and four.bit_count() == 30
    assert set(names(three)) - set(names(four)) == {"7H", "7D"} and pack_points(four) == 120


def test_V7_3_deal_three_skat_four_three_or_three_skat_four():
    assert Rules("bidding").layout.packets == (("each", 3), ("talon", 2), ("each", 4), ("each", 3))
    assert Rules("bidding", seats=4).layout.packets == (("each", 3), ("talon", 2), ("each", 4))
    assert [h.bit_count() for h in new_deal(Rules("bidding", seats=4), 3, 0).hands] == [7] * 4


def test_V7_4_auction_in_tens():
    state = table("bidding", V7_4_HANDS, V7_4_TALON)
    assert refused(state, 1, "b55") == "bid_not_multiple_of_ten"
    state = act(state, "b50 b60 p p p")
    assert (state.declarer, state.contract) == (2, 60)


def test_V7_4a_minimum_40():
    state = table("bidding", V7_HANDS, V7_TALON)
    assert refused(state, 1, "b30") == "bid_too_low" and legal_bids(state, 1)[0] == 40


def test_V7_5_declarer_takes_the_skat_and_discards_two_that_count():
    state = act(table("bidding", V7_4_HANDS, V7_4_TALON), "b50 p p p")
    assert hand_names(state.hands[1]) >= {"9D", "8D"} and state.phase == "discard"
    state = act(state, "dAC,TC")
    assert state.seat_card_points(1) == 21 and state.hands[1].bit_count() == 7


def test_V7_5a_the_declarer_cannot_lead_before_discarding():
    state = act(table("bidding", V7_HANDS, V7_TALON), "b40 p p")
    assert refused(state, 1, "AC") == "wrong_phase"
    assert all(isinstance(a, Discard) for a in legal_actions(state, 1))


def test_V7_6_the_declarer_leads():
    state = act(table("bidding", V7_HANDS, V7_TALON), "p b40 p d8D,7D")
    assert state.declarer == 2 and state.turn == 2


def test_V7_7_melds_any_order_only_with_a_trick_none_over_900():
    state = act(table("bidding", V7_HANDS, V7_TALON), "p p b40 d8D,7D QD! AS KS")
    assert [d.points for d in state.declarations] == [40]
    banned = table("bidding", V7_HANDS, V7_TALON, totals=[0, 950, 0])
    assert bid_cap(banned, 1) == 120  # V0.6b: no bid over 120 for a player who may not meld
    banned = act(banned, "b40 p p d8D,7D")
    assert refused(banned, 1, "KC!") == "meld_forbidden"
    assert Play(card("KC")) in legal_actions(banned, 1)  # may still lead the K without melding
    ordered = table(
        "bidding", ["KC QC 8H 7H AD TD KD QD JD 9D", "AC TC QS QH JC 9C 8C 7C AS TS", V7_HANDS[2]], V7_TALON
    )
    ordered = act(ordered, "p p b40 d8D,7D KC! 7C 9H")
    assert ordered.tricks[0].winner == 0
    ordered = act(ordered, "KD!")  # 40 after 100: any order
    assert [d.points for d in ordered.declarations] == [100, 40]
    result = deal_result(scored(Rules("bidding"), (60, 60, 0), (5, 5, 0), declarations=((2, "C", 100),)))
    assert result.declaration_points == (0, 0, 0)


def test_V7_7a_over_900_means_901_or_target_minus_100():
    for total, allowed in ((900, True), (901, False)):
        state = act(table("bidding", V7_HANDS, V7_TALON, totals=[0, total, 0]), "b40 p p d8D,7D")
        assert (refusal_code(state, 1, Play(card("KC"), True)) is None) is allowed
    state = act(table("bidding", V7_HANDS, V7_TALON, totals=[0, 401, 0], target=501), "b40 p p d8D,7D")
    assert refusal_code(state, 1, Play(card("KC"), True)) == "meld_forbidden"


def test_V7_8_follow_suit_otherwise_any_card():
    state = act(table("bidding", V7_HANDS, V7_TALON), "p p b40 d8D,7D QD!")
    assert legal_cards(state) == set(V7_HANDS[1].split())  # void in diamonds: no duty to trump
    state = act(state, "AC")
    assert legal_cards(state) == set(V7_HANDS[2].split())


def test_V7_9_exact_scoring_failed_declarer_loses_the_contract():
    rules = Rules("bidding")
    result = deal_result(scored(rules, (57, 44, 19), (4, 3, 3), declarer=0, contract=50))
    assert result.score == (57, 44, 19) and result.made
    result = deal_result(scored(rules, (47, 54, 19), (4, 3, 3), declarer=0, contract=50))
    assert result.score == (-50, 54, 19) and not result.made


def test_V7_9a_no_rounding_and_no_simplified_scoring():
    assert round_points(Rules("bidding"), 45, False) == 45
    with pytest.raises(ValueError):
        Rules("bidding", scoring="simplified")


def test_V7_9b_a_made_contract_scores_the_deal_points_not_the_bid():
    result = deal_result(scored(Rules("bidding"), (97, 4, 19), (6, 1, 1), declarer=0, contract=40))
    assert result.score[0] == 97


def test_V7_10_target_1001_by_default():
    assert Rules("bidding").target == 1001 and VARIANTS["bidding"].targets == (1001, 501, 301)


# ---------------------------------------------------------------- table options


def test_table_rules_round_trip_and_refuse_unknown_fields():
    for data in ({"variant": "mcleod"}, {"variant": "bidding", "seats": 4, "jungfrau": True, "target": 501}):
        rules = Rules.from_dict(data)
        assert Rules.from_dict(rules.to_dict()) == rules and not rules.two_hand
    assert Rules.from_dict({"target": 301}).to_dict()["target"] == 301  # two-hand 1001: no variant
    assert Rules.from_dict({}).two_hand
    bad_ones = (
        {"variant": "skat"},
        {"variant": "twohand"},  # two-hand 1001 is written without a variant
        {"variant": "mcleod", "colour": 1},
        {"variant": "rassel", "jungfrau": "yes"},
        {"variant": "mcleod", "deck_size": 24},
    )
    for bad in bad_ones:
        with pytest.raises(ValueError):
            Rules.from_dict(bad)


def test_replay_of_a_table_match_from_its_log():
    rules = Rules("rassel")
    match, log = new_match(rules, 2026), []
    while match.deal_number < 2:
        seat = match.deal.turn
        chosen = legal_actions(match.deal, seat)[-1]
        log.append((seat, chosen))
        match, _ = apply_match(match, seat, chosen)
    assert replay_table_match(rules, 2026, log) == match
