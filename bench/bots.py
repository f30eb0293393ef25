"""Bot strength: whole matches between every pair of bot levels, with fixed seeds.

    python bench/bots.py [--matches 40] [--workers 2] [--seed 1001] [--levels easy,medium,hard]
                         [--pairs medium:expert,hard:expert] [--deals 0] [--same-deals]
                         [--expert-clock wall|cpu]
                         [--target 1001] [--declaration-scoring by_suit] [--show-stock-bottom] [--deck-size 24]
    python bench/bots.py --variant ID [--seats N] [--table-pairs easy:hard,medium:hard] [--matches 6]
                         [--target 301] [--scoring original] [--jungfrau]

For every pairing of two levels, ``--matches`` matches to the table target (1001 by
default) are played through the engine's match API (``new_match`` / ``match.apply``);
the two levels swap seats from one match to the next. Each bot decides from
``observe(deal, seat)`` — what its seat may see (R7) — with its own seeded
``random.Random``, so a run is reproducible. Prints each pairing's win rate with a
95% Wilson confidence interval, then decision-time statistics per level (every
decision, including forced ones; also how many took more than 1 s of wall time).
``--pairs a:b,…`` replaces the all-pairs schedule of ``--levels``. ``--deals N`` adds N
duplicate deals per pairing (each deal played twice, seats swapped, match totals 0):
the later level's mean deal score advantage with a 95% normal interval over the pairs, and
the CPU time of every decision of those deals per level. ``--same-deals`` draws the
duplicate deals from ``--seed`` alone (not from the pairing's names), so that variants
are compared on the same deals.

``--variant ID`` (``mcleod``, ``rassel``, ``thousand3``, ``thousand4``, ``bidding``; ``--seats 3|4`` for
``bidding``) plays whole matches of that variant (RULES-VARIANTS.md) instead: for each pairing
``weak:strong`` of ``--table-pairs``, one seat of the stronger level against the weaker level in
every other seat, the stronger seat rotated through the seats from match to match. Every bot decides
through the server's own path, ``choose_table_action(level, table_seat_view(match, seat), events)``
with the events that seat received (``table_events_for_seat``). Prints the stronger level's win rate
(chance is 1/seats) with a 95% Wilson interval, its mean final total minus the mean of the other
seats', and decision times per level (wall and CPU: mean, p95, max) and per phase. ``--deals N``
adds N duplicate deals per pairing: each deal played with the stronger level in one seat and again with
the weaker level there (same cards, same other bots), the gain in that seat's deal score minus the mean
of the others', with a 95% normal interval.
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
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from backend.bots import ExpertBot, bot_for, observe
from backend.bots.table_players import choose_table_action
from backend.engine.deal import apply as deal_apply
from backend.engine.deal import deal_result, new_deal
from backend.engine.match import apply as match_apply
from backend.engine.match import new_match
from backend.engine.rules import Rules
from backend.engine.shuffle import derive
from backend.engine.table_deal import apply_table, new_table_deal, table_deal_result
from backend.engine.table_events import TableEvent
from backend.engine.table_match import apply_table_match, new_table_match
from backend.engine.table_view import table_events_for_seat, table_seat_view
from backend.engine.variants import VARIANTS, TableRules


def make_bot(spec: str) -> Any:
    """A level (``hard``) or an expert variant for ablations: ``expert-noinfer`` (uniform worlds),
    ``expert-nomatch`` (maximize the deal score), ``expert-depthN`` (search at most N tricks deep;
    0: playouts only), ``expert-worldsN``, ``expert-budgetS`` (seconds), combinable with ``+``
    (``expert-noinfer+nomatch``)."""
    if spec == "expert":
        return _expert(spec)
    if not spec.startswith("expert-"):
        return bot_for(spec)
    options: dict[str, Any] = {}
    for part in spec.removeprefix("expert-").split("+"):
        if part == "noinfer":
            options["infer"] = False
        elif part == "nomatch":
            options["match_aware"] = False
        elif part.startswith("depth"):
            options["max_depth"] = int(part.removeprefix("depth"))
        elif part.startswith("worlds"):
            options["max_worlds"] = int(part.removeprefix("worlds"))
        elif part.startswith("budget"):
            options["budget"] = float(part.removeprefix("budget"))
        else:
            raise ValueError(f"unknown expert variant {part!r}")
    return _expert(spec, **options)


def expert_options() -> dict[str, Any]:
    """The clock an expert's deadline reads, chosen by ``BENCH_EXPERT_CLOCK``: ``wall`` (the
    default, as in the server) or ``cpu`` (this process's CPU time: one core's worth of thinking
    whatever the machine's load)."""
    return {"clock": time.process_time} if os.environ.get("BENCH_EXPERT_CLOCK", "wall") == "cpu" else {}


def _expert(level: str, **options: Any) -> ExpertBot:
    """An expert with ``options`` thinking on the clock of ``expert_options``."""
    bot = ExpertBot(**(options | expert_options()))
    bot.level = level
    return bot


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
    bots = (make_bot(level0), make_bot(level1))
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


def play_deal_pair(job: tuple[str, str, int, dict]) -> dict:
    """One deal played twice, ``b`` in either seat. Returns ``b``'s deal score minus ``a``'s per game."""
    a, b, seed, rules_dict = job
    rules = Rules.from_dict(rules_dict)
    gains = []
    cpu: dict[str, list[float]] = {}
    for b_seat in (0, 1):
        names = [a, a]
        names[b_seat] = b
        bots = [make_bot(name) for name in names]
        rngs = (random.Random(f"{seed}:{b_seat}:0"), random.Random(f"{seed}:{b_seat}:1"))
        state = new_deal(rules, seed, derive(seed, "dealer") & 1)
        while not state.over:
            seat = state.turn
            start_cpu = time.process_time()
            play = bots[seat].choose(observe(state, seat), rngs[seat])
            cpu.setdefault(names[seat], []).append(time.process_time() - start_cpu)
            state, _ = deal_apply(state, seat, play)
        score = deal_result(state).score
        gains.append(score[b_seat] - score[1 - b_seat])
    return {"pairing": (a, b), "gains": gains, "cpu": cpu}


def play_table_match(job: tuple[str, str, int, int, int, dict]) -> dict:
    """One variant match: ``strong`` in seat ``strong_seat``, ``weak`` in the others. Returns the winner's
    seat, whether it was the strong one, the final totals and decision times per level and phase."""
    strong, weak, strong_seat, match_seed, rng_seed, rules_dict = job
    rules = TableRules.from_dict(rules_dict)
    n = rules.n
    levels = [weak] * n
    levels[strong_seat] = strong
    rngs = [random.Random(f"{rng_seed}:{seat}") for seat in range(n)]
    received: list[list[TableEvent]] = [[] for _ in range(n)]
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    match = new_table_match(rules, match_seed)
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        phase = match.deal.phase
        view = table_seat_view(match, seat)
        start, start_cpu = time.perf_counter(), time.process_time()
        action = choose_table_action(levels[seat], view, received[seat], rngs[seat])
        wall, used = time.perf_counter() - start, time.process_time() - start_cpu
        for key in (levels[seat], f"{levels[seat]} {phase}"):
            times.setdefault(key, []).append(wall)
            cpu.setdefault(key, []).append(used)
        match, events = apply_table_match(match, seat, action)
        for s in range(n):
            if any(e.kind == "deal_started" for e in events):
                received[s] = []  # the bots need the current deal's events only
            else:
                received[s].extend(table_events_for_seat(events, s))
    totals = match.totals
    others = [t for s, t in enumerate(totals) if s != strong_seat]
    return {
        "pairing": (weak, strong),
        "strong_won": match.winner == strong_seat,
        "margin": totals[strong_seat] - statistics.mean(others),
        "deals": len(match.history),
        "times": times,
        "cpu": cpu,
    }


def play_table_deal_pair(job: tuple[str, str, int, dict]) -> dict:
    """One variant deal played twice from the same cards: once with ``strong`` in seat ``seed % n`` and
    ``weak`` elsewhere, once with ``weak`` everywhere. Returns the gain of that seat's deal score minus
    the mean of the others' (match totals 0)."""
    weak, strong, seed, rules_dict = job
    rules = TableRules.from_dict(rules_dict)
    n = rules.n
    seat_of_interest = seed % n
    base = new_table_match(rules, seed)
    values = []
    for level in (strong, weak):
        levels = [weak] * n
        levels[seat_of_interest] = level
        state = new_table_deal(rules, seed, derive(seed, "dealer") % n)
        received: list[list[TableEvent]] = [[] for _ in range(n)]
        rngs = [random.Random(f"{seed}:{s}") for s in range(n)]
        while not state.over:
            seat = state.turn
            assert seat is not None
            view = table_seat_view(replace(base, deal=state), seat)
            action = choose_table_action(levels[seat], view, received[seat], rngs[seat])
            state, events = apply_table(state, seat, action)
            for s in range(n):
                received[s].extend(table_events_for_seat(events, s))
        score = table_deal_result(state).score
        values.append(score[seat_of_interest] - (sum(score) - score[seat_of_interest]) / (n - 1))
    return {"pairing": (weak, strong), "gain": values[0] - values[1]}


def _variant_target(variant: str, target: int) -> int:
    """The variant's offered target nearest to ``target`` (1001 → 1000 for rassel, ruling V3.9a)."""
    return min(VARIANTS[variant].targets, key=lambda t: abs(t - target))


def variant_main(args: argparse.Namespace) -> int:
    rules = TableRules(
        variant=args.variant,
        seats=args.seats,
        target=None if args.scoring == "simplified" else _variant_target(args.variant, args.target),
        scoring=args.scoring,
        jungfrau=args.jungfrau,
    )
    pairings = [(p.split(":")[0], p.split(":")[1]) for p in args.table_pairs.split(",")]
    jobs = []
    for weak, strong in pairings:
        for i in range(args.matches):
            seed = derive(args.seed, f"table:{args.variant}:{rules.n}:{weak}:{strong}:{i}")
            jobs.append((strong, weak, i % rules.n, seed, derive(seed, "rng"), rules.to_dict()))
    print(
        f"# {args.variant} ({rules.game.rule}), {rules.n} seats, target {rules.goal}, scoring {rules.scoring}, "
        f"jungfrau {rules.jungfrau}: {len(jobs)} matches, {args.matches} per pairing, seed {args.seed}, "
        f"{args.workers} worker(s), Python {platform.python_version()}",
        flush=True,
    )
    deal_jobs = [
        (weak, strong, derive(args.seed, f"table-duplicate:{args.variant}:{weak}:{strong}:{i}"), rules.to_dict())
        for weak, strong in pairings
        for i in range(args.deals)
    ]
    started = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            deal_results = list(pool.map(play_table_deal_pair, deal_jobs, chunksize=1))
            results = list(pool.map(play_table_match, jobs, chunksize=1))
    else:
        deal_results = [play_table_deal_pair(job) for job in deal_jobs]
        results = [play_table_match(job) for job in jobs]
    elapsed = time.perf_counter() - started
    if deal_results:
        print()
        print("| pairing | duplicate deals | gain per deal | 95% CI |")
        print("|---|---|---|---|")
        for weak, strong in pairings:
            gains = [r["gain"] for r in deal_results if r["pairing"] == (weak, strong)]
            mean = statistics.mean(gains)
            half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
            print(f"| {strong} for {weak} | {len(gains)} | {mean:+.1f} | {mean - half:+.1f} … {mean + half:+.1f} |")
    if not results:
        print()
        print(f"elapsed_seconds={elapsed:.0f}")
        return 0
    print()
    print("| pairing | stronger wins | win rate | 95% CI (Wilson) | chance | margin/match | deals/match |")
    print("|---|---|---|---|---|---|---|")
    for weak, strong in pairings:
        games = [r for r in results if r["pairing"] == (weak, strong)]
        wins = sum(1 for r in games if r["strong_won"])
        lo, hi = wilson(wins, len(games))
        margin = statistics.mean(r["margin"] for r in games)
        deals = statistics.mean(r["deals"] for r in games)
        print(
            f"| 1 {strong} vs {rules.n - 1} {weak} | {wins}/{len(games)} | {wins / len(games):.0%} | "
            f"{lo:.0%}–{hi:.0%} | {1 / rules.n:.0%} | {margin:+.0f} | {deals:.1f} |"
        )
    print()
    print(
        "| level (phase) | decisions | wall mean ms | wall p95 ms | wall max ms | CPU mean ms | CPU p95 ms "
        "| CPU max ms |"
    )
    print("|---|---|---|---|---|---|---|---|")
    keys = sorted({key for r in results for key in r["times"]})
    for key in keys:
        wall = sorted(t for r in results for t in r["times"].get(key, []))
        used = sorted(t for r in results for t in r["cpu"].get(key, []))
        print(f"| {key} | {len(wall)} | {_stats(wall)} | {_stats(used)} |")
    print()
    print(f"elapsed_seconds={elapsed:.0f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per pairing (default 40)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1001, help="base seed of the match seeds")
    parser.add_argument("--levels", default="easy,medium,hard", help="comma-separated levels to pair")
    parser.add_argument("--pairs", default="", help="weaker:stronger pairings, comma-separated (instead of --levels)")
    parser.add_argument("--deals", type=int, default=0, help="duplicate deals per pairing (default 0)")
    parser.add_argument(
        "--same-deals",
        action="store_true",
        help="duplicate deals independent of the pairing's names (compare variants on the same deals)",
    )
    parser.add_argument(
        "--expert-clock", choices=("wall", "cpu"), default="wall", help="the clock of expert's deadline (default wall)"
    )
    parser.add_argument("--target", type=int, default=1001, choices=(1001, 501, 301, 1000, 500, 300))
    parser.add_argument("--declaration-scoring", default="by_suit", choices=("by_suit", "by_order"))
    parser.add_argument("--show-stock-bottom", action="store_true")
    parser.add_argument("--deck-size", type=int, default=24, choices=(24, 32), help="32: variant V1")
    parser.add_argument("--variant", choices=tuple(VARIANTS), help="play matches of a variant V2–V7 instead")
    parser.add_argument("--seats", type=int, default=None, help="with --variant bidding: 3 or 4 seats")
    parser.add_argument(
        "--table-pairs", default="easy:hard,medium:hard", help="with --variant: weak:strong pairings, comma-separated"
    )
    parser.add_argument("--scoring", default="original", choices=("original", "simplified"), help="V4/V5 scoring")
    parser.add_argument("--jungfrau", action="store_true", help="the V6 option")
    args = parser.parse_args(argv)
    if args.variant:
        return variant_main(args)
    os.environ["BENCH_EXPERT_CLOCK"] = args.expert_clock  # read by make_bot, in the workers too

    rules = Rules(
        target=args.target,
        declaration_scoring=args.declaration_scoring,
        show_stock_bottom=args.show_stock_bottom,
        deck_size=args.deck_size,
    )
    if args.pairs:
        pairings = [(p.split(":")[0], p.split(":")[1]) for p in args.pairs.split(",")]
        levels = list(dict.fromkeys(level for pair in pairings for level in pair))
    else:
        levels = args.levels.split(",")
        pairings = list(itertools.combinations(levels, 2))
    for level in levels:
        make_bot(level)
    jobs = []
    for a, b in pairings:
        for i in range(args.matches):
            seed = derive(args.seed, f"bots:{a}:{b}:{i}")
            first, second = (a, b) if i % 2 == 0 else (b, a)  # swap seats every match
            jobs.append((first, second, seed, derive(seed, "rng"), rules.to_dict()))

    print(
        f"# {len(jobs)} matches to {args.target}, {args.matches} per pairing, seed {args.seed}, "
        f"{args.workers} worker(s), expert clock {args.expert_clock}, Python {platform.python_version()}",
        flush=True,
    )
    started = time.perf_counter()
    deal_jobs = [
        (a, b, derive(args.seed, f"duplicate:{i}" if args.same_deals else f"duplicate:{a}:{b}:{i}"), rules.to_dict())
        for a, b in pairings
        for i in range(args.deals)
    ]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            deal_results = list(pool.map(play_deal_pair, deal_jobs, chunksize=1))
            results = list(pool.map(play_match, jobs, chunksize=1))
    else:
        deal_results = [play_deal_pair(job) for job in deal_jobs]
        results = [play_match(job) for job in jobs]
    elapsed = time.perf_counter() - started

    if deal_results:
        print()
        print("| pairing | duplicate deals | points per deal | 95% CI |")
        print("|---|---|---|---|")
        for a, b in pairings:
            pairs = [statistics.mean(r["gains"]) for r in deal_results if r["pairing"] == (a, b)]
            mean = statistics.mean(pairs)
            half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs)) if len(pairs) > 1 else math.inf
            print(f"| {b} vs {a} | {len(pairs)} | {mean:+.1f} | {mean - half:+.1f} … {mean + half:+.1f} |")
        print()
        print("| level (duplicate deals) | decisions | CPU mean ms | CPU p95 ms | CPU max ms |")
        print("|---|---|---|---|---|")
        for level in levels:
            used = sorted(t for r in deal_results for t in r["cpu"].get(level, []))
            if used:
                print(f"| {level} | {len(used)} | {_stats(used)} |")
    if not results:
        print()
        print(f"elapsed_seconds={elapsed:.0f}")
        return 0

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
    print(
        "| level | decisions | wall mean ms | wall p95 ms | wall max ms | CPU mean ms | CPU p95 ms | CPU max ms "
        "| wall > 1 s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for level in levels:
        wall = sorted(t for r in results for t in r["times"].get(level, []))
        used = sorted(t for r in results for t in r["cpu"].get(level, []))
        if not wall:
            continue
        slow = sum(1 for t in wall if t > 1.0)
        print(f"| {level} | {len(wall)} | {_stats(wall)} | {_stats(used)} | {slow} |")
    print()
    print(f"elapsed_seconds={elapsed:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
