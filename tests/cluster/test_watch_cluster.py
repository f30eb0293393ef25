"""Spectators with REDIS_URL: the watch socket is refused clearly (4501, spectators are served by a
single process), while turning watching off is a room change like any other, forwarded to the owner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from backend.rooms.codes import CloseCode
from tests.cluster.test_cluster import Cluster, table_across
from tests.support.services import RedisServer, database

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Cluster]:
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        with database("postgres", tmp_path) as url:
            group = Cluster(url, redis, tmp_path, processes=2)
            for server in group.servers:
                server.start()
            try:
                yield group
            finally:
                for server in group.servers:
                    server.stop()
    finally:
        redis.stop()


async def test_watching_is_refused_in_a_cluster_and_the_switch_is_forwarded(pair: Cluster) -> None:
    anna, ben, room = await table_across(pair, {"target": 301})
    for server in pair.servers:
        async with connect(f"{server.ws_url}/ws/rooms/{room['id']}/watch", open_timeout=10) as socket:
            with pytest.raises(ConnectionClosed):
                await socket.recv()
            assert socket.close_code == CloseCode.WATCH_UNSUPPORTED
    # Ben's process does not own the room: the change is forwarded to the owner and stored once
    answer = await ben.player.request("PATCH", f"/api/rooms/{room['id']}", json={"spectators": False})
    assert answer.status_code == 200, answer.text
    for seat in (anna, ben):
        await seat.wait_for(lambda m: m["type"] == "state" and m["room"]["options"]["spectators"] is False)
    for server in pair.servers:
        assert not server.errors(), server.errors()
