"""What one seat knows about a deal (R7), and nothing more.

A bot never reads the true ``DealState``: it decides from a ``SeatKnowledge``, which
holds only public information of the deal plus the seat's own cards:

* its own hand, and the cards it drew itself from the stock;
* the trick in progress and every completed trick of the deal (each trick is seen by
  both players as it is played, so remembering them is fair play);
* every declaration (who, which suit, how many points) and the trump in force;
* the number of cards in the stock and in the opponent's hand, and the faced bottom
  card of the stock when the table shows it (R2 ``show_stock_bottom``);
* whose turn it is and the match totals.

Two constructors build it:

* ``knowledge_from_view(view, events)`` — from exactly what the server sends the
  seat: its ``SeatView`` and the (redacted) events it received, as the engine's one
  observer produces them (``backend.engine.view.seat_view`` / ``events_for_seat``).
  This is what the server uses.
* ``observe(state, seat)`` — a shortcut for simulations and benchmarks that reads the
  true ``DealState`` but only its public parts and the seat's own hand (never the
  opponent's hand, never the stock order; see the function for the list of fields).

Both give equal objects for the same position (tested), so a bot decides the same way
in the server and in the benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from backend.engine.cards import CARD_POINTS, card, deck_mask, mask_of, suit_from_letter
from backend.engine.deal import DealState, Declaration, Trick
from backend.engine.events import CardDrawn, DealStarted, Declared, Event, TrickWon
from backend.engine.kernel import MARRIAGE, NO_TRUMP
from backend.engine.rules import Rules
from backend.engine.view import SeatView

__all__ = ["IncompleteHistory", "SeatKnowledge", "knowledge_from_view", "observe"]


class IncompleteHistory(ValueError):
    """The events given do not account for every trick of the current deal."""


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """Everything ``seat`` may know about the current deal (R7). Cards are ints, hands masks."""

    seat: int
    rules: Rules
    dealer: int
    hand: int  # mask of the seat's own cards
    turn: int | None  # the seat to move, None once the deal is over
    leader: int  # the leader of the trick in progress (or of the next trick)
    trick: tuple[int, ...]  # cards of the trick in progress, lead first
    tricks: tuple[Trick, ...]  # every completed trick of this deal, in order
    drawn: int  # mask of the cards this seat drew from the stock this deal
    declarations: tuple[Declaration, ...]
    trump: int  # a suit, or NO_TRUMP (-1)
    stock_count: int
    stock_bottom: int | None  # the faced bottom card (R2), while it is in the stock
    opponent_count: int  # cards in the opponent's hand
    totals: tuple[int, int] = (0, 0)  # match totals before this deal

    # ------------------------------------------------------------ derived facts

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    @property
    def phase(self) -> int:
        """R4: phase 1 while the stock has cards, phase 2 once it is empty."""
        return 1 if self.stock_count else 2

    @property
    def deck(self) -> int:
        return deck_mask(self.rules.ranks_per_suit)

    @property
    def played(self) -> int:
        """Cards of completed tricks."""
        mask = 0
        for t in self.tricks:
            mask |= 1 << t.cards[0] | 1 << t.cards[1]
        return mask

    @property
    def trick_mask(self) -> int:
        return mask_of(self.trick)

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: exactly the opponent's hand plus the stock."""
        return self.deck & ~self.hand & ~self.played & ~self.trick_mask

    @property
    def declared_suits(self) -> int:
        mask = 0
        for d in self.declarations:
            mask |= 1 << d.suit
        return mask

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points each seat has taken in this deal (public: every trick was seen)."""
        taken = [0, 0]
        for t in self.tricks:
            taken[t.winner] += CARD_POINTS[t.cards[0]] + CARD_POINTS[t.cards[1]]
        return taken[0], taken[1]

    @property
    def tricks_won(self) -> tuple[int, int]:
        won = [0, 0]
        for t in self.tricks:
            won[t.winner] += 1
        return won[0], won[1]

    @property
    def pending(self) -> list[int]:
        """Per seat (R3): -1 once it took a trick (its declarations count), else the points of its
        declarations that wait for its first trick — the form the searches and playouts take."""
        won = self.tricks_won
        waiting = [0, 0]
        for d in self.declarations:
            waiting[d.seat] += d.points
        return [-1 if won[s] else waiting[s] for s in (0, 1)]

    @property
    def known_opponent_cards(self) -> int:
        """Cards certainly in the opponent's hand.

        R3: a declarer held the K and Q of the declared suit and led one of them; the
        other one stays in their hand until they play it. In phase 2 the stock is empty,
        so every unseen card is in the opponent's hand.
        """
        unseen = self.unseen
        if not self.stock_count:
            return unseen
        known = 0
        for d in self.declarations:
            if d.seat != self.seat:
                known |= unseen & MARRIAGE[d.suit]
        return known

    def check_consistent(self) -> None:
        """Raise ``ValueError`` if the counts do not add up (a corrupt or partial history)."""
        deck = self.deck
        seen = self.hand | self.played | self.trick_mask
        if seen & ~deck:
            raise ValueError("a card outside the pack")
        if self.hand & (self.played | self.trick_mask) or self.played & self.trick_mask:
            raise ValueError("a card is both held and played")
        if self.unseen.bit_count() != self.opponent_count + self.stock_count:
            raise IncompleteHistory(
                f"{self.unseen.bit_count()} unseen cards for {self.opponent_count} in the opponent's hand "
                f"and {self.stock_count} in the stock: the events do not cover the whole deal"
            )
        if self.stock_bottom is not None and not self.unseen >> self.stock_bottom & 1:
            raise ValueError("the faced stock card is also seen elsewhere")


# ---------------------------------------------------------------- from what the server sends


def knowledge_from_view(view: SeatView, events: Sequence[Event]) -> SeatKnowledge:
    """Build a seat's knowledge from what the server sent it, and from nothing else.

    ``view`` is the seat's current ``seat_view(match, seat)`` (R7). ``events`` are the
    events the seat received (``events_for_seat``), in order, covering at least the whole
    current deal: everything up to the last ``DealStarted`` is skipped, so the server may
    pass the events of the match so far or just those of the current deal. Raises
    ``IncompleteHistory`` if the events miss a trick of the current deal.
    """
    seat = view.seat
    deal = view.deal
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if type(events[i]) is DealStarted:
            start = i + 1
            break

    tricks: list[Trick] = []
    drawn = 0
    declarations: list[Declaration] = []
    for i in range(start, len(events)):
        event = events[i]
        if type(event) is TrickWon:
            tricks.append(Trick(event.leader, (card(event.cards[0]), card(event.cards[1])), event.seat))
        elif type(event) is CardDrawn:
            if event.seat == seat and event.card is not None:
                drawn |= 1 << card(event.card)
        elif type(event) is Declared:
            declarations.append(Declaration(event.seat, suit_from_letter(event.suit), event.points))

    if len(tricks) != deal.tricks_played:
        raise IncompleteHistory(
            f"the events show {len(tricks)} tricks of this deal but {deal.tricks_played} were played"
        )
    shown = tuple(Declaration(d.seat, suit_from_letter(d.suit), d.points) for d in deal.declarations)
    if tuple(declarations) != shown:
        raise IncompleteHistory("the events' declarations differ from the view's")

    hand = 0
    for name in deal.hand:
        hand |= 1 << card(name)
    knowledge = SeatKnowledge(
        seat=seat,
        rules=view.rules,
        dealer=deal.dealer,
        hand=hand,
        turn=deal.turn,
        leader=deal.trick.leader,
        trick=tuple(card(name) for name in deal.trick.cards),
        tricks=tuple(tricks),
        drawn=drawn,
        declarations=shown,
        trump=NO_TRUMP if deal.trump is None else suit_from_letter(deal.trump),
        stock_count=deal.stock_count,
        stock_bottom=None if deal.stock_bottom is None else card(deal.stock_bottom),
        opponent_count=deal.opponent_cards,
        totals=view.totals,
    )
    knowledge.check_consistent()
    return knowledge


# ---------------------------------------------------------------- from the true state (simulation)


def observe(state: DealState, seat: int, totals: tuple[int, int] = (0, 0)) -> SeatKnowledge:
    """The knowledge of ``seat`` in ``state``, for simulations.

    Reads only public fields of the state — ``rules``, ``dealer``, ``turn``, ``leader``,
    ``trick``, ``tricks``, ``declarations``, ``trump``, ``len(stock)``, ``stock_bottom``
    (which is ``None`` unless the table faces it), the opponent's *card count* — and the
    seat's own cards: ``hands[seat]`` and ``initial_hands[seat]`` (to tell which of its
    cards it drew). It never reads ``hands[1 - seat]``'s cards, ``initial_stock`` or
    the order of ``stock``.
    """
    hand = state.hands[seat]
    mine = 0  # cards this seat has played this deal
    for t in state.tricks:
        mine |= 1 << t.cards[0 if t.leader == seat else 1]
    if state.trick and state.leader == seat:
        mine |= 1 << state.trick[0]
    drawn = (hand | mine) & ~state.initial_hands[seat]
    return SeatKnowledge(
        seat=seat,
        rules=state.rules,
        dealer=state.dealer,
        hand=hand,
        turn=state.turn,
        leader=state.leader,
        trick=tuple(state.trick),
        tricks=tuple(state.tricks),
        drawn=drawn,
        declarations=tuple(state.declarations),
        trump=state.trump,
        stock_count=len(state.stock),
        stock_bottom=state.stock_bottom,
        opponent_count=state.hands[1 - seat].bit_count(),
        totals=(totals[0], totals[1]),
    )
