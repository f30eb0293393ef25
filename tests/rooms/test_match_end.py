"""The end of a match at every seat count (issue: defects at the end of matches for three and four).

Ruling V0.9 / R5.1: two seats sharing the highest total at or over the target play another deal.
R6.2 / V0.10a: every seat can see what resigning would cost at every step — also at or over the
target, where it costs nothing — and a resignation settles exactly that. Every finished match
ranks every seat (``places``): the winner first, or the seat that left last.
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from backend.db.writes import ActionWrite
from backend.engine import Action, Rules, places
from backend.rooms import commands as cmd
from backend.rooms.decide import resign_price
from backend.rooms.effects import Persist
from backend.rooms.model import FreshMatch, RoomState, SeatHolder
from backend.rooms.options import TableOptions
from tests.support.ties import goal, legal, tie_at_target

from .test_decide import T0, step

STAKE = Decimal("0.05")
GAMES = [
    Rules(target=301),
    Rules(target=301, deck_size=32, jungfrau=True),
    Rules("mcleod", target=301),
    Rules("rassel", target=300),
    Rules("thousand3", target=301),
    Rules("thousand4", scoring="simplified", jungfrau=True),
    Rules("bidding", target=301),
    Rules("bidding", seats=4, target=301),
]


def _name(rules: Rules) -> str:
    return f"{rules.variant}-{rules.n}-{rules.deck_size}"


def staked_table(rules: Rules, seed: int) -> RoomState:
    """A table of people only (a stake needs them, RULES-VARIANTS.md), every one connected, the match started."""
    n = rules.n
    players = [f"p_{i}" for i in range(n)]
    state = RoomState(
        id="r_end",
        invite_code="inv",
        visibility="private",
        options=TableOptions(rules=rules, stake_per_point=STAKE, currency="EUR"),
        status="open",
        created_at=T0,
        seats=(SeatHolder(players[0], "P0"), *([None] * (n - 1))),
        absence=(None,) * n,
    )
    state, _ = step(state, cmd.Connect(players[0]))
    for player in players[1:]:
        state, _ = step(state, cmd.Join(player, player.upper(), None, FreshMatch("m_end", seed)))
        state, _ = step(state, cmd.Connect(player))
    assert state.live
    return state


def check_every_price(state: RoomState) -> None:
    """Every seat's price now, and what its resignation would settle: exactly that price."""
    assert state.match is not None
    n = len(state.seats)
    target = goal(state.match)
    for seat in range(n):
        price = resign_price(state, seat)
        assert price is not None and price.debtor_seat == seat and price.currency == "EUR"
        short = max(0, target - state.match.totals[seat])
        assert price.points_short == short and price.amount == STAKE * short
        player = state.player_at(seat)
        assert player is not None
        resigned, effects = step(state, cmd.Resign(player, 9_999, state.version))
        [write] = [e.write for e in effects if isinstance(e, Persist) and isinstance(e.write, ActionWrite)]
        assert write.end is not None and write.end.reason == "resign"
        paid = [row for row in write.end.settlements if row.amount]
        assert {row.amount for row in paid} <= {price.amount}
        assert len(paid) == (0 if not price.amount else n - 1)  # V0.10a: the leaver owes every other player
        assert all(row.loser_id == player for row in write.end.settlements)
        assert sum(stake.amount for stake in resigned.stakes) == price.amount * len(paid)
        assert write.end.places[seat] == n  # R6.2, V0.10a: the seat that left is last


def apply(state: RoomState, seat: int, action: Action) -> RoomState:
    player = state.player_at(seat)
    assert player is not None
    after, _ = step(state, cmd.command_for(player, state.version, action))
    assert after.version == state.version + 1, (seat, action)
    return after


