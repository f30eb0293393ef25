"""The lobby's use cases (REST): making a table, seating players and computers, leaving it, and
what its players may change or share. The rules they follow are ``table_rules``; here they are
carried out, each change as a command to the room (``routing``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from backend.db.common import bot_player_id, new_id
from backend.db.models import Player
from backend.db.store import Store
from backend.db.writes import TooManyTables
from backend.engine import new_seed

from . import commands as cmd
from .codes import RoomCode
from .effects import Refusal
from .model import FreshMatch, RoomState
from .options import TableOptions
from .refused import RoomRefused
from .registry import RoomRegistry
from .routing import CommandRouter
from .sql_store import record_state
from .table_rules import computers_refusal, free_seats, watch_link_refusal
from .watch import watch_code


def fresh_match(seed: int | None = None) -> FreshMatch:
    """A new match's id and seed, from the secure source (R2) unless a test fixes the seed."""
    return FreshMatch(match_id=new_id("m"), seed=new_seed() if seed is None else seed)


class Lobby:
    def __init__(self, store: Store, registry: RoomRegistry, router: CommandRouter, match_seed: int | None) -> None:
        self.store = store
        self._registry = registry
        self._router = router
        self._match_seed = match_seed  # tests only (MATCH_SEED): the same deals in every match
        # Somebody joined or left a table (through this process): "Play again" invitations to it
        # lapse once it is no longer waiting for players (``backend.api.lobby_events``).
        self.on_table_changed: Callable[[str], None] = lambda room_id: None

    async def create_room(
        self, player: Player, options: TableOptions, visibility: str, max_open: int | None = None
    ) -> tuple[RoomState | None, str]:
        """The new room's state (None if another process has it) and its id. The computer takes its
        seats at once (``options.computer_seats``), each seat a computer player of its own; the
        match starts when the last seat is taken. A player with ``max_open`` tables waiting for
        others is refused a new one (``too_many_tables``) rather than losing the oldest, whose
        invite link may be on its way to a friend."""
        try:
            row = await asyncio.to_thread(
                self.store.rooms.create, player.id, options.to_json(), visibility, options.seats, max_open
            )
        except TooManyTables:
            raise RoomRefused(
                Refusal(RoomCode.TOO_MANY_TABLES, f"you have {max_open} open tables already; start or leave one first")
            ) from None
        self.on_table_changed(row.id)  # a new public table is listed in the lobby at once
        if not options.computer_seats:
            actor = await self._registry.owned(row.id, created=True)
            return (None if actor is None else actor.state), row.id
        assert options.bot_level is not None
        return await self._seat_computers(row.id, options.bot_level, options.computer_seats, {player.id}), row.id

    async def seat_computers(self, room_id: str, player_id: str, level: str) -> RoomState | None:
        """The creator of an open table fills its empty seats with computer players at ``level``
        (a table for nothing only, as at creation); the match starts with the last of them."""
        record = await asyncio.to_thread(self.store.rooms.record, room_id)
        state = None if record is None else record_state(record)
        refusal = computers_refusal(state, room_id, player_id, level)
        if refusal is not None:
            raise RoomRefused(refusal)
        assert state is not None
        taken = {holder.player_id for holder in state.seats if holder is not None}
        return await self._seat_computers(room_id, level, free_seats(state), taken)

    async def _seat_computers(
        self, room_id: str, level: str, seats: Sequence[int], taken: set[str]
    ) -> RoomState | None:
        """A computer player at ``level`` joins at each of ``seats``, each a player of its own (not
        one of ``taken``); the state after the last join."""
        state, number = None, 1
        for seat in seats:
            while bot_player_id(level, number) in taken:
                number += 1
            bot = await asyncio.to_thread(self.store.players.bot, level, number)
            taken.add(bot.id)
            state = await self.join(room_id, bot, seat)
        return state

    async def join(self, room_id: str, player: Player, seat: int | None = None) -> RoomState | None:
        state = await self._router.command(
            room_id, cmd.Join(player.id, player.name, player.bot_level, fresh_match(self._match_seed), seat)
        )
        self.on_table_changed(room_id)
        return state

    async def leave(self, room_id: str, player_id: str) -> None:
        await self._router.command(room_id, cmd.Leave(player_id))
        self.on_table_changed(room_id)
        self._registry.forget_room(room_id)

    async def version(self, room_id: str) -> int:
        """The room's current version, for refusals made before a room was asked."""
        actor = self._registry.get(room_id)
        if actor is not None:
            return actor.state.version
        record = await asyncio.to_thread(self.store.rooms.record, room_id)
        return 0 if record is None else record.room.version

    async def set_spectators(
        self, room_id: str, player_id: str, allowed: bool | None, reactions: bool | None = None
    ) -> RoomState | None:
        return await self._router.command(room_id, cmd.SetSpectators(player_id, allowed, reactions))

    async def watch_link(self, room_id: str, player_id: str) -> str:
        """A private table's watch code, for its players only."""
        record = await asyncio.to_thread(self.store.rooms.record, room_id)
        state = None if record is None else record_state(record)
        refusal = watch_link_refusal(state, room_id, player_id)
        if refusal is not None:
            raise RoomRefused(refusal)
        assert state is not None
        return watch_code(state.invite_code)
