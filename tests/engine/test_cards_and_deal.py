"""R1 (cards) and R2 (the deal)."""

from __future__ import annotations

import itertools

import pytest

from backend.engine import IllegalAction, Play, Rules, card, name, names, new_deal, new_seed
from backend.engine import apply_deal as apply
from backend.engine.cards import cards_in, deck_mask
from backend.engine.shuffle import shuffled
from backend.engine.view import deal_view

from .support import POINTS, build, hand_names, ids, pack_names, play, trick

# ---------------------------------------------------------------- R1


def test_r1_notation_round_trips_every_card():
    for card_name in pack_names(24):
        assert name(card(card_name)) == card_name
    assert card("TH") != card("9C")
    for bad in ("10H", "th", "XH", "A", "", None, 11):
        with pytest.raises(ValueError):
            card(bad)


def test_r1_pack_has_24_cards_and_120_points():
    pack = names(deck_mask(6))
    assert sorted(pack) == sorted(pack_names(24))
    assert len(pack) == 24
    assert sum(POINTS[c[0]] for c in pack) == 120


@pytest.mark.parametrize(("rank", "points"), [("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)])
def test_r1_card_points(rank, points):
    # The winner of a phase-1 trick takes the points of both cards: lead <rank>C, follow 9S (no points).
    rest = [c for c in pack_names(24) if c not in (rank + "C", "9S")]
    state = build(" ".join([rank + "C", *rest[:7]]), " ".join(["9S", *rest[7:14]]), " ".join(rest[14:]), dealer=1)
    state = trick(state, rank + "C", "9S")
    assert state.tricks[0].winner == 0
    assert state.card_points == (points, 0)


@pytest.mark.parametrize(("high", "low"), list(itertools.combinations("ATKQJ9", 2)))
def test_r1_rank_order_within_a_suit(high, low):
    # Whichever of the two leads, the higher rank of the same suit takes the trick (R1, R4).
    for lead, follow in ((high, low), (low, high)):
        lead_card, follow_card = lead + "H", follow + "H"
        rest = [c for c in pack_names(24) if c not in (lead_card, follow_card)]
        state = build(" ".join([follow_card, *rest[:7]]), " ".join([lead_card, *rest[7:14]]), " ".join(rest[14:]))
        state = trick(state, lead_card, follow_card)
        expected_winner = 1 if lead == high else 0
        assert state.tricks[0].winner == expected_winner


# ---------------------------------------------------------------- R2


@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**127 + 99])
def test_r2_deal_is_3_2_3_from_forehand_then_stock(seed, dealer):
    forehand = 1 - dealer
    order = shuffled(list(cards_in(deck_mask(6))), seed)  # the shuffled pack, first card dealt first
    state = new_deal(Rules(), seed, dealer)
    fore = order[0:3] + order[6:8] + order[10:13]  # packets 3-2-3, forehand first
    deal = order[3:6] + order[8:10] + order[13:16]
    assert state.hands[forehand] == sum(1 << c for c in fore)
    assert state.hands[dealer] == sum(1 << c for c in deal)
    assert list(state.stock) == order[16:]  # the rest is the stock, stock[0] on top
    assert len(state.stock) == 8
    assert state.seed == seed and state.dealer == dealer and state.forehand == forehand


def test_r2_seed_replays_the_same_deal_and_seeds_differ():
    a, b = new_deal(Rules(), 42, 0), new_deal(Rules(), 42, 0)
    assert (a.hands, a.stock) == (b.hands, b.stock)
    deals = {(s.hands, s.stock) for s in (new_deal(Rules(), seed, 0) for seed in range(50))}
    assert len(deals) == 50
    with pytest.raises(ValueError):
        new_deal(Rules(), -1, 0)


def test_r2_new_seed_is_a_fresh_128_bit_integer():
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(type(s) is int and 0 <= s < 2**128 for s in seeds)


def test_r2_deal_from_hands_must_partition_the_pack():
    hand0, hand1, stock = "AC TC KC QC JC 9C AS TS", "KS QS JS 9S AH TH KH QH", "JH 9H AD TD KD QD JD 9D"
    build(hand0, hand1, stock)
    with pytest.raises(ValueError, match="twice"):
        build(hand0, hand1, "JH 9H AD TD KD QD JD JD")
    with pytest.raises(ValueError, match="partition"):
        build(hand0, hand1, "JH 9H AD TD KD QD JD")
    with pytest.raises(ValueError, match="partition"):
        build(hand0, hand1, "JH 9H AD TD KD QD JD 8D")  # not a card of the 24-card pack
    with pytest.raises(ValueError, match="hand 0"):
        build("AC TC KC QC JC 9C AS", "TS KS QS JS 9S AH TH KH QH", stock)
    with pytest.raises(ValueError, match="dealer"):
        build(hand0, hand1, stock, dealer=2)


def test_r2_winner_draws_the_top_of_the_stock_then_the_loser():
    state = build("AC TC KC QC JC 9C AS TS", "KS QS JS 9S AH TH KH QH", "JH 9H AD TD KD QD JD 9D")
    state = trick(state, "9S", "TS")  # seat 1 (forehand) leads, seat 0 wins with the ten
    assert state.tricks[0].winner == 0
    assert "JH" in hand_names(state.hands[0]) and "9H" in hand_names(state.hands[1])
    assert list(state.stock) == ids("AD TD KD QD JD 9D")
    state = trick(state, "AC", "AH")  # seat 0 leads and wins (no trump, AH does not follow)
    assert "AD" in hand_names(state.hands[0]) and "TD" in hand_names(state.hands[1])


def test_r2_show_stock_bottom_is_visible_to_both_and_drawn_last():
    rules = Rules(show_stock_bottom=True)
    state = build("AC TC KC QC JC 9C AS TS", "KS QS JS 9S AH TH KH QH", "JH 9H AD TD KD QD JD 9D", rules=rules)
    assert state.stock_bottom == card("9D")
    assert deal_view(state, 0).stock_bottom == "9D" == deal_view(state, 1).stock_bottom
    for lead, follow in [("9S", "TS"), ("9C", "KS"), ("JC", "QS"), ("QC", "JS")]:
        assert deal_view(state, 0).stock_bottom == "9D"
        state = trick(state, lead, follow)
    # seat 0 won all four phase-1 tricks, so seat 1 drew last: the faced bottom card
    assert [t.winner for t in state.tricks] == [0, 0, 0, 0]
    assert "9D" in hand_names(state.hands[1])
    assert state.stock == () and state.stock_bottom is None
    assert deal_view(state, 0).stock_bottom is None


def test_r2_stock_bottom_hidden_without_the_option():
    state = build("AC TC KC QC JC 9C AS TS", "KS QS JS 9S AH TH KH QH", "JH 9H AD TD KD QD JD 9D")
    assert state.stock_bottom is None
    assert deal_view(state, 0).stock_bottom is None and deal_view(state, 1).stock_bottom is None


@pytest.mark.parametrize("dealer", [0, 1])
def test_r2_r4_forehand_leads_the_first_trick(dealer):
    state = new_deal(Rules(), 7, dealer)
    assert state.turn == state.leader == 1 - dealer
    some_card = next(cards_in(state.hands[dealer]))
    with pytest.raises(IllegalAction) as refused:
        play(state, dealer, name(some_card))
    assert refused.value.code == "not_your_turn"
    for c in cards_in(state.hands[1 - dealer]):  # forehand may lead any card it holds
        apply(state, 1 - dealer, Play(c))
