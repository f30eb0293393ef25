"""The life of a table as one pure function: ``decide(state, command, now) -> (state, effects)``.

No I/O, no asyncio, no clock and no random source of its own: time comes in as ``now`` and a
new match's seed as ``FreshMatch`` inside the command. The actor (``actor.py``) carries the
effects out in order — persist first, then publish — and adopts the new state only once every
write is committed. The version is advanced in exactly one place, ``_advance``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from decimal import Decimal

from backend import engine
from backend.db.writes import (
    AbsenceWrite,
    ActionWrite,
    ChatWrite,
    CloseWrite,
    DealRow,
    JoinWrite,
    MatchEnd,
    NewMatch,
    OptionsWrite,
    RematchOfferWrite,
    RematchStartWrite,
    SettlementRow,
    TurnWrite,
)
from backend.engine import Action, Bid, DealRecord, Discard, Event, IllegalAction, IllegalCode, MatchState, Pass, Play
from backend.engine import Resign as EngineResign
from backend.engine.cards import SUITS
from backend.ratings import match_kind

from . import commands as cmd
from .codes import CloseCode, RoomCode
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
from .hints import hints_offered
from .log import UNKNOWN_CARD, action_record, card_or_unknown
from .model import (
    CHAT_LOG_LINES,
    RECENT_ANSWERS,
    ChatLine,
    FreshMatch,
    IntentKey,
    MatchStarted,
    RematchChanged,
    RematchOffer,
    RoomEvent,
    RoomState,
    SeatHolder,
    Stake,
)
from .reactions import DEFAULT_LIMITS, REACTIONS, ReactionLimits, admit

Decision = tuple[RoomState, list[Effect]]


@dataclass(frozen=True, slots=True)
class Limits:
    rematch_timeout_s: float = 120.0
    reactions: ReactionLimits = DEFAULT_LIMITS


@dataclass(frozen=True, slots=True)
class Accepted:
    """Remembered for a resent id whose intent changed the room outside the action log."""


ACCEPTED = Accepted()


def decide(state: RoomState, command: cmd.Command, now: datetime, limits: Limits = Limits()) -> Decision:
    match command:
        case cmd.PlayCard() | cmd.Bid() | cmd.Pass() | cmd.Discard():
            return _move(state, command, now)
        case cmd.Resign():
            return _resign(state, command, now)
        case cmd.Rematch():
            return _rematch(state, command, now, limits)
        case cmd.Chat():
            return _chat(state, command, now)
        case cmd.React():
            return _react(state, command, now, limits.reactions)
        case cmd.MuteReactions():
            return _mute_reactions(state, command)
        case cmd.Hint():
            return _hint(state, command)
        case cmd.HintReady():
            return _hint_ready(state, command)
        case cmd.Hello():
            return state, [SendState(command.player_id), SendChatLog(command.player_id)]
        case cmd.Connect():
            return _presence(state, command.player_id, True, now)
        case cmd.Disconnect():
            return _presence(state, command.player_id, False, now)
        case cmd.Join():
            return _join(state, command, now)
        case cmd.Leave():
            return _leave(state, command)
        case cmd.Tick():
            return _tick(state, now)
        case cmd.SetSpectators():
            return _set_spectators(state, command)


def _set_spectators(state: RoomState, command: cmd.SetSpectators) -> Decision:
    """A seated player allows or forbids watching; spectators already watching are sent away
    when it is forbidden (the spectators' hub sees the new options with the state)."""
    if state.seat_of(command.player_id) is None:
        return _refuse(state, None, None, RoomCode.NOT_SEATED, "only the table's players can change this")
    if state.status == "closed":
        return _refuse(state, None, None, RoomCode.ROOM_CLOSED, "the table is closed")
    options = state.options
    changed = replace(
        options,
        spectators=options.spectators if command.allowed is None else command.allowed,
        reactions_for_spectators=options.reactions_for_spectators if command.reactions is None else command.reactions,
    )
    if changed == options:
        return state, []
    new = _advance(state, options=changed)
    return new, [Persist(OptionsWrite(state.id, state.version, new.options.to_json())), Publish(())]


# ---------------------------------------------------------------- the one place the version moves


def _advance(state: RoomState, **changes: object) -> RoomState:
    return replace(state, version=state.version + 1, **changes)  # type: ignore[arg-type]  # fields vary


# ---------------------------------------------------------------- answers


def _refuse(
    state: RoomState, player_id: str | None, msg_id: int | None, code: str, message: str, version: int = -1
) -> Decision:
    refusal = Refusal(code, message)
    effects: list[Effect] = [Reject(player_id, msg_id, refusal)]
    if player_id is not None and code == RoomCode.STALE_VERSION:
        effects.append(SendState(player_id))  # the current state follows a stale intent at once
    if player_id is not None and msg_id is not None:
        state = _remember(state, (player_id, msg_id, version), refusal)
    return state, effects


def _remember(state: RoomState, key: IntentKey, answer: object) -> RoomState:
    recent = (*state.recent, (key, answer))[-RECENT_ANSWERS:]
    return replace(state, recent=recent)


def _answered_before(state: RoomState, player_id: str, msg_id: int | None, version: int) -> list[Effect] | None:
    """The same answer again for a resent id (DESIGN promise 4), or None if it is new.

    Accepted plays and resignations are found in the action log (``answered``), so the answer
    survives a restart; refusals and chat lines are remembered for a while in memory — a refusal
    changed nothing, so judging a resend afresh after a restart gives an equivalent answer.
    """
    if msg_id is None:
        return None
    key = (player_id, msg_id, version)
    if key in state.answered:
        return [SendState(player_id, reply_to=msg_id)]
    answer = state.recent_answer(key)
    if answer is None:
        return None
    if isinstance(answer, Refusal):
        effects: list[Effect] = [Reject(player_id, msg_id, answer)]
        if answer.code == RoomCode.STALE_VERSION:
            effects.append(SendState(player_id))
        return effects
    if isinstance(answer, SendChat | SendReaction):
        return [replace(answer, echo_only=True)]
    return [SendState(player_id, reply_to=msg_id)]


def _intent_refusal(state: RoomState, seat: int | None, version: int) -> tuple[str, str] | None:
    if seat is None:
        return RoomCode.NOT_SEATED, "you have no seat at this table"
    if version != state.version:
        return RoomCode.STALE_VERSION, f"the table is at version {state.version}, not {version}"
    return None


# ---------------------------------------------------------------- game actions


def _move(state: RoomState, command: cmd.GameCommand, now: datetime) -> Decision:
    """A move in the game — a card, or in V2–V7 a bid, a pass or the discards — from a player's
    socket or from the computer (``msg_id`` None)."""
    player, msg_id = command.player_id, command.msg_id
    again = _answered_before(state, player, msg_id, command.version)
    if again is not None:
        return state, again
    seat = state.seat_of(player)
    if msg_id is None and (seat is None or command.version != state.version or not state.live):
        return state, follow_ups(state, [])  # the computer's move against a table that moved on: ask again
    refusal = _intent_refusal(state, seat, command.version) or _match_refusal(state)
    if refusal is not None:
        return _refuse(state, player, msg_id, *refusal, command.version)
    assert seat is not None
    action, named = _engine_action(command)
    try:
        return _apply(state, seat, action, player, msg_id, now)
    except IllegalAction as illegal:
        unknown = [name for name in named if card_or_unknown(name) == UNKNOWN_CARD]
        message = f"{unknown[0]!r} is not a card" if unknown else illegal.message
        return _refuse(state, player, msg_id, illegal.code, message, command.version)


def _engine_action(command: cmd.GameCommand) -> tuple[Action, tuple[str, ...]]:
    """The engine's action for a command, and the card names it gave (an unknown name becomes a
    card nobody holds, so the engine refuses it in the order of its checks, V0.12)."""
    match command:
        case cmd.PlayCard():
            return Play(card_or_unknown(command.card), command.declare), (command.card,)
        case cmd.Bid():
            return Bid(command.amount), ()
        case cmd.Pass():
            return Pass(), ()
        case cmd.Discard():
            first, second = command.cards
            return Discard(card_or_unknown(first), card_or_unknown(second)), command.cards


def _resign(state: RoomState, command: cmd.Resign, now: datetime) -> Decision:
    again = _answered_before(state, command.player_id, command.msg_id, command.version)
    if again is not None:
        return state, again
    seat = state.seat_of(command.player_id)
    refusal = _intent_refusal(state, seat, command.version) or _match_refusal(state)
    if refusal is not None:
        return _refuse(state, command.player_id, command.msg_id, *refusal, command.version)
    assert seat is not None
    return _apply(state, seat, EngineResign("resign"), command.player_id, command.msg_id, now)


def _match_refusal(state: RoomState) -> tuple[str, str] | None:
    if state.match is None:
        return RoomCode.NO_MATCH, "the match has not started yet"
    if state.match.over:
        return IllegalCode.MATCH_OVER, "the match is over"
    return None


def _apply(
    state: RoomState, seat: int, action: engine.MatchAction, player: str | None, msg_id: int | None, now: datetime
) -> Decision:
    """Apply an action the engine accepts; raises ``IllegalAction`` (and decides nothing) if not."""
    before = state.match
    assert before is not None and state.match_id is not None
    after, events = engine.apply(before, seat, action)
    end, stakes = _settle(state, after) if after.over else (None, ())
    record = action_record(seat, action)
    turn_deadline = turn_clock(replace(state, match=after), now)
    write = ActionWrite(
        room_id=state.id,
        expected_version=state.version,
        match_id=state.match_id,
        seq=state.seq + 1,
        action=record,
        client_msg_id=msg_id,
        deals=tuple(_deal_row(r) for r in after.history[len(before.history) :]),
        end=end,
        totals=after.totals,
        turn=_turn_write(state, after, turn_deadline),
    )
    answered = state.answered
    if player is not None and msg_id is not None:
        answered = answered | {(player, msg_id, state.version)}
    nxt = _advance(
        state,
        match=after,
        seq=state.seq + 1,
        answered=answered,
        deal_events=deal_memory(state.deal_events, events),
        turn_deadline=turn_deadline,
    )
    if end is not None:
        nxt = replace(
            nxt,
            status="finished",
            stakes=stakes,
            absence=tuple(None for _ in state.seats),
        )
    effects: list[Effect] = [Persist(write)]
    effects.append(Publish(tuple(events), reply_to=None if player is None or msg_id is None else (player, msg_id)))
    if end is not None:
        effects.extend(SendPresence(s) for s, held in enumerate(state.absence) if held is not None)
    return nxt, follow_ups(nxt, effects)


def turn_clock(state: RoomState, now: datetime) -> datetime | None:
    """R6.3: the deadline of the seat on turn at a turn-based table, for a turn that begins ``now``
    (every accepted action starts a fresh time per move, even when the same seat acts again).

    A person has the table's time per move, unless everyone else at the table is a computer: such
    a table never ends by the person's absence. The computer's turn is stored as due at once: it
    plays after ``BOT_DELAY_S`` in the room's process, and should that process die first, the
    sweep that reads the stored deadlines finds the table and the computer plays on. None at a
    live table and once the match is over."""
    per_move = state.options.time_per_move
    turn = state.turn
    if per_move is None or turn is None:
        return None
    if not state.person_on_turn:
        return now
    others = [seat for seat in state.people if seat != turn]
    return now + per_move if others else None


def _turn_write(state: RoomState, match: MatchState, deadline: datetime | None) -> TurnWrite | None:
    """The row's turn columns at a turn-based table (cleared once the match is over); None at a live one."""
    if not state.options.turn_based:
        return None
    return TurnWrite(None if match.over else match.deal.turn, deadline)


def deal_memory(memory: tuple[Event, ...], events: Sequence[Event]) -> tuple[Event, ...]:
    """Keep the events of the current deal only: a new deal starts a new memory."""
    kept = list(memory)
    for event in events:
        if event.kind == "deal_started":
            kept = []
        kept.append(event)
    return tuple(kept)


def _settle(state: RoomState, match: MatchState) -> tuple[MatchEnd, tuple[Stake, ...]]:
    """R6 / R6.2 for two (V0.10 / V0.10a for more): what each loser owes — the record stored with
    the match, and the same settlements by seat for the players."""
    assert match.end_reason is not None
    stake, currency = state.options.stake_per_point, state.options.currency
    rows, stakes = [], []
    for payer, payee, short, amount in engine.payments(match, stake):
        payee_id, payer_id = state.player_at(payee), state.player_at(payer)
        assert payee_id is not None and payer_id is not None
        rows.append(SettlementRow(winner_id=payee_id, loser_id=payer_id, points_short=short, amount=amount))
        stakes.append(
            Stake(
                amount=amount,
                currency=currency,
                stake_per_point=stake,
                points_short=short,
                debtor_seat=payer,
                creditor_seat=payee,
            )
        )
    places = engine.places(match.totals, match.winner, match.loser)
    people = len(state.people) == len(state.seats)
    player_ids = tuple(holder.player_id for holder in state.seats if holder is not None)
    end = MatchEnd(
        winner_seat=places.index(1) if places.count(1) == 1 else None,
        places=places,
        reason=match.end_reason,
        totals=match.totals,
        stake_per_point=stake,
        currency=currency,
        settlements=tuple(rows),
        rating_kind=match_kind(state.options, people) if len(player_ids) == len(places) else None,
        player_ids=player_ids,
    )
    return end, tuple(stakes)


def resign_price(state: RoomState, seat: int) -> Stake | None:
    """R6.2 (V0.10a): what ``seat`` would owe (each other player) if it resigned now — settled by
    the very code a resignation goes through (the engine's ``Resign``, then ``_settle``). None
    when the match is not being played or is played for nothing.

    A seat at or over the target owes nothing (never negative, R6 / V0.10): its price is zero, to
    the next seat, as its resignation settles nothing."""
    match = state.match
    if not state.live or match is None or not state.options.stake_per_point:
        return None
    # A resignation settles on the match totals alone (the deal in hand counts for nothing), so
    # the price changes only when a deal ends: it is worked out once per totals, not per seat per move.
    key = (match.rules, match.totals, seat, state.options.stake_per_point, state.options.currency)
    price = _RESIGN_PRICES.get(key)
    if price is None:
        if len(_RESIGN_PRICES) >= _RESIGN_PRICES_KEPT:
            _RESIGN_PRICES.clear()  # a bounded memo, not a store: a miss just costs the settlement again
        price = _RESIGN_PRICES[key] = _resign_price(state, match, seat)
    return price


_RESIGN_PRICES: dict[tuple[object, ...], Stake] = {}
_RESIGN_PRICES_KEPT = 4096


def _resign_price(state: RoomState, match: MatchState, seat: int) -> Stake:
    after, _ = engine.apply(match, seat, EngineResign("resign"))
    owed = [stake for stake in _settle(state, after)[1] if stake.debtor_seat == seat]
    if owed:
        return owed[0]
    stake = state.options.stake_per_point
    nobody = (seat + 1) % len(state.seats)
    return Stake(Decimal(0), state.options.currency, stake, 0, debtor_seat=seat, creditor_seat=nobody)


def rebuild_finished(state: RoomState) -> RoomState:
    """A room rebuilt from the log whose match is over knows what the losers owe (R6, V0.10)."""
    if state.match is None or not state.match.over:
        return state
    return replace(state, stakes=_settle(state, state.match)[1])


def _deal_row(record: DealRecord) -> DealRow:
    """A finished deal as the ``deals`` table keeps it: the score sheet's figures, the auction (none
    without one) and, in ``extra``, the tricks, exact deal points, rounding and Jungfrau (V0.8, V6)."""
    result = record.result
    return DealRow(
        number=record.number,
        dealer=record.dealer,
        seed=record.seed,
        card_points=result.card_points,
        declaration_points=result.declaration_points,
        score=result.score,
        totals=record.totals,
        declarations=[{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in record.declarations],
        declarer=result.declarer,
        contract=result.contract,
        made=result.made,
        thrown_in=result.thrown_in,
        extra={
            "tricks_won": list(result.tricks_won),
            "deal_points": list(result.deal_points),
            "rounded": list(result.rounded),
            "jungfrau": list(result.jungfrau),
        },
    )


# ---------------------------------------------------------------- joining, leaving, new matches


def _join(state: RoomState, command: cmd.Join, now: datetime) -> Decision:
    if state.seat_of(command.player_id) is not None:
        return _refuse(state, None, None, RoomCode.ALREADY_SEATED, "you already have a seat at this table")
    if state.status != "open":
        code = RoomCode.ROOM_FULL if state.status in ("playing", "finished") else RoomCode.ROOM_CLOSED
        return _refuse(state, None, None, code, "this table is no longer open")
    free = state.seats.index(None) if command.seat is None else command.seat
    if state.seats[free] is not None:
        return _refuse(state, None, None, RoomCode.ROOM_FULL, f"seat {free} is taken")
    seats = list(state.seats)
    seats[free] = SeatHolder(command.player_id, command.name, command.bot_level)
    joined = replace(state, seats=tuple(seats))
    if None in joined.seats:  # a table of three or four waits for its other players
        waiting = _advance(joined)
        return waiting, [Persist(JoinWrite(state.id, command.player_id, None, free)), Publish(())]
    started, new = _start_match(joined, _new_match(joined, command.fresh), now)
    effects: list[Effect] = [Persist(JoinWrite(state.id, command.player_id, new, free))]
    return _with_clocks(started, effects, [Publish((MatchStarted(new.id),))], now)


def _new_match(state: RoomState, fresh: FreshMatch) -> NewMatch:
    seat_ids = tuple(holder.player_id for holder in state.seats if holder is not None)
    return NewMatch(
        id=fresh.match_id,
        options=state.options.to_json(),
        seed=fresh.seed,
        first_dealer=engine.first_dealer(state.options.rules, fresh.seed),
        seat_ids=seat_ids,
    )


def _start_match(state: RoomState, new: NewMatch, now: datetime) -> tuple[RoomState, NewMatch]:
    """The room with ``new`` begun, and ``new`` with its first turn (R6.3, a turn-based table)."""
    match = engine.new_game(state.options.rules, new.seed)
    started = _advance(
        state,
        status="playing",
        match_id=new.id,
        match=match,
        seq=0,
        answered=frozenset(),
        deal_events=(),
        stakes=(),
        rematch=None,
        absence=tuple(None for _ in state.seats),
        chat=(),  # a chat log per match
    )
    deadline = turn_clock(started, now)
    started = replace(started, turn_deadline=deadline)
    return started, replace(new, turn=_turn_write(started, match, deadline))


def _leave(state: RoomState, command: cmd.Leave) -> Decision:
    if state.seat_of(command.player_id) is None:
        return _refuse(state, None, None, RoomCode.NOT_SEATED, "you have no seat at this table")
    if state.status != "open":
        return _refuse(state, None, None, RoomCode.ROOM_STARTED, "the match has started; resign instead")
    closed = replace(state, status="closed", present=frozenset())
    close = CloseSockets(CloseCode.TABLE_CLOSED, "table closed")
    return closed, [Persist(CloseWrite(state.id, command.player_id)), close]


# ---------------------------------------------------------------- rematch


def _rematch(state: RoomState, command: cmd.Rematch, now: datetime, limits: Limits) -> Decision:
    player, msg_id, action = command.player_id, command.msg_id, command.action
    again = _answered_before(state, player, msg_id, command.version)
    if again is not None:
        return state, again
    seat = state.seat_of(player)
    refusal = _intent_refusal(state, seat, command.version)
    if refusal is not None:
        return _refuse(state, player, msg_id, *refusal, command.version)
    assert seat is not None
    problem = _rematch_problem(state, seat, action)
    if problem is None and action == "accept" and command.busy is not None:
        problem = f"{command.busy} is playing another match right now"
    if problem is not None:
        return _refuse(state, player, msg_id, RoomCode.REMATCH_INVALID, problem, command.version)
    reply = (player, msg_id)
    remembered = _remember(state, (player, msg_id, command.version), ACCEPTED)
    alone = state.people == (seat,)  # everybody else is the computer
    if action == "offer" and alone and command.busy is None:
        # The computer always plays again: an offer to it is accepted at once.
        events: list[RoomEvent] = [
            RematchChanged(action="offer", seat=seat),
            RematchChanged(action="accept", seat=state.bot_seats[0]),
        ]
        return _start_rematch(remembered, command.fresh, events, reply, now)
    offer = state.rematch
    if action == "accept" and offer is not None:
        # Every person at the table plays the rematch, so it starts once all of them have accepted
        # (the computer always has); until then the acceptances are kept with the offer.
        accepted = offer.accepted | {seat}
        if set(state.people) <= accepted | {offer.seat}:
            return _start_rematch(remembered, command.fresh, [RematchChanged(action="accept", seat=seat)], reply, now)
        offered = _advance(remembered, rematch=replace(offer, accepted=accepted))
        write = RematchOfferWrite(state.id, state.version, offer.seat, offer.deadline, tuple(sorted(accepted)))
    elif action == "offer":
        # At a turn-based table nobody is expected to be online: an offer waits the time per move.
        deadline = now + (state.options.time_per_move or timedelta(seconds=limits.rematch_timeout_s))
        offered = _advance(remembered, rematch=RematchOffer(seat, deadline))
        write = RematchOfferWrite(state.id, state.version, seat, deadline)
    else:  # decline or withdraw: the offer is gone, for everybody
        offered = _advance(remembered, rematch=None)
        write = RematchOfferWrite(state.id, state.version, None, None)
    effects: list[Effect] = [
        Persist(write),
        Publish((RematchChanged(action=action, seat=seat),), reply_to=reply),
    ]
    return offered, follow_ups(offered, effects)


def _rematch_problem(state: RoomState, seat: int, action: str) -> str | None:
    if state.match is None or not state.match.over:
        return "a rematch can be arranged only once the match is over"
    offer = state.rematch
    if action == "offer":
        return None if offer is None else "a rematch has already been offered"
    if action == "withdraw":
        return None if offer is not None and offer.seat == seat else "you have no rematch offer to withdraw"
    if offer is None or offer.seat == seat:
        return "there is no rematch offer from your opponent"
    if action == "accept" and seat in offer.accepted:
        return "you have already accepted this rematch"
    return None


def _start_rematch(
    state: RoomState, fresh: FreshMatch, events: list[RoomEvent], reply: tuple[str, int] | None, now: datetime
) -> Decision:
    """Same options, the seats moved on by one (for two players: swapped)."""
    rotated = replace(state, seats=(*state.seats[1:], state.seats[0]))
    started, new = _start_match(rotated, _new_match(rotated, fresh), now)
    events.append(MatchStarted(new.id))
    persist: list[Effect] = [Persist(RematchStartWrite(state.id, state.version, new))]
    return _with_clocks(started, persist, [Publish(tuple(events), reply_to=reply)], now)


# ---------------------------------------------------------------- chat


def _sender_seat(state: RoomState, command: cmd.Chat | cmd.React) -> int | Decision:
    """The seat a chat line or a reaction comes from, or the decision that answers it instead: the
    answer given before when it is sent again, a refusal when the sender has no seat."""
    player, msg_id = command.player_id, command.msg_id
    again = _answered_before(state, player, msg_id, command.version)
    if again is not None:
        return state, again
    seat = state.seat_of(player)
    if seat is None:
        return _refuse(state, player, msg_id, RoomCode.NOT_SEATED, "you have no seat at this table", command.version)
    return seat


def _chat(state: RoomState, command: cmd.Chat, now: datetime) -> Decision:
    player, msg_id = command.player_id, command.msg_id
    seat = _sender_seat(state, command)
    if not isinstance(seat, int):
        return seat
    line = SendChat(seat=seat, text=command.text, at=now, sender=player, msg_id=msg_id)
    logged = replace(state, chat=(*state.chat, ChatLine(seat, command.text, now))[-CHAT_LOG_LINES:])
    effects: list[Effect] = []
    if state.match_id is not None:  # stored with the match, so that it survives a restart
        write = ChatWrite(state.match_id, seat, command.text, now, keep=CHAT_LOG_LINES)
        effects.append(Persist(write))
    effects.append(line)
    return _remember(logged, (player, msg_id, command.version), line), effects


# ---------------------------------------------------------------- quick reactions


def _react(state: RoomState, command: cmd.React, now: datetime, limits: ReactionLimits) -> Decision:
    """A seated player's reaction: a code of the fixed set, at most ``limits.count`` per seat in any
    ``limits.window_s`` seconds (by the command's own time). Not stored and not a change of the
    table: the version stays, and nothing but the rate limit's memory changes."""
    player, msg_id = command.player_id, command.msg_id
    seat = _sender_seat(state, command)
    if not isinstance(seat, int):
        return seat
    if command.reaction not in REACTIONS:
        message = f"{command.reaction!r} is not a reaction"
        return _refuse(state, player, msg_id, RoomCode.UNKNOWN_REACTION, message, command.version)
    times = admit(state.reaction_times(player), now, limits)
    if times is None:
        message = f"at most {limits.count} reactions in {limits.window_s:g} seconds"
        return _refuse(state, player, msg_id, RoomCode.TOO_MANY_REACTIONS, message, command.version)
    reacted = (*((p, t) for p, t in state.reacted if p != player), (player, times))
    sent = SendReaction(seat=seat, reaction=command.reaction, at=now, sender=player, msg_id=msg_id)
    return _remember(replace(state, reacted=reacted), (player, msg_id, command.version), sent), [sent]


def _mute_reactions(state: RoomState, command: cmd.MuteReactions) -> Decision:
    """A seated player mutes (or unmutes) the others' reactions at this table; the answer is its
    state (``reactions_muted``) with ``reply_to``. Not a change of the table: the version stays."""
    player, msg_id = command.player_id, command.msg_id
    again = _answered_before(state, player, msg_id, command.version)
    if again is not None:
        return state, again
    if state.seat_of(player) is None:
        return _refuse(state, player, msg_id, RoomCode.NOT_SEATED, "you have no seat at this table", command.version)
    muted = state.reactions_muted | {player} if command.muted else state.reactions_muted - {player}
    changed = _remember(replace(state, reactions_muted=muted), (player, msg_id, command.version), ACCEPTED)
    return changed, [SendState(player, reply_to=msg_id)]


# ---------------------------------------------------------------- hints


def _hint(state: RoomState, command: cmd.Hint) -> Decision:
    """A seated player asks for the expert's choice at its turn, where the table offers hints
    (``hints.hints_offered``), one at a time per seat. Not a change of the table: the version stays,
    and the hint is worked out outside the room's lock (``AskHint``): the game never waits for it."""
    player, msg_id, version = command.player_id, command.msg_id, command.version
    again = _answered_before(state, player, msg_id, version)
    if again is not None:
        return state, again
    seat = state.seat_of(player)
    refusal = _intent_refusal(state, seat, version)
    if refusal is None and not hints_offered(state):
        refusal = RoomCode.HINTS_OFF, "this table offers no hints"
    refusal = refusal or _match_refusal(state)
    if refusal is None and state.turn != seat:
        refusal = IllegalCode.NOT_YOUR_TURN, "a hint is for the seat on turn"
    if refusal is None and seat in state.hinting:
        refusal = RoomCode.HINT_PENDING, "your hint is still being worked out"
    if refusal is not None:
        return _refuse(state, player, msg_id, *refusal, version)
    assert seat is not None
    return replace(state, hinting=state.hinting | {seat}), [AskHint(seat, player, msg_id, version)]


def _hint_ready(state: RoomState, command: cmd.HintReady) -> Decision:
    """The pool's hint came back: sent if the table is still where it was asked, else refused (the
    player already has the newer state); the seat may ask again either way."""
    done = replace(state, hinting=state.hinting - {command.seat})
    player, msg_id = command.player_id, command.msg_id
    if state.version != command.version or state.turn != command.seat or not hints_offered(state):
        refusal = Refusal(RoomCode.STALE_VERSION, "the table moved on before the hint was ready")
        return done, [Reject(player, msg_id, refusal)]
    if command.action is None:
        refusal = Refusal(RoomCode.HINT_FAILED, "the hint was not ready in time; ask again")
        return done, [Reject(player, msg_id, refusal)]
    hint = SendHint(player, msg_id, command.version, command.seat, command.action, command.reason)
    return done, [hint]


# ---------------------------------------------------------------- presence and absence (R6.2)


def _presence(state: RoomState, player_id: str, here: bool, now: datetime) -> Decision:
    present = state.present | {player_id} if here else state.present - {player_id}
    changed = replace(state, present=present)
    seat = state.seat_of(player_id)
    sends: list[Effect] = [SendState(player_id), SendChatLog(player_id)] if here else []
    if seat is not None:
        sends.append(SendPresence(seat))
    return _with_clocks(changed, [], sends, now)


def _should_hold(state: RoomState, seat: int) -> bool:
    """A seat's clock runs while its player is away and another person is waiting at a live table
    (R6.2): if everybody is away, nobody forfeits, and the computer waits for ever — a table at
    which every other seat is a computer never ends by the person's absence (R6.3). At a
    turn-based table being offline is not absence: its clock is the time per move (``turn_clock``)."""
    if not state.live or state.options.turn_based or state.connected(seat):
        return False
    return any(state.connected(other) for other in state.people if other != seat)


def _with_clocks(state: RoomState, persist: list[Effect], sends: list[Effect], now: datetime) -> Decision:
    """Start or stop the absence clocks the new state calls for, store them, then tell the seats."""
    grace = timedelta(seconds=state.options.reconnect_grace_s)
    absence = list(state.absence) or [None] * len(state.seats)
    for seat in range(len(state.seats)):
        hold = _should_hold(state, seat)
        if hold and absence[seat] is None:
            absence[seat] = now + grace
        elif not hold and absence[seat] is not None:
            absence[seat] = None
        else:
            continue
        persist.append(Persist(AbsenceWrite(state.id, seat, absence[seat])))
        if not any(isinstance(e, SendPresence) and e.seat == seat for e in sends):
            sends.append(SendPresence(seat))
    nxt = replace(state, absence=tuple(absence))
    return nxt, follow_ups(nxt, [*persist, *sends])


def _tick(state: RoomState, now: datetime) -> Decision:
    turn, due = state.turn, state.turn_deadline
    if turn is not None and due is not None and due <= now and state.person_on_turn:
        return _apply(state, turn, EngineResign("absence"), None, None, now)  # R6.3: the time per move ran out
    for seat, deadline in enumerate(state.absence):
        if deadline is not None and deadline <= now:
            if _should_hold(state, seat):
                return _apply(state, seat, EngineResign("absence"), None, None, now)
            return _with_clocks(state, [], [], now)
    offer = state.rematch
    if offer is not None and offer.deadline <= now:
        lapsed = _advance(state, rematch=None)
        effects: list[Effect] = [
            Persist(RematchOfferWrite(state.id, state.version, None, None)),
            Publish((RematchChanged(action="timeout", seat=offer.seat),)),
        ]
        return lapsed, follow_ups(lapsed, effects)
    if clocks_settled(state):
        return state, follow_ups(state, [])
    # Nothing due: the clocks are brought in line with who is here — a clock restored from the store
    # (a rebuild after a takeover, a clock a paused owner wrote) for a player who is connected stops.
    return _with_clocks(state, [], [], now)


def clocks_settled(state: RoomState) -> bool:
    """Every absence clock runs exactly where R6.2 holds a seat (a ``Tick`` would change none)."""
    absence = state.absence or (None,) * len(state.seats)
    return all(_should_hold(state, seat) == (absence[seat] is not None) for seat in range(len(state.seats)))


# ---------------------------------------------------------------- what follows any change


def follow_ups(state: RoomState, effects: list[Effect]) -> list[Effect]:
    """``effects``, then what any state calls for: wake up for the next deadline, and let the
    computer move if it is its turn (after a change, and for a room just rebuilt)."""
    deadlines = state.deadlines()
    if deadlines:
        effects.append(WakeAt(min(deadlines)))
    turn = state.turn
    holder = None if turn is None else state.seats[turn]
    if turn is not None and holder is not None and holder.bot_level is not None:
        effects.append(AskBot(turn, state.version))
    elif turn is not None and holder is not None and forced_card(state, turn) is not None:
        effects.append(AutoPlay(turn, state.version))
    return effects


def forced_card(state: RoomState, seat: int) -> Play | None:
    """At an ``auto_play`` table (turn-based, issue 45): the seat's one legal action if it is a card
    (a choice to declare a marriage with it is two actions: the person chooses)."""
    if not state.options.auto_play or not state.options.turn_based or state.match is None:
        return None
    actions = engine.legal_actions(state.match, seat)
    if len(actions) == 1 and isinstance(actions[0], Play):
        return actions[0]
    return None
