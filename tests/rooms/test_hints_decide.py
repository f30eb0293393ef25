"""Hints in ``decide`` (docs/protocol.md, "Hints"): when a table offers them (``rooms.hints``, one
rule), what a hint intent asks of the actor, one at a time per seat, and what comes back when the
table has moved on. Pure: no server, no clock but ``now``."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from backend.engine import Pass, Play, Rules
from backend.engine import view_for as seat_view
from backend.engine.cards import card
from backend.rooms import commands as cmd
from backend.rooms.cluster.wire import decode_command, encode_command
from backend.rooms.codes import RoomCode
from backend.rooms.decide import Limits, decide
from backend.rooms.effects import AskHint, Effect, Reject, SendHint, SendState
from backend.rooms.hints import hints_offered, hints_problem
from backend.rooms.model import FreshMatch, RoomState, SeatHolder
from backend.rooms.observer import hint_message, room_out, state_message
from backend.rooms.options import TableOptions, computer_seats

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
ANNA, BEN, BOT1, BOT2 = "p_anna", "p_ben", "p_bot1", "p_bot2"


def step(state: RoomState, command: cmd.Command) -> tuple[RoomState, list[Effect]]:
    return decide(state, command, T0, Limits())


def table(people: tuple[str, ...], bots: int, seats: int = 2, **options: object) -> RoomState:
    """A started table: ``people`` in the first seats, ``bots`` computers in the others (easy)."""
    rules = Rules(target=301) if seats == 2 else Rules("bidding", seats=seats)
    table_options = TableOptions(
        rules=rules,
        bot_level="easy" if bots else None,
        computer_seats=computer_seats(seats, bots),
        **options,  # type: ignore[arg-type]
    )
    holders: list[SeatHolder | None] = [None] * seats
    for seat, player in enumerate(people):
        holders[seat] = SeatHolder(player, player)
    for i, seat in enumerate(computer_seats(seats, bots)):
        holders[seat] = SeatHolder(f"p_bot{i + 1}", "Computer", "easy")
    last = holders.index(None) if None in holders else None
    state = RoomState(
        id="r_1",
        invite_code="inv",
        visibility="private",
        options=table_options,
        status="open",
        created_at=T0,
        seats=tuple(holders),
        absence=tuple(None for _ in holders),
    )
    if last is None:  # every seat taken: start the match by re-seating the last one
        *first, final = holders
        assert final is not None
        state = replace(state, seats=(*first, None))
        state, _ = step(
            state, cmd.Join(final.player_id, final.name, final.bot_level, FreshMatch("m_1", 4242), seats - 1)
        )
    return state


def on_turn(state: RoomState) -> RoomState:
    """The table with seat 0 (the person) on turn: the computer's moves made as needed."""
    assert state.match is not None
    while state.turn != 0:
        seat = state.turn
        assert seat is not None
        holder = state.seats[seat]
        assert holder is not None
        view = seat_view(state.match, seat)
        action = Pass() if view.may_pass else Play(card(view.legal[0].card))
        state, _ = step(state, cmd.command_for(holder.player_id, state.version, action))
        assert state.match is not None
    return state


def of(effects: list[Effect], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in effects if isinstance(e, kind)]


def refused(state: RoomState, player: str = ANNA, version: int | None = None) -> str:
    after, effects = step(state, cmd.Hint(player, 7, state.version if version is None else version))
    assert after.version == state.version and after.match is state.match and not after.hinting
    [reject] = of(effects, Reject)
    return reject.refusal.code


def test_the_rule_one_person_against_the_computer_for_nothing_and_unrated() -> None:
    two = TableOptions(rules=Rules(), bot_level="easy", computer_seats=(1,))
    assert hints_problem(two, people=1) is None
    assert hints_problem(two, people=2) is not None  # another person could object
    assert hints_problem(replace(two, stake_per_point=Decimal("0.1")), people=1) is not None  # R6: a stake
    people = TableOptions(rules=Rules())  # a rated match between people
    assert hints_problem(people, people=2) is not None


def test_hints_are_offered_at_a_table_against_the_computer_of_two_three_and_four() -> None:
    for seats in (2, 3, 4):
        state = table((ANNA,), seats - 1, seats)
        assert hints_offered(state) and room_out(state).hints
    assert not hints_offered(table((ANNA,), 1, hints=False))  # the creator turned them off


def test_hints_follow_the_seats_a_free_seat_or_a_second_person_turns_them_off() -> None:
    waiting = table((ANNA,), 1, 3)  # a table of three, one computer, one seat free: a person could sit down
    assert waiting.status == "open" and not hints_offered(waiting)
    filled, _ = step(waiting, cmd.Join(BOT2, "Computer", "easy", FreshMatch("m_1", 1), 1))
    assert filled.status == "playing" and hints_offered(filled)  # the fill-the-seats menu's computer
    two_people = table((ANNA, BEN), 1, 3)
    assert not hints_offered(two_people)


