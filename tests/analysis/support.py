"""Helpers for the analysis tests: whole deals played by bots, and the same position with the cards a seat
cannot see dealt again in a way it could not tell apart (its knowledge unchanged)."""

from __future__ import annotations

import dataclasses
import random

from backend.bots import choose, observe
from backend.bots.worlds import sample_world
from backend.engine import Action, DealState, Rules, apply_deal, new_deal
from backend.engine.cards import cards_in


def bot_deal(rules: Rules, seed: int, level: str = "medium") -> tuple[DealState, list[tuple[int, Action]]]:
    """A deal as dealt from ``seed`` and every action of it, ``level`` in every seat (as a replay has them)."""
    rng = random.Random(seed)
    start = state = new_deal(rules, seed, seed % rules.n, (0,) * rules.n)
    plays: list[tuple[int, Action]] = []
    while state.turn is not None:
        seat = state.turn
        action = choose(level, observe(state, seat), rng)
        plays.append((seat, action))
        state, _ = apply_deal(state, seat, action)
    return start, plays


def redealt(state: DealState, seat: int, rng: random.Random) -> DealState:
    """``state`` with every card ``seat`` has not seen dealt again as one consistent world of its knowledge
    (``worlds.sample_world``: the other hands, the stock and its order, the untaken talon, another
    declarer's discards — a declared marriage's partner stays, R3/V0.5; the follows' voids hold)."""
    world = sample_world(observe(state, seat), rng)
    out = state._copy()
    out.hands = world.hands
    out.stock = tuple(world.stock)
    if not state.talon_taken:
        out.dealt = dataclasses.replace(state.dealt, talon=tuple(cards_in(world.talon)))
    if state.declarer is not None and state.declarer != seat:
        out.auction = dataclasses.replace(state.auction, discards=world.discards)
    return out
