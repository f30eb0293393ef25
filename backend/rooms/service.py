"""The rooms of this process: finding (or rebuilding) a room's actor and handing it commands.

This is what the API talks to. It owns no rule and no state of its own beyond the cache of
actors: a room's state lives in its actor, and everything the actor knows is stored.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace

from backend.db.models import Player
from backend.db.store import Store, new_id
from backend.engine import new_seed

from . import commands as cmd
from .actor import RoomActor
from .codes import CloseCode, RoomCode
from .decide import Limits
from .effects import Refusal
from .model import FreshMatch, RematchAction, RoomState
from .options import TableOptions
from .ports import BotRunner, Bus, Clock, Connection
from .sql_store import SqlRoomStore, rebuild

log = logging.getLogger(__name__)


class RoomRefused(Exception):
    """A room refused a REST command; the API maps ``code`` to an answer."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.code = refusal.code
        self.message = refusal.message


@dataclass(frozen=True, slots=True)
class RoomTiming:
    bot_delay_s: float = 0.6
    rematch_timeout_s: float = 120.0


def fresh_match() -> FreshMatch:
    """A new match's id and seed, from the secure source (R2)."""
    return FreshMatch(match_id=new_id("m"), seed=new_seed())


class Rooms:
    def __init__(
        self,
        store: Store,
        room_store: SqlRoomStore,
        *,
        bus: Bus,
        clock: Clock,
        bots: BotRunner,
        timing: RoomTiming = RoomTiming(),
    ) -> None:
        self.store = store
        self.bus = bus
        self._room_store = room_store
        self._clock = clock
        self._bots = bots
        self._timing = timing
        self._limits = Limits(rematch_timeout_s=timing.rematch_timeout_s)
        self._actors: dict[str, RoomActor] = {}
        self._loading = asyncio.Lock()

    # ------------------------------------------------------------ actors

    async def actor(self, room_id: str) -> RoomActor | None:
        actor = self._actors.get(room_id)
        if actor is not None:
            return actor
        async with self._loading:
            actor = self._actors.get(room_id)
            if actor is None:
                stored = await self._room_store.load(room_id)
                if stored is None:
                    return None
                state = rebuild(stored)
                state = _with_presence(state, self.bus.present(room_id))
                actor = RoomActor(
                    state,
                    store=self._room_store,
                    bus=self.bus,
                    clock=self._clock,
                    bots=self._bots,
                    limits=self._limits,
                    bot_delay_s=self._timing.bot_delay_s,
                    on_stale=self._forget,
                )
                self._actors[room_id] = actor
                actor.resume()
        return actor

    def _forget(self, actor: RoomActor) -> None:
        if self._actors.get(actor.id) is actor:
            del self._actors[actor.id]
        actor.stop()

    async def rebuild_live_rooms(self) -> int:
        """After a restart: rebuild every unfinished match from its seed and action log, and
        let its clocks go on from the stored deadlines."""
        ids = await asyncio.to_thread(self.store.live_room_ids)
        for room_id in ids:
            await self.actor(room_id)
        return len(ids)

    def shutdown(self) -> None:
        for actor in self._actors.values():
            actor.stop()
        self._bots.shutdown()
        self._room_store.close()

    async def _command(self, room_id: str, command: cmd.Command) -> RoomState:
        actor = await self.actor(room_id)
        if actor is None:
            raise RoomRefused(Refusal(RoomCode.ROOM_NOT_FOUND, f"no table {room_id!r}"))
        refusal = await actor.handle(command)
        if refusal is not None:
            raise RoomRefused(refusal)
        return actor.state

    # ------------------------------------------------------------ the lobby (REST)

    async def create_room(self, player: Player, options: TableOptions, visibility: str) -> RoomState:
        row = await asyncio.to_thread(self.store.create_room, player.id, options.to_json(), visibility)
        if options.bot_level is None:
            actor = await self.actor(row.id)
            assert actor is not None
            return actor.state
        bot = await asyncio.to_thread(self.store.bot_player, options.bot_level)
        return await self.join(row.id, bot)  # the computer takes seat 1 at once

    async def join(self, room_id: str, player: Player) -> RoomState:
        return await self._command(room_id, cmd.Join(player.id, player.name, player.bot_level, fresh_match()))

    async def leave(self, room_id: str, player_id: str) -> None:
        await self._command(room_id, cmd.Leave(player_id))
        self._actors.pop(room_id, None)

    # ------------------------------------------------------------ sockets

    async def connect(self, room_id: str, player_id: str, connection: Connection) -> None:
        replaced = self.bus.attach(room_id, player_id, connection)
        if replaced is not None:
            replaced.close(CloseCode.REPLACED, "replaced by a newer connection")
            await self._command(room_id, cmd.Hello(player_id))
            return
        await self._command(room_id, cmd.Connect(player_id))

    async def disconnect(self, room_id: str, player_id: str, connection: Connection) -> None:
        if not self.bus.detach(room_id, player_id, connection):
            return  # an older socket that a newer one replaced
        actor = self._actors.get(room_id)
        if actor is None:
            return
        await actor.handle(cmd.Disconnect(player_id))
        state = actor.state
        if not self.bus.present(room_id) and state.status in ("finished", "closed") and state.rematch is None:
            # Nothing can happen here without a socket: free the memory; the room is rebuilt
            # from the database if anybody comes back.
            self._forget(actor)

    async def hello(self, room_id: str, player_id: str) -> None:
        await self._command(room_id, cmd.Hello(player_id))

    async def play(self, room_id: str, player_id: str, msg_id: int, version: int, card: str, declare: bool) -> None:
        await self._command(room_id, cmd.PlayCard(player_id, msg_id, version, card, declare))

    async def resign(self, room_id: str, player_id: str, msg_id: int, version: int) -> None:
        await self._command(room_id, cmd.Resign(player_id, msg_id, version))

    async def rematch(self, room_id: str, player_id: str, msg_id: int, version: int, action: RematchAction) -> None:
        actor = await self.actor(room_id)
        if actor is None:
            return
        others = [h.player_id for h in actor.state.seats if h is not None and h.bot_level is None]
        busy = await self._room_store.busy_elsewhere(room_id, others) if action in ("accept", "offer") else None
        await actor.handle(cmd.Rematch(player_id, msg_id, version, action, fresh_match(), busy))

    async def chat(self, room_id: str, player_id: str, msg_id: int, version: int, text: str) -> None:
        await self._command(room_id, cmd.Chat(player_id, msg_id, version, text))


def _with_presence(state: RoomState, present: frozenset[str]) -> RoomState:
    return replace(state, present=present)
