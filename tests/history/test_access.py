"""Who may read a stored match (backend/history/access.py, issue 12): its players its page and its
replay; others its replay only as they could have watched it live."""

from __future__ import annotations

from backend.history.access import may_read, may_replay, replayable
from backend.rooms.watch import watch_code

from .rows import match, room

FINISHED = match(["p_a", "p_b"], [1001, 300], [1, 2])


def test_its_players_may_read_and_replay_it_whatever_its_table() -> None:
    assert may_read(FINISHED, "p_a") and may_read(FINISHED, "p_b") and not may_read(FINISHED, "p_c")
    private_unwatchable = room("private", spectators=False)
    assert may_replay(FINISHED, "p_a", private_unwatchable, None)
    assert may_replay(FINISHED, "p_b", None, None)  # its table is gone


def test_anyone_may_replay_a_match_of_a_public_table_that_allowed_watching() -> None:
    assert may_replay(FINISHED, "p_c", room("public"), None)
    assert may_replay(FINISHED, None, room("public"), None)  # signed in or not


def test_a_private_table_needs_its_watch_code() -> None:
    table = room("private", invite_code="secret-invite")
    assert not may_replay(FINISHED, "p_c", table, None)
    assert not may_replay(FINISHED, "p_c", table, "wrong")
    assert not may_replay(FINISHED, "p_c", table, "secret-invite")  # the invite code is not the watch code
    assert may_replay(FINISHED, None, table, watch_code("secret-invite"))


def test_nobody_else_may_replay_when_the_players_turned_watching_off_or_the_table_is_gone() -> None:
    assert not may_replay(FINISHED, "p_c", room("public", spectators=False), None)
    assert not may_replay(FINISHED, "p_c", None, None)


def test_only_a_finished_match_replays() -> None:
    assert replayable(FINISHED)
    assert not replayable(match(["p_a", "p_b"], [10, 0]))