@pytest.mark.parametrize("rules", GAMES, ids=_name)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), play=st.integers(0, 2**32))
def test_v0_9_r6_2_a_tie_at_the_target_plays_on_and_every_seat_has_its_price_at_every_step(
    rules: Rules, seed: int, play: int
) -> None:
    tied = tie_at_target(rules, seed, play)
    assume(tied is not None)
    assert tied is not None
    state = staked_table(rules, seed)
    for seat, action in tied.actions:
        check_every_price(state)
        state = apply(state, seat, action)
    assert state.match is not None and not state.match.over  # V0.9: tied at the top, another deal
    top = max(state.match.totals)
    assert top >= goal(state.match) and state.match.totals.count(top) >= 2
    assert state.match.deal_number == tied.match.deal_number and state.live
    rng = random.Random(play)
    while state.live:  # and the match goes on to its end, every price good at every step
        check_every_price(state)
        assert state.match is not None
        seat, actions = legal(state.match)
        state = apply(state, seat, rng.choice(actions))
    assert state.match is not None and state.match.over and state.status == "finished"


@pytest.mark.parametrize(
    ("totals", "winner", "loser", "expected"),
    [
        ((1010, 400), 0, None, (1, 2)),  # R5: the winner on the target
        ((1010, 400), 1, 0, (2, 1)),  # R6.2: the one who resigned loses, whatever the totals
        ((310, -40, 320), 2, None, (2, 3, 1)),  # V0.9
        ((120, 0, 120), None, 1, (1, 3, 1)),  # V0.10a: the leaver loses alone, the others share first
        ((0, 0, 0, 0), None, 3, (1, 1, 1, 4)),  # a resignation in the first deal
        ((50, 80, 50, 10), None, 1, (1, 4, 1, 1)),  # whatever the totals of those who stayed
        ((600, 200, 100), None, 0, (3, 1, 1)),  # a leaver who was leading is last all the same
        ((301, 250, 250, 100), 0, None, (1, 2, 2, 4)),
    ],
)
def test_r6_2_v0_10a_every_seat_of_a_finished_match_has_a_place(
    totals: tuple[int, ...], winner: int | None, loser: int | None, expected: tuple[int, ...]
) -> None:
    assert places(totals, winner, loser) == expected


@given(totals=st.lists(st.integers(-500, 1200), min_size=2, max_size=4), data=st.data())
def test_r6_2_v0_10a_the_leaver_is_last_alone_and_every_other_seat_first_whatever_the_totals(
    totals: list[int], data: st.DataObject
) -> None:
    leaver = data.draw(st.integers(0, len(totals) - 1))
    ranked = places(totals, None, leaver)
    assert ranked[leaver] == len(totals)
    assert all(place == 1 for seat, place in enumerate(ranked) if seat != leaver)


@pytest.mark.parametrize("rules", GAMES, ids=_name)
def test_r6_2_v0_10a_a_resigned_match_puts_the_leaver_last_and_everyone_who_stayed_first(rules: Rules) -> None:
    state = staked_table(rules, 77)
    rng = random.Random(3)
    for _ in range(12):  # a few moves in: the totals need not be zero
        assert state.match is not None
        seat, actions = legal(state.match)
        state = apply(state, seat, rng.choice(actions))
    leaver = state.match.deal.turn if state.match is not None else None
    assert leaver is not None
    player = state.player_at(leaver)
    assert player is not None
    done, effects = step(state, cmd.Resign(player, 1, state.version))
    [write] = [e.write for e in effects if isinstance(e, Persist) and isinstance(e.write, ActionWrite)]
    assert write.end is not None and state.match is not None
    n = len(state.seats)
    stayed = [seat for seat in range(n) if seat != leaver]
    assert write.end.places == tuple(n if seat == leaver else 1 for seat in range(n))
    # a table of two has one winner; at three or four the first place is shared (winner_seat null)
    assert write.end.winner_seat == (stayed[0] if n == 2 else None)
    assert done.match is not None and done.match.winner == write.end.winner_seat
    assert done.status == "finished" and replace(done, stakes=()).stakes == ()
