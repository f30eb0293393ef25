"""How a stored match becomes its history entry: the match as one of its players sees it in the
list and on the match page, with the stake it settled and what it did to the ratings.

Pure functions of the stored rows (``backend/db/models.py``), loaded by the caller: no I/O here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import cast

from backend.db.common import decimal_text
from backend.db.models import Deal, Match, Player, RatingChange, Settlement
from backend.ratings import Skill, displayed
from backend.rooms.observer import options_out
from backend.rooms.options import TableOptions

from .models import (
    DealDeclaration,
    DealOut,
    EndReason,
    MatchDetail,
    MatchOut,
    MatchPlayer,
    MatchResult,
    MatchStake,
    MatchStatus,
    RatingChangeOut,
    ReplayResult,
    SeatedMatchPlayer,
    SettlementOut,
)

UNKNOWN_NAME = "?"  # a player whose row is gone


def result(place: int) -> MatchResult:
    """A finished match is won by whoever is first (R5, ruling V0.9; R6.2 / V0.10a after a resignation)."""
    return "won" if place == 1 else "lost"


def match_player(players: Mapping[str, Player], player_id: str) -> MatchPlayer:
    player = players.get(player_id)
    return MatchPlayer(
        id=player_id,
        name=player.name if player else UNKNOWN_NAME,
        bot_level=player.bot_level if player else None,
    )


def seated_players(match: Match, players: Mapping[str, Player]) -> list[SeatedMatchPlayer]:
    """Every seat's player in seat order; with its place and result once the match is over.

    Before that ``place`` and ``result`` are left unset rather than set to null: the replay routes
    answer with ``response_model_exclude_unset`` and leave them out."""
    places = match.places
    seated = []
    for seat, player_id in enumerate(match.player_ids):
        described = match_player(players, player_id)
        if places is None:
            seated.append(SeatedMatchPlayer(seat=seat, **dict(described)))
        else:
            place = places[seat]
            seated.append(SeatedMatchPlayer(seat=seat, **dict(described), place=place, result=result(place)))
    return seated


def stake_for(player_id: str, settlements: Sequence[Settlement]) -> MatchStake | None:
    """What the match's settlements mean to ``player_id``: with two seats the one settlement.
    With 3 or 4 seats only those the player is part of count: a loser's debt to the winner, or
    for the winner the sum owed by the losers (amounts and points short added up, the first
    debtor named); ``balance`` is always the player's net (+ owed to me, − owed by me)."""
    mine = [s for s in settlements if player_id in (s.winner_id, s.loser_id)] or list(settlements[:1])
    if not mine:
        return None
    first = mine[0]
    if len(mine) == 1:
        amount_text, points_short = first.amount, first.points_short
    else:
        amount_text = decimal_text(sum((Decimal(s.amount) for s in mine), Decimal(0)))
        points_short = sum(s.points_short for s in mine)
    balance = sum(
        (Decimal(s.amount) * (1 if s.winner_id == player_id else -1 if s.loser_id == player_id else 0) for s in mine),
        Decimal(0),
    )
    return MatchStake(
        amount=amount_text,
        currency=first.currency,
        stake_per_point=first.stake_per_point,
        points_short=points_short,
        debtor_id=first.loser_id,
        creditor_id=first.winner_id,
        balance=decimal_text(balance),  # + owed to me, − owed by me
    )


def settlement_out(owed: Settlement) -> SettlementOut:
    return SettlementOut(
        debtor_id=owed.loser_id,
        creditor_id=owed.winner_id,
        amount=owed.amount,
        currency=owed.currency,
        stake_per_point=owed.stake_per_point,
        points_short=owed.points_short,
    )


def match_entry(
    match: Match, player_id: str, players: Mapping[str, Player], settlements: Sequence[Settlement]
) -> MatchOut:
    """The match in ``player_id``'s history (``GET /api/matches``), from its row, its players' rows
    (a missing one is named "?") and its own settlements."""
    player_ids = match.player_ids
    seat = player_ids.index(player_id) if player_id in player_ids else 0
    other_id = player_ids[(seat + 1) % len(player_ids)]  # the only opponent with two seats; the next seat with more
    places = match.places
    return MatchOut(
        id=match.id,
        room_id=match.room_id,
        status=cast(MatchStatus, match.status),  # the model checks it
        options=options_out(TableOptions.from_json(match.options)),
        started_at=match.started_at.isoformat(),
        finished_at=match.finished_at.isoformat() if match.finished_at else None,
        players=seated_players(match, players),
        my_seat=seat,
        opponent=match_player(players, other_id),
        totals=match.totals,
        winner_seat=match.winner_seat,
        result=None if places is None else result(places[seat]),
        places=places,
        end_reason=cast(EndReason | None, match.end_reason),  # the model checks it
        stake=stake_for(player_id, settlements),
        settlements=[settlement_out(owed) for owed in settlements],
    )


def deal_result(deal: Deal) -> ReplayResult:
    """A stored deal's result, and its auction (V0.6–V0.8; none in two-hand 1001, V4 and V5)."""
    return ReplayResult(
        card_points=deal.card_points,
        declarations=[DealDeclaration.model_validate(declared) for declared in deal.declarations],
        declaration_points=deal.declaration_points,
        score=deal.score,
        totals=deal.totals,
        declarer=deal.declarer,
        contract=deal.contract,
        made=deal.made,
        thrown_in=deal.thrown_in,
    )


def deal_out(deal: Deal) -> DealOut:
    """A deal on the match page: how it was dealt and its result."""
    return DealOut(number=deal.number, dealer=deal.dealer, seed=deal.seed, **dict(deal_result(deal)))


def rating_change_out(change: RatingChange | None) -> RatingChangeOut | None:
    """The rating shown before and after the match (``backend.ratings.displayed``) and the estimate after it."""
    if change is None:
        return None
    before = displayed(Skill(change.mu_before, change.sigma_before))
    after = displayed(Skill(change.mu_after, change.sigma_after))
    return RatingChangeOut(
        seat=change.seat,
        player_id=change.player_id,
        kind=change.kind,
        before=before,
        after=after,
        change=after - before,
        mu=change.mu_after,
        sigma=change.sigma_after,
    )


def match_detail(
    match: Match,
    player_id: str,
    players: Mapping[str, Player],
    settlements: Sequence[Settlement],
    deals: Sequence[Deal],
    rating_changes: Sequence[RatingChange],
) -> MatchDetail:
    """The match page (``GET /api/matches/{id}``): the entry, its deals in order, and per seat what
    the match did to the rating (None for every seat of a match that was not rated)."""
    changes = {change.seat: change for change in rating_changes}
    return MatchDetail(
        **dict(match_entry(match, player_id, players, settlements)),
        deals=[deal_out(deal) for deal in deals],
        rating_changes=[rating_change_out(changes.get(seat)) for seat in range(len(match.player_ids))],
    )
