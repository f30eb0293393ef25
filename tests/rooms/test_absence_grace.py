"""The cluster's sweep never takes a connected player for gone (R6.2: that would start its absence
clock): a player missing from ``presence:{room}`` counts as gone only once missing for
``PRESENCE_GRACE_S`` in a row, and never within that grace after this process resubscribed (after a
Redis restart each process announces its sockets again when its own subscription is back).
Time is an input: nothing here waits."""

from __future__ import annotations

from backend.rooms.cluster import RENEW_S
from backend.rooms.repair import PRESENCE_GRACE_S, SWEEP_S, AbsenceGrace


def test_the_grace_covers_a_heartbeat_and_a_sweep() -> None:
    assert PRESENCE_GRACE_S > RENEW_S + SWEEP_S / 2


def test_a_player_missing_for_the_whole_grace_is_gone_and_one_seen_again_is_not() -> None:
    grace = AbsenceGrace(grace_s=4)
    assert grace.gone("r", {"anna", "ben"}, now=100) == set()
    assert grace.gone("r", {"anna", "ben"}, now=102) == set()
    assert grace.gone("r", {"anna"}, now=103) == set()  # ben's socket was announced again
    assert grace.gone("r", {"anna", "ben"}, now=104) == {"anna"}  # ben's count starts again
    assert grace.gone("r", {"ben"}, now=107.9) == set()
    assert grace.gone("r", {"ben"}, now=108) == {"ben"}


def test_nobody_is_gone_within_the_grace_after_a_resubscribe() -> None:
    grace = AbsenceGrace(grace_s=4)
    assert grace.gone("r", {"anna"}, now=100) == set()
    grace.resubscribed(now=103)  # Redis came back: the presence hash is being filled again
    assert grace.gone("r", {"anna"}, now=105) == set()  # missing for 5 s, but only 2 s since the resubscribe
    assert grace.gone("r", {"anna"}, now=107) == {"anna"}


def test_rooms_are_counted_apart() -> None:
    grace = AbsenceGrace(grace_s=4)
    assert grace.gone("r1", {"anna"}, now=100) == set()
    assert grace.gone("r2", {"anna"}, now=103) == set()
    assert grace.gone("r1", {"anna"}, now=104) == {"anna"}
    assert grace.gone("r2", {"anna"}, now=104) == set()
