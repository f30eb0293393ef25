"""The pure replay builder: a match's log cut into replay-CLI documents and viewer frames (issue 12)."""

from __future__ import annotations

import random
from typing import Any

from backend.cli.replay import run
from backend.db.writes import ActionRecord
from backend.engine import Rules, legal_actions, new_match
from backend.engine import match as match_rules
from backend.engine.cards import CARD_NAMES, SUITS
from backend.engine.table_deal import Bid, Pass, TableAction, legal_table_actions
from backend.engine.table_match import TableDealRecord, TableMatchState
from backend.engine.variants import TableRules
from backend.rooms import game
from backend.rooms.replay import TableReplayDeal, deal_frames, match_deals, match_replay
from tests.support.table_replay import check_cli_result, check_table_frames


def _random_match(rules: Rules, seed: int, rng: random.Random) -> tuple[match_rules.MatchState, list[ActionRecord]]:
    match = new_match(rules, seed)
    log: list[ActionRecord] = []
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        play = rng.choice(legal_actions(match.deal, seat))
        match, _ = match_rules.apply(match, seat, play)
        log.append(ActionRecord(seat, "play", CARD_NAMES[play.card], play.declare))
    return match, log


def test_every_deal_document_replays_to_the_engines_record() -> None:
    rng = random.Random(1001)
    for seed, rules in ((7, Rules(target=301)), (8, Rules(target=501, deck_size=32, declaration_scoring="by_order"))):
        match, log = _random_match(rules, seed, rng)
        results = {r.number: {"score": list(r.score)} for r in match.history}
        replay = match_replay("m_1", [], rules, seed, log, results)
        assert [d["number"] for d in replay["deals"]] == [r.number for r in match.history]
        for deal, record in zip(replay["deals"], match.history, strict=True):
            status, out = run(deal["replay"])
            assert status == 0 and out["deal_over"]
            assert out["card_points"] == list(record.card_points) and out["score"] == list(record.score)
            assert deal["result"] == {"score": list(record.score)}


def test_frames_step_every_action_and_end_on_the_score() -> None:
    rules = Rules(target=301)
    match, log = _random_match(rules, 3, random.Random(3))
    deals = match_deals(rules, 3, log)
    assert sum(len(d.plays) for d in deals) == len(log)
    for deal, record in zip(deals, match.history, strict=True):
        frames = deal_frames(deal)
        assert len(frames) == len(deal.plays) + 1
        assert frames[0]["turn"] == 1 - record.dealer and frames[0]["trick"] == []
        assert frames[1]["trick"] == [{"seat": 1 - record.dealer, "card": frames[1]["action"]["card"]}]
        assert frames[-1]["score"] == list(record.score) and frames[-1]["turn"] is None
        assert all(f["score"] is None for f in frames[:-1])
        declared = [f["declared"] for f in frames if f["declared"]]
        assert declared == frames[-1]["declarations"]
        assert all(f["trump"] == f["declared"]["suit"] for f in frames if f["declared"])  # R3: trump at once


def test_a_resignation_leaves_the_deal_it_cut_short() -> None:
    rules = Rules()
    _, log = _random_match(rules, 4, random.Random(4))
    cut = [*log[:30], ActionRecord(0, "resign", reason="resign")]
    deals = match_deals(rules, 4, cut)
    assert [len(d.plays) for d in deals] == [24, 6]
    status, out = run(match_replay("m_2", [], rules, 4, cut, {})["deals"][1]["replay"])
    assert status == 0 and not out["deal_over"] and out["turn"] is not None


# ---------------------------------------------------------------- V2–V7: the family for 3 and 4 seats

TABLES = (
    TableRules("mcleod", target=301),
    TableRules("rassel", target=300),
    TableRules("thousand3", scoring="simplified", target=100),
    TableRules("thousand4", target=301, jungfrau=True),
    TableRules("bidding", target=301),
    TableRules("bidding", seats=4, target=301),
)


