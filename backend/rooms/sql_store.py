"""The room store over SQLAlchemy: rebuilding a room from its rows, and carrying out its writes.

A room is rebuilt from what the database holds (DESIGN promises 3 and 6): the room row and
its seats, the stored deadlines, and the current match replayed from its seed and action log —
which also gives back the client message ids the log answered, so a resent intent gets the
same answer after a restart.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from backend import engine
from backend.db.action_log import action_record
from backend.db.database import UNREACHABLE
from backend.db.group_commit import GroupCommitter
from backend.db.rooms import RoomRecord
from backend.db.store import Store
from backend.db.writes import ActionWrite, LoggedAction, RoomWrite, StoreUnavailable

from .decide import deal_memory, rebuild_finished
from .log import engine_action
from .model import CHAT_LOG_LINES, ChatLine, IntentKey, RematchOffer, RoomState, SeatHolder
from .options import TableOptions
from .ports import StoredRoom


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite hands back naive times


def record_state(record: RoomRecord) -> RoomState:
    """A room as its row and deadlines describe it, without its match (see ``rebuild``)."""
    room = record.room
    seats: list[SeatHolder | None] = []
    for player_id in room.seat_ids:
        player = record.players.get(player_id) if player_id else None
        seats.append(None if player is None else SeatHolder(player.id, player.name, player.bot_level))
    absence: list[datetime | None] = [None] * len(seats)
    rematch = None
    accepted = frozenset(row.seat for row in record.deadlines if row.kind == "accepted")
    for row in record.deadlines:
        if row.kind == "absence" and 0 <= row.seat < len(seats):
            absence[row.seat] = _aware(row.deadline)
        elif row.kind == "rematch":
            rematch = RematchOffer(row.seat, _aware(row.deadline), accepted)
    return RoomState(
        id=room.id,
        invite_code=room.invite_code,
        visibility="private" if room.visibility == "private" else "public",
        options=TableOptions.from_json(room.options),
        status=room.status,  # type: ignore[arg-type]  # the column holds one of RoomStatus
        created_at=_aware(room.created_at),
        seats=tuple(seats),
        version=room.version,
        match_id=room.match_id,
        rematch=rematch,
        absence=tuple(absence),
        turn_deadline=None if room.turn_deadline is None else _aware(room.turn_deadline),
        stored_turn=room.turn_seat,
    )


def rebuild(stored: StoredRoom) -> RoomState:
    """Replay the current match's log onto the room (pure: no database access here)."""
    state = stored.state
    if stored.seed is None:
        return state
    match = engine.new_game(state.options.rules, stored.seed)
    answered: set[IntentKey] = set()
    memory: tuple[engine.Event, ...] = ()
    for logged in stored.actions:
        action = logged.action
        match, events = engine.apply(match, action.seat, engine_action(action))
        memory = deal_memory(memory, events)
        player = state.player_at(action.seat)
        if logged.client_msg_id is not None and player is not None:
            answered.add((player, logged.client_msg_id, logged.made_at_version))
    state = replace(
        state,
        match=match,
        seq=len(stored.actions),
        answered=frozenset(answered),
        deal_events=memory,
    )
    return rebuild_finished(state)


class SqlRoomStore:
    def __init__(self, store: Store, *, crash_after_commits: int | None = None) -> None:
        self._store = store
        self._writer = GroupCommitter(store.actions)
        self._crash_after_commits = crash_after_commits
        self._commits = 0

    async def load(self, room_id: str) -> StoredRoom | None:
        try:
            stored = await asyncio.to_thread(self._store.actions.load_room, room_id)
        except UNREACHABLE as error:
            raise StoreUnavailable(str(error).splitlines()[0]) from error
        if stored is None:
            return None
        seed = None if stored.match is None else int(stored.match.seed)
        actions = tuple(
            LoggedAction(
                action_record(row),
                row.client_msg_id,
                row.room_version - 1,  # the log stores the version the action produced
            )
            for row in stored.actions
        )
        chat = tuple(ChatLine(row.seat, row.text, _aware(row.at)) for row in stored.chat[-CHAT_LOG_LINES:])
        return StoredRoom(state=replace(record_state(stored.record), chat=chat), seed=seed, actions=actions)

    async def write(self, write: RoomWrite) -> None:
        try:
            await self._write(write)
        except UNREACHABLE as error:  # the database is away (or lost the answer), not the change wrong
            raise StoreUnavailable(str(error).splitlines()[0]) from error

    async def _write(self, write: RoomWrite) -> None:
        if isinstance(write, ActionWrite):
            await self._writer.commit(write)  # group commit: many rooms' moves in one transaction
            self._commits += 1
            if self._crash_after_commits is not None and self._commits >= self._crash_after_commits:
                os._exit(70)  # chaos tests: die after the commit, before anyone is told
            return
        await asyncio.to_thread(self._store.rooms.write, write)

    async def busy_elsewhere(self, room_id: str, player_ids: Sequence[str]) -> str | None:
        return await asyncio.to_thread(self._store.rooms.playing_elsewhere, room_id, list(player_ids))

    async def claim(self, room_id: str) -> int | None:
        """Take the room over: its new lease token (``RoomRepository.claim``), the fence of every write."""
        try:
            return await asyncio.to_thread(self._store.rooms.claim, room_id)
        except UNREACHABLE as error:
            raise StoreUnavailable(str(error).splitlines()[0]) from error

    async def version(self, room_id: str) -> int | None:
        try:
            stored = await asyncio.to_thread(self._store.rooms.versions, [room_id])
        except UNREACHABLE as error:
            raise StoreUnavailable(str(error).splitlines()[0]) from error
        return stored[room_id][0] if room_id in stored else None

    def close(self) -> None:
        self._writer.close()
