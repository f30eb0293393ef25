"""The game kinds — what a person's ratings and head-to-head figures are kept apart by: one per game
of the family and pack or seat count.

A kind is named after the engine's variant id (``backend.engine.variants``), with the seat count
when the game is played by several (V7 for three and for four: ``bidding3``, ``bidding4``) or the
pack when one seat count has several (two-hand 1001 with 24 cards, R1, or 32, V1: ``twohand24``,
``twohand32``). Options that do not change the game's kind (V6 jungfrau, the target, scoring,
open scores) share one rating.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backend.engine import Rules
from backend.engine.variants import VARIANTS, Layout, Variant
from backend.rooms.options import TableOptions

__all__ = ["RATING_KINDS", "match_kind", "options_kind", "rating_kind"]


def _kind(game: Variant, layout: Layout) -> str:
    if len(game.layouts) == 1:
        return game.id
    if len(game.seat_counts) > 1:
        return f"{game.id}{layout.seats}"
    return f"{game.id}{layout.deck_size}"


RATING_KINDS: tuple[str, ...] = tuple(_kind(game, layout) for game in VARIANTS.values() for layout in game.layouts)


def rating_kind(rules: Rules) -> str:
    """The kind a match of ``rules`` is rated in."""
    return _kind(rules.game, rules.layout)


def options_kind(options: Mapping[str, Any]) -> str:
    """The kind of a match stored with ``options`` (``matches.options``, ``room.options``; two-hand
    1001 is stored without ``variant``). An unknown game is a ``ValueError``."""
    return rating_kind(TableOptions.from_json(dict(options)).rules)


def match_kind(table: TableOptions, people_only: bool) -> str | None:
    """The kind a finished match at a table of ``table`` options changes, or None: an unrated
    table (option ``rated`` off) or one with a computer seat (``people_only`` false, or computer
    seats in the options) changes no rating."""
    if not table.rated or table.computer_seats or table.bot_level is not None or not people_only:
        return None
    return rating_kind(table.rules)
