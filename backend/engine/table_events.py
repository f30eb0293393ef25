"""The events of a V2–V7 deal and match (RULES-VARIANTS.md), as frozen records like ``events``.

Card play reuses the two-hand records ``CardPlayed`` and ``Declared`` (and ``DealStarted``); the
auction, the talon and the n-seat trick, deal and match results have their own. Two of them carry
cards only the declarer may see (ruling V0.7a): ``TalonTaken.cards`` and ``Discarded.cards`` —
``table_view.table_events_for_seat`` hands everyone else a copy with ``cards=None``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .events import CardPlayed, DealStarted, Declared

__all__ = [
    "AuctionWon",
    "BidMade",
    "Discarded",
    "Passed",
    "TableDealEvent",
    "TableDealOver",
    "TableEvent",
    "TableMatchOver",
    "TableTrickWon",
    "TalonTaken",
    "ThrownIn",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class BidMade:
    """V0.6: ``seat`` bid ``amount``."""

    kind: Literal["bid"] = "bid"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Passed:
    """V0.6: ``seat`` passed (a pass is final)."""

    kind: Literal["pass"] = "pass"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AuctionWon:
    """V0.6: the auction ended; ``seat`` is the declarer and ``contract`` their last bid."""

    kind: Literal["auction_won"] = "auction_won"
    seat: int
    contract: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TalonTaken:
    """V0.7: the declarer ``seat`` took the talon; ``cards`` only in what the declarer is told (V0.7a)."""

    kind: Literal["talon_taken"] = "talon_taken"
    seat: int
    cards: tuple[str, ...] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Discarded:
    """V0.7: the declarer ``seat`` discarded two cards face down; ``cards`` only for the declarer."""

    kind: Literal["discarded"] = "discarded"
    seat: int
    cards: tuple[str, str] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ThrownIn:
    """Ruling V0.6a: every player passed; nobody scores and the next dealer deals."""

    kind: Literal["thrown_in"] = "thrown_in"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableTrickWon:
    """V0.4: ``seat`` took the trick ``leader`` led; ``cards`` in the order played, lead first."""

    kind: Literal["trick_won"] = "trick_won"
    seat: int
    leader: int
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TableDealOver:
    """Deal ``number`` is scored (V0.8, the variant's scoring); per seat, ``totals`` after it."""

    kind: Literal["deal_over"] = "deal_over"
    number: int
    thrown_in: bool
    declarer: int | None
    contract: int | None
    made: bool | None
    card_points: tuple[int, ...]
    declaration_points: tuple[int, ...]
    deal_points: tuple[int, ...]
    jungfrau: tuple[int, ...]
    score: tuple[int, ...]
    totals: tuple[int, ...]
    seed: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TableMatchOver:
    """Ruling V0.9: ``winner`` reached the target alone; or ruling V0.10a: ``loser`` resigned or stayed away."""

    kind: Literal["match_over"] = "match_over"
    winner: int | None
    loser: int | None
    reason: Literal["target", "resign", "absence"]
    totals: tuple[int, ...]


TableDealEvent = (
    BidMade | Passed | AuctionWon | TalonTaken | Discarded | ThrownIn | CardPlayed | Declared | TableTrickWon
)
TableEvent = TableDealEvent | TableDealOver | DealStarted | TableMatchOver
