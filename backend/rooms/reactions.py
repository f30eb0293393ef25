"""Quick reactions at the table: the fixed set (no free text — chat stays where it is), and the
per-seat rate limit as a pure function of the times a seat reacted and ``now``.

Defined once here; ``backend.api.codegen`` publishes ``REACTIONS`` to the client (each code with
its emoji, if it is one; the labels are the client's, ``reaction.<code>`` in en, de and ru).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

# code → the emoji shown for it (None: a phrase, shown translated)
REACTIONS: dict[str, str | None] = {
    "well_played": None,
    "good_luck": None,
    "thanks": None,
    "nice_try": None,
    "oops": None,
    "hurry_up": None,
    "thumbs_up": "👍",
    "laugh": "😄",
    "wow": "😮",
    "facepalm": "🙈",
}


@dataclass(frozen=True, slots=True)
class ReactionLimits:
    """At most ``count`` reactions per seat in any ``window_s`` seconds (REACTION_LIMIT / REACTION_WINDOW_S)."""

    count: int = 3
    window_s: float = 10.0


DEFAULT_LIMITS = ReactionLimits()


def admit(times: tuple[datetime, ...], now: datetime, limits: ReactionLimits) -> tuple[datetime, ...] | None:
    """The seat's reaction times with one more at ``now``, or None if the limit refuses it.

    Only the times within the window are kept, so what a seat remembers stays at ``count``."""
    since = now - timedelta(seconds=limits.window_s)
    recent = tuple(at for at in times if at > since)
    if len(recent) >= limits.count:
        return None
    return (*recent, now)
