"""DESIGN promise 3: a server killed mid-deal restarts from the action log and play goes on."""

from __future__ import annotations

import random

from tests.support.client import Seat, comparable_state, create_table, play_moves
from tests.support.services import ServerProcess


async def test_sigkill_mid_deal_then_both_players_finish_the_match(server: ServerProcess) -> None:
    anna, ben = await create_table(server.url, server.ws_url, {"target": 501, "stake_per_point": "0.10"})
    rng = random.Random(21)
    await play_moves((anna, ben), rng, max_moves=37)  # mid-deal: a trick is half played
    assert anna.view["winner"] is None
    before = {seat.player.name: comparable_state(seat.state) for seat in (anna, ben)}

    server.kill()
    server.start()

    back = [Seat(anna.player, anna.room_id, server.ws_url), Seat(ben.player, ben.room_id, server.ws_url)]
    for seat in back:
        state = await seat.connect()
        assert comparable_state(state) == before[seat.player.name]
    await play_moves((back[0], back[1]), rng)
    assert back[0].view["winner"] is not None

    page = await anna.player.get("/api/matches")
    [match] = page["items"]
    assert match["status"] == "finished" and match["totals"] == back[0].view["totals"]
    detail = await anna.player.get(f"/api/matches/{match['id']}")
    assert detail["deals"][-1]["totals"] == back[0].view["totals"]


async def test_unanswered_intent_during_a_crash_is_safe_to_resend(sqlite_server: ServerProcess) -> None:
    anna, ben = await create_table(sqlite_server.url, sqlite_server.ws_url, {"target": 301})
    mover = anna if anna.my_turn() else ben
    intent = {"type": "play", "id": 77, "version": mover.state["version"], "card": mover.legal_cards[0]}
    answer = await mover.intent(intent)
    assert answer["type"] == "state"
    sqlite_server.kill()
    sqlite_server.start()
    again = Seat(mover.player, mover.room_id, sqlite_server.ws_url)
    state = await again.connect()
    assert state["version"] == answer["version"]
    resent = await again.intent(intent)  # the client never saw the answer: it tries again
    # DESIGN promise 6: the answer is rebuilt from the action log, so it is the same as the first time.
    assert resent["type"] == "state" and resent["reply_to"] == 77, resent
    assert resent["version"] == answer["version"]  # applied once
    assert len(again.view["deal"]["hand"]) == len(answer["view"]["deal"]["hand"])


async def test_r6_2_an_absence_clock_survives_a_restart(sqlite_server: ServerProcess) -> None:
    anna, ben = await create_table(sqlite_server.url, sqlite_server.ws_url, {"reconnect_grace_s": 600})
    await ben.close()
    await anna.wait_for(lambda m: m["type"] == "presence" and m["seat"] == 1 and not m["connected"])
    await anna.send({"type": "hello"})
    state = await anna.wait_for(lambda m: m["type"] == "state" and not m["room"]["players"][1]["connected"])
    deadline = state["room"]["players"][1]["grace_deadline"]
    assert deadline is not None
    sqlite_server.kill()
    sqlite_server.start()
    back = Seat(anna.player, anna.room_id, sqlite_server.ws_url)
    state = await back.connect()
    # The clock goes on from the stored deadline, not from zero.
    assert state["room"]["players"][1]["grace_deadline"] == deadline
