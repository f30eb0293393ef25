"""R7 — the one observer: what a seat may see, as typed, frozen records.

Every byte the server sends about a game is built here: ``seat_view`` for the state and
``events_for_seat`` for the events of an action. The opponent's hand and the stock are
only ever counts (plus the faced bottom card where R2 shows one); a deal's seed is
revealed only once that deal is over.

The records are frozen, slotted dataclasses of ints, strings, booleans, None and tuples:
serialized (e.g. ``pydantic.TypeAdapter(SeatView).dump_python(view, mode="json")``) they
give the JSON the browser client reads, field for field. They pickle, so a bot in another
process can be handed exactly what its seat saw. Parts that never change (a card's
``LegalPlay``, a declaration, a finished deal) are built once and shared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import CARD_NAMES, KING, QUEEN, SUITS, cards_in
from .deal import DealState, Declaration, Play, legal_mask, refusal_code
from .errors import IllegalCode
from .events import CardDrawn, EndReason, Event
from .kernel import NO_TRUMP, declarable
from .match import DealRecord, MatchState
from .rules import Rules

__all__ = [
    "BlockedPlay",
    "DealRecordView",
    "DealView",
    "DeclarationView",
    "LastTrickView",
    "LegalPlay",
    "SeatView",
    "SpectatorDealView",
    "SpectatorView",
    "TrickView",
    "blocked_plays",
    "deal_view",
    "events_for_seat",
    "events_for_spectator",
    "legal_plays",
    "seat_view",
    "spectator_view",
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
class TrickView:
    """The trick in progress: its leader and the cards played to it so far, lead first."""

    leader: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class LastTrickView:
    """The last completed trick: (lead, follow) and who took it."""

    leader: int
    cards: tuple[str, str]
    winner: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealView:
    """The current deal as one seat sees it (R7)."""

    dealer: int
    forehand: int
    turn: int | None
    phase: int
    hand: tuple[str, ...]
    opponent_cards: int
    stock_count: int
    stock_bottom: str | None  # R2 `show_stock_bottom`
    trump: str | None
    declarations: tuple[DeclarationView, ...]
    trick: TrickView
    last_trick: LastTrickView | None
    tricks_played: int
    my_card_points: int
    card_points: tuple[int, int] | None  # both seats' only under `open_scores` (R7)


@dataclass(frozen=True, slots=True, kw_only=True)
class DealRecordView:
    """A finished deal of the match; its seed may be shown now (R7)."""

    number: int
    dealer: int
    seed: str
    card_points: tuple[int, int]
    declarations: tuple[DeclarationView, ...]
    declaration_points: tuple[int, int]
    score: tuple[int, int]
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """Everything one seat may see of a match (R7), and nothing else."""

    seat: int
    rules: Rules
    target: int
    totals: tuple[int, int]
    deal_number: int
    deal: DealView
    legal: tuple[LegalPlay, ...]  # empty unless this seat is to move
    blocked: tuple[BlockedPlay, ...]  # the rest of the hand, with why (empty unless this seat is to move)
    history: tuple[DealRecordView, ...]
    winner: int | None
    end_reason: EndReason | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SpectatorDealView:
    """The current deal as somebody without a seat sees it: public information only (R7).

    No hand and no stock, only their sizes; the faced bottom card where R2 shows one.
    """

    dealer: int
    forehand: int
    turn: int | None
    phase: int
    hand_counts: tuple[int, int]
    stock_count: int
    stock_bottom: str | None
    trump: str | None
    declarations: tuple[DeclarationView, ...]
    trick: TrickView
    last_trick: LastTrickView | None
    tricks_played: int
    card_points: tuple[int, int] | None  # only under `open_scores` (R7)


@dataclass(frozen=True, slots=True, kw_only=True)
class SpectatorView:
    """Everything a spectator may see of a match: what both seats may see, and nothing else."""

    spectator: bool = True
    rules: Rules
    target: int
    totals: tuple[int, int]
    deal_number: int
    deal: SpectatorDealView
    history: tuple[DealRecordView, ...]
    winner: int | None
    end_reason: EndReason | None


_PLAIN = tuple(LegalPlay(card=CARD_NAMES[c]) for c in range(32))
_UNNAMED_DRAW = (CardDrawn(seat=0, card=None), CardDrawn(seat=1, card=None))  # R7: what the other seat is told
_NO_TRICK = (TrickView(leader=0, cards=()), TrickView(leader=1, cards=()))


@lru_cache(maxsize=256)
def _declaration(d: Declaration) -> DeclarationView:
    return DeclarationView(seat=d.seat, suit=SUITS[d.suit], points=d.points)


@lru_cache(maxsize=4096)
def _record(r: DealRecord) -> DealRecordView:
    return DealRecordView(
        number=r.number,
        dealer=r.dealer,
        seed=str(r.seed),  # a finished deal's seed may be shown (R7)
        card_points=r.card_points,
        declarations=tuple(_declaration(d) for d in r.declarations),
        declaration_points=r.declaration_points,
        score=r.score,
        totals=r.totals,
    )


def legal_plays(state: DealState, seat: int) -> tuple[LegalPlay, ...]:
    """The cards ``seat`` may play now, in card order (empty unless it is to move).

    A K or Q led from a marriage it may declare (R3: on lead, holding K and Q of a suit
    not yet declared this deal) carries the points that declaration would score.
    """
    if state.turn != seat:
        return ()
    mask = legal_mask(state)
    suits = () if state.trick else declarable(mask, state.declared_suits)
    if not suits:
        return tuple(_PLAIN[c] for c in cards_in(mask))
    rules, nth = state.rules, len(state.declarations)
    points = {8 * s + r: rules.declaration_points(s, nth) for s in suits for r in (KING, QUEEN)}
    return tuple(
        _PLAIN[c] if c not in points else LegalPlay(card=CARD_NAMES[c], declare=points[c]) for c in cards_in(mask)
    )


@lru_cache(maxsize=512)
def _blocked(card: int, code: IllegalCode) -> BlockedPlay:
    return BlockedPlay(card=CARD_NAMES[card], code=code)


def blocked_plays(state: DealState, seat: int) -> tuple[BlockedPlay, ...]:
    """The cards of ``seat``'s hand it may not play now, in card order, each with the code the
    engine refuses it with (``refusal_code``: the rules' one copy). Empty unless it is to move,
    so ``legal_plays`` and ``blocked_plays`` together are the whole hand.
    """
    if state.turn != seat:
        return ()
    refused = state.hands[seat] & ~legal_mask(state)
    if not refused:
        return ()
    blocked = []
    for c in cards_in(refused):
        code = refusal_code(state, seat, Play(c))
        assert code is not None  # a card outside the legal mask is refused
        blocked.append(_blocked(c, code))
    return tuple(blocked)


def deal_view(state: DealState, seat: int) -> DealView:
    """The deal as ``seat`` sees it (R7)."""
    last = state.tricks[-1] if state.tricks else None
    bottom = state.stock_bottom
    trick = state.trick
    return DealView(
        dealer=state.dealer,
        forehand=state.forehand,
        turn=state.turn,
        phase=state.phase,
        hand=tuple(CARD_NAMES[c] for c in cards_in(state.hands[seat])),
        opponent_cards=state.hands[1 - seat].bit_count(),
        stock_count=len(state.stock),
        stock_bottom=None if bottom is None else CARD_NAMES[bottom],
        trump=None if state.trump == NO_TRUMP else SUITS[state.trump],
        declarations=tuple(_declaration(d) for d in state.declarations),
        trick=TrickView(leader=state.leader, cards=tuple(CARD_NAMES[c] for c in trick))
        if trick
        else _NO_TRICK[state.leader],
        last_trick=None
        if last is None
        else LastTrickView(
            leader=last.leader, cards=(CARD_NAMES[last.cards[0]], CARD_NAMES[last.cards[1]]), winner=last.winner
        ),
        tricks_played=len(state.tricks),
        my_card_points=state.card_points[seat],
        card_points=state.card_points if state.rules.open_scores else None,
    )


def seat_view(match: MatchState, seat: int) -> SeatView:
    """Everything ``seat`` may see of a match (R7), and nothing else."""
    return SeatView(
        seat=seat,
        rules=match.rules,
        target=match.rules.target,
        totals=match.totals,
        deal_number=match.deal_number,
        deal=deal_view(match.deal, seat),
        legal=() if match.over else legal_plays(match.deal, seat),
        blocked=() if match.over else blocked_plays(match.deal, seat),
        history=tuple(_record(r) for r in match.history),
        winner=match.winner,
        end_reason=match.end_reason,
    )


def events_for_seat(events: Sequence[Event], seat: int) -> tuple[Event, ...]:
    """The events of one action as ``seat`` may see them: the opponent's drawn card is unnamed (R7).

    The events themselves are not changed: an opponent's ``CardDrawn`` is replaced by one with
    ``card=None`` (equal to ``dataclasses.replace(event, card=None)``, built once).
    """
    return tuple(
        _UNNAMED_DRAW[event.seat] if type(event) is CardDrawn and event.seat != seat else event for event in events
    )


def spectator_view(match: MatchState) -> SpectatorView:
    """A match as a spectator may see it (R7): built from the same records as ``seat_view``, with
    both hands and the stock as counts only."""
    deal = match.deal
    seen = deal_view(deal, 0)
    return SpectatorView(
        rules=match.rules,
        target=match.rules.target,
        totals=match.totals,
        deal_number=match.deal_number,
        deal=SpectatorDealView(
            dealer=seen.dealer,
            forehand=seen.forehand,
            turn=seen.turn,
            phase=seen.phase,
            hand_counts=(deal.hands[0].bit_count(), deal.hands[1].bit_count()),
            stock_count=seen.stock_count,
            stock_bottom=seen.stock_bottom,
            trump=seen.trump,
            declarations=seen.declarations,
            trick=seen.trick,
            last_trick=seen.last_trick,
            tricks_played=seen.tricks_played,
            card_points=seen.card_points,
        ),
        history=tuple(_record(r) for r in match.history),
        winner=match.winner,
        end_reason=match.end_reason,
    )


def events_for_spectator(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events of one action as a spectator may see them: every drawn card is unnamed (R7)."""
    return tuple(_UNNAMED_DRAW[event.seat] if type(event) is CardDrawn else event for event in events)
