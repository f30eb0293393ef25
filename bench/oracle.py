"""Bot strength against cheating players: how far each level is from perfect information.

    python bench/oracle.py [--levels hard,expert] [--oracle exact] [--deals 30] [--matches 0]
                           [--workers 2] [--seed 1001] [--cap 3.0] [--target 1001]
                           [--declaration-scoring by_suit] [--show-stock-bottom] [--deck-size 24]
                           [--expert-clock wall|cpu]

Two yardsticks, never levels a player can choose (they read the true deal):

* ``exact`` — perfect information and (nearly) perfect play: alpha-beta with a
  transposition table over the rest of the deal with the true opponent hand and stock
  order (``backend.search``, the compiled core, over both phases). A phase-1 decision is solved to
  the end of the deal unless ``--cap`` seconds of CPU time pass first (then ``hard`` decides; the
  table is kept for the whole deal, so only the first decisions of a deal are ever capped); the run
  reports the share of phase-1 decisions that were exact.
* ``same_budget`` — ``hard``'s own search (medium-policy playouts, same budget) given the
  true opponent hand and stock order: the value of the information alone.
* ``hand`` — ``expert``'s own search (same deadline) given the true opponent hand but not
  the stock order: its worlds differ only in the order of the stock (the faced card kept at
  the bottom, R2). What a seat could at best learn about the opponent's hand is worth at
  most this much over ``expert``; the stock order stays a matter of chance for it.

``--deals N``: N deals, each played twice with the seats swapped (duplicate deals), bot
level against the oracle; prints the oracle's mean gain per deal (its deal score minus
the bot's, over all 2N deal games) with a 95% normal interval. ``--matches M``: M
matches to the target with seats swapped every match; prints the bot's wins with a 95%
Wilson interval. Fixed seeds; the deal results are reproducible except where a time cap
cut a search short.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import platform
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from bots import expert_options, make_bot, wilson

from backend.bots import SeatKnowledge, bot_for, observe
from backend.bots.twohand.expert import ExpertBot
from backend.bots.twohand.policy import DECLARE, cards_list
from backend.bots.twohand.sim import values_of
from backend.bots.worlds import World
from backend.engine import DealState, Play, Rules, apply, apply_deal, deal_actions, deal_result, new_deal, new_match
from backend.engine.shuffle import derive
from backend.search import Solver, Timeout


class ExactOracle:
    """Perfect information, alpha-beta to the end of the deal (capped at ``cap`` seconds per decision)."""

    name = "exact"

    def __init__(self, cap: float = 3.0) -> None:
        self.cap = cap
        self._deal: tuple[int, ...] | None = None
        self.search = Solver(clock=time.process_time)
        self.hard = bot_for("hard", Rules())
        self.decisions = 0
        self.exact = 0

    def choose(self, state: DealState, k: SeatKnowledge, rng: random.Random) -> Play:
        assert state.turn is not None
        legal = [play for play in deal_actions(state, state.turn) if isinstance(play, Play)]
        if len(legal) == 1:
            return legal[0]
        key = (*state.initial_stock, *state.initial_hands, state.rules.by_suit)
        if key != self._deal:  # a new deal: fresh tables
            self._deal = key
            self.search = Solver(state.rules.by_suit, clock=time.process_time)
        s = self.search
        me = state.turn
        pending = k.pending
        phase1 = bool(state.stock)
        s.deadline = time.process_time() + self.cap if phase1 else math.inf
        s.set_stock(state.stock)
        if phase1:
            self.decisions += 1
        hands = state.hands
        try:
            if state.trick:
                leader = state.leader
                values = s.follow_values(
                    state.trick[0], hands[leader], hands[me], state.trump, state.declared_suits, pending[leader],
                    pending[me],
                )  # fmt: skip
                order = sorted(values)
            else:
                args = (hands[me], hands[1 - me], state.trump, state.declared_suits, pending[me], pending[1 - me])
                values = s.lead_values(*args)
                order = list(values)
        except Timeout:
            play = self.hard.choose(k, rng)
            assert isinstance(play, Play)
            return play
        if phase1:
            self.exact += 1
        move = max(order, key=values.__getitem__)
        return Play(move & 31, bool(move & DECLARE))


class SameBudgetOracle:
    """``hard``'s Monte Carlo, but every world is the true one: its playouts (the medium policy for both
    seats, ``twohand.sim``) are deterministic, so every one of its worlds would give every play the same
    value, and one playout of each play in the true world picks what hard's budget of them would pick
    (the first best in the same order on ties). Phase 2 and forced plays: hard itself (the exact values of the core)."""

    name = "same_budget"

    def __init__(self) -> None:
        self.hard = bot_for("hard", Rules())

    def choose_state(self, state: DealState, k: SeatKnowledge, rng: random.Random) -> Play:
        if len(k.plays) == 1 or not k.stock_count:
            play = self.hard.choose(k, rng)
            assert isinstance(play, Play)
            return play
        truth = World(hands=state.hands, talon=0, discards=0, stock=list(state.stock))
        moves = [p.card | (DECLARE if p.declare else 0) for p in k.plays]
        values = values_of(k)(truth, moves)
        return k.plays[max(range(len(moves)), key=values.__getitem__)]


class HandOracle(ExpertBot):
    """``expert``'s search, every world holding the true opponent hand; only the stock order is guessed."""

    name = "hand"

    def __init__(self) -> None:
        super().__init__(**expert_options())
        self.opponent_hand = 0

    def _stock_cards(self, k: SeatKnowledge) -> tuple[list[int], list[int]]:
        """The stock's cards: those free to be in any order, and the faced bottom card if shown (R2)."""
        bottom = [] if k.stock_bottom is None else [k.stock_bottom]
        return [c for c in cards_list(k.unseen & ~self.opponent_hand) if c not in bottom], bottom

    def sample_worlds(self, k: SeatKnowledge, rng: random.Random) -> list[tuple[int, list[int]]]:
        free, bottom = self._stock_cards(k)
        worlds = []
        for _ in range(self.max_worlds):
            rng.shuffle(free)
            worlds.append((self.opponent_hand, free + bottom))
        return worlds

    def all_worlds(self, k: SeatKnowledge, limit: int) -> list[tuple[int, list[int]]] | None:
        free, bottom = self._stock_cards(k)
        if math.factorial(len(free)) > limit:
            return None
        return [(self.opponent_hand, [*order, *bottom]) for order in itertools.permutations(free)]

    def choose_state(self, state: DealState, k: SeatKnowledge, rng: random.Random) -> Play:
        self.opponent_hand = state.hands[1 - state.turn]
        return self.choose(k, rng)


