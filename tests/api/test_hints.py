"""Hints against the computer through a real server and real sockets (docs/protocol.md, "Hints"): the
expert's choice for my seat, legal and with a known reason or none, never a card my seat may not see
(R7, V0.11); refused where the table offers none (off, a stake, another person), when it is not my
turn and on a stale version, each refusal leaving the game as it was; and the computer seats go on
while a hint is being worked out."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from backend.bots.reasons import REASON_CODES
from tests.support.client import Player, Seat, comparable_state, create_table
from tests.support.services import ServerProcess, serving
from tests.support.tables import choose, hidden_from, my_turn, strings, table, true_game


@pytest.fixture(scope="module")
def hint_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("hints"), BOT_DELAY_S="0") as process:
        yield process


async def ask_hint(seat: Seat, version: int | None = None) -> dict[str, Any]:
    """A hint's answer: the ``hint`` message replying to it, or its refusal."""
    msg_id = await seat.send({"type": "hint"} if version is None else {"type": "hint", "version": version})
    return await seat.wait_for(
        lambda m: (m["type"] == "hint" and m["reply_to"] == msg_id) or (m["type"] == "rejected" and m["id"] == msg_id),
        timeout=15,
    )


def intent_for(action: dict[str, Any]) -> dict[str, Any]:
    """The intent that carries out a hint's action (the replay frame's action shape)."""
    match action["kind"]:
        case "play":
            return {"type": "play", "card": action["card"], "declare": action["declare"]}
        case "bid":
            return {"type": "bid", "amount": action["amount"]}
        case "discard":
            return {"type": "discard", "cards": action["cards"]}
    return {"type": "pass"}


def assert_legal(action: dict[str, Any], view: dict[str, Any]) -> None:
    assert action["seat"] == view["seat"]
    match action["kind"]:
        case "play":
            [play] = [p for p in view["legal"] if p["card"] == action["card"]]
            assert not action["declare"] or play["declare"] is not None, action  # R3: only a K or Q of a pair
        case "bid":
            assert action["amount"] in view["bids"], action
        case "pass":
            assert view["may_pass"], action
        case "discard":
            assert view["must_discard"] and set(action["cards"]) <= set(view["deal"]["hand"]), action


@pytest.mark.parametrize(("variant", "seats"), [("twohand", 2), ("bidding", 3)])
async def test_a_hint_at_every_turn_of_a_deal_is_legal_and_shows_no_hidden_card(
    hint_server: ServerProcess, variant: str, seats: int
) -> None:
    [anna] = await table(hint_server, variant, seats, 301, people=1)
    assert anna.state is not None and anna.state["room"]["hints"] and anna.state["room"]["options"]["hints"]
    hints: list[dict[str, Any]] = []
    # One deal, or more until a hint has given a reason: a deal can go by without one (all its
    # turns plain), so the deals go on, bounded by the match's end.
    while not (ended(anna.messages, "match_over") or (over(anna.messages) and any(h["reason"] for h in hints))):
        if not my_turn(anna):
            await anna.wait_for(lambda m: m["type"] == "state")
            continue
        view = anna.view
        answer = await ask_hint(anna)
        assert answer["type"] == "hint", answer
        assert answer["version"] == anna.state["version"]  # type: ignore[index]
        assert_legal(answer["action"], view)
        assert answer["reason"] is None or answer["reason"] in REASON_CODES
        hints.append(answer)
        played = await anna.intent(intent_for(answer["action"]))  # the expert's line, played out
        assert played["type"] == "state", played
    assert hints
    game = true_game(hint_server.database_url, anna.room_id)
    for hint in hints:  # R7, V0.11: nothing in a hint my seat could not see at its version
        hidden = hidden_from(game.at(hint["version"]), 0)
        assert not hidden & set(strings(hint)), hint
    assert any(hint["reason"] is not None for hint in hints)


async def _unchanged_by(seat: Seat, hint_version: int | None, code: str) -> None:
    """A hint refused with ``code``, and the state it left: the same as before (asked with hello)."""
    assert seat.state is not None
    before = comparable_state(seat.state)
    answer = await ask_hint(seat, hint_version)
    assert answer["type"] == "rejected" and answer["code"] == code, answer
    await seat.send({"type": "hello"})
    after = await seat.wait_for(lambda m: m["type"] == "state")
    assert comparable_state(after) == before


async def test_a_hint_is_refused_where_the_table_offers_none_and_changes_nothing(hint_server: ServerProcess) -> None:
    anna = await Player(hint_server.url, "Anna").register()
    room = await anna.post("/api/rooms", json={"opponent": "computer", "bot_level": "easy", "hints": False})
    assert not room["hints"] and not room["options"]["hints"]  # the creator turned them off
    off = Seat(anna, room["id"], hint_server.ws_url)
    await off.connect()
    if not my_turn(off):
        await off.wait_for(lambda m: m["type"] == "state" and bool(m["view"]["legal"]))
    await _unchanged_by(off, None, "hints_off")

    for options in ({}, {"stake_per_point": "0.5"}):  # two people, for nothing and for a stake (R6)
        first, second = await create_table(hint_server.url, hint_server.ws_url, options)
        assert first.state is not None and not first.state["room"]["hints"]
        mover = first if first.my_turn() else second
        await _unchanged_by(mover, None, "hints_off")


