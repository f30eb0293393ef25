"""The lobby's event stream (issue 27, "Play again") through nginx with ``deploy/nginx.conf`` in front
of two replicas: an invitation made through either replica reaches the friend's stream at once,
however small it is — nginx holds nothing back (the app also tells it not to buffer the stream,
``X-Accel-Buffering: no``), and the stream's ``ticket=`` never reaches nginx's access log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.client import Player
from tests.support.lobby_stream import LobbyStream
from tests.support.services import RedisServer, ServerProcess

from .test_restart_behind_nginx import Proxy

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def proxy(pair: tuple[list[ServerProcess], RedisServer, str], tmp_path: Path) -> Iterator[Proxy]:
    servers, _, _ = pair
    nginx = Proxy(tmp_path / "nginx", servers)
    try:
        nginx.start()
        yield nginx
    finally:
        nginx.stop()


async def test_an_invitation_goes_through_nginx_at_once(proxy: Proxy) -> None:
    anna = await Player(proxy.url, "Anna").register()
    ben = await Player(proxy.url, "Ben").register()
    room = await anna.post("/api/rooms", json={"visibility": "private"})
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    stream = await LobbyStream(ben, ticket=True).open(timeout=5)  # `ready` (a few bytes) came through
    try:
        assert stream.headers is not None and stream.headers["content-type"].startswith("text/event-stream")
        for _ in range(2):  # round robin: through both replicas
            invited = await anna.post(f"/api/me/opponents/{ben.id}/invite")
            seen = await stream.wait_for(
                lambda name, data, room_id=invited["room"]["id"]: name == "invitation" and data["room_id"] == room_id,
                timeout=5,
            )
            assert seen["inviter"]["name"] == "Anna"
            await anna.post(f"/api/rooms/{invited['room']['id']}/leave")
            await stream.wait_for(
                lambda name, data, room_id=seen["room_id"]: name == "invitation_gone" and data["room_id"] == room_id,
                timeout=5,
            )
    finally:
        await stream.close()
    assert len(proxy.upstreams_used()) == 2
    assert "ticket=" not in (proxy.folder / "access.log").read_text()
