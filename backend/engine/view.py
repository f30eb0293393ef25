"""R7 and V0.11 — the one observer: what a seat or a spectator may see, as typed, frozen records.

Every byte the server sends about a game is built here: ``view_for`` for the state and ``events_for``
for the events of an action, for a seat or for a spectator (``seat=None``, who sees what every seat
sees in common). A seat sees its own hand; the number of cards in every other hand and in the stock
(plus the faced bottom card where R2 shows one); the trick in progress and the last one; every bid
and pass, the declarer and the contract; the trump and every declaration; its own card points
(everyone's with ``open_scores``) and the match totals. The talon is shown only to the declarer once
taken, the discards only to the declarer (ruling V0.7a), a drawn card only to the seat that drew it
(R7); a deal's seed only once that deal is over.

The records are frozen, slotted dataclasses of ints, strings, booleans, None and tuples: serialized
(e.g. ``pydantic.TypeAdapter(SeatView).dump_python(view, mode="json")``) they give the JSON the
browser client reads, field for field. They pickle, so a bot in another process can be handed
exactly what its seat saw. Parts that never change (a card's ``LegalPlay``, a declaration, a
finished deal) are built once and shared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import CARD_NAMES, KING, QUEEN, SUITS, cards_in
from .deal import DealState, Declaration, Phase, Play, declarable_suits, legal_bids, legal_mask, refusal_code
from .errors import IllegalCode
from .events import CardDrawn, Discarded, EndReason, Event, TalonTaken
from .kernel import NO_TRUMP
from .match import DealRecord, MatchState, places
from .variants import Rules

__all__ = [
    "BlockedPlay",
    "CallView",
    "DealRecordView",
    "DealView",
    "DeclarationView",
    "LastTrickView",
    "LegalPlay",
    "SeatView",
    "TrickView",
    "deal_view",
    "events_for",
    "plays_for",
    "view_for",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class LegalPlay:
    """A card the seat may play now; ``declare`` is the points it scores by leading it as a declaration (R3)."""

    card: str
    declare: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockedPlay:
    """A card of the hand the seat may not play now, and the rules' own reason (the code a play of it gets)."""

    card: str
    code: IllegalCode


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclarationView:
    seat: int
    suit: str
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CallView:
    """One turn of the auction: ``bid`` points, or None for a pass (V0.6)."""

    seat: int
    bid: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickView:
    """The trick in progress: its leader and the cards played to it so far, lead first."""

    leader: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class LastTrickView:
    """The last completed trick, lead first, and who took it."""

    leader: int
    cards: tuple[str, ...]
    winner: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealView:
    """The current deal as one seat (or a spectator: ``hand`` and ``my_card_points`` None) sees it."""

    variant: str
    phase: Phase  # auction, discard, play, over, thrown_in
    dealer: int
    forehand: int
    turn: int | None
    hand: tuple[str, ...] | None
    hand_counts: tuple[int, ...]
    stock_count: int  # R4: phase 1 while it is above 0 (two-hand 1001; 0 in the others)
    stock_bottom: str | None  # R2 `show_stock_bottom`
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
    last_trick: LastTrickView | None
    tricks_played: int
    tricks_won: tuple[int, ...]  # per seat, this deal (public, like each trick)
    my_card_points: int | None  # own tricks (+ the discards for the declarer, V0.7)
    card_points: tuple[int, ...] | None  # every seat's trick points, only with `open_scores` (R7)


@dataclass(frozen=True, slots=True, kw_only=True)
class DealRecordView:
    """A finished deal of the match; its seed may be shown now (R7)."""

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
class SeatView:
    """Everything one seat (``seat`` None: a spectator) may see of a match, and nothing else."""

    seat: int | None
    rules: Rules
    target: int
    totals: tuple[int, ...]
    deal_number: int
    deal: DealView
    bids: tuple[int, ...]  # the bids this seat may make now (auction, its turn)
    may_pass: bool  # its turn in the auction
    must_discard: bool  # the declarer, holding the talon, is to discard two (V0.7)
    legal: tuple[LegalPlay, ...]  # the cards it may play now (play phase, its turn)
    blocked: tuple[BlockedPlay, ...]  # the rest of its hand then, each with the code a play of it gets
    history: tuple[DealRecordView, ...]
    winner: int | None
    loser: int | None
    end_reason: EndReason | None
    places: tuple[int, ...] | None  # once the match is over: every seat's place, 1 the best


_PLAIN = tuple(LegalPlay(card=CARD_NAMES[c]) for c in range(32))
_UNNAMED_DRAW = (CardDrawn(seat=0, card=None), CardDrawn(seat=1, card=None))  # R7: what the others are told
_NO_TRICK = tuple(TrickView(leader=seat, cards=()) for seat in range(4))
_NO_CALLS: tuple[CallView, ...] = ()


@lru_cache(maxsize=256)
def _declaration(d: Declaration) -> DeclarationView:
    return DeclarationView(seat=d.seat, suit=SUITS[d.suit], points=d.points)


@lru_cache(maxsize=4096)
def _record(r: DealRecord) -> DealRecordView:
    res = r.result
    return DealRecordView(
        number=r.number,
        dealer=r.dealer,
        seed=str(r.seed),  # a finished deal's seed may be shown (R7)
        thrown_in=res.thrown_in,
        declarer=res.declarer,
        contract=res.contract,
        made=res.made,
        card_points=res.card_points,
        declarations=tuple(_declaration(d) for d in r.declarations),
        declaration_points=res.declaration_points,
        deal_points=res.deal_points,
        jungfrau=res.jungfrau,
        score=res.score,
        totals=r.totals,
    )


