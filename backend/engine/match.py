"""A match of deals to the target for every game of the family, and what its losers owe.

R2, R5, R5.1, R6 for two seats are V0.1, V0.9, V0.10 and V0.10a at n = 2: one match. It is
deterministic from ``(rules, seed, actions)``: the first dealer and every deal's seed are derived
from the match seed, so a server only has to store the seed and the ordered log of accepted actions
to rebuild a match after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from . import deal as deal_rules
from .deal import Action, DealResult, DealState, Declaration
from .errors import IllegalAction, IllegalCode
from .events import DealOver, DealStarted, EndReason, Event, MatchOver
from .shuffle import derive
from .variants import Rules

__all__ = [
    "DealRecord",
    "MatchAction",
    "MatchState",
    "Payment",
    "Resign",
    "apply",
    "deal_seed",
    "first_dealer",
    "match_winner",
    "new_match",
    "payments",
    "places",
    "replay",
    "stake_owed",
]


@dataclass(frozen=True, slots=True)
class Resign:
    """R6.2, V0.10a: a seat gives up the match (``absence``: the server ends it for a missing player)."""

    reason: Literal["resign", "absence"] = "resign"


MatchAction = Action | Resign
Payment = tuple[int, int, int, Decimal]  # payer seat, payee seat, points short, amount (R6, V0.10)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished (or thrown-in) deal, as the history and the database keep it."""

    number: int
    dealer: int
    seed: int
    declarations: tuple[Declaration, ...]
    result: DealResult
    totals: tuple[int, ...]  # match totals after this deal


@dataclass(frozen=True, slots=True)
class MatchState:
    rules: Rules
    seed: int
    first_dealer: int
    deal_number: int  # 0-based number of the current (or last) deal
    deal: DealState
    totals: tuple[int, ...]
    history: tuple[DealRecord, ...]
    winner: int | None = None  # R5.1, ruling V0.9; after a resignation the one who stayed at a table of two (V0.10a)
    loser: int | None = None  # R6.2, ruling V0.10a: who resigned or stayed away
    end_reason: EndReason | None = None

    @property
    def over(self) -> bool:
        return self.end_reason is not None


def deal_seed(match_seed: int, number: int) -> int:
    return derive(match_seed, f"deal:{number}")


def first_dealer(rules: Rules, match_seed: int) -> int:
    """R2, V0.1: the first dealer is chosen at random — from the (recorded) match seed."""
    return derive(match_seed, "first-dealer") % rules.n


def new_match(rules: Rules, seed: int) -> MatchState:
    first = first_dealer(rules, seed)
    totals = (0,) * rules.n
    return MatchState(
        rules=rules,
        seed=seed,
        first_dealer=first,
        deal_number=0,
        deal=deal_rules.new_deal(rules, deal_seed(seed, 0), first, totals),
        totals=totals,
        history=(),
    )


def match_winner(totals: Sequence[int], target: int) -> int | None:
    """R5.1, ruling V0.9: once any total is at or over the target, the unique highest total wins; if
    two or more share it, another deal is played; below the target, play on."""
    top = max(totals)
    if top >= target and list(totals).count(top) == 1:
        return list(totals).index(top)
    return None


def places(totals: Sequence[int], winner: int | None, loser: int | None) -> tuple[int, ...]:
    """Every seat's place in a finished match, 1 the best (R5, ruling V0.9, R6.2, V0.10a).

    Won on the target (``loser`` None): the winner is first and the others follow by their totals;
    equal totals share a place, and the next place is skipped (1, 2, 2, 4).
    Abandoned (R6.2, ruling V0.10a): the player who left loses alone and is last; everyone who
    stayed shares first place, whatever the totals (1, 1, 3 at a table of three; at a table of two
    the one who stayed is first alone).
    """
    n = len(totals)
    if loser is not None:
        return tuple(n if seat == loser else 1 for seat in range(n))

    def key(seat: int) -> tuple[int, int]:
        return (0 if seat == winner else 1, -totals[seat])

    return tuple(1 + sum(1 for other in range(n) if key(other) < key(seat)) for seat in range(n))


