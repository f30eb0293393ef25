"""One answer per intent, the true one, read from the log (DESIGN promise 4, docs/reliability.md).

A room whose write met a ``VersionConflict`` (another owner stored the room first, perhaps this very
intent) or lost the database's answer (the connection died in the commit's reply: stored or not,
nobody here knows) answers nothing from its own copy: it is rebuilt from the action log, which says
whether the intent was stored. The sender hears one answer, never "refused" for a move that was
stored; a refusal reaches it once (from the caller), never twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from backend.db.writes import ActionWrite, LoggedAction, RoomWrite, StoreUnavailable, VersionConflict
from backend.rooms import commands as cmd
from backend.rooms.actor import STALE_COPY
from backend.rooms.decide import Limits
from backend.rooms.model import RoomState
from backend.rooms.ports import StoredRoom
from backend.rooms.refused import RoomRefused
from backend.rooms.registry import RoomRegistry
from backend.rooms.routing import CommandRouter
from backend.rooms.watch import Spectators

from .test_actor import FakeBus, FakeClock, NoBots
from .test_decide import ANNA, BEN, mover, started


class LoggedStore:
    """A database with an action log: what a rebuild reads, and a write's fate chosen by the test."""

    def __init__(self, room: RoomState) -> None:
        assert room.match_id is not None
        self.room = replace(room, match=None, seq=0, answered=frozenset(), deal_events=(), present=frozenset())
        self.version = room.version
        self.lease = 0  # the room's lease token: grown by each takeover (``claim``)
        self.log: list[LoggedAction] = []
        self.down = False  # nothing can be read or written
        self.lose_answers = 0  # the next writes are committed, then their answer is lost

    def store(self, write: ActionWrite) -> None:
        """Commit ``write`` as the database does: the compare-and-swap on the version and the lease
        token in one step, then the log row."""
        if write.expected_version != self.version:
            raise VersionConflict(f"not at version {write.expected_version}")
        if write.lease is not None and write.lease != self.lease:
            raise VersionConflict(f"lease {write.lease} is not the room's {self.lease}")
        self.version += 1
        self.log.append(LoggedAction(write.action, write.client_msg_id, write.expected_version))

    async def claim(self, room_id: str) -> int | None:
        if self.down:
            raise StoreUnavailable("connection refused")
        self.lease += 1
        return self.lease

    async def load(self, room_id: str) -> StoredRoom | None:
        if self.down:
            raise StoreUnavailable("connection refused")
        return StoredRoom(replace(self.room, version=self.version), 12345, tuple(self.log))

    async def write(self, write: RoomWrite) -> None:
        if self.down:
            raise StoreUnavailable("connection refused")
        assert isinstance(write, ActionWrite)
        self.store(write)
        if self.lose_answers:
            self.lose_answers -= 1
            raise StoreUnavailable("consuming input failed: server closed the connection unexpectedly")

    async def busy_elsewhere(self, room_id: str, player_ids: object) -> str | None:
        return None

    async def version(self, room_id: str) -> int | None:
        if self.down:
            raise StoreUnavailable("connection refused")
        return self.version


def registry_on(store: LoggedStore, bus: FakeBus) -> RoomRegistry:
    """One process's rooms over ``store`` (no cluster: each registry believes the room is its own)."""
    return RoomRegistry(
        store,  # type: ignore[arg-type]  # the registry asks only what ``RoomStore`` offers
        bus=bus,
        clock=FakeClock(),
        bots=NoBots(),  # type: ignore[arg-type]  # no computer seat here
        limits=Limits(),
        bot_delay_s=0,
        spectators=Spectators(),
        leases=None,
    )


@pytest.fixture
def rooms() -> Iterator[tuple[LoggedStore, FakeBus, RoomRegistry, CommandRouter]]:
    store, bus = LoggedStore(started()), FakeBus()
    registry = registry_on(store, bus)
    yield store, bus, registry, CommandRouter(registry, None)
    registry.stop_all()


def answers(bus: FakeBus, player: str, msg_id: int) -> list[str]:
    """What ``player`` was told about intent ``msg_id``: "accepted" or the refusal's code, in order."""
    told = []
    for who, message in bus.sent:
        if who == player and message["type"] == "state" and message.get("reply_to") == msg_id:
            told.append("accepted")
        elif who == player and message["type"] == "rejected" and message.get("id") == msg_id:
            told.append(str(message["code"]))
    return told


