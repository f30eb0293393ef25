"""The repository: every read and write the server makes, each one short transaction.

Methods are synchronous (SQLAlchemy's ordinary engine); the rooms layer runs them in a
worker thread so the event loop never waits on the database. Room versions are updated
by compare-and-swap (``UPDATE … WHERE version = :expected``) so that only one writer can
ever advance a room, even with several server processes (DESIGN.md promise 5).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import (
    Connection,
    CursorResult,
    Engine,
    Result,
    bindparam,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased, sessionmaker

from backend.ratings.rebuild import change_differences, differences, replay

from . import ratings
from .codes import DeviceLinkCode
from .engine import make_engine, make_sessionmaker
from .group_figures import record_group_match
from .group_series import Series, group_series
from .head_to_head import HeadToHead, head_to_head
from .models import (
    Action,
    ChatLine,
    Deal,
    DealSeat,
    DeviceLink,
    DeviceToken,
    Match,
    MatchSeat,
    Player,
    Rating,
    RatingChange,
    Room,
    RoomDeadline,
    RoomSeat,
    Settlement,
    SocketTicket,
    utcnow,
)
from .writes import (
    AbsenceWrite,
    ActionRecord,
    ActionWrite,
    ChatWrite,
    CloseWrite,
    JoinWrite,
    NewMatch,
    OptionsWrite,
    RematchOfferWrite,
    RematchStartWrite,
    RoomWrite,
    SeatTaken,
    TooManyTables,
    VersionConflict,
)

# Built once: constructing statements costs more than running them on the per-move hot path.
_INSERT_ACTION = insert(Action)
_ADVANCE_VERSION = (
    update(Room)
    .where(Room.id == bindparam("room"), Room.version == bindparam("expected"))
    .values(version=bindparam("next"), updated_at=bindparam("now"))
)
_MATCH_TOTAL = (
    update(MatchSeat)
    .where(MatchSeat.match_id == bindparam("match"), MatchSeat.seat == bindparam("at"))
    .values(total=bindparam("value"))
)
_MATCH_PLACE = (
    update(MatchSeat)
    .where(MatchSeat.match_id == bindparam("match"), MatchSeat.seat == bindparam("at"))
    .values(place=bindparam("value"))
)


def _changed(result: Result[Any]) -> int:
    """Rows an UPDATE or DELETE changed (``execute`` is typed as returning any ``Result``)."""
    return cast(CursorResult[Any], result).rowcount


DELETED_NAME = "Deleted player"  # what finished matches show for a player who deleted the account


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def decimal_text(value: Decimal) -> str:
    """Exact decimal text; adding zero turns a negative zero ("-0.00") into "0.00"."""
    return str(value + 0)


def bot_player_id(level: str, number: int = 1) -> str:
    """The id of the player row that stands for the ``number``-th computer player at ``level`` (a
    table of four may seat three of one level, each a player of its own)."""
    return f"p_bot_{level}" if number == 1 else f"p_bot_{level}_{number}"


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_urlsafe(12)}"


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
class RoomRecord:
    """A room row with what its summary needs: the seated players and the stored deadlines."""

    room: Room
    players: dict[str, Player]
    deadlines: list[RoomDeadline]


@dataclass(frozen=True)
class RatingsRebuild:
    """What a rebuild of the ratings found: the rated matches replayed, the ratings they give, and
    where the stored ratings differ from them (none: equal); ``written`` if they replaced them."""

    matches: int
    ratings: int
    differences: list[str]
    written: bool


@dataclass
class StoredMatch:
    record: RoomRecord
    match: Match | None
    actions: list[Action] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)  # the match's chat log, oldest first


class Store:
    def __init__(self, url: str) -> None:
        self.engine: Engine = make_engine(url)
        self._sessions: sessionmaker[Session] = make_sessionmaker(self.engine)
        sqlite = self.engine.dialect.name == "sqlite"
        self._write_lock: AbstractContextManager[Any] = threading.Lock() if sqlite else nullcontext()

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        """A write transaction. On SQLite, writers queue on a lock in this process instead of
        spinning in SQLite's busy handler, which sleeps in growing steps and makes the slowest
        commits far slower than they need to be."""
        with self._write_lock, self._sessions.begin() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()

    def ping(self) -> bool:
        with self._sessions() as session:
            session.execute(select(1))
        return True

    # ------------------------------------------------------------ players

    def create_player(self, name: str) -> tuple[Player, str]:
        token = secrets.token_urlsafe(32)  # 32 random bytes; only the hash is stored
        player = Player(id=new_id("p"), name=name, token_hash=hash_token(token), created_at=utcnow())
        with self._transaction() as session:
            session.add(player)
        return player, token

    def bot_player(self, level: str, number: int = 1) -> Player:
        """The player row that stands for the ``number``-th computer player at ``level`` (created on first use)."""
        bot_id = bot_player_id(level, number)
        with self._sessions() as session:
            bot = session.get(Player, bot_id)
        if bot is not None:
            return bot
        bot = Player(
            id=bot_id,
            name=f"Computer ({level})" if number == 1 else f"Computer {number} ({level})",
            token_hash=hash_token(secrets.token_urlsafe(32)),  # nobody ever holds this token
            bot_level=level,
            created_at=utcnow(),
        )
        try:
            with self._transaction() as session:
                session.add(bot)
        except IntegrityError:  # another process created it first
            with self._sessions() as session:
                return session.scalars(select(Player).where(Player.id == bot_id)).one()
        return bot

    def player_by_token(self, token: str) -> Player | None:
        """The player holding ``token``: the first device's, or one given by a device link."""
        hashed = hash_token(token)
        with self._sessions() as session:
            player = session.scalar(select(Player).where(Player.token_hash == hashed))
            if player is None:
                query = select(Player).join(DeviceToken, DeviceToken.player_id == Player.id)
                player = session.scalar(query.where(DeviceToken.token_hash == hashed))
            return player

    def players(self, ids: list[str]) -> dict[str, Player]:
        with self._sessions() as session:
            rows = session.scalars(select(Player).where(Player.id.in_(ids))).all()
            return {p.id: p for p in rows}

    # ------------------------------------------------------------ rooms

    def create_room(
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
        with self._transaction() as session:
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

    def records(self, rooms: list[Room]) -> list[RoomRecord]:
        """Rooms with their seated players and deadlines, in two queries."""
        with self._sessions() as session:
            return self._records(session, rooms)

    @staticmethod
    def _records(session: Session, rooms: list[Room]) -> list[RoomRecord]:
        ids = [room.id for room in rooms]
        player_ids = [pid for room in rooms for pid in room.seat_ids if pid]
        players = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(player_ids))).all()}
        deadlines = session.scalars(select(RoomDeadline).where(RoomDeadline.room_id.in_(ids))).all()
        by_room: defaultdict[str, list[RoomDeadline]] = defaultdict(list)
        for deadline in deadlines:
            by_room[deadline.room_id].append(deadline)
        return [RoomRecord(room, players, by_room[room.id]) for room in rooms]

    def room_record(self, room_id: str) -> RoomRecord | None:
        with self._sessions() as session:
            room = session.get(Room, room_id)
        return None if room is None else self.records([room])[0]

    def room_by_invite(self, code: str) -> RoomRecord | None:
        with self._sessions() as session:
            room = session.scalar(select(Room).where(Room.invite_code == code))
        return None if room is None else self.records([room])[0]

    def open_public_rooms(self, limit: int = 50) -> list[RoomRecord]:
        """The lobby: public tables waiting for more players, newest first."""
        with self._sessions() as session:
            query = (
                select(Room)
                .where(Room.status == "open", Room.visibility == "public")
                .order_by(Room.created_at.desc())
                .limit(limit)
            )
            rooms = list(session.scalars(query).all())
        return self.records(rooms)

    def watchable_public_rooms(self, limit: int = 50) -> list[RoomRecord]:
        """Public tables being played whose players allow watching, newest first."""
        with self._sessions() as session:
            query = (
                select(Room)
                .where(Room.status == "playing", Room.visibility == "public")
                .order_by(Room.created_at.desc())
                .limit(limit * 2)
            )
            rooms = [room for room in session.scalars(query).all() if room.options.get("spectators", True)][:limit]
        return self.records(rooms)

    def rooms_of_player(self, player_id: str) -> list[RoomRecord]:
        """The player's tables that are not finished, most recently changed first."""
        with self._sessions() as session:
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

    def playing_elsewhere(self, room_id: str, player_ids: list[str]) -> str | None:
        """The name of one of ``player_ids`` seated at another live match, if any."""
        with self._sessions() as session:
            query = (
                select(Player.name)
                .join(RoomSeat, RoomSeat.player_id == Player.id)
                .join(Room, Room.id == RoomSeat.room_id)
                .where(Player.id.in_(player_ids), Room.status == "playing", Room.id != room_id)
                .limit(1)
            )
            return session.scalar(query)

    def live_room_ids(self) -> list[str]:
        with self._sessions() as session:
            return list(session.scalars(select(Room.id).where(Room.status == "playing")).all())

    # ------------------------------------------------------------ changes of a room

    def write(self, write: RoomWrite) -> None:
        """Carry out one change of a room in one transaction (actions go through ``commit_actions``)."""
        if isinstance(write, ActionWrite):
            outcome = self.commit_actions([write])[0]
            if outcome is not None:
                raise outcome
            return
        with self._transaction() as session:
            match write:
                case JoinWrite():
                    self._join(session, write)
                case CloseWrite():
                    creator = exists().where(
                        RoomSeat.room_id == write.room_id, RoomSeat.seat == 0, RoomSeat.player_id == write.player_id
                    )
                    closed = session.execute(
                        update(Room)
                        .where(Room.id == write.room_id, Room.status == "open", creator)
                        .values(status="closed")
                    )
                    if _changed(closed) != 1:
                        raise SeatTaken("the table could not be closed")
                case OptionsWrite():
                    self._advance(session, write.room_id, write.expected_version, options=write.options)
                case RematchOfferWrite():
                    self._advance(session, write.room_id, write.expected_version)
                    self._set_deadline(session, write.room_id, "rematch", None, None)
                    self._set_deadline(session, write.room_id, "accepted", None, None)
                    if write.seat is not None and write.deadline is not None:
                        self._set_deadline(session, write.room_id, "rematch", write.seat, write.deadline)
                        for seat in write.accepted:  # lapses with the offer it accepts
                            self._set_deadline(session, write.room_id, "accepted", seat, write.deadline)
                case RematchStartWrite():
                    self._advance(
                        session, write.room_id, write.expected_version, status="playing", match_id=write.match.id
                    )
                    session.execute(delete(RoomSeat).where(RoomSeat.room_id == write.room_id))
                    session.execute(
                        insert(RoomSeat),
                        [
                            {"room_id": write.room_id, "seat": seat, "player_id": player_id}
                            for seat, player_id in enumerate(write.match.seat_ids)
                        ],
                    )
                    session.execute(delete(RoomDeadline).where(RoomDeadline.room_id == write.room_id))
                    session.add(self._match_row(write.room_id, write.match))
                case AbsenceWrite():
                    self._set_deadline(session, write.room_id, "absence", write.seat, write.deadline)
                case ChatWrite():
                    self._add_chat_line(session, write)

    @staticmethod
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

    def _join(self, session: Session, write: JoinWrite) -> None:
        """Take the first free seat, or ``write.seat`` if it is free (the table is full when every
        seat is taken); with a match, which needs the last seat, start it. The version update comes
        first: it locks the room row, so a racing joiner waits for this one and then sees its seat
        taken."""
        locked = session.execute(
            update(Room).where(Room.id == write.room_id, Room.status == "open").values(version=Room.version + 1)
        )
        if _changed(locked) != 1:
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
        session.execute(update(Room).where(Room.id == write.room_id).values(status="playing", match_id=write.match.id))
        session.add(self._match_row(write.room_id, write.match))

    @staticmethod
    def _set_deadline(session: Session, room_id: str, kind: str, seat: int | None, deadline: Any) -> None:
        """Store a deadline, or remove it (``deadline`` None; ``seat`` None removes every one of ``kind``)."""
        query = delete(RoomDeadline).where(RoomDeadline.room_id == room_id, RoomDeadline.kind == kind)
        if seat is not None:
            query = query.where(RoomDeadline.seat == seat)
        session.execute(query)
        if deadline is not None and seat is not None:
            session.add(RoomDeadline(room_id=room_id, kind=kind, seat=seat, deadline=deadline))

    # ------------------------------------------------------------ socket tickets

    def issue_ticket(self, player_id: str, ttl: timedelta) -> str:
        """A one-time ticket that opens one WebSocket within ``ttl`` (only its hash is stored)."""
        ticket = secrets.token_urlsafe(24)
        now = utcnow()
        with self._transaction() as session:
            session.execute(delete(SocketTicket).where(SocketTicket.expires_at < now))  # housekeeping
            session.add(SocketTicket(ticket_hash=hash_token(ticket), player_id=player_id, expires_at=now + ttl))
        return ticket

    def redeem_ticket(self, ticket: str) -> Player | None:
        """The player a valid ticket was issued to; the ticket is used up either way."""
        with self._transaction() as session:
            row = session.get(SocketTicket, hash_token(ticket))
            if row is None:
                return None
            session.delete(row)
            expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=UTC)
            if expires < utcnow():
                return None
            return session.get(Player, row.player_id)

    # ------------------------------------------------------------ device sign-in links

    def issue_device_link(self, player_id: str, now: datetime, ttl: timedelta) -> tuple[str, datetime]:
        """A one-time code that signs ``player_id`` in on another device until ``now + ttl``.

        Returns the code and its expiry; only the code's hash is stored."""
        code = secrets.token_urlsafe(18)
        expires = now + ttl
        with self._transaction() as session:
            session.execute(delete(DeviceLink).where(DeviceLink.expires_at < now - ttl))  # housekeeping
            session.add(DeviceLink(code_hash=hash_token(code), player_id=player_id, expires_at=expires))
        return code, expires

    def redeem_device_link(self, code: str, now: datetime) -> tuple[Player, str] | DeviceLinkCode:
        """The player a code was issued to and a new token for the new device, once: later tries
        are told it was used; a code not redeemed by its expiry is refused. The first device's
        token stays valid (only hashes are stored, so it could not be handed out anyway)."""
        with self._transaction() as session:
            row = session.get(DeviceLink, hash_token(code), with_for_update=True)
            if row is None:
                return DeviceLinkCode.DEVICE_LINK_UNKNOWN
            if row.used_at is not None:
                return DeviceLinkCode.DEVICE_LINK_USED
            expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=UTC)
            if expires <= now:
                return DeviceLinkCode.DEVICE_LINK_EXPIRED
            player = session.get(Player, row.player_id)
            if player is None:
                return DeviceLinkCode.DEVICE_LINK_UNKNOWN
            row.used_at = now
            token = secrets.token_urlsafe(32)
            session.add(DeviceToken(token_hash=hash_token(token), player_id=player.id, created_at=now))
            return player, token

    # ------------------------------------------------------------ signing out, leaving

    def sign_out_others(self, player_id: str, token: str) -> int:
        """Revoke every secret of the player but ``token``: the other devices' tokens, the first
        device's (if ``token`` is not it), unused device links and socket tickets. How many devices
        were signed out."""
        kept = hash_token(token)
        with self._transaction() as session:
            player = session.get(Player, player_id, with_for_update=True)
            if player is None:
                return 0
            # The kept token becomes the player's first one and every device token goes: if it was one
            # of them, the first device's token goes in its place, so the count is the same either way.
            signed_out = _changed(session.execute(delete(DeviceToken).where(DeviceToken.player_id == player_id)))
            player.token_hash = kept
            session.execute(delete(DeviceLink).where(DeviceLink.player_id == player_id, DeviceLink.used_at.is_(None)))
            session.execute(delete(SocketTicket).where(SocketTicket.player_id == player_id))
            return signed_out

    def delete_player(self, player_id: str) -> None:
        """The account is gone: every secret revoked and the name replaced by ``DELETED_NAME``. The
        row stays, so that finished matches, their deals and the stakes owed keep their other players'
        side (a settlement is the other player's record too)."""
        with self._transaction() as session:
            session.execute(delete(DeviceToken).where(DeviceToken.player_id == player_id))
            session.execute(delete(DeviceLink).where(DeviceLink.player_id == player_id))
            session.execute(delete(SocketTicket).where(SocketTicket.player_id == player_id))
            session.execute(
                update(Player)
                .where(Player.id == player_id)
                .values(name=DELETED_NAME, token_hash=hash_token(secrets.token_urlsafe(32)))
            )

    # ------------------------------------------------------------ the action log

    def commit_actions(self, writes: list[ActionWrite]) -> list[Exception | None]:
        """Store accepted actions, each before any seat hears of it (group commit).

        All of ``writes`` go in one transaction; if any fails (another process advanced a room),
        each is retried in a transaction of its own, so one conflict never costs the others.
        Returns, per write, None once it is stored or the exception that refused it.
        """
        try:
            with self._write_lock, self.engine.begin() as connection:
                for write in writes:
                    self._write_action(connection, write)
            return [None] * len(writes)
        except Exception:
            if len(writes) == 1:
                raise
        outcomes: list[Exception | None] = []
        for write in writes:
            try:
                with self._write_lock, self.engine.begin() as connection:
                    self._write_action(connection, write)
                outcomes.append(None)
            except Exception as error:
                outcomes.append(error)
        return outcomes

    def _write_action(self, connection: Connection, write: ActionWrite) -> None:
        # Core statements on a plain connection, not the ORM: this is the hot path of every move.
        room_values: dict[str, Any] = {"status": "finished"} if write.end else {}
        self._advance(connection, write.room_id, write.expected_version, **room_values)
        connection.execute(
            _INSERT_ACTION,
            {
                "match_id": write.match_id,
                "seq": write.seq,
                "seat": write.action.seat,
                "kind": write.action.kind,
                "card": write.action.card,
                "declare": write.action.declare,
                "reason": write.action.reason,
                "amount": write.action.amount,
                "cards": None if write.action.cards is None else list(write.action.cards),
                "room_version": write.expected_version + 1,
                "client_msg_id": write.client_msg_id,
                "created_at": utcnow(),
            },
        )
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
                .values(
                    status="finished", winner_seat=write.end.winner_seat, end_reason=write.end.reason, finished_at=now
                )
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

    def load_room(self, room_id: str) -> StoredMatch | None:
        """A room with its current match and that match's whole action log, for a rebuild or a
        spectator's greeting: everything read in one snapshot, so that the log is exactly the one
        of the row's version (a move committed meanwhile is in neither).

        On PostgreSQL the reads share one REPEATABLE READ transaction (READ COMMITTED, the default,
        takes a new snapshot per statement). The log is also read only up to the row's version:
        each action is stored in the transaction that advances the row, so that alone makes the
        two agree on any database."""
        with self._sessions() as session:
            if self.engine.dialect.name == "postgresql":
                snapshot = {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
                session.connection(execution_options=snapshot)
            room = session.get(Room, room_id)
            if room is None:
                return None
            stored = StoredMatch(record=self._records(session, [room])[0], match=None)
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

    # ------------------------------------------------------------ history and ledger

    def matches_of_player(self, player_id: str, limit: int, offset: int) -> tuple[list[Match], int]:
        mine = Match.id.in_(select(MatchSeat.match_id).where(MatchSeat.player_id == player_id))
        with self._sessions() as session:
            total = session.scalar(select(func.count()).select_from(Match).where(mine)) or 0
            rows = session.scalars(
                select(Match).where(mine).order_by(Match.started_at.desc(), Match.id).limit(limit).offset(offset)
            ).all()
            return list(rows), total

    def recent_opponents(self, player_id: str, limit: int, scan: int = 200) -> list[tuple[Player, Match]]:
        """The people the player sat at a table with most recently, each once, newest first, with
        the last match they played together (its options make the next table: "Play again").

        Computer players and deleted accounts are left out. The player's newest ``scan`` matches
        are read (an index on ``match_seats.player_id``), which finds ``limit`` people in practice."""
        mine, theirs = aliased(MatchSeat), aliased(MatchSeat)
        with self._sessions() as session:
            rows = session.execute(
                select(theirs.player_id, Match)
                .select_from(mine)
                .join(Match, Match.id == mine.match_id)
                .join(theirs, (theirs.match_id == mine.match_id) & (theirs.seat != mine.seat))
                .join(Player, Player.id == theirs.player_id)
                .where(mine.player_id == player_id, theirs.player_id != player_id)
                .where(Player.bot_level.is_(None), Player.name != DELETED_NAME)
                .order_by(Match.started_at.desc(), Match.id.desc())
                .limit(scan)
            ).all()
            last: dict[str, Match] = {}
            for other, match in rows:
                if other not in last:
                    last[other] = match
                if len(last) >= limit:
                    break
            people = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(list(last)))).all()}
            return [(people[other], match) for other, match in last.items() if other in people]

    def match(self, match_id: str) -> Match | None:
        with self._sessions() as session:
            return session.get(Match, match_id)

    def deals_of(self, match_id: str) -> list[Deal]:
        with self._sessions() as session:
            return list(session.scalars(select(Deal).where(Deal.match_id == match_id).order_by(Deal.number)).all())

    def actions_of(self, match_id: str) -> list[Action]:
        """A match's whole action log, in order (for its replay)."""
        with self._sessions() as session:
            return list(session.scalars(select(Action).where(Action.match_id == match_id).order_by(Action.seq)).all())

    def settlements_for(self, match_ids: list[str]) -> dict[str, list[Settlement]]:
        """Per finished match, what each loser owes each winner (one row for two seats)."""
        with self._sessions() as session:
            query = select(Settlement).where(Settlement.match_id.in_(match_ids)).order_by(Settlement.id)
            by_match: dict[str, list[Settlement]] = defaultdict(list)
            for row in session.scalars(query).all():
                by_match[row.match_id].append(row)
            return dict(by_match)

    def ledger(self, player_id: str) -> list[dict[str, Any]]:
        """Per opponent: finished matches played together, how many of them I won (first place), and
        the net balance per currency (exact, R6.1).

        Every finished match counts for every pair of its players, whether or not money moved: a
        match for nothing, or the two losers of a table of three (who owe each other nothing,
        V0.10), are still matches played. The balance sums the settlements, one per (match,
        winner, loser)."""
        mine, theirs = aliased(MatchSeat), aliased(MatchSeat)
        with self._sessions() as session:
            played = session.execute(
                select(theirs.player_id, mine.place, Match.finished_at)
                .join(Match, Match.id == mine.match_id)
                .join(theirs, (theirs.match_id == mine.match_id) & (theirs.seat != mine.seat))
                .where(mine.player_id == player_id, Match.status == "finished")
            ).all()
            owed = session.execute(
                select(Settlement).where(or_(Settlement.winner_id == player_id, Settlement.loser_id == player_id))
            ).scalars()
            opponents: dict[str, dict[str, Any]] = {}
            for other, place, finished_at in played:
                entry = opponents.setdefault(
                    other, {"opponent_id": other, "played": 0, "won": 0, "last_played": finished_at}
                )
                entry["played"] += 1
                entry["won"] += int(place == 1)
                if finished_at and (entry["last_played"] is None or finished_at > entry["last_played"]):
                    entry["last_played"] = finished_at
            balances: dict[str, defaultdict[str, Decimal]] = {other: defaultdict(Decimal) for other in opponents}
            for settlement in owed:
                won = settlement.winner_id == player_id
                other = settlement.loser_id if won else settlement.winner_id
                amount = Decimal(settlement.amount)
                balances.setdefault(other, defaultdict(Decimal))[settlement.currency] += amount if won else -amount
            people = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(opponents))).all()}
        result = []
        for other, entry in opponents.items():
            entry["opponent_name"] = people[other].name if other in people else "?"
            entry["opponent_bot_level"] = people[other].bot_level if other in people else None
            entry["balance"] = {currency: decimal_text(value) for currency, value in sorted(balances[other].items())}
            result.append(entry)
        result.sort(key=lambda e: str(e["last_played"] or ""), reverse=True)
        return result

    # ------------------------------------------------------------ ratings

    def rating_changes_of(self, match_id: str) -> list[RatingChange]:
        """What a finished match did to its players' ratings (none: it was not rated)."""
        with self._sessions() as session:
            query = select(RatingChange).where(RatingChange.match_id == match_id).order_by(RatingChange.id)
            return list(session.scalars(query).all())

    def ratings_of(self, player_id: str) -> list[Rating]:
        """A player's ratings, one per game kind the player has been rated in."""
        with self._sessions() as session:
            return list(
                session.scalars(select(Rating).where(Rating.player_id == player_id).order_by(Rating.kind)).all()
            )

    def rebuild_ratings(self, write: bool = False) -> RatingsRebuild:
        """Recompute every rating from the stored matches and compare it with the stored ratings;
        with ``write`` store the recomputed ones (and their changes) in their place, every rating
        change of the server held off meanwhile. Without ``write``, PostgreSQL reads everything in one
        snapshot (REPEATABLE READ), so that a match finishing meanwhile is in both sides or neither."""
        engine = self.engine
        if not write and engine.dialect.name == "postgresql":
            engine = engine.execution_options(isolation_level="REPEATABLE READ")
        with self._write_lock, engine.begin() as connection:
            if write:
                ratings.lock_ratings(connection)
            history = ratings.rated_history(connection)
            replayed = replay(history)
            stored = ratings.stored_ratings(connection)
            found = differences(replayed.ratings, stored)
            found += change_differences(replayed.changes, ratings.stored_changes(connection))
            if write:
                ratings.replace_all(connection, replayed, utcnow())
        return RatingsRebuild(matches=len(history), ratings=len(replayed.ratings), differences=found, written=write)

    def head_to_head(self, player_ids: list[str], computers: bool, limit: int, offset: int) -> HeadToHead:
        """The figures of a group of people and one page of its matches (``head_to_head``), every
        query read in one snapshot (on PostgreSQL one REPEATABLE READ transaction), so that the
        figures and the page agree even while a match of the group ends."""
        with self._sessions() as session:
            if self.engine.dialect.name == "postgresql":
                snapshot = {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
                session.connection(execution_options=snapshot)
            return head_to_head(session, player_ids, computers, limit, offset)

    def group_series(self, player_ids: list[str]) -> Series:
        """Every people-only match of a group of people, oldest first, as each member's final total
        (``group_series``: one query, so one snapshot)."""
        with self._sessions() as session:
            return group_series(session, player_ids)

    # ------------------------------------------------------------ helpers

    @staticmethod
    def _advance(session: Session | Connection, room_id: str, expected_version: int, **values: Any) -> None:
        if values:
            statement = (
                update(Room)
                .where(Room.id == room_id, Room.version == expected_version)
                .values(version=expected_version + 1, updated_at=utcnow(), **values)
            )
            advanced = session.execute(statement)
        else:  # the common case, with a statement built once
            advanced = session.execute(
                _ADVANCE_VERSION,
                {"room": room_id, "expected": expected_version, "next": expected_version + 1, "now": utcnow()},
            )
        if _changed(advanced) != 1:
            raise VersionConflict(f"room {room_id} is no longer at version {expected_version}")

    @staticmethod
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
