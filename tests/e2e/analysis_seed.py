"""Finished matches for the analysis pages (issue 26), seeded server-side and fast: one person plays
the computer (easy) through the real sockets — nothing through a browser — until at least
``min_deals`` deals are over and one of them the person lost, then resigns (R6.2), so the match is
finished and every deal before the resignation has a result. Shared by tests/e2e/test_analysis.py
and tests/e2e/test_analysis_layouts.py.

Two seats play two-hand 1001 (random legal cards); three and four a game with an auction (V2
McLeod, V7 1001 with bidding) where the person always calls the highest bid it may and then plays
at random: a contract it can hardly make, so the deal is lost and the analysis has a call to mark
(its better action written out, not a card) besides the cards.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from tests.support.client import Player
from tests.support.client import Seat as SocketSeat
from tests.support.services import ServerProcess
from tests.support.tables import choose, my_turn, table

T = TypeVar("T")
# A game per seat count: two-hand 1001 (R1–R7), McLeod (V2) for three, 1001 with bidding (V7) for four.
GAME_OF = {2: "twohand", 3: "mcleod", 4: "bidding"}


@dataclass(frozen=True)
class Seeded:
    """A finished match and the deal its person lost, with the person's identity for the browser."""

    match_id: str
    deal: int  # the number (from 0) of a deal the person lost
    deals: int  # how many deals of the match have a result
    seats: int
    player: dict[str, str]  # {id, name, token}: localStorage's 1001.player
    scores: list[int]  # the lost deal's score per seat (the person is seat 0)


class Loop:
    """An asyncio loop in a thread of its own: Playwright's sync API owns the test thread's loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def _history(seat: SocketSeat) -> list[dict[str, Any]]:
    view = seat.state["view"] if seat.state else None
    return list(view["history"]) if view else []


def _overbid(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The highest call the seat may make in the auction, else a random legal move."""
    if view["may_pass"] and view["bids"]:
        return {"type": "bid", "amount": max(view["bids"])}
    return choose(view, rng)


async def _lost_deal(server: ServerProcess, seats: int, rng: random.Random, min_deals: int, most: int) -> Seeded:
    (me,) = await table(server, GAME_OF[seats], seats, 1001, people=1)
    lost: int | None = None
    while True:
        history = _history(me)
        if lost is None and history and history[-1]["score"][0] < max(history[-1]["score"][1:]):
            lost = len(history) - 1
        if lost is not None and len(history) >= min_deals:
            break
        assert len(history) < most, f"the person did not lose a deal of {seats} in {most}: {history}"
        if not my_turn(me):
            await asyncio.sleep(0.01)
            continue
        answer = await me.intent(_overbid(me.view, rng))
        assert answer["type"] in ("state", "rejected"), answer
    assert (await me.resign())["type"] == "state"
    match_id = me.state["room"]["match_id"] if me.state else None
    assert match_id
    detail = await me.player.get(f"/api/matches/{match_id}")
    assert detail["status"] == "finished", detail
    await me.close()
    player = {"id": me.player.id, "name": me.player.name, "token": me.player.token}
    return Seeded(match_id, lost, len(detail["deals"]), seats, player, list(detail["deals"][lost]["score"]))


def lost_deal(loop: Loop, server: ServerProcess, seats: int, *, seed: int = 7, min_deals: int = 1) -> Seeded:
    """A finished match of ``seats`` (a person and the computer), at least ``min_deals`` deals with a
    result, and a deal of it the person lost."""
    return loop.run(_lost_deal(server, seats, random.Random(seed), min_deals, most=12))


async def _analysed(server: ServerProcess, seeded: Seeded, number: int, timeout: float) -> dict[str, Any]:
    person = Player(server.url, seeded.player["name"], seeded.player["id"], seeded.player["token"])
    path = f"/api/matches/{seeded.match_id}/deals/{number}/analysis"
    body: dict[str, Any] = await person.post(path)
    deadline = asyncio.get_running_loop().time() + timeout
    while body["status"] in ("queued", "running"):
        assert asyncio.get_running_loop().time() < deadline, f"the analysis did not finish: {body}"
        await asyncio.sleep(0.2)
        body = await person.get(path)
    assert body["status"] == "done", body
    return body


def analysed(loop: Loop, server: ServerProcess, seeded: Seeded, number: int | None = None) -> dict[str, Any]:
    """The deal's analysis as the server answers it once done (started through the API if need be)."""
    return loop.run(_analysed(server, seeded, seeded.deal if number is None else number, 90))
