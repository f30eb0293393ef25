"""Who may read a stored match: its history entry, and its replay (issue 12).

Pure rules of the stored rows, loaded by the caller; a refusal is answered as if the match did not
exist, so that a private match's id reveals nothing.
"""

from __future__ import annotations

from backend.db.models import Match, Room
from backend.rooms.options import TableOptions
from backend.rooms.watch import watch_code_fits


def may_read(match: Match, player_id: str) -> bool:
    """A match's page and its place in a history are its players' only."""
    return player_id in match.player_ids


def may_replay(match: Match, player_id: str | None, room: Room | None, code: str | None) -> bool:
    """Its players may; others as they could watch it live — anyone if its table (``room``, None if
    it is gone) is public, whoever has the watch ``code`` if it is private, and nobody else if the
    players turned watching off."""
    if player_id is not None and may_read(match, player_id):
        return True
    if room is None or not TableOptions.from_json(room.options).spectators:
        return False
    return room.visibility == "public" or watch_code_fits(room.invite_code, code)


def replayable(match: Match) -> bool:
    """A replay shows every hand: only once the match is over (R7)."""
    return match.status == "finished"
