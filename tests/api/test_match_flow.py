"""Two scripted clients play whole matches over real sockets (R5, R6), on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from decimal import Decimal

from tests.support.client import create_table, play_moves
from tests.support.services import ServerProcess


async def test_r5_r6_whole_match_reaches_history_and_ledger(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(
        shared_server.url, shared_server.ws_url, {"target": 301, "stake_per_point": "0.05", "currency": "EUR"}
    )
    moves = await play_moves((anna, ben), random.Random(7))
    assert moves >= 24

    view = anna.view
    winner = view["winner"]
    totals = view["totals"]
    assert winner is not None and view["end_reason"] == "target"
    assert totals[winner] >= 301 and totals[winner] > totals[1 - winner]
    short = max(0, 301 - totals[1 - winner])
    expected = Decimal("0.05") * short
    for seat in (anna, ben):
        assert seat.state["stake"]["amount"] == str(expected)
        assert seat.state["stake"]["debtor_seat"] == 1 - winner

    winner_player, loser_player = (anna.player, ben.player) if winner == 0 else (ben.player, anna.player)
    for player in (anna.player, ben.player):
        page = await player.get("/api/matches")
        assert page["total"] == 1
        item = page["items"][0]
        assert item["status"] == "finished" and item["totals"] == totals
        assert item["result"] == ("won" if player is winner_player else "lost")
        assert Decimal(item["stake"]["amount"]) == expected
        detail = await player.get(f"/api/matches/{item['id']}")
        deals = detail["deals"]
        assert [d["number"] for d in deals] == list(range(len(deals)))
        assert deals[-1]["totals"] == totals
        running = [0, 0]
        for deal in deals:
            assert sum(deal["card_points"]) == 120  # R5
            running = [running[0] + deal["score"][0], running[1] + deal["score"][1]]
            assert deal["totals"] == running
            assert deal["dealer"] == (deals[0]["dealer"] + deal["number"]) % 2  # R2: the deal alternates

    [winner_entry] = await winner_player.get("/api/ledger")
    [loser_entry] = await loser_player.get("/api/ledger")
    assert winner_entry["played"] == loser_entry["played"] == 1
    assert winner_entry["won"] == 1 and loser_entry["won"] == 0
    assert Decimal(winner_entry["balance"]["EUR"]) == expected
    assert Decimal(loser_entry["balance"]["EUR"]) == -expected


async def test_r5_full_match_to_1001(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(
        shared_server.url, shared_server.ws_url, {"stake_per_point": "1", "currency": "chips"}
    )
    await play_moves((anna, ben), random.Random(11))
    totals = anna.view["totals"]
    winner = anna.view["winner"]
    assert max(totals) >= 1001 and totals[winner] == max(totals)
    assert anna.state["stake"]["amount"] == str(max(0, 1001 - totals[1 - winner]))


async def test_rematch_swaps_seats_and_ledger_accumulates(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url, {"target": 301, "stake_per_point": "2"})
    await play_moves((anna, ben), random.Random(3))
    offer = await anna.intent({"type": "rematch", "action": "offer"})
    assert offer["type"] == "state" and offer["room"]["rematch"]["offered_by"] == 0
    assert offer["room"]["rematch"]["deadline"]  # stored with the offer: a restart does not reset it
    await ben.wait_for(lambda m: m["type"] == "state" and m["room"]["rematch"] is not None)
    accepted = await ben.intent({"type": "rematch", "action": "accept"})
    assert accepted["type"] == "state" and accepted["room"]["status"] == "playing"
    assert accepted["view"]["seat"] == 0  # Ben sat at seat 1; the rematch swaps seats
    await anna.wait_for(lambda m: m["type"] == "state" and m["view"]["seat"] == 1)
    await play_moves((anna, ben), random.Random(4))
    [entry] = await anna.player.get("/api/ledger")
    assert entry["played"] == 2
    page = await anna.player.get("/api/matches?limit=1")
    assert page["total"] == 2 and len(page["items"]) == 1
