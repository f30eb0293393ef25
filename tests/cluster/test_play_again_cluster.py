""" "Play again" with REDIS_URL (issue 27): the invitation made through one process reaches the
friend's lobby stream held by another, over the cluster's Redis pub/sub; a waiting invitation is
kept in Redis for a stream opened later on any process, and lapses wherever the table starts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.test_cluster import Cluster, running_cluster
from tests.support.client import Player
from tests.support.lobby_stream import LobbyStream

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def group(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path, processes=2) as cluster:
        yield cluster


async def test_an_invitation_crosses_processes_and_lapses_wherever_the_table_starts(group: Cluster) -> None:
    near, far = group.servers
    anna = await Player(near.url, "Anna").register()
    ben = await Player(far.url, "Ben").register()
    cleo = await Player(far.url, "Cleo").register()
    dan = await Player(near.url, "Dan").register()
    for friend in (ben, cleo):
        room = await anna.post("/api/rooms", json={"visibility": "private", "target": 501})
        await friend.post(f"/api/invites/{room['invite_code']}/join")

    ben_far = await LobbyStream(ben, far.url, ticket=True).open()  # Ben's lobby is open on the other process
    stranger = await LobbyStream(dan, far.url).open()
    try:
        invited = await anna.post(f"/api/me/opponents/{ben.id}/invite")  # asked of the near process
        assert invited["online"] is True and invited["room"]["options"]["target"] == 501
        invitation = await ben_far.wait_for(lambda name, _: name == "invitation")
        assert invitation["room_id"] == invited["room"]["id"] and invitation["inviter"]["name"] == "Anna"

        # Cleo's lobby is closed: the invitation waits in Redis and comes when she opens it, anywhere.
        waiting = await anna.post(f"/api/me/opponents/{cleo.id}/invite")
        assert waiting["online"] is False
        cleo_near = await LobbyStream(cleo, near.url).open()
        assert cleo_near.invitation_events() == ["invitation", "ready"]
        assert cleo_near.events[0][1]["room_id"] == waiting["room"]["id"]

        # Ben joins through the near process; his stream on the far one hears the invitation lapse.
        await Player(near.url, "Ben", ben.id, ben.token).post(f"/api/invites/{invitation['invite_code']}/join")
        gone = await ben_far.wait_for(lambda name, _: name == "invitation_gone")
        assert gone == {"room_id": invitation["room_id"], "reason": "accepted"}
        # Cleo declines on the far process: her stream on the near one is told.
        await Player(far.url, "Cleo", cleo.id, cleo.token).post(f"/api/me/invitations/{waiting['room']['id']}/decline")
        declined = await cleo_near.wait_for(lambda name, _: name == "invitation_gone")
        assert declined["reason"] == "declined"
        await cleo_near.close()
        assert stranger.invitation_events() == ["ready"]
    finally:
        await ben_far.close()
        await stranger.close()
