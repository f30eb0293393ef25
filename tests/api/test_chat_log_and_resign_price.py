"""The chat log comes back on every (re)connect, also after a restart; resigning costs what it said (R6.2)."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from tests.support.client import Seat, create_table, play_moves
from tests.support.services import ServerProcess


def _lines(message: dict[str, Any]) -> list[tuple[int, str, str]]:
    return [(line["seat"], line["name"], line["text"]) for line in message["lines"]]


async def _connect_with_log(seat: Seat) -> dict[str, Any]:
    """Connect, and return the chat log, which must be the message right after the first state."""
    await seat.connect()
    first = len(seat.messages)
    log = await seat.wait_for(lambda m: m["type"] == "chat_log")
    index = seat.messages.index(log)
    states = [i for i, m in enumerate(seat.messages) if m["type"] == "state"]
    assert index == states[0] + 1 and first >= 1, [m["type"] for m in seat.messages]
    return log


async def test_a_reconnect_gets_the_chat_log_right_after_the_state(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url)
    await anna.intent({"type": "chat", "text": "hello <b>Ben</b>"})
    await ben.wait_for(lambda m: m["type"] == "chat")
    await ben.intent({"type": "chat", "text": "hi Anna"})
    await ben.close()
    back = Seat(ben.player, ben.room_id, shared_server.ws_url)
    log = await _connect_with_log(back)
    anna_seat = anna.view["seat"]
    assert _lines(log) == [(anna_seat, "Anna", "hello <b>Ben</b>"), (1 - anna_seat, "Ben", "hi Anna")]
    assert all(line["at"] for line in log["lines"])
    back.next_id = ben.next_id  # like the browser, which keeps counting its message ids across reloads
    await back.intent({"type": "chat", "text": "back again"})  # live lines still come as `chat`
    line = await anna.wait_for(lambda m: m["type"] == "chat" and m["text"] == "back again")
    assert line["name"] == "Ben"


async def test_the_chat_log_survives_a_restart(sqlite_server: ServerProcess) -> None:
    anna, _ben = await create_table(sqlite_server.url, sqlite_server.ws_url)
    await anna.intent({"type": "chat", "text": "before the crash"})
    sqlite_server.kill()
    sqlite_server.start()
    back = Seat(anna.player, anna.room_id, sqlite_server.ws_url)
    log = await _connect_with_log(back)
    assert [line["text"] for line in log["lines"]] == ["before the crash"]


async def test_r6_2_the_price_shown_before_resigning_is_the_stake_recorded(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(
        shared_server.url, shared_server.ws_url, {"target": 301, "stake_per_point": "0.05", "currency": "EUR"}
    )
    await play_moves((anna, ben), random.Random(5), max_moves=12)
    await anna.send({"type": "hello"})
    current = await anna.wait_for(lambda m: m["type"] == "state")
    price = current["resign_price"]
    me = current["view"]["seat"]
    assert price is not None and price["debtor_seat"] == me and price["currency"] == "EUR"
    assert Decimal(price["amount"]) == Decimal("0.05") * (301 - current["view"]["totals"][me])
    assert ben.state is not None and ben.state["resign_price"]["debtor_seat"] == 1 - me  # each sees its own

    after = await anna.intent({"type": "resign"})
    assert after["type"] == "state" and after["stake"] == price
    assert after["resign_price"] is None  # the match is over
    [match] = (await anna.player.get("/api/matches"))["items"]
    assert match["stake"]["amount"] == price["amount"] and match["end_reason"] == "resign"


async def test_r6_2_a_friendly_match_has_no_price(shared_server: ServerProcess) -> None:
    anna, _ben = await create_table(shared_server.url, shared_server.ws_url, {"target": 301})
    assert anna.state is not None and anna.state["resign_price"] is None
