""" "My games" with REDIS_URL (issue 45): a move at a turn-based table, made through one process,
reaches the lobby stream of the other player held by another process (the room's owner publishes
on ``player:{id}`` that the games changed; the stream's process reads them once), and a public
table made through one process is listed on the other's streams within LOBBY_TABLES_S."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.test_cluster import Cluster, running_cluster
from tests.support.client import Player, Seat
from tests.support.lobby_stream import LobbyStream

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def group(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path, processes=2) as cluster:
        yield cluster


async def test_a_move_reaches_the_games_of_a_lobby_open_on_another_process(group: Cluster) -> None:
    near, far = group.servers
    anna = await Player(near.url, "Anna").register()
    ben = await Player(far.url, "Ben").register()
    room = await anna.post("/api/rooms", json={"pace": "2d", "visibility": "private"})
    joined = await ben.post(f"/api/invites/{room['invite_code']}/join")
    mover, watcher = (anna, ben) if joined["players"][joined["turn"]]["id"] == anna.id else (ben, anna)
    lobby = await LobbyStream(watcher, far.url, ticket=True).open()  # the lobby open on the far process
    seat = Seat(mover, room["id"], near.url.replace("http", "ws", 1))
    try:
        [first] = lobby.named("games")
        [game] = [g for g in first["games"] if g["room"]["id"] == room["id"]]
        assert game["last_move"] is None and game["room"]["turn_deadline"] is not None
        await seat.connect()
        card = seat.legal_cards[0]
        answer = await seat.intent({"type": "play", "card": card, "declare": False})
        assert answer["type"] == "state", answer

        def moved(name: str, data: dict[str, Any]) -> bool:
            return name == "games" and any(
                g["room"]["id"] == room["id"] and g["last_move"] is not None for g in data["games"]
            )

        after = await lobby.wait_for(moved)
        [game] = [g for g in after["games"] if g["room"]["id"] == room["id"]]
        assert game["last_move"]["card"] == card and game["last_move"]["kind"] == "play"

        # A public table made through the near process is listed on the far process's streams.
        cleo = await Player(near.url, "Cleo").register()
        public = await cleo.post("/api/rooms", json={"visibility": "public"})
        await lobby.wait_for(
            lambda name, data: name == "tables" and public["id"] in [r["id"] for r in data["open"]], timeout=15
        )
    finally:
        await seat.close()
        await lobby.close()
