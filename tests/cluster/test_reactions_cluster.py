"""Quick reactions with REDIS_URL (issue 27): a reaction or a mute from a socket on a process that
does not own the table is forwarded to the owner; the reaction reaches the players wherever their
sockets are, and the spectators on every process only when the table allows it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.test_cluster import Cluster, running_cluster, table_across
from tests.support.client import Seat
from tests.support.tables import Watcher

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def group(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path, processes=2) as cluster:
        yield cluster


async def _move(seats: tuple[Seat, Seat], watchers: tuple[Watcher, ...]) -> None:
    """A move, and its watch_state everywhere: what was relayed before it has arrived."""
    mover = next(seat for seat in seats if seat.my_turn())
    answer = await mover.intent(mover.choose(random.Random(1)))
    assert answer["type"] == "state", answer
    for watcher in watchers:
        await watcher.wait_for(lambda m: m["type"] == "watch_state" and m["version"] == answer["version"], timeout=15)


async def test_reactions_and_mutes_are_forwarded_and_reach_spectators_on_every_process_when_allowed(
    group: Cluster,
) -> None:
    anna, ben, room = await table_across(group, {"target": 301, "reactions_for_spectators": True})
    owner, other = group.servers
    assert group.owner_of(room["id"]) is owner  # Ben's socket is on the other process
    near = await Watcher(owner, room["id"]).open()
    far = await Watcher(other, room["id"]).open()
    for watcher in (near, far):
        await watcher.wait_for(lambda m: m["type"] == "watch_state")
    echo = await ben.intent({"type": "react", "reaction": "good_luck"})  # forwarded to the owner
    assert echo["type"] == "reaction" and echo["seat"] == ben.view["seat"]
    got = await anna.wait_for(lambda m: m["type"] == "reaction")
    assert got == {**echo, "reply_to": None}
    for watcher in (near, far):
        assert await watcher.wait_for(lambda m: m["type"] == "reaction", timeout=15) == got
    # Ben mutes (forwarded): Anna's reaction reaches the spectators, not Ben
    muted = await ben.intent({"type": "mute_reactions", "muted": True})
    assert muted["type"] == "state" and muted["reactions_muted"] is True
    await anna.intent({"type": "react", "reaction": "oops"})
    for watcher in (near, far):
        await watcher.wait_for(lambda m: m["type"] == "reaction" and m["reaction"] == "oops", timeout=15)
    await _move((anna, ben), (near, far))
    await ben.intent({"type": "chat", "text": "after"})
    await anna.wait_for(lambda m: m["type"] == "chat")
    assert [m["reaction"] for m in ben.messages if m["type"] == "reaction"] == ["good_luck"]  # its own echo only
    for seat in (anna, ben):
        await seat.close()
    for watcher in (near, far):
        await watcher.close()
    for server in group.servers:
        assert not server.errors(), server.errors()


async def test_spectators_on_another_process_get_no_reactions_by_default(group: Cluster) -> None:
    anna, ben, room = await table_across(group, {"target": 301})
    far = await Watcher(group.servers[1], room["id"]).open()
    await far.wait_for(lambda m: m["type"] == "watch_state")
    await anna.intent({"type": "react", "reaction": "thanks"})
    await ben.wait_for(lambda m: m["type"] == "reaction")
    await _move((anna, ben), (far,))
    assert not [m for m in far.messages if m["type"] == "reaction"]
    for seat in (anna, ben):
        await seat.close()
    await far.close()
