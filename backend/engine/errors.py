"""The one typed error the engine raises for an illegal action."""

from __future__ import annotations

from typing import Literal

IllegalCode = Literal[
    "not_your_turn",
    "card_not_held",
    "must_follow_suit",
    "must_beat",
    "must_trump",
    "cannot_declare",
    "deal_over",
    "match_over",  # raised by the match layer only, once a match has a winner
]

ILLEGAL_CODES: tuple[str, ...] = IllegalCode.__args__  # type: ignore[attr-defined]


class IllegalAction(Exception):
    """An action the rules forbid. The state it was tried on is left untouched."""

    def __init__(self, code: IllegalCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
