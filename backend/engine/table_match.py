"""V0.1, V0.9, V0.10 — a match of V2–V7 deals for n seats, and what the losers owe.

Deterministic from ``(rules, seed, actions)`` like two-hand ``match``: the first dealer and each
deal's seed are derived from the match seed (the same ``derive`` labels as ``match``), so a server
stores only the seed and the log of accepted actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from .deal import Declaration
from .errors import IllegalAction, IllegalCode
from .events import DealStarted
from .match import Resign, deal_seed
from .shuffle import derive
from .table_deal import (
    TableAction,
    TableDealResult,
    TableDealState,
    apply_table,
    new_table_deal,
    table_deal_result,
)
from .table_events import TableDealOver, TableEvent, TableMatchOver
from .variants import TableRules

__all__ = [
    "TableDealRecord",
    "TableMatchAction",
    "TableMatchState",
    "apply_table_match",
    "new_table_match",
    "places",
    "replay_table_match",
    "settlement",
    "table_first_dealer",
    "table_match_winner",
]

TableMatchAction = TableAction | Resign


@dataclass(frozen=True, slots=True)
class TableDealRecord:
    """A finished (or thrown-in) deal, as the history keeps it."""

    number: int
    dealer: int
    seed: int
    declarations: tuple[Declaration, ...]
    result: TableDealResult
    totals: tuple[int, ...]  # match totals after this deal


@dataclass(frozen=True, slots=True)
class TableMatchState:
    rules: TableRules
    seed: int
    first_dealer: int
    deal_number: int
    deal: TableDealState
    totals: tuple[int, ...]
    history: tuple[TableDealRecord, ...]
    winner: int | None = None  # ruling V0.9
    loser: int | None = None  # ruling V0.10a: who resigned or stayed away
    end_reason: str | None = None  # "target", "resign" or "absence"

    @property
    def over(self) -> bool:
        return self.end_reason is not None


def table_first_dealer(rules: TableRules, match_seed: int) -> int:
    """V0.1: the first dealer is chosen at random — from the (recorded) match seed."""
    return derive(match_seed, "first-dealer") % rules.n


def new_table_match(rules: TableRules, seed: int) -> TableMatchState:
    first = table_first_dealer(rules, seed)
    totals = (0,) * rules.n
    return TableMatchState(
        rules=rules,
        seed=seed,
        first_dealer=first,
        deal_number=0,
        deal=new_table_deal(rules, deal_seed(seed, 0), first, totals),
        totals=totals,
        history=(),
    )


def table_match_winner(totals: Sequence[int], target: int) -> int | None:
    """Ruling V0.9: once any total is at or over the target, the unique highest total wins; else play on."""
    top = max(totals)
    if top >= target and list(totals).count(top) == 1:
        return list(totals).index(top)
    return None


def places(totals: Sequence[int], winner: int | None, loser: int | None) -> tuple[int, ...]:
    """Every seat's place in a finished match, 1 the best (ruling V0.9, R6.2, V0.10a).

    Won on the target: the winner is first and the others follow by their totals. Abandoned: the
    player who left is last (R6.2, V0.10a: a loss, whatever the totals) and the others are ranked by
    their totals. Equal totals share a place, and the next place is skipped (1, 2, 2, 4).
    """
    n = len(totals)
    first = {winner} if winner is not None else set()
    last = {loser} if loser is not None else set()

    def key(seat: int) -> tuple[int, int]:
        return (0 if seat in first else 2 if seat in last else 1, -totals[seat])

    return tuple(1 + sum(1 for other in range(n) if key(other) < key(seat)) for seat in range(n))


def apply_table_match(
    match: TableMatchState, seat: int, action: TableMatchAction
) -> tuple[TableMatchState, tuple[TableEvent, ...]]:
    """Apply one action of ``seat``; return the next match and its events (``IllegalAction`` if refused).

    After the deal's own events: at the end of a deal ``TableDealOver`` then ``TableMatchOver`` or
    ``DealStarted`` (ruling V0.1a: the deal passes left, a thrown-in deal included).
    """
    if match.over:
        raise IllegalAction(IllegalCode.MATCH_OVER, "the match is over")
    if type(seat) is not int or not 0 <= seat < match.rules.n:
        raise IllegalAction(IllegalCode.NOT_YOUR_TURN, f"there is no seat {seat}")
    if isinstance(action, Resign):  # ruling V0.10a: the resigning player loses alone
        ended = replace(match, loser=seat, end_reason=action.reason)
        return ended, (TableMatchOver(winner=None, loser=seat, reason=action.reason, totals=match.totals),)

    deal, events = apply_table(match.deal, seat, action)
    if not deal.over:
        return replace(match, deal=deal), events
    result = table_deal_result(deal)
    totals = tuple(t + s for t, s in zip(match.totals, result.score, strict=True))
    record = TableDealRecord(
        number=match.deal_number,
        dealer=deal.dealer,
        seed=deal.seed if deal.seed is not None else 0,
        declarations=deal.declarations,
        result=result,
        totals=totals,
    )
    deal_over = TableDealOver(
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
        seed=str(record.seed),  # the deal is over: its seed may be shown (V0.11)
    )
    finished = replace(match, deal=deal, totals=totals, history=(*match.history, record))
    winner = table_match_winner(totals, match.rules.goal)
    if winner is not None:
        over = TableMatchOver(winner=winner, loser=None, reason="target", totals=totals)
        return replace(finished, winner=winner, end_reason="target"), (*events, deal_over, over)
    number = match.deal_number + 1
    dealer = (deal.dealer + 1) % match.rules.n  # ruling V0.1a
    following = new_table_deal(match.rules, deal_seed(match.seed, number), dealer, totals)
    return replace(finished, deal=following, deal_number=number), (
        *events,
        deal_over,
        DealStarted(number=number, dealer=dealer),
    )


def replay_table_match(
    rules: TableRules, seed: int, actions: Sequence[tuple[int, TableMatchAction]]
) -> TableMatchState:
    """Rebuild a match from its seed and its log of ``(seat, action)``."""
    match = new_table_match(rules, seed)
    for seat, action in actions:
        match, _ = apply_table_match(match, seat, action)
    return match


def settlement(match: TableMatchState, stake_per_point: Decimal) -> tuple[tuple[int, int, Decimal], ...]:
    """Ruling V0.10 / V0.10a: the payments of a finished match as ``(payer, payee, amount)``.

    Won on the target: every other player owes the winner ``stake × (target − own total)``, never
    negative. Abandoned: the leaver owes every other player ``stake × (target − leaver's total)``.
    Amounts are exact decimals (R6.1); a zero amount is left out.
    """
    if not isinstance(stake_per_point, Decimal):
        raise TypeError("stakes are exact decimals (R6.1)")
    if stake_per_point < 0:
        raise ValueError("a stake cannot be negative")
    target, n = match.rules.goal, match.rules.n
    payments: list[tuple[int, int, Decimal]] = []
    if match.winner is not None:
        for seat in range(n):
            owed = stake_per_point * max(0, target - match.totals[seat])
            if seat != match.winner and owed:
                payments.append((seat, match.winner, owed))
    elif match.loser is not None:
        owed = stake_per_point * max(0, target - match.totals[match.loser])
        if owed:
            payments += [(match.loser, seat, owed) for seat in range(n) if seat != match.loser]
    return tuple(payments)
