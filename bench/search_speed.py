"""Speed of two-hand 1001's search core (``DealSearch`` and the phase-2 ``EndgameSolver``) on fixed positions.

    python bench/search_speed.py [--positions 12] [--trick 1] [--seed 7] [--depth 0]

Positions come from ``medium`` against ``medium`` (the ``--trick``-th trick, 0-based, on
lead or following at random), always the same for the same seed. Each is solved from a
fresh search object with the true opponent hand and stock order — exactly to the end of
the deal (``--depth 0``) or ``--depth`` phase-1 tricks deep, as one expert world pass is.
Printed: CPU seconds, nodes, nodes per second, and a checksum of every root value, which
must not change with an exact speed-up (the values are the same numbers whatever the
search's speed or node count).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from regret import medium_position

from backend.bots import MediumBot, observe
from backend.bots.twohand.deep import DealSearch
from backend.bots.twohand.expert import root_scores
from backend.engine import Rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--trick", type=int, default=1, help="0-based phase-1 trick (24 cards: 0–3)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--depth", type=int, default=0, help="phase-1 tricks searched (0: exact to the end)")
    args = parser.parse_args(argv)
    rules = Rules()
    rng = random.Random(args.trick * 1000 + args.seed)
    medium = MediumBot()
    total_cpu = 0.0
    total_nodes = 0
    crc = 0
    worst = 0.0
    for _ in range(args.positions):
        state = medium_position(rules, rng, args.trick, medium)
        seat = state.turn
        assert seat is not None
        knowledge = observe(state, seat)
        depth = args.depth or len(state.stock) // 2
        search = DealSearch(rules.by_suit)
        search.set_stock(state.stock)
        started = time.process_time()
        values = root_scores(search, knowledge, state.hands[1 - seat], depth=depth)
        spent = time.process_time() - started
        total_cpu += spent
        worst = max(worst, spent)
        total_nodes += search.nodes
        crc = zlib.crc32(repr(sorted(values.items())).encode(), crc)
    print(
        f"trick {args.trick}, {args.positions} positions, seed {args.seed}, depth {args.depth or 'exact'}: "
        f"CPU {total_cpu:.2f} s (mean {total_cpu / args.positions:.3f} s, max {worst:.3f} s), "
        f"{total_nodes} nodes, {total_nodes / max(total_cpu, 1e-9):,.0f} nodes/s, values crc {crc:08x}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
