"""Table options: the engine's rules plus the stake (R6) and the room's visibility."""

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
    bot_level: str | None = None  # play against the computer at this level (seat 1 at first)
    spectators: bool = True  # others may watch the table (public: anyone; private: with a watch code)

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
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOptions:
        rules_data = {k: v for k, v in data.items() if k not in _TABLE_ONLY}
        return cls(
            rules=Rules.from_dict(rules_data),
            stake_per_point=Decimal(data.get("stake_per_point", "0")),
            currency=data.get("currency", "chips"),
            reconnect_grace_s=int(data.get("reconnect_grace_s", 120)),
            bot_level=data.get("bot_level"),
            spectators=bool(data.get("spectators", True)),
        )


_TABLE_ONLY = ("stake_per_point", "currency", "reconnect_grace_s", "bot_level", "spectators")
