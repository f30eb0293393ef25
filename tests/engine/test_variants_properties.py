"""Properties of random legal V2–V7 deals and matches, for every variant and seat count (hypothesis).

Every card ends in exactly one trick or the discards; the card points sum to 120; the contract is
judged as V0.8 and the score written as the variant says (a reference written here from
RULES-VARIANTS.md); a seat's view and events never name a card of another hand, the talon (except
to the declarer once taken) or the discards (except to the declarer); replaying the log reproduces
the deal and the match.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backend.cli.replay as replay_cli
from backend.engine.cards import CARD_NAMES, CARD_POINTS, cards_in
from backend.engine.deal import Play
from backend.engine.errors import IllegalAction
from backend.engine.table_deal import (
    Bid,
    Discard,
    Pass,
    TableAction,
    TableDealState,
    apply_table,
    legal_table_actions,
    new_table_deal,
    table_deal_result,
)
from backend.engine.table_match import apply_table_match, new_table_match, replay_table_match
from backend.engine.table_view import table_events_for_seat, table_seat_view
from backend.engine.variants import TableRules

from .support import card_tokens

CONFIGS = [
    TableRules("mcleod"),
    TableRules("rassel", jungfrau=True),
    TableRules("thousand3"),
    TableRules("thousand3", scoring="simplified", jungfrau=True),
    TableRules("thousand4", open_scores=True),
    TableRules("bidding"),
    TableRules("bidding", seats=4, jungfrau=True, open_scores=True),
]
IDS = [f"{r.variant}-{r.seats}-{r.scoring}{'-jungfrau' if r.jungfrau else ''}" for r in CONFIGS]
seeds = st.integers(min_value=0, max_value=2**64)
picks = st.lists(st.integers(0, 2**16), min_size=40, max_size=40)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def choose(state: TableDealState, pick: int) -> TableAction:
    """A legal action; in the auction a pass half of the time, else a bid near the lowest."""
    seat = state.turn
    assert seat is not None
    actions = legal_table_actions(state, seat)
    if state.phase == "auction":
        bids = [a for a in actions if isinstance(a, Bid)]
        if pick % 2 or not bids:
            return Pass()
        return bids[(pick // 2) % min(4, len(bids))]
    return actions[pick % len(actions)]


def play_out(state: TableDealState, picks: list[int]) -> tuple[TableDealState, list[tuple[int, TableAction]]]:
    log: list[tuple[int, TableAction]] = []
    step = 0
    while not state.over:
        seat = state.turn
        assert seat is not None
        chosen = choose(state, picks[step % len(picks)] + step)
        log.append((seat, chosen))
        state, _ = apply_table(state, seat, chosen)
        step += 1
    return state, log


def reference_score(state: TableDealState, seat: int) -> int:
    """V2.9, V3.8, V4.9, V6, V7.9 written out from the rules text."""
    rules, result = state.rules, table_deal_result(state)
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
def test_conservation_points_contract_and_replay(rules: TableRules, seed: int, dealer: int, picks: list[int]) -> None:
    dealer %= rules.n
    start = new_table_deal(rules, seed, dealer)
    state, log = play_out(start, picks)
    result = table_deal_result(state)
    if result.thrown_in:  # ruling V0.6a
        assert all(c.bid is None for c in state.calls) and result.score == (0,) * rules.n
        return
    seen: list[int] = [c for t in state.tricks for c in t.cards] + list(cards_in(state.discards))
    assert sorted(seen) == list(cards_in(rules.layout.pack))  # each card exactly once
    assert all(len(t.cards) == rules.n for t in state.tricks)
    assert sum(result.card_points) == 120 == sum(CARD_POINTS[c] for c in seen)
    assert sum(result.tricks_won) == len(state.tricks)
    if state.declarer is not None:  # V0.8, ruling V0.8a
        assert state.contract is not None
        assert result.made is (result.deal_points[state.declarer] >= state.contract)
        assert state.discards.bit_count() == rules.layout.talon_size
    for seat in range(rules.n):
        assert result.score[seat] == reference_score(state, seat)
    replayed = start
    for seat, action in log:
        replayed, _ = apply_table(replayed, seat, action)
    assert replayed == state
    assert new_table_deal(rules, seed, dealer) == start
    status, out = replay_cli.run(cli_document(start, log))  # the replay CLI reproduces the deal too
    assert status == 0 and [s["score"] for s in out["result"]["seats"]] == list(result.score)
    assert out["result"]["made"] == result.made and out["card_points"] == list(result.card_points)


def cli_document(start: TableDealState, log: list[tuple[int, TableAction]]) -> dict[str, object]:
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
    deal = {"dealer": start.dealer, "hands": hands, "talon": [CARD_NAMES[c] for c in start.talon]}
    return json.loads(json.dumps({"rules": start.rules.to_dict(), "deal": deal, "actions": actions}))


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@SETTINGS
@given(seed=seeds, picks=picks)
def test_views_and_events_hide_hands_talon_and_discards(rules: TableRules, seed: int, picks: list[int]) -> None:
    match = new_table_match(rules, seed)
    for step in range(60):
        deal = match.deal
        seat = deal.turn
        assert seat is not None
        chosen = choose(deal, picks[step % len(picks)] + step)
        match, events = apply_table_match(match, seat, chosen)
        now = match.deal  # the same deal, or the next one
        public = {CARD_NAMES[c] for d in (deal, now) for t in d.tricks for c in t.cards}
        public |= {CARD_NAMES[c] for d in (deal, now) for c in d.trick}
        if isinstance(chosen, Play):
            public.add(CARD_NAMES[chosen.card])
        for viewer in [*range(rules.n), None]:
            allowed = set(public)
            if viewer is not None:
                allowed |= {CARD_NAMES[c] for d in (deal, now) for c in cards_in(d.hands[viewer])}
                for d in (deal, now):
                    if d.declarer == viewer:  # V0.7a, V0.11: the talon once taken, the discards
                        allowed |= {CARD_NAMES[c] for c in (*d.talon, *cards_in(d.discards))}
            view = table_seat_view(match, viewer)
            assert card_tokens(view) <= allowed, (viewer, card_tokens(view) - allowed)
            assert card_tokens(table_events_for_seat(events, viewer)) <= allowed
            if viewer is not None:
                assert set(view.deal.hand or ()) == {CARD_NAMES[c] for c in cards_in(now.hands[viewer])}
                if viewer != now.declarer:
                    assert view.deal.talon is None and view.deal.discards is None
                assert view.deal.hand_counts == tuple(h.bit_count() for h in now.hands)
        if match.over:
            break


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, picks=picks)
def test_a_match_replays_from_rules_seed_and_actions(rules: TableRules, seed: int, picks: list[int]) -> None:
    match, log = new_table_match(rules, seed), []
    for step in range(150):
        seat = match.deal.turn
        assert seat is not None
        chosen = choose(match.deal, picks[step % len(picks)] + step)
        log.append((seat, chosen))
        match, _ = apply_table_match(match, seat, chosen)
        if match.over:
            break
    assert replay_table_match(rules, seed, log) == match
    for record in match.history:
        assert record.dealer == (match.first_dealer + record.number) % rules.n  # ruling V0.1a


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, picks=picks, probe=st.integers(0, 2**16))
def test_a_refused_action_changes_nothing(rules: TableRules, seed: int, picks: list[int], probe: int) -> None:
    state = new_table_deal(rules, seed, 0)
    for step in range(probe % 12):
        if state.over:
            break
        state, _ = apply_table(state, state.turn, choose(state, picks[step]))  # type: ignore[arg-type]
    candidates: list[TableAction] = [Bid(probe % 300), Pass(), Discard(probe % 32, (probe // 32) % 32)]
    candidates += [Play(c, bool(probe & 1)) for c in cards_in(rules.layout.pack)]
    for seat in range(rules.n):
        for candidate in candidates:
            before = state
            try:
                after, _ = apply_table(state, seat, candidate)
            except IllegalAction:
                assert state == before
                assert candidate not in legal_table_actions(state, seat)
            else:
                assert after is not state
