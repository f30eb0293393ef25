"""Speed of two-hand 1001's search core (``backend.search``, compiled by numba) on fixed positions.

    python bench/search_speed.py [--positions 12] [--trick 1] [--seed 7]

Positions come from ``medium`` against ``medium`` (the ``--trick``-th trick, 0-based, on
lead or following at random), always the same for the same seed. Each is solved from a
fresh search object with the true opponent hand and stock order, exactly to the end of
the deal, as the expert solves one world (THOUSAND_NO_JIT=1: the same core in plain Python).
Printed: CPU seconds (median and max), nodes, nodes per second, and a checksum of every root value, which
must not change with an exact speed-up (the values are the same numbers whatever the
search's speed or node count).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from regret import medium_position

from backend.bots import MediumBot, observe
from backend.bots.twohand.exact import world_values
from backend.engine import Rules
from backend.search import Solver, warm


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--trick", type=int, default=1, help="0-based phase-1 trick (24 cards: 0–3)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rules = Rules()
    rng = random.Random(args.trick * 1000 + args.seed)
    medium = MediumBot()
    total_cpu = 0.0
    total_nodes = 0
    crc = 0
    times: list[float] = []
    warm()  # compiled (or loaded from numba's cache) before the clock runs
    for _ in range(args.positions):
        state = medium_position(rules, rng, args.trick, medium)
        seat = state.turn
        assert seat is not None
        knowledge = observe(state, seat)
        search = Solver(rules.by_suit)
        started = time.process_time()
        values = world_values(search, knowledge, state.hands[1 - seat], state.stock)
        spent = time.process_time() - started
        total_cpu += spent
        times.append(spent)
        total_nodes += search.nodes
        crc = zlib.crc32(repr(sorted(values.items())).encode(), crc)
    print(
        f"trick {args.trick}, {args.positions} positions, seed {args.seed}: "
        f"CPU {total_cpu:.2f} s (median {statistics.median(times):.3f} s, max {max(times):.3f} s), "
        f"{total_nodes} nodes, {total_nodes / max(total_cpu, 1e-9):,.0f} nodes/s, values crc {crc:08x}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
