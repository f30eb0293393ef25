"""Table options as data (R2, R3, R5, R7, variant V1 and the V6 option ``jungfrau``).

Variants are configurations of one frozen ``Rules`` object rather than forks of the
engine: the 32-card pack of V1 only changes ``deck_size`` (and so the hand size and
the deal packets).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from .kernel import declaration_points

DeclarationScoring = Literal["by_suit", "by_order"]

TARGETS = (1001, 501, 301)  # R5 table option `target`

# Deck size → (cards per hand, packets dealt to each player in turn).
_DEALS = {
    24: (8, (3, 2, 3)),  # R2: 3-2-3 starting with forehand, 8 to the stock
    32: (6, (3, 3)),  # V1: 6 cards each, 20 to the stock
}


@dataclass(frozen=True, slots=True)
class Rules:
    declaration_scoring: DeclarationScoring = "by_suit"
    show_stock_bottom: bool = False
    target: int = 1001
    open_scores: bool = False
    deck_size: int = 24
    jungfrau: bool = False  # V6 (RULES-VARIANTS.md, ruling V6.2): 100 to a seat that took no trick

    def __post_init__(self) -> None:
        if self.declaration_scoring not in ("by_suit", "by_order"):
            raise ValueError(f"declaration_scoring must be by_suit or by_order, not {self.declaration_scoring!r}")
        for flag in ("show_stock_bottom", "open_scores", "jungfrau"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false")
        if type(self.target) is not int or self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, not {self.target!r}")
        if type(self.deck_size) is not int or self.deck_size not in _DEALS:
            raise ValueError(f"deck_size must be 24 or 32, not {self.deck_size!r}")

    @property
    def ranks_per_suit(self) -> int:
        return self.deck_size // 4

    @property
    def hand_size(self) -> int:
        return _DEALS[self.deck_size][0]

    @property
    def packets(self) -> tuple[int, ...]:
        return _DEALS[self.deck_size][1]

    @property
    def by_suit(self) -> bool:
        """R3: declarations score by suit (else by their order in the deal)."""
        return self.declaration_scoring == "by_suit"

    def declaration_points(self, suit: int, nth: int) -> int:
        """R3: points for declaring ``suit`` as the ``nth`` (0-based) declaration of the deal."""
        return declaration_points(self.by_suit, suit, nth)

    def to_dict(self) -> dict[str, Any]:
        # Spelled out: this runs for every message the server sends, and asdict() deep-copies.
        data: dict[str, Any] = {
            "declaration_scoring": self.declaration_scoring,
            "show_stock_bottom": self.show_stock_bottom,
            "target": self.target,
            "open_scores": self.open_scores,
            "deck_size": self.deck_size,
        }
        if self.jungfrau:  # V6 only when on: a table without it is written exactly as before
            data["jungfrau"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Rules:
        """Build from JSON-like data; every field optional, unknown fields refused."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(unknown)}")
        return cls(**data)
