"""Properties of random legal deals and matches (hypothesis draws the seeds and every choice).

R1–R4: cards, tricks and the refusal codes of two-hand 1001, checked against a reference written
here from the rules text (not from the engine); R3/R5: declarations and scores; R2: replaying a
recorded log reproduces the deal, also through the replay CLI. What a seat or a spectator may see
(R7) is checked for every game in ``test_family_properties``.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import backend.cli.replay as replay_cli
from backend.engine import (
    IllegalAction,
    Play,
    Rules,
    card,
    deal_from_hands,
    deal_result,
    legal_mask,
    name,
    names,
    new_deal,
)
from backend.engine import apply_deal as apply
from backend.engine import deal_actions as legal_actions
from backend.engine.cards import cards_in

from .support import POINTS, RANKS, hand_names, pack_names, snapshot

SUITS = "CSHD"
BY_SUIT = {"C": 100, "S": 80, "H": 60, "D": 40}  # R3
BY_ORDER = [40, 60, 80, 100]

rules_strategy = st.builds(
    Rules,
    declaration_scoring=st.sampled_from(["by_suit", "by_order"]),
    show_stock_bottom=st.booleans(),
    target=st.sampled_from([1001, 501, 301]),
    open_scores=st.booleans(),
    deck_size=st.sampled_from([24, 32]),
)
seeds = st.integers(min_value=0, max_value=2**128 - 1)
# One entry per play of a deal: which legal card (an index, reduced modulo the choices) and whether
# to declare when that card is a K or Q the seat may declare with.
choices = st.lists(st.tuples(st.integers(0, 2**16), st.booleans()), min_size=32, max_size=32)
PROPERTY_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def choose(state, pick: tuple[int, bool]) -> Play:
    """A legal action: a declaring K or Q lead when ``pick`` asks for one and there is one, else a card."""
    index, wants_declare = pick
    actions = legal_actions(state, state.turn)
    declaring = [a for a in actions if a.declare]
    if wants_declare and declaring:
        return declaring[index % len(declaring)]
    plain = [a for a in actions if not a.declare]
    return plain[index % len(plain)]


def higher(a: str, b: str) -> bool:
    return RANKS.index(a[0]) < RANKS.index(b[0])


def expected_refusal(state, seat: int, card_name: str, declare: bool) -> str | None:
    """R3/R4 written out on card names: the code a play must be refused with, or None if legal."""
    if state.turn is None:
        return "deal_over"
    if seat != state.turn:
        return "not_your_turn"
    hand = hand_names(state.hands[seat])
    if card_name not in hand:
        return "card_not_held"
    trick = [name(c) for c in state.trick]
    trump = None if state.trump < 0 else SUITS[state.trump]
    declared = {SUITS[d.suit] for d in state.declarations}
    if declare:
        suit = card_name[1]
        if trick or card_name[0] not in "KQ" or suit in declared or not {"K" + suit, "Q" + suit} <= hand:
            return "cannot_declare"
    if trick and not state.stock:  # phase 2 (R4)
        lead = trick[0]
        same_suit = {c for c in hand if c[1] == lead[1]}
        if same_suit:
            if card_name[1] != lead[1]:
                return "must_follow_suit"
            heads = {c for c in same_suit if higher(c, lead)}
            if heads and card_name not in heads:
                return "must_beat"  # R4.1
        elif trump and any(c[1] == trump for c in hand) and card_name[1] != trump:
            return "must_trump"
    return None


def expected_winner(leader: int, lead: str, follow: str, trump: str | None) -> int:
    if follow[1] == lead[1]:
        return 1 - leader if higher(follow, lead) else leader
    return 1 - leader if follow[1] == trump else leader


def refusal_code(state, seat: int, play: Play) -> str | None:
    try:
        apply(state, seat, play)
    except IllegalAction as error:
        return error.code
    return None


@settings(PROPERTY_SETTINGS, max_examples=200)
@given(rules=rules_strategy, seed=seeds, dealer=st.integers(0, 1), picks=choices)
def test_r1_r4_random_deal_properties(rules, seed, dealer, picks):
    state = new_deal(rules, seed, dealer)
    pack = pack_names(rules.deck_size)
    log: list[tuple[int, Play]] = []
    for pick in picks:
        if state.over:
            break
        seat = state.turn
        legal = list(cards_in(legal_mask(state)))
        assert legal, "a seat to move always has a legal card"
        before = snapshot(state)
        # every card of the pack, with and without a declaration, by the seat on turn, and every card
        # the other seat holds: refused with the code the rules give, or applied (the other seat's
        # cards not held meet "not your turn" before anything else, as a held one does)
        other = 1 - seat
        for who, cards in ((seat, pack), (other, sorted(hand_names(state.hands[other])))):
            for card_name in cards:
                for declare in (False, True):
                    expected = expected_refusal(state, who, card_name, declare)
                    assert refusal_code(state, who, Play(card(card_name), declare)) == expected
        assert snapshot(state) == before
        assert {name(c) for c in legal} == {c for c in pack if expected_refusal(state, seat, c, False) is None}, (
            "legal cards are exactly those the reference allows"
        )
        play = choose(state, pick)
        trump_before = state.trump
        state, _ = apply(state, seat, play)
        log.append((seat, play))
        if play.declare:
            assert state.trump == play.card >> 3  # R3: trump at once
        elif state.trick:
            assert state.trump == trump_before
        if not state.trick:  # a trick was completed: check its winner against R4
            t = state.tricks[-1]
            lead, follow = name(t.cards[0]), name(t.cards[1])
            trump = None if state.trump < 0 else SUITS[state.trump]
            assert t.winner == expected_winner(t.leader, lead, follow, trump)

    assert state.over and legal_mask(state) == 0 and legal_actions(state, 0) == legal_actions(state, 1) == []
    for seat in (0, 1):
        for card_name in pack[:3]:
            assert refusal_code(state, seat, Play(card(card_name))) == "deal_over"

    # every card ends in exactly one trick; 12 tricks (16 in V1); 120 card points (R1, R5)
    played = [name(c) for t in state.tricks for c in t.cards]
    assert sorted(played) == sorted(pack)
    assert len(state.tricks) == rules.deck_size // 2
    result = deal_result(state)
    assert sum(result.card_points) == 120
    taken = [0, 0]
    for t in state.tricks:
        taken[t.winner] += sum(POINTS[name(c)[0]] for c in t.cards)
    assert tuple(taken) == result.card_points

    # R3: each suit declared at most once, points by the table option, none for a trickless seat
    suits = [d.suit for d in state.declarations]
    assert len(suits) == len(set(suits))
    for nth, d in enumerate(state.declarations):
        expected_points = BY_SUIT[SUITS[d.suit]] if rules.declaration_scoring == "by_suit" else BY_ORDER[nth]
        assert d.points == expected_points
    for seat in (0, 1):
        own = sum(d.points for d in state.declarations if d.seat == seat)
        assert result.declaration_points[seat] == (own if result.tricks_won[seat] else 0)
        assert result.score[seat] == taken[seat] + result.declaration_points[seat]

    # replaying the log reproduces the deal, from the seed and from the explicit hands (R2)
    hands = [list(cards_in(state.initial_hands[0])), list(cards_in(state.initial_hands[1]))]
    for again in (new_deal(rules, seed, dealer), deal_from_hands(rules, dealer, hands, stock=state.initial_stock)):
        for seat, play in log:
            again, _ = apply(again, seat, play)
        assert again.tricks == state.tricks and again.declarations == state.declarations
        assert deal_result(again) == result
    event(f"{rules.deck_size} cards, {rules.declaration_scoring}")
    event(f"{len(state.declarations)} declarations")
    if any(not result.tricks_won[d.seat] for d in state.declarations):
        event("a declarer without a trick")

    # and so does the replay CLI, from the same log as JSON
    doc = {
        "rules": rules.to_dict(),
        "deal": {
            "dealer": dealer,
            "hands": [names(m) for m in state.initial_hands],
            "stock": [name(c) for c in state.initial_stock],
        },
        "actions": [{"seat": s, "play": name(p.card), "declare": p.declare} for s, p in log],
    }
    status, out = replay_cli.run(json.loads(json.dumps(doc)))
    assert status == 0 and out["deal_over"] and out["score"] == list(result.score)
    assert [t["winner"] for t in out["tricks"]] == [t.winner for t in state.tricks]
