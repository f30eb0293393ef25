"""R7 over the wire: no message to a seat ever names a card it may not see.

Random matches are played through real sockets; afterwards the true game is rebuilt from
the database (seed and action log) at every version, and each message a seat received is
checked against the cards hidden from that seat at that moment.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from backend.db.store import Store
from backend.engine import MatchState, Play, Resign, card, name, new_match
from backend.engine import match as match_rules
from backend.engine.cards import cards_in
from backend.rooms.options import TableOptions
from tests.support.client import Seat, create_table, play_moves
from tests.support.services import ServerProcess


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _hidden_from(match: MatchState, seat: int) -> set[str]:
    deal = match.deal
    hidden = {name(c) for c in cards_in(deal.hands[1 - seat])} | {name(c) for c in deal.stock}
    if deal.stock_bottom is not None:
        hidden.discard(name(deal.stock_bottom))  # R2: the faced bottom card is public
    if not deal.over:
        hidden.add(str(deal.seed))  # R7: no deal's seed before it has ended
    return hidden


def _true_states(store: Store, room_id: str) -> tuple[list[MatchState], int]:
    stored = store.load_room(room_id)
    assert stored is not None and stored.match is not None
    rules = TableOptions.from_json(stored.match.options).rules
    states = [new_match(rules, int(stored.match.seed))]
    for action in stored.actions:
        move = Play(card(action.card), action.declare) if action.kind == "play" else Resign(action.reason or "resign")
        states.append(match_rules.apply(states[-1], action.seat, move)[0])
    first_version = stored.actions[0].room_version - 1 if stored.actions else stored.room.version
    return states, first_version


def _assert_no_leak(seat: Seat, seat_index: int, states: list[MatchState], first_version: int) -> int:
    checked = 0
    for message in seat.messages:
        if message["type"] != "state" or message["view"] is None:
            continue
        hidden = _hidden_from(states[message["version"] - first_version], seat_index)
        leaked = hidden & set(_strings(message["view"]))
        assert not leaked, f"version {message['version']}: the view shows {leaked}"
        if not any(e["kind"] == "deal_over" for e in message["events"]):
            leaked = hidden & set(_strings(message["events"]))
            assert not leaked, f"version {message['version']}: the events show {leaked}"
        checked += 1
    return checked


async def test_r7_no_message_names_a_hidden_card(shared_server: ServerProcess) -> None:
    store = Store(shared_server.database_url)
    try:
        for game in range(4):
            options = {"target": 301, "show_stock_bottom": game % 2 == 1, "open_scores": game == 3}
            anna, ben = await create_table(shared_server.url, shared_server.ws_url, options)
            await play_moves((anna, ben), random.Random(game))
            states, first_version = _true_states(store, anna.room_id)
            assert states[-1].over
            for seat, index in ((anna, 0), (ben, 1)):
                assert _assert_no_leak(seat, index, states, first_version) > 20
            # The redaction is real: the other seat's drawn cards arrive unnamed.
            drawn = [e for m in anna.messages if m["type"] == "state" for e in m["events"] if e["kind"] == "card_drawn"]
            assert {e["card"] is None for e in drawn if e["seat"] == 1} == {True}
            assert all(e["card"] for e in drawn if e["seat"] == 0)
    finally:
        store.dispose()
