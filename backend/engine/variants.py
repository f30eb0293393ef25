"""V2–V7 (RULES-VARIANTS.md) as data: one frozen ``Variant`` record per game, and ``TableRules``.

Everything a variant changes that is a *value* lives here — seats, pack, deal packets, talon,
auction minimum, declaration values, meld limits, the follower's duty, scoring kind and targets —
so that ``table_deal`` is one state machine for them all. The few rules that are *functions*
(obligations, the winning card so far, declarable suits) are in ``kernel``, shared with two-hand
1001. Two-hand 1001 and V1 keep their own ``Rules`` (``rules.py``); V6 ``jungfrau`` is an option of
both.

Variant ids: ``mcleod`` (V2), ``rassel`` (V3), ``thousand3`` (V4), ``thousand4`` (V5),
``bidding`` (V7).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from .cards import card, deck_mask, mask_of
from .kernel import BY_SUIT_POINTS, Duty
from .rules import Rules

__all__ = [
    "VARIANTS",
    "Layout",
    "Packet",
    "Scoring",
    "ScoringKind",
    "TableRules",
    "Variant",
    "VariantId",
    "rules_from_dict",
]

VariantId = Literal["mcleod", "rassel", "thousand3", "thousand4", "bidding"]
ScoringKind = Literal["nearest_ten", "round_up", "thousand", "exact"]
Scoring = Literal["original", "simplified"]

# One step of a deal (V0.2): ("each", n) — a packet of n cards to every player in turn, forehand to
# dealer; ("talon", n) — the next n cards to the talon.
Packet = tuple[Literal["each", "talon"], int]

RASSEL_POINTS = (40, 60, 100, 80)  # V3.5: ♣ 40, ♠ 60, ♥ 100, ♦ 80 (suit order C S H D)


@dataclass(frozen=True, slots=True)
class Layout:
    """The pack and the deal of a variant for one seat count."""

    pack: int  # the cards in play, as a mask
    packets: tuple[Packet, ...]

    @property
    def talon_size(self) -> int:
        return sum(n for kind, n in self.packets if kind == "talon")

    @property
    def hand_size(self) -> int:
        return sum(n for kind, n in self.packets if kind == "each")


@dataclass(frozen=True, slots=True)
class Variant:
    id: VariantId
    rule: str  # its section of RULES-VARIANTS.md
    layouts: tuple[tuple[int, Layout], ...]  # (seats, layout), the first is the default seat count
    minimum_bid: int | None  # V0.6; None: no auction (V4, V5)
    declaration_values: tuple[int, int, int, int]  # by suit C S H D (ruling V0.5b: never by order)
    melds_ascending: bool  # V4.5: a meld must be worth more than every earlier one
    meld_needs_trick: bool  # R3 / V7.7: a declaration counts only for a player who took a trick (not V4.6)
    meld_ban_below_target: int | None  # V7.7 / ruling V7.7a: no meld at a total of target − this or more
    duty: Duty  # the follower's obligations (kernel.obligation_mask)
    scoring_kind: ScoringKind
    targets: tuple[int, ...]  # for `original` scoring; the first is the default
    simplified_allowed: bool  # V4.9: the `simplified` scoring option (played to 100, ruling V4.9a)

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return tuple(seats for seats, _ in self.layouts)

    def layout(self, seats: int) -> Layout:
        for count, layout in self.layouts:
            if count == seats:
                return layout
        raise ValueError(f"{self.id} is played by {' or '.join(map(str, self.seat_counts))} seats, not {seats!r}")

    @property
    def has_auction(self) -> bool:
        return self.minimum_bid is not None


def _without(pack: int, *names: str) -> int:
    return pack & ~mask_of(card(n) for n in names)


VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        Variant(  # V2 three-hand 1001 (McLeod)
            id="mcleod",
            rule="V2",
            layouts=((3, Layout(deck_mask(5), (("each", 3), ("talon", 2), ("each", 3)))),),  # V2.2, ruling V2.3
            minimum_bid=40,  # V2.4
            declaration_values=BY_SUIT_POINTS,  # V2.6
            melds_ascending=False,
            meld_needs_trick=True,  # V2.6 (R3)
            meld_ban_below_target=None,
            duty="follow_then_trump",  # ruling V2.7
            scoring_kind="nearest_ten",  # V2.9, ruling V2.9a
            targets=(1001, 501, 301),  # V2.10
            simplified_allowed=False,
        ),
        Variant(  # V3 Rassel / Russeln
            id="rassel",
            rule="V3",
            layouts=((3, Layout(deck_mask(6), (("each", 3), ("each", 2), ("each", 3)))),),  # V3.2, V3.3a, V3.3b
            minimum_bid=10,  # V3.4, ruling V3.4a
            declaration_values=RASSEL_POINTS,  # V3.5
            melds_ascending=False,
            meld_needs_trick=True,  # V3.5 (R3)
            meld_ban_below_target=None,
            duty="head",  # V3.6, ruling V3.6a
            scoring_kind="round_up",  # V3.8
            targets=(1000, 500, 300),  # ruling V3.9a
            simplified_allowed=False,
        ),
        Variant(  # V4 1000 for three
            id="thousand3",
            rule="V4",
            layouts=((3, Layout(deck_mask(6), (("each", 3), ("each", 3), ("each", 2)))),),  # V4.2, V4.3
            minimum_bid=None,  # V4.1
            declaration_values=BY_SUIT_POINTS,  # V4.5, ruling V4.5a
            melds_ascending=True,  # V4.5
            meld_needs_trick=False,  # ruling V4.6
            meld_ban_below_target=None,
            duty="follow",  # V4.7
            scoring_kind="thousand",  # V4.9
            targets=(1001, 501, 301),  # ruling V4.9a (original only)
            simplified_allowed=True,
        ),
        Variant(  # V5 1000 for four
            id="thousand4",
            rule="V5",
            layouts=((4, Layout(deck_mask(8), (("each", 3), ("each", 3), ("each", 2)))),),  # V5.1
            minimum_bid=None,
            declaration_values=BY_SUIT_POINTS,
            melds_ascending=True,
            meld_needs_trick=False,
            meld_ban_below_target=None,
            duty="follow",
            scoring_kind="thousand",
            targets=(1001, 501, 301),
            simplified_allowed=True,
        ),
        Variant(  # V7 1001 with bidding
            id="bidding",
            rule="V7",
            layouts=(  # V7.2, ruling V7.3
                (3, Layout(deck_mask(8), (("each", 3), ("talon", 2), ("each", 4), ("each", 3)))),
                (4, Layout(_without(deck_mask(8), "7H", "7D"), (("each", 3), ("talon", 2), ("each", 4)))),
            ),
            minimum_bid=40,  # ruling V7.4a
            declaration_values=BY_SUIT_POINTS,  # V7.7
            melds_ascending=False,  # V7.7: any order
            meld_needs_trick=True,  # V7.7
            meld_ban_below_target=100,  # V7.7, ruling V7.7a
            duty="follow",  # V7.8
            scoring_kind="exact",  # V7.9, ruling V7.9a
            targets=(1001, 501, 301),  # V7.10
            simplified_allowed=False,
        ),
    )
}

SIMPLIFIED_TARGET = 100  # ruling V4.9a


@dataclass(frozen=True, slots=True)
class TableRules:
    """The table options of a V2–V7 game. ``seats`` and ``target`` default from the variant."""

    variant: str
    seats: int | None = None
    target: int | None = None
    scoring: Scoring = "original"  # V4.9 (V4 and V5 only)
    jungfrau: bool = False  # V6
    open_scores: bool = False  # V0.11 (R7)

    def __post_init__(self) -> None:
        game = VARIANTS.get(self.variant) if isinstance(self.variant, str) else None
        if game is None:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {self.variant!r}")
        if self.seats is None:
            object.__setattr__(self, "seats", game.seat_counts[0])
        if type(self.seats) is not int or self.seats not in game.seat_counts:
            raise ValueError(f"{self.variant} is played by {' or '.join(map(str, game.seat_counts))} seats")
        if self.scoring not in ("original", "simplified"):
            raise ValueError(f"scoring must be original or simplified, not {self.scoring!r}")
        if self.scoring == "simplified" and not game.simplified_allowed:
            raise ValueError(f"{self.variant} has no simplified scoring (V4.9, ruling V7.9a)")
        for flag in ("jungfrau", "open_scores"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false")
        offered = (SIMPLIFIED_TARGET,) if self.scoring == "simplified" else game.targets
        if self.target is None:
            object.__setattr__(self, "target", offered[0])
        if type(self.target) is not int or self.target not in offered:
            raise ValueError(f"target must be one of {offered}, not {self.target!r}")

    @property
    def game(self) -> Variant:
        return VARIANTS[self.variant]

    @property
    def n(self) -> int:
        """The number of seats (resolved: never None after construction)."""
        assert self.seats is not None
        return self.seats

    @property
    def goal(self) -> int:
        """The target (resolved: never None after construction)."""
        assert self.target is not None
        return self.target

    @property
    def layout(self) -> Layout:
        return self.game.layout(self.n)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seats": self.seats,
            "target": self.target,
            "scoring": self.scoring,
            "jungfrau": self.jungfrau,
            "open_scores": self.open_scores,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TableRules:
        """Build from JSON-like data: ``variant`` required, the rest optional, unknown fields refused."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(unknown)}")
        if "variant" not in data:
            raise ValueError("rules.variant is required")
        return cls(**data)


def rules_from_dict(data: dict[str, Any] | None) -> Rules | TableRules:
    """``TableRules`` when ``data`` names a ``variant``, else two-hand ``Rules`` (R1–R7, V1)."""
    if data and "variant" in data:
        return TableRules.from_dict(data)
    return Rules.from_dict(data)
