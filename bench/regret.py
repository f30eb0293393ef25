"""Decision quality against perfect information: each level's regret on single phase-1 decisions.

    python bench/regret.py --trick 3 --positions 40 [--levels hard,expert,expert-noinfer] [--seed 11]
                           [--expert-clock cpu]

Positions come from ``medium`` against ``medium`` (the ``--trick``-th trick, 0-based, on
lead or following at random). Each level's play is scored by its exact value in the true
deal (the search core, ``backend.search``, to the end of the deal, true opponent hand and stock order) minus
the best play's: the regret against perfect information, mean and 95% interval, and
paired against the first level. Levels are names of ``bench/bots.py``'s ``make_bot``
(expert variants included).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from bots import make_bot

from backend.bots import MediumBot, observe
from backend.bots.twohand.exact import world_values
from backend.engine import DealState, Play, Rules, apply_deal, new_deal
from backend.search import Solver


def medium_position(rules: Rules, rng: random.Random, trick: int, medium: MediumBot) -> DealState:
    """A fresh deal played by medium on both sides to the ``trick``-th trick (0-based), on lead or following."""
    state = new_deal(rules, rng.randrange(1 << 60), rng.randrange(2))
    plies = trick * 2 + rng.randrange(2)
    while len(state.tricks) * 2 + len(state.trick) < plies:
        assert state.turn is not None
        state, _ = apply_deal(state, state.turn, medium.choose(observe(state, state.turn), rng))
    return state


def _interval(values: list[float]) -> str:
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{statistics.mean(values):+.1f} ± {half:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trick", type=int, default=3, help="0-based phase-1 trick (24 cards: 0–3)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--levels", default="hard,expert")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--expert-clock", choices=("wall", "cpu"), default="cpu", help="see bench/bots.py")
    args = parser.parse_args(argv)
    os.environ["BENCH_EXPERT_CLOCK"] = args.expert_clock
    names = args.levels.split(",")
    bots = {name: make_bot(name) for name in names}
    rules = Rules()
    rng = random.Random(args.trick * 1000 + args.seed)
    medium = MediumBot()
    regrets: dict[str, list[float]] = {name: [] for name in names}
    started = time.perf_counter()
    for i in range(args.positions):
        state = medium_position(rules, rng, args.trick, medium)
        seat = state.turn
        assert seat is not None
        knowledge = observe(state, seat)
        true = world_values(Solver(rules.by_suit), knowledge, state.hands[1 - seat], state.stock)
        best = max(true.values())
        for name, bot in bots.items():
            play = bot.choose(knowledge, random.Random(i))
            assert isinstance(play, Play)
            regrets[name].append(true[play.card | (32 if play.declare else 0)] - best)
    print(f"# trick {args.trick}, {args.positions} positions, seed {args.seed}, expert clock {args.expert_clock}")
    print()
    print(f"| level | regret per decision | paired vs {names[0]} |")
    print("|---|---|---|")
    for name in names:
        paired = [a - b for a, b in zip(regrets[name], regrets[names[0]], strict=True)]
        print(f"| {name} | {_interval(regrets[name])} | {_interval(paired) if name != names[0] else '–'} |")
    print()
    print(f"elapsed_seconds={time.perf_counter() - started:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
