"""Table options: the engine's rules (any game of the family) plus the stake (R6), the computer
seats, whether others may watch, whether the table is rated, whether it offers hints and its pace
(live, or days per move: ruling R6.3)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from functools import cached_property
from typing import Any, Literal, get_args

from backend.engine import Rules

# A table's pace (ruling R6.3), the one definition: ``live`` (a seat is held while its player is
# away for ``reconnect_grace_s``, R6.2), or so many days per move (nobody needs an open socket; a
# person who does not act in time has abandoned the match). ``RoomCreate.pace`` offers these.
Pace = Literal["live", "1d", "2d", "3d", "7d"]
PACES: tuple[Pace, ...] = get_args(Pace)
PACE_DAYS: dict[Pace, int] = {"1d": 1, "2d": 2, "3d": 3, "7d": 7}


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
    pace: Pace = "live"  # R6.3: live, or days per move
    # Turn-based only (issue 45): a person whose one legal action is a single card plays it by
    # itself at once, so a forced card costs nobody a day (lichess's premoves, the simple case).
    auto_play: bool = False

    @property
    def seats(self) -> int:
        return self.rules.n

    @property
    def turn_based(self) -> bool:
        return self.pace != "live"

    @property
    def time_per_move(self) -> timedelta | None:
        """R6.3: how long a person on turn has to act at a turn-based table (None: live)."""
        days = PACE_DAYS.get(self.pace)
        return None if days is None else timedelta(days=days)

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
            **({"pace": self.pace} if self.turn_based else {}),
            **({"auto_play": True} if self.auto_play else {}),
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
            pace=_pace(data.get("pace", "live")),
            auto_play=bool(data.get("auto_play", False)),
        )


def _pace(value: object) -> Pace:
    for pace in PACES:
        if value == pace:
            return pace
    raise ValueError(f"{value!r} is not a pace")


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
    "pace",
    "auto_play",
)