async def test_hints_asked_for_where_they_may_not_be_offered_are_refused_at_creation(
    hint_server: ServerProcess,
) -> None:
    anna = await Player(hint_server.url, "Anna").register()
    for body in (
        {"hints": True},
        {"hints": True, "stake_per_point": "1"},
        {"variant": "bidding", "seats": 3, "computer_seats": 1, "hints": True},
    ):
        answer = await anna.request("POST", "/api/rooms", json={**body, "bot_level": "easy"})
        assert answer.status_code == 422 and answer.json()["detail"]["code"] == "hints_unavailable", answer.text
    room = await anna.post("/api/rooms", json={"opponent": "computer", "bot_level": "easy", "hints": True})
    assert room["hints"]


async def test_a_stale_hint_and_a_second_hint_in_flight_are_refused(hint_server: ServerProcess) -> None:
    [anna] = await table(hint_server, "twohand", 2, 301, people=1)
    if not my_turn(anna):
        await anna.wait_for(lambda m: m["type"] == "state" and bool(m["view"]["legal"]))
    assert anna.state is not None
    await _unchanged_by(anna, anna.state["version"] - 1, "stale_version")
    # One hint in flight per seat: a second one sent at once is refused hint_pending, the first answered.
    first = await anna.send({"type": "hint"})
    second = await ask_hint(anna)
    assert second["type"] == "rejected" and second["code"] == "hint_pending", second
    answer = await anna.wait_for(_answering(first), timeout=15)
    assert answer["type"] == "hint" and answer["reply_to"] == first


async def test_a_hint_out_of_turn_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    # The computer waits long before it moves here, so that it is its turn when the hint is asked.
    with serving("sqlite", tmp_path_factory.mktemp("slow"), BOT_DELAY_S="30") as slow:
        for _ in range(10):  # a table whose computer leads first (R2: the first dealer is drawn)
            [anna] = await table(slow, "twohand", 2, 301, people=1)
            if not my_turn(anna):
                await _unchanged_by(anna, None, "not_your_turn")
                await anna.close()
                return
            await anna.close()
        pytest.fail("the computer never led first")


def ended(messages: list[dict[str, Any]], *kinds: str) -> bool:
    return any(e["kind"] in kinds for m in messages if m["type"] == "state" for e in m["events"])


def over(messages: list[dict[str, Any]]) -> bool:
    """A deal (or the match) has ended."""
    return ended(messages, "deal_over", "match_over")


def _after(version: int) -> Callable[[dict[str, Any]], bool]:
    """My next turn (or the deal's end) after ``version``."""
    return lambda m: m["type"] == "state" and m["version"] > version and (bool(m["view"]["legal"]) or over([m]))


def _answering(msg_id: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m.get("reply_to") == msg_id or (m["type"] == "rejected" and m["id"] == msg_id)


async def test_the_computer_seats_do_not_wait_for_a_hint(hint_server: ServerProcess) -> None:
    """At a table of four (three computers), a hint asked and my card played at once: the computers'
    cards up to my next turn come before the hint's answer, which is then refused as stale (the table
    moved on) — the room never waited for it. The first round warms the pool up."""
    [anna] = await table(hint_server, "thousand4", 4, 301, people=1)
    rng = random.Random(26)
    waited_for = 0  # rounds in which the computers moved while the hint was being worked out
    round_ = 0
    while waited_for < 2 and not over(anna.messages):
        if not my_turn(anna):
            await anna.wait_for(lambda m: m["type"] == "state" and (bool(m["view"]["legal"]) or over([m])))
            continue
        if len(anna.view["legal"]) < 2:  # a forced card: the expert decides at once
            await anna.intent(choose(anna.view, rng))
            continue
        version: int = anna.state["version"]  # type: ignore[index]
        hint_id = await anna.send({"type": "hint"})
        after_my_turn = _after(version)
        answers_hint = _answering(hint_id)
        await anna.send(choose(anna.view, rng))
        back = await anna.wait_for(after_my_turn, timeout=15)
        early = [m for m in anna.messages if answers_hint(m)]
        if round_ and back["version"] > version + 1:  # the pool is warm, and the computers moved
            assert not early, "the computer seats waited for the hint"
            waited_for += 1
        answer = early[0] if early else await anna.wait_for(answers_hint)
        assert answer["type"] == "rejected" and answer["code"] == "stale_version", answer
        round_ += 1
    assert waited_for
