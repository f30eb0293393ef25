"""computer opponents

Revision ID: c43dd4828e2d
Revises: a3ed0aa4915e
Create Date: 2026-11-29 21:40:31.135010

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = 'c43dd4828e2d'
down_revision: Union[str, Sequence[str], None] = 'a3ed0aa4915e'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Players may be computer opponents: one player row per bot level."""
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_level", sa.String(length=10), nullable=True))
        batch_op.create_index("ix_players_bot_level", ["bot_level"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_bot_level")
        batch_op.drop_column("bot_level")
