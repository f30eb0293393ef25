"""The operator's view of rooms and players, and closing a stuck room.

Closing goes through the room's own rules: the command is handed to ``decide`` by a
``RoomActor``, exactly as if it came from a player — an open table is left by its creator, a
match in play ends as a resignation of the absent player (R6.2: a loss with the totals as they
stand, the stake settled). With ``REDIS_URL`` the command is forwarded to the process that owns
the room, so its players hear of it at once; otherwise it is carried out against the database (a
compare-and-swap on the room's version, like any write), and the server that holds the room in
memory rebuilds it at its next housekeeping round (or at the next move, which finds it stale).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from backend.db.rooms import RoomRecord
from backend.db.store import Store
from backend.engine import Action, Event, SeatView
from backend.rooms import commands as cmd
from backend.rooms.actor import RoomActor
from backend.rooms.adapters import SystemClock
from backend.rooms.cluster import Forwarded, RedisCluster
from backend.rooms.decide import Limits
from backend.rooms.effects import Refusal
from backend.rooms.model import RoomState
from backend.rooms.ports import Connection
from backend.rooms.sql_store import SqlRoomStore, rebuild

ADMIN_MSG_ID = 0  # the message id of an operator's command in the action log (clients count from 1)


@dataclass(frozen=True, slots=True)
class LiveRoom:
    id: str
    status: str
    version: int
    created_at: str
    players: list[dict[str, Any]]
    owner: str | None = None  # the owning process (REDIS_URL)
    connected: tuple[str, ...] = ()  # players with a socket open (REDIS_URL)


def describe(record: RoomRecord, owner: str | None = None, connected: Sequence[str] = ()) -> LiveRoom:
    players = []
    for seat, player_id in enumerate(record.room.seat_ids):
        if player_id is None:
            continue
        player = record.players.get(player_id)
        players.append(
            {
                "seat": seat,
                "id": player_id,
                "name": player.name if player else "?",
                "bot": player.bot_level if player else None,
            }
        )
    return LiveRoom(
        id=record.room.id,
        status=record.room.status,
        version=record.room.version,
        created_at=str(record.room.created_at),
        players=players,
        owner=owner,
        connected=tuple(sorted(connected)),
    )


async def list_rooms(store: Store, redis_url: str | None) -> list[LiveRoom]:
    records = await asyncio.to_thread(store.rooms.unfinished)
    if redis_url is None:
        return [describe(record) for record in records]
    cluster = RedisCluster(redis_url)
    try:
        return [
            describe(r, await cluster.leases.owner(r.room.id), sorted(await cluster.bus.present(r.room.id)))
            for r in records
        ]
    finally:
        await cluster.redis.aclose()


class _NoSockets:
    """The admin command holds no socket: what the room would tell its players is dropped here
    (the owning server tells them, or they get it with their next message)."""

    def __init__(self) -> None:
        self.told: list[str] = []

    async def attach(self, room_id: str, player_id: str, connection: Connection) -> Connection | None:
        return None

    async def detach(self, room_id: str, player_id: str, connection: Connection) -> bool:
        return False

    async def present(self, room_id: str) -> frozenset[str]:
        return frozenset()

    def deliver(self, room_id: str, player_id: str, text: str, version: int | None = None) -> None:
        self.told.append(text)

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        pass

    def close_player(self, room_id: str, player_id: str, code: int, reason: str) -> None:
        pass


class _NoBots:
    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> Action:
        raise RuntimeError("the admin command does not play for the computer")

    async def hint(self, view: SeatView, events: Sequence[Event]) -> tuple[Action, str | None]:
        raise RuntimeError("the admin command gives no hints")

    def shutdown(self) -> None:
        pass


def closing_command(state: RoomState, loser: str | None) -> cmd.Command:
    """What closing ``state`` means under the rules: the creator leaves an open table; in a match,
    ``loser`` (by default the player the game waits for) abandons it (R6.2)."""
    if state.status == "open":
        creator = state.player_at(0)
        assert creator is not None
        return cmd.Leave(creator)
    if state.status != "playing" or state.match is None:
        raise ValueError(f"the room is {state.status}: nothing to close")
    if loser is None:
        turn = state.match.deal.turn
        seat = turn if turn is not None else 0
        loser = state.player_at(seat)
    if loser is None or state.seat_of(loser) is None:
        raise ValueError(f"{loser!r} has no seat in this room")
    holder = state.seats[state.seat_of(loser) or 0]
    if holder is not None and holder.bot_level is not None:
        raise ValueError("the computer never abandons a match: name the human player with --loser")
    return cmd.Resign(loser, ADMIN_MSG_ID, state.version)


async def close_room(store: Store, redis_url: str | None, room_id: str, loser: str | None) -> str:
    """Close ``room_id``; returns what happened, raises ``ValueError`` if it cannot be closed."""
    room_store = SqlRoomStore(store)
    try:
        stored = await room_store.load(room_id)
        if stored is None:
            raise ValueError(f"no room {room_id!r}")
        state = rebuild(stored)
        command = closing_command(state, loser)
        cluster = None if redis_url is None else RedisCluster(redis_url)
        if cluster is not None:
            await cluster.start(_refuse_forwarded)
            try:
                owner = await cluster.leases.owner(room_id)
                if owner is not None:
                    answer = await cluster.forwarding.forward(owner, room_id, command)
                    if answer.refusal is not None:
                        raise ValueError(f"{answer.refusal.code}: {answer.refusal.message}")
                    if not answer.retry:
                        return f"closed by its owner {owner}: {_what(command)}"
                if not await cluster.leases.acquire(room_id):
                    raise ValueError("another process is taking the room over: try again")
                try:
                    return await _close_here(state, room_store, command)
                finally:
                    await cluster.leases.release(room_id)
            finally:
                await cluster.stop()
        return await _close_here(state, room_store, command)
    finally:
        room_store.close()


async def _refuse_forwarded(room_id: str, command: cmd.Command) -> Forwarded:
    return Forwarded(None, retry=True)  # this command-line process owns no room


async def _close_here(state: RoomState, room_store: SqlRoomStore, command: cmd.Command) -> str:
    """Take the room over (its next lease token: an owner that still believes it holds the room can
    no longer commit for it) and carry ``command`` out on the room as stored now."""
    lease = await room_store.claim(state.id)
    stored = await room_store.load(state.id)
    if lease is None or stored is None:
        raise ValueError(f"no room {state.id!r}")
    if stored.state.version != state.version:
        raise ValueError("the room moved on meanwhile: try again")
    state = rebuild(stored)
    bus = _NoSockets()
    actor = RoomActor(
        replace(state, present=frozenset()),
        store=room_store,
        bus=bus,
        clock=SystemClock(),
        bots=_NoBots(),
        limits=Limits(),
        bot_delay_s=0.0,
        on_stale=lambda actor: None,
        lease=lease,
    )
    try:
        refusal: Refusal | None = await actor.handle(command)
    finally:
        actor.stop()
    if refusal is not None or (actor.state.version == state.version and actor.state.status == state.status):
        reason = refusal.message if refusal is not None else f"the room did not change: {bus.told[-1:]}"
        raise ValueError(reason)
    return _what(command)


def _what(command: cmd.Command) -> str:
    if isinstance(command, cmd.Leave):
        return f"the open table was closed (its creator {command.player_id} left)"
    assert isinstance(command, cmd.Resign)
    return f"the match ended as abandoned by {command.player_id} (R6.2); the stake is settled"
