"""Helpers for the V2–V7 tests (RULES-VARIANTS.md): deals from card names, actions from short strings."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from backend.engine import card
from backend.engine.deal import Declaration, Play
from backend.engine.table_deal import (
    Bid,
    Discard,
    Pass,
    TableAction,
    TableDealState,
    TableTrick,
    apply_table,
    legal_table_actions,
    table_deal_from_hands,
)
from backend.engine.variants import TableRules

from .support import ids

SUIT_INDEX = {"C": 0, "S": 1, "H": 2, "D": 3}


def table(
    variant: str,
    hands: list[str],
    talon: str = "",
    dealer: int = 0,
    totals: list[int] | None = None,
    **options: Any,
) -> TableDealState:
    """A deal of ``variant`` from card names (one string per seat), through ``table_deal_from_hands``."""
    rules = TableRules(variant, seats=len(hands), **options)
    return table_deal_from_hands(rules, dealer, [ids(h) for h in hands], ids(talon), totals=totals)


def action(text: str) -> TableAction:
    """``b40`` bid 40, ``p`` pass, ``dJC,JD`` discard, ``KH`` play, ``KH!`` play and declare."""
    if text == "p":
        return Pass()
    if text.startswith("b"):
        return Bid(int(text[1:]))
    if text.startswith("d"):
        a, b = text[1:].split(",")
        return Discard(card(a), card(b))
    return Play(card(text.rstrip("!")), text.endswith("!"))


def act(state: TableDealState, script: str) -> TableDealState:
    """Apply each action of ``script`` (space-separated, see ``action``) by the seat to move."""
    for text in script.split():
        seat = state.turn
        assert seat is not None, f"the deal is over before {text}"
        state, _ = apply_table(state, seat, action(text))
    return state


def finish(state: TableDealState) -> TableDealState:
    """Play the rest of the deal, each seat taking its first legal action."""
    while not state.over:
        seat = state.turn
        assert seat is not None
        state, _ = apply_table(state, seat, legal_table_actions(state, seat)[0])
    return state


def scored(
    rules: TableRules,
    card_points: tuple[int, ...],
    tricks_won: tuple[int, ...],
    declarer: int | None = None,
    contract: int | None = None,
    declarations: tuple[tuple[int, str, int], ...] = (),
    last_winner: int = 0,
    discards: str = "",
) -> TableDealState:
    """A finished deal with the given tallies, for the scoring rules (the cards themselves do not matter)."""
    from backend.engine.table_deal import new_table_deal

    state = new_table_deal(rules, 1, 0)
    return replace(
        state,
        phase="over",
        turn=None,
        hands=(0,) * rules.n,
        declarer=declarer,
        contract=contract,
        card_points=card_points,
        tricks_won=tricks_won,
        discards=sum(1 << c for c in ids(discards)),
        declarations=tuple(Declaration(seat, SUIT_INDEX[suit], points) for seat, suit, points in declarations),
        tricks=(TableTrick(last_winner, (), last_winner),),
    )
