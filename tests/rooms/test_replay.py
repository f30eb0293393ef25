"""The pure replay builder: a match's log cut into replay-CLI documents and viewer frames (issue 12)."""

from __future__ import annotations

import random

from backend.cli.replay import run
from backend.db.writes import ActionRecord
from backend.engine import Rules, legal_actions, new_match
from backend.engine import match as match_rules
from backend.engine.cards import CARD_NAMES
from backend.rooms.replay import deal_frames, match_deals, match_replay


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
