"""Writes the table's node-test fixtures (frontend/js/table/fixtures/*.json) from the real engine.

One engine and one message shape for every game of the family (protocol 2): each fixture is a list of
`state` messages for one seat (or `watch_state` messages for a spectator, ``seat=None``) as the server
sends them — the view is ``engine.view_for(match, seat)`` and the events ``engine.events_for``,
serialized by pydantic as the socket does, and every message is checked against the server's own
models (``backend.rooms.messages.server_message``). The replay answers are built by the server's own
frame builder (``backend.rooms.replay.deal_frames``). Seeded and scripted, so the files only change
when the engine does. The analyses of the replayed deals (components/analysis-data.js) are the
server's rater's (``backend.analysis``, with the server's seeds ``rating_seed``) in the stored shape
(``analysis_document``), each answer checked against the API's own model (``DealAnalysisState``).

Written for two-hand 1001 (2 seats), McLeod (V2, 3 seats) and 1001 with bidding (V7, 4 seats): the
node tests run the same checks over the three seat counts.

Run from the repository root: ``.venv/bin/python frontend/tools/table_fixtures.py``
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pydantic import TypeAdapter  # noqa: E402

from backend.analysis import decisions, rate, summarize  # noqa: E402
from backend.api.schemas import DealAnalysisState  # noqa: E402
from backend.engine import (  # noqa: E402
    Bid,
    Discard,
    MatchState,
    Pass,
    Play,
    Resign,
    Rules,
    SeatView,
    apply,
    events_for,
    legal_actions,
    legal_bids,
    new_game,
    view_for,
)
from backend.engine.cards import CARD_POINTS, KING, QUEEN, SUITS, cards_in  # noqa: E402
from backend.rooms.analysis import analysis_document, rating_seed  # noqa: E402
from backend.rooms.messages import EventOut, server_message  # noqa: E402
from backend.rooms.replay import ReplayDeal, deal_frames  # noqa: E402

OUT = ROOT / "frontend" / "js" / "table" / "fixtures"
NAMES = ["Anna", "Ben", "Cleo", "Dora"]
VIEW = TypeAdapter(SeatView)
EVENTS = TypeAdapter(list[EventOut])
CREATED = "2026-11-29T21:30:00Z"

# The games the fixtures cover: a tag, its rules and the seed of its match.
GAMES = (
    ("twohand2", Rules(), 6),
    ("mcleod3", Rules("mcleod", jungfrau=True), 7),
    ("bidding4", Rules("bidding", seats=4, jungfrau=True), 11),
)


def room(rules: Rules, version: int, *, status: str = "playing", bots: tuple[int, ...] = ()) -> dict[str, Any]:
    """The room as a state message carries it: every rules field in its options (protocol 2)."""
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
    options = {
        "variant": rules.game.id,
        "seats": rules.n,
        "target": rules.goal,
        "scoring": rules.scoring,
        "jungfrau": rules.jungfrau,
        "open_scores": rules.open_scores,
        "declaration_scoring": rules.declaration_scoring,
        "show_stock_bottom": rules.show_stock_bottom,
        "deck_size": rules.layout.deck_size,
        "stake_per_point": "0",
        "currency": "chips",
        "reconnect_grace_s": 120,
        "bot_level": "medium" if bots else None,
        "spectators": True,
        "computer_seats": list(bots),
    }
    return {
        "id": "r_fixture",
        "invite_code": "fixture",
        "visibility": "private",
        "status": status,
        "options": options,
        "players": players,
        "match_id": "m_fixture",
        "version": version,
        "rematch": None,
        "created_at": CREATED,
    }


def message(match: MatchState, seat: int | None, version: int, events: tuple = (), **room_kw: Any) -> dict[str, Any]:
    """What ``seat`` is sent after an action: a ``state``, or a spectator's ``watch_state`` (``seat`` None)."""
    body: dict[str, Any] = {
        "version": version,
        "room": room(match.rules, version, status="finished" if match.over else "playing", **room_kw),
        "view": VIEW.dump_python(view_for(match, seat), mode="json"),
        "events": EVENTS.dump_python(list(events_for(events, seat)), mode="json"),
    }
    if seat is None:
        body["room"]["invite_code"] = None
        msg = {"type": "watch_state", **body, "watchers": 1}
    else:
        msg = {"type": "state", "reply_to": None, **body, "stake": None, "stakes": [], "resign_price": None}
    server_message.validate_python(msg)  # the server's own models: the fixture is what a client gets
    return msg


