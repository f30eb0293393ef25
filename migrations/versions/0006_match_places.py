"""every seat of a finished match has a place (1 the best), and a resigned match of three or four its winner

Revision ID: 3f8a6c2d9e17
Revises: 9c4b1e7f2a05
Create Date: 2026-12-01 12:00:00.000000

Until now a match of three or four that one player abandoned (R6.2, V0.10a) was stored with no
winner and nothing said who left, so the history gave that seat no result. ``match_seats.place``
holds every seat's place once the match is over; the upgrade computes it for the matches already
stored, with the engine's own ranking (``backend.engine.places``): the winner on the target first,
or the player who left last (their seat is that of the match's last action, a ``resign``), the
others by their totals. ``matches.winner_seat`` is filled where one seat is first alone. The
downgrade drops the column and empties the winners it filled.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa

from backend.engine import places


revision: str = "3f8a6c2d9e17"
down_revision: Union[str, Sequence[str], None] = "9c4b1e7f2a05"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("match_seats") as batch:
        batch.add_column(sa.Column("place", sa.Integer(), nullable=True))
    connection = op.get_bind()
    finished = connection.execute(
        sa.text("SELECT id, winner_seat, end_reason FROM matches WHERE status = 'finished'")
    ).all()
    for match_id, winner, reason in finished:
        totals = [
            total
            for (total,) in connection.execute(
                sa.text("SELECT total FROM match_seats WHERE match_id = :m ORDER BY seat"), {"m": match_id}
            )
        ]
        loser = None
        if reason in ("resign", "absence"):
            last = connection.execute(
                sa.text("SELECT seat, kind FROM actions WHERE match_id = :m ORDER BY seq DESC LIMIT 1"), {"m": match_id}
            ).first()
            loser = last.seat if last is not None and last.kind == "resign" else None
            if loser is None and winner is not None and len(totals) == 2:
                loser = 1 - winner
            if len(totals) > 2:
                winner = None  # stored without one until now: the others are ranked by their totals
        ranked = places(totals, winner, loser)
        for seat, place in enumerate(ranked):
            connection.execute(
                sa.text("UPDATE match_seats SET place = :p WHERE match_id = :m AND seat = :s"),
                {"p": place, "m": match_id, "s": seat},
            )
        if ranked.count(1) == 1:
            connection.execute(
                sa.text("UPDATE matches SET winner_seat = :w WHERE id = :m"), {"w": ranked.index(1), "m": match_id}
            )


def downgrade() -> None:
    connection = op.get_bind()
    connection.execute(
        sa.text(
            "UPDATE matches SET winner_seat = NULL WHERE end_reason IN ('resign', 'absence') "
            "AND (SELECT COUNT(*) FROM match_seats WHERE match_seats.match_id = matches.id) > 2"
        )
    )
    with op.batch_alter_table("match_seats") as batch:
        batch.drop_column("place")
