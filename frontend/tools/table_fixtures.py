"""Writes the n-seat table's node-test fixtures (frontend/js/table/fixtures/*.json) from the real engine.

Each fixture is a list of `state` messages for one seat, as the server sends them: the view is
``dataclasses.asdict(table_seat_view(match, seat))`` and the events are ``table_events_for_seat``.
Seeded and scripted, so the files only change when the engine does.

Run from the repository root: ``.venv/bin/python frontend/tools/table_fixtures.py``
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from backend.engine.cards import CARD_POINTS, KING, QUEEN, SUITS, cards_in  # noqa: E402
from backend.engine.deal import Play  # noqa: E402
from backend.engine.match import Resign  # noqa: E402
from backend.engine.table_deal import Bid, Discard, Pass, legal_bids, legal_table_actions  # noqa: E402
from backend.engine.table_match import TableMatchState, apply_table_match, new_table_match  # noqa: E402
from backend.engine.table_view import table_events_for_seat, table_seat_view  # noqa: E402
from backend.engine.variants import TableRules  # noqa: E402
from backend.rooms.replay import TableReplayDeal, table_deal_frames  # noqa: E402

OUT = ROOT / "frontend" / "js" / "table" / "fixtures"
NAMES = ["Anna", "Ben", "Cleo", "Dora"]


def room(rules: TableRules, version: int, *, status: str = "playing", bots: tuple[int, ...] = ()) -> dict:
    players = [
        {
            "seat": s,
            "id": f"p{s}",
            "name": NAMES[s],
            "connected": s != 2,
            "grace_deadline": None,
            "bot_level": "medium" if s in bots else None,
        }
        for s in range(rules.n)
    ]
    return {
        "id": "r_fixture",
        "invite_code": "fixture",
        "visibility": "private",
        "status": status,
        "options": {**rules.to_dict(), "stake_per_point": "0", "currency": "chips", "reconnect_grace_s": 120},
        "players": players,
        "match_id": "m_fixture",
        "version": version,
        "rematch": None,
    }


def message(match: TableMatchState, seat: int, version: int, events: tuple = (), **room_kw) -> dict:
    return {
        "type": "state",
        "version": version,
        "reply_to": None,
        "room": room(match.rules, version, status="finished" if match.over else "playing", **room_kw),
        "view": dataclasses.asdict(table_seat_view(match, seat)),
        "events": [dataclasses.asdict(e) for e in table_events_for_seat(events, seat)],
        "stake": None,
        "resign_price": None,
    }


Policy = Callable[[TableMatchState, int, random.Random], object]


def declarer_policy(me: int, stop_at: int = 70) -> Policy:
    """``me`` bids the lowest bid each turn; the others bid once, below ``stop_at``, then pass."""
    bid_once: set[int] = set()

    def choose(match: TableMatchState, seat: int, rng: random.Random) -> object:
        deal = match.deal
        if deal.phase == "auction":
            bids = legal_bids(deal, seat)
            if seat == me:
                return Bid(bids[0]) if bids else Pass()
            if seat not in bid_once and bids and bids[0] < stop_at:
                bid_once.add(seat)
                return Bid(bids[0])
            return Pass()
        if deal.phase == "discard":  # the two lowest cards that are not K or Q
            hand = sorted(cards_in(deal.hands[seat]), key=lambda c: (c & 7 in (KING, QUEEN), CARD_POINTS[c]))
            return Discard(hand[0], hand[1])
        return play_policy(match, seat, rng)

    return choose


def play_policy(match: TableMatchState, seat: int, rng: random.Random) -> object:
    actions = legal_table_actions(match.deal, seat)
    declaring = [a for a in actions if isinstance(a, Play) and a.declare]
    return declaring[0] if declaring else rng.choice(actions)


def all_pass(match: TableMatchState, seat: int, rng: random.Random) -> object:
    return Pass()


def run(
    rules: TableRules, seed: int, me: int, policy: Policy, stop: Callable[[TableMatchState, tuple], bool], **room_kw
) -> list[dict]:
    """Play from a new match until ``stop(match, events)``; return every state ``me`` got on the way."""
    rng = random.Random(seed)
    match = new_table_match(rules, seed)
    out = [message(match, me, 1, **room_kw)]
    version = 1
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        match, events = apply_table_match(match, seat, policy(match, seat, rng))
        version += 1
        out.append(message(match, me, version, events, **room_kw))
        if stop(match, events):
            break
    return out


def first(states: list[dict], test: Callable[[dict], bool]) -> dict:
    for m in states:
        if test(m):
            return m
    raise AssertionError("no state matched")


def write(name: str, data: object) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    (OUT / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    print(f"{name}.json {len(text)} bytes")


def view(m: dict) -> dict:
    return m["view"]


def deal(m: dict) -> dict:
    return m["view"]["deal"]


def kinds(m: dict) -> set[str]:
    return {e["kind"] for e in m["events"]}


def replay_answer(rules: TableRules, seed: int, policy: Policy, *, bots: tuple[int, ...] = ()) -> dict:
    """The first deal of a new match as ``GET /api/matches/{id}/deals/0/replay`` answers it: the
    frames from ``backend.rooms.replay.table_deal_frames``, the stored result from the history."""
    rng = random.Random(seed)
    match = new_table_match(rules, seed)
    start, plays = match.deal, []
    while match.deal_number == 0 and not match.over:
        seat = match.deal.turn
        assert seat is not None
        action = policy(match, seat, rng)
        match, _ = apply_table_match(match, seat, action)
        plays.append((seat, action))
    record = match.history[0]
    res = record.result
    result = {
        "card_points": list(res.card_points),
        "declarations": [{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in record.declarations],
        "declaration_points": list(res.declaration_points),
        "score": list(res.score),
        "totals": list(record.totals),
        "declarer": res.declarer,
        "contract": res.contract,
        "made": res.made,
        "thrown_in": res.thrown_in,
    }
    players = room(rules, 1, bots=bots)["players"]
    return {
        "match_id": "m_fixture",
        "number": 0,
        "deals": 2,
        "seats": rules.n,
        "variant": rules.variant,
        "dealer": start.dealer,
        "players": [{key: p[key] for key in ("seat", "id", "name", "bot_level")} for p in players],
        "result": result,
        "frames": table_deal_frames(TableReplayDeal(0, start, tuple(plays))),
    }


def main() -> None:
    for variant, seats, seed, tag in (("mcleod", 3, 7, "mcleod3"), ("bidding", 4, 11, "bidding4")):
        rules = TableRules(variant=variant, seats=seats, jungfrau=True)
        dealing = run(rules, seed, 0, declarer_policy(0), lambda m, e: any(x.kind == "deal_started" for x in e))
        # The auction at my turn, after the others have called.
        called = seats - 1
        write(
            f"{tag}-auction",
            [first(dealing, lambda m, k=called: view(m)["may_pass"] and len(deal(m)["calls"]) >= k)],
        )
        # The talon taken: I am to discard two.
        write(f"{tag}-discard", [first(dealing, lambda m: view(m)["must_discard"])])
        # Play: my turn to answer a trick, with a last trick on the table and a card I may not play if any.
        playing = [m for m in dealing if deal(m)["phase"] == "play" and view(m)["legal"] and deal(m)["trick"]["cards"]]
        blocked = [m for m in playing if view(m)["blocked"] and deal(m)["last_trick"]]
        write(f"{tag}-play", [(blocked or playing)[0]])
        # The end of the deal: the state before the last card and the one that ends the deal.
        end = next(i for i, m in enumerate(dealing) if "deal_over" in kinds(m))
        write(f"{tag}-deal-over", [dealing[end - 1], dealing[end]])
        # Seen by another seat: the declarer's talon and discards stay hidden (V0.11).
        other = run(rules, seed, 1, declarer_policy(0), lambda m, e: any(x.kind == "discarded" for x in e))
        write(f"{tag}-other-discarded", [other[-1]])

    # Everybody passes: the cards are thrown in (ruling V0.6a).
    rules = TableRules(variant="mcleod", seats=3)
    thrown = run(rules, 5, 0, all_pass, lambda m, e: any(x.kind == "thrown_in" for x in e))
    write("mcleod3-thrown-in", thrown[-2:])

    # Replays of a first deal (views/replay.js): an auction, the talon and discard, and the play;
    # and one everybody passed.
    write("replay-mcleod3", replay_answer(TableRules(variant="mcleod", seats=3), 7, declarer_policy(0), bots=(1, 2)))
    write("replay-thrown-in", replay_answer(TableRules(variant="mcleod", seats=3), 5, all_pass))

    # A whole match to 301, and a resignation (ruling V0.10a).
    rules = TableRules(variant="mcleod", seats=3, target=301)
    whole = run(rules, 3, 0, declarer_policy(0), lambda m, e: False, bots=(2,))
    write("mcleod3-match-over", whole[-1:])
    rules4 = TableRules(variant="bidding", seats=4)
    match = new_table_match(rules4, 21)
    match, events = apply_table_match(match, 1, Resign())
    write("bidding4-resigned", [message(match, 0, 2, events)])


if __name__ == "__main__":
    main()
