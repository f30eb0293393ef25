"""The one place a room becomes a message for one player (DESIGN promise 2).

Every byte about a game that leaves the server is built here from the engine's one observer
(``engine.view_for``, ``engine.events_for``: R7, V0.11): a player sees its own seat's view and the
events as that seat may see them, the room summary, and nothing of another hand, the stock, the
talon or the discards; a spectator what every seat sees in common.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from backend.db.common import decimal_text
from backend.engine import Event, events_for, view_for

from .decide import resign_price
from .effects import Refusal, SendChat, SendHint, SendReaction
from .hints import hints_offered
from .messages import (
    ChatLogLine,
    ChatLogMessage,
    ChatMessage,
    HintMessage,
    OptionsOut,
    PresenceMessage,
    ReactionMessage,
    RejectedMessage,
    RematchOut,
    RoomOut,
    SeatOut,
    StakeOut,
    StateMessage,
    WatchersMessage,
    WatchStateMessage,
    frame_action_model,
)
from .model import MatchStarted, RematchChanged, RoomEvent, RoomState, Stake
from .options import TableOptions
from .replay import frame_action


def room_out(state: RoomState, for_player: str | None = None) -> RoomOut:
    """The room summary; the invite code only for a player seated at the table."""
    seated = for_player is not None and state.seat_of(for_player) is not None
    return _room_out(state, seated)


# The summary's small models are built with validation on purpose: pydantic's validation runs in
# Rust and costs about half of ``model_construct``, which walks the fields in Python. Only the
# state message itself, whose view and events would be validated field by field again, is built
# without it.
def _room_out(state: RoomState, seated: bool) -> RoomOut:
    rematch = state.rematch
    return RoomOut(
        id=state.id,
        invite_code=state.invite_code if seated else None,
        visibility=state.visibility,
        status=state.status,
        options=options_out(state.options),
        players=[
            None
            if holder is None
            else SeatOut(
                seat=seat,
                id=holder.player_id,
                name=holder.name,
                connected=state.connected(seat),
                grace_deadline=_deadline(state, seat),
                bot_level=holder.bot_level,
            )
            for seat, holder in enumerate(state.seats)
        ],
        match_id=state.match_id,
        version=state.version,
        rematch=None
        if rematch is None
        else RematchOut(offered_by=rematch.seat, deadline=rematch.deadline, accepted=sorted(rematch.accepted)),
        created_at=state.created_at,
        hints=hints_offered(state),
        turn=state.turn_seat,
        turn_deadline=state.turn_deadline,
    )


@dataclass(frozen=True, slots=True)
class TableParts:
    """What the states of one change share between the seated players: the room summary as they
    see it (invite code included) and the stakes. Built once per change (``Publish``), not per seat."""

    state: RoomState  # the very state they were built from: parts of another state are never used
    room: RoomOut
    stake: StakeOut | None
    stakes: list[StakeOut]


def table_parts(state: RoomState) -> TableParts:
    return TableParts(
        state=state,
        room=_room_out(state, seated=True),
        stake=stake_out(state.stake),
        stakes=_stakes(state),
    )


def _stakes(state: RoomState) -> list[StakeOut]:
    return [out for out in map(stake_out, state.stakes) if out is not None]


@lru_cache(maxsize=1024)
def options_out(options: TableOptions) -> OptionsOut:
    """A table's options as every message shows them: all the rules' fields, whatever the game."""
    rules = options.rules
    return OptionsOut(
        variant=rules.game.id,
        seats=rules.n,
        target=rules.goal,
        scoring=rules.scoring,
        jungfrau=rules.jungfrau,
        open_scores=rules.open_scores,
        declaration_scoring=rules.declaration_scoring,
        show_stock_bottom=rules.show_stock_bottom,
        deck_size=rules.layout.deck_size,
        stake_per_point=str(options.stake_per_point),
        currency=options.currency,
        reconnect_grace_s=options.reconnect_grace_s,
        bot_level=options.bot_level,
        spectators=options.spectators,
        computer_seats=list(options.computer_seats),
        rated=options.rated,
        reactions_for_spectators=options.reactions_for_spectators,
        hints=options.hints,
        pace=options.pace,
        auto_play=options.auto_play,
    )


def _deadline(state: RoomState, seat: int) -> datetime | None:
    return state.absence[seat] if seat < len(state.absence) else None


def stake_out(stake: Stake | None) -> StakeOut | None:
    if stake is None:
        return None
    return StakeOut(
        amount=decimal_text(stake.amount),
        currency=stake.currency,
        stake_per_point=str(stake.stake_per_point),
        points_short=stake.points_short,
        debtor_seat=stake.debtor_seat,
        creditor_seat=stake.creditor_seat,
    )


def _for(state: RoomState, events: Sequence[RoomEvent], seat: int | None) -> list[RoomEvent]:
    """The events of one change as ``seat`` (``None``: a spectator) may be told them."""
    game: list[Event] = []
    out: list[RoomEvent] = []
    for event in events:
        if isinstance(event, MatchStarted | RematchChanged):
            out.extend(events_for(game, seat))
            game = []
            out.append(event)
        else:
            game.append(event)
    out.extend(events_for(game, seat))
    return out


def state_message(
    state: RoomState,
    player_id: str,
    events: Sequence[RoomEvent] = (),
    reply_to: int | None = None,
    parts: TableParts | None = None,
) -> StateMessage:
    """One player's state: its own seat's view and events (R7), the room and the stakes. ``parts``
    (``table_parts`` of this very state) shares the summary and stakes between the seats of one change."""
    seat = state.seat_of(player_id)
    if seat is None:  # not seated (any more): no view, no events, no invite code
        shared = TableParts(state, _room_out(state, seated=False), stake_out(state.stake), _stakes(state))
    elif parts is not None and parts.state is state:
        shared = parts
    else:
        shared = table_parts(state)
    # Built without validation: this is the hot path of every move, the parts are typed values
    # built here and by the engine, and the tests validate every message received against the model.
    return StateMessage.model_construct(
        version=state.version,
        reply_to=reply_to,
        room=shared.room,
        view=None if state.match is None or seat is None else view_for(state.match, seat),
        events=[] if seat is None else _for(state, events, seat),
        stake=shared.stake,
        stakes=shared.stakes,
        resign_price=None if seat is None else stake_out(resign_price(state, seat)),
        reactions_muted=player_id in state.reactions_muted,
    )


def watch_state_message(state: RoomState, events: Sequence[RoomEvent], watchers: int) -> WatchStateMessage:
    """What every spectator of the room is sent: the same observer's public view (R7), no hand,
    no stock, no drawn card, no invite code."""
    return WatchStateMessage.model_construct(
        version=state.version,
        room=room_out(state, None),
        view=None if state.match is None else view_for(state.match, None),
        events=_for(state, events, None),
        watchers=watchers,
    )


def watchers_message(count: int) -> WatchersMessage:
    return WatchersMessage(count=count)


def presence_message(state: RoomState, seat: int) -> PresenceMessage:
    return PresenceMessage(seat=seat, connected=state.connected(seat), grace_deadline=_deadline(state, seat))


def rejected_message(msg_id: int | None, refusal: Refusal, version: int) -> RejectedMessage:
    return RejectedMessage(id=msg_id, code=refusal.code, message=refusal.message, version=version)


def chat_message(state: RoomState, line: SendChat, reply_to: int | None) -> ChatMessage:
    holder = state.seats[line.seat]
    return ChatMessage(
        seat=line.seat, name=None if holder is None else holder.name, text=line.text, at=line.at, reply_to=reply_to
    )


def reaction_message(reaction: SendReaction, reply_to: int | None) -> ReactionMessage:
    return ReactionMessage(seat=reaction.seat, reaction=reaction.reaction, at=reaction.at, reply_to=reply_to)


def hint_message(hint: SendHint) -> HintMessage:
    """The hint as the replay's frames show an action (one shape for both, ``replay.frame_action``)."""
    return HintMessage(
        version=hint.version,
        reply_to=hint.msg_id,
        action=frame_action_model.validate_python(frame_action(hint.seat, hint.action)),
        reason=hint.reason,
    )


def chat_log_message(state: RoomState) -> ChatLogMessage:
    """The match's chat log; names are the seats' current holders (as for a live ``chat``)."""
    return ChatLogMessage(
        lines=[
            ChatLogLine(seat=line.seat, name=_name(state, line.seat), text=line.text, at=line.at) for line in state.chat
        ]
    )


def _name(state: RoomState, seat: int) -> str | None:
    holder = state.seats[seat] if seat < len(state.seats) else None
    return None if holder is None else holder.name
