"""SQLAlchemy 2 models: players, rooms, matches, deals, the action log, stake settlements.

A table has 2, 3 or 4 seats (``Room.seats``); everything per seat lives in a seat table keyed by
(parent, seat): ``room_seats`` (who sits where), ``match_seats`` (the players and their match
totals), ``deal_seats`` (a deal's points and totals). The ORM loads them with their parent
(``selectin``) and offers them as seat-ordered lists (``Room.seat_ids``, ``Match.player_ids``,
``Match.totals``, ``Deal.card_points`` …).

A finished deal's computer analysis (issue 26) is a row of ``deal_analyses`` keyed by (match, deal
number): computed once, served to everyone who may replay the deal.

Amounts are stored as decimal *text* so that SQLite keeps them exact too (R6.1): a
SQLite NUMERIC column would hand them back as binary floats.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, UniqueConstraint, false
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from backend.ratings.kinds import options_kind


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}  # noqa: RUF012 (SQLAlchemy idiom)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    bot_level: Mapped[str | None] = mapped_column(String(10), index=True)  # computer players only
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    invite_code: Mapped[str] = mapped_column(String(40), unique=True)
    visibility: Mapped[str] = mapped_column(String(10))
    options: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(10), index=True)
    seats: Mapped[int] = mapped_column(Integer, default=2, server_default="2")  # the table's seat count
    match_id: Mapped[str | None] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer, default=0)
    # Grows by one with each takeover (``RoomRepository.claim``); a versioned write names the token
    # its owner claimed, so a process that lost the room can never commit for it (migration 0013).
    lease_token: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # R6.3, a turn-based table while its match is played: the seat on turn and until when it may act
    # (``writes.TurnWrite``; null at a live table). The sweep reads ``turn_deadline`` (its index).
    turn_seat: Mapped[int | None] = mapped_column(Integer)
    turn_deadline: Mapped[datetime | None] = mapped_column(index=True)
    seat_rows: Mapped[list[RoomSeat]] = relationship(
        order_by="RoomSeat.seat", lazy="selectin", cascade="all, delete-orphan"
    )

    @property
    def seat_ids(self) -> list[str | None]:
        """Who sits at each seat, in seat order (None: a free seat)."""
        ids: list[str | None] = [None] * self.seats
        for row in self.seat_rows:
            if 0 <= row.seat < len(ids):
                ids[row.seat] = row.player_id
        return ids


class RoomSeat(Base):
    """A taken seat of a table (a free seat has no row)."""

    __tablename__ = "room_seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)


def _kind_of_inserted(context: DefaultExecutionContext) -> str:
    """A new match's game kind, from the options it is inserted with (``backend.ratings.kinds.options_kind``)."""
    parameters: dict[str, Any] = context.get_current_parameters()  # type: ignore[no-untyped-call]
    return options_kind(parameters["options"])


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    options: Mapped[dict[str, Any]]
    seed: Mapped[str] = mapped_column(String(50))  # a 128-bit integer, as text
    kind: Mapped[str] = mapped_column(String(12), default=_kind_of_inserted)  # a RATING_KINDS
    first_dealer: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10), index=True)  # playing | finished
    winner_seat: Mapped[int | None] = mapped_column(Integer)
    end_reason: Mapped[str | None] = mapped_column(String(10))
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    seat_rows: Mapped[list[MatchSeat]] = relationship(
        order_by="MatchSeat.seat", lazy="selectin", cascade="all, delete-orphan"
    )

    @property
    def player_ids(self) -> list[str]:
        """The players, in seat order."""
        return [row.player_id for row in self.seat_rows]

    @property
    def totals(self) -> list[int]:
        """The match totals, in seat order."""
        return [row.total for row in self.seat_rows]

    @property
    def places(self) -> list[int] | None:
        """Once the match is over, every seat's place (1 the best), in seat order."""
        found = [row.place for row in self.seat_rows]
        return None if None in found else [place for place in found if place is not None]


class MatchSeat(Base):
    """A seat of a match: who played it and the seat's match total."""

    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    total: Mapped[int] = mapped_column(Integer, default=0)
    place: Mapped[int | None] = mapped_column(Integer)  # once the match is over: 1 the best (R6.2, V0.10a)


