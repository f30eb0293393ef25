"""Every rejection code is provoked over a real socket, and the game is unchanged after it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from websockets.asyncio.client import connect

from backend.api.codes import PROTOCOL
from tests.support.client import RANK_ORDER, Player, Seat, comparable_state, create_table, play_moves
from tests.support.services import ServerProcess


async def _current(seat: Seat) -> dict[str, Any]:
    await seat.send({"type": "hello"})
    return await seat.wait_for(lambda m: m["type"] == "state")


async def _refused(seat: Seat, message: dict[str, Any], code: str) -> None:
    before = comparable_state(await _current(seat))
    answer = await seat.intent(message)
    assert answer["type"] == "rejected", answer
    assert answer["code"] == code, answer
    assert answer["version"] == before["version"]
    assert comparable_state(await _current(seat)) == before


def _expected_follow_code(hand: list[str], lead: str, trump: str | None, card: str) -> str | None:
    """R4 phase 2 computed independently from the engine: None if ``card`` is a legal follow."""
    same = [c for c in hand if c[1] == lead[1]]
    if same:
        if card[1] != lead[1]:
            return "must_follow_suit"
        higher = [c for c in same if RANK_ORDER.index(c[0]) < RANK_ORDER.index(lead[0])]
        if higher and card not in higher:
            return "must_beat"
        return None
    trumps = [c for c in hand if trump and c[1] == trump]
    if trumps and card not in trumps:
        return "must_trump"
    return None


async def _hunt_wrong_follows(seats: tuple[Seat, Seat], rng: random.Random, seen: set[str]) -> None:
    while True:
        current = [s for s in seats if s.my_turn()]
        if not current:
            return
        seat = current[0]
        deal = seat.view["deal"]
        if deal["stock_count"] == 0 and deal["trick"]["cards"]:  # R4 phase 2: the stock is empty
            lead_card = deal["trick"]["cards"][0]
            for card in deal["hand"]:
                code = _expected_follow_code(deal["hand"], lead_card, deal["trump"], card)
                if code is not None and code not in seen:
                    await _refused(seat, {"type": "play", "card": card}, code)
                    seen.add(code)
                    break
        version = seat.state["version"]
        answer = await seat.intent(seat.choose(rng))
        assert answer["type"] == "state"
        other = seats[1] if seat is seats[0] else seats[0]
        await other.wait_for(lambda m, v=version: m["type"] == "state" and m["version"] > v)


async def test_engine_codes_and_stale_version_leave_the_game_unchanged(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url, {"target": 1001})
    seats = (anna, ben)
    mover = next(s for s in seats if s.my_turn())
    waiter = ben if mover is anna else anna

    await _refused(waiter, {"type": "play", "card": waiter.view["deal"]["hand"][0]}, "not_your_turn")
    held = set(mover.view["deal"]["hand"])
    missing = next(c for c in waiter.view["deal"]["hand"] if c not in held)
    await _refused(mover, {"type": "play", "card": missing}, "card_not_held")
    await _refused(mover, {"type": "play", "card": "ZZ"}, "card_not_held")
    not_a_pair = next(p["card"] for p in mover.view["legal"] if p["declare"] is None)
    await _refused(mover, {"type": "play", "card": not_a_pair, "declare": True}, "cannot_declare")
    await _refused(mover, {"type": "play", "card": mover.legal_cards[0], "version": 0}, "stale_version")
    # One protocol for every game: the auction's and the talon's intents reach a two-hand table too,
    # whose deal is always in its play phase (V0.12: the phase is checked first, for either seat).
    two = mover.view["deal"]["hand"][:2]
    for seat in (mover, waiter):
        for intent in ({"type": "bid", "amount": 60}, {"type": "pass"}, {"type": "discard", "cards": two}):
            await _refused(seat, intent, "wrong_phase")

    # R3: declaring is only for the player on lead.
    lead = await mover.intent({"type": "play", "card": mover.legal_cards[0]})
    assert lead["type"] == "state"
    await waiter.wait_for(lambda m: m["type"] == "state" and m["version"] == lead["version"])
    await _refused(waiter, {"type": "play", "card": waiter.legal_cards[0], "declare": True}, "cannot_declare")

    # R4 phase 2: play random matches and try a wrong follow whenever one exists, until every code was seen.
    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(8):
        await _hunt_wrong_follows(seats, rng, seen)
        if seen == {"must_follow_suit", "must_beat", "must_trump"}:
            break
        seats = await create_table(shared_server.url, shared_server.ws_url, {"target": 1001})
    assert seen == {"must_follow_suit", "must_beat", "must_trump"}


async def test_match_over_and_rematch_codes(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url, {"target": 301})
    await _refused(anna, {"type": "rematch", "action": "offer"}, "rematch_invalid")
    resign = await anna.intent({"type": "resign"})
    assert resign["view"]["winner"] == 1 and resign["view"]["end_reason"] == "resign"  # R6.2
    await _refused(ben, {"type": "play", "card": "AC"}, "match_over")
    await _refused(ben, {"type": "resign"}, "match_over")
    await _refused(ben, {"type": "rematch", "action": "accept"}, "rematch_invalid")
    await _refused(ben, {"type": "rematch", "action": "withdraw"}, "rematch_invalid")
    await anna.intent({"type": "rematch", "action": "offer"})
    await _refused(anna, {"type": "rematch", "action": "accept"}, "rematch_invalid")
    await ben.wait_for(lambda m: m["type"] == "state" and m["room"]["rematch"] is not None)
    declined = await ben.intent({"type": "rematch", "action": "decline"})
    assert declined["room"]["rematch"] is None
    offer = await anna.wait_for(lambda m: m["type"] == "state" and m["room"]["rematch"] is None)
    assert any(e["kind"] == "rematch" and e["action"] == "decline" for e in offer["events"])


async def test_no_match_before_the_second_player(shared_server: ServerProcess) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    room = await anna.post("/api/rooms", json={})
    seat = Seat(anna, room["id"], shared_server.ws_url)
    state = await seat.connect()
    assert state["view"] is None and state["room"]["status"] == "open"
    answer = await seat.intent({"type": "play", "card": "AC"})
    assert answer["code"] == "no_match"


BAD_FRAMES = [
    "not json",
    "[1, 2]",
    '"play"',
    "{}",
    '{"type": "dance", "id": 1, "version": 1}',
    '{"type": "play", "id": 1, "version": 1}',
    '{"type": "play", "id": 1, "version": 1, "card": "AC", "extra": true}',
    '{"type": "play", "id": "1", "version": 1, "card": "AC"}',
    '{"type": "play", "id": 1, "version": 1, "card": "AC", "declare": "yes"}',
    '{"type": "play", "id": 1, "version": 99999999999999999999999, "card": "AC"}',
    '{"type": "chat", "id": 1, "version": 1, "text": ""}',
    '{"type": "chat", "id": 1, "version": 1, "text": "' + "x" * 201 + '"}',
    '{"type": "rematch", "id": 1, "version": 1, "action": "maybe"}',
]


async def test_bad_message_is_answered_and_changes_nothing(shared_server: ServerProcess) -> None:
    anna, _ben = await create_table(shared_server.url, shared_server.ws_url)
    before = comparable_state(await _current(anna))
    for frame in BAD_FRAMES:
        await anna.send_raw(frame)
        answer = await anna.wait_for(lambda m: m["type"] == "rejected")
        assert answer["code"] == "bad_message" and answer["message"], frame
        assert comparable_state(await _current(anna)) == before, frame


async def test_binary_and_oversize_frames(shared_server: ServerProcess) -> None:
    anna, _ben = await create_table(shared_server.url, shared_server.ws_url)
    await anna.send_raw(b"\x00\x01")
    assert (await anna.wait_for(lambda m: m["type"] == "rejected"))["code"] == "bad_message"
    await anna.send_raw(json.dumps({"type": "chat", "id": 1, "version": 1, "text": "x" * 10_000}))
    with pytest.raises(ConnectionError):
        await anna.wait_for(lambda m: False)
    assert anna.close_code == 1009


async def test_resending_a_message_id_never_applies_it_twice(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url)
    mover = anna if anna.my_turn() else ben
    message = {"type": "play", "id": 500, "version": mover.state["version"], "card": mover.legal_cards[0]}
    first = await mover.intent(message)
    assert first["type"] == "state"
    again = await mover.intent(message)
    assert again["type"] == "state" and again["version"] == first["version"]
    assert len(again["view"]["deal"]["hand"]) == len(first["view"]["deal"]["hand"])
    chat = {"type": "chat", "id": 501, "version": 0, "text": "hi"}
    await mover.intent(chat)
    await mover.intent(chat)
    other = ben if mover is anna else anna
    await other.wait_for(lambda m: m["type"] == "chat")
    await _current(other)
    assert sum(1 for m in other.messages if m["type"] == "chat") == 1


async def test_rate_limited_then_closed(database_url: str, tmp_path: Any) -> None:
    server = ServerProcess(database_url, tmp_path / "server.log", RATE_LIMIT_INTENTS="5", RATE_LIMIT_WINDOW_S="60")
    server.start()
    try:
        anna, _ben = await create_table(server.url, server.ws_url)
        for _ in range(5):
            await anna.intent({"type": "chat", "text": "hello"})
        limited = await anna.intent({"type": "chat", "text": "one too many"})
        assert limited["type"] == "rejected" and limited["code"] == "rate_limited"
        for _ in range(12):
            await anna.send({"type": "chat", "text": "flood"})
        with pytest.raises(ConnectionError):
            await anna.wait_for(lambda m: False)
        assert anna.close_code == 1008
    finally:
        server.stop()


@pytest.mark.parametrize("case", ["no_token", "wrong_token", "unknown_room", "not_seated"])
async def test_handshake_refusals_have_documented_close_codes(shared_server: ServerProcess, case: str) -> None:
    anna, _ben = await create_table(shared_server.url, shared_server.ws_url)
    stranger = await Player(shared_server.url, "Cleo").register()
    room, token, code = anna.room_id, anna.player.token, 4401
    if case == "no_token":
        token = ""
    elif case == "wrong_token":
        token = "x" * 43
    elif case == "unknown_room":
        room, code = "r_nope", 4404
    else:
        token, code = stranger.token, 4403
    async with connect(f"{shared_server.ws_url}/ws/rooms/{room}?token={token}&protocol={PROTOCOL}") as socket:
        with pytest.raises(Exception):  # noqa: B017 - the server closes; the message type does not matter
            await socket.recv()
        assert socket.close_code == code


async def test_wrong_origin_is_refused(shared_server: ServerProcess) -> None:
    anna, _ben = await create_table(shared_server.url, shared_server.ws_url)
    url = f"{shared_server.ws_url}/ws/rooms/{anna.room_id}?token={anna.player.token}&protocol={PROTOCOL}"
    with pytest.raises(Exception):  # noqa: B017 - refused during or right after the handshake
        async with connect(url, origin="http://evil.example") as socket:
            await socket.recv()
    async with connect(url, origin=shared_server.url) as socket:
        assert json.loads(await socket.recv())["type"] == "state"


async def test_played_cards_stay_consistent_after_random_rejections(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url, {"target": 301})
    rng = random.Random(9)
    for _ in range(30):
        seat = anna if anna.my_turn() else ben
        await seat.intent({"type": "play", "card": rng.choice(["AC", "9D", "ZZ", "KH"]), "version": 1})
    moves = await play_moves((anna, ben), rng)
    assert moves > 0 and anna.view["winner"] is not None
