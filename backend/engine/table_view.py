"""V0.11 — what a seat (or a spectator) may see of a V2–V7 match, and nothing else.

The n-seat counterpart of ``view``: frozen records of ints, strings, booleans, None and tuples.
A seat sees its own hand, the number of cards in every other hand, the trick in progress and the
last one, every bid and pass, the declarer and the contract, the trump and every declaration, its
own card points (everyone's trick points with ``open_scores``) and the match totals. The talon is
shown only to the declarer once taken, the discards only to the declarer (ruling V0.7a);
``table_events_for_seat`` redacts the events the same way. A spectator (``seat=None``) sees what
every seat sees in common.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .cards import CARD_NAMES, KING, QUEEN, SUITS, cards_in
from .deal import Play
from .kernel import NO_TRUMP
from .table_deal import (
    TableDealState,
    declarable_table_suits,
    legal_bids,
    play_mask,
    table_refusal_code,
)
from .table_events import Discarded, TableEvent, TalonTaken
from .table_match import TableDealRecord, TableMatchState
from .variants import TableRules
from .view import BlockedPlay, DeclarationView, LegalPlay, TrickView

__all__ = [
    "CallView",
    "TableDealRecordView",
    "TableDealView",
    "TableLastTrickView",
    "TableSeatView",
    "table_deal_view",
    "table_events_for_seat",
    "table_seat_view",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class CallView:
    """One turn of the auction: ``bid`` points, or None for a pass (V0.6)."""

    seat: int
    bid: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TableLastTrickView:
    leader: int
    cards: tuple[str, ...]
    winner: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TableDealView:
    """The current deal as one seat (or a spectator, ``hand`` None) sees it (V0.11)."""

    variant: str
    phase: str  # auction, discard, play, over, thrown_in
    dealer: int
    forehand: int
    turn: int | None
    hand: tuple[str, ...] | None  # None for a spectator
    hand_counts: tuple[int, ...]
    talon_count: int  # cards still in the talon (0 once the declarer took it)
    talon: tuple[str, ...] | None  # the talon as dealt: only to the declarer, once taken (V0.7a)
    discards: tuple[str, ...] | None  # only to the declarer (V0.11)
    calls: tuple[CallView, ...]
    high_bid: int | None
    declarer: int | None
    contract: int | None
    trump: str | None
    declarations: tuple[DeclarationView, ...]
    trick: TrickView
    last_trick: TableLastTrickView | None
    tricks_played: int
    tricks_won: tuple[int, ...]  # per seat: how many tricks it took this deal (public, like each trick)
    my_card_points: int | None  # own tricks (+ the discards for the declarer, V0.7); None for a spectator
    card_points: tuple[int, ...] | None  # every seat's trick points, only with `open_scores`


@dataclass(frozen=True, slots=True, kw_only=True)
class TableDealRecordView:
    """A finished deal of the match; its seed may be shown now."""

    number: int
    dealer: int
    seed: str
    thrown_in: bool
    declarer: int | None
    contract: int | None
    made: bool | None
    card_points: tuple[int, ...]
    declarations: tuple[DeclarationView, ...]
    declaration_points: tuple[int, ...]
    deal_points: tuple[int, ...]
    jungfrau: tuple[int, ...]
    score: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSeatView:
    """Everything one seat (``seat`` None: a spectator) may see of a V2–V7 match (V0.11)."""

    seat: int | None
    rules: TableRules
    target: int
    totals: tuple[int, ...]
    deal_number: int
    deal: TableDealView
    bids: tuple[int, ...]  # the bids this seat may make now (auction, its turn)
    may_pass: bool  # its turn in the auction
    must_discard: bool  # the declarer, holding the talon, is to discard two (V0.7)
    legal: tuple[LegalPlay, ...]  # the cards it may play now (play phase, its turn)
    blocked: tuple[BlockedPlay, ...]  # the rest of its hand then, each with the code a play of it gets
    history: tuple[TableDealRecordView, ...]
    winner: int | None
    loser: int | None
    end_reason: str | None


def _declaration(seat: int, suit: int, points: int) -> DeclarationView:
    return DeclarationView(seat=seat, suit=SUITS[suit], points=points)


def _names(mask: int) -> tuple[str, ...]:
    return tuple(CARD_NAMES[c] for c in cards_in(mask))


def table_deal_view(state: TableDealState, seat: int | None) -> TableDealView:
    """The deal as ``seat`` sees it (V0.11); ``None``: a spectator."""
    declarer = state.declarer
    mine = seat is not None and seat == declarer
    last = state.tricks[-1] if state.tricks else None
    return TableDealView(
        variant=state.rules.variant,
        phase=state.phase,
        dealer=state.dealer,
        forehand=state.forehand,
        turn=state.turn,
        hand=None if seat is None else _names(state.hands[seat]),
        hand_counts=tuple(h.bit_count() for h in state.hands),
        talon_count=0 if state.talon_taken else len(state.talon),
        talon=tuple(CARD_NAMES[c] for c in state.talon) if mine and state.talon_taken else None,
        discards=_names(state.discards) if mine and state.discards else None,
        calls=tuple(CallView(seat=c.seat, bid=c.bid) for c in state.calls),
        high_bid=state.high_bid,
        declarer=declarer,
        contract=state.contract,
        trump=None if state.trump == NO_TRUMP else SUITS[state.trump],
        declarations=tuple(_declaration(d.seat, d.suit, d.points) for d in state.declarations),
        trick=TrickView(leader=state.leader, cards=tuple(CARD_NAMES[c] for c in state.trick)),
        last_trick=None
        if last is None
        else TableLastTrickView(leader=last.leader, cards=tuple(CARD_NAMES[c] for c in last.cards), winner=last.winner),
        tricks_played=len(state.tricks),
        tricks_won=tuple(sum(1 for trick in state.tricks if trick.winner == seat) for seat in range(state.n)),
        my_card_points=None if seat is None else state.seat_card_points(seat),
        card_points=state.card_points if state.rules.open_scores else None,
    )


def _record(r: TableDealRecord) -> TableDealRecordView:
    res = r.result
    return TableDealRecordView(
        number=r.number,
        dealer=r.dealer,
        seed=str(r.seed),
        thrown_in=res.thrown_in,
        declarer=res.declarer,
        contract=res.contract,
        made=res.made,
        card_points=res.card_points,
        declarations=tuple(_declaration(d.seat, d.suit, d.points) for d in r.declarations),
        declaration_points=res.declaration_points,
        deal_points=res.deal_points,
        jungfrau=res.jungfrau,
        score=res.score,
        totals=r.totals,
    )


def _plays(state: TableDealState, seat: int) -> tuple[tuple[LegalPlay, ...], tuple[BlockedPlay, ...]]:
    if state.phase != "play" or state.turn != seat:
        return (), ()
    mask = play_mask(state)
    values = state.rules.game.declaration_values
    points = {8 * s + r: values[s] for s in declarable_table_suits(state, seat) for r in (KING, QUEEN)}
    legal = tuple(LegalPlay(card=CARD_NAMES[c], declare=points.get(c)) for c in cards_in(mask))
    blocked = []
    for c in cards_in(state.hands[seat] & ~mask):
        code = table_refusal_code(state, seat, Play(c))
        assert code is not None  # a card outside the mask is refused
        blocked.append(BlockedPlay(card=CARD_NAMES[c], code=code))
    return legal, tuple(blocked)


def table_seat_view(match: TableMatchState, seat: int | None) -> TableSeatView:
    """Everything ``seat`` may see of a match (V0.11), and nothing else; ``None`` for a spectator."""
    deal = match.deal
    live = not match.over and seat is not None and deal.turn == seat
    legal, blocked = _plays(deal, seat) if live and seat is not None else ((), ())
    return TableSeatView(
        seat=seat,
        rules=match.rules,
        target=match.rules.goal,
        totals=match.totals,
        deal_number=match.deal_number,
        deal=table_deal_view(deal, seat),
        bids=legal_bids(deal, seat) if live and seat is not None else (),
        may_pass=live and deal.phase == "auction",
        must_discard=live and deal.phase == "discard",
        legal=legal,
        blocked=blocked,
        history=tuple(_record(r) for r in match.history),
        winner=match.winner,
        loser=match.loser,
        end_reason=match.end_reason,
    )


def table_events_for_seat(events: Sequence[TableEvent], seat: int | None) -> tuple[TableEvent, ...]:
    """The events of one action as ``seat`` may see them (``None``: a spectator): the talon and the
    discards are named only to the declarer (ruling V0.7a, V0.11). The events themselves are not changed."""
    out: list[TableEvent] = []
    for event in events:
        if isinstance(event, TalonTaken | Discarded) and event.seat != seat:
            out.append(replace(event, cards=None))
        else:
            out.append(event)
    return tuple(out)
