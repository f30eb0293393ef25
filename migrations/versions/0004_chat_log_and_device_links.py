"""chat log per match and device sign-in links

Revision ID: 7d3e2a9b4c10
Revises: 5b1f0c9e7d21
Create Date: 2026-11-30 20:30:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = "7d3e2a9b4c10"
down_revision: Union[str, Sequence[str], None] = "5b1f0c9e7d21"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """A match keeps its chat log; a player can sign in on another device with a one-time code,
    which gives that device a token of its own."""
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chat_lines_match_id", "chat_lines", ["match_id"])
    op.create_table(
        "device_links",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    op.create_index("ix_device_links_player_id", "device_links", ["player_id"])
    op.create_index("ix_device_links_expires_at", "device_links", ["expires_at"])
    op.create_table(
        "device_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_device_tokens_player_id", "device_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_device_tokens_player_id", table_name="device_tokens")
    op.drop_table("device_tokens")
    op.drop_index("ix_device_links_expires_at", table_name="device_links")
    op.drop_index("ix_device_links_player_id", table_name="device_links")
    op.drop_table("device_links")
    op.drop_index("ix_chat_lines_match_id", table_name="chat_lines")
    op.drop_table("chat_lines")
