"""Replays of a stored match: the replay CLI's documents, and the frames the viewer steps through.

Pure functions, no I/O. A match is rebuilt from what the database keeps (its rules, seed and action
log, as ``sql_store.rebuild`` does) through the engine, whatever the game, and cut into deals:

* ``match_replay`` gives every deal as a document of ``python -m backend.cli.replay``
  (``{"rules", "deal": {"dealer", "hands", "stock" or "talon"}, "totals", "actions"}``: two-hand
  1001's have a stock and no totals, the games of three and four a talon where they deal one and
  the match totals before the deal, docs/engine-cli.md), so that a downloaded match reproduces each
  deal exactly through the CLI;
* ``deal_frames`` steps one deal through the engine and gives, after each action, the whole
  position (every hand face up: only for a finished match, R7), so that the viewer never
  re-derives a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from backend import engine
from backend.db.writes import ActionRecord
from backend.engine import Action, Bid, CardDrawn, DealState, Declared, Discard, Pass, Play, Resign, Rules, TrickWon
from backend.engine.cards import CARD_NAMES, SUITS, names
from backend.engine.kernel import NO_TRUMP

from .log import engine_action


@dataclass(frozen=True, slots=True)
class ReplayDeal:
    """One deal: how it was dealt (and the match totals before it) and its actions, in order."""

    number: int
    start: DealState
    plays: tuple[tuple[int, Action], ...]


def match_deals(rules: Rules, seed: int, actions: Sequence[ActionRecord]) -> list[ReplayDeal]:
    """Cut a match's action log into its deals (the one a resignation ended included)."""
    match = engine.new_game(rules, seed)
    deals: list[ReplayDeal] = []
    number, start = 0, match.deal
    plays: list[tuple[int, Action]] = []
    open_deal = True
    for record in actions:
        action = engine_action(record)
        if isinstance(action, Resign):
            break  # a resignation ends the match (R6.2, ruling V0.10a)
        match, _ = engine.apply(match, record.seat, action)
        plays.append((record.seat, action))
        if match.over or match.deal_number != number:  # this deal is over (a thrown-in one too, V0.6a)
            deals.append(ReplayDeal(number, start, tuple(plays)))
            open_deal = not match.over
            number, start, plays = match.deal_number, match.deal, []
    if open_deal:
        deals.append(ReplayDeal(number, start, tuple(plays)))
    return deals


def action_document(seat: int, action: Action) -> dict[str, Any]:
    """One action as the replay CLI reads it: exactly one of play (with declare), bid, pass, discard."""
    match action:
        case Play():
            return {"seat": seat, "play": CARD_NAMES[action.card], "declare": action.declare}
        case Bid():
            return {"seat": seat, "bid": action.amount}
        case Pass():
            return {"seat": seat, "pass": True}
        case Discard():
            return {"seat": seat, "discard": [CARD_NAMES[action.card_a], CARD_NAMES[action.card_b]]}


def deal_document(rules: Rules, deal: ReplayDeal) -> dict[str, Any]:
    """A deal as the replay CLI's input (docs/engine-cli.md): the hands as dealt, the stock (top first)
    or the talon where the game deals one, the match totals before the deal where the game reads them
    (V7.7: not two-hand 1001, whose documents never had them), and its actions."""
    start = deal.start
    dealt: dict[str, Any] = {"dealer": start.dealer, "hands": [names(hand) for hand in start.initial_hands]}
    if start.initial_stock:
        dealt["stock"] = [CARD_NAMES[c] for c in start.initial_stock]
    if start.talon:
        dealt["talon"] = [CARD_NAMES[c] for c in start.talon]
    document: dict[str, Any] = {"rules": rules.to_dict(), "deal": dealt}
    if not rules.two_hand:
        document["totals"] = list(start.totals)
    document["actions"] = [action_document(seat, action) for seat, action in deal.plays]
    return document


def match_replay(
    match_id: str,
    players: Sequence[object],
    rules: Rules,
    seed: int,
    actions: Sequence[ActionRecord],
    results: Mapping[int, object],
) -> dict[str, Any]:
    """The whole match for download: per deal its CLI document and its stored result (None if
    unfinished). The players and the results are passed on as they are given."""
    return {
        "match_id": match_id,
        "players": list(players),
        "deals": [
            {"number": d.number, "replay": deal_document(rules, d), "result": results.get(d.number)}
            for d in match_deals(rules, seed, actions)
        ],
    }


def frame_action(seat: int, action: Action) -> dict[str, Any]:
    """An action as a frame shows it (and the analysis names the action taken and the best one)."""
    match action:
        case Play():
            return {"seat": seat, "kind": "play", "card": CARD_NAMES[action.card], "declare": action.declare}
        case Bid():
            return {"seat": seat, "kind": "bid", "amount": action.amount}
        case Pass():
            return {"seat": seat, "kind": "pass"}
        case Discard():
            return {"seat": seat, "kind": "discard", "cards": [CARD_NAMES[action.card_a], CARD_NAMES[action.card_b]]}


def _frame(
    state: DealState, step: int, action: tuple[int, Action] | None, events: Sequence[engine.DealEvent]
) -> dict[str, Any]:
    n, leader = state.n, state.leader
    won = next((e for e in events if isinstance(e, TrickWon)), None)
    declared = next((e for e in events if isinstance(e, Declared)), None)
    last = state.tricks[-1] if state.tricks else None
    result = engine.deal_result(state) if state.over else None
    return {
        "step": step,
        "action": None if action is None else frame_action(*action),
        "phase": state.phase,
        "hands": [names(hand) for hand in state.hands],
        "stock_count": len(state.stock),
        "drawn": [{"seat": e.seat, "card": e.card} for e in events if isinstance(e, CardDrawn)],
        "talon": [CARD_NAMES[c] for c in state.talon],
        "talon_taken": state.talon_taken,
        "discards": names(state.discards),
        "calls": [{"seat": c.seat, "bid": c.bid} for c in state.calls],
        "high_bid": state.high_bid,
        "declarer": state.declarer,
        "contract": state.contract,
        "trick": [{"seat": (leader + i) % n, "card": CARD_NAMES[c]} for i, c in enumerate(state.trick)],
        "last_trick": None
        if last is None
        else {"leader": last.leader, "cards": [CARD_NAMES[c] for c in last.cards], "winner": last.winner},
        "trick_won": None if won is None else {"seat": won.seat, "points": won.points},
        "tricks_played": len(state.tricks),
        "tricks_won": list(state.tricks_won),
        "trump": None if state.trump == NO_TRUMP else SUITS[state.trump],
        "declared": None
        if declared is None
        else {"seat": declared.seat, "suit": declared.suit, "points": declared.points},
        "declarations": [{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in state.declarations],
        "card_points": [state.seat_card_points(s) for s in range(n)],
        "turn": state.turn,
        "deal_over": state.over,
        "thrown_in": state.phase == "thrown_in",
        "made": None if result is None else result.made,
        "score": None if result is None else list(result.score),
    }


def deal_frames(deal: ReplayDeal) -> list[dict[str, Any]]:
    """The position before the first action and after each one: ``len(plays) + 1`` frames — the auction
    (V0.6), the talon and discard (V0.7), the play and the stock's draws (R4), every hand face up (R7:
    the match is over)."""
    state = deal.start
    frames = [_frame(state, 0, None, ())]
    for step, (seat, action) in enumerate(deal.plays, start=1):
        state, events = engine.apply_deal(state, seat, action)
        frames.append(_frame(state, step, (seat, action), events))
    return frames
