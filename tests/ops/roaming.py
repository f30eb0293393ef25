"""Clients as they are behind a proxy: a socket closed by a restarting server (1012) reconnects at
once to a living server and resends its unanswered intent (same id, same version)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.support.client import Seat
from tests.support.services import ServerProcess

RESEND = ("unavailable", "server_error")


def alive(server: ServerProcess) -> bool:
    return server.process is not None and server.process.poll() is None


class Roaming:
    def __init__(self, seats: list[Seat], servers: list[ServerProcess]) -> None:
        self.seats = seats
        self.servers = servers
        self.closes: list[int | None] = []  # close codes of the sockets a server closed
        self.pauses: list[float] = []  # seconds from a closed socket to the state on the new one
        self.resent = 0

    async def reconnect(self, index: int, timeout: float = 30) -> Seat:
        old = self.seats[index]
        self.closes.append(old.close_code)
        started = time.monotonic()
        attempt = 0
        while time.monotonic() - started < timeout:
            candidates = [s for s in self.servers if alive(s)] or self.servers
            server = candidates[attempt % len(candidates)]
            attempt += 1
            fresh = Seat(old.player, old.room_id, server.ws_url)
            fresh.player.base_url = server.url
            fresh.next_id = old.next_id  # the same client keeps counting
            try:
                await fresh.connect()
            except Exception:  # refused while draining, or not up yet: the next one
                await asyncio.sleep(0.05)
                continue
            self.pauses.append(time.monotonic() - started)
            self.seats[index] = fresh
            return fresh
        raise TimeoutError("no server took the socket")

    def _closed(self, seat: Seat) -> bool:
        return seat.socket is None or seat.close_code is not None

    async def play(
        self,
        rng: random.Random,
        on_move: Callable[[int], Awaitable[None]] | None = None,
        timeout: float = 240,
    ) -> int:
        """Random legal moves until the match is over; ``on_move`` runs after each one."""

        async def loop() -> int:
            moves = 0
            while True:
                for index, seat in enumerate(self.seats):
                    if self._closed(seat):
                        await self.reconnect(index)
                movers = [i for i, seat in enumerate(self.seats) if seat.my_turn()]
                if not movers:
                    if all(
                        seat.state and seat.state["view"] and seat.view["winner"] is not None for seat in self.seats
                    ):
                        return moves
                    await asyncio.sleep(0.02)
                    continue
                index = movers[0]
                mover = self.seats[index]
                assert mover.state is not None
                message: dict[str, Any] = {**mover.choose(rng), "id": mover.next_id, "version": mover.state["version"]}
                mover.next_id += 1
                answer = await self._answer(index, message)
                if answer["type"] == "rejected":
                    assert answer["code"] == "stale_version", answer
                    continue
                version = answer["version"]
                for other in range(len(self.seats)):
                    if other != index:
                        await self._until_version(other, version)
                moves += 1
                if on_move is not None:
                    await on_move(moves)

        return await asyncio.wait_for(loop(), timeout)

    async def _answer(self, index: int, message: dict[str, Any]) -> dict[str, Any]:
        while True:
            seat = self.seats[index]
            try:
                answer = await seat.intent(message)
            except (ConnectionError, ConnectionClosed):  # closed before or after the intent went out
                await self.reconnect(index)
                self.resent += 1
                continue  # the same intent again: answered from the log if it was applied already
            except TimeoutError:
                continue
            if answer["type"] == "rejected" and answer["code"] in RESEND:
                self.resent += 1
                await asyncio.sleep(0.1)
                continue
            return answer

    async def _until_version(self, index: int, version: int) -> None:
        while True:
            seat = self.seats[index]
            if seat.state is not None and seat.state["version"] >= version:
                return
            try:
                await seat.wait_for(lambda m: m["type"] == "state" and m["version"] >= version, timeout=30)
                return
            except ConnectionError:
                await self.reconnect(index)
