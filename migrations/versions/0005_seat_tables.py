"""tables of 2, 3 or 4 seats: seat tables, variant columns, one settlement per loser

Revision ID: 9c4b1e7f2a05
Revises: 7d3e2a9b4c10
Create Date: 2026-11-30 23:45:00.000000

Everything per seat moves from numbered columns into a seat table keyed by (parent, seat):
``rooms.seat0_id/seat1_id`` into ``room_seats`` (plus ``rooms.seats``, the seat count),
``matches.seat0_id/seat1_id/total0/total1`` into ``match_seats``, and the deals' per-seat points
into ``deal_seats``. Deals gain the variants' declarer, contract, made, thrown_in and extra;
actions a bid's amount and a discard's cards; settlements hold one row per (match, winner,
loser), and ``players.bot_level`` is no longer unique (a table of four may seat three computer
players of one level). The upgrade copies the existing rows, so history and ledger stay as they were; the
downgrade restores the two-seat columns and refuses a database that holds a table of more seats.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = "9c4b1e7f2a05"
down_revision: Union[str, Sequence[str], None] = "7d3e2a9b4c10"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# Names for the constraints SQLite reflects without one (batch mode rebuilds those tables).
NAMING = {"uq": "uq_%(table_name)s_%(column_0_name)s"}
PER_DEAL_SEAT = ("card_points", "declaration_points", "score", "total")


def upgrade() -> None:
    op.create_table(
        "room_seats",
        sa.Column("room_id", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("room_id", "seat"),
    )
    op.create_index("ix_room_seats_player_id", "room_seats", ["player_id"])
    op.create_table(
        "match_seats",
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_index("ix_match_seats_player_id", "match_seats", ["player_id"])
    op.create_table(
        "deal_seats",
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("card_points", sa.Integer(), nullable=False),
        sa.Column("declaration_points", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["deal_id"], ["deals.id"]),
        sa.PrimaryKeyConstraint("deal_id", "seat"),
    )

    # Copy the two-seat columns into the seat tables.
    for seat in (0, 1):
        op.execute(
            f"INSERT INTO room_seats (room_id, seat, player_id) "
            f"SELECT id, {seat}, seat{seat}_id FROM rooms WHERE seat{seat}_id IS NOT NULL"
        )
        op.execute(
            f"INSERT INTO match_seats (match_id, seat, player_id, total) "
            f"SELECT id, {seat}, seat{seat}_id, total{seat} FROM matches"
        )
        columns = ", ".join(PER_DEAL_SEAT)
        values = ", ".join(f"{column}{seat}" for column in PER_DEAL_SEAT)
        op.execute(f"INSERT INTO deal_seats (deal_id, seat, {columns}) SELECT id, {seat}, {values} FROM deals")

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seats", sa.Integer(), server_default="2", nullable=False))
        batch_op.drop_column("seat0_id")
        batch_op.drop_column("seat1_id")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index("ix_matches_seat0_id")
        batch_op.drop_index("ix_matches_seat1_id")
        for column in ("seat0_id", "seat1_id", "total0", "total1"):
            batch_op.drop_column(column)
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.add_column(sa.Column("declarer", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("contract", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("made", sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column("thrown_in", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column("extra", sa.JSON(none_as_null=True), nullable=True))
        for column in PER_DEAL_SEAT:
            batch_op.drop_column(f"{column}0")
            batch_op.drop_column(f"{column}1")
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("amount", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("cards", sa.JSON(none_as_null=True), nullable=True))

    # One settlement per (match, winner, loser) instead of one per match.
    old = _unique_on(["match_id"])
    with op.batch_alter_table("settlements", schema=None, naming_convention=NAMING) as batch_op:
        if old is not None:
            batch_op.drop_constraint(old, type_="unique")
        batch_op.create_unique_constraint("uq_settlements_match_pair", ["match_id", "winner_id", "loser_id"])

    # Several computer players of one level: p_bot_<level>, then p_bot_<level>_2, _3 (store.bot_player).
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_bot_level")
        batch_op.create_index("ix_players_bot_level", ["bot_level"], unique=False)


def downgrade() -> None:
    bind = op.get_bind()
    wider = bind.execute(
        sa.text(
            "SELECT (SELECT count(*) FROM rooms WHERE seats <> 2)"
            " + (SELECT count(*) FROM match_seats WHERE seat > 1)"
            " + (SELECT count(*) FROM deal_seats WHERE seat > 1)"
        )
    ).scalar()
    if wider:
        raise RuntimeError("the database holds tables of more than two seats: it cannot go back to two seat columns")

    # Only tables of more seats had a second computer player of a level, and there are none left.
    bind.execute(sa.text("DELETE FROM players WHERE bot_level IS NOT NULL AND id <> 'p_bot_' || bot_level"))
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_bot_level")
        batch_op.create_index("ix_players_bot_level", ["bot_level"], unique=True)

    with op.batch_alter_table("settlements", schema=None, naming_convention=NAMING) as batch_op:
        batch_op.drop_constraint("uq_settlements_match_pair", type_="unique")
        # PostgreSQL's own name for the constraint 0001 made; SQLite's has none, NAMING names it.
        postgres = bind.dialect.name == "postgresql"
        batch_op.create_unique_constraint(
            "settlements_match_id_key" if postgres else "uq_settlements_match_id", ["match_id"]
        )

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seat0_id", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("seat1_id", sa.String(length=40), nullable=True))
    with op.batch_alter_table("matches", schema=None) as batch_op:
        for column in ("seat0_id", "seat1_id"):
            batch_op.add_column(sa.Column(column, sa.String(length=40), nullable=True))
        for column in ("total0", "total1"):
            batch_op.add_column(sa.Column(column, sa.Integer(), nullable=True))
    with op.batch_alter_table("deals", schema=None) as batch_op:
        for column in PER_DEAL_SEAT:
            batch_op.add_column(sa.Column(f"{column}0", sa.Integer(), nullable=True))
            batch_op.add_column(sa.Column(f"{column}1", sa.Integer(), nullable=True))

    for seat in (0, 1):
        op.execute(
            f"UPDATE rooms SET seat{seat}_id = "
            f"(SELECT player_id FROM room_seats WHERE room_seats.room_id = rooms.id AND room_seats.seat = {seat})"
        )
        for column, source in ((f"seat{seat}_id", "player_id"), (f"total{seat}", "total")):
            op.execute(
                f"UPDATE matches SET {column} = (SELECT {source} FROM match_seats "
                f"WHERE match_seats.match_id = matches.id AND match_seats.seat = {seat})"
            )
        for column in PER_DEAL_SEAT:
            op.execute(
                f"UPDATE deals SET {column}{seat} = (SELECT {column} FROM deal_seats "
                f"WHERE deal_seats.deal_id = deals.id AND deal_seats.seat = {seat})"
            )

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.alter_column("seat0_id", existing_type=sa.String(length=40), nullable=False)
        batch_op.create_foreign_key("rooms_seat0_id_fkey", "players", ["seat0_id"], ["id"])  # PostgreSQL's names
        batch_op.create_foreign_key("rooms_seat1_id_fkey", "players", ["seat1_id"], ["id"])
        batch_op.drop_column("seats")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        for column in ("seat0_id", "seat1_id"):
            batch_op.alter_column(column, existing_type=sa.String(length=40), nullable=False)
            batch_op.create_foreign_key(f"matches_{column}_fkey", "players", [column], ["id"])
            batch_op.create_index(f"ix_matches_{column}", [column], unique=False)
        for column in ("total0", "total1"):
            batch_op.alter_column(column, existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table("deals", schema=None) as batch_op:
        for column in PER_DEAL_SEAT:
            for seat in (0, 1):
                batch_op.alter_column(f"{column}{seat}", existing_type=sa.Integer(), nullable=False)
        for column in ("declarer", "contract", "made", "thrown_in", "extra"):
            batch_op.drop_column(column)
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("amount")
        batch_op.drop_column("cards")

    op.drop_table("deal_seats")
    op.drop_index("ix_match_seats_player_id", table_name="match_seats")
    op.drop_table("match_seats")
    op.drop_index("ix_room_seats_player_id", table_name="room_seats")
    op.drop_table("room_seats")


def _unique_on(columns: list[str]) -> str | None:
    """The name of the settlements' unique constraint on ``columns``: as the database has it, or
    as ``NAMING`` names it in batch mode where it has none (SQLite); None if there is none."""
    for unique in sa.inspect(op.get_bind()).get_unique_constraints("settlements"):
        if unique["column_names"] == columns:
            return unique["name"] or NAMING["uq"] % {"table_name": "settlements", "column_0_name": columns[0]}
    return None
