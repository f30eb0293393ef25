"""R2, R5, R6 — a match of deals to the target, and what the loser owes.

A match is deterministic from ``(rules, seed, actions)``: the first dealer and every
deal's seed are derived from the match seed, so the server only has to store the seed
and the ordered log of accepted actions to rebuild a match after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from . import deal as deal_rules
from .deal import DealState, Play
from .errors import IllegalAction, IllegalCode
from .events import DealOver, DealStarted, EndReason, Event, MatchOver
from .rules import Rules
from .shuffle import derive


@dataclass(frozen=True, slots=True)
class Resign:
    """R6.2: a seat gives up the match (``absence``: the server ends it for a missing player)."""

    reason: Literal["resign", "absence"] = "resign"


Action = Play | Resign


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal, as the history and the database keep it."""

    number: int
    dealer: int
    seed: int
    card_points: tuple[int, int]
    declarations: tuple[deal_rules.Declaration, ...]
    declaration_points: tuple[int, int]
    score: tuple[int, int]
    totals: tuple[int, int]  # match totals after this deal


@dataclass(frozen=True, slots=True)
class MatchState:
    rules: Rules
    seed: int
    first_dealer: int
    deal_number: int  # 0-based number of the current (or last) deal
    deal: DealState
    totals: tuple[int, int]
    history: tuple[DealRecord, ...]
    winner: int | None = None
    end_reason: EndReason | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None


def deal_seed(match_seed: int, number: int) -> int:
    return derive(match_seed, f"deal:{number}")


def first_dealer(match_seed: int) -> int:
    """R2: the first dealer is chosen at random — from the (recorded) match seed."""
    return derive(match_seed, "first-dealer") & 1


def dealer_of(first: int, number: int) -> int:
    """R2: the deal alternates after every hand."""
    return (first + number) % 2


def new_match(rules: Rules, seed: int) -> MatchState:
    first = first_dealer(seed)
    return MatchState(
        rules=rules,
        seed=seed,
        first_dealer=first,
        deal_number=0,
        deal=deal_rules.new_deal(rules, deal_seed(seed, 0), first),
        totals=(0, 0),
        history=(),
    )


def match_winner(totals: tuple[int, int], target: int) -> int | None:
    """R5 and ruling R5.1: who has won once a deal's scores are added, if anyone."""
    a, b = totals
    if (a >= target or b >= target) and a != b:
        return 0 if a > b else 1
    return None  # nobody there yet, or an exact tie past the target: another deal


def apply(match: MatchState, seat: int, action: Action) -> tuple[MatchState, tuple[Event, ...]]:
    """Apply one action of ``seat``; return the next match and the events it caused.

    Raises ``IllegalAction`` and changes nothing if refused. The events are the deal's own
    (``deal.apply``), then at the end of a deal ``DealOver`` followed by ``MatchOver`` or
    ``DealStarted``; a resignation causes only ``MatchOver``.
    """
    if match.over:
        raise IllegalAction(IllegalCode.MATCH_OVER, "the match is over")
    if seat not in (0, 1):
        raise IllegalAction(IllegalCode.NOT_YOUR_TURN, f"there is no seat {seat}")
    if isinstance(action, Resign):
        return _end(match, 1 - seat, action.reason), (
            MatchOver(winner=1 - seat, reason=action.reason, totals=match.totals),
        )

    deal, events = deal_rules.apply(match.deal, seat, action)
    if not deal.over:
        return replace(match, deal=deal), events

    result = deal_rules.deal_result(deal)
    score = result.score
    totals = (match.totals[0] + score[0], match.totals[1] + score[1])
    record = DealRecord(
        number=match.deal_number,
        dealer=deal.dealer,
        seed=deal.seed if deal.seed is not None else 0,
        card_points=result.card_points,
        declarations=deal.declarations,
        declaration_points=result.declaration_points,
        score=score,
        totals=totals,
    )
    deal_over = DealOver(
        card_points=result.card_points,
        declaration_points=result.declaration_points,
        score=score,
        number=match.deal_number,
        totals=totals,
        seed=str(record.seed),  # the deal is over: its seed may be shown (R7)
    )
    finished = replace(match, deal=deal, totals=totals, history=(*match.history, record))

    winner = match_winner(totals, match.rules.target)
    if winner is not None:
        return _end(finished, winner, "target"), (
            *events,
            deal_over,
            MatchOver(winner=winner, reason="target", totals=totals),
        )

    number = match.deal_number + 1
    dealer = dealer_of(match.first_dealer, number)
    next_deal = deal_rules.new_deal(match.rules, deal_seed(match.seed, number), dealer)
    return replace(finished, deal=next_deal, deal_number=number), (
        *events,
        deal_over,
        DealStarted(number=number, dealer=dealer),
    )


def replay(rules: Rules, seed: int, actions: list[tuple[int, Action]]) -> MatchState:
    """Rebuild a match from its seed and its log of ``(seat, action)``."""
    match = new_match(rules, seed)
    for seat, action in actions:
        match, _ = apply(match, seat, action)
    return match


def stake_owed(stake_per_point: Decimal, target: int, loser_total: int) -> Decimal:
    """R6: the loser owes ``stake × (target − loser's total)``, never negative (exact, R6.1)."""
    if not isinstance(stake_per_point, Decimal):
        raise TypeError("stakes are exact decimals (R6.1)")
    if stake_per_point < 0:
        raise ValueError("a stake cannot be negative")
    return stake_per_point * max(0, target - loser_total)


def _end(match: MatchState, winner: int, reason: EndReason) -> MatchState:
    return replace(match, winner=winner, end_reason=reason)
