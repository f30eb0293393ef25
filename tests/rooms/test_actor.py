"""The actor with fake ports: persist first, publish only after the commit, and a refused write
(a database blip) changes nothing and says so with a temporary code."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from datetime import datetime

import pytest

from backend.db.writes import ActionWrite, RoomWrite, StoreUnavailable
from backend.engine import Event, SeatView
from backend.rooms import commands as cmd
from backend.rooms.actor import STALE_COPY, RoomActor
from backend.rooms.codes import CloseCode
from backend.rooms.decide import Limits
from backend.rooms.model import RoomState
from backend.rooms.ports import Connection, StoredRoom

from .test_decide import ANNA, BEN, T0, mover, started


class FakeStore:
    def __init__(self) -> None:
        self.writes: list[RoomWrite] = []
        self.down = False
        self.stored_version: int | None = None  # what another writer left in the database

    async def load(self, room_id: str) -> StoredRoom | None:
        return None

    async def write(self, write: RoomWrite) -> None:
        if self.down:
            raise StoreUnavailable("connection refused")
        self.writes.append(write)

    async def busy_elsewhere(self, room_id: str, player_ids: Sequence[str]) -> str | None:
        return None

    async def version(self, room_id: str) -> int | None:
        return self.stored_version


class FakeBus:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, object]]] = []
        self.closed: list[tuple[str, int]] = []

    async def attach(self, room_id: str, player_id: str, connection: Connection) -> Connection | None:
        return None

    async def detach(self, room_id: str, player_id: str, connection: Connection) -> bool:
        return True

    async def present(self, room_id: str) -> frozenset[str]:
        return frozenset({ANNA, BEN})

    def deliver(self, room_id: str, player_id: str, text: str, version: int | None = None) -> None:
        self.sent.append((player_id, json.loads(text)))

    def close_room(self, room_id: str, code: int, reason: str) -> None:
        pass

    def close_player(self, room_id: str, player_id: str, code: int, reason: str) -> None:
        self.closed.append((player_id, code))


class FakeClock:
    def now(self) -> datetime:
        return T0

    async def sleep_until(self, deadline: datetime) -> None:
        await asyncio.Event().wait()  # never: these tests do not let time pass


class NoBots:
    async def decide(self, level: str, view: SeatView, events: Sequence[Event]) -> tuple[str, bool]:
        raise AssertionError("no computer at this table")

    def shutdown(self) -> None:
        pass


def actor(
    state: RoomState, store: FakeStore, bus: FakeBus, on_stale: Callable[[RoomActor], None] = lambda _: None
) -> RoomActor:
    return RoomActor(
        state,
        store=store,
        bus=bus,
        clock=FakeClock(),
        bots=NoBots(),
        limits=Limits(),
        bot_delay_s=0,
        on_stale=on_stale,
    )


async def test_an_accepted_play_is_stored_then_published_to_both_seats() -> None:
    store, bus = FakeStore(), FakeBus()
    state = started()
    room = actor(state, store, bus)
    player, card = mover(state)
    assert await room.handle(cmd.PlayCard(player, 1, state.version, card, False)) is None
    assert len(store.writes) == 1 and isinstance(store.writes[0], ActionWrite)
    states = [(who, m) for who, m in bus.sent if m["type"] == "state"]
    assert {who for who, _ in states} == {ANNA, BEN}
    assert [m["reply_to"] for who, m in states if who == player] == [1]
    assert room.state.version == state.version + 1
    room.stop()


async def test_a_database_blip_changes_nothing_and_leaves_the_answer_to_the_log() -> None:
    """The write failed, maybe after the commit (its answer lost): the copy adopts nothing, tells
    nobody anything, and goes stale, to be rebuilt from the log that knows (tests/rooms/test_one_answer.py)."""
    store, bus = FakeStore(), FakeBus()
    state = started()
    unsure: list[RoomActor] = []
    room = RoomActor(
        state,
        store=store,
        bus=bus,
        clock=FakeClock(),
        bots=NoBots(),
        limits=Limits(),
        bot_delay_s=0,
        on_stale=lambda _: None,
        on_unsure=unsure.append,
    )
    store.down = True
    player, card = mover(state)
    assert await room.handle(cmd.PlayCard(player, 1, state.version, card, False)) is STALE_COPY
    assert room.state is state  # nothing half-applied
    assert bus.sent == []  # the caller answers, once
    assert room.stale and unsure == [room]
    room.stop()


async def test_a_seat_whose_state_cannot_be_built_is_closed_to_reconnect_and_the_table_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug building one seat's message after a committed move: the move stays stored and is
    answered to the others, that seat's socket is closed with STATE_FAILED (it reconnects and
    gets the state), and the table plays on."""
    from backend.rooms import actor as actor_module

    store, bus = FakeStore(), FakeBus()
    state = started()
    room = actor(state, store, bus)
    player, card = mover(state)
    other = BEN if player == ANNA else ANNA
    real = actor_module.state_message
    broken = {other}

    def flaky(state: RoomState, player_id: str, *args: object, **kwargs: object) -> object:
        if player_id in broken:
            broken.discard(player_id)  # once: a reconnect gets the state
            raise IndexError("tuple index out of range")
        return real(state, player_id, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(actor_module, "state_message", flaky)
    assert await room.handle(cmd.PlayCard(player, 1, state.version, card, False)) is None
    assert len(store.writes) == 1 and room.state.version == state.version + 1  # stored and adopted
    assert [(who, m["reply_to"]) for who, m in bus.sent if m["type"] == "state"] == [(player, 1)]
    assert bus.closed == [(other, CloseCode.STATE_FAILED)]
    await room.handle(cmd.Hello(other))  # the reconnect's hello
    fresh, *_chat_log = [m for who, m in bus.sent if who == other]
    assert fresh["type"] == "state" and fresh["version"] == room.state.version
    next_player, next_card = mover(room.state)  # and the game goes on
    assert await room.handle(cmd.PlayCard(next_player, 2, room.state.version, next_card, False)) is None
    assert room.state.version == state.version + 2
    room.stop()


async def test_an_intent_against_a_newer_stored_version_reloads_the_copy_and_sends_nothing_older() -> None:
    """Another process wrote the room while its lease moved (a Redis restart): the sender saw that
    newer state. This copy must not answer it with its own older one; it goes stale, to be rebuilt."""
    store, bus = FakeStore(), FakeBus()
    state = started()
    gone: list[RoomActor] = []
    room = actor(state, store, bus, on_stale=gone.append)
    store.stored_version = state.version + 2
    player, card = mover(state)
    assert await room.handle(cmd.PlayCard(player, 7, state.version + 2, card, False)) is STALE_COPY
    assert room.stale and gone == [room]
    assert bus.sent == [] and store.writes == []  # no older state, no refusal that would carry one
    room.stop()


async def test_a_made_up_future_version_is_refused_as_stale_and_the_copy_stays() -> None:
    store, bus = FakeStore(), FakeBus()
    state = started()
    room = actor(state, store, bus)
    store.stored_version = state.version  # the database agrees with this copy
    player, card = mover(state)
    await room.handle(cmd.PlayCard(player, 7, state.version + 50, card, False))
    assert not room.stale and room.state.version == state.version
    [(who, answer)] = [(who, m) for who, m in bus.sent if m["type"] == "rejected"]
    assert who == player and answer["code"] == "stale_version"
    room.stop()