class Deal(Base):
    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    number: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(50))
    declarations: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # The variants (../shared/RULES-VARIANTS.md): the auction's declarer and contract, whether the
    # contract was made, a thrown-in deal, and details such as rounding or bonuses.
    declarer: Mapped[int | None] = mapped_column(Integer)
    contract: Mapped[int | None] = mapped_column(Integer)
    made: Mapped[bool | None] = mapped_column(Boolean)
    thrown_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    extra: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    seat_rows: Mapped[list[DealSeat]] = relationship(
        order_by="DealSeat.seat", lazy="selectin", cascade="all, delete-orphan"
    )

    @property
    def card_points(self) -> list[int]:
        return [row.card_points for row in self.seat_rows]

    @property
    def declaration_points(self) -> list[int]:
        return [row.declaration_points for row in self.seat_rows]

    @property
    def score(self) -> list[int]:
        return [row.score for row in self.seat_rows]

    @property
    def totals(self) -> list[int]:
        return [row.total for row in self.seat_rows]


class DealSeat(Base):
    """A seat's part of a finished deal: card points, declarations, the deal's score, the total after it."""

    __tablename__ = "deal_seats"

    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_points: Mapped[int] = mapped_column(Integer)
    declaration_points: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)


class Action(Base):
    """The write-ahead log: every accepted action of a match, in order."""

    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))  # play | resign | bid | pass | discard
    card: Mapped[str | None] = mapped_column(String(2))
    amount: Mapped[int | None] = mapped_column(Integer)  # a bid
    cards: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True))  # a discard (two cards)
    declare: Mapped[bool] = mapped_column(Boolean, default=False)
    reason: Mapped[str | None] = mapped_column(String(10))
    room_version: Mapped[int] = mapped_column(Integer)
    client_msg_id: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Settlement(Base):
    """R6 / V0.10: what one loser of a match owes one winner (a match has one row per such pair:
    one for two seats; each other player owes the winner at 3 or 4 seats; V0.10a: the one who
    abandons owes every other player)."""

    __tablename__ = "settlements"
    __table_args__ = (
        Index("ix_settlements_players", "winner_id", "loser_id"),
        UniqueConstraint("match_id", "winner_id", "loser_id", name="uq_settlements_match_pair"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))  # indexed by uq_settlements_match_pair
    winner_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    loser_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    points_short: Mapped[int] = mapped_column(Integer)
    stake_per_point: Mapped[str] = mapped_column(String(40))
    currency: Mapped[str] = mapped_column(String(12))
    amount: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Rating(Base):
    """A person's rating in one game kind (``backend.ratings``): the Weng–Lin (openskill) skill
    ``mu`` ± ``sigma`` after ``matches`` rated matches. A row is made at the first rated match."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # backend.ratings.RATING_KINDS
    mu: Mapped[float] = mapped_column(Float(precision=53))
    sigma: Mapped[float] = mapped_column(Float(precision=53))
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RatingChange(Base):
    """What one finished match did to one player's rating, stored with the match. ``id`` is the
    order the changes were applied in, the order a rebuild replays them in."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("match_id", "player_id", name="uq_rating_changes_match_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))  # indexed by uq_rating_changes_match_player
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float(precision=53))
    sigma_before: Mapped[float] = mapped_column(Float(precision=53))
    mu_after: Mapped[float] = mapped_column(Float(precision=53))
    sigma_after: Mapped[float] = mapped_column(Float(precision=53))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RoomDeadline(Base):
    """A clock of a room, stored so that a restart goes on from it (DESIGN promise 6):
    ``absence`` holds an absent seat until ``deadline`` (R6.2); ``rematch`` is an open rematch
    offer by ``seat`` that lapses at ``deadline``, ``accepted`` a seat that has accepted it (with
    the offer's deadline)."""

    __tablename__ = "room_deadlines"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)  # absence | rematch | accepted
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


