"""The engine's events, one family for every game: what an action caused, as frozen records.

Each event is a frozen, slotted dataclass whose ``kind`` names it; serialized (e.g. by pydantic) its
fields are exactly the JSON the browser client reads. Cards and suits are written as in R1
(``"QH"``, ``"H"``); sequences are tuples, which serialize as JSON arrays. An event is never changed
once emitted: ``view.events_for`` hands an observer redacted *copies*.

``deal.apply`` emits ``BidMade``, ``Passed``, ``AuctionWon``, ``TalonTaken``, ``Discarded``,
``ThrownIn`` (V0.6, V0.7), ``CardPlayed``, ``Declared``, ``TrickWon`` and, while a stock lasts,
``CardDrawn`` (R4 phase 1); ``match.apply`` adds ``DealOver``, ``DealStarted`` and ``MatchOver``.
Three carry cards only one seat may see: the drawn card (R7), the talon and the discards (ruling
V0.7a).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "AuctionWon",
    "BidMade",
    "CardDrawn",
    "CardPlayed",
    "DealEvent",
    "DealOver",
    "DealStarted",
    "Declared",
    "Discarded",
    "EndReason",
    "Event",
    "MatchOver",
    "Passed",
    "TalonTaken",
    "ThrownIn",
    "TrickWon",
]

EndReason = Literal["target", "resign", "absence"]


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
    """V0.6: the auction ended; ``seat`` is the declarer and ``contract`` its last bid."""

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
class CardPlayed:
    """``seat`` played ``card``; ``declare`` is the suit it declared with that lead (R3, V0.5), else None."""

    kind: Literal["card_played"] = "card_played"
    seat: int
    card: str
    declare: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Declared:
    """R3, V0.5: ``seat`` declared ``suit`` (now trump) for ``points``; right after its ``CardPlayed``."""

    kind: Literal["declaration"] = "declaration"
    seat: int
    suit: str
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickWon:
    """R4, V0.4: ``seat`` took the trick ``leader`` led; ``cards`` in the order played, lead first."""

    kind: Literal["trick_won"] = "trick_won"
    seat: int
    leader: int
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDrawn:
    """R4 phase 1: ``seat`` drew ``card`` from the stock; None in what any other observer is told (R7)."""

    kind: Literal["card_drawn"] = "card_drawn"
    seat: int
    card: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DealOver:
    """Deal ``number`` is scored (R5, V0.8, the game's scoring); per seat, ``totals`` after it, and
    its ``seed``, which may be shown now (R7). ``declarer``, ``contract`` and ``made`` are None
    without an auction, ``thrown_in`` true when every player passed (ruling V0.6a)."""

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
class DealStarted:
    """R2, V0.1: deal ``number`` (0-based) is dealt by ``dealer``."""

    kind: Literal["deal_started"] = "deal_started"
    number: int
    dealer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver:
    """The match is over at ``totals``: won on the target by ``winner`` (R5, ruling V0.9), or
    abandoned by ``loser`` (``reason`` resign or absence, R6.2 / V0.10a) — then ``winner`` is the
    seat first alone after it (the other seat of two), or None when two share first place."""

    kind: Literal["match_over"] = "match_over"
    winner: int | None
    loser: int | None
    reason: EndReason
    totals: tuple[int, ...]


DealEvent = (
    BidMade | Passed | AuctionWon | TalonTaken | Discarded | ThrownIn | CardPlayed | Declared | TrickWon | CardDrawn
)
Event = DealEvent | DealOver | DealStarted | MatchOver
