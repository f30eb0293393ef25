"""A rolling restart behind a proxy: nginx with ``deploy/nginx.conf`` itself, the alternative to compose's Caddy (only
the replicas' addresses, the port and the file paths are rewritten) in front of two processes.

The players' sockets go through nginx, never to a process directly. SIGTERM one replica, bring it
back, then the other, while the match goes on: the players see a 1012 and a short pause each time,
nothing else — nobody is judged absent (R6.2), nothing is lost or applied twice.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from backend.rooms.cluster import LEASE_MS
from backend.rooms.codes import CloseCode
from tests.support.client import Player, Seat
from tests.support.services import ROOT, RedisServer, ServerProcess, free_port, missing_service, port_open

from .conftest import SHUTDOWN_S
from .roaming import Roaming
from .test_graceful_restart import action_log, terminate


class Proxy:
    """nginx on a free port with the project's own server block; looks like a server to ``Roaming``."""

    def __init__(self, folder: Path, upstreams: list[ServerProcess]) -> None:
        self.folder = folder
        self.port = free_port()
        self.upstreams = upstreams
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def config(self) -> str:
        block = (ROOT / "deploy" / "nginx.conf").read_text()
        first, second = (f"127.0.0.1:{server.port}" for server in self.upstreams)
        block = block.replace("server app:8000 ", f"server {first} ").replace("server app2:8000 ", f"server {second} ")
        block = block.replace("listen 8000;", f"listen 127.0.0.1:{self.port};")
        block = block.replace("/var/log/nginx/access.log", str(self.folder / "access.log"))
        assert first in block and second in block and str(self.port) in block, "deploy/nginx.conf changed shape"
        temp = self.folder / "temp"
        paths = "\n".join(
            f"    {kind}_temp_path {temp / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        user = "user root;\n" if os.geteuid() == 0 else ""
        return (
            f"{user}worker_processes 1;\ndaemon off;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'} warn;\nevents {{ worker_connections 256; }}\n"
            f"http {{\n{paths}\n{block}\n}}\n"
        )

    def start(self) -> None:
        binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
        if binary is None:
            missing_service("nginx is not installed (Debian: apt-get install nginx-light)")
        assert binary is not None
        (self.folder / "temp").mkdir(parents=True, exist_ok=True)
        conf = self.folder / "nginx.conf"
        conf.write_text(self.config())
        command = [binary, "-c", str(conf), "-p", str(self.folder), "-e", str(self.folder / "error.log")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while not port_open("127.0.0.1", self.port):
            if self.process.poll() is not None:
                said = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"nginx did not start: {said}")
            assert time.monotonic() < deadline, "nginx did not start listening"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def upstreams_used(self) -> set[str]:
        text = (self.folder / "access.log").read_text() if (self.folder / "access.log").exists() else ""
        return set(re.findall(r"upstream=(127\.0\.0\.1:\d+)", text))


@pytest.fixture
def behind_nginx(
    pair: tuple[list[ServerProcess], RedisServer, str], tmp_path: Path
) -> Iterator[tuple[Proxy, list[ServerProcess], str]]:
    servers, _, url = pair
    proxy = Proxy(tmp_path / "nginx", servers)
    try:
        proxy.start()
        yield proxy, servers, url
    finally:
        proxy.stop()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
async def test_a_rolling_restart_behind_the_compose_proxy_is_only_a_short_pause(
    behind_nginx: tuple[Proxy, list[ServerProcess], str],
) -> None:
    proxy, servers, url = behind_nginx
    anna = await Player(proxy.url, "Anna").register()
    ben = await Player(proxy.url, "Ben").register()
    room = await anna.post("/api/rooms", json={"target": 301})
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    seats = [Seat(anna, room["id"], proxy.ws_url), Seat(ben, room["id"], proxy.ws_url)]
    for seat in seats:
        await seat.connect()
    assert all(seat.state and seat.state["view"] for seat in seats)  # both seats taken: the match is on
    table = Roaming(seats, [proxy])  # type: ignore[list-item]  # the proxy is the only address they know
    exits: list[float] = []
    restarts: list[asyncio.Task[None]] = []

    async def restart(server: ServerProcess) -> None:  # in the background: the match goes on meanwhile
        exits.append(await asyncio.to_thread(terminate, server))
        await asyncio.to_thread(server.start)

    async def rolling(moves: int) -> None:
        if moves == 8:
            restarts.append(asyncio.create_task(restart(servers[0])))
        elif moves == 20:  # the other one, once the first is back
            await restarts[0]
            restarts.append(asyncio.create_task(restart(servers[1])))

    await table.play(random.Random(15), on_move=rolling)
    await asyncio.gather(*restarts)
    final = [seat.view for seat in table.seats]
    assert final[0]["winner"] is not None and final[0]["end_reason"] == "target"  # nobody judged absent
    assert final[0]["totals"] == final[1]["totals"]
    assert len(exits) == 2 and all(seconds < SHUTDOWN_S for seconds in exits), exits
    # Every socket a restart closed was told 1012 and came back through the proxy within a lease.
    assert table.closes and set(table.closes) == {CloseCode.SERVICE_RESTART}, table.closes
    assert table.pauses and max(table.pauses) < LEASE_MS / 1000, table.pauses
    assert proxy.upstreams_used() >= {f"127.0.0.1:{server.port}" for server in servers}
    log = action_log(url, table.seats[0].state["room"]["match_id"])  # type: ignore[index]
    assert [seq for seq, _ in log] == list(range(1, len(log) + 1))  # gapless: nothing lost, nothing twice
    print(f"through nginx: reconnect pauses {[round(p, 3) for p in table.pauses]} s, exits {exits} s")