Policy = Callable[[MatchState, int, random.Random], object]


def declarer_policy(me: int, stop_at: int = 70) -> Policy:
    """``me`` bids the lowest bid each turn; the others bid once, below ``stop_at``, then pass."""
    bid_once: set[int] = set()

    def choose(match: MatchState, seat: int, rng: random.Random) -> object:
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


def play_policy(match: MatchState, seat: int, rng: random.Random) -> object:
    actions = legal_actions(match, seat)
    declaring = [a for a in actions if isinstance(a, Play) and a.declare]
    return declaring[0] if declaring else rng.choice(actions)


def all_pass(match: MatchState, seat: int, rng: random.Random) -> object:
    return Pass()


def run(
    rules: Rules,
    seed: int,
    me: int | None,
    policy: Policy,
    stop: Callable[[MatchState, tuple], bool],
    **room_kw: Any,
) -> list[dict[str, Any]]:
    """Play from a new match until ``stop(match, events)``; return every message ``me`` got on the way."""
    rng = random.Random(seed)
    match = new_game(rules, seed)
    out = [message(match, me, 1, **room_kw)]
    version = 1
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        match, events = apply(match, seat, policy(match, seat, rng))
        version += 1
        out.append(message(match, me, version, events, **room_kw))
        if stop(match, events):
            break
    return out


