"""The whole strength table of the computer levels: every game of the family × every step of the ladder.

    python bench/bot_table.py --quick            # a few minutes: a smoke-size table
    python bench/bot_table.py                    # the full size docs/bots.md records (hours)
    python bench/bot_table.py --deals 100 --matches 20 --games twohand,bidding4 --pairs hard:expert

For every game (``--games``: two-hand 1001, V1, McLeod, Rassel, 1000 for three and four, 1001 with
bidding for three and four, ``+v6`` for Jungfrau, ``+simplified`` for V4/V5's simplified scoring) and
every pairing ``weak:strong`` (``--pairs``, default ``hard:expert,medium:hard,easy:medium``; a level the
game is not played at is reported as such), it plays ``--deals`` duplicate deals and ``--matches``
matches to ``--target`` through ``bench/bots.py``'s runners — every bot deciding from its seat's view and
events, the server's path — and prints one row: the stronger level's points per deal with a 95%
interval (two seats: its deal score minus the weaker's, each deal played twice with the seats swapped;
three or four: the gain of its seat's score minus the others' mean over the weaker level in that seat,
same cards), its match wins with a 95% Wilson interval against the chance 1/seats, and the stronger
level's decision times (wall p95, CPU mean and p95, every decision of the deals and matches).

Strength reads the CPU clock (``--clock cpu``, the default): a deadline then means one core's worth of
thinking whatever the machine's load, so the figures do not depend on what else runs. Latency reads
the wall clock: run with ``--clock wall`` on a quiet machine for the server's decision times.
All the jobs of the table go to one pool of ``--workers`` processes, the longest first.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from bots import make_bot, play_duplicate, play_match, wilson

from backend.bots import LEVELS, levels_for
from backend.engine import VARIANTS, Rules
from backend.engine.shuffle import derive

GAMES = ("twohand", "mcleod", "rassel", "thousand3", "thousand4", "bidding3", "bidding4", "thousand3+v6")
ALL_GAMES = (*GAMES, "twohand-v1", "bidding4+v6", "thousand4+simplified")
PAIRS = ("hard:expert", "medium:hard", "easy:medium")
QUICK = {"deals": 3, "matches": 1, "target": 300}
FULL = {"deals": 300, "matches": 40, "target": 1000}


def rules_of(game: str, target: int) -> Rules:
    """The rules of a game spec: ``twohand``, ``twohand-v1`` (32 cards), a variant id, ``bidding3`` /
    ``bidding4`` (V7 by seats), each optionally ``+v6`` (Jungfrau) and ``+simplified`` (V4/V5)."""
    name, *options = game.split("+")
    unknown = set(options) - {"v6", "simplified"}
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))} in {game!r}")
    jungfrau = "v6" in options
    if name in ("twohand", "twohand-v1"):
        two_hand_target = min((1001, 501, 301), key=lambda t: abs(t - target))
        return Rules(target=two_hand_target, deck_size=32 if name == "twohand-v1" else 24, jungfrau=jungfrau)
    seats = None
    if name in ("bidding3", "bidding4"):
        name, seats = "bidding", int(name[-1])
    if name not in VARIANTS:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(ALL_GAMES)}")
    if "simplified" in options:
        return Rules(variant=name, seats=seats, target=None, scoring="simplified", jungfrau=jungfrau)
    offered = VARIANTS[name].targets
    return Rules(variant=name, seats=seats, target=min(offered, key=lambda t: abs(t - target)), jungfrau=jungfrau)


@dataclass
class Row:
    game: str
    weak: str
    strong: str
    rules: Rules
    gains: list[float]
    wins: int
    matches: int
    wall: list[float]
    cpu: list[float]


def _jobs(game: str, rules: Rules, weak: str, strong: str, args: argparse.Namespace) -> Iterable[tuple[Any, ...]]:
    """The duplicate deals and matches of one row; the same deals for every pairing of a game."""
    for i in range(args.deals):
        yield ("deal", game, (weak, strong, derive(args.seed, f"table:{game}:deal:{i}"), rules.to_dict()))
    for i in range(args.matches):
        seed = derive(args.seed, f"table:{game}:match:{i}")
        strong_seat = i % rules.n
        yield ("match", game, (weak, strong, strong_seat, seed, derive(seed, "rng"), rules.to_dict()))


def _run(job: tuple[Any, ...]) -> tuple[str, str, dict[str, Any]]:
    kind, game, payload = job
    return kind, game, (play_duplicate(payload) if kind == "deal" else play_match(payload))


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def _signed(value: float) -> str:
    return f"{value:+.1f}".replace("-", "−")


def _mean_interval(values: list[float]) -> str:
    if not values:
        return "– | –"
    mean = statistics.mean(values)
    if len(values) < 2:
        return f"{_signed(mean)} | –"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{_signed(mean)} | {_signed(mean - half)} … {_signed(mean + half)}"


def _row(row: Row) -> str:
    n = row.rules.n
    deals = _mean_interval(row.gains)
    if row.matches:
        lo, hi = wilson(row.wins, row.matches)
        matches = f"{row.wins}/{row.matches} | {row.wins / row.matches:.0%} | {lo:.0%}–{hi:.0%}"
    else:
        matches = "– | – | –"
    times = "– | – | –"
    if row.cpu:
        wall = f"{1000 * _p95(row.wall):.1f}" if row.wall else "–"
        times = f"{wall} | {1000 * statistics.mean(row.cpu):.1f} | {1000 * _p95(row.cpu):.1f}"
    return (
        f"| {row.game} | {row.strong} vs {row.weak} | {len(row.gains)} | {deals} | {matches} | {1 / n:.0%} "
        f"| {len(row.cpu)} | {times} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"smoke size: {QUICK}")
    parser.add_argument("--deals", type=int, default=None, help=f"duplicate deals per row (full: {FULL['deals']})")
    parser.add_argument("--matches", type=int, default=None, help=f"matches per row (full: {FULL['matches']})")
    parser.add_argument("--target", type=int, default=None, help="match target (the nearest a game offers)")
    parser.add_argument("--games", default=",".join(GAMES), help=f"comma-separated; 'all': {', '.join(ALL_GAMES)}")
    parser.add_argument("--pairs", default=",".join(PAIRS), help="weak:strong pairings, comma-separated")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="what the bots' deadlines read")
    args = parser.parse_args(argv)
    size = QUICK if args.quick else FULL
    for key in ("deals", "matches", "target"):
        if getattr(args, key) is None:
            setattr(args, key, size[key])
    os.environ["BENCH_EXPERT_CLOCK"] = args.clock  # read by make_bot, in the workers too

    games = ALL_GAMES if args.games == "all" else tuple(args.games.split(","))
    pairings = [tuple(p.split(":")) for p in args.pairs.split(",")]
    for level in {level for pair in pairings for level in pair}:
        if level.split("-")[0] not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(LEVELS)}")
    rows: dict[tuple[str, str, str], Row] = {}
    missing: list[str] = []
    jobs: list[tuple[Any, ...]] = []
    for game in games:
        rules = rules_of(game, args.target)
        offered = levels_for(rules)
        for weak, strong in pairings:
            if any(level.split("-")[0] not in offered for level in (weak, strong)):  # expert-noinfer: expert's
                missing.append(f"{game}: {strong} vs {weak} (levels: {', '.join(offered)})")
                continue
            for level in (weak, strong):
                make_bot(level, rules)  # refuses a bad ablation spec before the pool starts
            rows[(game, weak, strong)] = Row(game, weak, strong, rules, [], 0, 0, [], [])
            jobs.extend(_jobs(game, rules, weak, strong, args))
    jobs.sort(key=lambda job: job[0] != "match")  # the matches, the longest jobs, first

    print(
        f"# bot table: {len(games)} games × {len(pairings)} pairings, {args.deals} duplicate deals and "
        f"{args.matches} matches to ~{args.target} per row, seed {args.seed}, clock {args.clock}, "
        f"{args.workers} worker(s), Python {platform.python_version()}",
        flush=True,
    )
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for kind, game, result in pool.map(_run, jobs, chunksize=1):
            weak, strong = result["pairing"]
            row = rows[(game, weak, strong)]
            if kind == "deal":
                row.gains.append(result["gain"])
                row.wall.extend(result.get("times", {}).get(strong, []))
            else:
                row.matches += 1
                row.wins += result["strong_won"]
                row.wall.extend(result["times"].get(strong, []))
            row.cpu.extend(result["cpu"].get(strong, []))
    elapsed = time.perf_counter() - started

    print()
    print(
        "| game | pairing | duplicate deals | points/deal | 95% CI | matches won | win rate | 95% CI (Wilson) "
        "| chance | decisions | wall p95 ms | CPU mean ms | CPU p95 ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows.values():
        print(_row(row))
    for line in missing:
        print(f"not played: {line}")
    print()
    print(f"elapsed_seconds={elapsed:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
