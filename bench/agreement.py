"""How often one level's phase-1 choice is the one another level would make in its place.

    python bench/agreement.py [--player hard] [--model medium] [--deals 60] [--seed 7]

Deals of ``--player`` against itself; at every phase-1 decision with more than one legal
play (R4: any card may be played while the stock lasts), the ``--model`` level is asked
what it would play with the same knowledge. Prints the share of agreement for leads and for
follows with a 95% Wilson interval, and the share a uniformly random pick would reach.

Why it matters (issue 14): inferring the opponent's hand from its plays needs a model of
how it plays. If the model rarely predicts the opponent's choice, its plays say little
about its hand through that model.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from bots import make_bot, wilson

from backend.bots import observe
from backend.engine import Rules, apply_deal, new_deal


def measure(player_level: str, model_level: str, deals: int, seed: int) -> dict[str, tuple[int, int, float]]:
    """Per role (``lead``, ``follow``): (agreements, decisions, mean chance of a random pick agreeing)."""
    rules = Rules()
    player, model = make_bot(player_level), make_bot(model_level)
    rng = random.Random(seed)
    counts = {"lead": [0, 0, 0.0], "follow": [0, 0, 0.0]}
    for number in range(deals):
        state = new_deal(rules, rng.randrange(1 << 60), number & 1)
        while state.turn is not None:
            k = observe(state, state.turn)
            play = player.choose(k, rng)
            choices = len(k.plays)
            if k.stock_count and choices > 1:
                row = counts["follow" if k.trick else "lead"]
                row[0] += model.choose(k, rng) == play
                row[1] += 1
                row[2] += 1 / choices
            state, _ = apply_deal(state, state.turn, play)
    return {role: (int(a), int(n), chance / n if n else 0.0) for role, (a, n, chance) in counts.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--player", default="hard", help="the level whose plays are predicted")
    parser.add_argument("--model", default="medium", help="the level that predicts them")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"# {args.model} predicting {args.player}'s phase-1 plays, {args.deals} deals, seed {args.seed}")
    print()
    print("| role | agreements | share | 95% CI (Wilson) | a random pick |")
    print("|---|---|---|---|---|")
    for role, (agreed, decisions, chance) in measure(args.player, args.model, args.deals, args.seed).items():
        lo, hi = wilson(agreed, decisions)
        share = agreed / decisions if decisions else 0.0
        print(f"| {role} | {agreed}/{decisions} | {share:.0%} | {lo:.0%}–{hi:.0%} | {chance:.0%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
