"""A live room in memory, and the one function that serializes it for a seat (DESIGN promise 2)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from backend.db.store import bot_player_id
from backend.engine import MatchState, events_for_seat, seat_view
from backend.engine.deal import Event

from .options import TableOptions

REPLY_CACHE_SIZE = 128


class Outbox(Protocol):
    """One client connection, as the rooms layer sees it: sending never blocks."""

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str = "") -> None: ...


@dataclass
class LiveRoom:
    id: str
    invite_code: str
    visibility: str
    options: TableOptions
    status: str  # open | playing | finished | closed
    seat_ids: list[str | None]
    names: list[str | None]
    created_at: datetime
    version: int = 0
    match_id: str | None = None
    match: MatchState | None = None
    seq: int = 0  # actions in the current match's log
    rematch_offer: int | None = None  # the seat that offered a rematch
    stake: dict[str, Any] | None = None  # the settlement once the match is over
    grace: dict[int, tuple[datetime, asyncio.Task[None]]] = field(default_factory=dict)  # absent seat → deadline
    rematch_timer: asyncio.Task[None] | None = None
    bot_events: list[Event] = field(default_factory=list)  # what the bot's seat was told this deal
    bot_task: asyncio.Task[None] | None = None
    connections: dict[str, Outbox] = field(default_factory=dict)  # by player id
    replies: dict[str, OrderedDict[int, dict[str, Any] | None]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def seat_of(self, player_id: str) -> int | None:
        for seat, occupant in enumerate(self.seat_ids):
            if occupant == player_id:
                return seat
        return None

    @property
    def bot_id(self) -> str | None:
        level = self.options.bot_level
        return None if level is None else bot_player_id(level)

    @property
    def bot_seat(self) -> int | None:
        bot = self.bot_id
        return None if bot is None else self.seat_of(bot)

    def connected(self, seat: int) -> bool:
        occupant = self.seat_ids[seat]
        return occupant is not None and (occupant in self.connections or occupant == self.bot_id)

    def note_events(self, events: list[Event]) -> None:
        """Keep the events of the current deal as the bot's seat saw them (redacted, R7)."""
        seat = self.bot_seat
        if seat is None:
            return
        for event in events_for_seat(events, seat):
            if event["kind"] in ("deal_started", "match_started"):
                self.bot_events = []
            self.bot_events.append(event)

    def grace_deadline(self, seat: int) -> str | None:
        held = self.grace.get(seat)
        return None if held is None else held[0].isoformat()

    @property
    def live(self) -> bool:
        return self.status == "playing" and self.match is not None and not self.match.over

    # ---- idempotency: an answered message id is answered the same way again

    def cached_reply(self, player_id: str, msg_id: int) -> tuple[bool, dict[str, Any] | None]:
        """``(found, answer)``; an answer of None means "send the current state"."""
        answers = self.replies.get(player_id)
        if answers is None or msg_id not in answers:
            return False, None
        return True, answers[msg_id]

    def remember_reply(self, player_id: str, msg_id: int, answer: dict[str, Any] | None) -> None:
        answers = self.replies.setdefault(player_id, OrderedDict())
        answers[msg_id] = answer
        while len(answers) > REPLY_CACHE_SIZE:
            answers.popitem(last=False)

    # ---- what leaves the server

    def summary(self, *, for_player: str | None = None) -> dict[str, Any]:
        seated = for_player is not None and for_player in self.seat_ids
        return {
            "id": self.id,
            "invite_code": self.invite_code if seated else None,
            "visibility": self.visibility,
            "status": self.status,
            "options": self.options.to_json(),
            "players": [
                None
                if occupant is None
                else {
                    "seat": seat,
                    "id": occupant,
                    "name": self.names[seat],
                    "connected": self.connected(seat),
                    "grace_deadline": self.grace_deadline(seat),
                    "bot_level": self.options.bot_level if occupant == self.bot_id else None,
                }
                for seat, occupant in enumerate(self.seat_ids)
            ],
            "match_id": self.match_id,
            "version": self.version,
            "rematch": None if self.rematch_offer is None else {"offered_by": self.rematch_offer},
            "created_at": self.created_at.isoformat(),
        }

    def state_message(self, player_id: str, events: list[Event], reply_to: int | None) -> dict[str, Any]:
        """Everything about this room that may be sent to ``player_id``: all game bytes pass here (R7)."""
        seat = self.seat_of(player_id)
        view = None if self.match is None or seat is None else seat_view(self.match, seat)
        return {
            "type": "state",
            "version": self.version,
            "reply_to": reply_to,
            "room": self.summary(for_player=player_id),
            "view": view,
            "events": [] if seat is None else events_for_seat(events, seat),
            "stake": self.stake,
        }

    def broadcast_state(self, events: list[Event], *, reply_to: tuple[str, int] | None = None) -> None:
        for player_id, outbox in list(self.connections.items()):
            answer_id = reply_to[1] if reply_to and reply_to[0] == player_id else None
            outbox.send(self.state_message(player_id, events, answer_id))

    def broadcast(self, message: dict[str, Any], *, except_player: str | None = None) -> None:
        for player_id, outbox in list(self.connections.items()):
            if player_id != except_player:
                outbox.send(message)
