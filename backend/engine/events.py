"""The engine's events: what an action caused, as frozen records (R3–R6).

Each event is a frozen, slotted dataclass whose ``kind`` names it; serialized (e.g. by pydantic)
its fields are exactly the JSON the browser client reads. Cards and suits are written as in R1
(``"QH"``, ``"H"``); pairs are tuples, which serialize as JSON arrays. An event is never
changed once emitted: ``view.events_for_seat`` hands a seat redacted *copies*.

``deal.apply`` emits ``CardPlayed``, ``Declared``, ``TrickWon`` and ``CardDrawn``;
``match.apply`` adds ``DealOver``, ``DealStarted`` and ``MatchOver``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "CardDrawn",
    "CardPlayed",
    "DealEvent",
    "DealOver",
    "DealStarted",
    "Declared",
    "EndReason",
    "Event",
    "MatchOver",
    "TrickWon",
]

EndReason = Literal["target", "resign", "absence"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed:
    """``seat`` played ``card``; ``declare`` is the suit it declared with that lead (R3), else None."""

    kind: Literal["card_played"] = "card_played"
    seat: int
    card: str
    declare: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Declared:
    """R3: ``seat`` declared ``suit`` (now trump) for ``points``; emitted right after its ``CardPlayed``."""

    kind: Literal["declaration"] = "declaration"
    seat: int
    suit: str
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickWon:
    """R4: ``seat`` took the trick that ``leader`` led; ``cards`` are (lead, follow)."""

    kind: Literal["trick_won"] = "trick_won"
    seat: int
    leader: int
    cards: tuple[str, str]
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDrawn:
    """R4 phase 1: ``seat`` drew ``card`` from the stock; None in what the other seat is told (R7)."""

    kind: Literal["card_drawn"] = "card_drawn"
    seat: int
    card: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DealOver:
    """R5: deal ``number`` is scored; ``totals`` are the match totals after it, ``seed`` its seed (R2, R7)."""

    kind: Literal["deal_over"] = "deal_over"
    card_points: tuple[int, int]
    declaration_points: tuple[int, int]
    score: tuple[int, int]
    number: int
    totals: tuple[int, int]
    seed: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DealStarted:
    """R2: deal ``number`` (0-based) is dealt by ``dealer``."""

    kind: Literal["deal_started"] = "deal_started"
    number: int
    dealer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver:
    """R5, R6.2: the match is won by ``winner`` (``reason`` target, resign or absence) at ``totals``."""

    kind: Literal["match_over"] = "match_over"
    winner: int
    reason: EndReason
    totals: tuple[int, int]


DealEvent = CardPlayed | Declared | TrickWon | CardDrawn
Event = CardPlayed | Declared | TrickWon | CardDrawn | DealOver | DealStarted | MatchOver
