"""What a stored match is in the REST history: the pydantic models of a match page and its list.

Defined here, below the web layer, so that the rules that build them (``entries.py``) need nothing of
FastAPI; ``backend/api/schemas.py`` offers them with the other answers (as it does ``OptionsOut``
from ``rooms/messages.py``), and the OpenAPI document names them as before.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from backend.rooms.messages import OptionsOut


class MatchPlayer(BaseModel):
    id: str
    name: str
    bot_level: str | None


MatchResult = Literal["won", "lost"]
MatchStatus = Literal["playing", "finished"]
EndReason = Literal["target", "resign", "absence"]


class SeatedMatchPlayer(MatchPlayer):
    seat: int
    place: int | None = Field(default=None, description="once the match is over: 1 the best (a resigned seat last)")
    result: MatchResult | None = Field(default=None, description="once the match is over: won is first place")


class MatchStake(BaseModel):
    """R6: what the loser owes; ``balance`` is signed from the asking player's side."""

    amount: str
    currency: str
    stake_per_point: str
    points_short: int
    debtor_id: str
    creditor_id: str
    balance: str


class SettlementOut(BaseModel):
    """R6 / V0.10: ``debtor_id`` owes ``creditor_id`` ``amount`` (exact decimal text)."""

    debtor_id: str
    creditor_id: str
    amount: str
    currency: str
    stake_per_point: str
    points_short: int


class MatchOut(BaseModel):
    id: str
    room_id: str
    status: MatchStatus
    options: OptionsOut = Field(description="the match's options, in the shape of room.options")
    started_at: str
    finished_at: str | None
    players: list[SeatedMatchPlayer]
    my_seat: int
    opponent: MatchPlayer
    totals: list[int]
    winner_seat: int | None = Field(description="the one seat in first place; null while playing or when shared")
    result: MatchResult | None = Field(description="my result once the match is over (won: first place)")
    places: list[int] | None = Field(description="every seat's place once the match is over, 1 the best")
    end_reason: EndReason | None
    stake: MatchStake | None
    settlements: list[SettlementOut] = Field(description="every settlement of the match (V0.10: each loser)")


class DealDeclaration(BaseModel):
    seat: int
    suit: str
    points: int


class ReplayResult(BaseModel):
    """A finished deal's stored result (the match page, the replays)."""

    card_points: list[int]
    declarations: list[DealDeclaration]
    declaration_points: list[int]
    score: list[int]
    totals: list[int]
    declarer: int | None = Field(description="V0.6: the auction's winner; null without an auction")
    contract: int | None
    made: bool | None = Field(description="V0.8; null without a contract")
    thrown_in: bool = Field(description="ruling V0.6a: every player passed")


class DealOut(ReplayResult):
    number: int
    dealer: int
    seed: str


class RatingChangeOut(BaseModel):
    """What a finished match did to one seat's rating: the rating shown before and after it
    (``backend.ratings.displayed``) and the skill estimate after it."""

    seat: int
    player_id: str
    kind: str = Field(description="the game kind rated (RATING_KINDS)")
    before: int
    after: int
    change: int = Field(description="after − before")
    mu: float = Field(description="the skill estimate after the match (Weng–Lin, openskill)")
    sigma: float = Field(description="its uncertainty")


class MatchDetail(MatchOut):
    deals: list[DealOut]
    rating_changes: list[RatingChangeOut | None] = Field(
        description="per seat: what the match did to the rating; null for every seat of an unfinished or unrated "
        "match or one with a computer seat"
    )
