"""Bot strength: whole matches and duplicate deals between bot levels, in every game, with fixed seeds.

    python bench/bots.py [--matches 40] [--workers 2] [--seed 1001] [--levels easy,medium,hard]
                         [--pairs medium:expert,hard:expert] [--deals 0] [--same-deals]
                         [--expert-clock wall|cpu] [--progress N]
                         [--target 1001] [--declaration-scoring by_suit] [--show-stock-bottom] [--deck-size 24]
    python bench/bots.py --variant ID [--seats N] [--pairs easy:hard,medium:hard] [--matches 6]
                         [--target 301] [--scoring original] [--jungfrau]

Without ``--variant`` the game is two-hand 1001 (RULES.md, its table options as flags); ``--variant ID``
(``mcleod``, ``rassel``, ``thousand3``, ``thousand4``, ``bidding``; ``--seats 3|4`` for ``bidding``)
plays a game of three or four (RULES-VARIANTS.md) instead.

For every pairing ``weak:strong`` — ``--pairs``, else every pair of ``--levels`` (the later level the
stronger; with ``--variant`` the default is ``easy:hard,medium:hard``) — ``--matches`` matches to the
table target are played through the engine's match API: one seat of the stronger level against the
weaker level in every other seat, the stronger seat rotated from match to match (with two seats: the
levels swap seats). Every bot decides through the server's own path: ``knowledge_from_view`` of its
``view_for(match, seat)`` and the events that seat received (``events_for``), with its own seeded
``random.Random``, so a run is reproducible (but where a deadline cuts a search short). Prints the
stronger level's wins with a 95% Wilson interval (chance is 1/seats), its mean final total minus the
mean of the other seats', and the time of every decision per level (and per phase where there are
several), forced ones included: wall and CPU mean, p95, max, and how many took over 1 s of wall time.

``--deals N`` adds N duplicate deals per pairing (match totals 0), with a 95% normal interval over them:
with two seats each deal is played twice, the levels swapping seats — the stronger level's mean deal
score advantage; with three or four it is played with the stronger level in seat ``seed % n`` and the
weaker elsewhere, and again with the weaker level in that seat too (same cards, same other bots) — the
gain in that seat's deal score minus the mean of the others'. Also the CPU time of every decision of
those deals per level. ``--same-deals`` draws the duplicate deals from ``--seed`` alone (not from the
pairing's names), so that levels are compared on the same deals. ``--progress N`` prints the running figures
every N duplicate deals (in deal order: a run stopped early has measured its first deals); the two-hand
expert's worlds solved to the end per phase-1 decision are printed by trick.

``expert`` and its variants for ablations (``make_bot``) play every game (``--pairs hard:expert``).
"""

from __future__ import annotations

import argparse
import copy as copy_module
import itertools
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from backend.bots import ExpertBot, TableExpertBot, bot_for, knowledge_from_view
from backend.bots.levels import Bot
from backend.bots.play import objective
from backend.engine import (
    VARIANTS,
    DealState,
    Event,
    MatchState,
    Rules,
    apply,
    deal_result,
    events_for,
    new_deal,
    new_match,
    view_for,
)
from backend.engine.shuffle import derive


def make_bot(spec: str, rules: Rules | None = None) -> Bot:
    """The bot of a level for ``rules`` (default two-hand 1001), or an expert variant for ablations:
    ``expert-noinfer`` (uniform worlds), ``expert-nomatch`` (maximize the deal score), ``expert-worldsN``,
    ``expert-budgetS`` (seconds),
    ``expert-discardsN`` (three and four: the talon pairs searched),
    combinable with ``+`` (``expert-noinfer+nomatch``)."""
    rules = rules or Rules()
    if spec != "expert" and not spec.startswith("expert-"):
        return _on_bench_clock(bot_for(spec, rules))
    bot_for("expert", rules)
    options: dict[str, Any] = {}
    parts = spec.removeprefix("expert-").split("+") if spec.startswith("expert-") else []
    for part in parts:
        if part == "noinfer":
            options["infer"] = False
        elif part == "nomatch":
            options["match_aware"] = False
        elif part.startswith("worlds"):
            options["max_worlds"] = int(part.removeprefix("worlds"))
        elif part.startswith("discards") and not rules.two_hand:
            options["discard_options"] = int(part.removeprefix("discards"))
        elif part.startswith("budget"):
            options["budget"] = float(part.removeprefix("budget"))
        else:
            raise ValueError(f"unknown expert variant {part!r}")
    bot: ExpertBot | TableExpertBot = (ExpertBot if rules.two_hand else TableExpertBot)(**(options | expert_options()))
    bot.level = spec
    return bot


