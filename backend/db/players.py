"""Players and their secrets: accounts, the computer's player rows, tokens, one-time socket tickets
and device sign-in links (only hashes are stored), signing out other devices, deleting an account."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from .codes import DeviceLinkCode
from .common import DELETED_NAME, bot_player_id, changed, hash_token, new_id
from .database import Database
from .models import DeviceLink, DeviceToken, Player, SocketTicket, utcnow


class PlayerRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    def create(self, name: str) -> tuple[Player, str]:
        token = secrets.token_urlsafe(32)  # 32 random bytes; only the hash is stored
        player = Player(id=new_id("p"), name=name, token_hash=hash_token(token), created_at=utcnow())
        with self._db.transaction() as session:
            session.add(player)
        return player, token

    def bot(self, level: str, number: int = 1) -> Player:
        """The player row that stands for the ``number``-th computer player at ``level`` (created on first use)."""
        bot_id = bot_player_id(level, number)
        with self._db.sessions() as session:
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
            with self._db.transaction() as session:
                session.add(bot)
        except IntegrityError:  # another process created it first
            with self._db.sessions() as session:
                return session.scalars(select(Player).where(Player.id == bot_id)).one()
        return bot

    def by_token(self, token: str) -> Player | None:
        """The player holding ``token``: the first device's, or one given by a device link."""
        hashed = hash_token(token)
        with self._db.sessions() as session:
            player = session.scalar(select(Player).where(Player.token_hash == hashed))
            if player is None:
                query = select(Player).join(DeviceToken, DeviceToken.player_id == Player.id)
                player = session.scalar(query.where(DeviceToken.token_hash == hashed))
            return player

    def by_ids(self, ids: list[str]) -> dict[str, Player]:
        with self._db.sessions() as session:
            rows = session.scalars(select(Player).where(Player.id.in_(ids))).all()
            return {p.id: p for p in rows}

    # ------------------------------------------------------------ socket tickets

    def issue_ticket(self, player_id: str, ttl: timedelta) -> str:
        """A one-time ticket that opens one WebSocket within ``ttl`` (only its hash is stored)."""
        ticket = secrets.token_urlsafe(24)
        now = utcnow()
        with self._db.transaction() as session:
            session.execute(delete(SocketTicket).where(SocketTicket.expires_at < now))  # housekeeping
            session.add(SocketTicket(ticket_hash=hash_token(ticket), player_id=player_id, expires_at=now + ttl))
        return ticket

    def redeem_ticket(self, ticket: str) -> Player | None:
        """The player a valid ticket was issued to; the ticket is used up either way."""
        with self._db.transaction() as session:
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
        with self._db.transaction() as session:
            session.execute(delete(DeviceLink).where(DeviceLink.expires_at < now - ttl))  # housekeeping
            session.add(DeviceLink(code_hash=hash_token(code), player_id=player_id, expires_at=expires))
        return code, expires

    def redeem_device_link(self, code: str, now: datetime) -> tuple[Player, str] | DeviceLinkCode:
        """The player a code was issued to and a new token for the new device, once: later tries
        are told it was used; a code not redeemed by its expiry is refused. The first device's
        token stays valid (only hashes are stored, so it could not be handed out anyway)."""
        with self._db.transaction() as session:
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
        with self._db.transaction() as session:
            player = session.get(Player, player_id, with_for_update=True)
            if player is None:
                return 0
            # The kept token becomes the player's first one and every device token goes: if it was one
            # of them, the first device's token goes in its place, so the count is the same either way.
            signed_out = changed(session.execute(delete(DeviceToken).where(DeviceToken.player_id == player_id)))
            player.token_hash = kept
            session.execute(delete(DeviceLink).where(DeviceLink.player_id == player_id, DeviceLink.used_at.is_(None)))
            session.execute(delete(SocketTicket).where(SocketTicket.player_id == player_id))
            return signed_out

    def delete(self, player_id: str) -> None:
        """The account is gone: every secret revoked and the name replaced by ``DELETED_NAME``. The
        row stays, so that finished matches, their deals and the stakes owed keep their other players'
        side (a settlement is the other player's record too)."""
        with self._db.transaction() as session:
            session.execute(delete(DeviceToken).where(DeviceToken.player_id == player_id))
            session.execute(delete(DeviceLink).where(DeviceLink.player_id == player_id))
            session.execute(delete(SocketTicket).where(SocketTicket.player_id == player_id))
            session.execute(
                update(Player)
                .where(Player.id == player_id)
                .values(name=DELETED_NAME, token_hash=hash_token(secrets.token_urlsafe(32)))
            )
