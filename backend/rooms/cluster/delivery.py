"""The ``Bus`` over Redis: a room's messages reach its players' sockets on whichever process.

``room:{id}`` carries what the owner addresses to a room's players, delivered by the process that
holds each player's socket, and "this player attached elsewhere" notices (the older socket is
replaced). A message is sent straight to a socket held here; only the others go through Redis.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from backend.ops import metrics

from ..codes import CloseCode
from ..ports import Connection
from .link import RedisLink
from .presence import Presence


class RedisBus:
    def __init__(self, link: RedisLink, presence: Presence) -> None:
        self._link = link
        self._presence = presence
        self._local: dict[str, dict[str, Connection]] = {}  # room → player → socket held here
        # A message to a player could not be published: that player is owed a fresh full state.
        self.on_undelivered: Callable[[str, str], None] = lambda room_id, player_id: None
        link.route("room", self._on_room_message)
        link.on_undelivered = self._undelivered

    async def attach(self, room_id: str, player_id: str, connection: Connection) -> Connection | None:
        players = self._local.setdefault(room_id, {})
        previous = players.get(player_id)
        players[player_id] = connection
        await self._link.listen(f"room:{room_id}")
        with contextlib.suppress(RedisError, OSError):
            await self._presence.arrived(room_id, player_id)
            # A socket of this player held by another process is replaced by this one.
            notice = {"kind": "attached", "player": player_id, "proc": self._link.id}
            await self._link.publish(f"room:{room_id}", notice)
        return previous if previous is not connection else None

    async def detach(self, room_id: str, player_id: str, connection: Connection) -> bool:
        players = self._local.get(room_id)
        if players is None or players.get(player_id) is not connection:
            return False
        del players[player_id]
        if not players:
            del self._local[room_id]
        with contextlib.suppress(RedisError, OSError):
            await self._presence.left(room_id, player_id)
        return True

    async def present(self, room_id: str) -> frozenset[str]:
        try:
            return await self._presence.players(room_id)
        except (RedisError, OSError):
            metrics.REDIS_ERRORS.labels("presence").inc()
            return frozenset(self._local.get(room_id, {}))

    def deliver(self, room_id: str, player_id: str, text: str, version: int | None = None) -> None:
        connection = self._local.get(room_id, {}).get(player_id)
        if connection is not None:
            connection.send(text, version)
            return
        payload = json.dumps({"kind": "deliver", "player": player_id, "text": text, "version": version})
        self._link.publish_later(f"room:{room_id}", payload, owed=player_id)

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        for connection in self._local.pop(room_id, {}).values():
            connection.close(code, reason)
        payload = json.dumps({"kind": "close", "code": code, "reason": reason})
        self._link.publish_later(f"room:{room_id}", payload)

    def close_player(self, room_id: str, player_id: str, code: int, reason: str) -> None:
        connection = self._local.get(room_id, {}).get(player_id)
        if connection is not None:
            connection.close(code, reason)
            return
        payload = json.dumps({"kind": "close", "player": player_id, "code": code, "reason": reason})
        self._link.publish_later(f"room:{room_id}", payload)

    def local_players(self) -> list[tuple[str, str]]:
        """(room, player) of every socket held here."""
        return [(room_id, player_id) for room_id, players in self._local.items() for player_id in players]

    def _undelivered(self, channel: str, player_id: str) -> None:
        prefix, _, room_id = channel.partition(":")
        if prefix == "room":
            self.on_undelivered(room_id, player_id)

    def _on_room_message(self, room_id: str, message: dict[str, Any]) -> None:
        players = self._local.get(room_id)
        if not players:
            return
        kind = message.get("kind")
        if kind == "deliver":
            connection = players.get(message["player"])
            if connection is not None:
                connection.send(message["text"], message.get("version"))
        elif kind == "attached" and message["proc"] != self._link.id:
            connection = players.pop(message["player"], None)
            if connection is not None:
                connection.close(CloseCode.REPLACED, "replaced by a newer connection")
        elif kind == "close" and "player" in message:
            connection = players.get(message["player"])
            if connection is not None:
                connection.close(message["code"], message["reason"])
        elif kind == "close":
            for connection in self._local.pop(room_id, {}).values():
                connection.close(message["code"], message["reason"])