def _table_move(match: TableMatchState, seat: int, rng: random.Random) -> TableAction:
    """A random legal action, the auction as a cautious player bids (mostly passes, low bids)."""
    moves = legal_table_actions(match.deal, seat)
    bids = [m for m in moves if isinstance(m, Bid)]
    if match.deal.phase == "auction":
        return bids[0] if bids and rng.random() < 0.4 else Pass()
    return rng.choice(moves)


def _random_table_match(rules: TableRules, seed: int, rng: random.Random) -> tuple[TableMatchState, list[ActionRecord]]:
    match = game.new_game(rules, seed)
    assert isinstance(match, TableMatchState)
    log: list[ActionRecord] = []
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        action = _table_move(match, seat, rng)
        after, _ = game.apply(match, seat, action)
        assert isinstance(after, TableMatchState)
        match = after
        log.append(game.action_record(seat, action))
    return match, log


def _stored(record: TableDealRecord) -> dict[str, Any]:
    """A deal's result as the server stores it and a replay gives it (routes._replay_result)."""
    r = record.result
    return {
        "card_points": list(r.card_points),
        "declarations": [{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in record.declarations],
        "declaration_points": list(r.declaration_points),
        "score": list(r.score),
        "totals": list(record.totals),
        "declarer": r.declarer,
        "contract": r.contract,
        "made": r.made,
        "thrown_in": r.thrown_in,
    }


def test_every_table_deal_replays_through_the_cli_and_its_frames_to_the_engines_record() -> None:
    """V0.6 auction, V0.7 talon and discard, V0.8 contract, ruling V0.6a thrown in: each deal of a
    whole match of every variant is a CLI document that scores as the engine did, and its frames
    step there with every card accounted for (R7: all hands face up)."""
    rng = random.Random(1002)
    thrown_in = made = failed = 0
    for seed, rules in enumerate(TABLES):
        match, log = _random_table_match(rules, seed, rng)
        results = {r.number: _stored(r) for r in match.history}
        replay = match_replay("m_3", [], rules, seed, log, results)
        deals = match_deals(rules, seed, log)
        assert [d["number"] for d in replay["deals"]] == [d.number for d in deals] == [r.number for r in match.history]
        assert sum(len(d.plays) for d in deals) == len(log)
        for deal, document, record in zip(deals, replay["deals"], match.history, strict=True):
            assert isinstance(deal, TableReplayDeal)
            replayed = document["replay"]
            assert replayed["rules"] == rules.to_dict() and TableRules.from_dict(replayed["rules"]) == rules
            assert (
                replayed["totals"]
                == list(deal.start.totals)
                == [t - s for t, s in zip(record.totals, record.result.score, strict=True)]
            )
            assert ("talon" in replayed["deal"]) is bool(rules.layout.talon_size)
            check_cli_result(replayed, document["result"])
            check_table_frames(deal_frames(deal), replayed, document["result"])
            thrown_in += record.result.thrown_in
            made += record.result.made is True
            failed += record.result.made is False
    assert thrown_in and made and failed  # the deals cover every end of an auction


def test_a_resignation_leaves_the_table_deal_it_cut_short() -> None:
    """Ruling V0.10a: a resignation ends the match; the deal it cut short replays to where it stopped."""
    rules = TableRules("bidding", seats=4, target=301)
    _, log = _random_table_match(rules, 5, random.Random(5))
    deals = match_deals(rules, 5, log)
    cut_at = len(deals[0].plays) + 12
    cut = [*log[:cut_at], ActionRecord(2, "resign", reason="resign")]
    cut_deals = match_deals(rules, 5, cut)
    assert [len(d.plays) for d in cut_deals] == [len(deals[0].plays), 12]
    document = match_replay("m_4", [], rules, 5, cut, {})["deals"][1]
    assert document["result"] is None
    check_cli_result(document["replay"], None)
    frames = deal_frames(cut_deals[1])
    check_table_frames(frames, document["replay"], None)
    assert frames[-1]["score"] is None and frames[-1]["made"] is None
