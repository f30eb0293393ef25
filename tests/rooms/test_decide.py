"""The life of a table as a pure function: every clock is a deadline and ``now`` an argument,
so absence (R6.2), rematch expiry and resent intents are checked in milliseconds."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from backend.db.writes import AbsenceWrite, ActionWrite, JoinWrite, LoggedAction, RematchOfferWrite, RematchStartWrite
from backend.engine import Rules
from backend.engine import view_for as seat_view
from backend.rooms import commands as cmd
from backend.rooms.codes import RoomCode
from backend.rooms.decide import Limits, clocks_settled, decide
from backend.rooms.effects import AskBot, Effect, Persist, Publish, Reject, SendChat, SendPresence, SendState, WakeAt
from backend.rooms.model import FreshMatch, RoomState, SeatHolder
from backend.rooms.options import TableOptions
from backend.rooms.ports import StoredRoom
from backend.rooms.sql_store import rebuild

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
ANNA, BEN = "p_anna", "p_ben"


def open_room(grace_s: int = 60, bot: str | None = None) -> RoomState:
    options = TableOptions(rules=Rules(target=301), stake_per_point=Decimal("0.5"), reconnect_grace_s=grace_s)
    return RoomState(
        id="r_1",
        invite_code="inv",
        visibility="public",
        options=options,
        status="open",
        created_at=T0,
        seats=(SeatHolder(ANNA, "Anna"), None),
        absence=(None, None),
    )


def step(state: RoomState, command: cmd.Command, now: datetime = T0) -> tuple[RoomState, list[Effect]]:
    return decide(state, command, now, Limits(rematch_timeout_s=30))


def started(present: tuple[str, ...] = (ANNA, BEN)) -> RoomState:
    state = open_room()
    for player in present:
        if player == ANNA:
            state, _ = step(state, cmd.Connect(ANNA))
    state, _ = step(state, cmd.Join(BEN, "Ben", None, FreshMatch("m_1", 12345)))
    if BEN in present:
        state, _ = step(state, cmd.Connect(BEN))
    return state


def mover(state: RoomState) -> tuple[str, str]:
    """(player to move, a legal card of theirs)."""
    assert state.match is not None
    seat = state.match.deal.turn
    assert seat is not None
    player = state.player_at(seat)
    assert player is not None
    return player, seat_view(state.match, seat).legal[0].card


def of(effects: list[Effect], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in effects if isinstance(e, kind)]


def test_join_starts_the_match_and_is_stored_first() -> None:
    state, effects = step(open_room(), cmd.Join(BEN, "Ben", None, FreshMatch("m_1", 7)))
    assert state.status == "playing" and state.version == 1 and state.match is not None
    assert isinstance(effects[0], Persist) and isinstance(effects[0].write, JoinWrite)
    assert of(effects, Publish)[0].events[0].kind == "match_started"


def test_a_play_is_persisted_before_it_is_published_and_bumps_the_version_once() -> None:
    state = started()
    player, card = mover(state)
    after, effects = step(state, cmd.PlayCard(player, 1, state.version, card, False))
    assert after.version == state.version + 1
    kinds = [type(e).__name__ for e in effects]
    assert kinds.index("Persist") < kinds.index("Publish")
    write = of(effects, Persist)[0].write
    assert isinstance(write, ActionWrite) and write.client_msg_id == 1 and write.expected_version == state.version


def test_a_stale_intent_is_refused_and_followed_by_the_state() -> None:
    state = started()
    player, card = mover(state)
    after, effects = step(state, cmd.PlayCard(player, 1, state.version - 1, card, False))
    assert after.version == state.version and after.match is state.match
    assert of(effects, Reject)[0].refusal.code == RoomCode.STALE_VERSION
    assert of(effects, SendState)


def test_an_illegal_play_changes_nothing() -> None:
    state = started()
    player, _ = mover(state)
    other = ANNA if player == BEN else BEN
    _, card = mover(state)
    after, effects = step(state, cmd.PlayCard(other, 1, state.version, card, False))
    assert of(effects, Reject)[0].refusal.code == "not_your_turn"
    assert after.match is state.match and after.version == state.version and not of(effects, Persist)


def test_a_resent_accepted_intent_gets_the_same_answer_and_is_not_applied_twice() -> None:
    state = started()
    player, card = mover(state)
    after, _ = step(state, cmd.PlayCard(player, 9, state.version, card, False))
    again, effects = step(after, cmd.PlayCard(player, 9, state.version, card, False))
    assert again == after
    assert effects == [SendState(player, reply_to=9)]


def test_resent_id_is_answered_from_the_action_log_after_a_rebuild() -> None:
    # After a restart ``answered`` is rebuilt from the log's client message ids (sql_store.rebuild).
    state = replace(started(), answered=frozenset({(ANNA, 41, 0)}))
    _, effects = step(state, cmd.PlayCard(ANNA, 41, 0, "AC", False))
    assert effects == [SendState(ANNA, reply_to=41)]


def test_a_reused_id_against_a_newer_version_is_a_new_intent() -> None:
    # A second device of the same player counts its ids from 1 again: only id *and* version make a resend.
    state = started()
    player, card = mover(state)
    reused = replace(state, answered=frozenset({(player, 1, state.version - 1)}))
    after, effects = step(reused, cmd.PlayCard(player, 1, state.version, card, False))
    assert after.version == state.version + 1 and of(effects, Persist)


def test_r6_2_absence_clock_starts_when_the_opponent_waits() -> None:
    state = started()
    gone, effects = step(state, cmd.Disconnect(BEN), T0)
    deadline = T0 + timedelta(seconds=60)
    assert gone.absence[1] == deadline
    assert AbsenceWrite("r_1", 1, deadline) in [e.write for e in of(effects, Persist)]
    assert WakeAt(deadline) in effects and SendPresence(1) in effects


def test_r6_2_absent_seat_forfeits_at_the_deadline_not_before() -> None:
    state, _ = step(started(), cmd.Disconnect(BEN), T0)
    early, effects = step(state, cmd.Tick(), T0 + timedelta(seconds=59))
    assert early.live and not of(effects, Persist)
    over, effects = step(state, cmd.Tick(), T0 + timedelta(seconds=60))
    assert over.match is not None and over.match.winner == 0 and over.match.end_reason == "absence"
    assert over.status == "finished" and over.stake is not None
    total = over.match.totals[1]
    assert over.stake.amount == Decimal("0.5") * (301 - total)  # R6.2: the totals as they stand
    write = of(effects, Persist)[0].write
    assert isinstance(write, ActionWrite) and write.action.reason == "absence"


def test_r6_2_returning_stops_the_clock() -> None:
    state, _ = step(started(), cmd.Disconnect(BEN), T0)
    back, effects = step(state, cmd.Connect(BEN), T0 + timedelta(seconds=10))
    assert back.absence == (None, None)
    assert AbsenceWrite("r_1", 1, None) in [e.write for e in of(effects, Persist)]
    still, _ = step(back, cmd.Tick(), T0 + timedelta(seconds=600))
    assert still.live


def test_r6_2_nobody_forfeits_while_both_are_away() -> None:
    state, _ = step(started(), cmd.Disconnect(BEN), T0)
    both, _ = step(state, cmd.Disconnect(ANNA), T0 + timedelta(seconds=5))
    assert both.absence == (None, None)
    later, _ = step(both, cmd.Tick(), T0 + timedelta(hours=1))
    assert later.live


def test_r6_2_a_clock_restored_from_its_stored_deadline_goes_on_from_there() -> None:
    deadline = T0 + timedelta(seconds=20)
    restored = replace(started(present=(ANNA,)), absence=(None, deadline))  # as sql_store.record_state builds it
    _, effects = step(restored, cmd.Tick(), T0)
    assert WakeAt(deadline) in effects
    over, _ = step(restored, cmd.Tick(), deadline)
    assert over.match is not None and over.match.end_reason == "absence"


def test_r6_2_a_restored_clock_of_a_player_who_is_here_is_stopped_by_the_next_tick() -> None:
    # a paused owner stored Ben's clock after the new owner had seen him come back: the room rebuilt
    # from the store has a running clock for a connected player
    deadline = T0 + timedelta(seconds=20)
    restored = replace(started(), absence=(None, deadline))
    assert not clocks_settled(restored)
    settled, effects = step(restored, cmd.Tick(), T0 + timedelta(seconds=1))
    assert settled.absence == (None, None) and clocks_settled(settled)
    assert AbsenceWrite("r_1", 1, None) in [e.write for e in of(effects, Persist)]
    assert settled.version == restored.version  # a clock is not a move
    later, _ = step(settled, cmd.Tick(), deadline)
    assert later.live  # nobody forfeits for a clock that should never have run (R6.2)
    # a clock that runs where R6.2 holds the seat is settled, and a tick before its deadline keeps it
    away, _ = step(started(), cmd.Disconnect(BEN), T0)
    assert clocks_settled(away)
    kept, effects = step(away, cmd.Tick(), T0 + timedelta(seconds=1))
    assert kept.absence == away.absence and not of(effects, Persist)


def finished() -> RoomState:
    state = started()
    player, _ = mover(state)
    over, _ = step(state, cmd.Resign(player, 5, state.version))
    assert over.status == "finished"
    return over


def test_rematch_offer_is_stored_with_its_deadline_and_lapses() -> None:
    over = finished()
    offered, effects = step(over, cmd.Rematch(ANNA, 6, over.version, "offer", FreshMatch("m_2", 1), None))
    assert offered.rematch is not None and offered.rematch.deadline == T0 + timedelta(seconds=30)
    assert isinstance(of(effects, Persist)[0].write, RematchOfferWrite)
    lapsed, effects = step(offered, cmd.Tick(), T0 + timedelta(seconds=30))
    assert lapsed.rematch is None and lapsed.version == offered.version + 1
    assert of(effects, Publish)[0].events[0].kind == "rematch"


def test_accepted_rematch_swaps_the_seats() -> None:
    over = finished()
    offered, _ = step(over, cmd.Rematch(ANNA, 6, over.version, "offer", FreshMatch("m_2", 1), None))
    again, effects = step(offered, cmd.Rematch(BEN, 7, offered.version, "accept", FreshMatch("m_2", 1), None))
    assert again.status == "playing" and again.match_id == "m_2"
    assert [h.player_id for h in again.seats if h] == [BEN, ANNA]
    assert isinstance(of(effects, Persist)[0].write, RematchStartWrite)


def test_rematch_refused_while_a_player_is_busy_elsewhere() -> None:
    over = finished()
    offered, _ = step(over, cmd.Rematch(ANNA, 6, over.version, "offer", FreshMatch("m_2", 1), None))
    same, effects = step(offered, cmd.Rematch(BEN, 7, offered.version, "accept", FreshMatch("m_2", 1), "Anna"))
    assert of(effects, Reject)[0].refusal.code == RoomCode.REMATCH_INVALID and same.match_id == over.match_id


def test_the_computer_is_asked_when_it_is_its_turn() -> None:
    state = open_room()
    state, effects = step(state, cmd.Join("p_bot_easy", "Computer", "easy", FreshMatch("m_1", 3)))
    assert state.match is not None
    if state.match.deal.turn == 1:
        assert AskBot(1, state.version) in effects
    else:
        assert not of(effects, AskBot)


def test_chat_goes_to_everyone_and_a_resend_only_echoes() -> None:
    state = started()
    after, effects = step(state, cmd.Chat(ANNA, 3, 0, "hi"), T0)
    [line] = of(effects, SendChat)
    assert line.text == "hi" and not line.echo_only and after.version == state.version
    _, effects = step(after, cmd.Chat(ANNA, 3, 0, "hi"), T0)
    assert of(effects, SendChat)[0].echo_only


def test_join_refusals_change_nothing() -> None:
    state = started()
    same, effects = step(state, cmd.Join("p_cleo", "Cleo", None, FreshMatch("m_9", 1)))
    assert same == state and of(effects, Reject)[0].refusal.code == RoomCode.ROOM_FULL


def test_rebuild_replays_the_log_and_keeps_its_answers_and_clocks() -> None:
    # Play a few moves through decide, log them as the store would, and rebuild from the log alone.
    state = started()
    logged = []
    for msg_id in range(1, 6):
        player, card = mover(state)
        state, effects = step(state, cmd.PlayCard(player, msg_id, state.version, card, False))
        write = of(effects, Persist)[0].write
        assert isinstance(write, ActionWrite)
        logged.append(LoggedAction(write.action, write.client_msg_id, write.expected_version))
    deadline = T0 + timedelta(seconds=42)
    empty = replace(state, match=None, seq=0, answered=frozenset(), deal_events=(), absence=(None, deadline))
    rebuilt = rebuild(StoredRoom(state=empty, seed=12345, actions=tuple(logged)))
    assert rebuilt.match is not None and state.match is not None and rebuilt.seq == 5
    assert (rebuilt.match.deal.hands, rebuilt.match.deal.stock) == (state.match.deal.hands, state.match.deal.stock)
    assert [seat_view(rebuilt.match, s) for s in (0, 1)] == [seat_view(state.match, s) for s in (0, 1)]
    assert rebuilt.answered == state.answered and rebuilt.deal_events == state.deal_events
    assert rebuilt.absence == (None, deadline)  # the stored clock, not a new one


CLEO = "p_cleo"


def finished_for_three(third: SeatHolder) -> RoomState:
    """A table of 1000 for three (V4) whose match ended by a resignation (V0.10a)."""
    options = TableOptions(rules=Rules("thousand3"), reconnect_grace_s=60)
    state = RoomState(
        id="r_3",
        invite_code="inv3",
        visibility="public",
        options=options,
        status="open",
        created_at=T0,
        seats=(SeatHolder(ANNA, "Anna"), None, None),
        absence=(None, None, None),
    )
    state, _ = step(state, cmd.Join(BEN, "Ben", None, FreshMatch("m_1", 5)))
    state, _ = step(state, cmd.Join(third.player_id, third.name, third.bot_level, FreshMatch("m_1", 5)))
    assert state.status == "playing"
    over, _ = step(state, cmd.Resign(BEN, 5, state.version))
    assert over.status == "finished"
    return over


def test_v0_10_a_rematch_of_three_people_starts_once_every_one_of_them_has_accepted() -> None:
    over = finished_for_three(SeatHolder(CLEO, "Cleo"))
    fresh = FreshMatch("m_2", 1)
    offered, _ = step(over, cmd.Rematch(ANNA, 6, over.version, "offer", fresh, None))
    half, effects = step(offered, cmd.Rematch(BEN, 7, offered.version, "accept", fresh, None))
    assert half.status == "finished" and half.rematch is not None and half.rematch.accepted == {1}
    [persist] = of(effects, Persist)
    assert persist.write == RematchOfferWrite("r_3", offered.version, 0, offered.rematch.deadline, (1,))  # type: ignore[union-attr]
    assert [e.action for e in of(effects, Publish)[0].events] == ["accept"]
    twice, effects = step(half, cmd.Rematch(BEN, 8, half.version, "accept", fresh, None))
    assert of(effects, Reject)[0].refusal.code == RoomCode.REMATCH_INVALID and twice.rematch == half.rematch
    again, effects = step(half, cmd.Rematch(CLEO, 9, half.version, "accept", fresh, None))
    assert again.status == "playing" and again.match_id == "m_2" and again.rematch is None
    assert [h.player_id for h in again.seats if h] == [BEN, CLEO, ANNA]  # the seats move on by one
    assert isinstance(of(effects, Persist)[0].write, RematchStartWrite)


def test_a_decline_by_any_of_three_people_ends_the_offer_for_all() -> None:
    over = finished_for_three(SeatHolder(CLEO, "Cleo"))
    fresh = FreshMatch("m_2", 1)
    offered, _ = step(over, cmd.Rematch(ANNA, 6, over.version, "offer", fresh, None))
    half, _ = step(offered, cmd.Rematch(BEN, 7, offered.version, "accept", fresh, None))
    gone, _ = step(half, cmd.Rematch(CLEO, 8, half.version, "decline", fresh, None))
    assert gone.rematch is None and gone.status == "finished"


def test_the_computer_seat_needs_no_asking_two_people_and_a_computer_start_on_the_second_accept() -> None:
    over = finished_for_three(SeatHolder("p_bot_easy_2", "Computer", "easy"))
    fresh = FreshMatch("m_2", 1)
    offered, _ = step(over, cmd.Rematch(BEN, 6, over.version, "offer", fresh, None))
    assert offered.status == "finished"  # Anna, a person, has not answered yet
    again, _ = step(offered, cmd.Rematch(ANNA, 7, offered.version, "accept", fresh, None))
    assert again.status == "playing" and again.match_id == "m_2"
