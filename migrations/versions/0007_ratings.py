"""ratings per person and game kind, and every finished match's change to them

Revision ID: 7a1e5b3c9d21
Revises: 3f8a6c2d9e17
Create Date: 2026-12-01 15:20:00.000000

``ratings`` holds a person's rating (Weng–Lin, openskill's Plackett–Luce model: mu ± sigma, and
the rated matches counted) per game kind (``backend.ratings.RATING_KINDS``); ``rating_changes``
what each finished match between people did to each player's rating, in the order the changes
were applied (its id). Matches finished before this revision are not rated by the upgrade:
``python -m backend.admin ratings --rebuild --write`` rates them (docs/operating.md). The
downgrade drops both tables.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = "7a1e5b3c9d21"
down_revision: Union[str, Sequence[str], None] = "3f8a6c2d9e17"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("mu", sa.Float(precision=53), nullable=False),
        sa.Column("sigma", sa.Float(precision=53), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("player_id", "kind"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(precision=53), nullable=False),
        sa.Column("sigma_before", sa.Float(precision=53), nullable=False),
        sa.Column("mu_after", sa.Float(precision=53), nullable=False),
        sa.Column("sigma_after", sa.Float(precision=53), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "player_id", name="uq_rating_changes_match_player"),
    )
    op.create_index(op.f("ix_rating_changes_player_id"), "rating_changes", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_rating_changes_player_id"), table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