def apply(match: MatchState, seat: int, action: MatchAction) -> tuple[MatchState, tuple[Event, ...]]:
    """Apply one action of ``seat``; return the next match and its events (``IllegalAction`` if refused).

    The events are the deal's own (``deal.apply``), then at the end of a deal ``DealOver`` followed by
    ``MatchOver`` or ``DealStarted`` (R2, ruling V0.1a: the deal passes left, a thrown-in deal
    included); a resignation causes only ``MatchOver``.
    """
    if match.over:
        raise IllegalAction(IllegalCode.MATCH_OVER, "the match is over")
    if type(seat) is not int or not 0 <= seat < match.rules.n:
        raise IllegalAction(IllegalCode.NOT_YOUR_TURN, f"there is no seat {seat}")
    if isinstance(action, Resign):  # R6.2, ruling V0.10a: the resigning player loses alone
        ranked = places(match.totals, None, seat)
        winner = ranked.index(1) if ranked.count(1) == 1 else None
        ended = replace(match, winner=winner, loser=seat, end_reason=action.reason)
        return ended, (MatchOver(winner=winner, loser=seat, reason=action.reason, totals=match.totals),)

    deal, events = deal_rules.apply(match.deal, seat, action)
    if not deal.over:
        return replace(match, deal=deal), events
    result = deal_rules.deal_result(deal)
    totals = tuple(t + s for t, s in zip(match.totals, result.score, strict=True))
    seed = deal.seed if deal.seed is not None else 0
    record = DealRecord(match.deal_number, deal.dealer, seed, deal.declarations, result, totals)
    deal_over = DealOver(
        number=match.deal_number,
        thrown_in=result.thrown_in,
        declarer=result.declarer,
        contract=result.contract,
        made=result.made,
        card_points=result.card_points,
        declaration_points=result.declaration_points,
        deal_points=result.deal_points,
        jungfrau=result.jungfrau,
        score=result.score,
        totals=totals,
        seed=str(seed),  # the deal is over: its seed may be shown (R7, V0.11)
    )
    finished = replace(match, deal=deal, totals=totals, history=(*match.history, record))
    winner = match_winner(totals, match.rules.goal)
    if winner is not None:
        over = MatchOver(winner=winner, loser=None, reason="target", totals=totals)
        return replace(finished, winner=winner, end_reason="target"), (*events, deal_over, over)
    number = match.deal_number + 1
    dealer = (deal.dealer + 1) % match.rules.n  # R2: the deal alternates; ruling V0.1a: it passes left
    following = deal_rules.new_deal(match.rules, deal_seed(match.seed, number), dealer, totals)
    return replace(finished, deal=following, deal_number=number), (
        *events,
        deal_over,
        DealStarted(number=number, dealer=dealer),
    )


def replay(rules: Rules, seed: int, actions: Sequence[tuple[int, MatchAction]]) -> MatchState:
    """Rebuild a match from its seed and its log of ``(seat, action)``."""
    match = new_match(rules, seed)
    for seat, action in actions:
        match, _ = apply(match, seat, action)
    return match


def stake_owed(stake_per_point: Decimal, target: int, total: int) -> Decimal:
    """R6, V0.10: a loser owes ``stake × (target − own total)``, never negative (exact, R6.1); the
    shortfall counts in full even below zero."""
    if not isinstance(stake_per_point, Decimal):
        raise TypeError("stakes are exact decimals (R6.1)")
    if stake_per_point < 0:
        raise ValueError("a stake cannot be negative")
    return stake_per_point * max(0, target - total)


def payments(match: MatchState, stake_per_point: Decimal) -> tuple[Payment, ...]:
    """R6 and rulings V0.10 / V0.10a: what a finished match's losers owe, as ``(payer, payee, points
    short, amount)``; a zero amount is left out.

    Won on the target: every other player owes the winner ``stake × (target − own total)``.
    Abandoned: the leaver owes every other player ``stake × (target − leaver's total)``, and the
    others owe nothing to each other.
    """
    target, n = match.rules.goal, match.rules.n
    out: list[Payment] = []
    if match.loser is not None:
        short = max(0, target - match.totals[match.loser])
        owed = stake_owed(stake_per_point, target, match.totals[match.loser])
        if owed:
            out += [(match.loser, seat, short, owed) for seat in range(n) if seat != match.loser]
    elif match.winner is not None:
        for seat in range(n):
            owed = stake_owed(stake_per_point, target, match.totals[seat])
            if seat != match.winner and owed:
                out.append((seat, match.winner, max(0, target - match.totals[seat]), owed))
    return tuple(out)
