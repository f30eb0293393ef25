"""The rules of two-hand 1001 (RULES.md R1–R7, variant V1) as pure functions. No I/O.

* ``deal``: one deal — ``new_deal``, ``legal_mask`` / ``legal_actions``, ``check``, ``apply``, ``deal_result``;
* ``match``: a match of deals — ``new_match``, ``match.apply``, ``replay_match``, ``stake_owed``;
* ``kernel``: the rules of card play on bitmasks (trick winner, follow obligations, declarations),
  shared with the bots;
* ``events``: the typed events an action causes; ``view``: what a seat may see of it all (R7).
"""

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
from .errors import ILLEGAL_CODES, IllegalAction, IllegalCode
from .events import CardDrawn, CardPlayed, DealEvent, DealOver, DealStarted, Declared, Event, MatchOver, TrickWon
from .match import MatchState, Resign, new_match, stake_owed
from .match import replay as replay_match
from .rules import Rules
from .shuffle import new_seed
from .view import (
    BlockedPlay,
    DealRecordView,
    DealView,
    DeclarationView,
    LastTrickView,
    LegalPlay,
    SeatView,
    TrickView,
    blocked_plays,
    deal_view,
    events_for_seat,
    events_for_spectator,
    legal_plays,
    seat_view,
    spectator_view,
)

__all__ = [
    "ILLEGAL_CODES",
    "BlockedPlay",
    "CardDrawn",
    "CardPlayed",
    "DealEvent",
    "DealOver",
    "DealRecordView",
    "DealResult",
    "DealStarted",
    "DealState",
    "DealView",
    "Declaration",
    "DeclarationView",
    "Declared",
    "Event",
    "IllegalAction",
    "IllegalCode",
    "LastTrickView",
    "LegalPlay",
    "MatchOver",
    "MatchState",
    "Play",
    "Resign",
    "Rules",
    "SeatView",
    "Trick",
    "TrickView",
    "TrickWon",
    "apply",
    "blocked_plays",
    "card",
    "check",
    "deal_from_hands",
    "deal_result",
    "deal_view",
    "declarable_suits",
    "events_for_seat",
    "events_for_spectator",
    "legal_actions",
    "legal_mask",
    "legal_plays",
    "name",
    "names",
    "new_deal",
    "new_match",
    "new_seed",
    "replay_match",
    "seat_view",
    "spectator_view",
    "stake_owed",
]
