"""Tables of every game of the family through real sockets, and the true game behind them.

``table`` seats people (and computer seats) at a new table of two-hand 1001 or of V2–V7 and starts
the match; ``play_to_the_end`` plays random legal moves from the seats' own views. ``true_game``
rebuilds the match at every version from the database (its seed and action log, through the
engine), ``hidden_from`` is what a seat — or a spectator — may not see at that moment (R7, V0.11),
and ``assert_no_leak`` checks every view and event a socket received against it. ``Watcher`` is a
spectator's socket; ``assert_watched_no_hidden_card`` checks what it was sent.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from backend.api.codes import PROTOCOL
from backend.api.messages import validate_server_message
from backend.db.action_log import action_record
from backend.db.store import Store
from backend.engine import MatchState, apply, name, new_game
from backend.engine.cards import cards_in
from backend.rooms.log import engine_action
from backend.rooms.options import TableOptions
from tests.support.client import Player, Seat
from tests.support.services import ServerProcess

TWO_HAND = "twohand"


async def table(
    server: ServerProcess, variant: str, seats: int, target: int, people: int, **options: Any
) -> list[Seat]:
    """``people`` players at a new table of ``variant`` (``twohand``: two-hand 1001, no variant in the
    request) for ``seats``, the other seats the computer's (easy); every person connected, the match
    started."""
    players = [await Player(server.url, who).register() for who in ("Anna", "Ben", "Cleo", "Dan")[:people]]
    body: dict[str, Any] = {"target": target, **options}
    if variant == TWO_HAND:
        assert seats == 2
        if people == 1:
            body |= {"opponent": "computer", "bot_level": "easy"}
    else:
        body |= {"variant": variant, "seats": seats, "computer_seats": seats - people}
        if seats - people:
            body["bot_level"] = "easy"
    room = await players[0].post("/api/rooms", json=body)
    assert room["options"]["variant"] == variant and len(room["players"]) == seats
    for player in players[1:]:
        await player.post(f"/api/invites/{room['invite_code']}/join")
    out = []
    for player in players:
        seat = Seat(player, room["id"], server.ws_url)
        await seat.connect()
        out.append(seat)
    for seat in out:  # the last join started the match: a seat connected before it hears of it
        if seat.state is None or seat.state["view"] is None:
            await seat.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    return out


def my_turn(seat: Seat) -> bool:
    view = seat.state["view"] if seat.state else None
    return bool(view and (view["legal"] or view["may_pass"] or view["must_discard"]))


def over(seat: Seat) -> bool:
    view = seat.state["view"] if seat.state else None
    return bool(view and view["end_reason"] is not None)


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal move from a seat's view: a bid (rarely high) or a pass, two discards, or a card."""
    if view["may_pass"]:
        if view["bids"] and rng.random() < 0.4:
            return {"type": "bid", "amount": min(view["bids"][: rng.randint(1, 3)])}
        return {"type": "pass"}
    if view["must_discard"]:
        return {"type": "discard", "cards": rng.sample(view["deal"]["hand"], 2)}
    play = rng.choice(view["legal"])
    return {"type": "play", "card": play["card"], "declare": play["declare"] is not None and rng.random() < 0.8}


async def play_to_the_end(seats: Sequence[Seat], rng: random.Random, limit: int = 5000) -> int:
    """Random legal moves of the people until the match is over (the computer plays its own seats)."""
    return await asyncio.wait_for(_play(seats, rng, limit), 120)


async def play_some(seats: Sequence[Seat], rng: random.Random, count: int) -> int:
    """``count`` random legal moves of the people (fewer if the match ends first): how many were made."""
    return await asyncio.wait_for(_play(seats, rng, None, stop=count), 120)


async def _play(seats: Sequence[Seat], rng: random.Random, limit: int | None, stop: int | None = None) -> int:
    moves = 0
    while not all(over(seat) for seat in seats) and moves != stop:
        movers = [seat for seat in seats if my_turn(seat)]
        if not movers:
            await asyncio.sleep(0.01)
            continue
        mover = movers[0]
        answer = await mover.intent(choose(mover.view, rng))
        if answer["type"] == "rejected":
            assert answer["code"] == "stale_version", answer  # another seat (a computer) moved meanwhile
            continue
        moves += 1
        assert limit is None or moves < limit, "the match did not end"
    return moves


# ---------------------------------------------------------------- the true game


@dataclass(frozen=True)
class TrueGame:
    """The room's current match as the engine rebuilds it from the database: the state after each
    stored action, with the room version that action made."""

    versions: tuple[int, ...]  # the room version after each action (the start: before the first)
    states: tuple[MatchState, ...]  # the match at the start, then after each action

    def at(self, version: int) -> MatchState:
        """The match a message of ``version`` describes: after the last action stored at or before it
        (a change of the room that is no action, a rematch offer say, leaves the match as it was)."""
        return self.states[bisect.bisect_right(self.versions, version)]

    @property
    def final(self) -> MatchState:
        return self.states[-1]

    @property
    def start(self) -> int:
        """The first version after the match started (its first action's)."""
        return self.versions[0] if self.versions else 0