def _on_bench_clock(bot: Bot) -> Bot:
    """A registry bot whose deadline reads the bench's clock (``BENCH_EXPERT_CLOCK``): with ``cpu`` the
    games of three and four's ``hard`` thinks for one core's time too, so a loaded machine does not
    weaken it against an expert on the CPU clock."""
    clock = expert_options().get("clock")
    if clock is None or not hasattr(bot, "clock"):
        return bot
    copy = copy_module.copy(bot)
    copy.clock = clock  # type: ignore[attr-defined]
    return copy


def expert_options() -> dict[str, Any]:
    """The clock an expert's deadline reads, chosen by ``BENCH_EXPERT_CLOCK``: ``wall`` (the
    default, as in the server) or ``cpu`` (this process's CPU time: one core's worth of thinking
    whatever the machine's load)."""
    return {"clock": time.process_time} if os.environ.get("BENCH_EXPERT_CLOCK", "wall") == "cpu" else {}


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


def _interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval."""
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return statistics.mean(values), half


class Table:
    """Bots of the given levels in the seats, each deciding from what its seat was sent (the server's
    path), with the time of every decision recorded per level and per ``level phase``."""

    def __init__(self, rules: Rules, levels: Sequence[str], rngs: Sequence[random.Random]) -> None:
        self.rules = rules
        self.levels = list(levels)
        self.bots = [make_bot(level, rules) for level in levels]
        self.rngs = list(rngs)
        self.received: list[list[Event]] = [[] for _ in levels]
        self.times: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}
        # two-hand expert, per phase-1 trick (0-based): (worlds solved to the end, worlds) of each decision
        self.solved: dict[int, list[tuple[int, int]]] = {}

    def step(self, match: MatchState) -> MatchState:
        """The seat to move decides and its action is applied; every seat receives its events."""
        seat = match.deal.turn
        assert seat is not None
        knowledge = knowledge_from_view(view_for(match, seat), self.received[seat])
        start, start_cpu = time.perf_counter(), time.process_time()
        action = self.bots[seat].choose(knowledge, self.rngs[seat])
        wall, used = time.perf_counter() - start, time.process_time() - start_cpu
        level = self.levels[seat]
        bot = self.bots[seat]
        if isinstance(bot, ExpertBot) and knowledge.stock_count and len(knowledge.plays) > 1:
            solved = bot.last_solved
            self.solved.setdefault(len(knowledge.tricks), []).append((sum(solved), len(solved)))
        for key in (level, f"{level} {match.deal.phase}"):
            self.times.setdefault(key, []).append(wall)
            self.cpu.setdefault(key, []).append(used)
        match, events = apply(match, seat, action)
        for s, received in enumerate(self.received):
            if any(e.kind == "deal_started" for e in events):
                received.clear()  # the bots need the current deal's events only
            else:
                received.extend(events_for(events, s))
        return match

    def play_deal(self, base: MatchState, deal: DealState) -> tuple[int, ...]:
        """Play ``deal`` to its end (at ``base``'s match totals); its score sheet."""
        match = replace(base, deal=deal)
        while not match.deal.over:
            match = self.step(match)
            if match.deal_number != base.deal_number:  # the match moved on: the deal is in its history
                return match.history[-1].result.score
        return deal_result(match.deal).score


def play_match(job: tuple[str, str, int, int, int, dict[str, Any]]) -> dict[str, Any]:
    """One match: ``strong`` in seat ``strong_seat``, ``weak`` in the others. Returns whether the strong
    seat won, its final total minus the mean of the others', the number of deals and the decision times."""
    weak, strong, strong_seat, match_seed, rng_seed, rules_dict = job
    rules = Rules.from_dict(rules_dict)
    levels = [weak] * rules.n
    levels[strong_seat] = strong
    table = Table(rules, levels, [random.Random(f"{rng_seed}:{seat}") for seat in range(rules.n)])
    match = new_match(rules, match_seed)
    while not match.over:
        match = table.step(match)
    return {
        "pairing": (weak, strong),
        "strong_won": match.winner == strong_seat,
        "margin": objective(list(match.totals), strong_seat),
        "deals": len(match.history),
        "times": table.times,
        "cpu": table.cpu,
    }


def play_duplicate(job: tuple[str, str, int, dict[str, Any]]) -> dict[str, Any]:
    """One deal, played more than once from the same cards (see the module docstring): with two seats
    the stronger level's score minus the weaker's, in either seat; with more, its seat's deal score
    minus the mean of the others' with the stronger level there, then with the weaker."""
    weak, strong, seed, rules_dict = job
    rules = Rules.from_dict(rules_dict)
    n = rules.n
    dealer = derive(seed, "dealer") % n
    base = new_match(rules, seed)
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}
    solved: dict[int, list[tuple[int, int]]] = {}
    values = []
    if n == 2:  # the levels swap seats (duplicate deals)
        for strong_seat in (0, 1):
            levels = [weak, weak]
            levels[strong_seat] = strong
            rngs = [random.Random(f"{seed}:{strong_seat}:{seat}") for seat in (0, 1)]
            table = Table(rules, levels, rngs)
            score = table.play_deal(base, new_deal(rules, seed, dealer))
            values.append(objective(list(score), strong_seat))
            for level in set(levels):
                cpu.setdefault(level, []).extend(table.cpu.get(level, []))
                wall.setdefault(level, []).extend(table.times.get(level, []))
            for trick, rows in table.solved.items():
                solved.setdefault(trick, []).extend(rows)
        return {"pairing": (weak, strong), "gain": statistics.mean(values), "cpu": cpu, "times": wall, "solved": solved}
    seat_of_interest = seed % n
    for level in (strong, weak):  # the stronger level in that seat, then the weaker
        levels = [weak] * n
        levels[seat_of_interest] = level
        table = Table(rules, levels, [random.Random(f"{seed}:{seat}") for seat in range(n)])
        score = table.play_deal(base, new_deal(rules, seed, dealer))
        values.append(objective(list(score), seat_of_interest))
        for name in set(levels):
            cpu.setdefault(name, []).extend(table.cpu.get(name, []))
            wall.setdefault(name, []).extend(table.times.get(name, []))
    return {"pairing": (weak, strong), "gain": values[0] - values[1], "cpu": cpu, "times": wall}


