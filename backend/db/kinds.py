"""A match's game kind: what its figures are kept apart by (head to head, ratings).

Two-hand 1001 with 24 cards (RULES.md R1–R7) and with 32 (V1, ``deck_size`` 32) are two kinds; each
game for three or four is one kind under the engine's variant id (V2 ``mcleod``, V3 ``rassel``, V4
``thousand3``, V5 ``thousand4``, V7 ``bidding``), whatever its seat count, target, scoring or V6
Jungfrau option. Pure: it reads a match's stored options (``matches.options``, ``room.options``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from backend.engine.variants import VARIANTS, VariantId

GameKind = Literal["twohand", "twohand32", "mcleod", "rassel", "thousand3", "thousand4", "bidding"]
GAME_KINDS: tuple[GameKind, ...] = get_args(GameKind)
V1_DECK = 32  # V1: two-hand 1001 with the 7s and 8s


def game_kind(options: Mapping[str, Any]) -> GameKind:
    """The kind of a match played with ``options`` (two-hand 1001 is stored without ``variant``)."""
    variant: VariantId = options.get("variant") or "twohand"
    if variant not in VARIANTS:
        raise ValueError(f"no game {variant!r}")
    if variant == "twohand":
        return "twohand32" if options.get("deck_size") == V1_DECK else "twohand"
    return variant
