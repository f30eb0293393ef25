"""R3 (trumps and declarations) and R4 (playing a trick)."""

from __future__ import annotations

import pytest

from backend.engine import IllegalAction, Play, Rules, card, deal_result, declarable_suits
from backend.engine import apply_deal as apply
from backend.engine import deal_actions as legal_actions
from backend.engine.cards import HEARTS, SPADES, cards_in
from backend.engine.deal import NO_TRUMP, legal_mask

from .support import build, hand_names, play, reach_phase2, trick

# Seat 1 (forehand) holds K and Q of every suit; seat 0 the jacks and nines; the stock the aces and tens.
ALL_MARRIAGES = ("9C 9S 9H 9D JC JS JH JD", "KC QC KS QS KH QH KD QD", "AC TC AS TS AH TH AD TD")


def refused(state, seat, card_name, declare=False) -> str:
    with pytest.raises(IllegalAction) as error:
        apply(state, seat, Play(card(card_name), declare))
    return error.value.code


# ---------------------------------------------------------------- R3


def test_r3_deal_starts_without_trump():
    state = build(*ALL_MARRIAGES)
    assert state.trump == NO_TRUMP and state.declarations == ()


def test_r3_declaration_on_the_first_lead_makes_trump_at_once():
    state = build(*ALL_MARRIAGES)
    assert declarable_suits(state, 1) == (0, 1, 2, 3)
    state = play(state, 1, "QH", declare=True)  # leading the Q works as well as the K
    assert state.trump == HEARTS  # trump already for the trick being led
    assert [(d.seat, d.suit, d.points) for d in state.declarations] == [(1, HEARTS, 60)]


def test_r3_declaration_only_on_lead():
    state = build(*ALL_MARRIAGES, dealer=1)  # seat 0 (nines and jacks) leads, seat 1 follows
    state = play(state, 0, "9S")
    assert declarable_suits(state, 1) == ()
    assert all(not action.declare for action in legal_actions(state, 1))
    assert refused(state, 1, "KS", declare=True) == "cannot_declare"
    play(state, 1, "KS")  # the same card without a declaration is fine


def test_r3_declaration_needs_k_and_q_held():
    state = build("KC 9C 9S 9H 9D JS JH JD", "QC JC KS QS KH QH KD QD", "AC TC AS TS AH TH AD TD", dealer=1)
    assert declarable_suits(state, 0) == ()  # KC without QC
    assert refused(state, 0, "KC", declare=True) == "cannot_declare"


def test_r3_declaration_by_leading_k_or_q_only():
    # seat 0 leads, holding K and Q of clubs, spades and hearts, and the ace of clubs
    state = build("KC QC AC 9D KS QS KH QH", "9C 9S 9H JD JC JS JH QD", "AS TC TS AH TH AD TD KD", dealer=1)
    assert declarable_suits(state, 0) == (0, 1, 2)
    assert refused(state, 0, "AC", declare=True) == "cannot_declare"  # the suit's K and Q held, but an ace led
    assert refused(state, 0, "9D", declare=True) == "cannot_declare"
    for marriage_card in ("KC", "QC", "KS", "QS", "KH", "QH"):
        assert play(state, 0, marriage_card, declare=True).trump == card(marriage_card) >> 3
    # without the declaration, K or Q is an ordinary lead (R3: declaring is optional)
    assert play(state, 0, "KC").trump == NO_TRUMP
    assert play(state, 0, "KC").declarations == ()


def test_r3_each_suit_declared_once_and_trump_changes():
    state = build(*ALL_MARRIAGES)
    state = trick(state, "KH", "9H", declare=True)  # seat 1 wins and leads again
    assert state.trump == HEARTS
    assert 2 not in declarable_suits(state, 1)
    assert refused(state, 1, "QH", declare=True) == "cannot_declare"
    state = trick(state, "KS", "9S", declare=True)  # a new suit: the trump changes
    assert state.trump == SPADES
    assert [d.suit for d in state.declarations] == [HEARTS, SPADES]


@pytest.mark.parametrize(
    ("scoring", "order", "points"),
    [
        ("by_suit", "CSHD", [100, 80, 60, 40]),
        ("by_suit", "DHSC", [40, 60, 80, 100]),
        ("by_order", "CSHD", [40, 60, 80, 100]),
        ("by_order", "DHSC", [40, 60, 80, 100]),
        ("by_order", "HCDS", [40, 60, 80, 100]),
    ],
)
def test_r3_declaration_points_by_suit_and_by_order(scoring, order, points):
    state = build(*ALL_MARRIAGES, rules=Rules(declaration_scoring=scoring))
    for suit in order:  # seat 1 leads K<suit> declaring; seat 0 follows with the nine; seat 1 wins
        state = trick(state, "K" + suit, "9" + suit, declare=True)
    assert [d.points for d in state.declarations] == points
    assert state.stock == ()
    # phase 2: seat 1 leads its remaining aces then queens; seat 0 cannot head them and takes nothing
    while not state.over:
        lead = sorted(cards_in(state.hands[1]), key=lambda c: c & 7)[0]
        state, _ = apply(state, 1, Play(lead))
        state, _ = apply(state, 0, Play(next(cards_in(legal_mask(state)))))
    result = deal_result(state)
    assert result.tricks_won == (0, 12)
    assert result.score == (0, 400)  # R3: the maximum of a deal, 120 card points + 280