@lru_cache(maxsize=512)
def _blocked(card: int, code: IllegalCode) -> BlockedPlay:
    return BlockedPlay(card=CARD_NAMES[card], code=code)


def _names(mask: int) -> tuple[str, ...]:
    return tuple(CARD_NAMES[c] for c in cards_in(mask))


def plays_for(state: DealState, seat: int) -> tuple[tuple[LegalPlay, ...], tuple[BlockedPlay, ...]]:
    """The cards ``seat`` may play now, in card order, a K or Q it may lead as a declaration with the
    points it would score; and the rest of its hand, each with the engine's refusal code. Empty
    unless it is this seat's turn to play."""
    mask = legal_mask(state) if state.turn == seat else 0
    if not mask:
        return (), ()
    suits = declarable_suits(state, seat)
    if suits:
        rules, nth = state.rules, len(state.declarations)
        points = {8 * s + r: rules.declaration_points(s, nth) for s in suits for r in (KING, QUEEN)}
        legal = tuple(
            LegalPlay(card=CARD_NAMES[c], declare=points[c]) if c in points else _PLAIN[c] for c in cards_in(mask)
        )
    else:
        legal = tuple(_PLAIN[c] for c in cards_in(mask))
    refused = state.hands[seat] & ~mask
    if not refused:
        return legal, ()
    blocked = []
    for c in cards_in(refused):
        code = refusal_code(state, seat, Play(c))
        assert code is not None  # a card outside the legal mask is refused
        blocked.append(_blocked(c, code))
    return legal, tuple(blocked)


def deal_view(state: DealState, seat: int | None) -> DealView:
    """The deal as ``seat`` sees it (R7, V0.11); ``None``: a spectator."""
    declarer = state.declarer
    mine = seat is not None and seat == declarer
    last = state.tricks[-1] if state.tricks else None
    bottom = state.stock_bottom
    trick = state.trick
    return DealView(
        variant=state.rules.variant,
        phase=state.phase,
        dealer=state.dealer,
        forehand=state.forehand,
        turn=state.turn,
        hand=None if seat is None else _names(state.hands[seat]),
        hand_counts=tuple(h.bit_count() for h in state.hands),
        stock_count=len(state.stock),
        stock_bottom=None if bottom is None else CARD_NAMES[bottom],
        talon_count=0 if state.talon_taken else len(state.talon),
        talon=_names_of(state.talon) if mine and state.talon_taken else None,
        discards=_names(state.discards) if mine and state.discards else None,
        calls=tuple(CallView(seat=c.seat, bid=c.bid) for c in state.calls) if state.calls else _NO_CALLS,
        high_bid=state.high_bid if state.calls else None,
        declarer=declarer,
        contract=state.contract,
        trump=None if state.trump == NO_TRUMP else SUITS[state.trump],
        declarations=tuple(_declaration(d) for d in state.declarations),
        trick=TrickView(leader=state.leader, cards=_names_of(trick)) if trick else _NO_TRICK[state.leader],
        last_trick=None
        if last is None
        else LastTrickView(leader=last.leader, cards=_names_of(last.cards), winner=last.winner),
        tricks_played=len(state.tricks),
        tricks_won=state.tricks_won,
        my_card_points=None if seat is None else state.seat_card_points(seat),
        card_points=state.card_points if state.rules.open_scores else None,
    )


def _names_of(cards: Sequence[int]) -> tuple[str, ...]:
    return tuple(CARD_NAMES[c] for c in cards)


def view_for(match: MatchState, seat: int | None) -> SeatView:
    """Everything ``seat`` may see of a match (R7, V0.11), and nothing else; ``None`` for a spectator."""
    deal = match.deal
    live = not match.over and seat is not None and deal.turn == seat
    legal, blocked = plays_for(deal, seat) if live and seat is not None else ((), ())
    phase = deal.phase
    return SeatView(
        seat=seat,
        rules=match.rules,
        target=match.rules.goal,
        totals=match.totals,
        deal_number=match.deal_number,
        deal=deal_view(deal, seat),
        bids=legal_bids(deal, seat) if live and seat is not None and phase == "auction" else (),
        may_pass=live and phase == "auction",
        must_discard=live and phase == "discard",
        legal=legal,
        blocked=blocked,
        history=tuple(_record(r) for r in match.history),
        winner=match.winner,
        loser=match.loser,
        end_reason=match.end_reason,
        places=places(match.totals, match.winner, match.loser) if match.over else None,
    )


def events_for(events: Sequence[Event], seat: int | None) -> tuple[Event, ...]:
    """The events of one action as ``seat`` may see them (``None``: a spectator): a drawn card is named
    only to the seat that drew it (R7), the talon and the discards only to the declarer (ruling V0.7a,
    V0.11). The events themselves are not changed: the others get copies without the cards."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, CardDrawn) and event.seat != seat:
            out.append(_UNNAMED_DRAW[event.seat])
        elif isinstance(event, TalonTaken) and event.seat != seat:
            out.append(TalonTaken(seat=event.seat, cards=None))
        elif isinstance(event, Discarded) and event.seat != seat:
            out.append(Discarded(seat=event.seat, cards=None))
        else:
            out.append(event)
    return tuple(out)
