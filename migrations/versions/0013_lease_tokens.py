"""each room's lease token: the fence of its owner's writes

Revision ID: b5e1c9a2f7d4
Revises: c5e2a8d4f1b7
Create Date: 2026-12-05 09:10:00.000000

``rooms.lease_token`` grows by one each time a process takes a room over (it rebuilds the room
from the log under a new lease, ``RoomRepository.claim``), and every write that moves the room's
version names the token its owner claimed, checked in the same statement as the version
(``common.advance``): a process that lost the room — paused past its lease, or cut off from
Redis — can never commit for it again, whatever the timing (docs/architecture.md, "Fencing").
Existing rooms start at 0; the next owner to rebuild one claims 1. The downgrade drops the column.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b5e1c9a2f7d4"
down_revision: str | Sequence[str] | None = "c5e2a8d4f1b7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("lease_token", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("lease_token")
