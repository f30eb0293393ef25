"""Helpers for the reliability suite: a blocking socket client, database probes, state comparison.

The fuzz tests drive hypothesis from ordinary (synchronous) test functions, so they talk to the
live server through ``websockets.sync``; the chaos and load tests use the asyncio ``Seat`` of
``tests.support.client``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import Engine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from backend.api.codes import PROTOCOL
from backend.api.messages import validate_server_message
from backend.db.engine import normalize_url
from backend.db.models import Action, Deal, Match, MatchSeat, Player, Room, Settlement

# Every code a refusal may carry (docs/protocol.md); anything else is a bug.
REJECTION_CODES = frozenset(
    {
        "not_your_turn",
        "card_not_held",
        "must_follow_suit",
        "must_beat",
        "must_trump",
        "cannot_declare",
        "deal_over",
        "stale_version",
        "bad_message",
        "not_seated",
        "match_over",
        "no_match",
        "rematch_invalid",
    }
)
ALL_CARDS = [rank + suit for suit in "CSHD" for rank in "ATKQJ9"]


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what presence alone may change (connected flags, grace deadlines), reply ids and events."""
    players = [p and {"seat": p["seat"], "id": p["id"], "name": p["name"]} for p in state["room"]["players"]]
    room = {k: v for k, v in state["room"].items() if k != "players"} | {"players": players}
    return {"version": state["version"], "room": room, "view": state["view"], "stake": state["stake"]}


def settlements_owed(state: dict[str, Any]) -> int:
    """R6: how many settlements a match won on the target stores, from its final state: one per
    loser short of the target (a loser at or over it owes nothing, and nothing is stored). The
    state's ``stakes`` list exactly those."""
    view = state["view"]
    target, winner = view["target"], view["winner"]
    owed = [seat for seat, total in enumerate(view["totals"]) if seat != winner and total < target]
    assert [s["debtor_seat"] for s in state["stakes"]] == owed and state["stake"] == (state["stakes"] or [None])[0]
    return len(owed)


# ------------------------------------------------------------------ REST


def register(base_url: str, name: str) -> dict[str, str]:
    answer = httpx.post(f"{base_url}/api/players", json={"name": name}, timeout=10)
    answer.raise_for_status()
    return answer.json()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class SyncTable:
    base_url: str
    ws_url: str
    room: dict[str, Any]
    players: list[dict[str, str]]  # by seat of the first match
    seats: list[SyncSeat] = field(default_factory=list)

    def close(self) -> None:
        for seat in self.seats:
            seat.close()


def sync_table(base_url: str, ws_url: str, options: dict[str, Any] | None = None) -> SyncTable:
    """Two players, a room, the match started and both seats connected (blocking sockets)."""
    anna, ben = register(base_url, "Anna"), register(base_url, "Ben")
    room = httpx.post(f"{base_url}/api/rooms", json=options or {}, headers=auth(anna["token"]), timeout=10)
    room.raise_for_status()
    joined = httpx.post(f"{base_url}/api/rooms/{room.json()['id']}/join", headers=auth(ben["token"]), timeout=10)
    joined.raise_for_status()
    table = SyncTable(base_url, ws_url, joined.json(), [anna, ben])
    table.seats = [SyncSeat.open(ws_url, table.room["id"], p["token"]) for p in (anna, ben)]
    return table


# ------------------------------------------------------------------ a blocking socket