def test_a_hint_asks_the_pool_once_per_seat_and_leaves_the_table_as_it_was() -> None:
    state = on_turn(table((ANNA,), 1))
    asked, effects = step(state, cmd.Hint(ANNA, 1, state.version))
    assert effects == [AskHint(0, ANNA, 1, state.version)]
    assert asked.version == state.version and asked.match is state.match and asked.hinting == {0}
    _, again = step(asked, cmd.Hint(ANNA, 2, state.version))
    assert of(again, Reject)[0].refusal.code == RoomCode.HINT_PENDING  # one hint in flight per seat


def test_a_hint_is_refused_when_off_stale_not_my_turn_or_at_a_table_for_people() -> None:
    state = on_turn(table((ANNA,), 1))
    assert refused(on_turn(table((ANNA,), 1, hints=False))) == RoomCode.HINTS_OFF
    assert refused(state, version=state.version - 1) == RoomCode.STALE_VERSION
    assert refused(table((ANNA, BEN), 0)) == RoomCode.HINTS_OFF
    assert refused(state, player="p_stranger") == RoomCode.NOT_SEATED
    assert refused(table((ANNA,), 1, 3)) == RoomCode.HINTS_OFF  # a seat free: hints_offered says no
    moved = state
    while moved.turn == 0:  # seat 0 plays, so that the computer is on turn
        assert moved.match is not None
        view = seat_view(moved.match, 0)
        moved, _ = step(moved, cmd.PlayCard(ANNA, None, moved.version, view.legal[0].card, False))
    assert refused(moved) == "not_your_turn"


def test_a_stale_refusal_of_a_hint_sends_the_state_along() -> None:
    state = on_turn(table((ANNA,), 1))
    _, effects = step(state, cmd.Hint(ANNA, 3, state.version - 1))
    assert of(effects, SendState) == [SendState(ANNA)]


def test_the_ready_hint_is_sent_to_the_asker_only_if_the_table_is_still_there() -> None:
    state = on_turn(table((ANNA,), 1))
    assert state.match is not None
    play = Play(card(seat_view(state.match, 0).legal[0].card))
    asked, _ = step(state, cmd.Hint(ANNA, 1, state.version))
    done, effects = step(asked, cmd.HintReady(ANNA, 1, state.version, 0, play, "throws_low"))
    assert effects == [SendHint(ANNA, 1, state.version, 0, play, "throws_low")] and not done.hinting
    message = hint_message(effects[0]).model_dump(mode="json")
    assert message["action"] == {
        "seat": 0,
        "kind": "play",
        "card": seat_view(state.match, 0).legal[0].card,
        "declare": False,
    }
    assert message["reply_to"] == 1 and message["reason"] == "throws_low"
    # The table moved on meanwhile (the hint's version is gone): refused, no state (the player has it).
    moved = replace(asked, version=asked.version + 1)
    done, effects = step(moved, cmd.HintReady(ANNA, 1, state.version, 0, play, None))
    assert [e.refusal.code for e in of(effects, Reject)] == [RoomCode.STALE_VERSION] and not of(effects, SendState)
    assert not done.hinting
    # It failed or missed its deadline: refused hint_failed, the seat may ask again.
    done, effects = step(asked, cmd.HintReady(ANNA, 1, state.version, 0, None, None))
    assert of(effects, Reject)[0].refusal.code == RoomCode.HINT_FAILED and not done.hinting


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_state_tells_every_game_whether_hints_are_offered(seats: int) -> None:
    state = table((ANNA,), seats - 1, seats)
    assert state_message(state, ANNA).room.hints
    assert state_message(state, ANNA).room.options.hints


def test_a_hint_is_forwarded_to_the_rooms_owner_as_it_was_sent() -> None:
    hint = cmd.Hint(ANNA, 5, 12)
    assert decode_command(encode_command(hint)) == hint


def test_play_again_against_the_computer_keeps_the_hints() -> None:
    state = table((ANNA,), 3, 4)
    over, _ = step(state, cmd.Resign(ANNA, 1, state.version))  # R6.2, V0.10a: the match ends
    assert over.match is not None and over.match.over
    again, _ = step(over, cmd.Rematch(ANNA, 2, over.version, "offer", FreshMatch("m_2", 99), None))
    assert again.match_id == "m_2" and again.live  # the computer accepts at once; the seats moved on
    assert again.seats != state.seats and hints_offered(again) and room_out(again).hints