def _collect(results: Iterable[dict[str, Any]], every: int, started: float) -> list[dict[str, Any]]:
    """The duplicate deals' results in deal order; every ``every`` deals (0: never) the running mean with its
    interval per pairing and the CPU p95 per level so far, so that a run stopped early still reports the
    figures of its first deals."""
    out: list[dict[str, Any]] = []
    for result in results:
        out.append(result)
        if every and len(out) % every == 0:
            pairings = dict.fromkeys(r["pairing"] for r in out)
            parts = []
            for pairing in pairings:
                mean, half = _interval([r["gain"] for r in out if r["pairing"] == pairing])
                parts.append(f"{pairing[1]} vs {pairing[0]} {mean:+.1f} ({mean - half:+.1f} … {mean + half:+.1f})")
            levels = dict.fromkeys(level for r in out for level in r["cpu"])
            for level in levels:
                used = sorted(t for r in out for t in r["cpu"].get(level, []))
                parts.append(
                    f"{level} CPU p95 {1000 * used[min(len(used) - 1, math.ceil(0.95 * len(used)) - 1)]:.0f} ms"
                )
            elapsed = time.perf_counter() - started
            print(f"# after {len(out)} deals ({elapsed:.0f} s): " + "; ".join(parts), flush=True)
    return out


