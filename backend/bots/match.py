"""What the experts of every game share: the chance of winning the match once a deal is scored, and
drawing the likeliest worlds by weight.

* ``match_utility`` — R5/R5.1 and ruling V0.9 (the same rule for two seats and for n): once a total
  is at or over the target the unique highest total wins, a tie for the highest means another deal;
  below the target the match goes on and the chance is a softmax of the points each seat still needs
  (for two seats exactly the logistic the two-hand expert has always used).
* ``weighted_order`` — Efraimidis–Spirakis weighted sampling without replacement: the likely worlds
  first, every world keeping a chance (soft weights, never exclusions).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

__all__ = ["DEAL_POINTS", "DEAL_SPREAD", "match_utility", "weighted_order"]

DEAL_POINTS = 190.0  # what a deal is worth to the seats together (120 card points and some melds)
DEAL_SPREAD = 100.0  # the standard deviation of one seat's deal score against another's


def match_utility(
    totals: Sequence[int],
    target: int,
    finals: Sequence[float],
    seat: int,
    unit: float = 1.0,
) -> float:
    """Estimated chance that ``seat`` wins the match once this deal scores ``finals`` (one per seat).

    ``totals`` are the match totals before the deal. If any total reaches ``target`` the unique
    highest wins (R5.1, V0.9); seats tied for the highest play on, each with an equal share. Otherwise
    the match goes on: with ``need_i`` the points seat ``i`` still needs and ``n_deals`` the deals still
    expected, ``Σ need / (DEAL_POINTS · unit)`` (at least ½), the chance is
    ``1 / Σ_j exp(−x_j)`` with ``x_j = 1.7 · (need_j − need_seat) / (DEAL_SPREAD · unit · √n_deals)``
    — for two seats the logistic ``σ(1.7 · L / (100 · √n_deals))`` of the lead ``L`` in points still
    needed (1.7 brings the logistic close to the normal distribution function). ``unit`` scales the
    point constants to a score sheet that writes tenths (V4.9 ``simplified``)."""
    after = [t + f for t, f in zip(totals, finals, strict=True)]
    best = max(after)
    if best >= target:
        leaders = [i for i, a in enumerate(after) if a == best]
        return 1.0 / len(leaders) if seat in leaders else 0.0
    needs = [target - a for a in after]
    deals = max(sum(needs) / (DEAL_POINTS * unit), 0.5)
    scale = DEAL_SPREAD * unit * math.sqrt(deals)
    mine = needs[seat]
    total = 1.0
    for j, need in enumerate(needs):
        if j != seat:
            total += math.exp(-1.7 * (need - mine) / scale)
    return 1.0 / total


def weighted_order(weights: Sequence[float], rng: random.Random) -> list[int]:
    """The indices of ``weights`` in the order of a weighted sampling without replacement
    (Efraimidis–Spirakis: key ``u^(1/w)``, largest first); a zero weight comes last."""
    keyed = [(rng.random() ** (1.0 / w) if w > 0 else -1.0, i) for i, w in enumerate(weights)]
    keyed.sort(reverse=True)
    return [i for _, i in keyed]
