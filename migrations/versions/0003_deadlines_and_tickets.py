"""room deadlines and socket tickets

Revision ID: 5b1f0c9e7d21
Revises: c43dd4828e2d
Create Date: 2026-11-30 18:30:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = "5b1f0c9e7d21"
down_revision: Union[str, Sequence[str], None] = "c43dd4828e2d"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Absence and rematch deadlines live in the database; sockets open with one-time tickets."""
    op.create_table(
        "room_deadlines",
        sa.Column("room_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
        sa.PrimaryKeyConstraint("room_id", "kind", "seat"),
    )
    op.create_table(
        "socket_tickets",
        sa.Column("ticket_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("ticket_hash"),
    )
    op.create_index("ix_socket_tickets_player_id", "socket_tickets", ["player_id"])
    op.create_index("ix_socket_tickets_expires_at", "socket_tickets", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_socket_tickets_expires_at", table_name="socket_tickets")
    op.drop_index("ix_socket_tickets_player_id", table_name="socket_tickets")
    op.drop_table("socket_tickets")
    op.drop_table("room_deadlines")
