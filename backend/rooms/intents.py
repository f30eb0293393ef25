"""What a player's socket asks of its room during play, each intent timed from its arrival here to
its answer (``thousand_intent_seconds``, labelled by whether it was carried out here or forwarded)."""

from __future__ import annotations

import asyncio
import time

from backend.db.store import Store
from backend.ops import metrics

from . import commands as cmd
from .lobby import fresh_match
from .model import RematchAction
from .routing import CommandRouter
from .sql_store import SqlRoomStore


class Intents:
    def __init__(self, store: Store, room_store: SqlRoomStore, router: CommandRouter, match_seed: int | None) -> None:
        self.store = store
        self._room_store = room_store
        self._router = router
        self._match_seed = match_seed

    async def _intent(self, room_id: str, command: cmd.Command) -> None:
        started = time.perf_counter()
        route = "local"
        try:
            if await self._router.command(room_id, command) is None:
                route = "forwarded"
        finally:
            metrics.INTENT_SECONDS.labels(route).observe(time.perf_counter() - started)

    async def play(self, room_id: str, player_id: str, msg_id: int, version: int, card: str, declare: bool) -> None:
        await self._intent(room_id, cmd.PlayCard(player_id, msg_id, version, card, declare))

    async def move(self, room_id: str, command: cmd.GameCommand) -> None:
        """A bid, pass or discard (V0.6, V0.7) from a player's socket."""
        await self._intent(room_id, command)

    async def resign(self, room_id: str, player_id: str, msg_id: int, version: int) -> None:
        await self._intent(room_id, cmd.Resign(player_id, msg_id, version))

    async def rematch(self, room_id: str, player_id: str, msg_id: int, version: int, action: RematchAction) -> None:
        record = await asyncio.to_thread(self.store.rooms.record, room_id)
        if record is None:
            return
        others = [p.id for p in record.players.values() if p.bot_level is None]
        busy = await self._room_store.busy_elsewhere(room_id, others) if action in ("accept", "offer") else None
        await self._intent(
            room_id, cmd.Rematch(player_id, msg_id, version, action, fresh_match(self._match_seed), busy)
        )

    async def chat(self, room_id: str, player_id: str, msg_id: int, version: int, text: str) -> None:
        await self._intent(room_id, cmd.Chat(player_id, msg_id, version, text))

    async def react(self, room_id: str, player_id: str, msg_id: int, version: int, reaction: str) -> None:
        await self._intent(room_id, cmd.React(player_id, msg_id, version, reaction))

    async def mute_reactions(self, room_id: str, player_id: str, msg_id: int, version: int, muted: bool) -> None:
        await self._intent(room_id, cmd.MuteReactions(player_id, msg_id, version, muted))

    async def hint(self, room_id: str, player_id: str, msg_id: int, version: int) -> None:
        """A hint (docs/protocol.md, "Hints"): answered later by a ``hint`` message, or refused."""
        await self._intent(room_id, cmd.Hint(player_id, msg_id, version))
