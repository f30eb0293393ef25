"""The table's rules asked before a command reaches its room (``table_rules``), as pure functions:
who sees a table, who may seat the computer or share the watch link, who may watch."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from backend.rooms.codes import CloseCode, RoomCode
from backend.rooms.table_rules import (
    computers_refusal,
    free_seats,
    new_table_visibility,
    visible,
    watch_link_refusal,
    watch_refusal,
)
from backend.rooms.watch import watch_code
from tests.rooms.test_decide import ANNA, BEN, open_room, started

FREE = Decimal(0)


def _code(refusal: object) -> str | None:
    return getattr(refusal, "code", None)


def test_a_public_table_is_seen_by_anyone_until_it_closes_a_private_one_by_its_players_only() -> None:
    state = open_room()
    assert visible(state, None) and visible(state, BEN) and visible(state, ANNA)
    private = replace(state, visibility="private")
    assert visible(private, ANNA) and not visible(private, BEN) and not visible(private, None)
    closed = replace(state, status="closed")
    assert visible(closed, ANNA) and not visible(closed, BEN)


def test_a_table_whose_other_seats_are_all_the_computers_is_private() -> None:
    assert new_table_visibility("public", 1, 2) == "private"
    assert new_table_visibility("public", 2, 3) == "private"
    assert new_table_visibility("public", 1, 3) == "public"
    assert new_table_visibility("private", 0, 2) == "private"


def test_only_the_creator_of_an_open_table_for_nothing_seats_the_computer() -> None:
    free = replace(open_room(), options=replace(open_room().options, stake_per_point=FREE))
    assert computers_refusal(free, "r_1", ANNA, "easy") is None
    assert free_seats(free) == [1]
    assert _code(computers_refusal(None, "r_1", ANNA, "easy")) == RoomCode.ROOM_NOT_FOUND
    assert _code(computers_refusal(replace(free, status="closed"), "r_1", ANNA, "easy")) == RoomCode.ROOM_NOT_FOUND
    assert _code(computers_refusal(free, "r_1", BEN, "easy")) == RoomCode.NOT_CREATOR
    assert _code(computers_refusal(open_room(), "r_1", ANNA, "easy")) == RoomCode.STAKED_TABLE
    playing = replace(started(), options=free.options)
    assert _code(computers_refusal(playing, "r_1", ANNA, "easy")) == RoomCode.ROOM_STARTED
    assert free_seats(playing) == []
    assert _code(computers_refusal(free, "r_1", ANNA, "grandmaster")) == RoomCode.LEVEL_UNAVAILABLE


def test_the_watch_link_is_for_the_tables_players_only() -> None:
    state = open_room()
    assert watch_link_refusal(state, "r_1", ANNA) is None
    assert _code(watch_link_refusal(state, "r_1", BEN)) == RoomCode.NOT_SEATED
    assert _code(watch_link_refusal(None, "r_1", ANNA)) == RoomCode.ROOM_NOT_FOUND


def test_a_spectator_needs_an_open_door_and_at_a_private_table_its_watch_code() -> None:
    state = started()
    assert watch_refusal(state, None) is None
    assert watch_refusal(None, None) == (CloseCode.UNKNOWN_ROOM, "unknown room")
    assert watch_refusal(replace(state, status="closed"), None) == (CloseCode.UNKNOWN_ROOM, "unknown room")
    shut = replace(state, options=replace(state.options, spectators=False))
    assert watch_refusal(shut, None) == (CloseCode.WATCH_REFUSED, "the players do not allow watching this table")
    private = replace(state, visibility="private")
    assert watch_refusal(private, None) is not None
    assert watch_refusal(private, "nope") is not None
    assert watch_refusal(private, "é") is not None  # whatever a visitor typed: refused, never an error
    assert watch_refusal(private, watch_code(state.invite_code)) is None
