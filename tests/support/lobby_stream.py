"""A player's lobby event stream (``GET /api/me/events``, Server-Sent Events) read by a test.

``LobbyStream.open`` returns once the server sent ``ready`` (from then on every invitation for the
player reaches the stream); ``events`` keeps every event received, as (name, data) in order, and
``comments`` the heartbeat lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx

from tests.support.client import Player


class LobbyStream:
    def __init__(self, player: Player, base_url: str | None = None, *, ticket: bool = False) -> None:
        self.player = player
        self.base_url = base_url or player.base_url
        self.ticket = ticket
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.comments: list[str] = []
        self.status: int | None = None
        self.headers: httpx.Headers | None = None
        self.ended = asyncio.Event()
        self._http: httpx.AsyncClient | None = None
        self._reader: asyncio.Task[None] | None = None
        self._arrived = asyncio.Event()

    async def open(self, timeout: float = 10, ticket: str | None = None) -> LobbyStream:
        """Open the stream with the player's token, or a one-time ticket (``ticket``, or a new one)."""
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=httpx.Timeout(10, read=None))
        path, headers = "/api/me/events", self.player.headers if self.player.token else {}
        if self.ticket and ticket is None:
            ticket = (await self.player.post("/api/socket-ticket"))["ticket"]
        if ticket is not None:
            path, headers = f"{path}?ticket={ticket}", {}
        started: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(path, headers, started))
        await asyncio.wait_for(started, timeout)
        if self.status == 200:
            await self.wait_for(lambda name, _: name == "ready", timeout)
        return self

    async def _read(self, path: str, headers: dict[str, str], started: asyncio.Future[None]) -> None:
        assert self._http is not None
        try:
            async with self._http.stream("GET", path, headers=headers) as response:
                self.status, self.headers = response.status_code, response.headers
                started.set_result(None)
                if response.status_code != 200:
                    return
                name, data = "", ""
                async for line in response.aiter_lines():
                    if line.startswith(":"):
                        self.comments.append(line)
                        self._arrived.set()
                    elif line.startswith("event: "):
                        name = line[len("event: ") :]
                    elif line.startswith("data: "):
                        data = line[len("data: ") :]
                    elif line == "" and name:
                        self.events.append((name, json.loads(data)))
                        name, data = "", ""
                        self._arrived.set()
        except (httpx.HTTPError, asyncio.CancelledError):
            pass
        finally:
            if not started.done():
                started.set_result(None)
            self.ended.set()
            self._arrived.set()

    async def wait_for(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        """The first event (name, data) that ``predicate`` accepts, waiting for it if need be."""

        async def scan() -> dict[str, Any]:
            seen = 0
            while True:
                for name, data in self.events[seen:]:
                    if predicate(name, data):
                        return data
                seen = len(self.events)
                if self.ended.is_set():
                    raise AssertionError(f"the stream ended; it had {self.events}")
                self._arrived.clear()
                await self._arrived.wait()

        return await asyncio.wait_for(scan(), timeout)

    async def wait_comment(self, timeout: float = 10) -> str:
        async def scan() -> str:
            while not self.comments:
                if self.ended.is_set():
                    raise AssertionError("the stream ended without a comment")
                self._arrived.clear()
                await self._arrived.wait()
            return self.comments[0]

        return await asyncio.wait_for(scan(), timeout)

    def invitation_events(self) -> list[str]:
        """The names of the events received but "My games" and the public tables (``games``,
        ``tables``: sent on every stream when it opens, and whenever they change)."""
        return [name for name, _ in self.events if name not in ("games", "tables")]

    def named(self, name: str) -> list[dict[str, Any]]:
        return [data for event, data in self.events if event == name]

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._http is not None:
            await self._http.aclose()
