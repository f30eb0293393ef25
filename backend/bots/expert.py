"""The ``expert`` level of the games of three and four (V2–V7; two-hand 1001's is ``twohand.expert``).

It is ``hard``'s determinized Monte Carlo (``levels.HardBot``: the same bidding by playouts as
declarer and as a defender, discards and cards each played out to the end of the deal in every
world) with three changes:

1. **Evidence.** Its worlds are not uniform: ``oversample`` × as many consistent deals as it will
   play out are drawn (``worlds.sample_world``), each weighted by the likelihood of the others' bids
   and passes if they hold what it gives them (``evidence.call_weight``: soft, ruling V0.6b's K-Q pair
   over 120), and kept by weighted sampling without replacement (``match.weighted_order``), in
   batches of ``CHUNK`` so that the deadline can fall between them.
2. **The match.** A deal's score sheet is valued as the chance of winning the match once it is
   written (``match.match_utility``, R5.1/V0.9, the same function as two-hand 1001's expert): near
   the target it plays for the win — safety when ahead, risk when behind, against the leader —
   rather than for the points; far from it the utility is close to hard's score difference. The
   meld ban at ``target − 100`` (V7.7) is in its playouts, as in hard's (``play.game_of``).
3. **More search.** More worlds and simulated plays than hard, more discard pairs (12 against 6), to
   a deadline of ``THINKING_S`` seconds of ``clock`` (injectable: reproducible tests).

It decides from the ``SeatKnowledge`` only (R7, V0.11), all randomness from the ``rng``.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterator

from backend.engine import Rules
from backend.engine.deal import written_score

from .evidence import call_weight
from .hard import HardBot
from .knowledge import SeatKnowledge
from .match import match_utility, weighted_order
from .play import objective
from .worlds import World, sample_world

__all__ = ["THINKING_S", "TableExpertBot"]

THINKING_S = 0.6  # the deadline of a decision (seconds): below the two-hand expert's published 0.7 s
CHUNK = 8  # worlds chosen per batch of candidates
TIE_BREAK = 1e-6  # the weight of the deal score difference in the value (ties of the match utility)


class TableExpertBot(HardBot):
    """See the module docstring. ``infer=False``: uniform worlds; ``match_aware=False``: hard's objective."""

    level = "expert"

    def __init__(
        self,
        budget: float | None = THINKING_S,
        plies: int = 150_000,
        min_worlds: int = 24,
        max_worlds: int = 240,
        discard_options: int = 12,
        clock: Callable[[], float] = time.perf_counter,
        infer: bool = True,
        match_aware: bool = True,
        oversample: int = 3,
    ) -> None:
        super().__init__(
            plies=plies, min_worlds=min_worlds, budget=budget, discard_options=discard_options, clock=clock
        )
        self.max_worlds = max_worlds
        self.infer = infer
        self.match_aware = match_aware
        self.oversample = oversample

    def worlds(self, k: SeatKnowledge, rng: random.Random, count: int) -> Iterator[World]:
        count = min(count, self.max_worlds)
        if not self.infer or not k.calls:
            yield from super().worlds(k, rng, count)
            return
        # In batches, so that the deadline (checked by the caller after each world) can fall between
        # them: each batch keeps CHUNK of its oversample × CHUNK candidates by weight.
        for start in range(0, count, CHUNK):
            size = min(CHUNK, count - start)
            candidates = [sample_world(k, rng) for _ in range(self.oversample * size)]
            for i in weighted_order([call_weight(k, w) for w in candidates], rng)[:size]:
                yield candidates[i]

    def judge(self, k: SeatKnowledge, scores: list[int]) -> float:
        difference = objective(scores, k.seat)
        if not self.match_aware:
            return difference
        return match_utility(k.totals, k.rules.goal, scores, k.seat, _score_unit(k.rules)) + TIE_BREAK * difference


@functools.cache
def _score_unit(rules: Rules) -> float:
    """What the score sheet writes per card point (V4.9 simplified: tenths), once per rules: ``judge`` runs
    for every playout."""
    return written_score(rules, 100, took_last=False, took_trick=True, declarer=False, contract=None) / 100
