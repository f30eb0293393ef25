"""Bot strength: whole matches between every pair of bot levels, with fixed seeds.

    python bench/bots.py [--matches 40] [--workers 2] [--seed 1001] [--levels easy,medium,hard]
                         [--target 1001] [--declaration-scoring by_suit] [--show-stock-bottom] [--deck-size 24]

For every pairing of two levels, ``--matches`` matches to the table target (1001 by
default) are played through the engine's match API (``new_match`` / ``match.apply``);
the two levels swap seats from one match to the next. Each bot decides from
``observe(deal, seat)`` — what its seat may see (R7) — with its own seeded
``random.Random``, so a run is reproducible. Prints each pairing's win rate with a
95% Wilson confidence interval, then decision-time statistics per level (every
decision, including forced ones).
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from backend.bots import bot_for, observe
from backend.engine.match import apply as match_apply
from backend.engine.match import new_match
from backend.engine.rules import Rules
from backend.engine.shuffle import derive


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _stats(samples: list[float]) -> str:
    """Mean, p95 and max of sorted durations, in milliseconds, as table cells."""
    p95 = samples[min(len(samples) - 1, math.ceil(0.95 * len(samples)) - 1)]
    return f"{1000 * statistics.mean(samples):.2f} | {1000 * p95:.2f} | {1000 * samples[-1]:.1f}"


def play_match(job: tuple[str, str, int, int, dict]) -> dict:
    """One match: ``levels[0]`` in seat 0. Returns the winner's level and decision times."""
    level0, level1, match_seed, rng_seed, rules_dict = job
    rules = Rules.from_dict(rules_dict)
    levels = (level0, level1)
    bots = (bot_for(level0), bot_for(level1))
    rngs = (random.Random(f"{rng_seed}:0"), random.Random(f"{rng_seed}:1"))
    times: dict[str, list[float]] = {level0: [], level1: []}
    cpu: dict[str, list[float]] = {level0: [], level1: []}
    match = new_match(rules, match_seed)
    deals = 0
    while not match.over:
        deal = match.deal
        seat = deal.turn
        knowledge = observe(deal, seat, match.totals)
        start, start_cpu = time.perf_counter(), time.process_time()
        play = bots[seat].choose(knowledge, rngs[seat])
        times[levels[seat]].append(time.perf_counter() - start)
        cpu[levels[seat]].append(time.process_time() - start_cpu)
        number = match.deal_number
        match, _ = match_apply(match, seat, play)
        if match.deal_number != number or match.over:
            deals += 1
    return {
        "levels": levels,
        "winner": levels[match.winner],
        "totals": match.totals,
        "deals": deals,
        "times": times,
        "cpu": cpu,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per pairing (default 40)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1001, help="base seed of the match seeds")
    parser.add_argument("--levels", default="easy,medium,hard", help="comma-separated levels to pair")
    parser.add_argument("--target", type=int, default=1001, choices=(1001, 501, 301))
    parser.add_argument("--declaration-scoring", default="by_suit", choices=("by_suit", "by_order"))
    parser.add_argument("--show-stock-bottom", action="store_true")
    parser.add_argument("--deck-size", type=int, default=24, choices=(24, 32), help="32: variant V1")
    args = parser.parse_args(argv)

    rules = Rules(
        target=args.target,
        declaration_scoring=args.declaration_scoring,
        show_stock_bottom=args.show_stock_bottom,
        deck_size=args.deck_size,
    )
    levels = args.levels.split(",")
    for level in levels:
        bot_for(level)
    pairings = list(itertools.combinations(levels, 2))
    jobs = []
    for a, b in pairings:
        for i in range(args.matches):
            seed = derive(args.seed, f"bots:{a}:{b}:{i}")
            first, second = (a, b) if i % 2 == 0 else (b, a)  # swap seats every match
            jobs.append((first, second, seed, derive(seed, "rng"), rules.to_dict()))

    print(
        f"# {len(jobs)} matches to {args.target}, {args.matches} per pairing, seed {args.seed}, "
        f"{args.workers} worker(s), Python {platform.python_version()}",
        flush=True,
    )
    started = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(play_match, jobs, chunksize=1))
    else:
        results = [play_match(job) for job in jobs]
    elapsed = time.perf_counter() - started

    print()
    print("| pairing | wins | win rate | 95% CI (Wilson) | deals/match |")
    print("|---|---|---|---|---|")
    for a, b in pairings:
        games = [r for r in results if set(r["levels"]) == {a, b}]
        stronger = b  # levels are listed weakest first; report the later one's wins
        wins = sum(1 for r in games if r["winner"] == stronger)
        lo, hi = wilson(wins, len(games))
        deals = statistics.mean(r["deals"] for r in games)
        print(
            f"| {stronger} vs {a} | {wins}/{len(games)} | {wins / len(games):.0%} | {lo:.0%}–{hi:.0%} | {deals:.1f} |"
        )

    print()
    print("| level | decisions | wall mean ms | wall p95 ms | wall max ms | CPU mean ms | CPU p95 ms | CPU max ms |")
    print("|---|---|---|---|---|---|---|---|")
    for level in levels:
        wall = sorted(t for r in results for t in r["times"].get(level, []))
        used = sorted(t for r in results for t in r["cpu"].get(level, []))
        if not wall:
            continue
        print(f"| {level} | {len(wall)} | {_stats(wall)} | {_stats(used)} |")
    print()
    print(f"elapsed_seconds={elapsed:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
