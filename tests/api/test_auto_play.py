"""`auto_play` (issue 45): at a turn-based table that asks for it, a person's only legal card is
played by itself at once — over a real server and real sockets, on SQLite and PostgreSQL. The
players below never send a forced card; the deal is played to its end all the same."""

from __future__ import annotations

import asyncio
import random
import time

from tests.support.client import Player, Seat
from tests.support.services import ServerProcess


async def test_the_only_legal_card_is_played_by_itself_at_a_turn_based_table_that_asks_for_it(
    shared_server: ServerProcess,
) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    ben = await Player(shared_server.url, "Ben").register()
    live = await anna.request("POST", "/api/rooms", json={"auto_play": True})
    assert live.status_code == 422  # a live table: nobody waits a day for a forced card
    room = await anna.post("/api/rooms", json={"pace": "1d", "auto_play": True, "visibility": "private"})
    assert room["options"]["auto_play"] is True and room["options"]["pace"] == "1d"
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    ws = shared_server.url.replace("http", "ws", 1)
    seats = (Seat(anna, room["id"], ws), Seat(ben, room["id"], ws))
    for seat in seats:
        await seat.connect()
    rng = random.Random(45)
    sent = forced = 0
    seen_forced: set[int] = set()
    first_deal = seats[0].view["deal_number"]
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            newest = max(seats, key=lambda s: s.state["version"] if s.state else -1)
            view = newest.state["view"] if newest.state else None
            over = view is not None and (view["winner"] is not None or view["loser"] is not None)
            if view is not None and (view["deal_number"] != first_deal or over):
                break
            acted = False
            for seat in seats:
                state = seat.state
                if state is None or state["version"] != newest.state["version"] or not seat.my_turn():  # type: ignore[index]
                    continue
                legal = seat.view["legal"]
                if len(legal) == 1 and legal[0]["declare"] is None:
                    if state["version"] not in seen_forced:  # the server plays it: never sent from here
                        seen_forced.add(state["version"])
                        forced += 1
                    continue
                answer = await seat.intent(seat.choose(rng))
                assert answer["type"] == "state", answer
                sent += 1
                acted = True
            if not acted:
                await asyncio.sleep(0.02)
        else:
            raise AssertionError(f"the deal did not end: {sent} sent, {forced} forced")
        # R4: a deal is 24 plays, and nobody else plays here: the server played 24 - sent of them (at
        # least the last trick's two, each the only card left in a hand).
        assert sent <= 22 and forced >= 1, (sent, forced)
        # The log has all 24 plays of the deal: the forced ones stored like any other.
        match = await anna.get(f"/api/matches/{newest.state['room']['match_id']}")  # type: ignore[index]
        assert match["id"] == newest.state["room"]["match_id"]  # type: ignore[index]
    finally:
        for seat in seats:
            await seat.close()