def _oracle(name: str, cap: float) -> Any:
    if name == "exact":
        return ExactOracle(cap)
    return HandOracle() if name == "hand" else SameBudgetOracle()


def _decide(player: Any, state: DealState, seat: int, totals: tuple[int, ...], rng: random.Random) -> Play:
    k = observe(state, seat, totals)
    if isinstance(player, ExactOracle):
        return player.choose(state, k, rng)
    if isinstance(player, SameBudgetOracle | HandOracle):
        return player.choose_state(state, k, rng)
    play: Play = player.choose(k, rng)
    return play


def play_deal_pair(job: tuple[str, str, float, int, dict[str, Any]]) -> dict[str, Any]:
    """One deal, twice (the bot in either seat). Returns the oracle's score minus the bot's, per game."""
    level, oracle_name, cap, seed, rules_dict = job
    rules = Rules.from_dict(rules_dict)
    gains = []
    oracle = _oracle(oracle_name, cap)
    times: list[float] = []
    for bot_seat in (0, 1):
        players: list[Any] = [None, None]
        players[bot_seat] = make_bot(level, rules)
        players[1 - bot_seat] = oracle
        rng = random.Random(derive(seed, f"rng:{bot_seat}"))
        state = new_deal(rules, seed, derive(seed, "dealer") & 1)
        while state.turn is not None:
            seat = state.turn
            start = time.perf_counter()
            play = _decide(players[seat], state, seat, (0, 0), rng)
            if seat == bot_seat:
                times.append(time.perf_counter() - start)
            state, _ = apply_deal(state, seat, play)
        score = deal_result(state).score
        gains.append(score[1 - bot_seat] - score[bot_seat])
    exact = (oracle.exact, oracle.decisions) if isinstance(oracle, ExactOracle) else (0, 0)
    return {"gains": gains, "exact": exact, "times": times}


