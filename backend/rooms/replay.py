"""Replays of a stored match: the replay CLI's documents, and the frames the viewer steps through.

Pure functions, no I/O. A match is rebuilt from what the database keeps (its rules, seed and
action log, as ``sql_store.rebuild`` does, through ``rooms.game``: two-hand 1001 or a game of the
family for 3 or 4 seats, V2–V7) and cut into deals:

* ``match_replay`` gives every deal as a document of ``python -m backend.cli.replay``
  (two-hand: ``{"rules", "deal": {"dealer", "hands", "stock"}, "actions"}``; V2–V7:
  ``{"rules", "deal": {"dealer", "hands", "talon"}, "totals", "actions"}``, docs/engine-cli.md),
  so that a downloaded match reproduces each deal exactly through the CLI;
* ``deal_frames`` steps one deal through the engine and gives, after each action, the whole
  position (every hand face up: only for a finished match, R7), so that the viewer never
  re-derives a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from backend.db.writes import ActionRecord
from backend.engine import DealState, Play, Rules
from backend.engine.cards import CARD_NAMES, SUITS, names
from backend.engine.deal import apply as deal_apply
from backend.engine.deal import deal_result
from backend.engine.events import CardDrawn, Declared, TrickWon
from backend.engine.kernel import NO_TRUMP
from backend.engine.match import Resign
from backend.engine.table_deal import (
    Bid,
    Discard,
    Pass,
    TableAction,
    TableDealState,
    apply_table,
    table_deal_result,
)
from backend.engine.table_events import TableDealEvent, TableTrickWon
from backend.engine.variants import TableRules
from backend.rooms.game import GameRules, apply, engine_action, new_game


@dataclass(frozen=True, slots=True)
class ReplayDeal:
    """One deal of two-hand 1001: how it was dealt and the plays made in it, in order."""

    number: int
    start: DealState
    plays: tuple[tuple[int, Play], ...]


@dataclass(frozen=True, slots=True)
class TableReplayDeal:
    """One deal of V2–V7: how it was dealt (and the match totals before it) and its actions, in order."""

    number: int
    start: TableDealState
    plays: tuple[tuple[int, TableAction], ...]


AnyReplayDeal = ReplayDeal | TableReplayDeal


def _replay_deal(
    number: int, start: DealState | TableDealState, plays: Sequence[tuple[int, TableAction]]
) -> AnyReplayDeal:
    if isinstance(start, TableDealState):
        return TableReplayDeal(number, start, tuple(plays))
    # two-hand 1001 knows no other action: ``game.apply`` refused any before it got here
    return ReplayDeal(number, start, tuple((seat, play) for seat, play in plays if isinstance(play, Play)))


def match_deals(rules: GameRules, seed: int, actions: Sequence[ActionRecord]) -> list[AnyReplayDeal]:
    """Cut a match's action log into its deals (the one a resignation ended included)."""
    match = new_game(rules, seed)
    deals: list[AnyReplayDeal] = []
    number, start = 0, match.deal
    plays: list[tuple[int, TableAction]] = []
    open_deal = True
    for record in actions:
        action = engine_action(record)
        if isinstance(action, Resign):
            break  # a resignation ends the match (R6.2, ruling V0.10a)
        match, _ = apply(match, record.seat, action)
        plays.append((record.seat, action))
        if match.over or match.deal_number != number:  # this deal is over (a thrown-in one too, V0.6a)
            deals.append(_replay_deal(number, start, plays))
            open_deal = not match.over
            number, start, plays = match.deal_number, match.deal, []
    if open_deal:
        deals.append(_replay_deal(number, start, plays))
    return deals


def deal_document(rules: GameRules, deal: AnyReplayDeal) -> dict[str, Any]:
    """A deal as the replay CLI's input (docs/engine-cli.md)."""
    if isinstance(deal, TableReplayDeal):
        assert isinstance(rules, TableRules)
        return table_deal_document(rules, deal)
    assert isinstance(rules, Rules)
    start = deal.start
    return {
        "rules": rules.to_dict(),
        "deal": {
            "dealer": start.dealer,
            "hands": [names(start.initial_hands[0]), names(start.initial_hands[1])],
            "stock": [CARD_NAMES[c] for c in start.initial_stock],
        },
        "actions": [{"seat": seat, "play": CARD_NAMES[p.card], "declare": p.declare} for seat, p in deal.plays],
    }


def table_action_document(seat: int, action: TableAction) -> dict[str, Any]:
    """One V2–V7 action as the replay CLI reads it: exactly one of play, bid, pass, discard."""
    match action:
        case Play():
            return {"seat": seat, "play": CARD_NAMES[action.card], "declare": action.declare}
        case Bid():
            return {"seat": seat, "bid": action.amount}
        case Pass():
            return {"seat": seat, "pass": True}
        case Discard():
            return {"seat": seat, "discard": [CARD_NAMES[action.card_a], CARD_NAMES[action.card_b]]}


def table_deal_document(rules: TableRules, deal: TableReplayDeal) -> dict[str, Any]:
    """A V2–V7 deal as the replay CLI's input: the hands and talon as dealt, the match totals
    before it (V7.7's limits depend on them) and its actions; no ``talon`` without one (V3, V4, V5)."""
    start = deal.start
    dealt: dict[str, Any] = {"dealer": start.dealer, "hands": [names(hand) for hand in start.initial_hands]}
    if start.talon:
        dealt["talon"] = [CARD_NAMES[c] for c in start.talon]
    return {
        "rules": rules.to_dict(),
        "deal": dealt,
        "totals": list(start.totals),
        "actions": [table_action_document(seat, action) for seat, action in deal.plays],
    }


