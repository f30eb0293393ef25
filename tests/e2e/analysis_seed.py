"""Finished matches for the analysis pages (issue 26), seeded server-side and fast: one person plays
the computer through the real sockets (random legal moves, the computer at once) until a deal is over
that the person lost, then resigns, so the match is finished and every deal before the resignation
has a result. Shared by tests/e2e/test_analysis.py and tests/e2e/test_analysis_layouts.py; nothing
here goes through a browser.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from tests.support.client import Seat as SocketSeat
from tests.support.services import ServerProcess
from tests.support.tables import choose, my_turn, table

T = TypeVar("T")
TWO_HAND = "twohand"
# A game per seat count: two-hand 1001, "1000 for three" and "1000 for four" (V2, V5).
GAME_OF = {2: TWO_HAND, 3: "thousand3", 4: "thousand4"}


@dataclass(frozen=True)
class Seeded:
    """A finished match and the deal its person lost, with the person's identity for the browser."""

    match_id: str
    deal: int  # the deal's number (from 0) the person lost
    seats: int
    player: dict[str, str]  # {id, name, token}: localStorage's 1001.player
    scores: list[int]  # the deal's score per seat


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


async def _lost_deal(server: ServerProcess, seats: int, rng: random.Random, deals: int) -> Seeded:
    (me,) = await table(server, GAME_OF[seats], seats, 1001, people=1)
    lost: int | None = None
    while lost is None:
        history = _history(me)
        if history:
            last = history[-1]
            score = list(last["score"])
            if score[0] < max(score[1:]):
                lost = len(history) - 1
                break
            assert len(history) < deals, f"the person won {deals} deals of {seats} in a row: {history}"
        if not my_turn(me):
            await asyncio.sleep(0.01)
            continue
        answer = await me.intent(choose(me.view, rng))
        assert answer["type"] in ("state", "rejected"), answer
    assert (await me.resign())["type"] == "state"
    match_id = me.state["room"]["match_id"] if me.state else None
    assert match_id
    detail = await me.player.get(f"/api/matches/{match_id}")
    assert detail["status"] == "finished", detail
    deal = detail["deals"][lost]
    scores = list(deal["score"])
    await me.close()
    player = {"id": me.player.id, "name": me.player.name, "token": me.player.token}
    return Seeded(match_id, lost, seats, player, scores)


def lost_deal(loop: Loop, server: ServerProcess, seats: int, seed: int = 7, deals: int = 8) -> Seeded:
    """A finished match of ``seats`` (a person and the computer) and a deal of it the person lost."""
    return loop.run(_lost_deal(server, seats, random.Random(seed), deals))
