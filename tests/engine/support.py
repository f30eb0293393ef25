"""Helpers shared by the engine tests: building deals by card name and playing them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from pydantic_core import to_jsonable_python

from backend.engine import DealState, Play, Rules, apply_deal, card, deal_from_hands, name
from backend.engine.cards import cards_in

RANKS = "ATKQJ987"  # R1 high → low (V1 adds 8 and 7)
SUITS = "CSHD"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}  # R1 card points
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])[ATKQJ987][CSHD](?![A-Za-z0-9])")


def pack_names(deck_size: int = 24) -> list[str]:
    """Every card of the pack, written independently of the engine: C S H D, high → low."""
    ranks = RANKS[: deck_size // 4]
    return [r + s for s in SUITS for r in ranks]


def ids(cards: str | Iterable[str]) -> list[int]:
    if isinstance(cards, str):
        cards = cards.split()
    return [card(c) for c in cards]


def hand_names(mask: int) -> set[str]:
    return {name(c) for c in cards_in(mask)}


def build(hand0: str, hand1: str, stock: str, dealer: int = 0, rules: Rules | None = None) -> DealState:
    """A deal from card names (``stock`` top first) through ``deal_from_hands``."""
    return deal_from_hands(rules or Rules(), dealer, [ids(hand0), ids(hand1)], stock=ids(stock))


def play(state: DealState, seat: int, card_name: str, declare: bool = False) -> DealState:
    state, _ = apply_deal(state, seat, Play(card(card_name), declare))
    return state


def trick(state: DealState, lead: str, follow: str, declare: bool = False) -> DealState:
    """Play one whole trick: the seat to move leads ``lead``, the other follows ``follow``."""
    leader = state.turn
    assert leader is not None
    state = play(state, leader, lead, declare)
    return play(state, 1 - leader, follow)


def snapshot(state: DealState) -> tuple[Any, ...]:
    """Every field of a deal state, to compare a state before and after a refused action."""
    return tuple(getattr(state, slot) for slot in DealState.__slots__)


def reach_phase2(
    fore_keep: str, dealer_keep: str, declare: str | None = None, dealer: int = 0, rules: Rules | None = None
) -> DealState:
    """A hand-built deal played to the first trick of phase 2 (R4), the stock just emptied.

    ``fore_keep`` and ``dealer_keep`` are the 8-card hands each seat holds once the stock is empty.
    The other 8 cards are played in phase 1, forehand winning all four tricks (so it leads first in
    phase 2); ``declare`` (a K or Q among those cards) is led first with a declaration, making its
    suit trump. Leads are the strongest cards, paired with weaker follows, so the leader always wins.
    """
    rules = rules or Rules()
    forehand = 1 - dealer
    keep = {forehand: fore_keep.split(), dealer: dealer_keep.split()}
    played = sorted(set(pack_names()) - set(keep[0]) - set(keep[1]))
    assert len(played) == 8 and len(keep[0]) == len(keep[1]) == 8
    trump = declare[1] if declare else None

    def strength(c: str) -> tuple[int, int, int]:
        return (c[1] != trump, RANKS.index(c[0]), SUITS.index(c[1]))

    played.sort(key=strength)
    pairs = list(zip(played[:4], played[4:], strict=True))
    if declare:
        pairs.sort(key=lambda pair: pair[0] != declare)
        assert pairs[0][0] == declare, "the declared card must be among the leads"
    hands = {
        forehand: [lead for lead, _ in pairs] + keep[forehand][:4],
        dealer: [f for _, f in pairs] + keep[dealer][:4],
    }
    stock: list[str] = []
    for fore_draw, dealer_draw in zip(keep[forehand][4:], keep[dealer][4:], strict=True):
        stock += [fore_draw, dealer_draw]  # forehand wins every phase-1 trick, so it draws first
    state = build(" ".join(hands[0]), " ".join(hands[1]), " ".join(stock), dealer, rules)
    for i, (lead, follow) in enumerate(pairs):
        state = trick(state, lead, follow, declare=bool(declare) and i == 0)
        assert state.tricks[-1].winner == forehand
    assert not state.stock and state.turn == forehand
    assert hand_names(state.hands[forehand]) == set(keep[forehand])
    return state


def sent(value: Any) -> Any:
    """``value`` (views, events: the engine's dataclasses) as the JSON data the server sends, via pydantic."""
    return json.loads(json.dumps(to_jsonable_python(value)))


def card_tokens(value: Any) -> set[str]:
    """The card names (2-character tokens such as ``TH``) in the string values and keys of the JSON sent."""
    strings: list[str] = []
    nodes = [sent(value)]  # exactly what would be sent
    while nodes:  # every string of it, then one search over them, a space between (not a name's letter)
        node = nodes.pop()
        if isinstance(node, str):
            strings.append(node)
        elif isinstance(node, dict):
            nodes.extend(node)
            nodes.extend(node.values())
        elif isinstance(node, list):
            nodes.extend(node)
    return set(CARD_TOKEN.findall(" ".join(strings)))
