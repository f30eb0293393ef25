"""The action log: storing accepted moves (with the deals, the match end, its settlements, head to
head and ratings they bring) before anyone hears of them, and reading a room back for a rebuild."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, CursorResult, bindparam, delete, insert, select, update

from . import ratings
from .common import ADVANCE_FENCED, ADVANCE_VERSION, advance
from .database import Database
from .group_figures import record_group_match
from .models import Action, ChatLine, Deal, DealSeat, Match, MatchSeat, Room, RoomDeadline, Settlement, utcnow
from .rooms import RoomRecord, room_records
from .writes import ActionRecord, ActionWrite

# Built once: constructing statements costs more than running them on the per-move hot path.
_INSERT_ACTION = insert(Action)
_MATCH_TOTAL = (
    update(MatchSeat)
    .where(MatchSeat.match_id == bindparam("match"), MatchSeat.seat == bindparam("at"))
    .values(total=bindparam("value"))
)
_TURN = (  # R6.3: a turn-based table's next turn, with the move that gave it
    update(Room).where(Room.id == bindparam("room")).values(turn_seat=bindparam("seat"), turn_deadline=bindparam("due"))
)
_MATCH_PLACE = (
    update(MatchSeat)
    .where(MatchSeat.match_id == bindparam("match"), MatchSeat.seat == bindparam("at"))
    .values(place=bindparam("value"))
)


def action_record(row: Action) -> ActionRecord:
    """An action of the log as the rooms layer and the replays read it."""
    return ActionRecord(
        row.seat,
        row.kind,
        row.card,
        row.declare,
        row.reason,
        row.amount,
        None if row.cards is None else tuple(row.cards),
    )


@dataclass
class StoredMatch:
    record: RoomRecord
    match: Match | None
    actions: list[Action] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)  # the match's chat log, oldest first


class ActionLog:
    def __init__(self, database: Database) -> None:
        self._db = database

    def commit(self, writes: list[ActionWrite]) -> list[Exception | None]:
        """Store accepted actions, each before any seat hears of it (group commit).

        All of ``writes`` go in one transaction; if any fails (another process advanced a room),
        each is retried in a transaction of its own, so one conflict never costs the others.

        A batch of plain moves (no deal finished, no match ended: nearly every write) goes in as two
        statements for the whole batch, an ``executemany`` of the version compare-and-swap and one of
        the log rows: on PostgreSQL a few round trips per batch instead of two per move (psycopg pipelines
        an ``executemany``; SQLAlchemy folds the inserts into one ``INSERT … VALUES``), and on SQLite far
        fewer hand-offs of the interpreter lock between this thread and the event loop, each of which
        can cost the loop's switch interval when the loop is busy. If any room of the batch is no longer
        at its expected version the batch is rolled back and each move is written on its own, so
        the conflicting one is refused and the others are stored, exactly as before.
        Returns, per write, None once it is stored or the exception that refused it.
        """
        try:
            with self._db.write_lock, self._db.engine.begin() as connection:
                fenced = {write.lease is not None for write in writes}
                if len(writes) > 1 and len(fenced) == 1 and all(not w.deals and w.end is None for w in writes):
                    _write_plain_moves(connection, writes)
                else:
                    for write in writes:
                        _write_action(connection, write)
            return [None] * len(writes)
        except Exception:
            if len(writes) == 1:
                raise
        outcomes: list[Exception | None] = []
        for write in writes:
            try:
                with self._db.write_lock, self._db.engine.begin() as connection:
                    _write_action(connection, write)
                outcomes.append(None)
            except Exception as error:
                outcomes.append(error)
        return outcomes

    def load_room(self, room_id: str) -> StoredMatch | None:
        """A room with its current match and that match's whole action log, for a rebuild or a
        spectator's greeting: everything read in one snapshot, so that the log is exactly the one
        of the row's version (a move committed meanwhile is in neither).

        On PostgreSQL the reads share one REPEATABLE READ transaction (READ COMMITTED, the default,
        takes a new snapshot per statement). The log is also read only up to the row's version:
        each action is stored in the transaction that advances the row, so that alone makes the
        two agree on any database."""
        with self._db.snapshot() as session:
            room = session.get(Room, room_id)
            if room is None:
                return None
            stored = StoredMatch(record=room_records(session, [room])[0], match=None)
            if room.match_id:
                stored.match = session.get(Match, room.match_id)
                query = (
                    select(Action)
                    .where(Action.match_id == room.match_id, Action.room_version <= room.version)
                    .order_by(Action.seq)
                )
                stored.actions = list(session.scalars(query).all())
                chat = select(ChatLine).where(ChatLine.match_id == room.match_id).order_by(ChatLine.id)
                stored.chat = list(session.scalars(chat).all())
        return stored


class _Conflict(Exception):
    """A room of a batch of plain moves was not at its expected version."""


def _write_plain_moves(connection: Connection, writes: list[ActionWrite]) -> None:
    """Plain moves of different rooms (one command per room is in flight at a time): two statements."""
    now = utcnow()
    fenced = writes[0].lease is not None  # all of the batch or none (``commit``)
    advanced = connection.execute(
        ADVANCE_FENCED if fenced else ADVANCE_VERSION,
        [
            {"room": w.room_id, "expected": w.expected_version, "next": w.expected_version + 1, "now": now}
            | ({"lease": w.lease} if fenced else {})
            for w in writes
        ],
    )
    if cast(CursorResult[Any], advanced).rowcount != len(writes):
        raise _Conflict
    connection.execute(_INSERT_ACTION, [_log_row(write, now) for write in writes])
    turns = [{"room": w.room_id, "seat": w.turn.seat, "due": w.turn.deadline} for w in writes if w.turn is not None]
    if turns:
        connection.execute(_TURN, turns)


def _log_row(write: ActionWrite, now: datetime) -> dict[str, Any]:
    action = write.action
    return {
        "match_id": write.match_id,
        "seq": write.seq,
        "seat": action.seat,
        "kind": action.kind,
        "card": action.card,
        "declare": action.declare,
        "reason": action.reason,
        "amount": action.amount,
        "cards": None if action.cards is None else list(action.cards),
        "room_version": write.expected_version + 1,
        "client_msg_id": write.client_msg_id,
        "created_at": now,
    }


def _write_action(connection: Connection, write: ActionWrite) -> None:
    # Core statements on a plain connection, not the ORM: this is the hot path of every move.
    room_values: dict[str, Any] = {"status": "finished"} if write.end else {}
    if write.turn is not None:
        room_values.update(turn_seat=write.turn.seat, turn_deadline=write.turn.deadline)
    advance(connection, write.room_id, write.expected_version, write.lease, **room_values)
    connection.execute(_INSERT_ACTION, _log_row(write, utcnow()))
    for deal in write.deals:
        inserted = connection.execute(
            insert(Deal).values(
                match_id=write.match_id,
                number=deal.number,
                dealer=deal.dealer,
                seed=str(deal.seed),
                declarations=deal.declarations,
                declarer=deal.declarer,
                contract=deal.contract,
                made=deal.made,
                thrown_in=deal.thrown_in,
                extra=deal.extra,
            )
        )
        key = inserted.inserted_primary_key
        assert key is not None
        deal_id = key[0]
        connection.execute(
            insert(DealSeat),
            [
                {
                    "deal_id": deal_id,
                    "seat": seat,
                    "card_points": deal.card_points[seat],
                    "declaration_points": deal.declaration_points[seat],
                    "score": deal.score[seat],
                    "total": deal.totals[seat],
                }
                for seat in range(len(deal.totals))
            ],
        )
    if write.deals or write.end:
        connection.execute(
            _MATCH_TOTAL,
            [{"match": write.match_id, "at": seat, "value": total} for seat, total in enumerate(write.totals)],
        )
    if write.end:
        now = utcnow()
        connection.execute(
            update(Match)
            .where(Match.id == write.match_id)
            .values(status="finished", winner_seat=write.end.winner_seat, end_reason=write.end.reason, finished_at=now)
        )
        connection.execute(
            _MATCH_PLACE,
            [{"match": write.match_id, "at": seat, "value": place} for seat, place in enumerate(write.end.places)],
        )
        if write.end.settlements:  # a V2–V7 match for nothing owes nothing (V0.10 leaves out zeros)
            connection.execute(
                insert(Settlement),
                [
                    {
                        "match_id": write.match_id,
                        "winner_id": owed.winner_id,
                        "loser_id": owed.loser_id,
                        "points_short": owed.points_short,
                        "stake_per_point": str(write.end.stake_per_point),
                        "currency": write.end.currency,
                        "amount": str(owed.amount),
                        "created_at": now,
                    }
                    for owed in write.end.settlements
                ],
            )
        record_group_match(connection, write.match_id)  # head to head: every group of its people
        connection.execute(delete(RoomDeadline).where(RoomDeadline.room_id == write.room_id))
        if write.end.rating_kind is not None:  # with the match, so every process sees both or neither
            ratings.apply_match(
                connection, write.match_id, write.end.rating_kind, write.end.player_ids, write.end.places, now
            )
