"""The variant bots (V2–V7): legal actions everywhere, whole matches, playouts true to the engine,
bidding and discarding behaviour, bounded decision time."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from backend.bots.table_knowledge import table_knowledge_from_view
from backend.bots.table_players import TABLE_LEVELS, TableHardBot, choose_table_action, table_bot_for
from backend.bots.table_policy import DECLARE, Playout, game_of, play_out
from backend.engine.cards import card, mask_of
from backend.engine.deal import Play
from backend.engine.table_deal import (
    Bid,
    Discard,
    Pass,
    TableAction,
    apply_table,
    check_table,
    table_deal_from_hands,
    table_deal_result,
)
from backend.engine.table_events import TableEvent
from backend.engine.table_match import TableMatchState, apply_table_match, new_table_match
from backend.engine.table_view import table_events_for_seat, table_seat_view
from backend.engine.variants import TableRules

from .table_support import TABLE_IDS, TABLE_RULES, random_table_position, small_hard


def _bot_action(level: str, match: TableMatchState, seat: int, events: list[TableEvent], seed: int) -> TableAction:
    bot = small_hard(level) if level in ("hard", "expert") else table_bot_for(level)
    return bot.choose(table_knowledge_from_view(table_seat_view(match, seat), events), random.Random(seed))


@pytest.mark.parametrize("rules", TABLE_RULES, ids=TABLE_IDS)
def test_every_level_chooses_legal_actions_in_random_positions(rules: TableRules) -> None:
    """Random positions of every variant (auction, discard, play; totals near the target for V7.7's meld
    ban and V0.6b's cap): every level's action is legal (``check_table``)."""
    rng = random.Random(len(rules.variant) + 100 * rules.n)
    phases = set()
    for i in range(18):
        match, received = random_table_position(rules, rng, near_target=i % 3 == 0)
        seat = match.deal.turn
        assert seat is not None
        phases.add(match.deal.phase)
        for level in TABLE_LEVELS:
            check_table(match.deal, seat, _bot_action(level, match, seat, received[seat], i))
    assert "play" in phases


@pytest.mark.parametrize("rules", TABLE_RULES, ids=TABLE_IDS)
def test_whole_matches_complete_with_bots_in_every_seat(rules: TableRules) -> None:
    """A match to the (low) target with a bot of each level in the seats, through the server's path."""
    levels = ("hard", "medium", "easy", "medium")[: rules.n]
    match = new_table_match(rules, 17)
    received: list[list[TableEvent]] = [[] for _ in range(rules.n)]
    actions = 0
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        action = _bot_action(levels[seat], match, seat, received[seat], actions)
        match, events = apply_table_match(match, seat, action)
        actions += 1
        for s in range(rules.n):
            if any(e.kind == "deal_started" for e in events):
                received[s] = []
            else:
                received[s].extend(table_events_for_seat(events, s))
        assert actions < 5000
    assert match.winner is not None
    assert match.history


@pytest.mark.parametrize("rules", TABLE_RULES, ids=TABLE_IDS)
def test_playouts_follow_the_engine(rules: TableRules) -> None:
    """From true play positions, the playout's every move is legal in the engine and its final score
    sheet equals ``table_deal_result`` after replaying those moves (tricks, melds, V4.5, V6, V7.7 …)."""
    rng = random.Random(5 + rules.n)
    checked = 0
    while checked < 15:
        match, _ = random_table_position(rules, rng, near_target=checked % 4 == 0)
        state = match.deal
        if state.phase != "play":
            continue
        melds = [0] * state.n
        for d in state.declarations:
            melds[d.seat] += d.points
        p = Playout(
            hands=list(state.hands),
            leader=state.leader,
            trick=list(state.trick),
            trump=state.trump,
            declared=state.declared_suits,
            last_meld=state.declarations[-1].points if state.declarations else 0,
            melds=melds,
            card_pts=list(state.card_points),
            won=list(state.tricks_won),
            discard_pts=state.discard_points,
            last_winner=state.tricks[-1].winner if state.tricks else -1,
        )
        g = game_of(rules, state.totals, state.declarer, state.contract)
        log: list[int] = []
        scores = play_out(g, p, log=log)
        for move in log:
            assert state.turn is not None
            state, _ = apply_table(state, state.turn, Play(move & 31, bool(move & DECLARE)))
        assert state.phase == "over"
        assert scores == list(table_deal_result(state).score)
        checked += 1


def _match_with_hands(rules: TableRules, hands: list[list[str]], talon: list[str], dealer: int) -> TableMatchState:
    deal = table_deal_from_hands(rules, dealer, [[card(c) for c in h] for h in hands], [card(c) for c in talon], seed=1)
    return dataclasses.replace(new_table_match(rules, 1), deal=deal)


MCLEOD_STRONG = [
    ["AC", "TC", "KC", "QC", "AS", "TS"],  # forehand (seat 1 when seat 0 deals): two tens guarded, ♣ marriage
    ["JC", "KS", "QS", "AH", "JH", "JD"],
    ["JS", "TH", "KH", "QH", "TD", "KD"],
]
MCLEOD_TALON = ["AD", "QD"]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_strong_hand_bids_and_a_weak_one_passes(level: str) -> None:
    """V2: forehand with A-T-K-Q of clubs and A-T of spades bids; with jacks and a lone ten it passes."""
    rules = TableRules("mcleod", target=1001)
    bot = TableHardBot(plies=4000, clock=lambda: 0.0) if level == "hard" else table_bot_for(level)
    strong = _match_with_hands(rules, [MCLEOD_STRONG[2], MCLEOD_STRONG[0], MCLEOD_STRONG[1]], MCLEOD_TALON, 0)
    k = table_knowledge_from_view(table_seat_view(strong, 1), [])
    action = bot.choose(k, random.Random(1))
    assert isinstance(action, Bid) and action.amount == 40
    # seat 1 (forehand) holds four jacks, a lone KS and a lone TD
    weak = _match_with_hands(
        rules,
        [MCLEOD_STRONG[0], ["JC", "JS", "JH", "JD", "KS", "TD"], ["QS", "AH", "TH", "KH", "QH", "KD"]],
        MCLEOD_TALON,
        0,
    )
    k = table_knowledge_from_view(table_seat_view(weak, 1), [])
    assert bot.choose(k, random.Random(1)) == Pass()


def test_hard_never_bids_over_the_cap() -> None:
    """V0.6b: without a K-Q pair no bid above 120; the bot's bids are always among the view's."""
    rules = TableRules("mcleod", target=1001)
    hands = [
        ["AC", "TC", "KC", "AS", "TS", "KS"],
        ["QC", "QS", "AH", "JH", "JD", "JS"],
        ["JC", "TH", "KH", "QH", "TD", "KD"],
    ]
    match = _match_with_hands(rules, hands, ["AD", "QD"], 2)  # seat 0 is forehand
    view = table_seat_view(match, 0)
    assert max(view.bids) == 120
    k = table_knowledge_from_view(view, [])
    bot = TableHardBot(plies=3000, clock=lambda: 0.0)
    limit = bot.bid_limit(k, random.Random(0), 0.0)
    assert limit is None or limit in view.bids


def test_medium_discard_keeps_marriages_and_banks_a_lone_ten() -> None:
    """V0.7: the discards count for the declarer — a ten without its ace is laid away, a marriage kept."""
    rules = TableRules("mcleod", target=1001)
    hands = [
        ["AC", "KC", "QC", "TS", "JH", "AD"],
        ["TC", "JC", "AS", "KS", "AH", "TH"],
        ["QS", "JS", "KH", "QH", "TD", "KD"],
    ]
    match = _match_with_hands(rules, hands, ["QD", "JD"], 2)
    state = match.deal
    state, _ = apply_table(state, 0, Bid(40))
    state, _ = apply_table(state, 1, Pass())
    state, _ = apply_table(state, 2, Pass())
    match = dataclasses.replace(match, deal=state)
    action = choose_table_action("medium", table_seat_view(match, 0), [], random.Random(0))
    assert isinstance(action, Discard)
    laid = mask_of((action.card_a, action.card_b))
    assert laid >> card("TS") & 1
    assert not laid & mask_of(card(c) for c in ("KC", "QC", "AC", "AD"))
    hard = TableHardBot(plies=3000, clock=lambda: 0.0).choose(
        table_knowledge_from_view(table_seat_view(match, 0), []), random.Random(0)
    )
    assert isinstance(hard, Discard)
    check_table(state, 0, hard)


def test_medium_declares_on_lead_and_hard_declares_or_cashes_the_ace_first() -> None:
    """V0.5: holding ♣ A-T-K-Q-J-9 on the first lead (V4: forehand leads), medium declares ♣ (100); hard
    declares it too or first cashes the ace, which keeps the lead for the declaration."""
    rules = TableRules("thousand3", target=1001)
    hands = [
        ["AS", "TS", "JH", "9H", "AD", "9D", "9S", "JD"],
        ["KC", "QC", "AC", "TC", "JC", "9C", "AH", "TH"],
        ["KS", "QS", "JS", "KH", "QH", "TD", "KD", "QD"],
    ]
    match = _match_with_hands(rules, hands, [], 0)
    k = table_knowledge_from_view(table_seat_view(match, 1), [])
    medium = table_bot_for("medium").choose(k, random.Random(0))
    assert isinstance(medium, Play) and medium.declare and medium.card >> 3 == 0
    hard = TableHardBot(plies=4000, clock=lambda: 0.0).choose(k, random.Random(0))
    assert isinstance(hard, Play) and ((hard.declare and hard.card >> 3 == 0) or hard.card == card("AC"))


@pytest.mark.parametrize("rules", [TableRules("bidding", seats=3), TableRules("thousand4")], ids=["V7_3", "V5"])
def test_a_default_hard_decision_stays_within_its_budget(rules: TableRules) -> None:
    """The most expensive decisions (the first bid, the first lead) with the default bot: bounded by its
    deadline (0.45 s of wall time) plus one world; CPU time checked with a margin for a loaded machine."""
    match = new_table_match(rules, 3)
    received: list[list[TableEvent]] = [[] for _ in range(rules.n)]
    for _ in range(2):
        seat = match.deal.turn
        assert seat is not None
        view = table_seat_view(match, seat)
        start = time.process_time()
        action = choose_table_action("hard", view, received[seat], random.Random(0))
        assert time.process_time() - start < 1.0
        check_table(match.deal, seat, action)
        match, events = apply_table_match(match, seat, action)
        for s in range(rules.n):
            received[s].extend(table_events_for_seat(events, s))
