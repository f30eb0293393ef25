"""What a committed change notifies (issue 45, ``backend.push.service.notifications``), and the
``auto_play`` follow-up in ``decide``: pure functions of states and a made-up ``now``."""

from __future__ import annotations

from dataclasses import replace

from backend.push.service import notifications, topic
from backend.push.texts import time_left, words
from backend.rooms import commands as cmd
from backend.rooms.decide import follow_ups, forced_card
from backend.rooms.effects import AutoPlay
from tests.rooms.test_turn_based import ANNA, BEN, DAY, T0, on_turn, play, step, table


def test_the_person_on_turn_is_told_unless_at_the_table_and_reminded_at_a_quarter_of_the_time_left() -> None:
    before = table("1d")
    seat, player = on_turn(before)
    started = replace(before, turn_deadline=None)  # the change that gave the turn (the join)
    found = notifications(started, before, T0)
    assert [(n.player_id, n.kind) for n in found] == [(player, "turn"), (player, "reminder")]
    turn, reminder = found
    assert turn.due_at == T0 and turn.expires_at == T0 + DAY and turn.params["seat"] == seat
    assert reminder.due_at == T0 + DAY * 3 / 4 and reminder.expires_at == T0 + DAY
    assert turn.params["names"] == ["Ben" if player == ANNA else "Anna"]

    # At the table (a socket open): no "your turn", the reminder all the same.
    present = replace(before, present=frozenset({player}))
    assert [n.kind for n in notifications(started, present, T0)] == ["reminder"]
    # Nothing new (the same turn and deadline): nothing.
    assert notifications(before, before, T0) == []
    # A move: the next turn's notifications, at the time of the move.
    after, _ = play(before, T0 + DAY / 2)
    kinds = [(n.player_id, n.kind, n.due_at) for n in notifications(before, after, T0 + DAY / 2)]
    _, next_player = on_turn(after)
    assert kinds[0] == (next_player, "turn", T0 + DAY / 2)


def test_a_live_table_and_a_table_where_everyone_else_is_a_computer_send_no_turn() -> None:
    live = table("live")
    assert notifications(replace(live, turn_deadline=None), live, T0) == []
    solo = table("1d", bot=True)
    assert [n for n in notifications(replace(solo, version=0), solo, T0) if n.kind in ("turn", "reminder")] == []


def test_a_matchs_end_reaches_the_people_who_were_not_at_the_table() -> None:
    state = table("3d")
    ended, _ = step(state, cmd.Resign(ANNA, 900, state.version), T0)
    assert ended.status != "playing"
    found = notifications(state, ended, T0)
    assert [(n.player_id, n.kind, n.params["result"]) for n in found] == [
        (ANNA, "end", "lost"),
        (BEN, "end", "won"),
    ]
    at_table = replace(ended, present=frozenset({ANNA}))
    assert [n.player_id for n in notifications(state, at_table, T0)] == [BEN]


def test_the_words_topic_and_time_left() -> None:
    assert topic("r_Z4rOz5YZEghj5SmW") == "r_Z4rOz5YZEghj5SmW" and len(topic("x" * 40 + "!")) == 32
    assert time_left(DAY * 2 - DAY / 24, "en") == "1 d 23 h" and time_left(DAY / 96, "de") == "15 Min."
    assert words("turn", {"names": ["Anna"]}, "ru", DAY) == ("Ваш ход", "Против: Anna. Осталось 1 дн. 0 ч.")
    assert words("invite", {"name": "Ben"}, "xx", None)[0] == "Ben invites you to play again"


def test_auto_play_follows_up_with_the_only_legal_card_at_a_turn_based_table_only() -> None:
    state = table("1d")
    assert forced_card(state, on_turn(state)[0]) is None  # off unless the table asks for it
    forced = replace(state, options=replace(state.options, auto_play=True))
    # Play until a person has one legal card (the last trick at the latest); it is followed up.
    found = None
    for _ in range(30):
        seat, _player = on_turn(forced)
        if forced_card(forced, seat) is not None:
            found = seat
            break
        forced, _ = play(forced, T0)
    assert found is not None
    assert AutoPlay(found, forced.version) in follow_ups(forced, [])
    live = replace(forced, options=replace(forced.options, pace="live"))
    assert forced_card(live, found) is None
