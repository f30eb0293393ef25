"""Helpers for the V2–V7 tests (RULES-VARIANTS.md): deals from card names, actions from short strings."""

from __future__ import annotations

from typing import Any

from backend.engine import Action, Bid, DealState, Declaration, Discard, Pass, Play, Rules, Trick, card, deal_actions
from backend.engine import apply_deal as apply
from backend.engine.deal import Auction, deal_from_hands, new_deal
from backend.engine.kernel import NO_TRUMP

from .support import ids

SUIT_INDEX = {"C": 0, "S": 1, "H": 2, "D": 3}


def table(
    variant: str,
    hands: list[str],
    talon: str = "",
    dealer: int = 0,
    totals: list[int] | None = None,
    **options: Any,
) -> DealState:
    """A deal of ``variant`` from card names (one string per seat), through ``deal_from_hands``."""
    rules = Rules(variant, seats=len(hands), **options)
    return deal_from_hands(rules, dealer, [ids(h) for h in hands], talon=ids(talon), totals=totals)


def action(text: str) -> Action:
    """``b40`` bid 40, ``p`` pass, ``dJC,JD`` discard, ``KH`` play, ``KH!`` play and declare."""
    if text == "p":
        return Pass()
    if text.startswith("b"):
        return Bid(int(text[1:]))
    if text.startswith("d"):
        a, b = text[1:].split(",")
        return Discard(card(a), card(b))
    return Play(card(text.rstrip("!")), text.endswith("!"))


def act(state: DealState, script: str) -> DealState:
    """Apply each action of ``script`` (space-separated, see ``action``) by the seat to move."""
    for text in script.split():
        seat = state.turn
        assert seat is not None, f"the deal is over before {text}"
        state, _ = apply(state, seat, action(text))
    return state


def finish(state: DealState) -> DealState:
    """Play the rest of the deal, each seat taking its first legal action."""
    while not state.over:
        seat = state.turn
        assert seat is not None
        state, _ = apply(state, seat, deal_actions(state, seat)[0])
    return state


def scored(
    rules: Rules,
    card_points: tuple[int, ...],
    tricks_won: tuple[int, ...],
    declarer: int | None = None,
    contract: int | None = None,
    declarations: tuple[tuple[int, str, int], ...] = (),
    last_winner: int = 0,
    discards: str = "",
) -> DealState:
    """A finished deal with the given tallies, for the scoring rules (the cards themselves do not matter)."""
    state = new_deal(rules, 1, 0)._copy()
    state.phase = "over"
    state.turn = None
    state.hands = (0,) * rules.n
    state.stock = ()
    state.auction = Auction(declarer=declarer, contract=contract, discards=sum(1 << c for c in ids(discards)))
    state.card_points = card_points
    state.tricks_won = tricks_won
    state.declarations = tuple(Declaration(seat, SUIT_INDEX[suit], points) for seat, suit, points in declarations)
    state.tricks = (Trick(last_winner, (), last_winner, NO_TRUMP),)
    return state
