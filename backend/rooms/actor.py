"""The thin actor around ``decide``: one per live room, in the spirit of boardgame.io's Master.

It holds the room's lock, asks ``decide`` what a command means, and carries the effects out
in order: every ``Persist`` is committed first (DESIGN promise 3: write-ahead), and only when
all of them succeeded is the new state adopted and anybody told. If a write fails the state
stays as it was and the sender hears why. Timers and the computer's moves come back in as
commands (``Tick``, ``PlayCard``), so everything that changes a room goes through ``decide``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from pydantic import BaseModel

from backend.db.writes import (
    AbsenceWrite,
    ActionWrite,
    OptionsWrite,
    RematchOfferWrite,
    RematchStartWrite,
    SeatTaken,
    StoreUnavailable,
    VersionConflict,
)
from backend.engine import events_for, view_for
from backend.ops import metrics

from . import commands as cmd
from .bots import HintsBusy, fallback_action
from .codes import CloseCode, RoomCode
from .decide import Limits, decide, follow_ups, forced_card
from .effects import (
    AskBot,
    AskHint,
    AutoPlay,
    CloseSockets,
    Effect,
    Persist,
    Publish,
    Refusal,
    Reject,
    SendChat,
    SendChatLog,
    SendHint,
    SendPresence,
    SendReaction,
    SendState,
    WakeAt,
)
from .hints import HINT_DEADLINE_S
from .model import RoomEvent, RoomState
from .observer import (
    TableParts,
    chat_log_message,
    chat_message,
    hint_message,
    presence_message,
    reaction_message,
    rejected_message,
    state_message,
    table_parts,
)
from .ports import BotRunner, Bus, Clock, RoomStore
from .watch import Spectators

log = logging.getLogger(__name__)
RETIRED = Refusal(RoomCode.UNAVAILABLE, "this server is restarting and has handed the table over; try again")
# A command that waited for a copy of the room that went stale meanwhile: nothing was done or sent,
# so the service carries it out again on the room rebuilt.
STALE_COPY = Refusal(RoomCode.STALE_VERSION, "the table moved on; try again")
# The writes that move the version on: one whose answer was lost may have been committed.
VERSIONED_WRITES = (ActionWrite, OptionsWrite, RematchOfferWrite, RematchStartWrite)
# The writes fenced by the owner's lease token: those that move the version, and the absence clocks
# (a clock stored by a process that lost the room would hold a seat whose player is present).
FENCED_WRITES = (*VERSIONED_WRITES, AbsenceWrite)


class RoomActor:
    def __init__(
        self,
        state: RoomState,
        *,
        store: RoomStore,
        bus: Bus,
        clock: Clock,
        bots: BotRunner,
        limits: Limits,
        bot_delay_s: float,
        on_stale: Callable[[RoomActor], None],
        spectators: Spectators | None = None,
        on_unsure: Callable[[RoomActor], None] = lambda actor: None,
        lease: int | None = None,
        on_changed: Callable[[RoomState, RoomState], None] = lambda before, after: None,
    ) -> None:
        self._spectators = spectators
        self.state = state
        self._store = store
        self._bus = bus
        self._clock = clock
        self._bots = bots
        self._limits = limits
        self._bot_delay_s = bot_delay_s
        self._on_stale = on_stale
        self._on_unsure = on_unsure  # a commit's answer was lost: the room is to be rebuilt from its log
        # A change was committed and published (the lobby's "My games", Web Push): told after the
        # commit, never on the way to it; it must not block (it hands the work to a queue or a task).
        self._on_changed = on_changed
        # The lease token claimed when this copy was built (``RoomRepository.claim``): every write
        # that moves the version names it, so once another process has taken the room over, no write
        # of this copy can be committed (it goes stale instead, and what it held goes to the owner).
        self.lease = lease
        self._lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = None
        self._timer_deadline: datetime | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_version = -1
        self._hints: set[asyncio.Task[None]] = set()  # hints being worked out (held here so they are not collected)
        self.stale = False  # another writer moved the room on: this copy must be reloaded
        self.retired = False  # handed over on a graceful restart: no more commands here

    @property
    def id(self) -> str:
        return self.state.id

    async def handle(self, command: cmd.Command) -> Refusal | None:
        """Decide and carry out one command; a refusal meant for a REST caller is returned."""
        async with self._lock:
            if self.retired:
                return RETIRED
            if self.stale or await self._overtaken(command):
                return STALE_COPY
            new, effects = decide(self.state, command, self._clock.now(), self._limits)
            return await self._carry_out(new, effects)

    async def _overtaken(self, command: cmd.Command) -> bool:
        """Was this copy overtaken by another writer? Only asked of an intent made against a version
        the copy never reached: the sender saw a newer state, from another process that wrote the
        room while its lease moved (a Redis restart) — this copy must not answer with its older
        state (it would take the sender back), it is reloaded. A made-up version is judged by
        ``decide`` as usual: the database has no such version either."""
        version = getattr(command, "version", None)
        if version is None or version <= self.state.version:
            return False
        try:
            stored = await self._store.version(self.id)
        except Exception as error:  # the database away: the intent is judged by this copy, as before
            log.info("room %s: could not read its stored version: %s", self.id, error)
            return False
        if stored is None or stored <= self.state.version:
            return False
        self.stale = True
        self._on_stale(self)
        return True

    def resume(self) -> None:
        """After a rebuild: re-arm the deadlines and let the computer move if it is its turn."""
        for effect in follow_ups(self.state, []):
            self._run(effect)

    def announce(self) -> None:
        """After a takeover: the dead owner may have committed a change it never published, so
        every connected player gets the full current state, and every spectator (anywhere) the
        current state too, with no events (one that has this version already is sent nothing)."""
        for holder in self.state.seats:  # present or not: a socket the sweep has not counted yet too
            if holder is not None and holder.bot_level is None:
                self._run(SendState(holder.player_id))
        if self._spectators is not None:
            self._spectators.publish(self.state, ())

    async def retire(self) -> None:
        """A graceful restart: wait for the command in hand (its commit in flight), then take no
        more; the room's next owner rebuilds it from the database."""
        async with self._lock:
            self.retired = True
            self.stop()

    def stop(self) -> None:
        for task in (self._timer, self._bot_task, *self._hints):
            if task is not None:
                task.cancel()

    # ------------------------------------------------------------ carrying effects out

    async def _carry_out(self, new: RoomState, effects: list[Effect]) -> Refusal | None:
        for effect in effects:
            if isinstance(effect, Persist):
                failure = await self._persist(effect)
                if failure is not None:
                    return failure
        before, self.state = self.state, new
        if any(isinstance(effect, Publish) for effect in effects):
            try:
                self._on_changed(before, new)
            except Exception:
                log.exception("room %s: a listener of its changes failed at version %d", self.id, new.version)
        refusal = None
        for effect in effects:
            if isinstance(effect, Reject):
                metrics.REFUSALS.labels(effect.refusal.code).inc()
            if isinstance(effect, Reject) and effect.player_id is None:
                refusal = effect.refusal
            elif not isinstance(effect, Persist):
                self._run_safely(effect)
        return refusal

    def _run_safely(self, effect: Effect) -> None:
        """Carry out one effect of a committed change. A failure here (a bug building a message)
        must not leave the room silent: it is logged with the room, and the effects after it
        (the other seats, the timers, the computer's turn) still run."""
        try:
            self._run(effect)
        except Exception:
            log.exception("room %s: could not carry out %s at version %d", self.id, effect, self.state.version)

    async def _persist(self, effect: Persist) -> Refusal | None:
        """Commit one write. A refusal is returned to the caller, who answers the intent once.

        Two failures leave the truth in the database, not here, so this copy goes stale and the
        command is carried out again on the room rebuilt from its log (``STALE_COPY``), which answers
        it truly (DESIGN promise 4): a ``VersionConflict`` (another writer, or a fenced lease: the
        intent may be the one another owner stored) and a move the database may have committed while
        its answer was lost (``StoreUnavailable`` of a write that advances the version)."""
        started = time.perf_counter()
        write = effect.write
        if self.lease is not None and isinstance(write, FENCED_WRITES):
            write = replace(write, lease=self.lease)
        try:
            await self._store.write(write)
            metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
            if isinstance(effect.write, ActionWrite):
                metrics.MOVES.labels(effect.write.action.kind).inc()
            return None
        except VersionConflict:
            self.stale = True
            self._on_stale(self)
            return STALE_COPY
        except SeatTaken:
            failure = Refusal(RoomCode.ROOM_FULL, "somebody else took the seat first")
        except StoreUnavailable as error:
            metrics.DB_ERRORS.inc()
            log.warning("the database is unreachable for room %s: %s", self.id, error)
            if isinstance(write, VERSIONED_WRITES):
                self.stale = True  # committed or not: only the log can say; rebuilt under the same lease
                self._on_unsure(self)
                return STALE_COPY
            failure = Refusal(
                RoomCode.UNAVAILABLE, "the database is unreachable for a moment; nothing changed, try again"
            )
        except Exception:
            metrics.DB_ERRORS.inc()
            log.exception("could not store a change of room %s", self.id)
            failure = Refusal(RoomCode.SERVER_ERROR, "the change could not be saved; nothing was applied, try again")
        metrics.REFUSALS.labels(failure.code).inc()
        return failure

    def _run(self, effect: Effect) -> None:
        state = self.state
        match effect:
            case Publish():
                parts = None  # the room summary and stakes, built once for every seat of this change
                for holder in state.seats:
                    if holder is None or holder.bot_level is not None:
                        continue
                    if parts is None:
                        parts = table_parts(state)
                    reply = effect.reply_to[1] if effect.reply_to and effect.reply_to[0] == holder.player_id else None
                    self._send_state(holder.player_id, effect.events, reply, parts)
                if self._spectators is not None:
                    self._spectators.publish(state, effect.events)
            case SendState():
                self._send_state(effect.player_id, (), effect.reply_to)
            case Reject():
                if effect.player_id is not None:
                    self._send(effect.player_id, rejected_message(effect.msg_id, effect.refusal, state.version))
            case SendPresence():
                message = presence_message(state, effect.seat).model_dump_json()
                for seat, holder in enumerate(state.seats):
                    if holder is not None and seat != effect.seat:
                        self._bus.deliver(state.id, holder.player_id, message)
            case SendChat():
                self._send(effect.sender, chat_message(state, effect, effect.msg_id))
                if not effect.echo_only:
                    line = chat_message(state, effect, None).model_dump_json()
                    for holder in state.seats:
                        if holder is not None and holder.player_id != effect.sender:
                            self._bus.deliver(state.id, holder.player_id, line)
            case SendReaction():
                self._send_reaction(state, effect)
            case SendChatLog():
                self._send(effect.player_id, chat_log_message(state))
            case CloseSockets():
                self._bus.close_room(state.id, effect.code, effect.reason)
                if self._spectators is not None:
                    self._spectators.close_room(state.id, effect.code, effect.reason)
            case WakeAt():
                self._arm(effect.deadline)
            case AskBot():
                self._ask_bot(effect)
            case AutoPlay():
                task = asyncio.create_task(self._auto_play(effect))
                self._hints.add(task)  # held like the hints' tasks, and cancelled with them
                task.add_done_callback(self._hints.discard)
            case AskHint():
                task = asyncio.create_task(self._hint(effect))
                self._hints.add(task)
                task.add_done_callback(self._hints.discard)
            case SendHint():
                self._send(effect.player_id, hint_message(effect))

    def _send_reaction(self, state: RoomState, reaction: SendReaction) -> None:
        """The sender hears its reaction back (the answer to its intent); the other people at the
        table unless they muted reactions; the spectators (anywhere) only if the table allows it."""
        self._send(reaction.sender, reaction_message(reaction, reaction.msg_id))
        if reaction.echo_only:
            return
        text = reaction_message(reaction, None).model_dump_json()
        for holder in state.seats:
            if holder is None or holder.bot_level is not None or holder.player_id == reaction.sender:
                continue
            if holder.player_id not in state.reactions_muted:
                self._bus.deliver(state.id, holder.player_id, text)
        if self._spectators is not None and state.options.spectators and state.options.reactions_for_spectators:
            self._spectators.react(state.id, text)

    def _send_state(
        self, player_id: str, events: Sequence[RoomEvent], reply_to: int | None, parts: TableParts | None = None
    ) -> None:
        """One player's state. If it cannot be built, that player's socket is closed with
        ``STATE_FAILED`` (the client reconnects and is sent the state afresh) and the others are
        still told: one seat's failure never silences the table."""
        try:
            text = state_message(self.state, player_id, events, reply_to, parts).model_dump_json()
        except Exception:
            log.exception(
                "room %s: could not build the state of player %s at version %d", self.id, player_id, self.state.version
            )
            self._bus.close_player(self.id, player_id, CloseCode.STATE_FAILED, "reconnect for the current state")
            return
        self._bus.deliver(self.id, player_id, text, self.state.version)

    def _send(self, player_id: str, message: BaseModel | str) -> None:
        text = message if isinstance(message, str) else message.model_dump_json()
        self._bus.deliver(self.state.id, player_id, text)

    # ------------------------------------------------------------ time

    def _arm(self, deadline: datetime) -> None:
        current = self._timer
        if current is not None and not current.done() and self._timer_deadline is not None:
            if self._timer_deadline <= deadline:
                return  # it fires first; the Tick then arms the next deadline
            if current is not asyncio.current_task():
                current.cancel()
        self._timer_deadline = deadline
        self._timer = asyncio.create_task(self._wake(deadline))

    async def _wake(self, deadline: datetime) -> None:
        await self._clock.sleep_until(deadline)
        self._timer_deadline = None
        await self.handle(cmd.Tick())

    # ------------------------------------------------------------ hints

    async def _hint(self, ask: AskHint) -> None:
        """The expert's choice for the asker's seat, from that seat's view and events only (R7), in
        the bot pool and without the room's lock: the room and its computer seats go on meanwhile.
        It comes back as ``HintReady`` (None if it failed or missed ``HINT_DEADLINE_S``), which
        ``decide`` sends only if the table is still at the version it was asked at."""
        state = self.state
        action, reason = None, None
        try:
            if state.match is not None and state.version == ask.version:  # else it moved on already: stale
                view = view_for(state.match, ask.seat)
                events = events_for(state.deal_events, ask.seat)
                action, reason = await asyncio.wait_for(self._bots.hint(view, events), HINT_DEADLINE_S)
        except (TimeoutError, HintsBusy) as error:
            log.info("room %s: no hint for seat %d: %s", self.id, ask.seat, error or "its deadline passed")
        except Exception:
            log.exception("room %s: the hint for seat %d failed", self.id, ask.seat)
        ready = cmd.HintReady(ask.player_id, ask.msg_id, ask.version, ask.seat, action, reason)
        try:
            await self.handle(ready)
        except Exception:
            log.exception("room %s: the hint could not be answered", self.id)

    # ------------------------------------------------------------ auto_play (issue 45)

    async def _auto_play(self, effect: AutoPlay) -> None:
        """The person's only legal card, played for them once this change has been told (a command
        of its own: stored, published and timed like the person's own play)."""
        state = self.state
        holder = state.seats[effect.seat]
        if state.version != effect.version or holder is None:
            return
        card = forced_card(state, effect.seat)
        if card is None:
            return
        try:
            await self.handle(cmd.command_for(holder.player_id, effect.version, card))
        except Exception:
            log.exception("room %s: the forced card of seat %d could not be played", self.id, effect.seat)

    # ------------------------------------------------------------ the computer

    def _ask_bot(self, ask: AskBot) -> None:
        running = self._bot_task
        if running is not None and not running.done():
            if self._bot_version == ask.version:
                return
            if running is not asyncio.current_task():
                running.cancel()  # it thinks about a position that is gone
        self._bot_version = ask.version
        self._bot_task = asyncio.create_task(self._bot_turn(ask))

    async def _bot_turn(self, ask: AskBot) -> None:
        await asyncio.sleep(self._bot_delay_s)  # a moment, so that people can follow the cards
        state = self.state
        holder = state.seats[ask.seat]
        if state.version != ask.version or state.match is None or holder is None or holder.bot_level is None:
            return
        view = view_for(state.match, ask.seat)
        started = time.perf_counter()
        try:
            action = await self._bots.decide(holder.bot_level, view, events_for(state.deal_events, ask.seat))
            metrics.BOT_SECONDS.labels(holder.bot_level).observe(time.perf_counter() - started)
        except Exception:
            log.exception("the %s bot failed in room %s; it makes its first legal move", holder.bot_level, self.id)
            action = fallback_action(state.match, ask.seat)
        self._bot_task = None
        try:
            await self.handle(cmd.command_for(holder.player_id, ask.version, action))
        except Exception:
            log.exception("the computer's move could not be made in room %s", self.id)
