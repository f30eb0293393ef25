"""What one seat knows about a deal (R7, V0.11), and nothing more — for every game of the family.

A bot never reads the true ``DealState``: it decides from a ``SeatKnowledge``, which holds only
public information of the deal plus the seat's own cards:

* its own hand, the cards it drew itself from a stock (R4 phase 1), and — if it is the declarer —
  the talon it took and its own discards (V0.7);
* every bid and pass, the declarer and the contract; the trump and every declaration;
* every completed trick of the deal with the trump in force for it (each trick is seen by every
  player as it is played, so remembering them is fair play) and the trick in progress;
* the number of cards in every hand, in the stock (and its faced bottom card, R2) and in the talon;
* whose turn it is, what it may do now, and the match totals.

Two constructors build it:

* ``knowledge_from_view(view, events)`` — from exactly what the server sends the seat: its
  ``SeatView`` and the (redacted) events it received, as the engine's one observer produces them
  (``engine.view_for`` / ``events_for``). This is what the server uses.
* ``observe(state, seat)`` — a shortcut for simulations and benchmarks that reads the true
  ``DealState`` but only its public parts and the seat's own cards (never another hand, never the
  stock order, the talon or another's discards; see the function for the list of fields).

Both give equal objects for the same position (tested), so a bot decides the same way in the server
and in the benchmark. Derived, for sampling the hidden cards (``worlds.sample_world``):

* ``unseen`` — the cards this seat has not seen: the other hands, the stock, the talon while nobody
  has taken it, the declarer's discards when this seat is not the declarer;
* ``known`` — per seat, cards it certainly holds: a declarer of a marriage led its K or Q, the other
  one stays in its hand until played (R3, V0.5); with two seats and the stock empty, every unseen card;
* ``forbidden`` — per seat, cards it certainly does not hold, from the duty of every card it played
  as a follower (R4 phase 2, V2.7, V3.6 with ruling V3.6a, V4.7, V7.8); a trick played while a stock
  lasted shows nothing, since any card could follow (R4 phase 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from backend.engine import CardDrawn, CardPlayed, DealStarted, Declared, Event, SeatView, TrickWon
from backend.engine.cards import CARD_POINTS, KING, QUEEN, SUIT_MASK, card, cards_in, mask_of, suit_from_letter
from backend.engine.deal import DealState, Declaration, Phase, Play, Trick, declarable_suits, legal_bids, legal_mask
from backend.engine.kernel import MARRIAGE, NO_TRUMP, Duty, beats, winning_index
from backend.engine.variants import Rules

__all__ = ["IncompleteHistory", "SeatKnowledge", "follower_forbidden", "knowledge_from_view", "observe"]


class IncompleteHistory(ValueError):
    """The events given do not account for every trick of the current deal."""


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """Everything ``seat`` may know about the current deal. Cards are ints, hands masks."""

    seat: int
    rules: Rules
    dealer: int
    phase: Phase  # auction, discard, play, over, thrown_in
    turn: int | None  # the seat to move, None once the deal is over
    hand: int
    hand_counts: tuple[int, ...]
    stock_count: int  # R4: phase 1 while above 0 (two-hand 1001 only)
    stock_bottom: int | None  # the faced bottom card (R2), while it is in the stock
    drawn: int  # the cards this seat drew from the stock this deal
    talon_count: int  # cards still in the talon (not yet taken)
    talon: int  # the talon as dealt: only for the declarer once taken (V0.7a), else 0
    discards: int  # the declarer's own discards (V0.7), else 0
    calls: tuple[tuple[int, int | None], ...]  # (seat, bid or None for a pass)
    declarer: int | None
    contract: int | None
    trump: int  # a suit, or NO_TRUMP (-1)
    declarations: tuple[Declaration, ...]
    leader: int  # the leader of the trick in progress (or of the next trick)
    trick: tuple[int, ...]  # cards of the trick in progress, lead first
    tricks: tuple[Trick, ...]  # every completed trick of this deal, in order, with its trump
    free_tricks: int  # the first tricks, played while the stock had cards: any card could follow (R4)
    totals: tuple[int, ...]  # match totals before this deal
    bids: tuple[int, ...]  # the bids it may make now (V0.6, V0.6b cap)
    may_pass: bool
    must_discard: bool
    plays: tuple[Play, ...]  # the plays it may make now: each legal card, then the K/Q leads that declare

    # ------------------------------------------------------------ derived facts

    @property
    def n(self) -> int:
        return len(self.hand_counts)

    @property
    def opponent(self) -> int:
        """The other seat of two-hand 1001."""
        return 1 - self.seat

    @property
    def opponent_count(self) -> int:
        """Cards in the other hand of two-hand 1001."""
        return self.hand_counts[1 - self.seat]

    @property
    def pack(self) -> int:
        return self.rules.pack

    @property
    def played(self) -> int:
        """Cards of completed tricks."""
        mask = 0
        for t in self.tricks:
            mask |= mask_of(t.cards)
        return mask

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: the other hands, the stock, the untaken talon, others' discards."""
        mine = self.talon if self.declarer == self.seat else 0
        return self.pack & ~self.hand & ~self.played & ~mask_of(self.trick) & ~self.discards & ~mine

    @property
    def other_discards_count(self) -> int:
        """Cards another seat (the declarer) laid away unseen by this seat (V0.7)."""
        if self.declarer is None or self.declarer == self.seat or self.phase in ("auction", "discard"):
            return 0
        return self.rules.layout.talon_size

    @property
    def declared_suits(self) -> int:
        mask = 0
        for d in self.declarations:
            mask |= 1 << d.suit
        return mask

    @property
    def card_points(self) -> tuple[int, ...]:
        """Card points of the tricks each seat took (public: every trick was seen); discards apart."""
        taken = [0] * self.n
        for t in self.tricks:
            taken[t.winner] += sum(CARD_POINTS[c] for c in t.cards)
        return tuple(taken)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        won = [0] * self.n
        for t in self.tricks:
            won[t.winner] += 1
        return tuple(won)

    @property
    def pending(self) -> list[int]:
        """Per seat (R3): -1 once it took a trick (its declarations count), else the points of its
        declarations that wait for its first trick — the form the two-hand searches and playouts take."""
        won = self.tricks_won
        waiting = [0] * self.n
        for d in self.declarations:
            waiting[d.seat] += d.points
        return [-1 if won[s] else waiting[s] for s in range(self.n)]

    @property
    def known(self) -> tuple[int, ...]:
        """Per seat, the cards it certainly holds: the partner of a marriage it declared, until played
        (R3, V0.5); with two seats and an empty stock, every unseen card (R4: perfect information)."""
        unseen = self.unseen
        known = [0] * self.n
        if self.n == 2 and not self.stock_count:
            known[1 - self.seat] = unseen
            return tuple(known)
        for d in self.declarations:
            if d.seat != self.seat:
                known[d.seat] |= unseen & MARRIAGE[d.suit]
        return tuple(known)

    @property
    def known_opponent_cards(self) -> int:
        """Two-hand 1001: the cards certainly in the other hand (``known``)."""
        return self.known[1 - self.seat]

    @property
    def forbidden(self) -> tuple[int, ...]:
        """Per seat, the cards it certainly does not hold, from its follows (module docstring)."""
        duty = self.rules.game.duty
        out = [0] * self.n
        every = [(t.leader, t.cards, t.trump) for t in self.tricks[self.free_tricks :]]
        if self.trick and not self.stock_count:
            every.append((self.leader, self.trick, self.trump))
        for leader, cards, trump in every:
            for i in range(1, len(cards)):
                seat = (leader + i) % self.n
                winning = cards[winning_index(cards[:i], trump)]
                out[seat] |= follower_forbidden(cards[i], cards[0], winning, trump, duty)
        return tuple(out)

    def check_consistent(self) -> None:
        """Raise ``IncompleteHistory`` if the counts do not add up (a partial or corrupt history)."""
        seen = self.hand | self.played | mask_of(self.trick)
        if seen & ~self.pack:
            raise ValueError("a card outside the pack")
        hidden = sum(self.hand_counts) - self.hand_counts[self.seat] + self.stock_count + self.talon_count
        hidden += self.other_discards_count
        if self.unseen.bit_count() != hidden:
            raise IncompleteHistory(
                f"{self.unseen.bit_count()} unseen cards for {hidden} hidden ones: the events do not cover the deal"
            )
        if self.stock_bottom is not None and not self.unseen >> self.stock_bottom & 1:
            raise ValueError("the faced stock card is also seen elsewhere")