class SyncSeat:
    """One seat's socket; ``answer`` skips whatever arrives that is not the answer it waits for."""

    def __init__(self, socket: ClientConnection, room_id: str, token: str) -> None:
        self.socket = socket
        self.room_id = room_id
        self.token = token
        self.state: dict[str, Any] | None = None
        self.next_id = 1
        self.markers = 0

    @classmethod
    def open(cls, ws_url: str, room_id: str, token: str) -> SyncSeat:
        socket = connect(
            f"{ws_url}/ws/rooms/{room_id}?token={token}&protocol={PROTOCOL}",
            compression=None,
            max_size=2**20,
            open_timeout=10,
            legacy=True,
        )
        seat = cls(socket, room_id, token)
        seat.receive_until(lambda m: m["type"] == "state")
        return seat

    def close(self) -> None:
        self.socket.close()

    def send_text(self, text: str | bytes) -> None:
        self.socket.send(text)

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def receive(self, timeout: float = 10) -> dict[str, Any]:
        message = json.loads(self.socket.recv(timeout=timeout))
        validate_server_message(message)  # even under fuzzing, every answer is a documented message
        if message["type"] == "state":
            self.state = message
        return message

    def receive_until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(timeout=max(0.0, deadline - time.monotonic()))
            if predicate(message):
                return message

    def drain(self) -> list[dict[str, Any]]:
        """Everything already received, without waiting (keeps the server's outbox for us short)."""
        got = []
        while True:
            try:
                got.append(self.receive(timeout=0))
            except TimeoutError:
                return got

    def hello(self) -> dict[str, Any]:
        """The current state: the last state that arrives before the answer to a marker sent after the hello.

        The marker is a frame of an unknown type with a negative id: the server refuses it as
        ``bad_message`` with that id, remembers nothing and tells nobody else. Whatever was queued
        before (broadcasts, chat, presence, an extra state after ``stale_version``) is skipped.
        """
        self.send({"type": "hello"})
        self.markers -= 1
        marker = self.markers
        self.send({"type": "sync", "id": marker})
        state = None
        while True:
            message = self.receive()
            if message["type"] == "rejected" and message["id"] == marker:
                assert state is not None, "no state answered the hello"
                return state
            if message["type"] == "state":
                state = message

    def _take_id(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    def intent(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send an intent (id and version filled in when missing) and return its answer."""
        message = dict(message)
        message.setdefault("id", self._take_id())
        if "version" not in message:
            assert self.state is not None
            message["version"] = self.state["version"]
        self.send(message)
        return self.answer(message["id"])

    def answer(self, msg_id: Any, timeout: float = 10) -> dict[str, Any]:
        return self.receive_until(
            lambda m: (
                (m["type"] == "rejected" and m["id"] == msg_id)
                or (m["type"] in ("state", "chat") and m.get("reply_to") == msg_id and msg_id is not None)
            ),
            timeout,
        )

    @property
    def close_code(self) -> int | None:
        return self.socket.close_code

    def is_open(self) -> bool:
        try:
            self.socket.ping().wait(5)
        except (ConnectionClosed, TimeoutError, RuntimeError):
            return False
        return True


# ------------------------------------------------------------------ the database, read directly


class Database:
    """Read-only probes of the server's database (the same URL the server uses)."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(normalize_url(url))

    def dispose(self) -> None:
        self.engine.dispose()

    def counts(self) -> dict[str, int]:
        with self.engine.connect() as connection:
            return {
                model.__tablename__: connection.scalar(select(func.count()).select_from(model)) or 0
                for model in (Player, Room, Match, Deal, Action, Settlement)
            }

    def room_version(self, room_id: str) -> int:
        with self.engine.connect() as connection:
            return connection.scalar(select(Room.version).where(Room.id == room_id))

    def actions(self, match_id: str) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(select(Action).where(Action.match_id == match_id).order_by(Action.seq)))

    def matches(self) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(select(Match)))

    def match_totals(self, match_id: str) -> list[int]:
        """The match totals, in seat order (``match_seats``)."""
        with self.engine.connect() as connection:
            query = select(MatchSeat.total).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat)
            return list(connection.scalars(query))

    def settlement_count(self, match_id: str) -> int:
        with self.engine.connect() as connection:
            query = select(func.count()).select_from(Settlement).where(Settlement.match_id == match_id)
            return connection.scalar(query) or 0


@contextmanager
def database_probe(url: str) -> Iterator[Database]:
    probe = Database(url)
    try:
        yield probe
    finally:
        probe.dispose()


def check_action_log(db: Database, match_id: str) -> list[Any]:
    """The write-ahead log of one match: seq 1..n with no gap or duplicate, one room version per action,
    and no client message id applied twice by the same seat."""
    rows = db.actions(match_id)
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1)), f"log of {match_id} is not 1..n"
    versions = [row.room_version for row in rows]
    assert versions == sorted(set(versions)), f"room versions of {match_id} repeat or go back: {versions}"
    ids = [(row.seat, row.client_msg_id) for row in rows if row.client_msg_id is not None]
    assert len(ids) == len(set(ids)), f"a message id was applied twice in {match_id}"
    return rows