class GroupMatch(Base):
    """Head to head: a finished match, once for every group of two or more of its people (the
    group's key: their ids, sorted, comma-joined), so that a group's matches are read a page at a
    time whatever their number. Written when the match ends (``group_figures.record_group_match``)."""

    __tablename__ = "group_matches"
    __table_args__ = (Index("ix_group_matches_page", "group_key", "computers", "finished_at", "match_id"),)

    group_key: Mapped[str] = mapped_column(String(170), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    computers: Mapped[bool] = mapped_column(Boolean)  # a computer sat at the match too
    finished_at: Mapped[datetime | None]


class GroupFigure(Base):
    """Head to head: one member's figures in a group's matches of one game kind (people only, or
    with a computer seat), added to as each match ends, so that reading them costs the same for
    ten matches or a thousand. ``group_figures.recount`` works them out from the matches again."""

    __tablename__ = "group_figures"

    group_key: Mapped[str] = mapped_column(String(170), primary_key=True)
    kind: Mapped[str] = mapped_column(String(12), primary_key=True)
    computers: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)  # first, and no other member first
    shared: Mapped[int] = mapped_column(Integer, server_default="0")  # first with another member (0012)
    deals: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    marriages: Mapped[int] = mapped_column(Integer)
    marriage_points: Mapped[int] = mapped_column(Integer)
    contracts: Mapped[int] = mapped_column(Integer)
    contracts_made: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)  # + won in a row, − lost in a row, 0 after a shared first
    best_margin: Mapped[int | None] = mapped_column(Integer)  # the biggest win's lead
    best_total: Mapped[int | None] = mapped_column(Integer)
    best_match_id: Mapped[str | None] = mapped_column(String(40))
    best_at: Mapped[datetime | None]


class GroupStake(Base):
    """Head to head: the points short one member paid another in the group's matches, per currency
    and stake (the amount is ``stake × points``, R6.1: exact)."""

    __tablename__ = "group_stakes"

    group_key: Mapped[str] = mapped_column(String(170), primary_key=True)
    winner_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    loser_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    currency: Mapped[str] = mapped_column(String(12), primary_key=True)
    stake_per_point: Mapped[str] = mapped_column(String(40), primary_key=True)
    points_short: Mapped[int] = mapped_column(Integer)


class Analysis(Base):
    """The computer analysis of one finished deal (issue 26, ``backend.analysis``), computed once per
    ``ANALYSIS_VERSION`` and served to everyone who may replay the match. While it runs, ``done`` of
    ``total`` decisions are rated (the progress bar, readable by any process); ``updated_at`` moves
    with the progress, so a row left queued or running by a process that died is seen to be stale.
    ``asker`` is the player who asked (or the hash of the address of someone without a player): the
    per-asker limits count these rows."""

    __tablename__ = "deal_analyses"
    __table_args__ = (Index("ix_deal_analyses_asker", "asker", "started_at"),)

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # the deal's number in its match (0 the first)
    version: Mapped[int] = mapped_column(Integer)  # the ANALYSIS_VERSION it is (being) computed by
    status: Mapped[str] = mapped_column(String(8))  # queued | running | done | failed
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))  # once done: the analysis
    message: Mapped[str | None] = mapped_column(String(200))  # once failed: why
    asker: Mapped[str] = mapped_column(String(64))
    started_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class PushKey(Base):
    """The server's VAPID key pair (RFC 8292), made on first start and kept (one row, ``id`` 1),
    unless the ``VAPID_PRIVATE_KEY`` setting supplies it. The private key as PEM text."""

    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(String(400))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PushSubscription(Base):
    """One device's Web Push subscription (issue 45): the push service's ``endpoint`` (unique: a
    device subscribes once, for whoever is signed in there), its keys and the device's language."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    lang: Mapped[str] = mapped_column(String(5))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PushOutbox(Base):
    """A notification waiting to be sent to one subscription, from ``due_at`` on; a process takes it
    by setting ``claimed_until`` (a compare-and-swap: one process sends it) and deletes it once the
    push service took it. ``attempts`` counts failed sends (the next waits longer); ``expires_at``
    is when it is no use any more (a turn's deadline: the TTL sent is the time left until then)."""

    __tablename__ = "push_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subscription_id: Mapped[int] = mapped_column(ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(10))  # turn | reminder | end | invite
    room_id: Mapped[str] = mapped_column(String(40))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    due_at: Mapped[datetime] = mapped_column(index=True)
    expires_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_until: Mapped[datetime | None]