def follower_forbidden(played: int, lead: int, winning: int, trump: int, duty: Duty) -> int:
    """The cards a follower certainly did not hold when it played ``played`` to a trick led with ``lead``
    whose winning card so far was ``winning`` (V0.4), under ``trump`` and the game's ``duty`` — the
    inverse of ``kernel.obligation_mask``: whatever the duty preferred and the seat did not play, it lacked."""
    led = lead >> 3
    if played >> 3 == led:
        if duty == "head" and not beats(winning, trump) >> played & 1:
            return SUIT_MASK[led] & beats(winning, trump)  # R4, V3.6: it would have had to beat the trick
        return 0
    out = SUIT_MASK[led]  # void in the suit led
    if duty == "follow" or trump == NO_TRUMP:
        return out
    if played >> 3 != trump:
        return out | SUIT_MASK[trump]  # R4, V2.7, V3.6: void in the suit led and no trump either
    if duty == "head" and not beats(winning, trump) >> played & 1:
        out |= SUIT_MASK[trump] & beats(winning, trump)  # ruling V3.6a: no trump that beats
    return out


def _plays(legal: int, suits: Sequence[int]) -> tuple[Play, ...]:
    """The engine's order (``deal.legal_actions``): each legal card, then the K and Q leads that declare."""
    plays = [Play(c) for c in cards_in(legal)]
    for s in suits:
        plays += [Play(8 * s + KING, True), Play(8 * s + QUEEN, True)]
    return tuple(plays)


