"""Stored rows made in memory (never added to a session): the history rules are given rows, not queries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from backend.db.models import Deal, DealSeat, Match, MatchSeat, Player, RatingChange, Room, Settlement

STARTED = datetime(2026, 3, 1, 20, 0)
FINISHED = datetime(2026, 3, 1, 20, 40)


def players(*rows: tuple[str, str, str | None]) -> dict[str, Player]:
    return {pid: Player(id=pid, name=name, bot_level=level) for pid, name, level in rows}


def match(
    player_ids: Sequence[str],
    totals: Sequence[int],
    places: Sequence[int] | None = None,
    *,
    options: dict[str, Any] | None = None,
    end_reason: str | None = "target",
    room_id: str = "r_1",
) -> Match:
    """A match of ``player_ids`` in seat order: finished when ``places`` are given, else being played."""
    finished = places is not None
    firsts = [seat for seat, place in enumerate(places or ()) if place == 1]
    return Match(
        id="m_1",
        room_id=room_id,
        options=options or {},
        seed="7",
        first_dealer=0,
        status="finished" if finished else "playing",
        winner_seat=firsts[0] if len(firsts) == 1 else None,
        end_reason=end_reason if finished else None,
        started_at=STARTED,
        finished_at=FINISHED if finished else None,
        seat_rows=[
            MatchSeat(seat=seat, player_id=pid, total=totals[seat], place=places[seat] if places else None)
            for seat, pid in enumerate(player_ids)
        ],
    )


def owed(loser: str, winner: str, amount: str, points_short: int, stake: str = "0.01") -> Settlement:
    return Settlement(
        match_id="m_1",
        winner_id=winner,
        loser_id=loser,
        points_short=points_short,
        stake_per_point=stake,
        currency="EUR",
        amount=amount,
    )


def deal(number: int, score: Sequence[int], **auction: Any) -> Deal:
    return Deal(
        match_id="m_1",
        number=number,
        dealer=number % len(score),
        seed=str(100 + number),
        declarations=[{"seat": 0, "suit": "H", "points": 100}],
        thrown_in=False,
        declarer=auction.get("declarer"),
        contract=auction.get("contract"),
        made=auction.get("made"),
        seat_rows=[
            DealSeat(seat=seat, card_points=points, declaration_points=0, score=points, total=points)
            for seat, points in enumerate(score)
        ],
    )


def rating_change(seat: int, player_id: str, mu: tuple[float, float], sigma: tuple[float, float]) -> RatingChange:
    return RatingChange(
        match_id="m_1",
        player_id=player_id,
        kind="twohand24",
        seat=seat,
        place=seat + 1,
        mu_before=mu[0],
        mu_after=mu[1],
        sigma_before=sigma[0],
        sigma_after=sigma[1],
    )


def room(visibility: str = "public", *, spectators: bool = True, invite_code: str = "invite-1") -> Room:
    return Room(
        id="r_1",
        invite_code=invite_code,
        visibility=visibility,
        options={"spectators": spectators},
        status="finished",
        seats=2,
    )
