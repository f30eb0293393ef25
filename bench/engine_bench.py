"""Engine throughput: random legal deals of two-hand 1001 on one core.

    python bench/engine_bench.py [--seconds 5] [--declare-probability 0.5] [--deck-size 24]

Each deal is shuffled from a fresh seed (``new_deal``), then played to the end through the public
engine API: the seat to move picks uniformly among its legal cards (``legal_mask``) and, when it
leads a K or Q it may declare (R3), declares with the given probability. The deal is scored with
``deal_result``. The last line printed is exactly ``deals_per_second=N`` (whole deals, shuffle and scoring included).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from backend.engine import Play, Rules, apply_deal, deal_result, declarable_suits, legal_mask, new_deal
from backend.engine.cards import KING, QUEEN

# Plays are immutable: one object per (card, declare), built once rather than on every move.
PLAYS = tuple((Play(c), Play(c, True)) for c in range(32))


def play_deal(rules: Rules, seed: int, dealer: int, rng: random.Random, declare_probability: float) -> tuple[int, int]:
    """One random legal deal; returns its R5 score."""
    state = new_deal(rules, seed, dealer)
    uniform = rng.random
    while state.turn is not None:
        seat = state.turn
        mask = legal_mask(state)
        for _ in range(int(uniform() * mask.bit_count())):  # a uniformly chosen legal card: the k-th set bit
            mask &= mask - 1
        card = (mask & -mask).bit_length() - 1
        declare = (
            not state.trick
            and card & 7 in (KING, QUEEN)
            and card >> 3 in declarable_suits(state, seat)
            and uniform() < declare_probability
        )
        state, _ = apply_deal(state, seat, PLAYS[card][declare])
    return deal_result(state).score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play (default 5)")
    parser.add_argument("--declare-probability", type=float, default=0.5, help="chance of declaring when allowed")
    parser.add_argument("--deck-size", type=int, choices=(24, 32), default=24, help="24 (R1) or 32 (V1)")
    parser.add_argument("--rng-seed", type=int, default=1001, help="seed of the bench's own choices")
    args = parser.parse_args(argv)

    rules = Rules(deck_size=args.deck_size)
    rng = random.Random(args.rng_seed)
    deals = plays = 0
    totals = [0, 0]
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + args.seconds
    now = start
    while now < deadline:
        for _ in range(50):  # check the clock every 50 deals
            score = play_deal(rules, deals, deals & 1, rng, args.declare_probability)
            totals[0] += score[0]
            totals[1] += score[1]
            deals += 1
        plays += 50 * rules.deck_size
        now = time.perf_counter()
    elapsed = now - start
    cpu = time.process_time() - cpu_start

    print(f"python={platform.python_implementation()} {platform.python_version()}")
    print(f"deck_size={rules.deck_size} declare_probability={args.declare_probability}")
    print(f"deals={deals} plays={plays} seconds={elapsed:.2f} cpu_seconds={cpu:.2f}")
    print(f"mean_deal_score={sum(totals) / (2 * deals):.1f}")
    print(f"plays_per_second={int(plays / elapsed)}")
    # on a busy machine the wall-clock rate below understates the engine; this one does not
    print(f"deals_per_cpu_second={int(deals / cpu) if cpu else 0}")
    print(f"deals_per_second={int(deals / elapsed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
