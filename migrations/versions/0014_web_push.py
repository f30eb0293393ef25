"""Web Push: the server's VAPID key pair, the devices' subscriptions and the outbox of notifications

Revision ID: d8f3b6a1c2e9
Revises: b5e1c9a2f7d4
Create Date: 2026-12-05 14:00:00.000000

Issue 45: ``push_keys`` keeps the key pair made on first start (one row) unless a setting supplies
it; ``push_subscriptions`` holds each device's subscription (its endpoint unique); ``push_outbox``
the notifications waiting to be sent, each claimed by one process (``claimed_until``) and deleted
once the push service took it. New tables only: the downgrade drops them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d8f3b6a1c2e9"
down_revision: str | Sequence[str] | None = "b5e1c9a2f7d4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("private_pem", sa.String(400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(40), nullable=False),
        sa.Column("lang", sa.String(5), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_player_id", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "subscription_id",
            sa.Integer(),
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("room_id", sa.String(40), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_push_outbox_subscription_id", "push_outbox", ["subscription_id"])
    op.create_index("ix_push_outbox_due_at", "push_outbox", ["due_at"])


def downgrade() -> None:
    op.drop_table("push_outbox")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")
