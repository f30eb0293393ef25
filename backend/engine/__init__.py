"""The rules of two-hand 1001 (RULES.md R1–R7, variant V1) as pure functions. No I/O.

* ``deal``: one deal — ``new_deal``, ``legal_mask`` / ``legal_actions``, ``check``, ``apply``, ``deal_result``;
* ``match``: a match of deals — ``new_match``, ``match.apply``, ``replay_match``, ``stake_owed``;
* ``kernel``: the rules of card play on bitmasks (trick winner, follow obligations, declarations),
  shared with the bots;
* ``events``: the typed events an action causes; ``view``: what a seat may see of it all (R7).

The 1001 family for 3 and 4 seats (RULES-VARIANTS.md V2–V7, option V6) is the same shape:
``variants`` (``TableRules``, one ``Variant`` record per game), ``table_deal`` (one state machine:
auction, discard, play), ``table_match``, ``table_events`` and ``table_view`` (V0.11).
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
from .table_deal import (
    Bid,
    Discard,
    Pass,
    TableAction,
    TableDealResult,
    TableDealState,
    apply_table,
    check_table,
    legal_table_actions,
    new_table_deal,
    table_deal_from_hands,
    table_deal_result,
    table_refusal_code,
)
from .table_events import TableEvent
from .table_match import (
    TableMatchState,
    apply_table_match,
    new_table_match,
    places,
    replay_table_match,
    settlement,
)
from .table_view import TableSeatView, table_events_for_seat, table_seat_view
from .variants import VARIANTS, TableRules, Variant, rules_from_dict
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
    "VARIANTS",
    "Bid",
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
    "Discard",
    "Event",
    "IllegalAction",
    "IllegalCode",
    "LastTrickView",
    "LegalPlay",
    "MatchOver",
    "MatchState",
    "Pass",
    "Play",
    "Resign",
    "Rules",
    "SeatView",
    "TableAction",
    "TableDealResult",
    "TableDealState",
    "TableEvent",
    "TableMatchState",
    "TableRules",
    "TableSeatView",
    "Trick",
    "TrickView",
    "TrickWon",
    "Variant",
    "apply",
    "apply_table",
    "apply_table_match",
    "blocked_plays",
    "card",
    "check",
    "check_table",
    "deal_from_hands",
    "deal_result",
    "deal_view",
    "declarable_suits",
    "events_for_seat",
    "events_for_spectator",
    "legal_actions",
    "legal_mask",
    "legal_plays",
    "legal_table_actions",
    "name",
    "names",
    "new_deal",
    "new_match",
    "new_seed",
    "new_table_deal",
    "new_table_match",
    "places",
    "replay_match",
    "replay_table_match",
    "rules_from_dict",
    "seat_view",
    "settlement",
    "spectator_view",
    "stake_owed",
    "table_deal_from_hands",
    "table_deal_result",
    "table_events_for_seat",
    "table_refusal_code",
    "table_seat_view",
]