def true_game(database_url: str, room_id: str) -> TrueGame:
    store = Store(database_url)
    try:
        stored = store.actions.load_room(room_id)
    finally:
        store.dispose()
    assert stored is not None and stored.match is not None
    rules = TableOptions.from_json(stored.match.options).rules
    states = [new_game(rules, int(stored.match.seed))]
    for row in stored.actions:
        states.append(apply(states[-1], row.seat, engine_action(action_record(row)))[0])
    return TrueGame(tuple(row.room_version for row in stored.actions), tuple(states))


def hidden_from(match: MatchState, seat: int | None) -> set[str]:
    """R7, V0.11: what ``seat`` (None: a spectator) may not see — every other hand, the stock (but its
    faced bottom card, R2), the talon until the declarer takes it, the discards unless it made them,
    and the deal's seed until the deal is over."""
    deal = match.deal
    hidden = {name(c) for other, hand in enumerate(deal.hands) if other != seat for c in cards_in(hand)}
    hidden |= {name(c) for c in deal.stock}
    if deal.stock_bottom is not None:
        hidden.discard(name(deal.stock_bottom))  # R2: the faced bottom card is public
    if not deal.talon_taken:  # once taken, the talon's cards are in the declarer's hand
        hidden |= {name(c) for c in deal.talon}
    if seat is None or deal.declarer != seat:
        hidden |= {name(c) for c in cards_in(deal.discards)}
    if not deal.over and deal.seed is not None:
        hidden.add(str(deal.seed))
    return hidden


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def assert_no_leak(messages: Sequence[dict[str, Any]], seat: int | None, game: TrueGame) -> int:
    """Each ``state`` (a spectator's ``watch_state``) a socket of ``seat`` received, against the true
    match of its version: no hidden card or seed in the view, nor in the events — but those of a
    deal's or the match's end, which the next deal's hands (or the last deal's) may hold by chance.
    Returns how many messages were checked."""
    kind = "state" if seat is not None else "watch_state"
    checked = 0
    for message in messages:
        if message["type"] != kind or message["view"] is None or message["version"] < game.start - 1:
            continue
        assert message["view"]["seat"] == seat
        hidden = hidden_from(game.at(message["version"]), seat)
        leaked = hidden & set(strings(message["view"]))
        assert not leaked, f"seat {seat}, version {message['version']}: the view shows {leaked}"
        if not any(e["kind"] in ("deal_over", "match_over") for e in message["events"]):
            leaked = hidden & set(strings(message["events"]))
            assert not leaked, f"seat {seat}, version {message['version']}: the events show {leaked}"
        for event in message["events"]:  # the redaction is real: what only another seat may see is left out
            if event["kind"] == "card_drawn" and event["seat"] != seat:
                assert event["card"] is None, event
            if event["kind"] in ("talon_taken", "discarded") and event["seat"] != seat:
                assert event["cards"] is None, event
        checked += 1
    return checked


# ---------------------------------------------------------------- spectators


class Watcher:
    """A spectator's socket, keeping every message (each checked against the server's models)."""

    def __init__(self, server: ServerProcess, room_id: str, code: str | None = None) -> None:
        self.url = f"{server.ws_url}/ws/rooms/{room_id}/watch?protocol={PROTOCOL}" + (f"&code={code}" if code else "")
        self.messages: list[dict[str, Any]] = []
        self.socket: ClientConnection | None = None
        self._inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> Watcher:
        self.socket = await connect(self.url, compression=None, open_timeout=10)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.socket is not None
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                validate_server_message(message)
                self.messages.append(message)
                self._inbox.put_nowait(message)
        except Exception:
            pass
        finally:
            self._inbox.put_nowait({"type": "_closed"})

    async def wait_for(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        async def scan() -> dict[str, Any]:
            while True:
                message = await self._inbox.get()
                if message["type"] == "_closed":
                    raise ConnectionError(f"closed with {self.close_code}")
                if predicate(message):
                    return message

        return await asyncio.wait_for(scan(), timeout)

    async def closed(self, timeout: float = 10) -> int | None:
        assert self._reader is not None
        await asyncio.wait_for(self._reader, timeout)
        return self.close_code

    @property
    def close_code(self) -> int | None:
        return None if self.socket is None else self.socket.close_code

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 5)


def assert_watched_no_hidden_card(database_url: str, room_id: str, seen: Sequence[dict[str, Any]]) -> None:
    """A spectator's ``watch_state`` messages, against the true match of each version: the seat view of
    nobody (no hand, nothing to do), no hand, stock, talon, discard or drawn card in the view or the
    events (R7, V0.11), never the invite code; versions only go up."""
    versions = [message["version"] for message in seen]
    assert versions == sorted(set(versions)), "a spectator was sent an older state after a newer one"
    for message in seen:
        assert message["type"] == "watch_state" and message["room"]["invite_code"] is None
        view = message["view"]
        if view is None:
            continue
        deal = view["deal"]
        assert view["seat"] is None and deal["hand"] is None and deal["my_card_points"] is None
        assert deal["talon"] is None and deal["discards"] is None
        assert (view["legal"], view["blocked"], view["bids"], view["may_pass"], view["must_discard"]) == (
            [],
            [],
            [],
            False,
            False,
        )
    assert assert_no_leak(seen, None, true_game(database_url, room_id)) > 0
