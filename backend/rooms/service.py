"""The life of every table: seats, versions, intents, rematches, connections.

The only layer that knows about concurrency. Each room has an ``asyncio.Lock``; while
it is held an intent is checked by the engine, written to the database (compare-and-swap
on the room version) and only then broadcast — so no accepted move is ever lost and no
seat ever hears of a move that was not stored (DESIGN promises 3 and 5).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from backend.db.group_commit import GroupCommitter
from backend.db.models import Room
from backend.db.store import ActionRecord, ActionWrite, DealRow, MatchEnd, NewMatch, Store, VersionConflict, new_id
from backend.engine import (
    IllegalAction,
    MatchState,
    Play,
    Resign,
    card,
    name,
    new_match,
    new_seed,
    seat_view,
    stake_owed,
)
from backend.engine import match as match_rules
from backend.engine.cards import SUITS
from backend.engine.deal import Event

from .bots import BotRunner
from .options import TableOptions
from .room import LiveRoom, Outbox

log = logging.getLogger(__name__)
UNKNOWN_CARD = -1  # stands for a card name that names no card; the engine refuses it as not held
T = TypeVar("T")


class RoomError(Exception):
    """A lobby request that cannot be done (maps to a 4xx answer)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def rejected(msg_id: int | None, code: str, message: str, version: int) -> dict[str, Any]:
    return {"type": "rejected", "id": msg_id, "code": code, "message": message, "version": version}


