"""Quick reactions as pure decisions (issue 27): the fixed set, the per-seat limit by the command's
own time (``now`` is an input), mute per player, and resends answered without counting twice."""

from __future__ import annotations

from datetime import timedelta

from backend.rooms import commands as cmd
from backend.rooms.codes import RoomCode
from backend.rooms.decide import Limits, decide
from backend.rooms.effects import Persist, Reject, SendReaction, SendState
from backend.rooms.model import RoomState
from backend.rooms.reactions import REACTIONS, ReactionLimits, admit
from tests.rooms.test_decide import ANNA, BEN, T0, of, started

LIMITS = Limits(reactions=ReactionLimits(count=3, window_s=10))


def react(state: RoomState, player: str, msg_id: int, code: str, seconds: float = 0) -> tuple[RoomState, list]:  # type: ignore[type-arg]
    return decide(state, cmd.React(player, msg_id, state.version, code), T0 + timedelta(seconds=seconds), LIMITS)


def test_a_reaction_is_sent_with_the_senders_seat_and_changes_no_version() -> None:
    state = started()
    after, effects = react(state, BEN, 1, "well_played")
    [sent] = of(effects, SendReaction)
    assert (sent.seat, sent.reaction, sent.sender, sent.at) == (1, "well_played", BEN, T0)
    assert after.version == state.version and after.match == state.match


def test_an_unknown_code_or_a_stranger_is_refused_and_nothing_changes() -> None:
    state = started()
    after, effects = react(state, ANNA, 1, "boo")
    assert [e.refusal.code for e in of(effects, Reject)] == [RoomCode.UNKNOWN_REACTION]
    assert not of(effects, SendReaction) and after.reacted == state.reacted
    _, effects = react(state, "p_stranger", 2, "oops")
    assert [e.refusal.code for e in of(effects, Reject)] == [RoomCode.NOT_SEATED]


def test_the_limit_is_per_seat_and_frees_up_as_the_window_passes() -> None:
    state = started()
    for i, at in enumerate((0, 1, 2)):
        state, effects = react(state, ANNA, i + 1, "oops", at)
        assert of(effects, SendReaction)
    state, effects = react(state, ANNA, 10, "oops", 9.9)
    assert [e.refusal.code for e in of(effects, Reject)] == [RoomCode.TOO_MANY_REACTIONS]
    state, effects = react(state, BEN, 1, "oops", 9.9)  # Ben's own allowance
    assert of(effects, SendReaction)
    state, effects = react(state, ANNA, 11, "oops", 10.0)  # the first left the window
    assert of(effects, SendReaction)
    state, effects = react(state, ANNA, 12, "oops", 10.5)
    assert of(effects, Reject)
    assert len(state.reaction_times(ANNA)) == 3  # the memory stays bounded


def test_a_resent_reaction_only_echoes_and_does_not_count_again() -> None:
    state = started()
    state, _ = react(state, ANNA, 1, "thanks")
    again, effects = react(state, ANNA, 1, "thanks", 1)
    [echo] = of(effects, SendReaction)
    assert echo.echo_only and again.reaction_times(ANNA) == (T0,)


def test_mute_is_kept_per_player_and_answered_with_its_state() -> None:
    state = started()
    muted, effects = decide(state, cmd.MuteReactions(BEN, 1, state.version, True), T0, LIMITS)
    assert muted.reactions_muted == {BEN} and muted.version == state.version
    assert of(effects, SendState) == [SendState(BEN, reply_to=1)]
    unmuted, _ = decide(muted, cmd.MuteReactions(BEN, 2, state.version, False), T0, LIMITS)
    assert unmuted.reactions_muted == frozenset()
    _, effects = decide(state, cmd.MuteReactions("p_stranger", 1, state.version, True), T0, LIMITS)
    assert [e.refusal.code for e in of(effects, Reject)] == [RoomCode.NOT_SEATED]


def test_the_set_is_small_and_fixed() -> None:
    assert 6 <= len(REACTIONS) <= 12
    assert all(code.isidentifier() and len(code) <= 32 for code in REACTIONS)
    assert admit((), T0, ReactionLimits(1, 1)) == (T0,)
    assert admit((T0,), T0 + timedelta(seconds=0.5), ReactionLimits(1, 1)) is None


def test_a_player_lets_the_spectators_see_the_reactions_without_touching_watching() -> None:
    state = started()
    assert not state.options.reactions_for_spectators
    new, effects = decide(state, cmd.SetSpectators(ANNA, None, True), T0, LIMITS)
    assert new.options.reactions_for_spectators and new.options.spectators
    assert new.version == state.version + 1 and of(effects, Persist)  # a change of the table, stored
    again, nothing = decide(new, cmd.SetSpectators(BEN, None, True), T0, LIMITS)
    assert again == new and nothing == []