def first(states: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for m in states:
        if test(m):
            return m
    raise AssertionError("no state matched")


def write(name: str, data: object) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    (OUT / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    print(f"{name}.json {len(text)} bytes")


def view(m: dict[str, Any]) -> dict[str, Any]:
    return m["view"]


def deal(m: dict[str, Any]) -> dict[str, Any]:
    return m["view"]["deal"]


def kinds(m: dict[str, Any]) -> set[str]:
    return {e["kind"] for e in m["events"]}


def first_deal(rules: Rules, seed: int, policy: Policy) -> tuple[MatchState, Any, list[tuple[int, Any]]]:
    """The first deal of a new match played by ``policy``: the match after it, its start and its plays."""
    rng = random.Random(seed)
    match = new_game(rules, seed)
    start, plays = match.deal, []
    while match.deal_number == 0 and not match.over:
        seat = match.deal.turn
        assert seat is not None
        action = policy(match, seat, rng)
        match, _ = apply(match, seat, action)
        plays.append((seat, action))
    return match, start, plays


def replay_answer(rules: Rules, seed: int, policy: Policy, *, bots: tuple[int, ...] = ()) -> dict[str, Any]:
    """The first deal of a new match as ``GET /api/matches/{id}/deals/0/replay`` answers it: the
    frames from ``backend.rooms.replay.deal_frames``, the stored result from the history."""
    match, start, plays = first_deal(rules, seed, policy)
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
        "variant": rules.game.id,
        "dealer": start.dealer,
        "players": [{key: p[key] for key in ("seat", "id", "name", "bot_level")} for p in players],
        "result": result,
        "frames": deal_frames(ReplayDeal(0, start, tuple(plays))),
    }


def analysis_answer(rules: Rules, seed: int, policy: Policy) -> dict[str, Any]:
    """The same first deal's analysis as ``GET /api/matches/{id}/deals/0/analysis`` answers it once
    done: every decision rated by the server's rater with the server's seed for it (``seed`` is the
    match's), in the stored shape, checked against the API's model."""
    _, start, plays = first_deal(rules, seed, policy)
    ratings = [rate(d, rating_seed(seed, 0, d.step)) for d in decisions(start, plays)]
    body = {
        "match_id": "m_fixture",
        "number": 0,
        "status": "done",
        "done": len(ratings),
        "total": len(ratings),
        "analysis": analysis_document(rules.n, summarize(rules.n, ratings)),
        "message": None,
    }
    DealAnalysisState.model_validate(body)
    return body


def new_deal(m: dict[str, Any]) -> bool:
    return "deal_started" in kinds(m)


def main() -> None:
    for tag, rules, seed in GAMES:
        auction = rules.game.has_auction
        dealing = run(rules, seed, 0, declarer_policy(0), lambda m, e: any(x.kind == "deal_started" for x in e))
        if auction:
            # The auction at my turn, after the others have called.
            called = rules.n - 1
            write(
                f"{tag}-auction",
                [first(dealing, lambda m, k=called: view(m)["may_pass"] and len(deal(m)["calls"]) >= k)],
            )
            # The talon taken: I am to discard two.
            write(f"{tag}-discard", [first(dealing, lambda m: view(m)["must_discard"])])
            # Seen by another seat: the declarer's talon and discards stay hidden (V0.11).
            other = run(rules, seed, 1, declarer_policy(0), lambda m, e: any(x.kind == "discarded" for x in e))
            write(f"{tag}-other-discarded", [other[-1]])
        # Play: my turn to answer a trick, with a last trick on the table and a card I may not play if any.
        playing = [m for m in dealing if deal(m)["phase"] == "play" and view(m)["legal"] and deal(m)["trick"]["cards"]]
        blocked = [m for m in playing if view(m)["blocked"] and deal(m)["last_trick"]]
        write(f"{tag}-play", [(blocked or playing)[0]])
        # My lead (two-hand: in R4's phase 1, with the stock open).
        write(
            f"{tag}-lead",
            [
                first(
                    dealing, lambda m: deal(m)["phase"] == "play" and view(m)["legal"] and not deal(m)["trick"]["cards"]
                )
            ],
        )
        # The end of the deal: the state before the last card and the one that ends the deal.
        end = next(i for i, m in enumerate(dealing) if "deal_over" in kinds(m))
        write(f"{tag}-deal-over", [dealing[end - 1], dealing[end]])
        # A spectator (``seat`` None) at the same table: no hand, every seat counted.
        watched = run(rules, seed, None, declarer_policy(0), lambda m, e: any(x.kind == "deal_started" for x in e))
        write(f"{tag}-spectator", [first(watched, lambda m: deal(m)["phase"] == "play" and deal(m)["trick"]["cards"])])
        # A whole match to the lowest target, with a computer seat, and a resignation (R6.2, ruling V0.10a).
        low = Rules(rules.game.id, seats=rules.n, target=rules.game.targets[-1])
        whole = run(low, seed, 0, declarer_policy(0), lambda m, e: False, bots=(1,))
        write(f"{tag}-match-over", whole[-1:])
        match = new_game(rules, seed + 10)
        match, events = apply(match, 1, Resign())
        write(f"{tag}-resigned", [message(match, 0, 2, events)])

    # Everybody passes: the cards are thrown in (ruling V0.6a).
    rules = Rules("mcleod")
    thrown = run(rules, 5, 0, all_pass, lambda m, e: any(x.kind == "thrown_in" for x in e))
    write("mcleod3-thrown-in", thrown[-2:])

    # Replays of a first deal (views/replay.js): two-hand 1001 with its stock; an auction, the talon
    # and discard, and the play; and one everybody passed.
    write("replay-twohand2", replay_answer(Rules(), 6, play_policy, bots=(1,)))
    write("replay-mcleod3", replay_answer(Rules("mcleod"), 7, declarer_policy(0), bots=(1, 2)))
    write("replay-bidding4", replay_answer(Rules("bidding", seats=4), 11, declarer_policy(0)))
    write("replay-thrown-in", replay_answer(Rules("mcleod"), 5, all_pass))
    # Their analyses (components/analysis-data.js): the cards of two hands; calls, a discard and cards.
    write("analysis-twohand2", analysis_answer(Rules(), 6, play_policy))
    write("analysis-mcleod3", analysis_answer(Rules("mcleod"), 7, declarer_policy(0)))
    write("analysis-bidding4", analysis_answer(Rules("bidding", seats=4), 11, declarer_policy(0)))


if __name__ == "__main__":
    main()
