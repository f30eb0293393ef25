"""The rules of the 1001 family as pure functions, no I/O: two-hand 1001 (RULES.md R1–R7, V1) and
the games for three and four (RULES-VARIANTS.md V2–V7, option V6) as ``Variant`` records of one game.

A match, the way the rooms, the bots and the tools use it::

    match = new_game(Rules.from_dict(options), seed)     # or Rules("mcleod", target=301)
    legal_actions(match, seat)                           # Play / Bid / Pass / Discard the rules allow
    match, events = apply(match, seat, action)           # IllegalAction(code) if refused; Resign too
    view_for(match, seat)                                # what a seat (None: a spectator) may see
    events_for(events, seat)                             # the events as that observer may be told them
    payments(match, stake)                               # what the losers owe once it is over

Modules: ``variants`` (the games and ``Rules``), ``deal`` (one deal: auction, discard, play with an
optional stock; scoring), ``match`` (deals to the target, places, payments), ``kernel`` (the rules of
card play on bitmasks, shared with the bots), ``events`` and ``view`` (the one observer).
"""

from .cards import card, name, names
from .deal import (
    Action,
    Bid,
    Call,
    DealResult,
    DealState,
    Declaration,
    Discard,
    Pass,
    Play,
    Trick,
    deal_from_hands,
    deal_result,
    declarable_suits,
    legal_bids,
    legal_mask,
    new_deal,
    refusal_code,
)
from .deal import apply as apply_deal
from .deal import check as check_deal
from .deal import legal_actions as deal_actions
from .errors import ILLEGAL_CODES, IllegalAction, IllegalCode
from .events import (
    AuctionWon,
    BidMade,
    CardDrawn,
    CardPlayed,
    DealEvent,
    DealOver,
    DealStarted,
    Declared,
    Discarded,
    Event,
    MatchOver,
    Passed,
    TalonTaken,
    ThrownIn,
    TrickWon,
)
from .match import (
    DealRecord,
    MatchAction,
    MatchState,
    Payment,
    Resign,
    apply,
    deal_seed,
    first_dealer,
    new_match,
    payments,
    places,
    stake_owed,
)
from .match import replay as replay_match
from .shuffle import new_seed
from .variants import VARIANTS, Rules, Variant
from .view import (
    BlockedPlay,
    CallView,
    DealRecordView,
    DealView,
    DeclarationView,
    LastTrickView,
    LegalPlay,
    SeatView,
    TrickView,
    events_for,
    view_for,
)

new_game = new_match


def legal_actions(match: MatchState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty once the match is over or when it is not its turn)."""
    return [] if match.over else deal_actions(match.deal, seat)


__all__ = [
    "ILLEGAL_CODES",
    "VARIANTS",
    "Action",
    "AuctionWon",
    "Bid",
    "BidMade",
    "BlockedPlay",
    "Call",
    "CallView",
    "CardDrawn",
    "CardPlayed",
    "DealEvent",
    "DealOver",
    "DealRecord",
    "DealRecordView",
    "DealResult",
    "DealStarted",
    "DealState",
    "DealView",
    "Declaration",
    "DeclarationView",
    "Declared",
    "Discard",
    "Discarded",
    "Event",
    "IllegalAction",
    "IllegalCode",
    "LastTrickView",
    "LegalPlay",
    "MatchAction",
    "MatchOver",
    "MatchState",
    "Pass",
    "Passed",
    "Payment",
    "Play",
    "Resign",
    "Rules",
    "SeatView",
    "TalonTaken",
    "ThrownIn",
    "Trick",
    "TrickView",
    "TrickWon",
    "Variant",
    "apply",
    "apply_deal",
    "card",
    "check_deal",
    "deal_actions",
    "deal_from_hands",
    "deal_result",
    "deal_seed",
    "declarable_suits",
    "events_for",
    "first_dealer",
    "legal_actions",
    "legal_bids",
    "legal_mask",
    "name",
    "names",
    "new_deal",
    "new_game",
    "new_match",
    "new_seed",
    "payments",
    "places",
    "refusal_code",
    "replay_match",
    "stake_owed",
    "view_for",
]
