"""Helpers for the variant bot tests (V2–V7): table rule sets, random positions reached through the
match API with the events every seat received."""

from __future__ import annotations

import dataclasses
import random

from backend.bots.table_players import TableHardBot
from backend.engine.table_deal import legal_table_actions, new_table_deal
from backend.engine.table_events import TableEvent
from backend.engine.table_match import TableMatchState, apply_table_match, new_table_match
from backend.engine.table_view import table_events_for_seat
from backend.engine.variants import TableRules

TABLE_RULES = (
    TableRules("mcleod", target=301),
    TableRules("rassel", target=300),
    TableRules("thousand3", target=301),
    TableRules("thousand4", target=301),
    TableRules("bidding", seats=3, target=301),
    TableRules("bidding", seats=4, target=301),
    TableRules("thousand3", scoring="simplified", jungfrau=True),
    TableRules("mcleod", target=301, jungfrau=True, open_scores=True),
)
TABLE_IDS = (
    "V2_mcleod",
    "V3_rassel",
    "V4_thousand3",
    "V5_thousand4",
    "V7_bidding3",
    "V7_bidding4",
    "V4_simplified_jungfrau",
    "V2_jungfrau_open",
)


def small_hard(level: str = "hard") -> TableHardBot:
    """A hard bot with a small budget and a clock that never moves: reproducible and quick for tests."""
    bot = TableHardBot(plies=1500, min_worlds=3, discard_options=3, clock=lambda: 0.0)
    bot.level = level
    return bot


def fresh_match(rules: TableRules, seed: int, totals: tuple[int, ...] | None = None) -> TableMatchState:
    """A new match; ``totals`` (e.g. near the target, V7.7) are given to its first deal."""
    match = new_table_match(rules, seed)
    if totals is None:
        return match
    deal = new_table_deal(rules, match.deal.seed or seed, match.deal.dealer, totals)
    return dataclasses.replace(match, deal=deal, totals=totals)


def random_table_position(
    rules: TableRules, rng: random.Random, near_target: bool = False
) -> tuple[TableMatchState, list[list[TableEvent]]]:
    """A match of ``rules`` played at random for a random number of actions within its first deal (which
    is not over), and the events every seat received."""
    totals = None
    if near_target:
        totals = tuple(rng.choice((0, rules.goal - 150, rules.goal - 100, rules.goal - 20)) for _ in range(rules.n))
    while True:
        match = fresh_match(rules, rng.randrange(1 << 40), totals)
        received: list[list[TableEvent]] = [[] for _ in range(rules.n)]
        steps = rng.randrange(40)
        for _ in range(steps):
            seat = match.deal.turn
            assert seat is not None
            actions = legal_table_actions(match.deal, seat)
            action = rng.choice(actions)
            nxt, events = apply_table_match(match, seat, action)
            if nxt.deal_number != match.deal_number or nxt.over:
                break
            match = nxt
            for s in range(rules.n):
                received[s].extend(table_events_for_seat(events, s))
        if match.deal.turn is not None and not match.over:
            return match, received
