"""Replays of a stored match: the replay CLI's documents, and the frames the viewer steps through.

Pure functions, no I/O. A match is rebuilt from what the database keeps (its rules, seed and
action log, as ``sql_store.rebuild`` does) and cut into deals:

* ``match_replay`` gives every deal as a document of ``python -m backend.cli.replay``
  (``{"rules", "deal": {"dealer", "hands", "stock"}, "actions"}``, docs/engine-cli.md), so that a
  downloaded match reproduces each deal exactly through the CLI;
* ``deal_frames`` steps one deal through the engine and gives, after each action, the whole
  position (both hands face up: only for a finished match, R7), so that the viewer never
  re-derives a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from backend.db.writes import ActionRecord
from backend.engine import DealState, Play, Rules, card, new_match
from backend.engine import match as match_rules
from backend.engine.cards import CARD_NAMES, SUITS, names
from backend.engine.deal import apply as deal_apply
from backend.engine.deal import deal_result
from backend.engine.events import CardDrawn, Declared, TrickWon
from backend.engine.kernel import NO_TRUMP


@dataclass(frozen=True, slots=True)
class ReplayDeal:
    """One deal of a match: how it was dealt and the plays made in it, in order."""

    number: int
    start: DealState
    plays: tuple[tuple[int, Play], ...]


def match_deals(rules: Rules, seed: int, actions: Sequence[ActionRecord]) -> list[ReplayDeal]:
    """Cut a match's action log into its deals (the one a resignation ended included)."""
    match = new_match(rules, seed)
    deals: list[ReplayDeal] = []
    number, start = 0, match.deal
    plays: list[tuple[int, Play]] = []
    open_deal = True
    for action in actions:
        if action.kind != "play" or action.card is None:
            break  # a resignation ends the match (R6.2)
        play = Play(card(action.card), action.declare)
        match, _ = match_rules.apply(match, action.seat, play)
        plays.append((action.seat, play))
        if match.over or match.deal_number != number:  # this deal is over
            deals.append(ReplayDeal(number, start, tuple(plays)))
            open_deal = not match.over
            number, start, plays = match.deal_number, match.deal, []
    if open_deal:
        deals.append(ReplayDeal(number, start, tuple(plays)))
    return deals


def deal_document(rules: Rules, deal: ReplayDeal) -> dict[str, Any]:
    """A deal as the replay CLI's input (docs/engine-cli.md)."""
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


def match_replay(
    match_id: str,
    players: Sequence[Mapping[str, Any]],
    rules: Rules,
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


def _frame(
    state: DealState, step: int, seat: int | None, play: Play | None, events: Sequence[object]
) -> dict[str, Any]:
    leader = state.leader
    trick = [{"seat": leader if i == 0 else 1 - leader, "card": CARD_NAMES[c]} for i, c in enumerate(state.trick)]
    last = state.tricks[-1] if state.tricks else None
    declared = next((e for e in events if isinstance(e, Declared)), None)
    won = next((e for e in events if isinstance(e, TrickWon)), None)
    over = state.turn is None
    return {
        "step": step,
        "action": None if play is None else {"seat": seat, "card": CARD_NAMES[play.card], "declare": play.declare},
        "hands": [names(state.hands[0]), names(state.hands[1])],
        "trick": trick,
        "last_trick": None
        if last is None
        else {"leader": last.leader, "cards": [CARD_NAMES[c] for c in last.cards], "winner": last.winner},
        "trick_won": None if won is None else {"seat": won.seat, "points": won.points},
        "tricks_played": len(state.tricks),
        "stock_count": len(state.stock),
        "drawn": [{"seat": e.seat, "card": e.card} for e in events if isinstance(e, CardDrawn)],
        "trump": None if state.trump == NO_TRUMP else SUITS[state.trump],
        "declared": None
        if declared is None
        else {"seat": declared.seat, "suit": declared.suit, "points": declared.points},
        "declarations": [{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in state.declarations],
        "card_points": list(state.card_points),
        "turn": state.turn,
        "deal_over": over,
        "score": list(deal_result(state).score) if over else None,
    }


def deal_frames(deal: ReplayDeal) -> list[dict[str, Any]]:
    """The position before the first action and after each one: ``len(plays) + 1`` frames."""
    state = deal.start
    frames = [_frame(state, 0, None, None, ())]
    for step, (seat, play) in enumerate(deal.plays, start=1):
        state, events = deal_apply(state, seat, play)
        frames.append(_frame(state, step, seat, play, events))
    return frames
