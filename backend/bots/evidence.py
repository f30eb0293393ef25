"""The auction as evidence about the hidden hands (V0.6, V0.6b), for the games of three and four.

A sampled world gives every other seat a hand; ``call_weight`` is how likely that seat's calls were
with the hand the world gives it, under a soft model of bidding by the value of a hand
(``bidding.hand_estimate``, the measure ``medium`` bids by):

* a seat that bid ``B`` most likely valued its hand at about ``B`` or more:
  ``soft(estimate − B)``;
* a seat that passed when the lowest bid was ``b`` most likely valued it below ``b``:
  ``soft(b − estimate)``;
* a bid over 120 was legal only with a K-Q pair in hand (ruling V0.6b, enforced by the engine): a
  world without one in that seat's hand as it was in the auction counts ``NO_PAIR_OVER_120``.

``soft(x) = FLOOR + (1 − FLOOR) · σ(x / SCALE)``: people bid by other measures (the ``hard`` level by
its playouts, people by feel), so these are likelihoods, never exclusions.

The hand a seat held in the auction is its hand in the world plus the cards it played since; for
another declarer who took the talon (V0.7), plus its discards, which then also holds the talon: it is
valued without the talon's share of ``hand_estimate`` (its cards are in it).
"""

from __future__ import annotations

import math

from backend.engine.cards import KING, QUEEN

from .bidding import hand_estimate
from .knowledge import SeatKnowledge
from .play import game_of
from .worlds import World

__all__ = ["FLOOR", "NO_PAIR_OVER_120", "SCALE", "auction_hands", "call_weight"]

FLOOR = 0.15  # the least likelihood of a call, whatever the hand
SCALE = 15.0  # points of hand estimate over which a call's likelihood goes from a quarter to three quarters
NO_PAIR_OVER_120 = 0.02  # ruling V0.6b: a bid over 120 without a K-Q pair is illegal
MAX_CARD_POINTS = 120
KQ = 1 << KING | 1 << QUEEN  # the K and the Q of a suit, shifted by 8 · suit


def _soft(x: float) -> float:
    return FLOOR + (1.0 - FLOOR) / (1.0 + math.exp(-x / SCALE))


def auction_hands(k: SeatKnowledge, world: World) -> list[int]:
    """Per seat, the cards it held during the auction in ``world`` (the talon included for a declarer
    that took it: see the module docstring)."""
    held = list(world.hands)
    for t in k.tricks:
        for i, c in enumerate(t.cards):
            held[(t.leader + i) % k.n] |= 1 << c
    for i, c in enumerate(k.trick):
        held[(k.leader + i) % k.n] |= 1 << c
    if k.declarer is not None and k.declarer != k.seat:
        held[k.declarer] |= world.discards
    return held


def call_weight(k: SeatKnowledge, world: World) -> float:
    """The likelihood of the other seats' calls (``k.calls``) if they hold what ``world`` gives them."""
    if not k.calls:
        return 1.0
    n = k.n
    g = game_of(k.rules, k.totals, None, None)
    talon_size = k.rules.layout.talon_size
    took_talon = k.declarer is not None and k.phase != "auction" and talon_size > 0
    held = auction_hands(k, world)
    estimates: dict[int, int] = {}
    for seat in range(n):
        if seat != k.seat and any(s == seat for s, _ in k.calls):
            with_talon = took_talon and seat == k.declarer
            estimates[seat] = hand_estimate(held[seat], g.values, n, 0 if with_talon else talon_size, g.may_meld[seat])
    minimum = k.rules.game.minimum_bid or 10
    high: int | None = None
    weight = 1.0
    for seat, bid in k.calls:
        lowest = minimum if high is None else max(minimum, high + 10)
        if seat != k.seat:
            est = estimates[seat]
            if bid is None:
                weight *= _soft(lowest - est)
            else:
                weight *= _soft(est - bid)
                if bid > MAX_CARD_POINTS and not any(held[seat] >> 8 * s & KQ == KQ for s in range(4)):
                    weight *= NO_PAIR_OVER_120
        if bid is not None:
            high = bid
    return weight
