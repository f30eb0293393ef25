"""head to head and ledger: a first place shared between members is ``shared``, not a win over each other

Revision ID: c5e2a8d4f1b7
Revises: b7d1f3a9c2e5
Create Date: 2026-12-05 09:30:00.000000

Since ruling V0.10a everyone who stayed when a player of three or four left shares first place. The
head-to-head figures counted that as a ``won`` for each of them, so two who stayed had each "won"
against the other. Now a member's ``won`` counts the matches where they were first and no other
member of the group was; two members first together ``shared`` the match (a column of its own), a
shared first place ends a streak (neither won nor lost), and a biggest win needs a lead (a win by a
resignation while level or behind has none). The upgrade adds ``group_figures.shared`` and rebuilds
``group_matches``, ``group_figures`` and ``group_stakes`` from every finished match in the order they
ended, as 0008 filled them. (The ledger, ``GET /api/ledger``, reads the places at once: its ``won``
and ``shared`` need nothing stored.) The downgrade drops the column; the figures it leaves count a
shared first place in neither ``won`` nor streak, which only a rebuild under the old code would redo.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from backend.db.group_figures import record_group_match

revision: str = "c5e2a8d4f1b7"
down_revision: str | Sequence[str] | None = "b7d1f3a9c2e5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("group_figures") as batch:
        batch.add_column(sa.Column("shared", sa.Integer(), nullable=False, server_default="0"))
    connection = op.get_bind()
    connection.execute(sa.text("DELETE FROM group_stakes"))
    connection.execute(sa.text("DELETE FROM group_figures"))
    connection.execute(sa.text("DELETE FROM group_matches"))
    finished = sa.text("SELECT id FROM matches WHERE status = 'finished' ORDER BY finished_at, id")
    for (match_id,) in connection.execute(finished).all():
        record_group_match(connection, match_id)


def downgrade() -> None:
    with op.batch_alter_table("group_figures") as batch:
        batch.drop_column("shared")
