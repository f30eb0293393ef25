"""R7 and V0.11 over the wire: no message to a seat ever names a card it may not see.

Random matches are played through real sockets; afterwards the true game is rebuilt from the
database (seed and action log) at every version, and each message a seat received is checked
against the cards hidden from that seat at that moment (``tests.support.tables``). Every variant's
whole match is checked the same way in tests/api/test_variants.py, spectators in
tests/api/test_spectators.py.
"""

from __future__ import annotations

import random

import pytest

from tests.support.client import create_table, play_moves
from tests.support.services import ServerProcess
from tests.support.tables import assert_no_leak, true_game

OPTIONS = [
    {"target": 301},
    {"target": 301, "show_stock_bottom": True},  # R2: the faced bottom card is public
    {"target": 301, "open_scores": True},  # R7: everyone's card points, still no card
    {"target": 301, "deck_size": 32, "jungfrau": True},  # V1, V6
]


@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "stock_bottom", "open_scores", "v1_32_cards"])
async def test_r7_no_message_names_a_hidden_card(shared_server: ServerProcess, options: dict[str, object]) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url, options)
    await play_moves((anna, ben), random.Random(str(options)))
    game = true_game(shared_server.database_url, anna.room_id)
    assert game.final.over
    for seat, index in ((anna, 0), (ben, 1)):
        assert assert_no_leak(seat.messages, index, game) > 20
    # The redaction is real: the other seat's drawn cards arrive unnamed, one's own named.
    drawn = [e for m in anna.messages if m["type"] == "state" for e in m["events"] if e["kind"] == "card_drawn"]
    assert {e["card"] is None for e in drawn if e["seat"] == 1} == {True}
    assert all(e["card"] for e in drawn if e["seat"] == 0)
    first = next(m["view"]["deal"] for m in anna.messages if m["type"] == "state" and m["view"] is not None)
    assert (first["stock_bottom"] is not None) is bool(options.get("show_stock_bottom"))  # R2
