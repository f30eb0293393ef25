"""The one typed error the engine raises for an illegal action, and its codes."""

from __future__ import annotations

from enum import StrEnum


class IllegalCode(StrEnum):
    """Why the rules refuse an action. Defined here once; the client's list is generated from it."""

    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_HELD = "card_not_held"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    MUST_BEAT = "must_beat"
    MUST_TRUMP = "must_trump"
    CANNOT_DECLARE = "cannot_declare"
    DEAL_OVER = "deal_over"
    MATCH_OVER = "match_over"  # raised by the match layer only, once a match has a winner
    # V2–V7 (RULES-VARIANTS.md), checked in the order of V0.12:
    WRONG_PHASE = "wrong_phase"  # the action belongs to another phase of the deal (auction, discard, play)
    BID_NOT_MULTIPLE_OF_TEN = "bid_not_multiple_of_ten"  # V0.6: bids go in tens
    BID_TOO_LOW = "bid_too_low"  # V0.6: below the variant's minimum, or not above the highest bid so far
    BID_OVER_CAP = "bid_over_cap"  # V0.6b: over 120 without a K-Q pair, or over 120 + the pairs held
    MUST_DISCARD_TWO = "must_discard_two"  # V0.7: the declarer discards exactly two different cards
    MELD_NOT_HIGHER = "meld_not_higher"  # V4.5: a meld must be worth more than every earlier meld
    MELD_FORBIDDEN = "meld_forbidden"  # V7.7: a player whose total is over 900 (target − 100) may not meld


ILLEGAL_CODES: tuple[str, ...] = tuple(code.value for code in IllegalCode)


class IllegalAction(Exception):
    """An action the rules forbid. The state it was tried on is left untouched."""

    def __init__(self, code: IllegalCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
