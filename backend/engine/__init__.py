"""The rules of two-hand 1001 (RULES.md R1–R7, variant V1) as pure functions. No I/O."""

from .cards import card, name, names
from .deal import (
    DealResult,
    DealState,
    Declaration,
    Play,
    Trick,
    apply,
    check,
    deal_from_hands,
    deal_result,
    declarable_suits,
    legal_actions,
    legal_mask,
    new_deal,
)
from .errors import ILLEGAL_CODES, IllegalAction
from .match import MatchState, Resign, new_match, stake_owed
from .match import replay as replay_match  # not `replay`: that name is the replay CLI module
from .rules import Rules
from .shuffle import new_seed
from .view import deal_view, events_for_seat, seat_view

__all__ = [
    "ILLEGAL_CODES",
    "DealResult",
    "DealState",
    "Declaration",
    "IllegalAction",
    "MatchState",
    "Play",
    "Resign",
    "Rules",
    "Trick",
    "apply",
    "card",
    "check",
    "deal_from_hands",
    "deal_result",
    "deal_view",
    "declarable_suits",
    "events_for_seat",
    "legal_actions",
    "legal_mask",
    "name",
    "names",
    "new_deal",
    "new_match",
    "new_seed",
    "replay_match",
    "seat_view",
    "stake_owed",
]
