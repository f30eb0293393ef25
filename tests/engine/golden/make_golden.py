"""Write the golden traces of today's engine and bots (run once, before the engines are unified).

    .venv/bin/python -m tests.engine.golden.make_golden

Each trace is a match played by a seeded random player through the engine as the rooms use it:
at every step the action taken and digests of what the engine said — the legal actions, the
refusal code of every probe (each card, bids, passes, discards, by the mover and by another seat),
the events as every seat and a spectator were told them, every seat's and the spectator's view,
and at the end the payments — each as a canonical JSON projection whose meaning is common to the
two engines of today and to the one that replaces them (``tests/engine/test_lockstep.py`` computes
the same projection from the new engine). Bots: the action each level chose at sampled positions.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from dataclasses import asdict, is_dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from backend.bots.expert import ExpertBot
from backend.bots.table_players import choose_table_action
from backend.engine.table_deal import Bid, Discard, Pass
from backend.engine.table_match import TableMatchState

from backend.bots import choose, knowledge_from_view
from backend.engine import IllegalAction, Play, Resign, Rules, legal_actions, legal_table_actions
from backend.engine.variants import TableRules
from backend.rooms import game

HERE = Path(__file__).parent

TWO_HAND = [
    Rules(target=301),
    Rules(target=301, declaration_scoring="by_order"),
    Rules(target=301, show_stock_bottom=True, open_scores=True),
    Rules(target=501, deck_size=32, show_stock_bottom=True),
    Rules(target=301, jungfrau=True, declaration_scoring="by_order"),
    Rules(target=301, deck_size=32, jungfrau=True, open_scores=True),
]
VARIANTS = [
    TableRules("mcleod", target=301),
    TableRules("rassel", target=300, open_scores=True),
    TableRules("thousand3", target=301),
    TableRules("thousand3", scoring="simplified", jungfrau=True),
    TableRules("thousand4", target=301, jungfrau=True),
    TableRules("bidding", seats=3, target=301),
    TableRules("bidding", seats=4, target=301, jungfrau=True),
    TableRules("mcleod", target=301, jungfrau=True, open_scores=True),
]
BIDS = (0, 5, 10, 30, 40, 50, 100, 120, 130, 140, 200, 300)


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return plain(asdict(value))
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    return value


# ---------------------------------------------------------------- canonical projections (old engines)

RECORD_COMMON = ("number", "dealer", "seed", "card_points", "declarations", "declaration_points", "score", "totals")
RECORD_TABLE = ("thrown_in", "declarer", "contract", "made", "deal_points", "jungfrau")


def canon_view(view: Any, n: int) -> dict[str, Any]:
    v = plain(view)
    deal = v["deal"]
    table = "variant" in deal
    spectator = v.get("spectator", False) or v.get("seat", 0) is None
    seat = None if spectator else v["seat"]
    if table or spectator:
        counts = deal["hand_counts"]
    else:
        counts = [0, 0]
        counts[seat] = len(deal["hand"])
        counts[1 - seat] = deal["opponent_cards"]
    out: dict[str, Any] = {
        "seat": seat,
        "totals": v["totals"],
        "target": v["target"],
        "deal_number": v["deal_number"],
        "end_reason": v["end_reason"],
        "winner_on_target": v["winner"] if v["end_reason"] == "target" else None,
        "loser": v.get("loser")
        if table
        else (None if v["winner"] is None or v["end_reason"] == "target" else 1 - v["winner"]),
        "dealer": deal["dealer"],
        "forehand": deal["forehand"],
        "turn": deal["turn"],
        "hand": None if spectator else list(deal["hand"]),
        "hand_counts": list(counts),
        "stock_count": 0 if table else deal["stock_count"],
        "stock_bottom": None if table else deal["stock_bottom"],
        "trump": deal["trump"],
        "declarations": deal["declarations"],
        "trick": deal["trick"],
        "last_trick": deal["last_trick"],
        "tricks_played": deal["tricks_played"],
        "my_card_points": None if spectator else deal["my_card_points"],
        "card_points": deal["card_points"],
        "legal": [] if spectator else v["legal"],
        "blocked": [] if spectator else v["blocked"],
        "history": [{k: r[k] for k in RECORD_COMMON + (RECORD_TABLE if table else ())} for r in v["history"]],
    }
    if table:
        out |= {
            "phase": deal["phase"],
            "talon_count": deal["talon_count"],
            "talon": deal["talon"],
            "discards": deal["discards"],
            "calls": deal["calls"],
            "high_bid": deal["high_bid"],
            "declarer": deal["declarer"],
            "contract": deal["contract"],
            "tricks_won": deal["tricks_won"],
            "bids": v["bids"],
            "may_pass": v["may_pass"],
            "must_discard": v["must_discard"],
        }
    return out


def canon_event(event: Any, table: bool) -> dict[str, Any]:
    e = plain(event)
    kind = e["kind"]
    if kind == "deal_over":
        keep = ("kind", "number", "card_points", "declaration_points", "score", "totals", "seed")
        if table:
            keep += RECORD_TABLE
        return {k: e[k] for k in keep}
    if kind == "match_over":
        loser = e.get("loser") if table else (None if e["reason"] == "target" else 1 - e["winner"])
        return {
            "kind": kind,
            "reason": e["reason"],
            "totals": e["totals"],
            "winner_on_target": e["winner"] if e["reason"] == "target" else None,
            "loser": loser,
        }
    return e


def probes(match: game.Game, n: int) -> list[tuple[int, game.GameAction]]:
    seat = match.deal.turn
    assert seat is not None
    other = (seat + 1) % n
    out: list[tuple[int, game.GameAction]] = []
    for card in range(32):
        out.append((seat, Play(card)))
        if card & 7 in (2, 3):
            out.append((seat, Play(card, True)))
    out.append((other, Play(next(iter(range(32))))))
    for amount in BIDS:
        out.append((seat, Bid(amount)))
    out += [(seat, Pass()), (other, Pass())]
    hand = [c for c in range(32) if match.deal.hands[seat] >> c & 1]
    if len(hand) >= 2:
        out += [(seat, Discard(hand[0], hand[1])), (seat, Discard(hand[0], hand[0]))]
    missing = next(c for c in range(32) if not match.deal.hands[seat] >> c & 1)
    out.append((seat, Discard(hand[0], missing)))
    return out


def refusal(match: game.Game, seat: int, action: game.GameAction) -> str | None:
    try:
        game.apply(match, seat, action)
    except IllegalAction as illegal:
        return illegal.code.value
    return None


def observed(match: game.Game, events: Any, n: int) -> dict[str, Any]:
    table = isinstance(match, TableMatchState)
    return {
        "events": [
            digest([canon_event(e, table) for e in game.events_for(match, events, seat)]) for seat in (*range(n), None)
        ],
        "views": [digest(canon_view(game.view_for(match, seat), n)) for seat in (*range(n), None)],
    }


def legal_of(match: game.Game, seat: int) -> list[Any]:
    if isinstance(match, TableMatchState):
        return [plain(a) | {"type": type(a).__name__} for a in legal_table_actions(match.deal, seat)]
    return [plain(a) | {"type": type(a).__name__} for a in legal_actions(match.deal, seat)]


def pick(match: game.Game, seat: int, rng: random.Random) -> game.GameAction:
    moves = (
        legal_table_actions(match.deal, seat) if isinstance(match, TableMatchState) else legal_actions(match.deal, seat)
    )
    bids = [m for m in moves if isinstance(m, Bid)]
    if bids and rng.random() < 0.35:
        return min(bids, key=lambda b: b.amount) if rng.random() < 0.7 else rng.choice(bids)
    rest = [m for m in moves if not isinstance(m, Bid)]
    return rng.choice(rest or moves)


def trace(rules: game.GameRules, seed: int, rng: random.Random, resign_at: int | None) -> dict[str, Any]:
    n = game.seat_count(rules)
    match = game.new_game(rules, seed)
    steps = []
    first = observed(match, (), n)
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        step: dict[str, Any] = {
            "legal": digest(legal_of(match, seat)),
            "refusals": digest([refusal(match, s, a) for s, a in probes(match, n)]),
        }
        if resign_at is not None and len(steps) == resign_at:
            action: game.GameAction = Resign("resign")
            mover = (seat + 1) % n
        else:
            action, mover = pick(match, seat, rng), seat
        match, events = game.apply(match, mover, action)
        step["action"] = [mover, plain(action) | {"type": type(action).__name__}]
        step |= observed(match, events, n)
        steps.append(step)
    pays = [[p, q, str(a)] for p, q, _, a in game.payments(match, Decimal("0.05")) if a]
    return {"rules": rules.to_dict(), "seed": seed, "first": first, "steps": steps, "payments": pays}


def bot_positions(rules: game.GameRules, seed: int, rng: random.Random, levels: tuple[str, ...]) -> list[Any]:
    """Positions of a random match, each with every level's choice (rng seeded per position)."""
    n = game.seat_count(rules)
    match = game.new_game(rules, seed)
    received: list[list[Any]] = [[] for _ in range(n)]
    out = []
    while not match.over and len(out) < 40:
        seat = match.deal.turn
        assert seat is not None
        if rng.random() < 0.5:
            view = game.view_for(match, seat)
            choices = {}
            for level in levels:
                if isinstance(match, TableMatchState):
                    action = choose_table_action(level, view, received[seat], random.Random(len(out)))  # type: ignore[arg-type]
                elif level == "expert":
                    ticks = iter(range(10**9))
                    bot = ExpertBot(clock=lambda: next(ticks) * 1e-4)
                    action = bot.choose(knowledge_from_view(view, received[seat]), random.Random(len(out)))  # type: ignore[arg-type]
                else:
                    action = choose(level, knowledge_from_view(view, received[seat]), random.Random(len(out)))  # type: ignore[arg-type]
                choices[level] = plain(action) | {"type": type(action).__name__}
            out.append({"step": sum(len(r) for r in received), "seat": seat, "choices": choices})
        action = pick(match, seat, rng)
        match, events = game.apply(match, seat, action)
        for s in range(n):
            received[s].extend(game.events_for(match, events, s))
        if any(e.kind == "deal_started" for e in events):
            received = [[] for _ in range(n)]
    return out


