"""Issue 23, in one process: the rules the cluster's spectators rely on, without app processes.

The spectators' hub relays every change of a room it owns whoever it believes watches, and a
process holding spectators sends each version once, in order, whatever order the owner's relayed
messages and the database's greeting come in. The cluster's membership confirms a subscription
before a spectator's state is read, keeps listening while a newcomer is being greeted, and takes
over at once the lease of an owner whose inbox nobody listens to (a process that died)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from redis.asyncio import Redis

from backend.rooms import commands as cmd
from backend.rooms.cluster import Forwarded, RedisCluster
from backend.rooms.codes import CloseCode
from backend.rooms.model import RoomState
from backend.rooms.options import TableOptions
from backend.rooms.watch import Spectators
from tests.rooms.test_decide import mover, started, step
from tests.rooms.test_spectators import Socket
from tests.support.services import RedisServer


class Relay:
    def __init__(self) -> None:
        self.sent: list[tuple[str, int, str]] = []
        self.closed: list[tuple[str, int]] = []

    def relay_watch(self, room_id: str, version: int, text: str) -> None:
        self.sent.append((room_id, version, text))

    def relay_watch_close(self, room_id: str, code: int, reason: str) -> None:
        self.closed.append((room_id, code))


def _moves(state: RoomState, count: int) -> list[RoomState]:
    """``count`` states after ``state``, one legal move each."""
    states = []
    for msg_id in range(1, count + 1):
        player, card = mover(state)
        state, _ = step(state, cmd.PlayCard(player, msg_id, state.version, card, False))
        states.append(state)
    return states


def test_the_owner_relays_every_change_even_when_it_counts_nobody_elsewhere() -> None:
    """Defect 1: the owner relayed only when its count of spectators elsewhere (told to it
    asynchronously) exceeded its own; a spectator greeted elsewhere a moment ago was not in it."""
    hub, relay = Spectators(), Relay()
    hub.relay = relay
    state = started()
    assert hub.watching(state.id) == 0  # nobody watches, as far as the owner knows
    states = _moves(state, 3)
    for new in states:
        hub.publish(new, ())
    assert [(room, version) for room, version, _ in relay.sent] == [(state.id, s.version) for s in states]
    assert all(json.loads(text)["type"] == "watch_state" for _, _, text in relay.sent)
    off = replace(states[-1], version=states[-1].version + 1, options=replace(state.options, spectators=False))
    hub.publish(off, ())  # watching turned off: the spectators elsewhere are closed, wherever they are
    assert relay.closed == [(state.id, CloseCode.WATCH_REFUSED)] and len(relay.sent) == 3


def test_one_process_builds_nothing_when_nobody_watches() -> None:
    hub = Spectators()
    state = started()
    hub.publish(_moves(state, 1)[0], ())  # no relay, no spectator: nothing to do (and nothing fails)
    assert hub.total == 0


def test_a_spectator_away_from_the_owner_sees_every_version_once_in_order() -> None:
    """Greeted from the database at v while the owner relayed v + 1 (held), then v + 1 again, an old
    v - 1 and v + 2 in turn: the spectator is sent v + 1 and v + 2, once each, nothing older."""
    hub = Spectators()
    state = started()
    before, at, after, later = _moves(state, 4)
    socket = Socket()
    assert hub.admit(state.id, socket)
    hub.relayed(state.id, {"kind": "watch", "version": after.version, "text": "after"})
    hub.greet(socket, at)  # the database said v; v + 1 was relayed while it was read
    hub.relayed(state.id, {"kind": "watch", "version": after.version, "text": "after"})
    hub.relayed(state.id, {"kind": "watch", "version": before.version, "text": "before"})
    hub.relayed(state.id, {"kind": "watch", "version": later.version, "text": "later"})
    assert socket.sent == ["after", "later"]
    other = Socket()
    assert hub.admit(state.id, other)
    hub.greet(other, later)  # greeted at the newest version: what is relayed up to it is dropped
    hub.relayed(state.id, {"kind": "watch", "version": later.version, "text": "later"})
    assert len(other.sent) == 1 and json.loads(other.sent[0])["version"] == later.version
    hub.refresh(later)  # a repair after Redis came back: nobody is behind, nobody is sent anything
    assert socket.sent == ["after", "later"] and len(other.sent) == 1
    newest = _moves(later, 1)[0]
    hub.refresh(newest)  # a change lost while Redis was away: both get it, with no events
    for held in (socket, other):
        message = json.loads(held.sent[-1])
        assert message["version"] == newest.version and message["events"] == []


# ---------------------------------------------------------------- the cluster's membership, on Redis


@pytest.fixture
async def redis_url(tmp_path: Path) -> AsyncIterator[str]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


async def _member(url: str) -> RedisCluster:
    member = RedisCluster(url)

    async def nobody(room_id: str, command: cmd.Command) -> Forwarded:
        return Forwarded(None)

    await member.start(nobody)  # returns once its inbox is listened to
    return member


@pytest.mark.redis
async def test_a_spectator_channel_is_listened_to_before_follow_returns(redis_url: str) -> None:
    """``follow_watch`` returns once Redis confirmed the subscription, so a change relayed after the
    state is read cannot be missed; a newcomer being greeted keeps the channel from being dropped."""
    member = await _member(redis_url)
    other = Redis.from_url(redis_url, decode_responses=True)
    try:
        got: list[int] = []
        member.watch.on_watch = lambda room_id, message: got.append(int(message["version"]))
        for version in range(1, 21):
            await member.watch.follow_watch("r_1")
            assert await other.publish("watch:r_1", json.dumps({"kind": "watch", "version": version})) == 1
            newcomer = version % 2 == 0  # a spectator is being greeted here on even rounds
            await member.watch.unfollow_watch("r_1", wanted=lambda newcomer=newcomer: newcomer)
            listening = await other.pubsub_numsub("watch:r_1")
            assert listening == [("watch:r_1", 1 if newcomer else 0)]
            if newcomer:
                await member.watch.unfollow_watch("r_1")
        await member.watch.follow_watch("r_1")
        await other.publish("watch:r_1", json.dumps({"kind": "watch", "version": 99}))
        await member.watch.unfollow_watch("r_1")  # the listener read the message before its confirmation
        assert got == [*range(1, 21), 99]
    finally:
        await other.aclose()
        await member.stop()


@pytest.mark.redis
async def test_the_lease_of_an_owner_nobody_listens_to_is_taken_at_once(redis_url: str) -> None:
    """A process that died keeps its lease for up to LEASE_MS; a command forwarded to it reaches
    nobody (``gone``), and its room is taken over then, not seconds later. A living owner's lease
    is never taken that way."""
    member, living = await _member(redis_url), await _member(redis_url)
    other = Redis.from_url(redis_url, decode_responses=True)
    try:
        await other.set("room:r_dead:owner", "proc_dead", px=60_000)
        answer = await member.forwarding.forward("proc_dead", "r_dead", cmd.Hello("p_anna"))
        assert answer.gone and answer.retry and answer.refusal is None
        assert await member.leases.take_over("r_dead", "proc_dead") and member.leases.owns("r_dead")
        assert await other.get("room:r_dead:owner") == member.id
        assert await living.leases.acquire("r_live")
        answer = await member.forwarding.forward(living.id, "r_live", cmd.Hello("p_anna"))
        assert not answer.gone and not answer.retry  # it answered
        assert not await member.leases.take_over("r_live", "proc_dead")  # the lease names another process
        assert await other.get("room:r_live:owner") == living.id and not member.leases.owns("r_live")
    finally:
        await other.aclose()
        await member.stop()
        await living.stop()


def test_a_table_that_forbids_watching_is_refused_by_refresh_too() -> None:
    hub = Spectators()
    state = started()
    socket = Socket()
    assert hub.add(state.id, socket, state)
    off = replace(state, version=state.version + 1, options=replace(state.options, spectators=False))
    assert TableOptions.from_json(off.options.to_json()).spectators is False
    hub.refresh(off)
    assert socket.closed is not None and socket.closed[0] == CloseCode.WATCH_REFUSED
