"""R7 — what each seat may see: deal_view, seat_view and events_for_seat."""

from __future__ import annotations

import copy
import json
import random

from backend.engine import Play, Rules, apply, card, deal_view, events_for_seat, legal_mask, new_match, seat_view
from backend.engine import match as match_rules
from backend.engine.cards import cards_in
from backend.engine.match import deal_seed

from .support import build, card_tokens, hand_names, play, trick

DEAL = ("AC TC KC QC JC 9C AS TS", "KS QS JS 9S AH TH KH QH", "JH 9H AD TD KD QD JD 9D")  # seat 1 leads


def test_r7_deal_view_shows_own_hand_and_only_counts_of_the_rest():
    state = build(*DEAL)
    for seat in (0, 1):
        view = deal_view(state, seat)
        assert set(view["hand"]) == set(DEAL[seat].split())
        assert view["opponent_cards"] == 8 and view["stock_count"] == 8
        assert card_tokens(view) == set(DEAL[seat].split())  # no opponent or stock card anywhere
        assert view["turn"] == 1 and view["forehand"] == 1 and view["dealer"] == 0 and view["phase"] == 1


def test_r7_trick_in_progress_last_trick_trump_and_declarations_are_public():
    state = build(*DEAL)
    state = trick(state, "KH", "9C", declare=True)  # seat 1 wins, draws JH; seat 0 draws 9H
    state = play(state, 1, "QS")
    for seat in (0, 1):
        view = deal_view(state, seat)
        assert view["trick"] == {"leader": 1, "cards": ["QS"]}
        assert view["last_trick"] == {"leader": 1, "cards": ["KH", "9C"], "winner": 1}
        assert view["trump"] == "H"
        assert view["declarations"] == [{"seat": 1, "suit": "H", "points": 60}]
        assert view["tricks_played"] == 1
    assert card_tokens(deal_view(state, 0)) == hand_names(state.hands[0]) | {"QS", "KH", "9C"}
    assert "JH" not in card_tokens(deal_view(state, 0))  # seat 1's drawn card
    assert "9H" not in card_tokens(deal_view(state, 1))  # seat 0's drawn card


def test_r7_card_points_own_only_unless_open_scores():
    for open_scores in (False, True):
        state = build(*DEAL, rules=Rules(open_scores=open_scores))
        state = trick(state, "AH", "9C")  # seat 1 takes 11
        for seat in (0, 1):
            view = deal_view(state, seat)
            assert view["my_card_points"] == state.card_points[seat]
            assert view["card_points"] == ([0, 11] if open_scores else None)


def test_r7_events_for_seat_hide_the_opponents_drawn_card():
    state = build(*DEAL)
    state = play(state, 1, "KH")
    state, events = apply(state, 0, Play(card("9C")))  # seat 1 wins: it draws JH, seat 0 draws 9H
    original = copy.deepcopy(events)
    drawn = [e for e in events if e["kind"] == "card_drawn"]
    assert drawn == [{"kind": "card_drawn", "seat": 1, "card": "JH"}, {"kind": "card_drawn", "seat": 0, "card": "9H"}]
    assert [e["card"] for e in events_for_seat(events, 0) if e["kind"] == "card_drawn"] == [None, "9H"]
    assert [e["card"] for e in events_for_seat(events, 1) if e["kind"] == "card_drawn"] == ["JH", None]
    for seat in (0, 1):  # every other event is public and passes unchanged
        public = [e for e in events if e["kind"] != "card_drawn"]
        assert [e for e in events_for_seat(events, seat) if e["kind"] != "card_drawn"] == public
    assert events == original  # the server's own copy is not altered


def test_r7_seat_view_never_shows_the_seed_before_the_deal_ends():
    rng = random.Random(1)
    match = new_match(Rules(), 31337)
    while not match.history:
        for seat in (0, 1):
            text = json.dumps(seat_view(match, seat))
            assert str(match.seed) not in text  # the match seed would give away every deal
            assert str(match.deal.seed) not in text
            assert str(deal_seed(match.seed, match.deal_number + 1)) not in text
            assert card_tokens(seat_view(match, seat)) & hand_names(match.deal.hands[1 - seat]) == set()
        card = rng.choice(list(cards_in(legal_mask(match.deal))))
        match, events = match_rules.apply(match, match.deal.turn, Play(card))
        if not match.history:
            for seat in (0, 1):
                assert str(match.deal.seed) not in json.dumps(events_for_seat(events, seat))
    finished_seed = match.history[0].seed
    for seat in (0, 1):
        view = seat_view(match, seat)
        assert view["history"][0]["seed"] == str(finished_seed)  # shown once its deal is over
        assert str(match.deal.seed) not in json.dumps(view)  # but not the new deal's
        assert view["totals"] == list(match.totals)
    deal_over = next(e for e in events if e["kind"] == "deal_over")
    assert deal_over["seed"] == str(finished_seed)


def test_r7_seat_view_legal_only_for_the_seat_to_move():
    match = new_match(Rules(), 8)
    mover = match.deal.turn
    assert seat_view(match, mover)["legal"] and not seat_view(match, 1 - mover)["legal"]
    assert seat_view(match, 1 - mover)["declarable"] == []
    assert seat_view(match, mover)["rules"] == Rules().to_dict()
