"""Web Push in the database: the VAPID key pair, the devices' subscriptions and the outbox.

The outbox is how a notification is sent exactly once in a cluster: every process may look for due
rows, but a row is sent only by the process whose compare-and-swap on ``claimed_until`` changed it
(``claim``); it is deleted once the push service took it (``sent``), or made due again later
(``failed``). A process that dies while sending leaves its claim to lapse: another sends it then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from backend.db.common import changed
from backend.db.database import Database
from backend.db.models import PushKey, PushOutbox, PushSubscription, Room


class TooManySubscriptions(Exception):
    """The player has as many subscriptions as allowed already (``PUSH_MAX_SUBSCRIPTIONS``)."""


@dataclass(frozen=True, slots=True)
class Subscription:
    id: int
    player_id: str
    endpoint: str
    p256dh: str
    auth: str
    lang: str


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A notification to one subscription, as enqueued."""

    player_id: str
    kind: str  # turn | reminder | end | invite
    room_id: str
    params: dict[str, Any]
    due_at: datetime
    expires_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Claimed:
    """A due notification taken by this process, with its subscription."""

    id: int
    kind: str
    room_id: str
    params: dict[str, Any]
    expires_at: datetime | None
    attempts: int
    subscription: Subscription


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _subscription(row: PushSubscription) -> Subscription:
    return Subscription(row.id, row.player_id, row.endpoint, row.p256dh, row.auth, row.lang)


class PushRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    # ------------------------------------------------------------ the key pair

    def key(self, make: Any) -> str:
        """The stored private key (PEM); on first start ``make()``'s, stored (the first of several
        processes starting at once wins, and every one uses its key)."""
        with self._db.sessions() as session:
            found = session.get(PushKey, 1)
            if found is not None:
                return found.private_pem
        pem = str(make())
        try:
            with self._db.transaction() as session:
                session.add(PushKey(id=1, private_pem=pem))
        except IntegrityError:
            pass
        with self._db.sessions() as session:
            stored = session.get(PushKey, 1)
            assert stored is not None
            return stored.private_pem

    # ------------------------------------------------------------ subscriptions

    def subscribe(self, player_id: str, endpoint: str, p256dh: str, auth: str, lang: str, limit: int) -> int:
        """Keep the device's subscription for the player (a device that subscribes again — or for
        another player signed in there — replaces its row); ``TooManySubscriptions`` past ``limit``."""
        with self._db.transaction() as session:
            existing = session.scalar(select(PushSubscription).where(PushSubscription.endpoint == endpoint))
            if existing is None or existing.player_id != player_id:
                count = session.scalar(
                    select(func.count()).select_from(PushSubscription).where(PushSubscription.player_id == player_id)
                )
                if (count or 0) >= limit:
                    raise TooManySubscriptions(player_id)
            if existing is not None:
                session.execute(delete(PushOutbox).where(PushOutbox.subscription_id == existing.id))
                existing.player_id, existing.p256dh, existing.auth, existing.lang = player_id, p256dh, auth, lang
                session.flush()
                return existing.id
            row = PushSubscription(player_id=player_id, endpoint=endpoint, p256dh=p256dh, auth=auth, lang=lang)
            session.add(row)
            session.flush()
            return row.id

    def unsubscribe(self, player_id: str, endpoint: str) -> bool:
        with self._db.transaction() as session:
            ids = list(
                session.scalars(
                    select(PushSubscription.id).where(
                        PushSubscription.player_id == player_id, PushSubscription.endpoint == endpoint
                    )
                )
            )
            return self._drop(session, ids) > 0

    def drop(self, subscription_id: int) -> None:
        """The push service said the subscription is gone (404/410): so is every notification for it."""
        with self._db.transaction() as session:
            self._drop(session, [subscription_id])

    def drop_player(self, player_id: str) -> int:
        """Sign-out on every device, or the account deleted: every subscription of the player goes."""
        with self._db.transaction() as session:
            ids = list(session.scalars(select(PushSubscription.id).where(PushSubscription.player_id == player_id)))
            return self._drop(session, ids)

    @staticmethod
    def _drop(session: Any, ids: Sequence[int]) -> int:
        if not ids:
            return 0
        session.execute(delete(PushOutbox).where(PushOutbox.subscription_id.in_(ids)))
        return changed(session.execute(delete(PushSubscription).where(PushSubscription.id.in_(ids))))

    def of_player(self, player_id: str) -> list[Subscription]:
        with self._db.sessions() as session:
            rows = session.scalars(select(PushSubscription).where(PushSubscription.player_id == player_id)).all()
            return [_subscription(row) for row in rows]

    def has_any(self, player_ids: Sequence[str]) -> set[str]:
        """Which of the players have a subscription (one indexed query)."""
        if not player_ids:
            return set()
        query = select(PushSubscription.player_id).where(PushSubscription.player_id.in_(list(player_ids))).distinct()
        with self._db.sessions() as session:
            return set(session.scalars(query).all())

    # ------------------------------------------------------------ the outbox

    def enqueue(self, items: Sequence[Outgoing]) -> int:
        """One row per subscription of each item's player; how many."""
        players = sorted({item.player_id for item in items})
        if not players:
            return 0
        with self._db.transaction() as session:
            subs = session.execute(
                select(PushSubscription.id, PushSubscription.player_id).where(PushSubscription.player_id.in_(players))
            ).all()
            rows = [
                PushOutbox(
                    subscription_id=sub_id,
                    kind=item.kind,
                    room_id=item.room_id,
                    params=item.params,
                    due_at=item.due_at,
                    expires_at=item.expires_at,
                    attempts=0,
                )
                for item in items
                for sub_id, player_id in subs
                if player_id == item.player_id
            ]
            session.add_all(rows)
            return len(rows)

    def claim(self, now: datetime, hold: timedelta, limit: int = 20) -> list[Claimed]:
        """Take up to ``limit`` due notifications for ``hold``: each by a compare-and-swap on its
        claim, so that of several processes exactly one takes it."""
        free = or_(PushOutbox.claimed_until.is_(None), PushOutbox.claimed_until < now)
        with self._db.sessions() as session:
            ids = list(
                session.scalars(
                    select(PushOutbox.id).where(PushOutbox.due_at <= now, free).order_by(PushOutbox.due_at).limit(limit)
                )
            )
        taken: list[int] = []
        for row_id in ids:
            with self._db.transaction() as session:
                claimed = session.execute(
                    update(PushOutbox).where(PushOutbox.id == row_id, free).values(claimed_until=now + hold)
                )
                if changed(claimed) == 1:
                    taken.append(row_id)
        if not taken:
            return []
        with self._db.sessions() as session:
            rows = session.execute(
                select(PushOutbox, PushSubscription)
                .join(PushSubscription, PushSubscription.id == PushOutbox.subscription_id)
                .where(PushOutbox.id.in_(taken))
            ).all()
            return [
                Claimed(
                    out.id,
                    out.kind,
                    out.room_id,
                    dict(out.params),
                    _aware(out.expires_at),
                    out.attempts,
                    _subscription(sub),
                )
                for out, sub in rows
            ]

    def sent(self, outbox_id: int) -> None:
        with self._db.transaction() as session:
            session.execute(delete(PushOutbox).where(PushOutbox.id == outbox_id))

    def failed(self, outbox_id: int, retry_at: datetime | None) -> None:
        """Not taken by the push service: due again at ``retry_at``, or given up (None)."""
        with self._db.transaction() as session:
            if retry_at is None:
                session.execute(delete(PushOutbox).where(PushOutbox.id == outbox_id))
            else:
                session.execute(
                    update(PushOutbox)
                    .where(PushOutbox.id == outbox_id)
                    .values(due_at=retry_at, attempts=PushOutbox.attempts + 1, claimed_until=None)
                )

    def pending(self) -> int:
        with self._db.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(PushOutbox)) or 0)

    def turn_of(self, room_id: str) -> tuple[str, int | None, datetime | None] | None:
        """(status, turn seat, turn deadline) of a room as stored: is a reminder still due?"""
        with self._db.sessions() as session:
            row = session.execute(
                select(Room.status, Room.turn_seat, Room.turn_deadline).where(Room.id == room_id)
            ).first()
        if row is None:
            return None
        return str(row[0]), row[1], _aware(row[2])
