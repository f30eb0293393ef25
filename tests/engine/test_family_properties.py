"""Properties of random legal deals and matches of every game of the family — two-hand 1001 (R1–R7,
V1) and V2–V7, every seat count, option V6 (hypothesis).

Every card ends in exactly one trick or the discards; the card points sum to 120; the contract is
judged as V0.8 and the score written as the game says (a reference written here from RULES.md and
RULES-VARIANTS.md); a seat's view and events never name a card of another hand, the stock (but a
faced bottom card, R2), the talon (except to the declarer once taken) or the discards (except to the
declarer), and a spectator's name none of them (R7, V0.11); a refused action changes nothing;
replaying the log reproduces the deal and the match, and the replay CLI the deal.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backend.cli.replay as replay_cli
from backend.engine import (
    Action,
    Bid,
    DealState,
    Discard,
    IllegalAction,
    Pass,
    Play,
    Rules,
    deal_result,
    events_for,
    new_deal,
    new_match,
    replay_match,
    view_for,
)
from backend.engine import apply as apply_match
from backend.engine import apply_deal as apply
from backend.engine import deal_actions as legal_actions
from backend.engine.cards import CARD_NAMES, CARD_POINTS, cards_in

from .support import card_tokens, sent

CONFIGS = [
    Rules(),
    Rules(declaration_scoring="by_order", show_stock_bottom=True, jungfrau=True),
    Rules(deck_size=32, open_scores=True, show_stock_bottom=True),  # V1
    Rules("mcleod"),
    Rules("rassel", jungfrau=True),
    Rules("thousand3"),
    Rules("thousand3", scoring="simplified", jungfrau=True),
    Rules("thousand4", open_scores=True),
    Rules("bidding"),
    Rules("bidding", seats=4, jungfrau=True, open_scores=True),
]
IDS = [f"{r.variant}-{r.seats}-{r.deck_size}-{r.scoring}{'-jungfrau' if r.jungfrau else ''}" for r in CONFIGS]
seeds = st.integers(min_value=0, max_value=2**64)
long_seeds = st.integers(min_value=2**64, max_value=2**128 - 1)  # never found by chance in a view's text
picks = st.lists(st.integers(0, 2**16), min_size=40, max_size=40)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def choose(state: DealState, pick: int) -> Action:
    """A legal action; in the auction a pass half of the time, else a bid near the lowest."""
    seat = state.turn
    assert seat is not None
    actions = legal_actions(state, seat)
    if state.phase == "auction":
        bids = [a for a in actions if isinstance(a, Bid)]
        if pick % 2 or not bids:
            return Pass()
        return bids[(pick // 2) % min(4, len(bids))]
    return actions[pick % len(actions)]


def play_out(state: DealState, picks: list[int]) -> tuple[DealState, list[tuple[int, Action]]]:
    log: list[tuple[int, Action]] = []
    step = 0
    while not state.over:
        seat = state.turn
        assert seat is not None
        chosen = choose(state, picks[step % len(picks)] + step)
        log.append((seat, chosen))
        state, _ = apply(state, seat, chosen)
        step += 1
    return state, log


def reference_score(state: DealState, seat: int) -> int:
    """R5, V2.9, V3.8, V4.9, V6, V7.9 written out from the rules text."""
    rules, result = state.rules, deal_result(state)
    points = result.deal_points[seat]
    if rules.variant == "mcleod":
        written = math.floor(points / 10 + 0.5) * 10
    elif rules.variant == "rassel":
        written = math.ceil(points / 10) * 10
    elif rules.scoring == "simplified":
        tens, rest = divmod(points, 10)
        last = state.tricks[-1].winner == seat
        written = tens + (1 if rest > 5 or (rest == 5 and last) else 0)
    else:
        written = points
    if seat == state.declarer:
        assert state.contract is not None
        if points < state.contract:
            written = written - state.contract if rules.variant == "rassel" else -state.contract
    elif rules.jungfrau and result.tricks_won[seat] == 0:
        written += 10 if rules.scoring == "simplified" else 100
    return written


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@SETTINGS
@given(seed=seeds, dealer=st.integers(0, 3), picks=picks)
def test_conservation_points_contract_and_replay(rules: Rules, seed: int, dealer: int, picks: list[int]) -> None:
    dealer %= rules.n
    start = new_deal(rules, seed, dealer)
    state, log = play_out(start, picks)
    result = deal_result(state)
    if result.thrown_in:  # ruling V0.6a
        assert all(c.bid is None for c in state.calls) and result.score == (0,) * rules.n
        return
    seen: list[int] = [c for t in state.tricks for c in t.cards] + list(cards_in(state.discards))
    assert not state.stock and not any(state.hands)  # R4: the stock is drawn to its end
    assert sorted(seen) == list(cards_in(rules.layout.pack))  # each card exactly once
    assert all(len(t.cards) == rules.n for t in state.tricks)
    assert sum(result.card_points) == 120 == sum(CARD_POINTS[c] for c in seen)
    assert sum(result.tricks_won) == len(state.tricks)
    for d in state.declarations:  # R3, V0.5: a suit once per deal, by its values (or its order, R3)
        nth = state.declarations.index(d)
        assert d.points == rules.declaration_points(d.suit, nth)
    if state.declarer is not None:  # V0.8, ruling V0.8a
        assert state.contract is not None
        assert result.made is (result.deal_points[state.declarer] >= state.contract)
        assert state.discards.bit_count() == rules.layout.talon_size
    for seat in range(rules.n):
        assert result.score[seat] == reference_score(state, seat)
    replayed = start
    for seat, action in log:
        replayed, _ = apply(replayed, seat, action)
    assert replayed == state
    assert new_deal(rules, seed, dealer) == start
    status, out = replay_cli.run(cli_document(start, log))  # the replay CLI reproduces the deal too
    assert status == 0 and out["card_points"] == list(result.card_points)
    if rules.two_hand:
        assert out["score"] == list(result.score)
    else:
        assert [s["score"] for s in out["result"]["seats"]] == list(result.score)
        assert out["result"]["made"] == result.made


def cli_document(start: DealState, log: list[tuple[int, Action]]) -> dict[str, object]:
    actions: list[dict[str, object]] = []
    for seat, action in log:
        if isinstance(action, Bid):
            actions.append({"seat": seat, "bid": action.amount})
        elif isinstance(action, Pass):
            actions.append({"seat": seat, "pass": True})
        elif isinstance(action, Discard):
            actions.append({"seat": seat, "discard": [CARD_NAMES[action.card_a], CARD_NAMES[action.card_b]]})
        else:
            actions.append({"seat": seat, "play": CARD_NAMES[action.card], "declare": action.declare})
    hands = [[CARD_NAMES[c] for c in cards_in(h)] for h in start.initial_hands]
    deal: dict[str, object] = {"dealer": start.dealer, "hands": hands}
    if start.rules.two_hand:
        deal["stock"] = [CARD_NAMES[c] for c in start.initial_stock]
    else:
        deal["talon"] = [CARD_NAMES[c] for c in start.talon]
    return json.loads(json.dumps({"rules": start.rules.to_dict(), "deal": deal, "actions": actions}))


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@SETTINGS
@given(seed=long_seeds, picks=picks)
def test_r7_v0_11_views_and_events_hide_hands_stock_talon_and_discards(
    rules: Rules, seed: int, picks: list[int]
) -> None:
    match = new_match(rules, seed)
    for step in range(80):
        deal = match.deal
        seat = deal.turn
        assert seat is not None
        chosen = choose(deal, picks[step % len(picks)] + step)
        match, events = apply_match(match, seat, chosen)
        now = match.deal  # the same deal, or the next one
        public = {CARD_NAMES[c] for d in (deal, now) for t in d.tricks for c in t.cards}
        public |= {CARD_NAMES[c] for d in (deal, now) for c in d.trick}
        public |= {CARD_NAMES[d.stock_bottom] for d in (deal, now) if d.stock_bottom is not None}  # R2
        if isinstance(chosen, Play):
            public.add(CARD_NAMES[chosen.card])
        for viewer in [*range(rules.n), None]:
            allowed = set(public)
            if viewer is not None:
                allowed |= {CARD_NAMES[c] for d in (deal, now) for c in cards_in(d.hands[viewer])}
                for d in (deal, now):
                    if d.declarer == viewer:  # V0.7a, V0.11: the talon once taken, the discards
                        allowed |= {CARD_NAMES[c] for c in (*d.talon, *cards_in(d.discards))}
            view = view_for(match, viewer)
            assert card_tokens(view) <= allowed, (viewer, card_tokens(view) - allowed)
            assert card_tokens(events_for(events, viewer)) <= allowed
            if viewer is not None:
                assert set(view.deal.hand or ()) == {CARD_NAMES[c] for c in cards_in(now.hands[viewer])}
                if viewer != now.declarer:
                    assert view.deal.talon is None and view.deal.discards is None
                assert view.deal.hand_counts == tuple(h.bit_count() for h in now.hands)
                assert view.deal.stock_count == len(now.stock)
                offered = {(p.card, False) for p in view.legal} | {(p.card, True) for p in view.legal if p.declare}
                plays = {(CARD_NAMES[a.card], a.declare) for a in legal_actions(now, viewer) if isinstance(a, Play)}
                assert offered == (plays if not match.over else set())  # R3, R4: the engine's own legal plays
            else:  # a spectator: no hand, no card points of its own, no drawn card named (R7)
                assert view.deal.hand is None and view.deal.my_card_points is None
                assert all(getattr(e, "card", "") is None for e in events_for(events, None) if e.kind == "card_drawn")
            text = json.dumps(sent(view))
            assert str(match.seed) not in text  # the match seed would give every deal away
            if not now.over:
                assert str(now.seed) not in text
        if match.over:
            break


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, picks=picks)
def test_a_match_replays_from_rules_seed_and_actions(rules: Rules, seed: int, picks: list[int]) -> None:
    match, log = new_match(rules, seed), []
    for step in range(150):
        seat = match.deal.turn
        assert seat is not None
        chosen = choose(match.deal, picks[step % len(picks)] + step)
        log.append((seat, chosen))
        match, _ = apply_match(match, seat, chosen)
        if match.over:
            break
    assert replay_match(rules, seed, log) == match
    for record in match.history:
        assert record.dealer == (match.first_dealer + record.number) % rules.n  # ruling V0.1a


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, picks=picks, probe=st.integers(0, 2**16))
def test_a_refused_action_changes_nothing(rules: Rules, seed: int, picks: list[int], probe: int) -> None:
    state = new_deal(rules, seed, 0)
    for step in range(probe % 12):
        if state.over:
            break
        state, _ = apply(state, state.turn, choose(state, picks[step]))  # type: ignore[arg-type]
    candidates: list[Action] = [Bid(probe % 300), Pass(), Discard(probe % 32, (probe // 32) % 32)]
    candidates += [Play(c, bool(probe & 1)) for c in cards_in(rules.layout.pack)]
    for seat in range(rules.n):
        for candidate in candidates:
            before = state
            try:
                after, _ = apply(state, seat, candidate)
            except IllegalAction:
                assert state == before
                assert candidate not in legal_actions(state, seat)
            else:
                assert after is not state
