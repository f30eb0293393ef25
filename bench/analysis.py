"""Speed of the computer analysis of a finished deal (issue 26, ``backend.analysis``), per game.

    python bench/analysis.py [--deals 3] [--seed 11] [--games twohand,mcleod,...]

Each deal is played by ``medium`` bots for every seat (always the same deals for the same seed), then
every decision is rated (``analysis.rate``, seed = the step). Printed per game: CPU seconds per deal
(mean and worst), per decision (p50 / p95 / max), the share of decisions rated exactly, forced, and
the points given away per deal (the medium bots' mistakes as the rater sees them).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, uninstalled

from backend.analysis import decisions, rate, summarize
from backend.engine import Rules
from tests.analysis.support import bot_deal

GAMES: dict[str, Rules] = {
    "twohand": Rules(target=1001),
    "twohand-V1": Rules(target=1001, deck_size=32),
    "mcleod": Rules("mcleod"),
    "rassel": Rules("rassel"),
    "thousand3": Rules("thousand3"),
    "thousand4": Rules("thousand4"),
    "bidding3": Rules("bidding", seats=3),
    "bidding4": Rules("bidding", seats=4),
}


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args(argv)
    columns = ("deal s", "worst", "p50 s", "p95 s", "max s", "exact", "forced", "given")
    print(f"{'game':<11}", " ".join(f"{c:>6}" for c in columns))
    for game in args.games.split(","):
        rules = GAMES[game]
        per_deal: list[float] = []
        per_decision: list[float] = []
        exact = forced = total = 0
        given = 0.0
        for d in range(args.deals):
            start, plays = bot_deal(rules, args.seed * 1000 + d)
            spent = 0.0
            ratings = []
            for decision in decisions(start, plays):
                began = time.process_time()
                rating = rate(decision, decision.step)
                took = time.process_time() - began
                spent += took
                ratings.append(rating)
                if not rating.forced:
                    per_decision.append(took)
                exact += rating.exact
                forced += rating.forced
                total += 1
            per_deal.append(spent)
            given += sum(summarize(rules.n, ratings).given_away)
        print(
            f"{game:<11} {statistics.mean(per_deal):7.2f} {max(per_deal):6.2f} {_quantile(per_decision, 0.5):6.3f} "
            f"{_quantile(per_decision, 0.95):6.3f} {max(per_decision):6.3f} {exact / total:6.0%} "
            f"{forced / total:6.0%} {given / args.deals:6.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
