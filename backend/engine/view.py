"""R7 — the one place that decides what a seat may see.

Every byte the server sends about a game is built here: ``seat_view`` for the state
and ``events_for_seat`` for the events of an action. The opponent's hand and the stock
are only ever counts (plus the faced bottom card where R2 shows one); a deal's seed is
revealed only once that deal is over.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_NAMES, SUITS, cards_in, names
from .deal import NO_TRUMP, DealState, Event, declarable_suits, legal_mask
from .match import MatchState


def _suit(suit: int) -> str | None:
    return None if suit == NO_TRUMP else SUITS[suit]


def deal_view(state: DealState, seat: int) -> dict[str, Any]:
    other = 1 - seat
    last = state.tricks[-1] if state.tricks else None
    bottom = state.stock_bottom
    view: dict[str, Any] = {
        "dealer": state.dealer,
        "forehand": state.forehand,
        "turn": state.turn,
        "phase": state.phase,
        "hand": names(state.hands[seat]),
        "opponent_cards": state.hands[other].bit_count(),
        "stock_count": len(state.stock),
        "stock_bottom": None if bottom is None else CARD_NAMES[bottom],
        "trump": _suit(state.trump),
        "declarations": [{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in state.declarations],
        "trick": {"leader": state.leader, "cards": [CARD_NAMES[c] for c in state.trick]},
        "last_trick": None
        if last is None
        else {"leader": last.leader, "cards": [CARD_NAMES[c] for c in last.cards], "winner": last.winner},
        "tricks_played": len(state.tricks),
        "my_card_points": state.card_points[seat],
        # R7: the opponent's taken points only under the `open_scores` option.
        "card_points": list(state.card_points) if state.rules.open_scores else None,
    }
    return view


def legal_for_seat(state: DealState, seat: int) -> tuple[list[str], list[str]]:
    """The cards ``seat`` may play and the suits it may declare (empty unless it is to move)."""
    if state.turn != seat:
        return [], []
    legal = [CARD_NAMES[c] for c in cards_in(legal_mask(state))]
    return legal, [SUITS[s] for s in declarable_suits(state, seat)]


def seat_view(match: MatchState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may see of a match (R7), and nothing else."""
    live = not match.over
    legal, declarable = legal_for_seat(match.deal, seat) if live else ([], [])
    return {
        "seat": seat,
        "rules": match.rules.to_dict(),
        "target": match.rules.target,
        "totals": list(match.totals),
        "deal_number": match.deal_number,
        "deal": deal_view(match.deal, seat),
        "legal": legal,
        "declarable": declarable,
        "history": [
            {
                "number": r.number,
                "dealer": r.dealer,
                "seed": str(r.seed),  # a finished deal's seed may be shown (R7)
                "card_points": list(r.card_points),
                "declarations": [{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in r.declarations],
                "declaration_points": list(r.declaration_points),
                "score": list(r.score),
                "totals": list(r.totals),
            }
            for r in match.history
        ],
        "winner": match.winner,
        "end_reason": match.end_reason,
    }


def events_for_seat(events: list[Event], seat: int) -> list[Event]:
    """The events of one action as ``seat`` may see them: the opponent's drawn card is unnamed."""
    redacted: list[Event] = []
    for event in events:
        if event["kind"] == "card_drawn" and event["seat"] != seat:
            event = {**event, "card": None}
        redacted.append(event)
    return redacted
