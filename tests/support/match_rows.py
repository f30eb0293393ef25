"""Finished matches written straight into the database, for figures with known answers (head to
head tests) and for filling a database fast (bench/head_to_head.py).

Each match is given as its seats, deals, marriages declared and settlements; the rows are written
as the server writes them (``backend.db.action_log``): ``matches`` (its ``kind`` from its options, the
model's default), ``match_seats`` with totals and places, ``deals`` and ``deal_seats``, the
declaring plays of ``actions`` (and, if asked, other plays around them) and ``settlements``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, insert

from backend.db.group_figures import record_group_match
from backend.db.models import Action, Deal, DealSeat, Match, MatchSeat, Player, Room, Settlement


@dataclass(frozen=True)
class DealRow:
    score: Sequence[int]  # per seat
    declaration_points: Sequence[int] | None = None  # per seat (default 0s)
    declarer: int | None = None
    contract: int | None = None
    made: bool | None = None


@dataclass(frozen=True)
class Owed:
    loser: int  # seats
    winner: int
    points_short: int
    stake: str = "0.01"
    currency: str = "EUR"


@dataclass
class MatchRows:
    players: Sequence[str]  # ids in seat order
    places: Sequence[int]
    finished_at: datetime
    options: dict[str, Any] = field(default_factory=dict)  # two-hand 1001's stored shape by default
    deals: Sequence[DealRow] = ()
    declared: Sequence[int] = ()  # a seat per marriage declared (one declaring play each)
    owed: Sequence[Owed] = ()
    end_reason: str = "target"
    status: str = "finished"
    other_plays: int = 0  # plays without a declaration, written too (the log's bulk)
    id: str = field(default_factory=lambda: f"m_{secrets.token_hex(8)}")

    @property
    def totals(self) -> list[int]:
        return [sum(deal.score[seat] for deal in self.deals) for seat in range(len(self.players))]


def add_player(connection: Connection, name: str, bot_level: str | None = None) -> str:
    player_id = f"p_{secrets.token_hex(8)}"
    connection.execute(
        insert(Player).values(id=player_id, name=name, token_hash=secrets.token_hex(32), bot_level=bot_level)
    )
    return player_id


def add_room(connection: Connection, seats: int = 2) -> str:
    room_id = f"r_{secrets.token_hex(8)}"
    connection.execute(
        insert(Room).values(
            id=room_id,
            invite_code=secrets.token_hex(9),
            visibility="private",
            options={},
            status="finished",
            seats=seats,
        )
    )
    return room_id


def write_matches(
    connection: Connection, room_id: str, matches: Sequence[MatchRows], *, shared_column: bool = True
) -> None:
    """Write ``matches`` in a few bulk statements (deals need their ids: one statement each);
    ``shared_column=False`` keeps the head-to-head figures as the code before migration 0012 did."""
    if not matches:
        return
    connection.execute(
        insert(Match),
        [
            {
                "id": m.id,
                "room_id": room_id,
                "options": m.options,
                "seed": "1",
                "first_dealer": 0,
                "status": m.status,
                "winner_seat": list(m.places).index(1) if list(m.places).count(1) == 1 else None,
                "end_reason": m.end_reason if m.status == "finished" else None,
                "started_at": m.finished_at - timedelta(minutes=30),
                "finished_at": m.finished_at if m.status == "finished" else None,
            }
            for m in matches
        ],
    )
    connection.execute(
        insert(MatchSeat),
        [
            {
                "match_id": m.id,
                "seat": seat,
                "player_id": pid,
                "total": m.totals[seat],
                "place": m.places[seat] if m.status == "finished" else None,
            }
            for m in matches
            for seat, pid in enumerate(m.players)
        ],
    )
    seat_rows: list[dict[str, Any]] = []
    for m in matches:
        running = [0] * len(m.players)
        for number, deal in enumerate(m.deals):
            points = deal.declaration_points or [0] * len(m.players)
            key = connection.execute(
                insert(Deal).values(
                    match_id=m.id,
                    number=number,
                    dealer=number % len(m.players),
                    seed="1",
                    declarations=[],
                    declarer=deal.declarer,
                    contract=deal.contract,
                    made=deal.made,
                    thrown_in=False,
                )
            ).inserted_primary_key
            assert key is not None
            for seat, score in enumerate(deal.score):
                running[seat] += score
                seat_rows.append(
                    {
                        "deal_id": key[0],
                        "seat": seat,
                        "card_points": score - points[seat],
                        "declaration_points": points[seat],
                        "score": score,
                        "total": running[seat],
                    }
                )
    if seat_rows:
        connection.execute(insert(DealSeat), seat_rows)
    actions = [
        {
            "match_id": m.id,
            "seq": seq + 1,
            "seat": seat,
            "kind": "play",
            "card": "KH",
            "declare": declare,
            "room_version": seq + 1,
        }
        for m in matches
        for seq, (seat, declare) in enumerate(
            [(s, True) for s in m.declared] + [(k % len(m.players), False) for k in range(m.other_plays)]
        )
    ]
    if actions:
        connection.execute(insert(Action), actions)
    owed = [
        {
            "match_id": m.id,
            "winner_id": m.players[o.winner],
            "loser_id": m.players[o.loser],
            "points_short": o.points_short,
            "stake_per_point": o.stake,
            "currency": o.currency,
            "amount": str(Decimal(o.stake) * o.points_short),
        }
        for m in matches
        for o in m.owed
    ]
    if owed:
        connection.execute(insert(Settlement), owed)
    # As the server does when each match ends: in the order they ended.
    for m in sorted(matches, key=lambda m: m.finished_at):
        if m.status == "finished":
            record_group_match(connection, m.id, shared_column=shared_column)
