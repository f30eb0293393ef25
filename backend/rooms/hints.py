"""When a table offers hints (the ``expert``'s choice for the seat on turn, docs/protocol.md "Hints"),
defined once: the lobby asks it of a new table's options, ``decide`` of a hint intent, and the
observer tells every seat its answer (``room.hints``), so that the client never works it out itself.

A hint helps one side of a game. It may be offered only where nobody could object to that: every
seat but one is the computer's (so no other person sits, or could sit down, at the table), nothing
is played for (R6: stake 0), and no rating changes with the match (``backend.ratings.match_kind``).
The creator may turn hints off (``TableOptions.hints``); asked for where they may not be offered,
they are refused (``hints_unavailable``). Kept apart from ``table_rules`` because ``decide`` and the
observer ask it too, and ``table_rules`` is built on them.
"""

from __future__ import annotations

from backend.ratings import match_kind

from .model import RoomState
from .options import TableOptions

HINT_LEVEL = "expert"  # the level whose choice a hint is (backend.bots.levels)
HINT_DEADLINE_S = 3.0  # a hint not ready by then is answered `hint_failed`: it never holds anything up


def hints_problem(options: TableOptions, people: int) -> str | None:
    """Why a table of ``options`` whose ``people`` seats are (or may become) a person's may not offer
    hints, or None: it may."""
    if options.stake_per_point:
        return "a table played for a stake offers no hints"
    if people > 1:
        return "hints are offered only to one person playing against the computer"
    if match_kind(options, people_only=people == options.seats) is not None:
        return "a rated match offers no hints"
    return None


def hints_offered(state: RoomState) -> bool:
    """Does the table offer hints now? Its creator left them on and ``hints_problem`` allows them with
    the seats as they are: a free seat is one a person could take."""
    people = len(state.seats) - len(state.bot_seats)
    return state.options.hints and hints_problem(state.options, people) is None
