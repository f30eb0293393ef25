"""The pure replay builder for every game of the family: a match's log cut into replay-CLI documents
and viewer frames (issue 12), for two-hand 1001 (R1–R7, V1) and V2–V7 alike."""

from __future__ import annotations

import random
from typing import Any

import pytest

from backend.db.writes import ActionRecord
from backend.engine import Bid, DealRecord, MatchState, Pass, Rules, apply, legal_actions, new_match
from backend.engine.cards import SUITS
from backend.rooms.log import action_record
from backend.rooms.replay import deal_frames, match_deals, match_replay
from tests.support.table_replay import check_cli_result, check_table_frames

GAMES = (
    Rules(target=301),
    Rules(target=501, deck_size=32, declaration_scoring="by_order"),  # V1
    Rules(target=301, show_stock_bottom=True, jungfrau=True),
    Rules("mcleod", target=301),
    Rules("rassel", target=300),
    Rules("thousand3", scoring="simplified", target=100),
    Rules("thousand4", target=301, jungfrau=True),
    Rules("bidding", target=301),
    Rules("bidding", seats=4, target=301),
)


def _name(rules: Rules) -> str:
    return f"{rules.variant}-{rules.n}-{rules.deck_size}"


def _move(match: MatchState, seat: int, rng: random.Random) -> Any:
    """A random legal action, the auction as a cautious player bids (mostly passes, low bids)."""
    moves = legal_actions(match, seat)
    bids = [m for m in moves if isinstance(m, Bid)]
    if match.deal.phase == "auction":
        return bids[0] if bids and rng.random() < 0.4 else Pass()
    return rng.choice(moves)


def random_match(rules: Rules, seed: int, rng: random.Random) -> tuple[MatchState, list[ActionRecord]]:
    match = new_match(rules, seed)
    log: list[ActionRecord] = []
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        action = _move(match, seat, rng)
        match, _ = apply(match, seat, action)
        log.append(action_record(seat, action))
    return match, log


def stored(record: DealRecord) -> dict[str, Any]:
    """A deal's result as the server stores it and a replay gives it (history.entries.deal_result)."""
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


@pytest.mark.parametrize("rules", GAMES, ids=_name)
def test_every_deal_replays_through_the_cli_and_its_frames_to_the_engines_record(rules: Rules) -> None:
    """Every deal of a whole match is a CLI document that scores as the engine did (R5; V0.6 auction,
    V0.7 talon, V0.8 contract, ruling V0.6a thrown in), and its frames step there with every card
    accounted for (R7: all hands face up, the stock's too)."""
    seed = GAMES.index(rules)
    match, log = random_match(rules, seed, random.Random(1001 + seed))
    results = {r.number: stored(r) for r in match.history}
    replay = match_replay("m_1", [], rules, seed, log, results)
    deals = match_deals(rules, seed, log)
    assert [d["number"] for d in replay["deals"]] == [d.number for d in deals] == [r.number for r in match.history]
    assert sum(len(d.plays) for d in deals) == len(log)
    for deal, document, record in zip(deals, replay["deals"], match.history, strict=True):
        replayed = document["replay"]
        assert replayed["rules"] == rules.to_dict() and Rules.from_dict(replayed["rules"]) == rules
        if rules.two_hand:  # the contract's two-hand documents: a stock, no totals (docs/engine-cli.md)
            assert list(replayed) == ["rules", "deal", "actions"] and list(replayed["deal"]) == [
                "dealer",
                "hands",
                "stock",
            ]
        else:
            before = [t - s for t, s in zip(record.totals, record.result.score, strict=True)]
            assert replayed["totals"] == list(deal.start.totals) == before
            assert ("talon" in replayed["deal"]) is bool(rules.layout.talon_size)
        check_cli_result(replayed, document["result"])
        frames = deal_frames(deal)
        check_table_frames(frames, replayed, document["result"])
        assert frames[0]["turn"] == deal.start.turn and frames[0]["trick"] == []
        declared = [f["declared"] for f in frames if f["declared"]]
        assert declared == frames[-1]["declarations"]
        assert all(f["trump"] == f["declared"]["suit"] for f in frames if f["declared"])  # R3: trump at once


def test_the_family_replays_cover_every_end_of_an_auction() -> None:
    thrown_in = made = failed = 0
    for seed, rules in enumerate(GAMES):
        match, _ = random_match(rules, seed, random.Random(1001 + seed))
        thrown_in += sum(r.result.thrown_in for r in match.history)
        made += sum(r.result.made is True for r in match.history)
        failed += sum(r.result.made is False for r in match.history)
    assert thrown_in and made and failed


@pytest.mark.parametrize("rules", (GAMES[0], GAMES[-1]), ids=_name)
def test_r6_2_v0_10a_a_resignation_leaves_the_deal_it_cut_short(rules: Rules) -> None:
    """A resignation ends the match; the deal it cut short replays to where it stopped."""
    _, log = random_match(rules, 5, random.Random(5))
    deals = match_deals(rules, 5, log)
    cut_at = len(deals[0].plays) + 12
    cut = [*log[:cut_at], ActionRecord(2 % rules.n, "resign", reason="resign")]
    cut_deals = match_deals(rules, 5, cut)
    assert [len(d.plays) for d in cut_deals] == [len(deals[0].plays), 12]
    document = match_replay("m_2", [], rules, 5, cut, {})["deals"][1]
    assert document["result"] is None
    check_cli_result(document["replay"], None)
    frames = deal_frames(cut_deals[1])
    check_table_frames(frames, document["replay"], None)
    assert frames[-1]["score"] is None and frames[-1]["made"] is None
