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


ILLEGAL_CODES: tuple[str, ...] = tuple(code.value for code in IllegalCode)


class IllegalAction(Exception):
    """An action the rules forbid. The state it was tried on is left untouched."""

    def __init__(self, code: IllegalCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
