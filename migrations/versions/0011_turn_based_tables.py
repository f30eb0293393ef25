"""turn-based tables (ruling R6.3): the seat on turn and its deadline on the room row

Revision ID: b7d1f3a9c2e5
Revises: a4c8e2f6b0d1
Create Date: 2026-12-05 09:30:00.000000

A table played at a pace of days per move (``options.pace``) stores with every move whose turn it
is (``rooms.turn_seat``) and until when that person may act (``rooms.turn_deadline``); a person
who lets it pass has abandoned the match (R6.3). Nothing is held in memory for such a table while
it waits: the housekeeping sweep reads the stored deadlines through the index
``ix_rooms_turn_deadline``. Every table stored so far is live, so both columns start empty. The
downgrade drops them (a turn-based table then has no clock: finish or resign those first).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b7d1f3a9c2e5"
down_revision: str | Sequence[str] | None = "a4c8e2f6b0d1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("turn_seat", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_rooms_turn_deadline", ["turn_deadline"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_turn_deadline")
        batch.drop_column("turn_deadline")
        batch.drop_column("turn_seat")
