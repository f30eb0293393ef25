"""ruling V0.10a: in an abandoned match of three or four, everyone who stayed shares first place

Revision ID: a4c8e2f6b0d1
Revises: 9d3a7e5f1b43
Create Date: 2026-12-04 19:00:00.000000

Until now a match of three or four that one player resigned or stayed away from (R6.2, V0.10a) was
stored with the one who left last and the others ranked by their totals, the highest of them in
``matches.winner_seat`` — so the others who stayed were told they lost, and the ledger and the
head-to-head figures counted it so. The ruling says the one who leaves loses alone: every player who
stayed is first. The upgrade ranks those matches again with the engine's ``places`` (the leaver is
the seat whose ``resign`` is the match's last action, as in 0006; failing that, the one seat stored
last), empties their ``winner_seat`` (nobody is first alone), and, if any match changed, rebuilds the
head-to-head tables (``group_matches``, ``group_figures``, ``group_stakes``) from every finished match
in the order they ended, as 0008 filled them (with the columns of the day: 0012 adds ``shared`` and
rebuilds them again). A table of two is unchanged (the one who stayed won).

The stored ratings are not replayed here: ``python -m backend.admin ratings --rebuild --write``
brings them in line with the new places (docs/operating.md, "Ratings"), and says so first without
``--write``. The downgrade changes nothing: the places under the old reading are not kept anywhere,
and the new ones are what the rules say.
"""

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from backend.db.group_figures import record_group_match
from backend.engine import places

revision: str = "a4c8e2f6b0d1"
down_revision: str | Sequence[str] | None = "9d3a7e5f1b43"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    connection = op.get_bind()
    abandoned = sa.text(
        "SELECT id FROM matches WHERE status = 'finished' AND end_reason IN ('resign', 'absence') ORDER BY id"
    )
    changed = 0
    for (match_id,) in connection.execute(abandoned).all():
        seats = connection.execute(
            sa.text("SELECT seat, total, place FROM match_seats WHERE match_id = :m ORDER BY seat"), {"m": match_id}
        ).all()
        if len(seats) < 3 or any(row.place is None for row in seats):
            continue
        leaver = _leaver(connection, match_id, [row.place for row in seats])
        if leaver is None:
            continue
        ranked = places([row.total for row in seats], None, leaver)
        for row, place in zip(seats, ranked, strict=True):
            if row.place != place:
                connection.execute(
                    sa.text("UPDATE match_seats SET place = :p WHERE match_id = :m AND seat = :s"),
                    {"p": place, "m": match_id, "s": row.seat},
                )
        connection.execute(sa.text("UPDATE matches SET winner_seat = NULL WHERE id = :m"), {"m": match_id})
        changed += 1
    if not changed:
        return
    connection.execute(sa.text("DELETE FROM group_stakes"))
    connection.execute(sa.text("DELETE FROM group_figures"))
    connection.execute(sa.text("DELETE FROM group_matches"))
    finished = sa.text("SELECT id FROM matches WHERE status = 'finished' ORDER BY finished_at, id")
    for (match_id,) in connection.execute(finished).all():
        record_group_match(connection, match_id, shared_column=False)  # 0012 adds `shared` and rebuilds
    log.warning(
        "ranked %d abandoned matches of three or four again (V0.10a); "
        "run `python -m backend.admin ratings --rebuild --write` to bring the stored ratings in line",
        changed,
    )


def _leaver(connection: sa.Connection, match_id: str, stored: list[int]) -> int | None:
    """The seat that left: the one whose ``resign`` ended the match, else the one seat stored last."""
    last = connection.execute(
        sa.text("SELECT seat, kind FROM actions WHERE match_id = :m ORDER BY seq DESC LIMIT 1"), {"m": match_id}
    ).first()
    if last is not None and last.kind == "resign":
        return int(last.seat)
    lowest = max(stored)
    return stored.index(lowest) if stored.count(lowest) == 1 else None


def downgrade() -> None:
    pass  # nothing to undo: the old places are not kept, and the new ones are the ruling's
