"""SQLAlchemy 2 models: players, rooms, matches, deals, the action log, stake settlements.

Amounts are stored as decimal *text* so that SQLite keeps them exact too (R6.1): a
SQLite NUMERIC column would hand them back as binary floats.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}  # noqa: RUF012 (SQLAlchemy idiom)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    bot_level: Mapped[str | None] = mapped_column(String(10), unique=True, index=True)  # computer opponents only
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    invite_code: Mapped[str] = mapped_column(String(40), unique=True)
    visibility: Mapped[str] = mapped_column(String(10))
    options: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(10), index=True)
    seat0_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    seat1_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    match_id: Mapped[str | None] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    options: Mapped[dict[str, Any]]
    seed: Mapped[str] = mapped_column(String(50))  # a 128-bit integer, as text
    first_dealer: Mapped[int] = mapped_column(Integer)
    seat0_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    seat1_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    status: Mapped[str] = mapped_column(String(10), index=True)  # playing | finished
    winner_seat: Mapped[int | None] = mapped_column(Integer)
    end_reason: Mapped[str | None] = mapped_column(String(10))
    total0: Mapped[int] = mapped_column(Integer, default=0)
    total1: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]


class Deal(Base):
    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    number: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(50))
    card_points0: Mapped[int] = mapped_column(Integer)
    card_points1: Mapped[int] = mapped_column(Integer)
    declaration_points0: Mapped[int] = mapped_column(Integer)
    declaration_points1: Mapped[int] = mapped_column(Integer)
    score0: Mapped[int] = mapped_column(Integer)
    score1: Mapped[int] = mapped_column(Integer)
    total0: Mapped[int] = mapped_column(Integer)
    total1: Mapped[int] = mapped_column(Integer)
    declarations: Mapped[list[dict[str, Any]]] = mapped_column(JSON)


class Action(Base):
    """The write-ahead log: every accepted action of a match, in order."""

    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))  # play | resign
    card: Mapped[str | None] = mapped_column(String(2))
    declare: Mapped[bool] = mapped_column(Boolean, default=False)
    reason: Mapped[str | None] = mapped_column(String(10))
    room_version: Mapped[int] = mapped_column(Integer)
    client_msg_id: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Settlement(Base):
    """R6: what the loser of a match owes the winner."""

    __tablename__ = "settlements"
    __table_args__ = (Index("ix_settlements_players", "winner_id", "loser_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), unique=True)
    winner_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    loser_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    points_short: Mapped[int] = mapped_column(Integer)
    stake_per_point: Mapped[str] = mapped_column(String(40))
    currency: Mapped[str] = mapped_column(String(12))
    amount: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RoomDeadline(Base):
    """A clock of a room, stored so that a restart goes on from it (DESIGN promise 6):
    ``absence`` holds an absent seat until ``deadline`` (R6.2); ``rematch`` is an open rematch
    offer by ``seat`` that lapses at ``deadline``."""

    __tablename__ = "room_deadlines"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)  # absence | rematch
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    deadline: Mapped[datetime]


class SocketTicket(Base):
    """A one-time, short-lived ticket that opens one WebSocket, so that the long-lived player
    token never travels in a URL. Only its hash is stored."""

    __tablename__ = "socket_tickets"

    ticket_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    expires_at: Mapped[datetime] = mapped_column(index=True)


class ChatLine(Base):
    """A line of a match's chat log (the newest lines of each match are kept: ``ChatWrite.keep``)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime]


class DeviceLink(Base):
    """A one-time, short-lived code that signs the same player in on another device. Only its hash
    is stored; a redeemed code is kept (``used_at``) so that a second try is told it was used."""

    __tablename__ = "device_links"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    expires_at: Mapped[datetime] = mapped_column(index=True)
    used_at: Mapped[datetime | None]


class DeviceToken(Base):
    """A further secret of a player, for a device signed in through a device link (the first
    device's is ``Player.token_hash``). Only its hash is stored."""

    __tablename__ = "device_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