def main() -> None:
    traces = []
    for i, rules in enumerate(TWO_HAND):
        for k in range(8):
            rng = random.Random(1000 * i + k)
            traces.append(trace(rules, rng.randrange(1 << 64), rng, rng.choice([None, None, None, rng.randrange(60)])))
    for i, rules in enumerate(VARIANTS):
        for k in range(6):
            rng = random.Random(7000 + 1000 * i + k)
            traces.append(trace(rules, rng.randrange(1 << 64), rng, rng.choice([None, None, None, rng.randrange(90)])))
    with gzip.open(HERE / "engine_traces.json.gz", "wt") as out:
        json.dump(traces, out, separators=(",", ":"))
    bots = []
    for i, rules in enumerate(TWO_HAND[:4]):
        rng = random.Random(500 + i)
        bots.append(
            {
                "rules": rules.to_dict(),
                "seed": (seed := rng.randrange(1 << 64)),
                "play_rng": (pr := rng.randrange(1 << 30)),
                "positions": bot_positions(rules, seed, random.Random(pr), ("easy", "medium", "hard", "expert")),
            }
        )
    for i, rules in enumerate(VARIANTS[:6]):
        rng = random.Random(900 + i)
        bots.append(
            {
                "rules": rules.to_dict(),
                "seed": (seed := rng.randrange(1 << 64)),
                "play_rng": (pr := rng.randrange(1 << 30)),
                "positions": bot_positions(rules, seed, random.Random(pr), ("easy", "medium", "hard")),
            }
        )
    with gzip.open(HERE / "bot_choices.json.gz", "wt") as out:
        json.dump(bots, out, separators=(",", ":"))
    print(
        len(traces),
        "traces,",
        sum(len(t["steps"]) for t in traces),
        "steps;",
        sum(len(b["positions"]) for b in bots),
        "bot positions",
    )


if __name__ == "__main__":
    main()
