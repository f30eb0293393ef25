"""Ruling R6.3 in ``decide``, with ``now`` as an argument: a turn-based table's time per move (its
deadline stored with each move, restarted by every action), being offline is not absence there,
and a table at which every other seat is a computer never ends by the person's absence, whatever
its pace. Nothing here sleeps: each clock is a deadline handed a made-up ``now``."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from backend.db.writes import ActionWrite, JoinWrite, RematchOfferWrite, TurnWrite
from backend.engine import Rules
from backend.engine import view_for as seat_view
from backend.ops.housekeeping import evictable
from backend.rooms import commands as cmd
from backend.rooms.decide import Limits, decide
from backend.rooms.effects import AskBot, Effect, Persist, WakeAt
from backend.rooms.model import FreshMatch, RoomState, SeatHolder
from backend.rooms.options import PACES, TableOptions

T0 = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
ANNA, BEN, CLEO, BOT = "p_anna", "p_ben", "p_cleo", "p_bot_medium"


def table(pace: str = "1d", third: SeatHolder | None = None, bot: bool = False) -> RoomState:
    """A table of Anna and Ben (or Anna and the computer), started at T0, nobody connected."""
    rules = Rules(target=301) if third is None else Rules(variant="bidding", seats=3)
    options = TableOptions(rules=rules, stake_per_point=Decimal("0.5") if not bot else Decimal(0), pace=pace)  # type: ignore[arg-type]
    holders = [SeatHolder(ANNA, "Anna")]
    if third is not None:
        holders.append(SeatHolder(BEN, "Ben"))
    state = RoomState(
        id="r_1",
        invite_code="inv",
        visibility="public",
        options=replace(options, computer_seats=(len(holders),) if bot or (third and third.bot_level) else ()),
        status="open",
        created_at=T0,
        seats=(*holders, None),
        absence=tuple(None for _ in range(len(holders) + 1)),
    )
    last = third or (SeatHolder(BOT, "Computer", "medium") if bot else SeatHolder(BEN, "Ben"))
    state, _ = step(state, cmd.Join(last.player_id, last.name, last.bot_level, FreshMatch("m_1", 4242)))
    assert state.live
    return state


def step(state: RoomState, command: cmd.Command, now: datetime = T0) -> tuple[RoomState, list[Effect]]:
    return decide(state, command, now, Limits(rematch_timeout_s=30))


def writes(effects: list[Effect]) -> list[object]:
    return [effect.write for effect in effects if isinstance(effect, Persist)]


def on_turn(state: RoomState) -> tuple[int, str]:
    assert state.match is not None and state.turn is not None
    player = state.player_at(state.turn)
    assert player is not None
    return state.turn, player


def play(state: RoomState, now: datetime) -> tuple[RoomState, list[Effect]]:
    """The seat on turn (a person) plays its first legal card at ``now``."""
    seat, player = on_turn(state)
    assert state.match is not None
    card = seat_view(state.match, seat).legal[0].card
    return step(state, cmd.PlayCard(player, state.version + 100, state.version, card, False), now)


def test_the_paces_are_live_and_days_per_move_and_a_stored_pace_reads_back() -> None:
    assert PACES == ("live", "1d", "2d", "3d", "7d")
    for pace in PACES:
        options = TableOptions(rules=Rules(), pace=pace)
        assert TableOptions.from_json(options.to_json()) == options
        assert options.turn_based == (pace != "live")
    assert TableOptions(rules=Rules(), pace="7d").time_per_move == timedelta(days=7)
    assert "pace" not in TableOptions(rules=Rules()).to_json()  # tables stored before paces read as live
    with pytest.raises(ValueError, match="not a pace"):
        TableOptions.from_json({**TableOptions(rules=Rules()).to_json(), "pace": "5d"})


def test_r6_3_the_first_turn_is_stored_with_the_match_with_its_deadline() -> None:
    state = replace(table(), status="open", match=None, seats=(SeatHolder(ANNA, "Anna"), None))
    started, effects = step(state, cmd.Join(BEN, "Ben", None, FreshMatch("m_1", 4242)), T0)
    [join] = writes(effects)
    assert isinstance(join, JoinWrite) and join.match is not None
    assert join.match.turn == TurnWrite(started.turn, T0 + DAY)
    assert started.turn_deadline == T0 + DAY and WakeAt(T0 + DAY) in effects


def test_r6_3_being_offline_is_not_absence_at_a_turn_based_table() -> None:
    state = table()
    here, _ = step(state, cmd.Connect(ANNA), T0)
    gone, effects = step(here, cmd.Disconnect(ANNA), T0 + timedelta(minutes=1))
    assert gone.absence == (None, None) and writes(effects) == []  # no R6.2 clock for anybody
    later, effects = step(gone, cmd.Tick(), T0 + DAY - timedelta(seconds=1))
    assert later.live and writes(effects) == []


def test_r6_3_the_person_on_turn_who_lets_the_time_pass_has_abandoned_the_match() -> None:
    state = table()
    seat, _ = on_turn(state)
    over, effects = step(state, cmd.Tick(), T0 + DAY)
    assert over.match is not None and over.match.end_reason == "absence" and over.match.loser == seat
    assert over.status == "finished" and over.turn_deadline is None
    [write] = writes(effects)
    assert isinstance(write, ActionWrite) and write.action.seat == seat and write.action.reason == "absence"
    assert write.turn == TurnWrite(None, None)  # the stored turn is cleared with the match
    stake = over.stake
    assert stake is not None and stake.debtor_seat == seat  # R6.2: a loss with the totals as they stand
    assert stake.amount == Decimal("0.5") * (301 - over.match.totals[seat])


def test_r6_3_every_action_starts_a_fresh_time_per_move_for_the_seat_on_turn() -> None:
    state = table(pace="2d")
    moved, effects = play(state, T0 + timedelta(hours=30))
    [write] = writes(effects)
    assert isinstance(write, ActionWrite)
    assert write.turn == TurnWrite(moved.turn, T0 + timedelta(hours=30) + 2 * DAY)
    assert moved.turn_deadline == T0 + timedelta(hours=30) + 2 * DAY
    # The first deadline (T0 + 2 days) has passed; the new one has not.
    still, _ = step(moved, cmd.Tick(), T0 + 2 * DAY + timedelta(hours=1))
    assert still.live


def test_r6_3_a_deadline_restored_from_the_database_goes_on_from_there() -> None:
    state = table()
    restored = replace(state, turn_deadline=T0 + timedelta(hours=3))  # as sql_store.record_state reads it
    _, effects = step(restored, cmd.Tick(), T0)
    assert WakeAt(T0 + timedelta(hours=3)) in effects
    over, _ = step(restored, cmd.Tick(), T0 + timedelta(hours=3))
    assert over.match is not None and over.match.end_reason == "absence"


@pytest.mark.parametrize("pace", ["live", "3d"])
def test_r6_3_a_table_against_the_computer_never_ends_by_the_persons_absence(pace: str) -> None:
    state = table(pace=pace, bot=True)
    here, _ = step(state, cmd.Connect(ANNA), T0)
    gone, effects = step(here, cmd.Disconnect(ANNA), T0)
    assert gone.absence == (None, None) and writes(effects) == []
    if gone.person_on_turn:
        assert gone.turn_deadline is None  # nobody waits for the person
    later, effects = step(gone, cmd.Tick(), T0 + timedelta(days=30))
    assert later.live and not writes(effects)


def test_r6_3_the_computers_turn_at_a_turn_based_table_is_stored_as_due_at_once() -> None:
    state = table(bot=True)
    if state.person_on_turn:
        state, _ = play(state, T0 + timedelta(hours=5))
    assert not state.person_on_turn
    assert state.turn_deadline is not None and state.turn_deadline <= T0 + timedelta(hours=5)
    # The sweep finds it due: a Tick makes the computer play, it never resigns it.
    ticked, effects = step(state, cmd.Tick(), T0 + timedelta(days=3))
    assert ticked.live and AskBot(state.turn or 0, state.version) in effects and not writes(effects)


def test_r6_2_at_a_live_table_of_two_people_and_the_computer_a_person_waits_for_the_other() -> None:
    state = table(pace="live", third=SeatHolder(BOT, "Computer", "medium"))
    ben_here, _ = step(state, cmd.Connect(BEN), T0)
    both, _ = step(ben_here, cmd.Connect(ANNA), T0)
    gone, _ = step(both, cmd.Disconnect(ANNA), T0)
    assert gone.absence[0] == T0 + timedelta(seconds=120)  # Ben waits for Anna: R6.2 as before
    ben_gone, _ = step(gone, cmd.Disconnect(BEN), T0)
    assert ben_gone.absence == (None, None, None)  # only the computer is left: nobody waits


def test_r6_3_a_rematch_offer_at_a_turn_based_table_waits_the_time_per_move() -> None:
    state = table(pace="3d")
    over, _ = step(state, cmd.Resign(ANNA, 1, state.version), T0)
    offered, effects = step(over, cmd.Rematch(BEN, 2, over.version, "offer", FreshMatch("m_2", 5), None), T0)
    assert offered.rematch is not None and offered.rematch.deadline == T0 + 3 * DAY
    assert RematchOfferWrite("r_1", over.version, 1, T0 + 3 * DAY) in writes(effects)


def test_a_turn_based_table_waiting_for_a_person_may_leave_memory_a_live_one_may_not() -> None:
    waiting = table()
    assert waiting.resting and evictable(waiting, frozenset())
    assert not evictable(waiting, frozenset({ANNA}))  # somebody has it open
    assert not evictable(table(pace="live"), frozenset())
    bot = table(bot=True)
    if bot.person_on_turn:
        bot, _ = play(bot, T0)
    assert not bot.resting  # the computer is about to move: kept until it has