def _print_solved(deal_results: list[dict[str, Any]]) -> None:
    """The two-hand expert's worlds solved to the end of the deal per phase-1 decision, by trick."""
    by_trick: dict[int, list[tuple[int, int]]] = {}
    for r in deal_results:
        for trick, rows in r.get("solved", {}).items():
            by_trick.setdefault(trick, []).extend(rows)
    if not by_trick:
        return
    print()
    print("| expert, phase-1 trick | decisions | worlds solved (mean) | worlds (mean) | all solved |")
    print("|---|---|---|---|---|")
    for trick in sorted(by_trick):
        rows = by_trick[trick]
        done = statistics.mean(a for a, _ in rows)
        worlds = statistics.mean(b for _, b in rows)
        every = sum(1 for a, b in rows if a == b) / len(rows)
        print(f"| {trick + 1} | {len(rows)} | {done:.1f} | {worlds:.1f} | {every:.0%} |")


def _rules(args: argparse.Namespace) -> Rules:
    if not args.variant:
        return Rules(
            target=args.target,
            declaration_scoring=args.declaration_scoring,
            show_stock_bottom=args.show_stock_bottom,
            deck_size=args.deck_size,
        )
    simplified = args.scoring == "simplified"
    target = min(VARIANTS[args.variant].targets, key=lambda t: abs(t - args.target))  # 1001 → 1000 for rassel
    return Rules(
        variant=args.variant,
        seats=args.seats,
        target=None if simplified else target,
        scoring=args.scoring,
        jungfrau=args.jungfrau,
    )


