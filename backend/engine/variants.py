"""The 1001 family as data: one ``Variant`` record per game and one ``Rules`` for every table.

Two-hand 1001 (RULES.md R1–R7, with V1's 32 cards as its ``deck_size``) and the games for three and
four (RULES-VARIANTS.md V2–V7) are configurations of one deal state machine (``deal``) and one match
(``match``). Everything a game changes that is a *value* lives here — seats, pack, deal packets,
stock or talon, auction minimum, declaration values, meld limits, the follower's duty, scoring kind
and targets. The few rules that are *functions* (obligations, the winning card so far, declarable
suits) are in ``kernel``; what is two-hand 1001's own (drawing from the stock after each trick and
any card while it lasts, R4 phase 1; ``by_order`` scoring, R3; the faced stock bottom, R2) is
decided by the layout's stock and by the options below.

Variant ids: ``twohand`` (R1–R7, V1), ``mcleod`` (V2), ``rassel`` (V3), ``thousand3`` (V4),
``thousand4`` (V5), ``bidding`` (V7); V6 ``jungfrau`` is an option of every game.

A table's rules are written and read (``to_dict`` / ``from_dict``: the database, the protocol, the
replay CLI) in two shapes: two-hand 1001 without a ``variant`` key, exactly as it always was, and a
game of three or four with its ``variant``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from .cards import card, deck_mask, mask_of
from .kernel import BY_ORDER_POINTS, BY_SUIT_POINTS, Duty

__all__ = [
    "SIMPLIFIED_TARGET",
    "TARGETS",
    "TWO_HAND",
    "VARIANTS",
    "DeclarationScoring",
    "Layout",
    "Packet",
    "Rules",
    "Scoring",
    "ScoringKind",
    "Variant",
    "VariantId",
]

VariantId = Literal["twohand", "mcleod", "rassel", "thousand3", "thousand4", "bidding"]
ScoringKind = Literal["nearest_ten", "round_up", "thousand", "exact"]
Scoring = Literal["original", "simplified"]
DeclarationScoring = Literal["by_suit", "by_order"]

# One step of a deal (R2, V0.2): ("each", n) — a packet of n cards to every player in turn, forehand
# to dealer; ("talon", n) — the next n cards to the talon; ("stock", n) — the last n cards, face down.
Packet = tuple[Literal["each", "talon", "stock"], int]
TalonName = Literal["talon", "skat"]  # the word for the talon: Skat's own in V7 (the client's words)

TARGETS = (1001, 501, 301)  # R5 table option `target`
SIMPLIFIED_TARGET = 100  # ruling V4.9a
RASSEL_POINTS = (40, 60, 100, 80)  # V3.5: ♣ 40, ♠ 60, ♥ 100, ♦ 80 (suit order C S H D)


@dataclass(frozen=True, slots=True)
class Layout:
    """The pack and the deal of a game for one seat count (its sizes worked out once)."""

    seats: int
    pack: int  # the cards in play, as a mask
    packets: tuple[Packet, ...]
    hand_size: int = field(init=False)
    talon_size: int = field(init=False)
    stock_size: int = field(init=False)
    deck_size: int = field(init=False)

    def __post_init__(self) -> None:
        for kind, size in (("each", "hand_size"), ("talon", "talon_size"), ("stock", "stock_size")):
            object.__setattr__(self, size, sum(n for k, n in self.packets if k == kind))
        object.__setattr__(self, "deck_size", self.pack.bit_count())


@dataclass(frozen=True, slots=True)
class Variant:
    id: VariantId
    rule: str  # its section of the rules: R4 for two-hand 1001, V2 … V7
    layouts: tuple[Layout, ...]  # the first of a seat count is its default pack
    minimum_bid: int | None  # V0.6; None: no auction (two-hand 1001, V4, V5)
    declaration_values: tuple[int, int, int, int]  # by suit C S H D (R3 `by_suit`; ruling V0.5b)
    melds_ascending: bool  # V4.5: a meld must be worth more than every earlier one
    meld_needs_trick: bool  # R3 / V7.7: a declaration counts only for a player who took a trick (not V4.6)
    meld_ban_below_target: int | None  # V7.7 / ruling V7.7a: no meld at a total of target − this or more
    duty: Duty  # the follower's obligations (kernel.obligation_mask); in two-hand 1001 once the stock is empty
    scoring_kind: ScoringKind
    targets: tuple[int, ...]  # for `original` scoring; the first is the default
    simplified_allowed: bool  # V4.9: the `simplified` scoring option (played to 100, ruling V4.9a)
    talon_name: TalonName = "talon"  # what the game's rules call its talon in words (V7.5: the skat)

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(layout.seats for layout in self.layouts))

    @property
    def has_auction(self) -> bool:
        return self.minimum_bid is not None

    @property
    def has_stock(self) -> bool:
        return any(layout.stock_size for layout in self.layouts)

    def layout(self, seats: int, deck_size: int | None = None) -> Layout:
        for layout in self.layouts:
            if layout.seats == seats and deck_size in (None, layout.deck_size):
                return layout
        raise ValueError(f"{self.id} is played by {' or '.join(map(str, self.seat_counts))} seats, not {seats!r}")


def _without(pack: int, *names: str) -> int:
    return pack & ~mask_of(card(n) for n in names)


TWO_HAND = Variant(  # R1–R7, V1
    id="twohand",
    rule="R4",
    layouts=(
        Layout(2, deck_mask(6), (("each", 3), ("each", 2), ("each", 3), ("stock", 8))),  # R2: 3-2-3, 8 to the stock
        Layout(2, deck_mask(8), (("each", 3), ("each", 3), ("stock", 20))),  # V1: 6 cards each, 20 to the stock
    ),
    minimum_bid=None,
    declaration_values=BY_SUIT_POINTS,  # R3 `by_suit` (`by_order` is a table option)
    melds_ascending=False,
    meld_needs_trick=True,  # R3
    meld_ban_below_target=None,
    duty="head",  # R4 phase 2 (phase 1: any card while the stock lasts)
    scoring_kind="exact",  # R5
    targets=TARGETS,
    simplified_allowed=False,
)

VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        TWO_HAND,
        Variant(  # V2 three-hand 1001 (McLeod)
            id="mcleod",
            rule="V2",
            layouts=(Layout(3, deck_mask(5), (("each", 3), ("talon", 2), ("each", 3))),),  # V2.2, ruling V2.3
            minimum_bid=40,  # V2.4
            declaration_values=BY_SUIT_POINTS,  # V2.6
            melds_ascending=False,
            meld_needs_trick=True,  # V2.6 (R3)
            meld_ban_below_target=None,
            duty="follow_then_trump",  # ruling V2.7
            scoring_kind="nearest_ten",  # V2.9, ruling V2.9a
            targets=TARGETS,  # V2.10
            simplified_allowed=False,
        ),
        Variant(  # V3 Rassel / Russeln
            id="rassel",
            rule="V3",
            layouts=(Layout(3, deck_mask(6), (("each", 3), ("each", 2), ("each", 3))),),  # V3.2, V3.3a, V3.3b
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
            layouts=(Layout(3, deck_mask(6), (("each", 3), ("each", 3), ("each", 2))),),  # V4.2, V4.3
            minimum_bid=None,  # V4.1
            declaration_values=BY_SUIT_POINTS,  # V4.5, ruling V4.5a
            melds_ascending=True,  # V4.5
            meld_needs_trick=False,  # ruling V4.6
            meld_ban_below_target=None,
            duty="follow",  # V4.7
            scoring_kind="thousand",  # V4.9
            targets=TARGETS,  # ruling V4.9a (original only)
            simplified_allowed=True,
        ),
        Variant(  # V5 1000 for four
            id="thousand4",
            rule="V5",
            layouts=(Layout(4, deck_mask(8), (("each", 3), ("each", 3), ("each", 2))),),  # V5.1
            minimum_bid=None,
            declaration_values=BY_SUIT_POINTS,
            melds_ascending=True,
            meld_needs_trick=False,
            meld_ban_below_target=None,
            duty="follow",
            scoring_kind="thousand",
            targets=TARGETS,
            simplified_allowed=True,
        ),
        Variant(  # V7 1001 with bidding
            id="bidding",
            rule="V7",
            layouts=(  # V7.2, ruling V7.3
                Layout(3, deck_mask(8), (("each", 3), ("talon", 2), ("each", 4), ("each", 3))),
                Layout(4, _without(deck_mask(8), "7H", "7D"), (("each", 3), ("talon", 2), ("each", 4))),
            ),
            minimum_bid=40,  # ruling V7.4a
            declaration_values=BY_SUIT_POINTS,  # V7.7
            melds_ascending=False,  # V7.7: any order
            meld_needs_trick=True,  # V7.7
            meld_ban_below_target=100,  # V7.7, ruling V7.7a
            duty="follow",  # V7.8
            scoring_kind="exact",  # V7.9, ruling V7.9a
            targets=TARGETS,  # V7.10
            simplified_allowed=False,
            talon_name="skat",  # V7.3, V7.5
        ),
    )
}

# The two shapes a table's rules are written in: two-hand 1001's (no variant) and the others'.
_TWO_HAND_KEYS = ("declaration_scoring", "show_stock_bottom", "target", "open_scores", "deck_size", "jungfrau")
_VARIANT_KEYS = ("variant", "seats", "target", "scoring", "jungfrau", "open_scores")
_BY_ORDER = "by_order"


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's rules: its game and options. ``seats``, ``target`` and ``deck_size`` default from
    the game; after construction they are always set."""

    variant: str = "twohand"
    seats: int | None = None
    target: int | None = None
    scoring: Scoring = "original"  # V4.9 (V4 and V5 only)
    jungfrau: bool = False  # V6: 100 (10 simplified) to a seat that took no trick
    open_scores: bool = False  # R7, V0.11: everyone's card points shown
    declaration_scoring: DeclarationScoring = "by_suit"  # R3, two-hand 1001 only (ruling V0.5b)
    show_stock_bottom: bool = False  # R2, two-hand 1001 only
    deck_size: int | None = None  # two-hand 1001: 24 (R1) or 32 (V1); the others: their pack

    def __post_init__(self) -> None:
        game = VARIANTS.get(self.variant) if isinstance(self.variant, str) else None
        if game is None:
            raise ValueError(f"variant must be one of {', '.join(_WIRE_VARIANTS)}, not {self.variant!r}")
        if game is TWO_HAND:
            self._check_two_hand()
        else:
            self._check_variant(game)
        for flag in ("open_scores", "jungfrau") if game is TWO_HAND else ("jungfrau", "open_scores"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false")
        offered = (SIMPLIFIED_TARGET,) if self.scoring == "simplified" else game.targets
        if self.target is None:
            object.__setattr__(self, "target", offered[0])
        if type(self.target) is not int or self.target not in offered:
            raise ValueError(f"target must be one of {offered}, not {self.target!r}")
        if game is TWO_HAND and self.deck_size is None:
            object.__setattr__(self, "deck_size", 24)
        if game is TWO_HAND and (type(self.deck_size) is not int or self.deck_size not in (24, 32)):
            raise ValueError(f"deck_size must be 24 or 32, not {self.deck_size!r}")
        object.__setattr__(self, "deck_size", game.layout(self.n, self.deck_size).deck_size)

    def _check_two_hand(self) -> None:
        if self.declaration_scoring not in ("by_suit", _BY_ORDER):
            raise ValueError(f"declaration_scoring must be by_suit or by_order, not {self.declaration_scoring!r}")
        if not isinstance(self.show_stock_bottom, bool):
            raise ValueError("show_stock_bottom must be true or false")
        if self.seats is None:
            object.__setattr__(self, "seats", 2)
        if self.seats != 2 or self.scoring != "original":
            raise ValueError("two-hand 1001 is played by 2 seats with original scoring")

    def _check_variant(self, game: Variant) -> None:
        if self.seats is None:
            object.__setattr__(self, "seats", game.seat_counts[0])
        if type(self.seats) is not int or self.seats not in game.seat_counts:
            raise ValueError(f"{self.variant} is played by {' or '.join(map(str, game.seat_counts))} seats")
        if self.scoring not in ("original", "simplified"):
            raise ValueError(f"scoring must be original or simplified, not {self.scoring!r}")
        if self.scoring == "simplified" and not game.simplified_allowed:
            raise ValueError(f"{self.variant} has no simplified scoring (V4.9, ruling V7.9a)")
        if self.declaration_scoring != "by_suit" or self.show_stock_bottom:
            raise ValueError("declaration_scoring and show_stock_bottom are options of two-hand 1001 (ruling V0.5b)")

    # ------------------------------------------------------------ what the game is

    @property
    def game(self) -> Variant:
        return VARIANTS[self.variant]

    @property
    def two_hand(self) -> bool:
        """Two-hand 1001 (R1–R7, V1): a stock to draw from, no auction."""
        return self.variant == "twohand"

    @property
    def n(self) -> int:
        """The number of seats."""
        assert self.seats is not None
        return self.seats

    @property
    def goal(self) -> int:
        """The target (R5, V0.9)."""
        assert self.target is not None
        return self.target

    @property
    def layout(self) -> Layout:
        return _layout(self.variant, self.n, self.deck_size)

    @property
    def pack(self) -> int:
        return self.layout.pack

    @property
    def by_suit(self) -> bool:
        """R3: declarations score by suit (two-hand `by_order`: by their order in the deal)."""
        return self.declaration_scoring != _BY_ORDER

    def declaration_points(self, suit: int, nth: int) -> int:
        """R3, V0.5: points for declaring ``suit`` as the ``nth`` (0-based) declaration of the deal."""
        if self.declaration_scoring == _BY_ORDER:
            return BY_ORDER_POINTS[nth]
        return self.game.declaration_values[suit]

    # ------------------------------------------------------------ written and read

    def to_dict(self) -> dict[str, Any]:
        """Two-hand 1001 without ``variant`` (``jungfrau`` only when on), as it was always stored;
        a game of three or four with its ``variant`` and every option."""
        if self.two_hand:
            data: dict[str, Any] = {
                "declaration_scoring": self.declaration_scoring,
                "show_stock_bottom": self.show_stock_bottom,
                "target": self.target,
                "open_scores": self.open_scores,
                "deck_size": self.deck_size,
            }
            if self.jungfrau:
                data["jungfrau"] = True
            return data
        return {
            "variant": self.variant,
            "seats": self.seats,
            "target": self.target,
            "scoring": self.scoring,
            "jungfrau": self.jungfrau,
            "open_scores": self.open_scores,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Rules:
        """Build from JSON-like data in either shape: with ``variant`` a game of three or four (the
        variant required, the rest optional), without it two-hand 1001; unknown fields refused."""
        data = dict(data or {})
        known = _VARIANT_KEYS if "variant" in data else _TWO_HAND_KEYS
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(unknown)}")
        if data.get("variant", "mcleod") not in _WIRE_VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(_WIRE_VARIANTS)}, not {data['variant']!r}")
        return cls(**data)


@cache
def _layout(variant: str, seats: int, deck_size: int | None) -> Layout:
    return VARIANTS[variant].layout(seats, deck_size)


# The variants named on the wire: two-hand 1001 is the table without one.
_WIRE_VARIANTS = tuple(v for v in VARIANTS if v != "twohand")
