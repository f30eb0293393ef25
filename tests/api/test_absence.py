"""Absence and rematch timing: the reconnection grace (R6.2), heartbeats, rematch offers that lapse."""

from __future__ import annotations

import base64
import os
import socket
from decimal import Decimal
from pathlib import Path

from backend.api.codes import PROTOCOL
from tests.support.client import Player, create_table
from tests.support.services import ServerProcess


async def test_r6_2_absent_player_forfeits_after_the_grace(sqlite_server: ServerProcess) -> None:
    anna, ben = await create_table(
        sqlite_server.url, sqlite_server.ws_url, {"reconnect_grace_s": 5, "stake_per_point": "0.5", "target": 501}
    )
    await anna.close()
    presence = await ben.wait_for(lambda m: m["type"] == "presence" and not m["connected"])
    assert presence["seat"] == 0 and presence["grace_deadline"]  # the countdown for the opponent
    over = await ben.wait_for(lambda m: m["type"] == "state" and m["view"]["winner"] is not None, timeout=15)
    assert over["view"]["winner"] == 1 and over["view"]["end_reason"] == "absence"
    totals = over["view"]["totals"]
    assert Decimal(over["stake"]["amount"]) == Decimal("0.5") * (501 - totals[0])  # R6.2: totals as they stand
    [match] = (await ben.player.get("/api/matches"))["items"]
    assert match["end_reason"] == "absence" and match["result"] == "won"


# Returning within the grace and both players being away are decided by ``decide`` with a made-up
# clock (tests/rooms/test_decide.py: test_r6_2_returning_stops_the_clock,
# test_r6_2_nobody_forfeits_while_both_are_away): no test here sleeps to watch a clock.


async def test_rematch_offer_lapses(sqlite_url: str, tmp_path: Path) -> None:
    server = ServerProcess(sqlite_url, tmp_path / "server.log", REMATCH_TIMEOUT_S="1")
    server.start()
    try:
        anna, ben = await create_table(server.url, server.ws_url)
        await anna.intent({"type": "resign"})
        await ben.wait_for(lambda m: m["type"] == "state" and m["view"]["winner"] is not None)
        await ben.intent({"type": "rematch", "action": "offer"})
        lapsed = await anna.wait_for(
            lambda m: m["type"] == "state" and any(e.get("action") == "timeout" for e in m["events"]), timeout=5
        )
        assert lapsed["room"]["rematch"] is None
    finally:
        server.stop()


async def test_rematch_never_pulls_a_player_out_of_another_live_match(sqlite_server: ServerProcess) -> None:
    anna, ben = await create_table(sqlite_server.url, sqlite_server.ws_url)
    await anna.intent({"type": "resign"})
    await ben.wait_for(lambda m: m["type"] == "state" and m["view"]["winner"] is not None)
    await ben.intent({"type": "rematch", "action": "offer"})
    cleo = await Player(sqlite_server.url, "Cleo").register()
    other = await cleo.post("/api/rooms", json={})
    await anna.player.post(f"/api/rooms/{other['id']}/join")  # Anna starts another match meanwhile
    await anna.wait_for(lambda m: m["type"] == "state" and m["room"]["rematch"] is not None)
    refused = await anna.intent({"type": "rematch", "action": "accept"})
    assert refused["type"] == "rejected" and refused["code"] == "rematch_invalid"
    assert "another match" in refused["message"]


def _silent_websocket(port: int, path: str) -> socket.socket:
    """A client that completes the handshake and then never answers anything, like a dead peer."""
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert b"101" in sock.recv(4096).split(b"\r\n", 1)[0]
    return sock


async def test_heartbeat_notices_a_dead_socket_without_a_tcp_close(sqlite_url: str, tmp_path: Path) -> None:
    server = ServerProcess(
        sqlite_url, tmp_path / "server.log", uvicorn_args=("--ws-ping-interval", "1", "--ws-ping-timeout", "1")
    )
    server.start()
    try:
        anna, ben = await create_table(server.url, server.ws_url)
        await anna.close()
        await ben.wait_for(lambda m: m["type"] == "presence" and not m["connected"])
        path = f"/ws/rooms/{anna.room_id}?token={anna.player.token}&protocol={PROTOCOL}"
        silent = _silent_websocket(server.port, path)
        await ben.wait_for(lambda m: m["type"] == "presence" and m["connected"])
        gone = await ben.wait_for(lambda m: m["type"] == "presence" and not m["connected"], timeout=10)
        assert gone["seat"] == 0
        silent.close()
    finally:
        server.stop()