def play_match(job: tuple[str, str, float, int, int, dict[str, Any]]) -> dict[str, Any]:
    level, oracle_name, cap, seed, bot_seat, rules_dict = job
    rules = Rules.from_dict(rules_dict)
    players: list[Any] = [None, None]
    players[bot_seat] = make_bot(level, rules)
    oracle = _oracle(oracle_name, cap)
    players[1 - bot_seat] = oracle
    rng = random.Random(derive(seed, "rng"))
    match = new_match(rules, seed)
    deals = 0
    while not match.over:
        state = match.deal
        seat = state.turn
        assert seat is not None
        play = _decide(players[seat], state, seat, match.totals, rng)
        number = match.deal_number
        match, _ = apply(match, seat, play)
        if match.deal_number != number or match.over:
            deals += 1
    exact = (oracle.exact, oracle.decisions) if isinstance(oracle, ExactOracle) else (0, 0)
    return {"bot_won": match.winner == bot_seat, "deals": deals, "totals": match.totals, "exact": exact}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--levels", default="hard,expert")
    parser.add_argument("--oracle", default="exact", choices=("exact", "same_budget", "hand"))
    parser.add_argument("--deals", type=int, default=30, help="duplicate deals per level (each played twice)")
    parser.add_argument("--matches", type=int, default=0, help="matches to the target per level")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--seed", type=int, default=1001)
    parser.add_argument("--cap", type=float, default=3.0, help="exact oracle: seconds per phase-1 decision")
    parser.add_argument("--target", type=int, default=1001, choices=(1001, 501, 301))
    parser.add_argument("--declaration-scoring", default="by_suit", choices=("by_suit", "by_order"))
    parser.add_argument("--show-stock-bottom", action="store_true")
    parser.add_argument("--deck-size", type=int, default=24, choices=(24, 32))
    parser.add_argument("--expert-clock", choices=("wall", "cpu"), default="wall", help="see bench/bots.py")
    args = parser.parse_args(argv)
    os.environ["BENCH_EXPERT_CLOCK"] = args.expert_clock
    rules = Rules(
        target=args.target,
        declaration_scoring=args.declaration_scoring,
        show_stock_bottom=args.show_stock_bottom,
        deck_size=args.deck_size,
    )
    levels = args.levels.split(",")
    for level in levels:
        make_bot(level, rules)
    print(
        f"# oracle {args.oracle}, {args.deals} duplicate deals and {args.matches} matches per level, "
        f"seed {args.seed}, cap {args.cap}s, {args.workers} worker(s), expert clock {args.expert_clock}, "
        f"Python {platform.python_version()}",
        flush=True,
    )
    started = time.perf_counter()
    deal_jobs = [
        (level, args.oracle, args.cap, derive(args.seed, f"oracle-deal:{i}"), rules.to_dict())
        for level in levels
        for i in range(args.deals)
    ]
    match_jobs = [
        (level, args.oracle, args.cap, derive(args.seed, f"oracle-match:{i}"), i % 2, rules.to_dict())
        for level in levels
        for i in range(args.matches)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        deal_results = list(pool.map(play_deal_pair, deal_jobs, chunksize=1))
        match_results = list(pool.map(play_match, match_jobs, chunksize=1))
    elapsed = time.perf_counter() - started

    if deal_results:
        print()
        print(f"| level | deal games | {args.oracle} oracle's gain per deal | 95% CI | oracle exact |")
        print("|---|---|---|---|---|")
        for level in levels:
            rows = [r for job, r in zip(deal_jobs, deal_results, strict=True) if job[0] == level]
            gains = [g for r in rows for g in r["gains"]]
            # Duplicate pairs are the independent units: the interval uses the pair means.
            pairs = [statistics.mean(r["gains"]) for r in rows]
            mean = statistics.mean(gains)
            half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs)) if len(pairs) > 1 else math.inf
            exact = sum(r["exact"][0] for r in rows), sum(r["exact"][1] for r in rows)
            share = f"{exact[0] / exact[1]:.0%}" if exact[1] else "–"
            print(f"| {level} | {len(gains)} | {mean:+.1f} | {mean - half:+.1f} … {mean + half:+.1f} | {share} |")
    if match_results:
        print()
        print(f"| level | wins vs {args.oracle} oracle | win rate | 95% CI (Wilson) | deals/match |")
        print("|---|---|---|---|---|")
        for level in levels:
            rows = [r for job, r in zip(match_jobs, match_results, strict=True) if job[0] == level]
            wins = sum(r["bot_won"] for r in rows)
            lo, hi = wilson(wins, len(rows))
            deals = statistics.mean(r["deals"] for r in rows)
            print(f"| {level} | {wins}/{len(rows)} | {wins / len(rows):.0%} | {lo:.0%}–{hi:.0%} | {deals:.1f} |")
    print()
    print(f"elapsed_seconds={elapsed:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
