"""Speed of two-hand 1001's search core (``backend.search``, compiled by numba) on fixed positions.

    python bench/search_speed.py [--positions 12] [--trick 1] [--seed 7] [--compare REF [--rounds 3]]

Positions come from ``medium`` against ``medium`` (the ``--trick``-th trick, 0-based, on
lead or following at random), always the same for the same seed; ``--trick 0`` is a whole open deal
from its first card (every lead or follow of the first trick valued to the end of the deal). Each is
solved from a fresh search object with the true opponent hand and stock order, exactly to the end of
the deal, as the expert solves one world (THOUSAND_NO_JIT=1: the same core in plain Python).
Printed: CPU seconds (median and max a position), nodes, nodes per second, and a checksum of every
root value, which must not change with an exact speed-up (the values are the same numbers whatever the
search's speed or node count).

``--compare REF`` measures the core of a git ref (its ``backend/`` from ``git archive``) against this
checkout's, alternated in one run (``--rounds`` rounds, the order swapped every round, each side in a
fresh process with its own numba cache), so that both see the same machine load.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from regret import medium_position

from backend.bots import MediumBot, observe
from backend.bots.twohand.exact import world_values
from backend.engine import Rules
from backend.search import Solver, warm

HERE = Path(__file__).resolve().parent


def measure(positions: int, trick: int, seed: int) -> dict[str, object]:
    """CPU seconds and nodes of every position, and the values' checksum."""
    rules = Rules()
    rng = random.Random(trick * 1000 + seed)
    medium = MediumBot()
    crc = 0
    times: list[float] = []
    nodes: list[int] = []
    warm()  # compiled (or loaded from numba's cache) before the clock runs
    for _ in range(positions):
        state = medium_position(rules, rng, trick, medium)
        seat = state.turn
        assert seat is not None
        knowledge = observe(state, seat)
        search = Solver(rules.by_suit)
        started = time.process_time()
        values = world_values(search, knowledge, state.hands[1 - seat], state.stock)
        times.append(time.process_time() - started)
        nodes.append(search.nodes)
        crc = zlib.crc32(repr(sorted(values.items())).encode(), crc)
    return {"times": times, "nodes": nodes, "crc": f"{crc:08x}"}


def summary(label: str, times: list[float], nodes: int, crc: str) -> str:
    total = sum(times)
    return (
        f"{label}: CPU {total:.2f} s (median {statistics.median(times):.3f} s, max {max(times):.3f} s a position), "
        f"{nodes} nodes, {nodes / max(total, 1e-9):,.0f} nodes/s, values crc {crc}"
    )


def compare(args: argparse.Namespace) -> int:
    """This checkout against ``args.compare``, alternated round by round."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "ref.tar"
        subprocess.run(["git", "archive", "-o", str(archive), args.compare, "backend"], cwd=HERE.parent, check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(Path(tmp) / "ref", filter="data")
        # this checkout's bench beside the ref's backend: the same positions and measure, the other core
        shutil.copytree(HERE, Path(tmp) / "ref" / "bench", ignore=shutil.ignore_patterns("__pycache__"))
        roots = {"this": HERE, args.compare: Path(tmp) / "ref" / "bench"}
        runs: dict[str, list[dict[str, object]]] = {name: [] for name in roots}
        for r in range(args.rounds):
            order = list(roots) if r % 2 == 0 else list(reversed(roots))
            for name in order:
                child = [sys.executable, str(roots[name] / "search_speed.py"), "--json"]
                child += ["--positions", str(args.positions), "--trick", str(args.trick), "--seed", str(args.seed)]
                out = subprocess.run(child, capture_output=True, text=True, check=True)
                runs[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(f"trick {args.trick}, {args.positions} positions x {args.rounds} rounds, seed {args.seed}, alternated:")
        medians = {}
        for name, results in runs.items():
            times = [t for res in results for t in res["times"]]  # type: ignore[attr-defined]
            nodes = sum(n for res in results for n in res["nodes"])  # type: ignore[attr-defined]
            crcs = {str(res["crc"]) for res in results}
            medians[name] = statistics.median(times)
            print("  " + summary(name, times, nodes, "/".join(sorted(crcs))))
        print(f"  median a position: this / {args.compare} = {medians['this'] / medians[args.compare]:.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--trick", type=int, default=1, help="0-based phase-1 trick (24 cards: 0–3; 0: a whole deal)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--compare", metavar="REF", help="a git ref whose core is measured alternated with this one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.compare:
        return compare(args)
    result = measure(args.positions, args.trick, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    times, nodes = result["times"], result["nodes"]
    assert isinstance(times, list) and isinstance(nodes, list)
    label = f"trick {args.trick}, {args.positions} positions, seed {args.seed}"
    print(summary(label, times, sum(nodes), str(result["crc"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
