"""A scripted player for tests and benchmarks: REST through httpx, the game through a real WebSocket."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import httpx
from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection, connect

from backend.api.codes import PROTOCOL
from backend.api.messages import validate_server_message

RANK_ORDER = "ATKQJ987"


@dataclass
class Player:
    base_url: str
    name: str
    id: str = ""
    token: str = ""

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def register(self) -> Player:
        async with httpx.AsyncClient(base_url=self.base_url) as http:
            answer = await http.post("/api/players", json={"name": self.name})
            answer.raise_for_status()
            data = answer.json()
        self.id, self.token = data["id"], data["token"]
        return self

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.base_url, headers=self.headers) as http:
            return await http.request(method, path, **kwargs)

    async def get(self, path: str, **kwargs: Any) -> Any:
        answer = await self.request("GET", path, **kwargs)
        answer.raise_for_status()
        return answer.json()

    async def post(self, path: str, **kwargs: Any) -> Any:
        answer = await self.request("POST", path, **kwargs)
        answer.raise_for_status()
        return answer.json() if answer.content else None


@dataclass
class Seat:
    """One player's socket in one room, keeping every message it received."""

    player: Player
    room_id: str
    ws_url: str
    socket: ClientConnection | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] | None = None
    next_id: int = 1
    invalid: list[str] = field(default_factory=list)  # messages that did not match the protocol models
    _inbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    _reader: asyncio.Task[None] | None = None

    async def connect(self) -> dict[str, Any]:
        """Open the socket the way the browser does: with a one-time ticket, never the token."""
        ticket = (await self.player.post("/api/socket-ticket"))["ticket"]
        url = f"{self.ws_url}/ws/rooms/{self.room_id}?ticket={ticket}&protocol={PROTOCOL}"
        self.socket = await connect(url, compression=None, max_size=2**20, open_timeout=10)
        self._inbox = asyncio.Queue()
        self._reader = asyncio.create_task(self._read())
        return await self.wait_for(lambda m: m["type"] == "state")

    async def _read(self) -> None:
        assert self.socket is not None
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                try:
                    validate_server_message(message)  # every message received matches the server's models
                except ValidationError as error:
                    self.invalid.append(f"{error}\n{message}")
                self.messages.append(message)
                if message["type"] == "state":
                    self.state = message
                self._inbox.put_nowait(message)
        except Exception:
            pass
        finally:
            self._inbox.put_nowait({"type": "_closed"})

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 5)

    async def send_raw(self, text: str | bytes) -> None:
        assert self.socket is not None
        await self.socket.send(text)

    async def send(self, message: dict[str, Any]) -> int:
        message = dict(message)
        if "id" not in message and message.get("type") != "hello":
            message["id"] = self.next_id
            self.next_id += 1
        if "version" not in message and message.get("type") != "hello":
            assert self.state is not None
            message["version"] = self.state["version"]
        await self.send_raw(json.dumps(message))
        return message.get("id", -1)

    async def wait_for(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        async def scan() -> dict[str, Any]:
            while True:
                message = await self._inbox.get()
                assert not self.invalid, self.invalid[0]
                if message["type"] == "_closed":
                    raise ConnectionError(f"socket closed while waiting (code {self.close_code})")
                if predicate(message):
                    return message

        return await asyncio.wait_for(scan(), timeout)

    async def answer(self, msg_id: int, timeout: float = 10) -> dict[str, Any]:
        """The server's answer to intent ``msg_id``: a state with reply_to, a rejection or a chat echo."""
        return await self.wait_for(
            lambda m: (m["type"] == "rejected" and m["id"] == msg_id) or m.get("reply_to") == msg_id, timeout
        )

    async def intent(self, message: dict[str, Any]) -> dict[str, Any]:
        return await self.answer(await self.send(message))

    async def resign(self) -> dict[str, Any]:
        """Resign, sent again while computer seats moving meanwhile make it stale (the current state
        follows a stale refusal); the answer to the one that counted."""
        answer = await self.intent({"type": "resign"})
        while answer["type"] == "rejected" and answer["code"] == "stale_version":
            await self.wait_for(lambda m: m["type"] == "state")
            answer = await self.intent({"type": "resign"})
        return answer

    @property
    def close_code(self) -> int | None:
        return None if self.socket is None else self.socket.close_code

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None and self.state["view"] is not None
        return self.state["view"]

    def my_turn(self) -> bool:
        return self.state is not None and self.state["view"] is not None and bool(self.view["legal"])

    @property
    def legal_cards(self) -> list[str]:
        return legal_cards(self.view)

    def choose(self, rng: random.Random) -> dict[str, Any]:
        """A random legal play, declaring when the chosen lead allows it (``legal`` says so)."""
        play = rng.choice(self.view["legal"])
        declare = play["declare"] is not None and rng.random() < 0.8
        return {"type": "play", "card": play["card"], "declare": declare}


def legal_cards(view: dict[str, Any]) -> list[str]:
    return [play["card"] for play in view["legal"]]


def comparable_state(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what presence or an unrelated message may change (reply id, events, connections)."""
    players = [p and {**p, "connected": None, "grace_deadline": None} for p in state["room"]["players"]]
    room = {**state["room"], "players": players}
    return {"version": state["version"], "room": room, "view": state["view"], "stake": state["stake"]}


async def create_table(base_url: str, ws_url: str, options: dict[str, Any] | None = None) -> tuple[Seat, Seat]:
    """Two registered players at one table, both connected, the match started."""
    anna, ben = Player(base_url, "Anna"), Player(base_url, "Ben")
    await anna.register()
    await ben.register()
    room = await anna.post("/api/rooms", json=options or {})
    first = Seat(anna, room["id"], ws_url)
    await first.connect()
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    second = Seat(ben, room["id"], ws_url)
    await second.connect()
    await first.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    return first, second


async def play_moves(seats: tuple[Seat, Seat], rng: random.Random, max_moves: int = 10_000) -> int:
    """Play random legal moves until the match ends (or ``max_moves``); returns moves played."""
    moves = 0
    while moves < max_moves:
        current = [seat for seat in seats if seat.my_turn()]
        if not current:
            if all(seat.state and seat.state["view"] and seat.view["winner"] is not None for seat in seats):
                return moves
            await asyncio.sleep(0.01)
            continue
        mover = current[0]
        version = mover.state["version"] if mover.state else 0
        answer = await mover.intent(mover.choose(rng))
        assert answer["type"] == "state", answer
        other = seats[1] if mover is seats[0] else seats[0]
        await other.wait_for(lambda m, v=version: m["type"] == "state" and m["version"] > v)
        moves += 1
    return moves
