"""Fixed open positions of two-hand 1001 searched by the core, as JSON: ``python -m tests.search.identity``.

``test_core`` runs this twice, compiled in-process and in a subprocess with THOUSAND_NO_JIT=1, and
compares everything: every move's value, the chosen (best) move, the node count of every search, and
what a deadline on a counting clock does (the slices, the Timeout)."""

from __future__ import annotations

import json
import random
from typing import Any

from backend.engine.cards import deck_mask
from backend.search import Solver, Timeout


def random_open_position(rng: random.Random, deck: int, hand: int, stock: int) -> dict[str, Any]:
    """Two hands of ``hand`` cards and a stock of ``stock`` cards dealt from a pack of ``deck`` cards,
    a trump or none, declared suits and pending points as they may stand in a deal."""
    cards = [c for c in range(32) if deck_mask(6 if deck == 24 else 8) >> c & 1]
    rng.shuffle(cards)
    hl = sum(1 << c for c in cards[:hand])
    hf = sum(1 << c for c in cards[hand : 2 * hand])
    trump = rng.choice([-1, 0, 1, 2, 3])
    declared = 0 if trump < 0 else 1 << trump | rng.randrange(16) & ~(1 << trump)
    return {
        "hl": hl,
        "hf": hf,
        "stock": cards[2 * hand : 2 * hand + stock],
        "trump": trump,
        "declared": declared,
        "pl": rng.choice([-1, -1, 0, 40]),
        "pf": rng.choice([-1, 0, 60]),
        "by_suit": rng.random() < 0.7,
    }


def positions(seed: int = 41) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    shapes = [(24, 5, 0), (24, 8, 0), (24, 4, 2), (24, 5, 4), (32, 4, 4), (32, 3, 6), (24, 8, 2)]
    return [random_open_position(rng, *shape) for shape in shapes for _ in range(2)]


class Counter:
    """A clock that counts its readings."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


def run() -> list[dict[str, Any]]:
    out = []
    solver = Solver(True, table_bits=14)  # one solver for every position: the table carries over
    for p in positions():
        solver.set_stock(p["stock"])
        solver.by_suit = p["by_suit"]
        leads = solver.lead_values(p["hl"], p["hf"], p["trump"], p["declared"], p["pl"], p["pf"])
        nodes_leads = solver.nodes
        best = max(leads, key=lambda m: leads[m])  # the first best in the core's order
        card = best & 31
        follows = solver.follow_values(
            card, p["hl"] & ~(1 << card), p["hf"], p["trump"], p["declared"], p["pl"], p["pf"]
        )
        value = solver.value(p["hf"], p["hl"], p["trump"], p["declared"], p["pf"], p["pl"])
        # A deadline on a counting clock: slices of 50 nodes, at most 40 readings.
        clock = Counter()
        timed = Solver(p["by_suit"], table_bits=10, clock=clock, deadline=40.0, slice_nodes=50)
        timed.set_stock(p["stock"])
        try:
            timed_value: int | None = timed.value(p["hl"], p["hf"], p["trump"], p["declared"], p["pl"], p["pf"])
        except Timeout:
            timed_value = None
        out.append(
            {
                "leads": sorted(leads.items()),
                "best": best,
                "follows": sorted(follows.items()),
                "value": value,
                "nodes": [nodes_leads, solver.nodes],
                "timed": [timed_value, timed.nodes, clock.reads],
            }
        )
    return out


if __name__ == "__main__":
    print(json.dumps(run()))
