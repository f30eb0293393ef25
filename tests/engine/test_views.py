"""R7 — what each seat may see: deal_view, view_for and events_for (the one observer), two-hand 1001."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random

import pytest
from pydantic import TypeAdapter

from backend.engine import (
    CardDrawn,
    CardPlayed,
    DealOver,
    DeclarationView,
    Event,
    LastTrickView,
    LegalPlay,
    Play,
    Rules,
    SeatView,
    TrickView,
    card,
    legal_mask,
    new_match,
)
from backend.engine import apply_deal as apply
from backend.engine import events_for as events_for_seat
from backend.engine import match as match_rules
from backend.engine import view_for as seat_view
from backend.engine.cards import cards_in
from backend.engine.match import deal_seed
from backend.engine.view import deal_view, plays_for

from .support import build, card_tokens, hand_names, play, reach_phase2, sent, trick

DEAL = ("AC TC KC QC JC 9C AS TS", "KS QS JS 9S AH TH KH QH", "JH 9H AD TD KD QD JD 9D")  # seat 1 leads


def test_r7_deal_view_shows_own_hand_and_only_counts_of_the_rest():
    state = build(*DEAL)
    for seat in (0, 1):
        view = deal_view(state, seat)
        assert set(view.hand) == set(DEAL[seat].split())
        assert view.hand_counts == (8, 8) and view.stock_count == 8
        assert card_tokens(view) == set(DEAL[seat].split())  # no opponent or stock card anywhere
        assert view.turn == 1 and view.forehand == 1 and view.dealer == 0 and view.phase == "play"


def test_r7_trick_in_progress_last_trick_trump_and_declarations_are_public():
    state = build(*DEAL)
    state = trick(state, "KH", "9C", declare=True)  # seat 1 wins, draws JH; seat 0 draws 9H
    state = play(state, 1, "QS")
    for seat in (0, 1):
        view = deal_view(state, seat)
        assert view.trick == TrickView(leader=1, cards=("QS",))
        assert view.last_trick == LastTrickView(leader=1, cards=("KH", "9C"), winner=1)
        assert view.trump == "H"
        assert view.declarations == (DeclarationView(seat=1, suit="H", points=60),)
        assert view.tricks_played == 1
    assert card_tokens(deal_view(state, 0)) == hand_names(state.hands[0]) | {"QS", "KH", "9C"}
    assert "JH" not in card_tokens(deal_view(state, 0))  # seat 1's drawn card
    assert "9H" not in card_tokens(deal_view(state, 1))  # seat 0's drawn card


def test_r7_card_points_own_only_unless_open_scores():
    for open_scores in (False, True):
        state = build(*DEAL, rules=Rules(open_scores=open_scores))
        state = trick(state, "AH", "9C")  # seat 1 takes 11
        for seat in (0, 1):
            view = deal_view(state, seat)
            assert view.my_card_points == state.card_points[seat]
            assert view.card_points == ((0, 11) if open_scores else None)


def test_r7_events_for_seat_hide_the_opponents_drawn_card():
    state = build(*DEAL)
    state = play(state, 1, "KH")
    state, events = apply(state, 0, Play(card("9C")))  # seat 1 wins: it draws JH, seat 0 draws 9H
    original = list(events)
    drawn = [e for e in events if isinstance(e, CardDrawn)]
    assert drawn == [CardDrawn(seat=1, card="JH"), CardDrawn(seat=0, card="9H")]
    assert [e.card for e in events_for_seat(events, 0) if isinstance(e, CardDrawn)] == [None, "9H"]
    assert [e.card for e in events_for_seat(events, 1) if isinstance(e, CardDrawn)] == ["JH", None]
    for seat in (0, 1):  # every other event is public and passes unchanged
        public = [e for e in events if not isinstance(e, CardDrawn)]
        assert [e for e in events_for_seat(events, seat) if not isinstance(e, CardDrawn)] == public
    assert list(events) == original and drawn[0].card == "JH"  # the server's own events are not altered


def test_r7_events_are_frozen():
    state = build(*DEAL)
    state, events = apply(state, 1, Play(card("KH"), True))
    for event in events:
        with pytest.raises(dataclasses.FrozenInstanceError):
            event.seat = 1 - event.seat  # type: ignore[misc]  # the point: assigning must fail
    view = deal_view(state, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]  # the point: assigning must fail


def test_r7_events_serialize_to_the_client_shapes():
    state = build(*DEAL)
    state, lead = apply(state, 1, Play(card("KH"), True))
    state, follow = apply(state, 0, Play(card("9C")))
    assert sent(lead) == [
        {"kind": "card_played", "seat": 1, "card": "KH", "declare": "H"},
        {"kind": "declaration", "seat": 1, "suit": "H", "points": 60},
    ]
    assert sent(follow) == [
        {"kind": "card_played", "seat": 0, "card": "9C", "declare": None},
        {"kind": "trick_won", "seat": 1, "leader": 1, "cards": ["KH", "9C"], "points": 4},
        {"kind": "card_drawn", "seat": 1, "card": "JH"},
        {"kind": "card_drawn", "seat": 0, "card": "9H"},
    ]
    assert sent(events_for_seat(follow, 0))[2] == {"kind": "card_drawn", "seat": 1, "card": None}
    over = DealOver(
        number=0,
        thrown_in=False,
        declarer=None,
        contract=None,
        made=None,
        card_points=(50, 70),
        declaration_points=(0, 60),
        deal_points=(50, 130),
        jungfrau=(0, 0),
        score=(50, 130),
        totals=(50, 130),
        seed="7",
    )
    assert sent(over) == {
        "kind": "deal_over",
        "number": 0,
        "thrown_in": False,
        "declarer": None,
        "contract": None,
        "made": None,
        "card_points": [50, 70],
        "declaration_points": [0, 60],
        "deal_points": [50, 130],
        "jungfrau": [0, 0],
        "score": [50, 130],
        "totals": [50, 130],
        "seed": "7",
    }
    assert TypeAdapter(tuple[Event, ...]).dump_python(follow, mode="json") == sent(follow)


def test_r7_seat_view_serializes_with_the_protocol_2_field_names():
    match = new_match(Rules(), 8)
    view = seat_view(match, match.deal.turn)
    data = TypeAdapter(SeatView).dump_python(view, mode="json")
    assert list(data) == [
        "seat", "rules", "target", "totals", "deal_number", "deal", "bids", "may_pass", "must_discard", "legal",
        "blocked", "history", "winner", "loser", "end_reason", "places",
    ]  # fmt: skip
    assert list(data["deal"]) == [
        "variant", "phase", "dealer", "forehand", "turn", "hand", "hand_counts", "stock_count", "stock_bottom",
        "talon_count", "talon", "discards", "calls", "high_bid", "declarer", "contract", "trump", "declarations",
        "trick", "last_trick", "tricks_played", "tricks_won", "my_card_points", "card_points",
    ]  # fmt: skip
    # The view carries every field of Rules, whatever the game (docs/protocol.md, protocol 2).
    assert data["rules"] == {
        "variant": "twohand", "seats": 2, "target": 1001, "scoring": "original", "jungfrau": False,
        "open_scores": False, "declaration_scoring": "by_suit", "show_stock_bottom": False, "deck_size": 24,
    }  # fmt: skip
    assert data["totals"] == [0, 0]
    assert data["legal"][0].keys() == {"card", "declare"}
    assert data == sent(view)


def test_r7_seat_view_never_shows_the_seed_before_the_deal_ends():
    rng = random.Random(1)
    match = new_match(Rules(), 31337)
    while not match.history:
        for seat in (0, 1):
            text = json.dumps(sent(seat_view(match, seat)))
            assert str(match.seed) not in text  # the match seed would give away every deal
            assert str(match.deal.seed) not in text
            assert str(deal_seed(match.seed, match.deal_number + 1)) not in text
            assert card_tokens(seat_view(match, seat)) & hand_names(match.deal.hands[1 - seat]) == set()
        c = rng.choice(list(cards_in(legal_mask(match.deal))))
        match, events = match_rules.apply(match, match.deal.turn, Play(c))
        if not match.history:
            for seat in (0, 1):
                assert str(match.deal.seed) not in json.dumps(sent(events_for_seat(events, seat)))
    finished_seed = match.history[0].seed
    for seat in (0, 1):
        view = seat_view(match, seat)
        assert view.history[0].seed == str(finished_seed)  # shown once its deal is over
        assert str(match.deal.seed) not in json.dumps(sent(view))  # but not the new deal's
        assert view.totals == match.totals
    deal_over = next(e for e in events if isinstance(e, DealOver))
    assert deal_over.seed == str(finished_seed)


def test_r7_seat_view_legal_only_for_the_seat_to_move():
    match = new_match(Rules(), 8)
    mover = match.deal.turn
    assert seat_view(match, mover).legal and seat_view(match, 1 - mover).legal == ()
    assert seat_view(match, mover).legal == plays_for(match.deal, mover)[0]
    view = seat_view(match, mover)
    assert [p.card for p in view.legal] == list(view.deal.hand)  # on lead every card, in card order
    assert seat_view(match, mover).rules == Rules()


@pytest.mark.parametrize(
    ("scoring", "expected"),
    [
        ("by_suit", {"KS": 80, "QS": 80, "KH": 60, "QH": 60}),  # R3 by_suit: spades 80, hearts 60
        ("by_order", {"KS": 40, "QS": 40, "KH": 40, "QH": 40}),  # R3 by_order: the 1st declaration is 40
    ],
)
def test_r3_legal_play_declare_gives_the_points_of_declaring_that_card(scoring, expected):
    state = build(*DEAL, rules=Rules(declaration_scoring=scoring))  # seat 1 holds K+Q of spades and hearts
    legal = plays_for(state, 1)[0]
    assert [p.card for p in legal] == DEAL[1].split()  # every card, in card order
    assert {p.card: p.declare for p in legal if p.declare is not None} == expected
    assert all(p.declare is None for p in legal if p.card not in expected)
    assert plays_for(state, 0) == ((), ())  # not on turn

    state = trick(state, "KH", "9C", declare=True)  # hearts declared (1st); seat 1 leads again
    legal = {p.card: p.declare for p in plays_for(state, 1)[0]}
    assert legal["KS"] == legal["QS"] == (80 if scoring == "by_suit" else 60)  # by_order: the 2nd is 60
    assert legal["QH"] is None  # hearts were declared: once per suit (R3)

    state = play(state, 1, "9S")  # a follower never declares (R3: only on lead)
    assert all(p.declare is None for p in plays_for(state, 0)[0])


def test_r3_legal_play_declare_in_phase_2_follows_the_legal_cards():
    state = reach_phase2("KC QC AS TS AH TH AD TD", "JC 9C KS QS JS 9S KH QH", dealer=0)
    legal = plays_for(state, 1)[0]
    assert [(p.card, p.declare) for p in legal] == [
        ("KC", 100),
        ("QC", 100),
        ("AS", None),
        ("TS", None),
        ("AH", None),
        ("TH", None),
        ("AD", None),
        ("TD", None),
    ]
    assert all(isinstance(p, LegalPlay) for p in legal)


def test_r7_views_and_events_pickle():
    """The server hands a bot its seat's view and events in another process: they must pickle."""
    match = new_match(Rules(show_stock_bottom=True, open_scores=True), 12)
    rng = random.Random(2)
    events: list[Event] = []
    while match.deal_number < 1 or len(match.deal.tricks) < 2:
        c = rng.choice(list(cards_in(legal_mask(match.deal))))
        match, new = match_rules.apply(match, match.deal.turn, Play(c))
        events.extend(events_for_seat(new, 0))
    view = seat_view(match, 0)
    assert view.history and view.deal.last_trick is not None
    again = pickle.loads(pickle.dumps(view))
    assert again == view and type(again) is SeatView
    assert pickle.loads(pickle.dumps(events)) == events
    assert {type(e) for e in events} >= {CardPlayed, CardDrawn, DealOver}
