"""Rooms: making a table, reading rooms with their seated players and deadlines (one room, the
lobby's lists, a player's tables, what housekeeping and the operator look for), and every change
of a room but its moves (``action_log.py``): joins, closing, options, rematches, deadlines, chat.

A change that moves a room on goes through ``common.advance``, a compare-and-swap on the version,
so that only one writer can ever advance a room, even with several server processes."""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, exists, func, insert, select, update
from sqlalchemy.orm import Session, aliased

from .common import advance, changed, hold, new_id
from .database import Database
from .models import Action, ChatLine, Match, MatchSeat, Player, Room, RoomDeadline, RoomSeat, utcnow
from .writes import (
    AbsenceWrite,
    ChatWrite,
    CloseWrite,
    JoinWrite,
    NewMatch,
    OptionsWrite,
    RematchOfferWrite,
    RematchStartWrite,
    RoomChange,
    SeatTaken,
    TooManyTables,
    TurnWrite,
)


@dataclass
class RoomRecord:
    """A room row with what its summary needs: the seated players and the stored deadlines."""

    room: Room
    players: dict[str, Player]
    deadlines: list[RoomDeadline]


def room_records(session: Session, rooms: list[Room]) -> list[RoomRecord]:
    """Rooms with their seated players and deadlines, in two queries."""
    ids = [room.id for room in rooms]
    player_ids = [pid for room in rooms for pid in room.seat_ids if pid]
    players = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(player_ids))).all()}
    deadlines = session.scalars(select(RoomDeadline).where(RoomDeadline.room_id.in_(ids))).all()
    by_room: defaultdict[str, list[RoomDeadline]] = defaultdict(list)
    for deadline in deadlines:
        by_room[deadline.room_id].append(deadline)
    return [RoomRecord(room, players, by_room[room.id]) for room in rooms]


class RoomRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    def create(
        self, creator_id: str, options: dict[str, Any], visibility: str, seats: int = 2, max_open: int | None = None
    ) -> Room:
        """A new table of ``seats`` seats, its creator at seat 0; ``TooManyTables`` if the creator has
        ``max_open`` open tables already (counted under a lock on the creator's row, so that requests
        at the same moment cannot both slip under the limit)."""
        now = utcnow()
        room_id = new_id("r")
        room = Room(
            id=room_id,
            invite_code=secrets.token_urlsafe(9),
            visibility=visibility,
            options=options,
            status="open",
            seats=seats,
            seat_rows=[RoomSeat(room_id=room_id, seat=0, player_id=creator_id)],
            match_id=None,
            version=0,
            created_at=now,
            updated_at=now,
        )
        with self._db.transaction() as session:
            if max_open is not None:
                session.execute(select(Player.id).where(Player.id == creator_id).with_for_update())
                open_tables = session.scalar(
                    select(func.count())
                    .select_from(RoomSeat)
                    .join(Room, Room.id == RoomSeat.room_id)
                    .where(RoomSeat.player_id == creator_id, RoomSeat.seat == 0, Room.status == "open")
                )
                if (open_tables or 0) >= max_open:
                    raise TooManyTables(creator_id)
            session.add(room)
        return room

    # ------------------------------------------------------------ reads

    def records(self, rooms: list[Room]) -> list[RoomRecord]:
        """Rooms with their seated players and deadlines, in two queries."""
        with self._db.sessions() as session:
            return room_records(session, rooms)

    def record(self, room_id: str) -> RoomRecord | None:
        with self._db.sessions() as session:
            room = session.get(Room, room_id)
        return None if room is None else self.records([room])[0]

    def by_invite(self, code: str) -> RoomRecord | None:
        with self._db.sessions() as session:
            room = session.scalar(select(Room).where(Room.invite_code == code))
        return None if room is None else self.records([room])[0]

    def open_public(self, limit: int = 50) -> list[RoomRecord]:
        """The lobby: public tables waiting for more players, newest first."""
        with self._db.sessions() as session:
            query = (
                select(Room)
                .where(Room.status == "open", Room.visibility == "public")
                .order_by(Room.created_at.desc())
                .limit(limit)
            )
            rooms = list(session.scalars(query).all())
        return self.records(rooms)

    def watchable_public(self, limit: int = 50) -> list[RoomRecord]:
        """Public tables being played whose players allow watching, newest first."""
        with self._db.sessions() as session:
            query = (
                select(Room)
                .where(Room.status == "playing", Room.visibility == "public")
                .order_by(Room.created_at.desc())
                .limit(limit * 2)
            )
            rooms = [room for room in session.scalars(query).all() if room.options.get("spectators", True)][:limit]
        return self.records(rooms)

    def of_player(self, player_id: str) -> list[RoomRecord]:
        """The player's tables that are not finished, most recently changed first."""
        with self._db.sessions() as session:
            query = (
                select(Room)
                .where(
                    Room.id.in_(select(RoomSeat.room_id).where(RoomSeat.player_id == player_id)),
                    Room.status.in_(("open", "playing")),
                )
                .order_by(Room.updated_at.desc())
            )
            rooms = list(session.scalars(query).all())
        return self.records(rooms)

    def last_moves(self, match_ids: Collection[str]) -> dict[str, Action]:
        """The newest logged action of each of these matches (none for a match without one), in one
        query: the lobby's "My games" says what happened last at each table."""
        if not match_ids:
            return {}
        newest = (
            select(Action.match_id, func.max(Action.seq).label("seq"))
            .where(Action.match_id.in_(list(match_ids)))
            .group_by(Action.match_id)
            .subquery()
        )
        query = select(Action).join(newest, (Action.match_id == newest.c.match_id) & (Action.seq == newest.c.seq))
        with self._db.sessions() as session:
            return {row.match_id: row for row in session.scalars(query).all()}

    def unfinished(self) -> list[RoomRecord]:
        """Every open or playing table, oldest first (the operator's list)."""
        with self._db.sessions() as session:
            query = select(Room).where(Room.status.in_(("open", "playing"))).order_by(Room.created_at, Room.id)
            rooms = list(session.scalars(query).all())
        return self.records(rooms)

    def playing_elsewhere(self, room_id: str, player_ids: list[str]) -> str | None:
        """The name of one of ``player_ids`` seated at another live match, if any."""
        with self._db.sessions() as session:
            query = (
                select(Player.name)
                .join(RoomSeat, RoomSeat.player_id == Player.id)
                .join(Room, Room.id == RoomSeat.room_id)
                .where(Player.id.in_(player_ids), Room.status == "playing", Room.id != room_id)
                .limit(1)
            )
            return session.scalar(query)

    def live_ids(self) -> list[str]:
        """The rooms with a match in play at a live pace (a turn-based table, whose ``turn_seat`` is
        stored, needs nothing in memory while it waits: ``due`` finds it when its time comes, R6.3)."""
        with self._db.sessions() as session:
            query = select(Room.id).where(Room.status == "playing", Room.turn_seat.is_(None))
            return list(session.scalars(query).all())

    def due(self, now: datetime, limit: int = 500) -> list[str]:
        """The rooms with a stored deadline that has passed: a turn-based table's turn (R6.3, the
        computer's turn is stored as due at once) or a rematch offer. The turns are read through the
        index on ``rooms.turn_deadline``; ``room_deadlines`` holds only open offers and absences (a
        few rows). A room found twice is named once."""
        with self._db.sessions() as session:
            turns = select(Room.id).where(Room.turn_deadline <= now, Room.status == "playing").limit(limit)
            offers = select(RoomDeadline.room_id).where(RoomDeadline.kind == "rematch", RoomDeadline.deadline <= now)
            found = list(session.scalars(turns).all()) + list(session.scalars(offers.limit(limit)).all())
        return list(dict.fromkeys(found))

    def unjoined_open_tables(self, created_before: datetime) -> list[tuple[str, str]]:
        """(room id, creator id) of open tables made before ``created_before`` that nobody joined
        (only the creator's seat 0 is taken)."""
        joiner = aliased(RoomSeat)
        nobody_joined = ~exists().where(joiner.room_id == Room.id, joiner.seat != 0)
        query = (
            select(Room.id, RoomSeat.player_id)
            .join(RoomSeat, (RoomSeat.room_id == Room.id) & (RoomSeat.seat == 0))
            .where(Room.status == "open", nobody_joined, Room.created_at < created_before)
        )
        with self._db.engine.connect() as connection:
            return [(str(room_id), str(creator)) for room_id, creator in connection.execute(query).all()]

    def claim(self, room_id: str) -> int | None:
        """Take the room over: its lease token, grown by one (None if there is no such room). From
        now on a write fenced with an older token fails (``common.advance``); the caller rebuilds the
        room after this, so that every write of the previous owner is in what it reads."""
        with self._db.transaction() as session:
            claimed = session.execute(update(Room).where(Room.id == room_id).values(lease_token=Room.lease_token + 1))
            if changed(claimed) != 1:
                return None
            return session.scalars(select(Room.lease_token).where(Room.id == room_id)).one()

    def versions(self, room_ids: Collection[str]) -> dict[str, tuple[int, str]]:
        """(version, status) of each room as the database has it."""
        if not room_ids:
            return {}
        query = select(Room.id, Room.version, Room.status).where(Room.id.in_(list(room_ids)))
        with self._db.engine.connect() as connection:
            return {str(room_id): (int(version), str(status)) for room_id, version, status in connection.execute(query)}

    # ------------------------------------------------------------ changes of a room

    def write(self, change: RoomChange) -> None:
        """Carry out one change of a room in one transaction (its moves go through ``ActionLog.commit``)."""
        with self._db.transaction() as session:
            match change:
                case JoinWrite():
                    self._join(session, change)
                case CloseWrite():
                    creator = exists().where(
                        RoomSeat.room_id == change.room_id, RoomSeat.seat == 0, RoomSeat.player_id == change.player_id
                    )
                    closed = session.execute(
                        update(Room)
                        .where(Room.id == change.room_id, Room.status == "open", creator)
                        .values(status="closed")
                    )
                    if changed(closed) != 1:
                        raise SeatTaken("the table could not be closed")
                case OptionsWrite():
                    advance(session, change.room_id, change.expected_version, change.lease, options=change.options)
                case RematchOfferWrite():
                    advance(session, change.room_id, change.expected_version, change.lease)
                    _set_deadline(session, change.room_id, "rematch", None, None)
                    _set_deadline(session, change.room_id, "accepted", None, None)
                    if change.seat is not None and change.deadline is not None:
                        _set_deadline(session, change.room_id, "rematch", change.seat, change.deadline)
                        for seat in change.accepted:  # lapses with the offer it accepts
                            _set_deadline(session, change.room_id, "accepted", seat, change.deadline)
                case RematchStartWrite():
                    advance(
                        session,
                        change.room_id,
                        change.expected_version,
                        change.lease,
                        status="playing",
                        match_id=change.match.id,
                        **_turn_values(change.match.turn),
                    )
                    session.execute(delete(RoomSeat).where(RoomSeat.room_id == change.room_id))
                    session.execute(
                        insert(RoomSeat),
                        [
                            {"room_id": change.room_id, "seat": seat, "player_id": player_id}
                            for seat, player_id in enumerate(change.match.seat_ids)
                        ],
                    )
                    session.execute(delete(RoomDeadline).where(RoomDeadline.room_id == change.room_id))
                    session.add(_match_row(change.room_id, change.match))
                case AbsenceWrite():
                    if change.lease is not None:
                        hold(session, change.room_id, change.lease)
                    _set_deadline(session, change.room_id, "absence", change.seat, change.deadline)
                case ChatWrite():
                    _add_chat_line(session, change)

    def _join(self, session: Session, write: JoinWrite) -> None:
        """Take the first free seat, or ``write.seat`` if it is free (the table is full when every
        seat is taken); with a match, which needs the last seat, start it. The version update comes
        first: it locks the room row, so a racing joiner waits for this one and then sees its seat
        taken."""
        locked = session.execute(
            update(Room).where(Room.id == write.room_id, Room.status == "open").values(version=Room.version + 1)
        )
        if changed(locked) != 1:
            raise SeatTaken("somebody else took the seat first")
        seats = session.scalars(select(Room.seats).where(Room.id == write.room_id)).one()
        query = select(RoomSeat.seat, RoomSeat.player_id).where(RoomSeat.room_id == write.room_id)
        taken = {seat: player_id for seat, player_id in session.execute(query)}
        free = [seat for seat in range(seats) if seat not in taken]
        seat = free[0] if free and write.seat is None else write.seat
        if seat not in free or write.player_id in taken.values():
            raise SeatTaken("somebody else took the seat first")
        session.execute(insert(RoomSeat).values(room_id=write.room_id, seat=seat, player_id=write.player_id))
        if write.match is None:
            return
        if len(free) > 1:
            raise SeatTaken("a match starts only once every seat is taken")
        started = {"status": "playing", "match_id": write.match.id, **_turn_values(write.match.turn)}
        session.execute(update(Room).where(Room.id == write.room_id).values(**started))
        session.add(_match_row(write.room_id, write.match))