# ---------------------------------------------------------------- from what the server sends


def knowledge_from_view(view: SeatView, events: Sequence[Event]) -> SeatKnowledge:
    """Build a seat's knowledge from what the server sent it, and from nothing else.

    ``view`` is the seat's current ``view_for(match, seat)``. ``events`` are the events the seat
    received (``events_for``), in order, covering at least the whole current deal: everything up to
    the last ``DealStarted`` is skipped, so the server may pass the events of the match so far or
    just those of the current deal. Raises ``IncompleteHistory`` if the events miss a trick of the
    deal or disagree with the view, ``ValueError`` for a spectator's view.
    """
    seat, deal = view.seat, view.deal
    if seat is None or deal.hand is None:
        raise ValueError("a bot needs a seat's view, not a spectator's")
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if type(events[i]) is DealStarted:
            start = i + 1
            break

    tricks: list[Trick] = []
    drawn = 0
    free = 0
    declarations: list[Declaration] = []
    trump = NO_TRUMP
    for event in events[start:]:
        if isinstance(event, TrickWon):
            tricks.append(Trick(event.leader, tuple(card(c) for c in event.cards), event.seat, trump))
        elif isinstance(event, CardDrawn):
            free = len(tricks)  # R4 phase 1: the tricks before a draw were played while the stock lasted
            if event.seat == seat and event.card is not None:
                drawn |= 1 << card(event.card)
        elif isinstance(event, Declared):
            trump = suit_from_letter(event.suit)
            declarations.append(Declaration(event.seat, trump, event.points))
        elif isinstance(event, CardPlayed) and event.declare is not None:
            trump = suit_from_letter(event.declare)
    if len(tricks) != deal.tricks_played:
        raise IncompleteHistory(
            f"the events show {len(tricks)} tricks of this deal but {deal.tricks_played} were played"
        )
    shown = tuple(Declaration(d.seat, suit_from_letter(d.suit), d.points) for d in deal.declarations)
    if tuple(declarations) != shown:
        raise IncompleteHistory("the events' declarations differ from the view's")

    legal = mask_of(card(p.card) for p in view.legal)
    suits = sorted({card(p.card) >> 3 for p in view.legal if p.declare is not None})
    knowledge = SeatKnowledge(
        seat=seat,
        rules=view.rules,
        dealer=deal.dealer,
        phase=deal.phase,
        turn=deal.turn,
        hand=mask_of(card(c) for c in deal.hand),
        hand_counts=deal.hand_counts,
        stock_count=deal.stock_count,
        stock_bottom=None if deal.stock_bottom is None else card(deal.stock_bottom),
        drawn=drawn,
        talon_count=deal.talon_count,
        talon=0 if deal.talon is None else mask_of(card(c) for c in deal.talon),
        discards=0 if deal.discards is None else mask_of(card(c) for c in deal.discards),
        calls=tuple((c.seat, c.bid) for c in deal.calls),
        declarer=deal.declarer,
        contract=deal.contract,
        trump=NO_TRUMP if deal.trump is None else suit_from_letter(deal.trump),
        declarations=shown,
        leader=deal.trick.leader,
        trick=tuple(card(c) for c in deal.trick.cards),
        tricks=tuple(tricks),
        free_tricks=free,
        totals=view.totals,
        bids=view.bids,
        may_pass=view.may_pass,
        must_discard=view.must_discard,
        plays=_plays(legal, suits),
    )
    knowledge.check_consistent()
    return knowledge