def test_r3_no_declaration_points_for_a_player_without_a_trick():
    # Seat 1 declares hearts on the first lead, loses that trick to the ace, and never wins one.
    state = build("AH TH AC TC AS TS AD TD", "KH QH 9C 9S 9D JC JS JD", "JH QC 9H QS KC QD KS KD")
    state = trick(state, "KH", "AH", declare=True)
    assert state.tricks[-1].winner == 0
    for lead, follow in [("TH", "QH"), ("AC", "9C"), ("AS", "9S")]:
        state = trick(state, lead, follow)
    for lead in ["JH", "9H", "AD", "TD", "TC", "KC", "TS", "KS"]:
        state = play(state, 0, lead)
        state, _ = apply(state, 1, Play(next(cards_in(legal_mask(state)))))
    result = deal_result(state)
    assert state.declarations[0].seat == 1 and state.declarations[0].points == 60
    assert result.tricks_won == (12, 0)
    assert result.declaration_points == (0, 0)
    assert result.score == (120, 0)


def test_r3_declaration_in_phase_2():
    state = reach_phase2("KS QS AS KH 9S AD TD 9D", "AH JH 9H TC KC 9C JC QC", declare="QH")
    assert declarable_suits(state, 1) == (SPADES,)
    state = play(state, 1, "KS", declare=True)
    assert state.trump == SPADES
    assert [(d.suit, d.points) for d in state.declarations] == [(HEARTS, 60), (SPADES, 80)]


# ---------------------------------------------------------------- R4


def test_r4_trick_winner_highest_trump_else_highest_of_suit_led():
    state = build(*ALL_MARRIAGES)
    state = trick(state, "KH", "JS", declare=True)  # hearts trump; a spade does not follow: leader wins
    assert state.tricks[-1].winner == 1
    state = trick(state, "KC", "9C")  # same suit, higher card wins
    assert state.tricks[-1].winner == 1
    state = trick(state, "QC", "JH")  # a trump on a non-trump lead wins
    assert state.tricks[-1].winner == 0
    state = trick(state, "JC", "QS")  # no trump in the trick, off-suit follow: the card led wins
    assert state.tricks[-1].winner == 0


def test_r4_phase1_follower_may_play_any_card():
    state = build(*ALL_MARRIAGES)
    state = play(state, 1, "KS")
    assert state.stock  # R4 phase 1
    assert hand_names(legal_mask(state)) == hand_names(state.hands[0])
    play(state, 0, "JH")  # no need to follow suit
    play(state, 0, "9S")  # nor to beat


def test_r4_phase2_starts_when_the_stock_is_empty():
    state = build(*ALL_MARRIAGES)
    for suit in "CSHD":
        assert state.stock and len(state.stock) == 8 - 2 * "CSHD".index(suit)
        state = trick(state, "Q" + suit, "9" + suit)
    assert len(state.tricks) == 4 and state.stock == ()  # R4 phase 2
    assert state.hands[0].bit_count() == state.hands[1].bit_count() == 8


def test_r4_phase2_must_follow_suit():
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH", declare="QH")
    state = play(state, 1, "AS")
    assert hand_names(legal_mask(state)) == {"TS", "QS", "JS"}  # cannot beat the ace: any spade
    assert refused(state, 0, "TC") == "must_follow_suit"
    assert refused(state, 0, "AH") == "must_follow_suit"  # not even a trump while holding spades


def test_r4_phase2_must_beat():
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH", declare="QH")
    state = play(state, 1, "JC")
    assert hand_names(legal_mask(state)) == {"TC", "KC"}
    assert refused(state, 0, "9C") == "must_beat"
    assert refused(state, 0, "TS") == "must_follow_suit"
    assert play(state, 0, "KC").tricks[-1].winner == 0


def test_r4_phase2_must_trump_when_void():
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH", declare="QH")
    state = play(state, 1, "AD")
    assert hand_names(legal_mask(state)) == {"JH", "AH"}  # any trump, not only one that beats
    assert refused(state, 0, "TC") == "must_trump"
    assert play(state, 0, "JH").tricks[-1].winner == 0


def test_r4_phase2_else_any_card():
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH")  # no trump declared
    assert state.trump == NO_TRUMP
    state = play(state, 1, "AD")
    assert hand_names(legal_mask(state)) == hand_names(state.hands[0])
    assert play(state, 0, "9C").tricks[-1].winner == 1


def test_r4_phase2_trumps_led_follow_and_beat_in_trumps():
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH", declare="QH")
    assert hand_names(legal_mask(play(state, 1, "9H"))) == {"JH", "AH"}
    led_king = play(state, 1, "KH")
    assert hand_names(legal_mask(led_king)) == {"AH"}
    assert refused(led_king, 0, "JH") == "must_beat"
    assert refused(led_king, 0, "TC") == "must_follow_suit"


def test_r4_1_a_declaration_changes_the_trump_for_the_follower_at_once():
    # Hearts are trump; seat 1 leads KS declaring spades. Seat 0 holds no spade and no heart is
    # trump any longer, so it may play any card (with hearts still trump it would have to trump).
    base = reach_phase2("KS QS AS KH 9S AD TD 9D", "AH JH 9H TC KC 9C JC QC", declare="QH")
    plain = play(base, 1, "KS")
    assert hand_names(legal_mask(plain)) == {"AH", "JH", "9H"}
    assert refused(plain, 0, "TC") == "must_trump"
    declared = play(base, 1, "KS", declare=True)
    assert hand_names(legal_mask(declared)) == hand_names(declared.hands[0])
    after = play(declared, 0, "AH")  # the old trump no longer wins
    assert after.tricks[-1].winner == 1


def test_r4_winner_leads_next():
    state = build(*ALL_MARRIAGES)
    state = trick(state, "QC", "JH")
    assert state.tricks[-1].winner == 1 and state.turn == state.leader == 1
    state = trick(state, "KS", "9S")
    state = trick(state, "QS", "9C")
    assert state.turn == 1