def _seeds(args: argparse.Namespace, rules: Rules, weak: str, strong: str, i: int) -> tuple[int, int]:
    """A match's seed (the names of the two-hand and the variant runs of earlier versions, so that their
    published results replay) and a duplicate deal's."""
    if rules.two_hand:
        match = derive(args.seed, f"bots:{weak}:{strong}:{i}")
        deal = derive(args.seed, f"duplicate:{i}" if args.same_deals else f"duplicate:{weak}:{strong}:{i}")
    else:
        match = derive(args.seed, f"table:{rules.variant}:{rules.n}:{weak}:{strong}:{i}")
        deal = derive(
            args.seed,
            f"table-duplicate:{i}" if args.same_deals else f"table-duplicate:{rules.variant}:{weak}:{strong}:{i}",
        )
    return match, deal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per pairing (default 40)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1001, help="base seed of the match seeds")
    parser.add_argument("--levels", default="easy,medium,hard", help="comma-separated levels to pair")
    parser.add_argument(
        "--pairs", "--table-pairs", default="", help="weaker:stronger pairings, comma-separated (instead of --levels)"
    )
    parser.add_argument("--deals", type=int, default=0, help="duplicate deals per pairing (default 0)")
    parser.add_argument(
        "--progress", type=int, default=0, metavar="N", help="print the running figures every N duplicate deals"
    )
    parser.add_argument(
        "--same-deals",
        action="store_true",
        help="duplicate deals independent of the pairing's names (compare levels on the same deals)",
    )
    parser.add_argument(
        "--expert-clock", choices=("wall", "cpu"), default="wall", help="the clock of expert's deadline (default wall)"
    )
    parser.add_argument("--target", type=int, default=1001, choices=(1001, 501, 301, 1000, 500, 300))
    parser.add_argument("--declaration-scoring", default="by_suit", choices=("by_suit", "by_order"))
    parser.add_argument("--show-stock-bottom", action="store_true")
    parser.add_argument("--deck-size", type=int, default=24, choices=(24, 32), help="32: variant V1")
    parser.add_argument(
        "--variant", choices=tuple(v for v in VARIANTS if v != "twohand"), help="a game of three or four (V2–V7)"
    )
    parser.add_argument("--seats", type=int, default=None, help="with --variant bidding: 3 or 4 seats")
    parser.add_argument("--scoring", default="original", choices=("original", "simplified"), help="V4/V5 scoring")
    parser.add_argument("--jungfrau", action="store_true", help="the V6 option")
    args = parser.parse_args(argv)
    os.environ["BENCH_EXPERT_CLOCK"] = args.expert_clock  # read by make_bot, in the workers too

    rules = _rules(args)
    n = rules.n
    if args.pairs or args.variant:
        pairs = args.pairs or "easy:hard,medium:hard"
        pairings = [(p.split(":")[0], p.split(":")[1]) for p in pairs.split(",")]
        levels = list(dict.fromkeys(level for pair in pairings for level in pair))
    else:
        levels = args.levels.split(",")
        pairings = list(itertools.combinations(levels, 2))
    for level in levels:
        make_bot(level, rules)
    jobs, deal_jobs = [], []
    for weak, strong in pairings:
        for i in range(max(args.matches, args.deals)):
            match_seed, deal_seed = _seeds(args, rules, weak, strong, i)
            if i < args.matches:
                # the stronger seat rotated (two seats: the levels swap), from seat 1 with two as ever before
                strong_seat = (i + 1) % 2 if n == 2 else i % n
                jobs.append((weak, strong, strong_seat, match_seed, derive(match_seed, "rng"), rules.to_dict()))
            if i < args.deals:
                deal_jobs.append((weak, strong, deal_seed, rules.to_dict()))

    options = f"target {rules.goal}"
    if rules.two_hand:
        options += f", {rules.declaration_scoring}, stock bottom {rules.show_stock_bottom}, {rules.deck_size} cards"
    else:
        options += f", scoring {rules.scoring}, jungfrau {rules.jungfrau}"
    print(
        f"# {rules.variant} ({rules.game.rule}), {n} seats, {options}: {len(jobs)} matches, {args.matches} per "
        f"pairing, {args.deals} duplicate deals per pairing, seed {args.seed}, {args.workers} worker(s), "
        f"expert clock {args.expert_clock}, Python {platform.python_version()}",
        flush=True,
    )
    started = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            deal_results = _collect(pool.map(play_duplicate, deal_jobs, chunksize=1), args.progress, started)
            results = list(pool.map(play_match, jobs, chunksize=1))
    else:
        deal_results = _collect((play_duplicate(job) for job in deal_jobs), args.progress, started)
        results = [play_match(job) for job in jobs]
    elapsed = time.perf_counter() - started

    if deal_results:
        measure = "points per deal" if n == 2 else "gain per deal"
        print()
        print(f"| pairing | duplicate deals | {measure} | 95% CI |")
        print("|---|---|---|---|")
        for weak, strong in pairings:
            mean, half = _interval([r["gain"] for r in deal_results if r["pairing"] == (weak, strong)])
            label = f"{strong} vs {weak}" if n == 2 else f"{strong} for {weak}"  # in one seat, for the weaker
            print(f"| {label} | {args.deals} | {mean:+.1f} | {mean - half:+.1f} … {mean + half:+.1f} |")
        print()
        print("| level (duplicate deals) | decisions | CPU mean ms | CPU p95 ms | CPU max ms |")
        print("|---|---|---|---|---|")
        for level in levels:
            used = sorted(t for r in deal_results for t in r["cpu"].get(level, []))
            if used:
                print(f"| {level} | {len(used)} | {_stats(used)} |")
        _print_solved(deal_results)
    if results:
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
                f"| 1 {strong} vs {n - 1} {weak} | {wins}/{len(games)} | {wins / len(games):.0%} | "
                f"{lo:.0%}–{hi:.0%} | {1 / n:.0%} | {margin:+.0f} | {deals:.1f} |"
            )
        print()
        print(
            "| level (phase) | decisions | wall mean ms | wall p95 ms | wall max ms | CPU mean ms | CPU p95 ms "
            "| CPU max ms | wall > 1 s |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        keys = sorted({key for r in results for key in r["times"]})
        for key in keys:
            level = key.split(" ")[0]
            phases = {k for k in keys if k.startswith(f"{level} ")}
            if " " in key and len(phases) == 1:
                continue  # one phase only (two-hand 1001, V4, V5): the level's row says it all
            wall = sorted(t for r in results for t in r["times"].get(key, []))
            used = sorted(t for r in results for t in r["cpu"].get(key, []))
            slow = sum(1 for t in wall if t > 1.0)
            print(f"| {key} | {len(wall)} | {_stats(wall)} | {_stats(used)} | {slow} |")
    print()
    print(f"elapsed_seconds={elapsed:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
