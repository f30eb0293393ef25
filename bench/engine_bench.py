"""Engine throughput: random legal deals of every game of the family on one core.

    python bench/engine_bench.py [--seconds 5] [--variant-seconds S] [--declare-probability 0.5]
                                 [--bid-probability 0.5] [--deck-size 24]

Each deal is shuffled from a fresh seed (``new_deal``), then played to the end through the public
engine API (``apply_deal``): the seat to move picks uniformly among its legal cards (``legal_mask``)
and, when it leads a K or Q it may declare (R3, V0.5), declares with the given probability. In an
auction (V0.6) the seat to speak bids the lowest legal amount with ``--bid-probability``, else passes
(so some deals are thrown in, ruling V0.6a, and count as deals); a declarer holding the talon lays away
two random cards (V0.7). The deal is scored with ``deal_result``.

The games of three and four (V2–V7) come first, ``--variant-seconds`` each (default: ``--seconds``),
one line per game: ``game=ID seats=N deals_per_second=N``. Two-hand 1001 (``--deck-size`` 24, R1, or
32, V1) comes last, and the last line printed is exactly ``deals_per_second=N`` — whole two-hand deals,
shuffle and scoring included.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from backend.engine import (
    VARIANTS,
    Bid,
    DealResult,
    Discard,
    Pass,
    Play,
    Rules,
    apply_deal,
    deal_result,
    declarable_suits,
    legal_bids,
    legal_mask,
    new_deal,
)
from backend.engine.cards import KING, QUEEN, cards_in

# Plays are immutable: one object per (card, declare), built once rather than on every move.
PLAYS = tuple((Play(c), Play(c, True)) for c in range(32))
PASS = Pass()


def play_deal(
    rules: Rules, seed: int, dealer: int, rng: random.Random, declare_probability: float, bid_probability: float
) -> DealResult:
    """One random legal deal, scored (R5, V0.8)."""
    state = new_deal(rules, seed, dealer)
    uniform = rng.random
    while state.turn is not None:
        seat = state.turn
        if state.phase == "auction":
            bids = legal_bids(state, seat)
            state, _ = apply_deal(state, seat, Bid(bids[0]) if bids and uniform() < bid_probability else PASS)
            continue
        if state.phase == "discard":
            a, b = rng.sample(list(cards_in(state.hands[seat])), 2)
            state, _ = apply_deal(state, seat, Discard(a, b))
            continue
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
    return deal_result(state)


def measure(rules: Rules, seconds: float, rng: random.Random, args: argparse.Namespace) -> dict[str, float]:
    """Random deals of ``rules`` for ``seconds``: counts, times and the mean deal score."""
    deals = plays = thrown_in = 0
    points = 0
    played_per_deal = rules.layout.deck_size - rules.layout.talon_size  # V0.7: two cards laid away
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline:
        for _ in range(50):  # check the clock every 50 deals
            result = play_deal(rules, deals, deals % rules.n, rng, args.declare_probability, args.bid_probability)
            if result.thrown_in:  # every player passed (ruling V0.6a)
                thrown_in += 1
            else:
                plays += played_per_deal
                points += sum(result.score)
            deals += 1
        now = time.perf_counter()
    return {
        "deals": deals,
        "plays": plays,
        "thrown_in": thrown_in,
        "seconds": now - start,
        "cpu": time.process_time() - cpu_start,
        "mean_deal_score": points / (rules.n * max(1, deals - thrown_in)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play two-hand 1001 (default 5)")
    parser.add_argument("--variant-seconds", type=float, default=None, help="each game of three and four")
    parser.add_argument("--declare-probability", type=float, default=0.5, help="chance of declaring when allowed")
    parser.add_argument("--bid-probability", type=float, default=0.5, help="chance of bidding the lowest bid")
    parser.add_argument("--deck-size", type=int, choices=(24, 32), default=24, help="24 (R1) or 32 (V1)")
    parser.add_argument("--rng-seed", type=int, default=1001, help="seed of the bench's own choices")
    args = parser.parse_args(argv)
    variant_seconds = args.seconds if args.variant_seconds is None else args.variant_seconds

    print(f"python={platform.python_implementation()} {platform.python_version()}")
    print(f"declare_probability={args.declare_probability} bid_probability={args.bid_probability}")
    for variant in VARIANTS.values():
        if variant.id == "twohand":
            continue
        for seats in variant.seat_counts:
            rules = Rules(variant.id, seats=seats)
            m = measure(rules, variant_seconds, random.Random(args.rng_seed), args)
            print(
                f"game={variant.id} rule={variant.rule} seats={seats} deals={m['deals']} "
                f"thrown_in={m['thrown_in']} mean_deal_score={m['mean_deal_score']:.1f} "
                f"deals_per_cpu_second={int(m['deals'] / m['cpu']) if m['cpu'] else 0} "
                f"deals_per_second={int(m['deals'] / m['seconds'])}"
            )

    rules = Rules(deck_size=args.deck_size)
    m = measure(rules, args.seconds, random.Random(args.rng_seed), args)
    print(f"game=twohand deck_size={rules.deck_size} declare_probability={args.declare_probability}")
    print(f"deals={m['deals']} plays={m['plays']} seconds={m['seconds']:.2f} cpu_seconds={m['cpu']:.2f}")
    print(f"mean_deal_score={m['mean_deal_score']:.1f}")
    print(f"plays_per_second={int(m['plays'] / m['seconds'])}")
    # on a busy machine the wall-clock rate below understates the engine; this one does not
    print(f"deals_per_cpu_second={int(m['deals'] / m['cpu']) if m['cpu'] else 0}")
    print(f"deals_per_second={int(m['deals'] / m['seconds'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