# ---------------------------------------------------------------- from the true state (simulation)


def observe(state: DealState, seat: int, totals: Sequence[int] | None = None) -> SeatKnowledge:
    """The knowledge of ``seat`` in ``state``, for simulations.

    Reads only public fields of the state — ``rules``, ``dealer``, ``phase``, ``turn``, ``leader``,
    ``trick``, ``tricks``, ``declarations``, ``trump``, the auction, ``len(stock)``, ``stock_bottom``
    (``None`` unless the table faces it), the talon's size, the *card counts* of the hands — and the
    seat's own cards: ``hands[seat]``, ``initial_hands[seat]`` (to tell which cards it drew), and the
    talon and discards only if it is the declarer. It never reads another hand's cards, the order of
    the stock, or the talon and discards of another seat.
    """
    hand = state.hands[seat]
    mine = 0  # cards this seat has played this deal
    for t in state.tricks:
        mine |= 1 << t.cards[(seat - t.leader) % len(t.cards)]
    if state.trick and (seat - state.leader) % state.n < len(state.trick):
        mine |= 1 << state.trick[(seat - state.leader) % state.n]
    declarer = state.declarer == seat
    stock_drawn = len(state.initial_stock) - len(state.stock)
    to_move = state.turn == seat and state.phase == "play"
    return SeatKnowledge(
        seat=seat,
        rules=state.rules,
        dealer=state.dealer,
        phase=state.phase,
        turn=state.turn,
        hand=hand,
        hand_counts=tuple(h.bit_count() for h in state.hands),
        stock_count=len(state.stock),
        stock_bottom=state.stock_bottom,
        drawn=(hand | mine) & ~state.initial_hands[seat] if state.initial_stock else 0,
        talon_count=0 if state.talon_taken else len(state.talon),
        talon=mask_of(state.talon) if declarer and state.talon_taken else 0,
        discards=state.discards if declarer else 0,
        calls=tuple((c.seat, c.bid) for c in state.calls),
        declarer=state.declarer,
        contract=state.contract,
        trump=state.trump,
        declarations=state.declarations,
        leader=state.leader,
        trick=state.trick,
        tricks=state.tricks,
        free_tricks=stock_drawn // 2,
        totals=tuple(totals) if totals is not None else state.totals,
        bids=legal_bids(state, seat),
        may_pass=state.turn == seat and state.phase == "auction",
        must_discard=state.turn == seat and state.phase == "discard",
        plays=_plays(legal_mask(state), declarable_suits(state, seat)) if to_move else (),
    )
