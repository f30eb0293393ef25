"""Players' sockets held by this process: opening one (it replaces an older one of the player),
closing it, and the room told of who is there (``Connect``/``Disconnect``, R6.2)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from backend.ops import metrics
from backend.ops.logs import ids

from . import commands as cmd
from .codes import CloseCode
from .ports import Bus, Connection
from .refused import RoomRefused
from .registry import RoomRegistry
from .routing import CommandRouter
from .watch import Spectators

log = logging.getLogger(__name__)


class Sockets:
    def __init__(
        self, registry: RoomRegistry, router: CommandRouter, bus: Bus, spectators: Spectators, *, clustered: bool
    ) -> None:
        self._registry = registry
        self._router = router
        self._bus = bus
        self._spectators = spectators
        self._clustered = clustered
        self._held: dict[Connection, tuple[str, str]] = {}  # every socket held here → (room, player)
        metrics.track(metrics.SOCKETS_OPEN, lambda: len(self._held))

    async def connect(self, room_id: str, player_id: str, connection: Connection) -> None:
        if self._registry.draining:
            connection.close(CloseCode.SERVICE_RESTART, "this server is restarting; reconnect")
            return
        self._held[connection] = (room_id, player_id)
        log.info("socket opened", extra=ids(room=room_id, player=player_id, event="socket_open"))
        replaced = await self._bus.attach(room_id, player_id, connection)
        if replaced is not None:
            replaced.close(CloseCode.REPLACED, "replaced by a newer connection")
            await self._router.command(room_id, cmd.Hello(player_id))
            return
        await self._router.command(room_id, cmd.Connect(player_id))
        watching = self._spectators.count(room_id)
        if watching:
            connection.send(self._spectators.count_text(watching))

    async def hello(self, room_id: str, player_id: str) -> None:
        await self._router.command(room_id, cmd.Hello(player_id))

    async def disconnect(self, room_id: str, player_id: str, connection: Connection) -> None:
        if self._held.pop(connection, None) is not None:
            log.info("socket closed", extra=ids(room=room_id, player=player_id, event="socket_close"))
        if not await self._bus.detach(room_id, player_id, connection):
            return  # an older socket that a newer one replaced
        if self._registry.draining:
            return  # the player reconnects to another process; its owner sees any real absence
        if not self._clustered and self._registry.get(room_id) is None:
            return
        with contextlib.suppress(RoomRefused):
            await self._router.command(room_id, cmd.Disconnect(player_id))
        actor = self._registry.get(room_id)
        if actor is None:
            return
        state = actor.state
        if not await self._bus.present(room_id) and state.status in ("finished", "closed") and state.rematch is None:
            # Nothing can happen here without a socket: free the memory; the room is rebuilt
            # from the database if anybody comes back.
            self._registry.forget(actor)

    def close_all(self, code: int, reason: str) -> None:
        """A graceful restart: every socket here reconnects to another process."""
        for connection in list(self._held):
            connection.close(code, reason)

    async def closed(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until every socket held here has gone."""
        deadline = time.monotonic() + timeout
        while self._held and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return not self._held
