"""The computer plays as it did before the engines were unified (issue 21).

``tests/engine/golden/bot_choices.json.gz`` holds, for random positions of matches of every two-hand
rule set and of the games for three and four, the action each level chose before the unification
(written by the bots of that time, with small budgets so that this test is quick: hard with 2,000
simulated plays, the expert with 6 worlds and a clock that counts its own calls, so that its deadline
falls at the same point of its search). Two-hand 1001's easy, medium and hard levels must choose
exactly the same cards from the same seeds (its expert's search changed on purpose in issue 41: every
world solved to the end of the deal on the compiled core instead of iterative deepening, so its old
choices are no reference any more); the games of three and four changed their world
sampler (uniform over the consistent deals, see ``bots.worlds``), so only their easy and medium
levels, which sample nothing, are held to their old choices.
"""

from __future__ import annotations

import gzip
import json
import random
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from backend.bots import ExpertBot, HardBot, choose, knowledge_from_view
from backend.engine import Bid, Event, MatchState, Rules, apply, events_for, legal_actions, new_game, view_for

GOLDEN = Path(__file__).resolve().parents[1] / "engine" / "golden" / "bot_choices.json.gz"


@cache
def golden() -> list[dict[str, Any]]:
    with gzip.open(GOLDEN, "rt") as source:
        loaded: list[dict[str, Any]] = json.load(source)
        return loaded


def pick(match: MatchState, seat: int, rng: random.Random) -> Any:
    """The seeded random player of the golden traces."""
    moves = legal_actions(match, seat)
    bids = [m for m in moves if isinstance(m, Bid)]
    if bids and rng.random() < 0.35:
        return min(bids, key=lambda b: b.amount) if rng.random() < 0.7 else rng.choice(bids)
    rest = [m for m in moves if not isinstance(m, Bid)]
    return rng.choice(rest or moves)


def counting_clock() -> Any:
    """A clock that moves 0.1 ms each time it is read: the expert's deadline falls at the same point
    of its search on every machine."""
    ticks = iter(range(10**9))
    return lambda: next(ticks) * 1e-4


POSITIONS = 12  # the first positions of each recorded match (all 40 take a minute)


def choices(rules: Rules, seed: int, play_rng: int, levels: tuple[str, ...]) -> list[dict[str, Any]]:
    rng = random.Random(play_rng)
    match = new_game(rules, seed)
    received: list[list[Event]] = [[] for _ in range(rules.n)]
    out: list[dict[str, Any]] = []
    while not match.over and len(out) < POSITIONS:
        seat = match.deal.turn
        assert seat is not None
        if rng.random() < 0.5:
            knowledge = knowledge_from_view(view_for(match, seat), received[seat])
            chosen = {}
            for level in levels:
                if level == "expert":
                    expert = ExpertBot(budget=0.03, max_worlds=6, clock=counting_clock())
                    action = expert.choose(knowledge, random.Random(len(out)))
                elif level == "hard":
                    action = HardBot(plies=2000, min_worlds=4, budget=None).choose(knowledge, random.Random(len(out)))
                else:
                    action = choose(level, knowledge, random.Random(len(out)))
                chosen[level] = asdict(action) | {"type": type(action).__name__}
            out.append({"seat": seat, "choices": chosen})
        action = pick(match, seat, rng)
        match, events = apply(match, seat, action)
        for s in range(rules.n):
            received[s].extend(events_for(events, s))
        if any(e.kind == "deal_started" for e in events):
            received = [[] for _ in range(rules.n)]
    return out


@pytest.mark.parametrize("index", range(14))
def test_the_computer_chooses_as_before_from_the_same_seeds(index: int) -> None:
    entry = golden()[index]
    rules = Rules.from_dict(entry["rules"])
    levels = ("easy", "medium", "hard") if rules.two_hand else ("easy", "medium")
    now = choices(rules, entry["seed"], entry["play_rng"], levels)
    before_all = entry["positions"][:POSITIONS]
    assert len(now) == len(before_all)
    for number, (mine, before) in enumerate(zip(now, before_all, strict=True)):
        assert mine["seat"] == before["seat"]
        for level in levels:
            assert mine["choices"][level] == before["choices"][level], (entry["rules"], number, level)
