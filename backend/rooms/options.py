"""Table options: the engine's rules (any game of the family) plus the stake (R6), the computer
seats, whether others may watch, whether the table is rated and whether it offers hints."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from backend.engine import Rules


@dataclass(frozen=True)
class TableOptions:
    rules: Rules
    stake_per_point: Decimal = Decimal(0)
    currency: str = "chips"
    reconnect_grace_s: int = 120  # R6.2: how long a dropped seat is held before it forfeits
    bot_level: str | None = None  # the level of the computer seats (None: every seat is a person's)
    spectators: bool = True  # others may watch the table (public: anyone; private: with a watch code)
    computer_seats: tuple[int, ...] = ()  # the seats the computer plays (seat 1 against one person)
    rated: bool = True  # a finished match between people changes their ratings (backend.ratings)
    reactions_for_spectators: bool = False  # spectators see the players' quick reactions too
    # The creator's wish for hints; they are offered only where ``table_rules.hints_problem`` allows.
    hints: bool = True

    @property
    def seats(self) -> int:
        return self.rules.n

    def to_json(self) -> dict[str, Any]:
        return dict(self._json)  # a copy: callers may not change the cached one

    @cached_property
    def _json(self) -> dict[str, Any]:
        return {
            **self.rules.to_dict(),
            "stake_per_point": str(self.stake_per_point),
            "currency": self.currency,
            "reconnect_grace_s": self.reconnect_grace_s,
            "bot_level": self.bot_level,
            "spectators": self.spectators,
            "rated": self.rated,
            **({"computer_seats": list(self.computer_seats)} if self.computer_seats else {}),
            **({"reactions_for_spectators": True} if self.reactions_for_spectators else {}),
            **({} if self.hints else {"hints": False}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOptions:
        rules_data = {k: v for k, v in data.items() if k not in _TABLE_ONLY}
        bot_level = data.get("bot_level")
        # Tables stored before computer seats were a list had at most seat 1 as the computer.
        computers = data.get("computer_seats", [1] if bot_level else [])
        return cls(
            rules=Rules.from_dict(rules_data),
            stake_per_point=Decimal(data.get("stake_per_point", "0")),
            currency=data.get("currency", "chips"),
            reconnect_grace_s=int(data.get("reconnect_grace_s", 120)),
            bot_level=bot_level,
            spectators=bool(data.get("spectators", True)),
            computer_seats=tuple(int(seat) for seat in computers),
            rated=bool(data.get("rated", True)),
            reactions_for_spectators=bool(data.get("reactions_for_spectators", False)),
            hints=bool(data.get("hints", True)),
        )


def computer_seats(seats: int, computers: int) -> tuple[int, ...]:
    """Where ``computers`` computer players sit at a table of ``seats``: the people take the first
    seats, except that two people at a table of four sit opposite (0 and 2), so that neither always
    plays right after the other (RULES-VARIANTS.md, "Playing online")."""
    if not 0 <= computers < seats:
        raise ValueError(f"a table of {seats} takes 0 to {seats - 1} computer players")
    if seats == 4 and computers == 2:
        return (1, 3)
    return tuple(range(seats - computers, seats))


_TABLE_ONLY = (
    "stake_per_point",
    "currency",
    "reconnect_grace_s",
    "bot_level",
    "spectators",
    "computer_seats",
    "reactions_for_spectators",
    "rated",
    "hints",
)
