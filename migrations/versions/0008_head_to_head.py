"""head to head: every match's game kind, and a group's figures kept as its matches end

Revision ID: 8b2f6c4d0e32
Revises: 7a1e5b3c9d21
Create Date: 2026-12-01 15:00:00.000000

``matches.kind`` is a match's game kind (``backend.ratings.kinds.options_kind``: the kinds ratings
are kept by), computed here for the matches already stored from their options, so that figures are
grouped by it. ``group_matches`` lists each finished match once per group of two or more of its
people (index ``ix_group_matches_page``: a page of a group's matches), ``group_figures`` and
``group_stakes`` hold each group's figures and stakes, added to as each match ends
(``backend.db.group_figures``); here they are filled from the matches already stored, in the order
they ended (the backfill uses the models of this code: a later migration that changes these
tables must come after it). The downgrade drops them and the column.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from backend.db.group_figures import record_group_match
from backend.ratings.kinds import options_kind

revision: str = "8b2f6c4d0e32"
down_revision: str | Sequence[str] | None = "7a1e5b3c9d21"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("kind", sa.String(length=12), nullable=True))
    connection = op.get_bind()
    matches = sa.table(
        "matches", sa.column("id", sa.String), sa.column("options", sa.JSON), sa.column("kind", sa.String)
    )
    by_kind: dict[str, list[str]] = {}
    for match_id, options in connection.execute(sa.select(matches.c.id, matches.c.options)):
        by_kind.setdefault(options_kind(options or {}), []).append(match_id)
    for kind, ids in by_kind.items():
        for start in range(0, len(ids), 500):
            connection.execute(matches.update().where(matches.c.id.in_(ids[start : start + 500])).values(kind=kind))
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("kind", existing_type=sa.String(length=12), nullable=False)
    op.create_table(
        "group_matches",
        sa.Column("group_key", sa.String(length=170), nullable=False),
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("computers", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("group_key", "match_id"),
    )
    op.create_index(
        "ix_group_matches_page", "group_matches", ["group_key", "computers", "finished_at", "match_id"]
    )
    op.create_table(
        "group_figures",
        sa.Column("group_key", sa.String(length=170), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("computers", sa.Boolean(), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=False),
        *(
            sa.Column(name, sa.Integer(), nullable=False)
            for name in (
                "matches", "won", "deals", "points", "marriages", "marriage_points", "contracts",
                "contracts_made", "streak",
            )
        ),  # fmt: skip
        sa.Column("best_margin", sa.Integer(), nullable=True),
        sa.Column("best_total", sa.Integer(), nullable=True),
        sa.Column("best_match_id", sa.String(length=40), nullable=True),
        sa.Column("best_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("group_key", "kind", "computers", "player_id"),
    )
    op.create_table(
        "group_stakes",
        sa.Column("group_key", sa.String(length=170), nullable=False),
        sa.Column("winner_id", sa.String(length=40), nullable=False),
        sa.Column("loser_id", sa.String(length=40), nullable=False),
        sa.Column("currency", sa.String(length=12), nullable=False),
        sa.Column("stake_per_point", sa.String(length=40), nullable=False),
        sa.Column("points_short", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["winner_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["loser_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("group_key", "winner_id", "loser_id", "currency", "stake_per_point"),
    )
    # Every finished match stored so far, in the order they ended (a streak runs in that order).
    finished = sa.text("SELECT id FROM matches WHERE status = 'finished' ORDER BY finished_at, id")
    for (match_id,) in connection.execute(finished).all():
        record_group_match(connection, match_id, shared_column=False)  # 0012 adds `shared` and rebuilds


def downgrade() -> None:
    op.drop_table("group_stakes")
    op.drop_table("group_figures")
    op.drop_index("ix_group_matches_page", table_name="group_matches")
    op.drop_table("group_matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("kind")
