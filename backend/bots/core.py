"""Helpers shared by the bots. The rules themselves (R3, R4) come from ``backend.engine.kernel``."""

from __future__ import annotations

from backend.engine.cards import KING, QUEEN, cards_in
from backend.engine.deal import Play
from backend.engine.kernel import declarable, follow_mask

from .knowledge import SeatKnowledge


def cards_list(mask: int) -> list[int]:
    """The cards of a mask as a list (the hot loops of the bots want a list, not a generator)."""
    return list(cards_in(mask))


def legal_plays(k: SeatKnowledge) -> list[Play]:
    """Every action the seat may take now (as ``engine.legal_actions``), from its knowledge."""
    if k.turn != k.seat:
        return []
    if k.trick:
        return [Play(c) for c in cards_in(follow_mask(k.hand, k.trick[0], k.trump, k.stock_count > 0))]
    plays = [Play(c) for c in cards_in(k.hand)]
    for s in declarable(k.hand, k.declared_suits):
        plays.append(Play(8 * s + KING, True))
        plays.append(Play(8 * s + QUEEN, True))
    return plays
