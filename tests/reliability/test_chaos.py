"""Chaos: the server is killed at many random points of many matches, and nothing is lost or doubled.

Several short matches (target 301) are played concurrently through real sockets, as fast as the
clients can go. Each round restarts the server and kills it again, in one of two ways:

* ``crash``: the server runs with ``CRASH_AFTER_COMMITS=N`` and exits with code 70 right after its
  Nth stored action, between the database commit and the broadcast — so that action is stored
  but nobody was told;
* ``sigkill``: a background thread sends SIGKILL after a random delay while moves are in flight.

After every restart the clients reconnect (new sockets, same players) and check that the room
never went back behind any version they had seen, and moved at most one version ahead — the
one intent that was in flight. That intent is sent again with the same id and version: if it was
applied before the crash, it is refused as ``stale_version``; if not, it is applied now. So it
is applied exactly once either way. At the end every match has finished, and the action log of
each match in the database is checked: seq 1..n with no gap or duplicate, one room version per
action, no message id applied twice, every move any client saw is in it at its version, and the
log replays to the final totals the clients saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, WebSocketException

from tests.support.client import Player, Seat, create_table
from tests.support.services import ServerProcess, database

from .helpers import Database, check_action_log, settlements_owed

pytestmark = pytest.mark.slow

CRASH_EXIT = 70


@dataclass
class Game:
    players: list[Player]
    room_id: str
    match_id: str
    ws_url: str
    seats: list[Seat] = field(default_factory=list)
    all_seats: list[Seat] = field(default_factory=list)
    last_version: int = 0
    pending: tuple[int, dict[str, Any], int] | None = None  # (seat, intent, deal number) sent, not answered
    next_id: int = 1
    finished: bool = False
    ahead: int = 0  # the room was found one action ahead of what any client had seen
    resent: dict[str, int] = field(default_factory=lambda: {"applied_before": 0, "applied_now": 0})

    def observe(self, state: dict[str, Any]) -> None:
        self.last_version = max(self.last_version, state["version"])
        view = state["view"]
        if view is not None and view["winner"] is not None:
            self.finished = True

    def turn(self) -> int | None:
        newest = max(seat.state["version"] for seat in self.seats if seat.state)
        for index, seat in enumerate(self.seats):
            if seat.state and seat.state["version"] == newest and seat.my_turn():
                return index
        return None

    async def reconnect(self) -> int:
        """New sockets after a restart; returns 1 if the room was one unseen action ahead, else 0."""
        self.seats = [Seat(player, self.room_id, self.ws_url) for player in self.players]
        self.all_seats += self.seats
        states = [await seat.connect() for seat in self.seats]
        version = max(state["version"] for state in states)
        assert version >= self.last_version, f"{self.room_id} went back from {self.last_version} to {version}"
        assert version <= self.last_version + 1, f"{self.room_id} jumped from {self.last_version} to {version}"
        self.ahead = version - self.last_version
        if self.ahead:
            assert self.pending is not None, "an action nobody asked for was applied"
        for state in states:
            self.observe(state)
        return self.ahead

    async def resend(self) -> None:
        """The client never saw an answer to its intent: it sends it again, same id, same version."""
        assert self.pending is not None
        index, intent, deal_number = self.pending
        seat = self.seats[index]
        version = self.last_version
        await seat.send_raw(json.dumps(intent))
        answer = await seat.answer(intent["id"])
        # Only the mover may act, so a version past the one the intent was made against is the intent's
        # own: the room came back one ahead, or the other seat saw the new state before the crash
        # while the mover's answer was lost with it.
        if version > intent["version"]:  # applied before: the same answer, rebuilt from the action log
            assert answer["type"] == "state" and answer["reply_to"] == intent["id"], answer
            assert answer["version"] == version, answer  # not applied a second time
            self.resent["applied_before"] += 1
        else:
            assert answer["type"] == "state" and answer["version"] == version + 1, answer
            self.resent["applied_now"] += 1
            self.observe(answer)
        self.pending = None
        view = seat.view
        assert intent["card"] not in view["deal"]["hand"] or view["deal_number"] != deal_number, "played twice?"
        for other in self.seats:
            if other.state is not None and other.state["version"] < self.last_version:
                await other.wait_for(lambda m: m["type"] == "state" and m["version"] >= self.last_version)

    async def play(self, rng: random.Random) -> None:
        """Random legal moves until the match is over or the server dies under us."""
        try:
            if self.pending is not None:
                await self.resend()
            while not self.finished:
                index = self.turn()
                if index is None:
                    await asyncio.sleep(0.002)
                    continue
                mover, other = self.seats[index], self.seats[1 - index]
                intent = {**mover.choose(rng), "id": self.next_id, "version": mover.state["version"]}
                self.next_id += 1
                self.pending = (index, intent, mover.view["deal_number"])
                await mover.send_raw(json.dumps(intent))
                answer = await mover.answer(intent["id"])
                self.pending = None
                assert answer["type"] == "state" and answer["version"] == intent["version"] + 1, answer
                self.observe(answer)
                seen = await other.wait_for(lambda m, v=answer["version"]: m["type"] == "state" and m["version"] >= v)
                self.observe(seen)
        except (ConnectionError, ConnectionClosed, OSError):
            return  # killed: the round is over

    async def close(self) -> None:
        for seat in self.seats:
            with contextlib.suppress(Exception):
                await seat.close()


async def new_game(server: ServerProcess) -> Game:
    anna, ben = await create_table(server.url, server.ws_url, {"target": 301, "stake_per_point": "0.01"})
    game = Game([anna.player, ben.player], anna.room_id, anna.state["room"]["match_id"], server.ws_url)
    game.seats = [anna, ben]
    game.all_seats += game.seats
    for seat in game.seats:
        game.observe(seat.state)
    return game


SETUP_FAILURES = (OSError, ConnectionError, WebSocketException, httpx.HTTPError, asyncio.TimeoutError)


async def top_up(games: list[Game], everything: list[Game], server: ServerProcess, tables: int) -> None:
    """New matches until ``tables`` are being played."""
    while len(games) < tables:
        games.append(await new_game(server))
        everything.append(games[-1])


def verify(game: Game, db: Database) -> int:
    """The action log of a finished match against everything its clients saw; returns its length."""
    assert game.finished, f"{game.room_id} did not finish"
    rows = check_action_log(db, game.match_id)
    assert all(row.room_version == row.seq + 1 for row in rows), "room versions and the log disagree"
    by_version = {row.room_version: row for row in rows}
    final = None
    for seat in game.all_seats:
        versions = [m["version"] for m in seat.messages if m["type"] == "state"]
        assert versions == sorted(versions), f"one socket saw versions go back: {versions}"
        for message in seat.messages:
            if message["type"] != "state":
                continue
            if final is None or message["version"] > final["version"]:
                final = message
            for event in message["events"]:
                if event["kind"] == "card_played":
                    row = by_version.get(message["version"])
                    assert row is not None, f"version {message['version']} was seen but is not in the log"
                    assert (row.seat, row.card) == (event["seat"], event["card"]), (row, event)
    assert final is not None and final["view"]["winner"] is not None
    assert db.room_version(game.room_id) == final["version"] == len(rows) + 1
    assert db.settlement_count(game.match_id) == settlements_owed(final)
    [match] = [m for m in db.matches() if m.id == game.match_id]
    assert match.status == "finished" and db.match_totals(game.match_id) == final["view"]["totals"]
    return len(rows)


async def run_chaos(server: ServerProcess, db: Database, *, tables: int, kills: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    modes: list[str | None] = ["crash", "sigkill"] * (kills // 2) + ["sigkill"] * (kills % 2)
    rng.shuffle(modes)
    modes.append(None)  # the last round: no kill, every match plays to its end
    report: dict[str, Any] = {"seed": seed, "crash": 0, "sigkill": 0, "ahead_after_crash": []}
    games: list[Game] = []
    everything: list[Game] = []
    for round_number, mode in enumerate(modes):
        server.env.pop("CRASH_AFTER_COMMITS", None)
        if mode == "crash":
            server.env["CRASH_AFTER_COMMITS"] = str(rng.randint(1, 30))
        await asyncio.to_thread(server.start)
        ahead = 0
        for game in games:
            ahead += await game.reconnect()
        if round_number and modes[round_number - 1] == "crash":
            report["ahead_after_crash"].append(ahead)
        games = [game for game in games if not game.finished]
        await top_up(games, everything, server, tables if mode else 0)
        killer = None
        if mode == "sigkill":
            killer = threading.Timer(rng.uniform(0.02, 0.5), server.kill)
            killer.start()
        while True:
            await asyncio.gather(*(game.play(random.Random(rng.random())) for game in games))
            if mode is None or not all(game.finished for game in games):
                break  # the last round is over, or the server died under the players
            if mode == "sigkill" and not (killer and killer.is_alive()):
                break  # the kill came just as the last matches ended
            games = []  # every match ended before the fault fired: new matches, same round
            try:
                await top_up(games, everything, server, tables)
            except SETUP_FAILURES:
                break  # killed while the new tables were being set
        assert server.process is not None
        if mode == "sigkill":
            assert killer is not None
            killer.join()
            assert await asyncio.to_thread(server.process.wait, 10) == -9
            report["sigkill"] += 1
        elif mode == "crash":
            assert await asyncio.to_thread(server.process.wait, 10) == CRASH_EXIT
            report["crash"] += 1
        for game in games:
            await game.close()
    assert all(game.finished for game in games)
    server.stop()
    report["matches"] = len(everything)
    report["actions"] = sum(verify(game, db) for game in everything)
    report["resent"] = {key: sum(game.resent[key] for game in everything) for key in ("applied_before", "applied_now")}
    # the crash exits between the commit and the broadcast: some room is always one action ahead
    assert all(ahead >= 1 for ahead in report["ahead_after_crash"]), report
    assert report["crash"] + report["sigkill"] == kills
    return report


@pytest.mark.parametrize(
    ("kind", "tables", "kills"),
    [("sqlite", 4, 8), pytest.param("postgres", 2, 4, marks=pytest.mark.postgres)],
)
async def test_sigkill_and_crash_after_commit(kind: str, tables: int, kills: int, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        server = ServerProcess(url, tmp_path / "server.log")
        db = Database(url)
        seed = random.randrange(10**6)
        try:
            report = await run_chaos(server, db, tables=tables, kills=kills, seed=seed)
        finally:
            server.stop()
            db.dispose()
    print(f"chaos {kind} (seed {seed}): {report}")
    assert report["crash"] == report["sigkill"] == kills // 2
    assert not server.errors()