class RoomService:
    def __init__(
        self,
        store: Store,
        *,
        bots: BotRunner | None = None,
        bot_delay_s: float = 0.6,
        rematch_timeout_s: float = 120.0,
        crash_after_commits: int | None = None,
    ) -> None:
        self.store = store
        self._writer = GroupCommitter(store)
        self._bots = bots or BotRunner()
        self._bot_delay_s = bot_delay_s
        self._rematch_timeout_s = rematch_timeout_s
        self._rooms: dict[str, LiveRoom] = {}
        self._loading = asyncio.Lock()
        self._crash_after_commits = crash_after_commits
        self._commits = 0

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    # ------------------------------------------------------------ start-up

    async def rebuild_live_rooms(self) -> int:
        """After a restart: rebuild every unfinished match from its seed and action log."""
        ids = await self._db(self.store.live_room_ids)
        for room_id in ids:
            await self.room(room_id)
        return len(ids)

    # ------------------------------------------------------------ loading rooms

    async def room(self, room_id: str) -> LiveRoom | None:
        live = self._rooms.get(room_id)
        if live is not None:
            return live
        async with self._loading:
            live = self._rooms.get(room_id)
            if live is None:
                live = await self._db(self._load, room_id)
                if live is not None:
                    self._rooms[room_id] = live
                    self._schedule_bot(live)
        return live

    def _load(self, room_id: str) -> LiveRoom | None:
        stored = self.store.load_room(room_id)
        if stored is None:
            return None
        row = stored.room
        live = self._live_from_row(row)
        if stored.match is not None:
            match = stored.match
            live.match_id = match.id
            live.seat_ids = [match.seat0_id, match.seat1_id]
            live.names = self._names(live.seat_ids)
            rules = TableOptions.from_json(match.options).rules
            state = new_match(rules, int(match.seed))
            for action in stored.actions:
                move = _engine_action(action.kind, action.card, action.declare, action.reason)
                state, events = match_rules.apply(state, action.seat, move)
                live.note_events(events)
            live.match = state
            live.seq = len(stored.actions)
            if live.match.over:
                settlement = self.store.settlements_for([match.id]).get(match.id)
                if settlement is not None:
                    live.stake = _stake_json(
                        live.match,
                        Decimal(settlement.stake_per_point),
                        settlement.currency,
                        Decimal(settlement.amount),
                        settlement.points_short,
                    )
        return live

    def _live_from_row(self, row: Room) -> LiveRoom:
        seat_ids = [row.seat0_id, row.seat1_id]
        return LiveRoom(
            id=row.id,
            invite_code=row.invite_code,
            visibility=row.visibility,
            options=TableOptions.from_json(row.options),
            status=row.status,
            seat_ids=seat_ids,
            names=self._names(seat_ids),
            created_at=row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC),
            version=row.version,
            match_id=row.match_id,
        )

    def _names(self, seat_ids: list[str | None]) -> list[str | None]:
        players = self.store.players([pid for pid in seat_ids if pid])
        return [players[pid].name if pid and pid in players else None for pid in seat_ids]

    # ------------------------------------------------------------ the lobby

    async def create_room(self, player_id: str, options: TableOptions, visibility: str) -> LiveRoom:
        row = await self._db(self.store.create_room, player_id, options.to_json(), visibility)
        live = await self._db(self._live_from_row, row)
        self._rooms[live.id] = live
        if options.bot_level is not None:
            bot = await self._db(self.store.bot_player, options.bot_level)
            await self.join(live, bot.id)  # the computer takes seat 1 at once
        return live

    def shutdown(self) -> None:
        self._bots.shutdown()
        self._writer.close()

    async def join(self, room: LiveRoom, player_id: str) -> LiveRoom:
        async with room.lock:
            if room.seat_of(player_id) is not None:
                raise RoomError(409, "already_seated", "you already have a seat at this table")
            if room.status != "open":
                code = "room_full" if room.status in ("playing", "finished") else "room_closed"
                raise RoomError(409, code, "this table is no longer open")
            creator = room.seat_ids[0]
            assert creator is not None
            match = _new_match(room, (creator, player_id))
            if not await self._db(self.store.join_room, room.id, player_id, match):
                # Another process took the seat first: our copy of the room is stale.
                self._rooms.pop(room.id, None)
                raise RoomError(409, "room_full", "somebody else took the seat first")
            room.seat_ids = [creator, player_id]
            room.names = await self._db(self._names, room.seat_ids)
            room.status = "playing"
            room.version += 1
            self._start_match(room, match)
            self._publish(room, [{"kind": "match_started", "match_id": match.id}])
        return room

    async def leave(self, room: LiveRoom, player_id: str) -> None:
        async with room.lock:
            if room.seat_of(player_id) is None:
                raise RoomError(403, "not_seated", "you have no seat at this table")
            if room.status != "open":
                raise RoomError(409, "room_started", "the match has started; resign instead")
            if not await self._db(self.store.close_room, room.id, player_id):
                raise RoomError(409, "room_started", "the table could not be closed")
            room.status = "closed"
            for outbox in room.connections.values():
                outbox.close(4410, "table closed")
            room.connections.clear()

    def _start_match(self, room: LiveRoom, match: NewMatch) -> None:
        room.match_id = match.id
        room.match = new_match(room.options.rules, match.seed)
        room.seq = 0
        room.stake = None
        room.rematch_offer = None
        room.replies.clear()
        for seat in (0, 1):  # a player who is not here when the match starts is already being waited for
            if not room.connected(seat) and room.connected(1 - seat):
                self._start_grace(room, seat)

    # ------------------------------------------------------------ connections

    def connect(self, room: LiveRoom, player_id: str, outbox: Outbox) -> None:
        previous = room.connections.get(player_id)
        room.connections[player_id] = outbox
        if previous is not None and previous is not outbox:
            previous.close(4409, "replaced by a newer connection")
        seat = room.seat_of(player_id)
        if seat is not None:
            self._end_grace(room, seat)
            if room.live and not room.connected(1 - seat):
                self._start_grace(room, 1 - seat)  # somebody is now waiting for the absent player
        outbox.send(room.state_message(player_id, [], None))
        self._announce_presence(room, player_id)

    def disconnect(self, room: LiveRoom, player_id: str, outbox: Outbox) -> None:
        if room.connections.get(player_id) is not outbox:
            return  # an older socket that was replaced
        del room.connections[player_id]
        if not room.connections and room.status in ("finished", "closed") and room.rematch_offer is None:
            # Nothing can happen here without a socket: free the memory; the room reloads from
            # the database if anybody comes back. Open and live rooms stay, so that one room
            # never has two copies in memory.
            self._rooms.pop(room.id, None)
        seat = room.seat_of(player_id)
        if seat is not None:
            # The clock runs only while somebody waits: if both are away, nobody forfeits.
            self._end_grace(room, 1 - seat)
            if room.live and room.connected(1 - seat):
                self._start_grace(room, seat)
        self._announce_presence(room, player_id)

    def _announce_presence(self, room: LiveRoom, player_id: str) -> None:
        seat = room.seat_of(player_id)
        if seat is not None:
            presence = {
                "type": "presence",
                "seat": seat,
                "connected": room.connected(seat),
                "grace_deadline": room.grace_deadline(seat),
            }
            room.broadcast(presence, except_player=player_id)

    # ------------------------------------------------------------ absence (R6.2)

    def _start_grace(self, room: LiveRoom, seat: int) -> None:
        """Hold an absent seat for the table's grace; past it the seat forfeits (R6.2)."""
        if seat in room.grace:
            return
        grace = room.options.reconnect_grace_s
        deadline = datetime.now(UTC) + timedelta(seconds=grace)
        room.grace[seat] = (deadline, asyncio.create_task(self._forfeit_after(room, seat, grace)))
        occupant = room.seat_ids[seat]
        if occupant is not None:
            self._announce_presence(room, occupant)

    def _end_grace(self, room: LiveRoom, seat: int) -> None:
        held = room.grace.pop(seat, None)
        if held is not None:
            held[1].cancel()

    async def _forfeit_after(self, room: LiveRoom, seat: int, grace: float) -> None:
        await asyncio.sleep(grace)
        async with room.lock:
            room.grace.pop(seat, None)
            if not room.live or room.connected(seat) or not room.connected(1 - seat) or room.match is None:
                return
            after, events = match_rules.apply(room.match, seat, Resign("absence"))
            if await self._commit(room, None, None, seat, Resign("absence"), after, events):
                self._publish(room, events)

    def send_state(self, room: LiveRoom, player_id: str) -> None:
        outbox = room.connections.get(player_id)
        if outbox is not None:
            outbox.send(room.state_message(player_id, [], None))

    # ------------------------------------------------------------ intents

    async def play(self, room: LiveRoom, player_id: str, msg_id: int, version: int, card_name: str, declare: bool):
        try:
            action: Play | Resign = Play(card(card_name), declare)
        except ValueError:
            action = Play(UNKNOWN_CARD, declare)  # the engine answers card_not_held
        await self._game_action(room, player_id, msg_id, version, action, card_name)

    async def resign(self, room: LiveRoom, player_id: str, msg_id: int, version: int) -> None:
        await self._game_action(room, player_id, msg_id, version, Resign("resign"))

    async def _game_action(
        self,
        room: LiveRoom,
        player_id: str,
        msg_id: int,
        version: int,
        action: Play | Resign,
        card_name: str | None = None,
    ) -> None:
        async with room.lock:
            if self._answered_before(room, player_id, msg_id):
                return
            seat = room.seat_of(player_id)
            refusal = self._precheck(room, seat, version)
            if refusal is not None:
                self._reject(room, player_id, msg_id, *refusal)
                return
            assert room.match is not None and seat is not None
            try:
                after, events = match_rules.apply(room.match, seat, action)
            except IllegalAction as illegal:
                message = illegal.message
                if isinstance(action, Play) and action.card == UNKNOWN_CARD:
                    message = f"{card_name!r} is not a card"
                self._reject(room, player_id, msg_id, illegal.code, message)
                return
            if not await self._commit(room, player_id, msg_id, seat, action, after, events):
                return
            room.remember_reply(player_id, msg_id, None)
            self._publish(room, events, reply_to=(player_id, msg_id))

    def _precheck(self, room: LiveRoom, seat: int | None, version: int) -> tuple[str, str] | None:
        if seat is None:
            return "not_seated", "you have no seat at this table"
        if version != room.version:
            return "stale_version", f"the table is at version {room.version}, not {version}"
        if room.match is None:
            return "no_match", "the match has not started yet"
        if room.match.over:
            return "match_over", "the match is over"
        return None

    async def _commit(
        self,
        room: LiveRoom,
        player_id: str | None,
        msg_id: int | None,
        seat: int,
        action: Play | Resign,
        after: MatchState,
        events: list[Event],
    ) -> bool:
        """Write the accepted action ahead of any broadcast; on failure the room is unchanged."""
        assert room.match is not None and room.match_id is not None
        before = room.match
        deals = [_deal_row(record) for record in after.history[len(before.history) :]]
        end = self._match_end(room, after) if after.over else None
        if isinstance(action, Play):
            record = ActionRecord(seat=seat, kind="play", card=name(action.card), declare=action.declare)
        else:
            record = ActionRecord(seat=seat, kind="resign", reason=action.reason)
        try:
            await self._writer.commit(
                ActionWrite(
                    room_id=room.id,
                    expected_version=room.version,
                    match_id=room.match_id,
                    seq=room.seq + 1,
                    action=record,
                    client_msg_id=msg_id,
                    deals=deals,
                    end=end,
                    totals=after.totals,
                )
            )
        except VersionConflict:
            self._rooms.pop(room.id, None)  # another process moved on: reload on next use
            if player_id is not None:
                self._reject(room, player_id, msg_id, "stale_version", "the table moved on; reloading")
            return False
        except Exception:
            log.exception("could not store an action in room %s", room.id)
            if player_id is not None:
                self._reject(room, player_id, msg_id, "server_error", "the move could not be saved; try again", False)
            return False
        self._commits += 1
        if self._crash_after_commits is not None and self._commits >= self._crash_after_commits:
            os._exit(70)  # chaos tests: die after the commit, before anyone is told
        room.match = after
        room.seq += 1
        room.version += 1
        if end is not None:
            room.status = "finished"
            for absent in list(room.grace):
                self._end_grace(room, absent)
            room.stake = _stake_json(after, end.stake_per_point, end.currency, end.amount, end.points_short)
            for event in events:
                if event["kind"] == "match_over":
                    event["stake"] = room.stake
        return True

    def _match_end(self, room: LiveRoom, match: MatchState) -> MatchEnd:
        """R6 / R6.2: the loser owes stake × (target − loser's total), recorded with the match."""
        assert match.winner is not None and match.end_reason is not None
        loser = 1 - match.winner
        target = match.rules.target
        winner_id, loser_id = room.seat_ids[match.winner], room.seat_ids[loser]
        assert winner_id is not None and loser_id is not None
        stake = room.options.stake_per_point
        return MatchEnd(
            winner_seat=match.winner,
            reason=match.end_reason,
            totals=match.totals,
            winner_id=winner_id,
            loser_id=loser_id,
            points_short=max(0, target - match.totals[loser]),
            stake_per_point=stake,
            currency=room.options.currency,
            amount=stake_owed(stake, target, match.totals[loser]),
        )

    # ------------------------------------------------------------ rematch

    async def rematch(self, room: LiveRoom, player_id: str, msg_id: int, version: int, action: str) -> None:
        async with room.lock:
            if self._answered_before(room, player_id, msg_id):
                return
            seat = room.seat_of(player_id)
            if seat is None:
                self._reject(room, player_id, msg_id, "not_seated", "you have no seat at this table")
                return
            if version != room.version:
                self._reject(room, player_id, msg_id, "stale_version", f"the table is at version {room.version}")
                return
            problem = _rematch_problem(room, seat, action)
            if problem is None and action == "accept":
                problem = await self._busy_elsewhere(room)
            if problem is not None:
                self._reject(room, player_id, msg_id, "rematch_invalid", problem)
                return
            try:
                await self._change_rematch(room, seat, action)
            except VersionConflict:
                self._rooms.pop(room.id, None)
                self._reject(room, player_id, msg_id, "stale_version", "the table moved on; reloading")
                return
            room.remember_reply(player_id, msg_id, None)
            events: list[Event] = [{"kind": "rematch", "action": action, "seat": seat}]
            if action == "accept":
                events.append({"kind": "match_started", "match_id": room.match_id})
            self._publish(room, events, reply_to=(player_id, msg_id))
            bot = room.bot_seat
            if action == "offer" and bot is not None and await self._busy_elsewhere(room) is None:
                await self._change_rematch(room, bot, "accept")  # the computer always plays again
                self._publish(
                    room,
                    [
                        {"kind": "rematch", "action": "accept", "seat": bot},
                        {"kind": "match_started", "match_id": room.match_id},
                    ],
                )

    async def _change_rematch(self, room: LiveRoom, seat: int, action: str) -> None:
        """The rematch state machine: none → offered → (accepted | declined | withdrawn | timed out)."""
        if room.rematch_timer is not None:
            room.rematch_timer.cancel()
            room.rematch_timer = None
        if action == "accept":
            await self._start_rematch(room)
            return
        await self._db(self.store.bump_version, room.id, room.version)
        room.version += 1
        room.rematch_offer = seat if action == "offer" else None
        if action == "offer":
            room.rematch_timer = asyncio.create_task(self._expire_offer(room, seat))

    async def _expire_offer(self, room: LiveRoom, seat: int) -> None:
        await asyncio.sleep(self._rematch_timeout_s)
        async with room.lock:
            if room.rematch_offer != seat or room.rematch_timer is not asyncio.current_task():
                return
            room.rematch_timer = None
            try:
                await self._db(self.store.bump_version, room.id, room.version)
            except VersionConflict:
                self._rooms.pop(room.id, None)
                return
            room.version += 1
            room.rematch_offer = None
            self._publish(room, [{"kind": "rematch", "action": "timeout", "seat": seat}])

    async def _busy_elsewhere(self, room: LiveRoom) -> str | None:
        """An accepted rematch must never pull a player out of another live match."""
        for player_id, player_name in zip(room.seat_ids, room.names, strict=True):
            if player_id is None or player_id == room.bot_id:
                continue
            rooms = await self._db(self.store.rooms_of_player, player_id)
            if any(other.id != room.id and other.status == "playing" for other in rooms):
                return f"{player_name} is playing another match right now"
        return None

    async def _start_rematch(self, room: LiveRoom) -> None:
        """Same options, seats swapped."""
        first, second = room.seat_ids
        assert first is not None and second is not None
        match = _new_match(room, (second, first))
        await self._db(self.store.start_rematch, room.id, room.version, match)
        room.version += 1
        room.seat_ids = [second, first]
        room.names = [room.names[1], room.names[0]]
        room.status = "playing"
        self._start_match(room, match)

    # ------------------------------------------------------------ telling the seats

    def _publish(self, room: LiveRoom, events: list[Event], *, reply_to: tuple[str, int] | None = None) -> None:
        """After an accepted change: every seat gets its own state, and the computer may move."""
        room.note_events(events)
        room.broadcast_state(events, reply_to=reply_to)
        self._schedule_bot(room)

    # ------------------------------------------------------------ the computer opponent

    def _schedule_bot(self, room: LiveRoom) -> None:
        seat = room.bot_seat
        if seat is None or not room.live or room.match is None or room.match.deal.turn != seat:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.create_task(self._bot_turn(room, seat))

    async def _bot_turn(self, room: LiveRoom, seat: int) -> None:
        await asyncio.sleep(self._bot_delay_s)  # a moment, so that people can follow the cards
        assert room.match is not None and room.options.bot_level is not None
        version = room.version
        view = seat_view(room.match, seat)
        try:
            card_name, declare = await self._bots.decide(room.options.bot_level, view, list(room.bot_events))
        except Exception:
            log.exception(
                "the %s bot failed in room %s; it plays its first legal card", room.options.bot_level, room.id
            )
            card_name, declare = view["legal"][0], False
        async with room.lock:
            if room.version != version or not room.live or room.match is None:
                return  # the table moved on meanwhile (a resignation); the next change reschedules
            after, events = match_rules.apply(room.match, seat, Play(card(card_name), declare))
            if await self._commit(room, None, None, seat, Play(card(card_name), declare), after, events):
                room.bot_task = None
                self._publish(room, events)

    # ------------------------------------------------------------ chat

    def chat(self, room: LiveRoom, player_id: str, msg_id: int, text: str) -> None:
        found, answer = room.cached_reply(player_id, msg_id)
        if found:
            self._send(room, player_id, answer)
            return
        seat = room.seat_of(player_id)
        if seat is None:
            self._reject(room, player_id, msg_id, "not_seated", "you have no seat at this table")
            return
        line = {
            "type": "chat",
            "seat": seat,
            "name": room.names[seat],
            "text": text,
            "at": datetime.now(UTC).isoformat(),
            "reply_to": None,
        }
        room.broadcast(line, except_player=player_id)
        answer = {**line, "reply_to": msg_id}
        room.remember_reply(player_id, msg_id, answer)
        self._send(room, player_id, answer)

    # ------------------------------------------------------------ answers

    def _answered_before(self, room: LiveRoom, player_id: str, msg_id: int) -> bool:
        found, answer = room.cached_reply(player_id, msg_id)
        if not found:
            return False
        if answer is None:
            outbox = room.connections.get(player_id)
            if outbox is not None:
                outbox.send(room.state_message(player_id, [], msg_id))
        else:
            self._send(room, player_id, answer)
            if answer.get("code") == "stale_version":
                self.send_state(room, player_id)  # as the first time: the current state follows
        return True

    def _reject(
        self, room: LiveRoom, player_id: str, msg_id: int | None, code: str, message: str, remember: bool = True
    ) -> None:
        answer = rejected(msg_id, code, message, room.version)
        if remember and msg_id is not None:
            room.remember_reply(player_id, msg_id, answer)
        self._send(room, player_id, answer)
        if code == "stale_version":
            self.send_state(room, player_id)

    @staticmethod
    def _send(room: LiveRoom, player_id: str, message: dict[str, Any] | None) -> None:
        outbox = room.connections.get(player_id)
        if outbox is not None and message is not None:
            outbox.send(message)