def match_replay(
    match_id: str,
    players: Sequence[Mapping[str, Any]],
    rules: GameRules,
    seed: int,
    actions: Sequence[ActionRecord],
    results: Mapping[int, Mapping[str, Any]],
) -> dict[str, Any]:
    """The whole match for download: per deal its CLI document and its stored result (None if unfinished)."""
    return {
        "match_id": match_id,
        "players": [dict(p) for p in players],
        "deals": [
            {"number": d.number, "replay": deal_document(rules, d), "result": results.get(d.number)}
            for d in match_deals(rules, seed, actions)
        ],
    }


def _tricks_and_marriages(
    state: DealState | TableDealState, events: Sequence[object], won: tuple[int, int] | None
) -> dict[str, Any]:
    """The frame fields both games share: the last trick, the trick just won (seat, points), the
    trump and the marriages."""
    last = state.tricks[-1] if state.tricks else None
    declared = next((e for e in events if isinstance(e, Declared)), None)
    return {
        "last_trick": None
        if last is None
        else {"leader": last.leader, "cards": [CARD_NAMES[c] for c in last.cards], "winner": last.winner},
        "trick_won": None if won is None else {"seat": won[0], "points": won[1]},
        "tricks_played": len(state.tricks),
        "trump": None if state.trump == NO_TRUMP else SUITS[state.trump],
        "declared": None
        if declared is None
        else {"seat": declared.seat, "suit": declared.suit, "points": declared.points},
        "declarations": [{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in state.declarations],
    }


def _frame(
    state: DealState, step: int, seat: int | None, play: Play | None, events: Sequence[object]
) -> dict[str, Any]:
    leader = state.leader
    trick = [{"seat": leader if i == 0 else 1 - leader, "card": CARD_NAMES[c]} for i, c in enumerate(state.trick)]
    won = next((e for e in events if isinstance(e, TrickWon)), None)
    over = state.turn is None
    return {
        "step": step,
        "action": None if play is None else {"seat": seat, "card": CARD_NAMES[play.card], "declare": play.declare},
        "hands": [names(state.hands[0]), names(state.hands[1])],
        "trick": trick,
        **_tricks_and_marriages(state, events, None if won is None else (won.seat, won.points)),
        "stock_count": len(state.stock),
        "drawn": [{"seat": e.seat, "card": e.card} for e in events if isinstance(e, CardDrawn)],
        "card_points": list(state.card_points),
        "turn": state.turn,
        "deal_over": over,
        "score": list(deal_result(state).score) if over else None,
    }


def _frame_action(seat: int, action: TableAction) -> dict[str, Any]:
    match action:
        case Play():
            return {"seat": seat, "kind": "play", "card": CARD_NAMES[action.card], "declare": action.declare}
        case Bid():
            return {"seat": seat, "kind": "bid", "amount": action.amount}
        case Pass():
            return {"seat": seat, "kind": "pass"}
        case Discard():
            return {"seat": seat, "kind": "discard", "cards": [CARD_NAMES[action.card_a], CARD_NAMES[action.card_b]]}


def _table_frame(
    state: TableDealState, step: int, action: tuple[int, TableAction] | None, events: Sequence[TableDealEvent]
) -> dict[str, Any]:
    n, leader = state.n, state.leader
    won = next((e for e in events if isinstance(e, TableTrickWon)), None)
    result = table_deal_result(state) if state.over else None
    return {
        "step": step,
        "action": None if action is None else _frame_action(*action),
        "phase": state.phase,
        "hands": [names(hand) for hand in state.hands],
        "talon": [CARD_NAMES[c] for c in state.talon],
        "talon_taken": state.talon_taken,
        "discards": names(state.discards),
        "calls": [{"seat": c.seat, "bid": c.bid} for c in state.calls],
        "high_bid": state.high_bid,
        "declarer": state.declarer,
        "contract": state.contract,
        "trick": [{"seat": (leader + i) % n, "card": CARD_NAMES[c]} for i, c in enumerate(state.trick)],
        **_tricks_and_marriages(state, events, None if won is None else (won.seat, won.points)),
        "tricks_won": list(state.tricks_won),
        "card_points": [state.seat_card_points(s) for s in range(n)],
        "turn": state.turn,
        "deal_over": state.over,
        "thrown_in": state.phase == "thrown_in",
        "made": None if result is None else result.made,
        "score": None if result is None else list(result.score),
    }


def table_deal_frames(deal: TableReplayDeal) -> list[dict[str, Any]]:
    """``deal_frames`` for V2–V7: the auction (V0.6), the talon and discard (V0.7) and the play,
    every hand face up (R7: the match is over)."""
    state = deal.start
    frames = [_table_frame(state, 0, None, ())]
    for step, (seat, action) in enumerate(deal.plays, start=1):
        state, events = apply_table(state, seat, action)
        frames.append(_table_frame(state, step, (seat, action), events))
    return frames


def deal_frames(deal: AnyReplayDeal) -> list[dict[str, Any]]:
    """The position before the first action and after each one: ``len(plays) + 1`` frames."""
    if isinstance(deal, TableReplayDeal):
        return table_deal_frames(deal)
    state = deal.start
    frames = [_frame(state, 0, None, None, ())]
    for step, (seat, play) in enumerate(deal.plays, start=1):
        state, events = deal_apply(state, seat, play)
        frames.append(_frame(state, step, seat, play, events))
    return frames