async def test_a_commit_whose_answer_was_lost_is_answered_from_the_log_once(
    rooms: tuple[LoggedStore, FakeBus, RoomRegistry, CommandRouter],
) -> None:
    store, bus, registry, router = rooms
    room = await registry.owned("r_1")
    assert room is not None
    player, card = mover(room.state)
    other = BEN if player == ANNA else ANNA
    store.lose_answers = 1
    state = await router.command("r_1", cmd.PlayCard(player, 1, room.state.version, card, False))
    assert state is not None and state.version == store.version == room.state.version + 1
    assert len(store.log) == 1  # stored once, not again
    assert answers(bus, player, 1) == ["accepted"]
    versions = [m["version"] for who, m in bus.sent if who == other and m["type"] == "state"]
    assert versions[-1] == store.version  # the other seat is told of the stored move too


async def test_while_the_database_stays_away_the_intent_is_refused_once_then_found_in_the_log(
    rooms: tuple[LoggedStore, FakeBus, RoomRegistry, CommandRouter],
) -> None:
    store, bus, registry, router = rooms
    room = await registry.owned("r_1")
    assert room is not None
    player, card = mover(room.state)
    intent = cmd.PlayCard(player, 1, room.state.version, card, False)
    store.lose_answers = 1

    async def write_then_go_away(write: RoomWrite) -> None:
        try:
            await LoggedStore.write(store, write)
        finally:
            store.down = True  # and the database stays away for the rebuild too

    store.write = write_then_go_away  # type: ignore[method-assign]
    with pytest.raises(RoomRefused) as refused:
        await router.command("r_1", intent)
    assert refused.value.code == "unavailable"  # "try again": nothing is known, nothing is claimed
    assert answers(bus, player, 1) == []  # the caller answers it, once (never the room as well)

    store.down = False
    del store.write  # the database is back; the client resends the same id and version
    state = await router.command("r_1", intent)
    assert state is not None and len(store.log) == 1 and state.version == store.version
    assert answers(bus, player, 1) == ["accepted"]


async def test_an_intent_another_owner_stored_is_accepted_not_refused_stale(
    rooms: tuple[LoggedStore, FakeBus, RoomRegistry, CommandRouter],
) -> None:
    """A paused owner stored the intent; the client, without an answer, resent it to this copy,
    which is still at the version before: the conflict is read in the log, the answer is "accepted"."""
    store, bus, registry, router = rooms
    room = await registry.owned("r_1")
    assert room is not None
    player, card = mover(room.state)
    seat = room.state.seat_of(player)
    assert seat is not None
    from backend.db.writes import ActionRecord

    store.store(ActionWrite("r_1", room.state.version, "m_1", 1, ActionRecord(seat, "play", card), 1, (), None, (0, 0)))
    state = await router.command("r_1", cmd.PlayCard(player, 1, room.state.version, card, False))
    assert state is not None and state.version == store.version and len(store.log) == 1
    assert answers(bus, player, 1) == ["accepted"]


async def test_an_intent_overtaken_by_another_move_is_refused_stale_once(
    rooms: tuple[LoggedStore, FakeBus, RoomRegistry, CommandRouter],
) -> None:
    store, bus, registry, router = rooms
    room = await registry.owned("r_1")
    assert room is not None
    player, card = mover(room.state)
    seat = room.state.seat_of(player)
    assert seat is not None
    from backend.db.writes import ActionRecord

    store.store(  # the same card, asked for by another intent (id 9) through another owner
        ActionWrite("r_1", room.state.version, "m_1", 1, ActionRecord(seat, "play", card), 9, (), None, (0, 0))
    )
    await router.command("r_1", cmd.PlayCard(player, 1, room.state.version, card, False))
    assert answers(bus, player, 1) == ["stale_version"]
    assert len(store.log) == 1


async def test_a_copy_whose_room_was_taken_over_cannot_commit_even_at_the_same_version() -> None:
    """Fencing without timing: a paused owner wakes up with its copy at the room's current version,
    the new owner having written nothing yet. The version check alone would let it commit; the lease
    token it claimed is no longer the room's, so its write fails in the same statement, it goes
    stale and sends nothing; the new owner carries the intent out."""
    store, bus = LoggedStore(started()), FakeBus()
    paused, owner = registry_on(store, bus), registry_on(store, bus)
    old = await paused.owned("r_1")
    new = await owner.owned("r_1")  # the takeover: lease token 2
    assert old is not None and new is not None and (old.lease, new.lease) == (1, 2)
    assert old.state.version == new.state.version == store.version
    player, card = mover(old.state)
    intent = cmd.PlayCard(player, 1, old.state.version, card, False)
    bus.sent.clear()
    assert await old.handle(intent) is STALE_COPY
    assert old.stale and store.log == [] and bus.sent == []
    assert await new.handle(intent) is None
    assert len(store.log) == 1 and answers(bus, player, 1) == ["accepted"]
    paused.stop_all()
    owner.stop_all()
