"""The one engine against the two it replaced, in lockstep (issue 21).

``golden/engine_traces.json.gz`` was written by the engines of two-hand 1001 and of the games for
three and four as they were before the unification (``tests/engine/golden/make_golden.py`` in the
commit "Golden traces of today's two engines and bots", removed with the old engines): 96 matches of
every two-hand rule set and every variant, played by a seeded random player, each step with digests
of the legal actions, the refusal code of every probe (each card, bids, passes, discards, by the
mover and by another seat), the events as every seat and a spectator were told them, every seat's
and the spectator's view, and the payments at the end — each a canonical projection whose meaning
both engines share. Here the same matches are played through the unified engine and every digest
must match, step by step.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import fields, is_dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from backend.engine import (
    Bid,
    Discard,
    IllegalAction,
    MatchAction,
    MatchState,
    Pass,
    Play,
    Resign,
    Rules,
    apply,
    events_for,
    legal_actions,
    new_game,
    payments,
    view_for,
)

GOLDEN = Path(__file__).parent / "golden"
BIDS = (0, 5, 10, 30, 40, 50, 100, 120, 130, 140, 200, 300)
RECORD_COMMON = ("number", "dealer", "seed", "card_points", "declarations", "declaration_points", "score", "totals")
RECORD_TABLE = ("thrown_in", "declarer", "contract", "made", "deal_points", "jungfrau")
ACTIONS: dict[str, type] = {"Play": Play, "Bid": Bid, "Pass": Pass, "Discard": Discard, "Resign": Resign}


@cache
def traces() -> list[dict[str, Any]]:
    with gzip.open(GOLDEN / "engine_traces.json.gz", "rt") as source:
        loaded: list[dict[str, Any]] = json.load(source)
        return loaded


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


LEAVES = (str, int, float, bool, type(None))


@cache
def field_names(kind: type) -> tuple[str, ...] | None:
    """A dataclass's fields, looked up once per class; None for any other class."""
    return tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None


def plain(value: Any) -> Any:
    """JSON's values (dataclasses as dicts, tuples as lists, Decimals as text), in one pass: asdict
    would deep-copy every leaf first, two thirds of this test's time."""
    if isinstance(value, LEAVES):
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, Decimal):
        return str(value)
    names = field_names(type(value))
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    return value


def canon_view(match: MatchState, seat: int | None) -> dict[str, Any]:
    v = plain(view_for(match, seat))
    deal, table = v["deal"], not match.rules.two_hand
    out: dict[str, Any] = {
        "seat": seat,
        "totals": v["totals"],
        "target": v["target"],
        "deal_number": v["deal_number"],
        "end_reason": v["end_reason"],
        "winner_on_target": v["winner"] if v["end_reason"] == "target" else None,
        "loser": v["loser"],
        "dealer": deal["dealer"],
        "forehand": deal["forehand"],
        "turn": deal["turn"],
        "hand": deal["hand"],
        "hand_counts": deal["hand_counts"],
        "stock_count": deal["stock_count"],
        "stock_bottom": deal["stock_bottom"],
        "trump": deal["trump"],
        "declarations": deal["declarations"],
        "trick": deal["trick"],
        "last_trick": deal["last_trick"],
        "tricks_played": deal["tricks_played"],
        "my_card_points": deal["my_card_points"],
        "card_points": deal["card_points"],
        "legal": v["legal"],
        "blocked": v["blocked"],
        "history": [{k: r[k] for k in RECORD_COMMON + (RECORD_TABLE if table else ())} for r in v["history"]],
    }
    if table:
        out |= {k: deal[k] for k in ("phase", "talon_count", "talon", "discards", "calls", "high_bid")}
        out |= {k: deal[k] for k in ("declarer", "contract", "tricks_won")}
        out |= {k: v[k] for k in ("bids", "may_pass", "must_discard")}
    return out


def canon_event(event: Any, table: bool) -> dict[str, Any]:
    e = plain(event)
    if e["kind"] == "deal_over":
        keep = ("kind", "number", "card_points", "declaration_points", "score", "totals", "seed")
        return {k: e[k] for k in keep + (RECORD_TABLE if table else ())}
    if e["kind"] == "match_over":
        target = e["reason"] == "target"
        winner = e["winner"] if target else None
        return {"kind": "match_over", "reason": e["reason"], "totals": e["totals"], "winner_on_target": winner,
                "loser": e["loser"]}  # fmt: skip
    return e


def observed(match: MatchState, events: Any) -> dict[str, Any]:
    observers = (*range(match.rules.n), None)
    table = not match.rules.two_hand
    return {
        "events": [digest([canon_event(e, table) for e in events_for(events, seat)]) for seat in observers],
        "views": [digest(canon_view(match, seat)) for seat in observers],
    }


def probes(match: MatchState) -> list[tuple[int, MatchAction]]:
    seat = match.deal.turn
    assert seat is not None
    other = (seat + 1) % match.rules.n
    out: list[tuple[int, MatchAction]] = []
    for card in range(32):
        out.append((seat, Play(card)))
        if card & 7 in (2, 3):
            out.append((seat, Play(card, True)))
    out.append((other, Play(0)))
    out += [(seat, Bid(amount)) for amount in BIDS]
    out += [(seat, Pass()), (other, Pass())]
    hand = [c for c in range(32) if match.deal.hands[seat] >> c & 1]
    if len(hand) >= 2:
        out += [(seat, Discard(hand[0], hand[1])), (seat, Discard(hand[0], hand[0]))]
    missing = next(c for c in range(32) if not match.deal.hands[seat] >> c & 1)
    out.append((seat, Discard(hand[0], missing)))
    return out


def refusal(match: MatchState, seat: int, action: MatchAction) -> str | None:
    try:
        apply(match, seat, action)
    except IllegalAction as illegal:
        return illegal.code.value
    return None


def action_of(recorded: dict[str, Any]) -> MatchAction:
    fields = {k: v for k, v in recorded.items() if k != "type"}
    made: MatchAction = ACTIONS[recorded["type"]](**fields)
    return made


@pytest.mark.parametrize("index", range(96))
def test_the_unified_engine_plays_every_recorded_match_in_lockstep(index: int) -> None:
    trace = traces()[index]
    match = new_game(Rules.from_dict(trace["rules"]), trace["seed"])
    assert observed(match, ()) == trace["first"]
    for number, step in enumerate(trace["steps"]):
        seat = match.deal.turn
        assert seat is not None
        where = f"{trace['rules']} step {number}"
        assert digest([plain(a) | {"type": type(a).__name__} for a in legal_actions(match, seat)]) == step["legal"], (
            where
        )
        assert digest([refusal(match, s, a) for s, a in probes(match)]) == step["refusals"], where
        mover, recorded = step["action"]
        match, events = apply(match, mover, action_of(recorded))
        seen = observed(match, events)
        assert seen["events"] == step["events"], where
        assert seen["views"] == step["views"], where
    assert match.over
    assert [[p, q, str(a)] for p, q, _, a in payments(match, Decimal("0.05"))] == trace["payments"]


def test_the_golden_traces_cover_every_game() -> None:
    games = {(t["rules"].get("variant", "twohand"), t["rules"].get("seats", 2)) for t in traces()}
    assert games == {("twohand", 2), ("mcleod", 3), ("rassel", 3), ("thousand3", 3), ("thousand4", 4),
                     ("bidding", 3), ("bidding", 4)}  # fmt: skip
    assert len(traces()) == 96 and sum(len(t["steps"]) for t in traces()) > 10_000