def _new_match(room: LiveRoom, seat_ids: tuple[str, str]) -> NewMatch:
    """A match for the room's options with a fresh seed from the secure source (R2)."""
    seed = new_seed()
    return NewMatch(
        id=new_id("m"),
        options=room.options.to_json(),
        seed=seed,
        first_dealer=match_rules.first_dealer(seed),
        seat_ids=seat_ids,
    )


def _rematch_problem(room: LiveRoom, seat: int, action: str) -> str | None:
    if room.match is None or not room.match.over:
        return "a rematch can be arranged only once the match is over"
    offer = room.rematch_offer
    if action == "offer":
        return None if offer is None else "a rematch has already been offered"
    if action == "withdraw":
        return None if offer == seat else "you have no rematch offer to withdraw"
    if action in ("accept", "decline"):
        return None if offer == 1 - seat else "there is no rematch offer from your opponent"
    return f"unknown rematch action {action!r}"


def _engine_action(kind: str, card_name: str | None, declare: bool, reason: str | None) -> Play | Resign:
    if kind == "play" and card_name is not None:
        return Play(card(card_name), declare)
    return Resign("absence" if reason == "absence" else "resign")


def _deal_row(record: match_rules.DealRecord) -> DealRow:
    return DealRow(
        number=record.number,
        dealer=record.dealer,
        seed=record.seed,
        card_points=record.card_points,
        declaration_points=record.declaration_points,
        score=record.score,
        totals=record.totals,
        declarations=[{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in record.declarations],
    )


def _stake_json(
    match: MatchState, stake_per_point: Decimal, currency: str, amount: Decimal, points_short: int
) -> dict[str, Any]:
    assert match.winner is not None
    return {
        "amount": str(amount),
        "currency": currency,
        "stake_per_point": str(stake_per_point),
        "points_short": points_short,
        "debtor_seat": 1 - match.winner,
        "creditor_seat": match.winner,
    }
