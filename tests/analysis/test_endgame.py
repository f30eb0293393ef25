"""The exact last tricks of the games of three and four (issue 26, ``backend.analysis.endgame``): every
consistent world listed, and max^n against plain max^n through the engine itself (V0.4, V0.5, V0.8)."""

from __future__ import annotations

import random

import pytest

from backend.analysis.endgame import MaxN, OutOfNodes, all_worlds
from backend.bots import observe
from backend.bots.hard import game_for, move_of
from backend.bots.play import objective, position
from backend.bots.worlds import World, sample_world
from backend.engine import DealState, Rules, apply_deal, deal_actions, deal_result
from tests.bots.support import VARIANT_IDS, VARIANTS

from .support import bot_deal


def _late(rules: Rules, seed: int, cards: int) -> DealState:
    """A medium deal of ``rules`` at the first play by a seat with ``cards`` cards left."""
    start, plays = bot_deal(rules, seed)
    state = start
    for seat, action in plays:
        if state.phase == "play" and state.hands[seat].bit_count() == cards:
            return state
        state, _ = apply_deal(state, seat, action)
    raise AssertionError("the deal never got there")


def _engine_maxn(state: DealState) -> list[int]:
    """Plain max^n through the engine: every seat takes the first action that maximises its deal score minus
    the others' mean (R5 / V0.9 score sheet by ``deal_result``)."""
    if state.over:
        return list(deal_result(state).score)
    seat = state.turn
    assert seat is not None
    best: list[int] | None = None
    for action in deal_actions(state, seat):
        sheet = _engine_maxn(apply_deal(state, seat, action)[0])
        if best is None or objective(sheet, seat) > objective(best, seat):
            best = sheet
    assert best is not None
    return best


def _true_world(state: DealState) -> World:
    return World(state.hands, 0, state.discards, [])


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_v0_4_maxn_of_the_last_tricks_is_plain_maxn_through_the_engine(rules: Rules) -> None:
    for seed in range(3):
        state = _late(rules, seed, 2)
        seat = state.turn
        assert seat is not None
        k = observe(state, seat)
        g = game_for(k)
        search = MaxN(g, 10**6)
        p = position(k, _true_world(state))
        assert list(search.moves(p)) == [move_of(a) for a in k.plays]  # the engine's legal actions, in order
        assert search.scores(p) == _engine_maxn(state)
        for play in k.plays:
            assert search.scores(search.after(p, move_of(play))) == _engine_maxn(apply_deal(state, seat, play)[0])


def test_a_search_past_its_nodes_gives_up() -> None:
    state = _late(Rules("mcleod"), 1, 4)
    k = observe(state, state.turn or 0)
    with pytest.raises(OutOfNodes):
        MaxN(game_for(k), 10).scores(position(k, _true_world(state)))


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_v0_11_every_consistent_world_is_listed_once(rules: Rules) -> None:
    state = _late(rules, 7, 3)
    seat = state.turn
    assert seat is not None
    k = observe(state, seat)
    listed = all_worlds(k, 10_000)
    assert listed is not None and _true_world(state) in listed
    keys = {(w.hands, w.discards) for w in listed}
    assert len(keys) == len(listed)
    forbidden, known = k.forbidden, k.known
    for w in listed:
        assert w.hands[seat] == k.hand and sum(h.bit_count() for h in w.hands) == sum(k.hand_counts)
        for s in range(k.n):
            assert w.hands[s].bit_count() == k.hand_counts[s]
            assert not w.hands[s] & forbidden[s] and w.hands[s] & known[s] == known[s]
    rng = random.Random(3)
    for _ in range(30):
        sampled = sample_world(k, rng)
        assert (sampled.hands, sampled.discards) in keys  # the sampler draws from the same set
    assert len(listed) > 1 and all_worlds(k, len(listed) - 1) is None
