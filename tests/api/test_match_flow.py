"""Two scripted clients play whole matches over real sockets (R5, R6), on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from tests.support.client import create_table, play_moves
from tests.support.services import ServerProcess


def assert_owed(state: dict[str, Any] | None, amount: Decimal, debtor: int, short: int) -> None:
    """R6: the loser owes the stake for every point it is short of the target; a zero amount (the
    loser reached the target too) is owed by nobody: no stake, no settlement."""
    assert state is not None
    if not amount:
        assert state["stake"] is None and state["stakes"] == []
        return
    assert state["stakes"] == [state["stake"]]
    stake = state["stake"]
    assert Decimal(stake["amount"]) == amount and stake["amount"] == str(amount)
    assert (stake["debtor_seat"], stake["creditor_seat"], stake["points_short"]) == (debtor, 1 - debtor, short)


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
        assert_owed(seat.state, expected, debtor=1 - winner, short=short)

    winner_player, loser_player = (anna.player, ben.player) if winner == 0 else (ben.player, anna.player)
    for player in (anna.player, ben.player):
        page = await player.get("/api/matches")
        assert page["total"] == 1
        item = page["items"][0]
        assert item["status"] == "finished" and item["totals"] == totals
        assert item["result"] == ("won" if player is winner_player else "lost")
        if expected:
            assert Decimal(item["stake"]["amount"]) == expected and len(item["settlements"]) == 1
        else:  # the loser also reached the target: nothing is owed, nothing is listed (R6)
            assert item["stake"] is None and item["settlements"] == []
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
    if expected:
        assert Decimal(winner_entry["balance"]["EUR"]) == expected
        assert Decimal(loser_entry["balance"]["EUR"]) == -expected
    else:
        assert winner_entry["balance"] == loser_entry["balance"] == {}


async def test_r5_full_match_to_1001(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(
        shared_server.url, shared_server.ws_url, {"stake_per_point": "1", "currency": "chips"}
    )
    await play_moves((anna, ben), random.Random(11))
    totals = anna.view["totals"]
    winner = anna.view["winner"]
    assert max(totals) >= 1001 and totals[winner] == max(totals)
    short = max(0, 1001 - totals[1 - winner])
    assert_owed(anna.state, Decimal(short), debtor=1 - winner, short=short)


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
