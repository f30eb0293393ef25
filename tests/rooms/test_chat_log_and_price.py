"""The chat log a match keeps (bounded, stored, sent on connect) and the price of resigning (R6.2)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from decimal import Decimal

from backend.db.writes import ActionWrite, ChatWrite
from backend.engine import Rules
from backend.rooms import commands as cmd
from backend.rooms.decide import resign_price
from backend.rooms.effects import Persist, SendChat, SendChatLog, SendState
from backend.rooms.messages import server_message
from backend.rooms.model import CHAT_LOG_LINES, FreshMatch
from backend.rooms.observer import chat_log_message, state_message
from backend.rooms.options import TableOptions
from backend.rooms.ports import StoredRoom
from backend.rooms.sql_store import rebuild

from .test_decide import ANNA, BEN, T0, mover, of, open_room, started, step


def test_a_chat_line_is_stored_with_the_match_before_it_is_sent() -> None:
    state = started()
    after, effects = step(state, cmd.Chat(ANNA, 3, state.version, "hi"), T0)
    kinds = [type(e) for e in effects]
    assert kinds == [Persist, SendChat]
    write = of(effects, Persist)[0].write
    assert write == ChatWrite("m_1", 0, "hi", T0, keep=CHAT_LOG_LINES)
    assert [(line.seat, line.text, line.at) for line in after.chat] == [(0, "hi", T0)]
    assert after.version == state.version  # chat does not move the version


def test_the_chat_log_keeps_the_newest_lines_only() -> None:
    state = started()
    for n in range(CHAT_LOG_LINES + 5):
        state, _ = step(state, cmd.Chat(BEN, 100 + n, state.version, f"line {n}"), T0 + timedelta(seconds=n))
    assert len(state.chat) == CHAT_LOG_LINES
    assert state.chat[0].text == "line 5" and state.chat[-1].text == f"line {CHAT_LOG_LINES + 4}"


def test_a_resent_chat_line_is_not_logged_twice() -> None:
    state = started()
    once, _ = step(state, cmd.Chat(ANNA, 3, state.version, "hi"))
    twice, effects = step(once, cmd.Chat(ANNA, 3, state.version, "hi"))
    assert twice.chat == once.chat and not of(effects, Persist)


def test_every_connect_and_hello_sends_the_state_then_the_chat_log() -> None:
    state = started(present=(ANNA,))
    _, effects = step(state, cmd.Connect(BEN))
    sends = [e for e in effects if isinstance(e, SendState | SendChatLog)]
    assert sends == [SendState(BEN), SendChatLog(BEN)]
    _, effects = step(state, cmd.Hello(ANNA))
    assert effects == [SendState(ANNA), SendChatLog(ANNA)]


def test_the_chat_log_message_names_the_seats_and_validates() -> None:
    state, _ = step(started(), cmd.Chat(BEN, 1, 1, "<b>gg</b>"), T0)
    message = chat_log_message(state)
    data = message.model_dump(mode="json")
    assert data["type"] == "chat_log"
    assert data["lines"] == [{"seat": 1, "name": "Ben", "text": "<b>gg</b>", "at": "2026-11-30T12:00:00Z"}]
    server_message.validate_python(data)


def test_a_new_match_starts_a_new_chat_log() -> None:
    state, _ = step(started(), cmd.Chat(BEN, 1, 1, "gg"), T0)
    assert state.chat
    assert state.match is not None
    over = replace(state, match=replace(state.match, winner=0, end_reason="resign"), status="finished")
    offered, _ = step(over, cmd.Rematch(ANNA, 2, over.version, "offer", FreshMatch("m_2", 9), None))
    accepted, _ = step(offered, cmd.Rematch(BEN, 3, offered.version, "accept", FreshMatch("m_2", 9), None))
    assert accepted.match_id == "m_2" and accepted.chat == ()


def test_a_rebuilt_room_keeps_the_chat_log_it_was_given() -> None:
    state, _ = step(started(), cmd.Chat(BEN, 1, 1, "gg"), T0)
    empty = replace(state, match=None, seq=0, answered=frozenset(), deal_events=())
    rebuilt = rebuild(StoredRoom(state=empty, seed=12345, actions=()))
    assert rebuilt.chat == state.chat


# ---------------------------------------------------------------- R6.2: the price of resigning


def test_r6_2_the_resign_price_is_the_stake_the_resignation_records() -> None:
    state = started()  # 301 to play, 0.5 per point
    for msg_id in range(1, 9):  # a few plays, so that the totals need not be zero
        player, card = mover(state)
        state, _ = step(state, cmd.PlayCard(player, msg_id, state.version, card, False))
    for seat, player in ((0, ANNA), (1, BEN)):
        price = resign_price(state, seat)
        assert price is not None and price.debtor_seat == seat and price.creditor_seat == 1 - seat
        assert state.match is not None
        short = 301 - state.match.totals[seat]
        assert price.points_short == short and price.amount == Decimal("0.5") * short
        resigned, effects = step(state, cmd.Resign(player, 50, state.version))
        assert resigned.stake == price
        write = of(effects, Persist)[0].write
        assert (
            isinstance(write, ActionWrite) and write.end is not None and write.end.settlements[0].amount == price.amount
        )


def test_r6_2_the_state_message_carries_this_seats_price_only() -> None:
    state = started()
    for seat, player in ((0, ANNA), (1, BEN)):
        message = state_message(state, player)
        assert message.resign_price is not None and message.resign_price.debtor_seat == seat
        assert message.resign_price.amount == "150.5"  # 0.5 × 301, nothing scored yet
    assert state_message(state, "p_stranger").resign_price is None


def test_r6_2_no_price_without_a_stake_or_a_match_in_play() -> None:
    friendly = open_room()
    friendly = replace(friendly, options=TableOptions(rules=Rules(target=301), stake_per_point=Decimal(0)))
    friendly, _ = step(friendly, cmd.Join(BEN, "Ben", None, FreshMatch("m_1", 12345)))
    assert friendly.live and resign_price(friendly, 0) is None
    assert resign_price(open_room(), 0) is None
    state = started()
    over, _ = step(state, cmd.Resign(ANNA, 5, state.version))
    assert over.stake is not None and resign_price(over, 1) is None
    assert state_message(over, BEN).resign_price is None
