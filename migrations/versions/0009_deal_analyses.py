"""the computer analysis of finished deals, computed once and stored per deal

Revision ID: 9d3a7e5f1b43
Revises: 8b2f6c4d0e32
Create Date: 2026-12-02 03:30:00.000000

``deal_analyses`` holds one row per analysed deal (issue 26, keyed by match and deal number): the
``ANALYSIS_VERSION`` it is computed by, its status (queued, running, done, failed), the progress
(``done`` of ``total`` decisions rated), the analysis once done (JSON) or why it failed, who asked
(index ``ix_deal_analyses_asker``: the per-asker limits) and when. Nothing is filled in by the
upgrade: a deal is analysed when somebody asks. The downgrade drops the table.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9d3a7e5f1b43"
down_revision: str | Sequence[str] | None = "8b2f6c4d0e32"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "deal_analyses",
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("message", sa.String(length=200), nullable=True),
        sa.Column("asker", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("match_id", "number"),
    )
    op.create_index("ix_deal_analyses_asker", "deal_analyses", ["asker", "started_at"])


def downgrade() -> None:
    op.drop_index("ix_deal_analyses_asker", table_name="deal_analyses")
    op.drop_table("deal_analyses")
