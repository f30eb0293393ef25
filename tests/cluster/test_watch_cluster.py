"""Spectators with REDIS_URL: a spectator may land on any process. The owner serializes each
version once and relays it; every process sends it on to the spectators it holds, in order, and
the players see how many watch over the whole cluster (issue 12, DESIGN promise 5)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from backend.rooms.codes import CloseCode
from tests.cluster.test_cluster import Cluster, _reconnect, play_on, running_cluster, table_across
from tests.support.client import Player, Seat
from tests.support.tables import Watcher, assert_watched_no_hidden_card

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def group(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path, processes=getattr(request, "param", 2)) as cluster:
        yield cluster


def _states(watcher: Watcher) -> list[dict[str, object]]:
    return [m for m in watcher.messages if m["type"] == "watch_state"]


async def _count_seen(seat: Seat, count: int) -> None:
    await seat.wait_for(lambda m: m["type"] == "watchers" and m["count"] == count, timeout=15)


async def test_spectators_on_every_process_see_each_state_in_order_and_no_hidden_card(group: Cluster) -> None:
    anna, ben, room = await table_across(group, {"target": 301, "visibility": "public"})
    owner, other = group.servers
    assert group.owner_of(room["id"]) is owner  # the creator's process
    near = await Watcher(owner, room["id"]).open()
    far = await Watcher(other, room["id"]).open()  # not the owner: served by relayed messages
    first = await far.wait_for(lambda m: m["type"] == "watch_state")
    await near.wait_for(lambda m: m["type"] == "watch_state")
    for seat in (anna, ben):  # counted over both processes
        await _count_seen(seat, 2)
    await play_on([anna, ben], random.Random(12))
    for watcher in (near, far):
        await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["view"]["winner"] is not None, timeout=30)
    played = {m["version"] for m in anna.messages if m["type"] == "state" and m["version"] > first["version"]}
    for watcher in (near, far):
        seen = _states(watcher)
        assert played <= {m["version"] for m in seen}
        assert_watched_no_hidden_card(group.database_url, room["id"], seen)
    await far.close()
    await _count_seen(anna, 1)
    await near.close()
    await _count_seen(ben, 0)
    for server in group.servers:
        assert not server.errors(), server.errors()


async def test_a_private_table_is_watched_on_another_process_only_with_its_watch_link(group: Cluster) -> None:
    anna, ben, room = await table_across(group, {"target": 301, "visibility": "private"})
    other = group.servers[1]
    refused = await Watcher(other, room["id"]).open()
    assert await refused.closed() == CloseCode.WATCH_REFUSED
    wrong = await Watcher(other, room["id"], "0123456789ab").open()
    assert await wrong.closed() == CloseCode.WATCH_REFUSED
    assert not [m for m in refused.messages + wrong.messages if m["type"] == "watch_state"]
    link = await ben.player.post(f"/api/rooms/{room['id']}/watch-link")
    watcher = await Watcher(other, room["id"], link["code"]).open()
    state = await watcher.wait_for(lambda m: m["type"] == "watch_state")
    assert state["room"]["invite_code"] is None
    await _count_seen(anna, 1)
    mover = anna if anna.my_turn() else ben
    answer = await mover.intent(mover.choose(random.Random(2)))
    await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["version"] == answer["version"])
    # Ben's process does not own the room: turning watching off is forwarded to the owner, which
    # sends away the spectator held by the other process
    turned = await ben.player.request("PATCH", f"/api/rooms/{room['id']}", json={"spectators": False})
    assert turned.status_code == 200, turned.text
    assert await watcher.closed() == CloseCode.WATCH_REFUSED
    for seat in (anna, ben):
        await seat.wait_for(lambda m: m["type"] == "state" and m["room"]["options"]["spectators"] is False)
    late = await Watcher(group.servers[0], room["id"], link["code"]).open()
    assert await late.closed() == CloseCode.WATCH_REFUSED
    for server in group.servers:
        assert not server.errors(), server.errors()


@pytest.mark.parametrize("group", [3], indirect=True)
async def test_a_spectator_keeps_watching_when_the_owner_dies(group: Cluster) -> None:
    creator, players_server, watch_server = group.servers
    anna = await Player(creator.url, "Anna").register()
    room = await anna.post("/api/rooms", json={"target": 301, "visibility": "public"})
    assert group.owner_of(room["id"]) is creator
    anna_seat = Seat(anna, room["id"], players_server.ws_url)
    await anna_seat.connect()
    ben = await Player(players_server.url, "Ben").register()
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    ben_seat = Seat(ben, room["id"], players_server.ws_url)
    await ben_seat.connect()
    await anna_seat.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    watcher = await Watcher(watch_server, room["id"]).open()
    await watcher.wait_for(lambda m: m["type"] == "watch_state")
    rng = random.Random(5)
    await play_on([anna_seat, ben_seat], rng, max_moves=6)
    creator.kill()  # the owner dies; one of the others takes the room over and serves the spectator
    seats = await _reconnect(group, [anna_seat, ben_seat], room["id"], avoid=creator)
    await play_on(seats, rng)
    final = seats[0].view
    last = await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["view"]["winner"] is not None, timeout=30)
    assert last["view"]["totals"] == final["totals"]
    versions = [m["version"] for m in _states(watcher)]
    assert versions == sorted(set(versions))
    await watcher.close()
