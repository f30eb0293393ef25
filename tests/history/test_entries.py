"""How a stored match becomes its history entry (backend/history/entries.py), from rows made in
memory: the seat and opponent of the asker, places and results, the stake as each player sees it
(R6, V0.10, V0.10a), the deals and the rating changes of the match page."""

from __future__ import annotations

from backend.history.entries import (
    deal_out,
    deal_result,
    match_detail,
    match_entry,
    rating_change_out,
    seated_players,
    stake_for,
)
from backend.ratings import Skill, displayed

from .rows import deal, match, owed, players, rating_change

PEOPLE = players(("p_a", "Anna", None), ("p_b", "Ben", None), ("p_c", "Cleo", None), ("p_x", "Computer", "easy"))


def test_a_finished_match_of_two_as_each_player_sees_it() -> None:
    finished = match(["p_a", "p_b"], [1012, 640], [1, 2])
    settlements = [owed("p_b", "p_a", "3.61", 361)]

    ben = match_entry(finished, "p_b", PEOPLE, settlements)
    assert (ben.my_seat, ben.opponent.id, ben.result, ben.places, ben.winner_seat) == (1, "p_a", "lost", [1, 2], 0)
    assert [(p.seat, p.name, p.place, p.result) for p in ben.players] == [(0, "Anna", 1, "won"), (1, "Ben", 2, "lost")]
    assert ben.stake is not None and (ben.stake.amount, ben.stake.balance) == ("3.61", "-3.61")
    assert (ben.stake.debtor_id, ben.stake.creditor_id, ben.stake.points_short) == ("p_b", "p_a", 361)
    assert ben.started_at == "2026-03-01T20:00:00" and ben.finished_at == "2026-03-01T20:40:00"
    assert ben.options.variant == "twohand" and ben.options.target == 1001  # the shape of room.options

    anna = match_entry(finished, "p_a", PEOPLE, settlements)
    assert (anna.my_seat, anna.opponent.id, anna.result) == (0, "p_b", "won")
    assert anna.stake is not None and anna.stake.balance == "3.61"
    assert [s.model_dump() for s in anna.settlements] == [
        {
            "debtor_id": "p_b",
            "creditor_id": "p_a",
            "amount": "3.61",
            "currency": "EUR",
            "stake_per_point": "0.01",
            "points_short": 361,
        }
    ]


def test_a_match_being_played_has_no_result_yet_and_leaves_places_unset() -> None:
    playing = match(["p_a", "p_x"], [120, 80])
    entry = match_entry(playing, "p_a", PEOPLE, [])
    assert (entry.status, entry.result, entry.places, entry.end_reason, entry.finished_at) == (
        "playing",
        None,
        None,
        None,
        None,
    )
    assert entry.stake is None and entry.settlements == []
    assert entry.opponent.bot_level == "easy"
    # Unset, not null: the replay routes leave unset fields out of their answers.
    assert [p.model_dump(exclude_unset=True) for p in seated_players(playing, PEOPLE)] == [
        {"seat": 0, "id": "p_a", "name": "Anna", "bot_level": None},
        {"seat": 1, "id": "p_x", "name": "Computer", "bot_level": "easy"},
    ]


def test_a_player_whose_row_is_gone_is_named_with_a_question_mark() -> None:
    entry = match_entry(match(["p_a", "p_gone"], [0, 0]), "p_a", PEOPLE, [])
    assert (entry.opponent.id, entry.opponent.name, entry.opponent.bot_level) == ("p_gone", "?", None)


def test_at_three_seats_the_opponent_is_the_next_seat_and_the_winner_sums_what_the_losers_owe() -> None:
    finished = match(["p_a", "p_b", "p_c"], [1001, 20, 20], [1, 2, 2])
    settlements = [owed("p_b", "p_a", "9.81", 981), owed("p_c", "p_a", "9.81", 981)]

    anna = match_entry(finished, "p_a", PEOPLE, settlements)
    assert anna.opponent.id == "p_b" and anna.result == "won"
    assert anna.stake is not None
    assert (anna.stake.amount, anna.stake.points_short, anna.stake.balance) == ("19.62", 1962, "19.62")
    assert anna.stake.debtor_id == "p_b"  # the first debtor named

    cleo = match_entry(finished, "p_c", PEOPLE, settlements)
    assert cleo.my_seat == 2 and cleo.opponent.id == "p_a"  # the next seat, round the table
    assert cleo.stake is not None and (cleo.stake.amount, cleo.stake.balance) == ("9.81", "-9.81")
    assert len(cleo.settlements) == 2  # every settlement of the match, not only the asker's


def test_the_stake_of_someone_in_no_settlement_is_the_first_one_with_a_balance_of_nothing() -> None:
    settlements = [owed("p_b", "p_a", "1.00", 100), owed("p_c", "p_a", "2.00", 200)]
    stake = stake_for("p_x", settlements)
    assert stake is not None and (stake.amount, stake.debtor_id, stake.balance) == ("1.00", "p_b", "0.00")
    assert stake_for("p_a", []) is None


def test_an_abandoning_player_owes_every_other_player_and_sees_the_sum() -> None:
    # V0.10a: whoever abandons a table of three owes each of the others.
    settlements = [owed("p_b", "p_a", "0.50", 50), owed("p_b", "p_c", "0.25", 25)]
    stake = stake_for("p_b", settlements)
    assert stake is not None and (stake.amount, stake.points_short, stake.balance) == ("0.75", 75, "-0.75")
    cleo = stake_for("p_c", settlements)
    assert cleo is not None and (cleo.amount, cleo.balance) == ("0.25", "0.25")


def test_the_match_page_adds_the_deals_in_order_and_a_rating_change_per_seat() -> None:
    finished = match(["p_a", "p_b"], [320, 0], [1, 2])
    deals = [deal(0, [120, 0]), deal(1, [200, 0], declarer=0, contract=120, made=True)]
    change = rating_change(1, "p_b", (25.0, 24.0), (8.3, 7.9))

    page = match_detail(finished, "p_b", PEOPLE, [], deals, [change])
    assert page.my_seat == 1 and page.result == "lost"
    assert [(d.number, d.dealer, d.seed, d.score) for d in page.deals] == [
        (0, 0, "100", [120, 0]),
        (1, 1, "101", [200, 0]),
    ]
    assert (page.deals[1].declarer, page.deals[1].contract, page.deals[1].made) == (0, 120, True)
    assert page.rating_changes[0] is None  # seat 0's change was not stored: not rated
    shown = page.rating_changes[1]
    assert shown is not None and shown.player_id == "p_b" and (shown.mu, shown.sigma) == (24.0, 7.9)
    before, after = displayed(Skill(25.0, 8.3)), displayed(Skill(24.0, 7.9))
    assert (shown.before, shown.after, shown.change) == (before, after, after - before)
    assert rating_change_out(None) is None


def test_a_deal_result_is_the_deal_page_without_how_it_was_dealt() -> None:
    stored = deal(2, [30, 0, 90])
    result = deal_result(stored)
    assert result.model_dump() == {
        "card_points": [30, 0, 90],
        "declarations": [{"seat": 0, "suit": "H", "points": 100}],
        "declaration_points": [0, 0, 0],
        "score": [30, 0, 90],
        "totals": [30, 0, 90],
        "declarer": None,
        "contract": None,
        "made": None,
        "thrown_in": False,
    }
    assert deal_out(stored).model_dump() == {**result.model_dump(), "number": 2, "dealer": 2, "seed": "102"}