def _add_chat_line(session: Session, write: ChatWrite) -> None:
    """Store a chat line and drop the match's lines older than its newest ``keep``."""
    session.add(ChatLine(match_id=write.match_id, seat=write.seat, text=write.text, at=write.at))
    session.flush()
    kept = (
        select(ChatLine.id)
        .where(ChatLine.match_id == write.match_id)
        .order_by(ChatLine.id.desc())
        .limit(write.keep)
        .subquery()
    )
    session.execute(
        delete(ChatLine).where(ChatLine.match_id == write.match_id, ChatLine.id.not_in(select(kept.c.id))),
        execution_options={"synchronize_session": False},
    )


def _set_deadline(session: Session, room_id: str, kind: str, seat: int | None, deadline: Any) -> None:
    """Store a deadline, or remove it (``deadline`` None; ``seat`` None removes every one of ``kind``)."""
    query = delete(RoomDeadline).where(RoomDeadline.room_id == room_id, RoomDeadline.kind == kind)
    if seat is not None:
        query = query.where(RoomDeadline.seat == seat)
    session.execute(query)
    if deadline is not None and seat is not None:
        session.add(RoomDeadline(room_id=room_id, kind=kind, seat=seat, deadline=deadline))


def _turn_values(turn: TurnWrite | None) -> dict[str, Any]:
    """The room row's columns for a turn-based table's turn (R6.3); nothing at a live table."""
    return {} if turn is None else {"turn_seat": turn.seat, "turn_deadline": turn.deadline}


def _match_row(room_id: str, match: NewMatch) -> Match:
    return Match(
        id=match.id,
        room_id=room_id,
        options=match.options,
        seed=str(match.seed),
        first_dealer=match.first_dealer,
        status="playing",
        seat_rows=[MatchSeat(seat=seat, player_id=pid, total=0) for seat, pid in enumerate(match.seat_ids)],
        started_at=utcnow(),
    )
