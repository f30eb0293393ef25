"""What one seat of a V2–V7 deal knows (V0.11), and nothing more — the n-seat ``SeatKnowledge``.

A variant bot never reads the true ``TableDealState``: it decides from a ``TableKnowledge`` built by
``table_knowledge_from_view(view, events)`` out of exactly what the server sends the seat — its
``TableSeatView`` and the events it received, redacted by ``table_events_for_seat`` (the talon and the
discards are named only to the declarer, ruling V0.7a). From those it keeps:

* its own hand; the talon and its own discards if it is the declarer (V0.7, V0.11);
* every bid and pass, the declarer and the contract, the trump and every declaration;
* every completed trick of the deal with the trump in force for it (each trick is public as it is
  played, so remembering it is fair) and the trick in progress;
* the number of cards in every hand and in the talon, and the match totals.

Derived, for sampling the hidden cards (``sample_world``):

* ``unseen`` — the cards this seat has not seen: the other hands, plus the talon while nobody has
  taken it, plus the declarer's discards when this seat is not the declarer;
* ``known`` — per seat, cards it certainly holds: a declarer of a marriage led its K or Q, the other
  one stays in its hand until played (V0.5);
* ``forbidden`` — per seat, cards it certainly does not hold, from the duty of every card it played
  as a follower (V2.7, V3.6 with ruling V3.6a, V4.7, V7.8): not following the suit led shows a void;
  under ``follow_then_trump`` and ``head`` not trumping when void shows no trump; under ``head`` a
  card that did not beat the trick shows that the seat held no card (of the suit it had to play) that
  would have beaten it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from backend.engine.cards import CARD_POINTS, SUIT_MASK, card, cards_in, mask_of, suit_from_letter
from backend.engine.deal import Declaration, Play
from backend.engine.events import CardPlayed, DealStarted, Declared
from backend.engine.kernel import MARRIAGE, NO_TRUMP, Duty, beats, winning_index
from backend.engine.table_events import TableEvent, TableTrickWon
from backend.engine.table_view import TableSeatView
from backend.engine.variants import TableRules

from .knowledge import IncompleteHistory

__all__ = [
    "PastTrick",
    "TableKnowledge",
    "World",
    "follower_forbidden",
    "sample_world",
    "table_knowledge_from_view",
]


@dataclass(frozen=True, slots=True)
class PastTrick:
    """A completed trick as every seat saw it: who led, the cards lead first, the winner, the trump in force."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    trump: int


@dataclass(frozen=True, slots=True)
class TableKnowledge:
    """Everything ``seat`` may know about the current V2–V7 deal (V0.11). Cards are ints, hands masks."""

    seat: int
    rules: TableRules
    dealer: int
    phase: str  # auction, discard, play, over, thrown_in
    turn: int | None
    hand: int
    hand_counts: tuple[int, ...]
    talon_count: int  # cards still in the talon (not yet taken)
    talon: int  # the talon as dealt, as a mask: only for the declarer once taken (V0.7a), else 0
    discards: int  # the declarer's own discards (V0.7), else 0
    calls: tuple[tuple[int, int | None], ...]  # (seat, bid or None for a pass)
    declarer: int | None
    contract: int | None
    trump: int
    declarations: tuple[Declaration, ...]
    leader: int
    trick: tuple[int, ...]
    tricks: tuple[PastTrick, ...]
    totals: tuple[int, ...]
    bids: tuple[int, ...]  # the bids the view allows now (V0.6, V0.6b cap)
    may_pass: bool
    must_discard: bool
    plays: tuple[Play, ...]  # the plays the view allows now (declaring leads included)

    # ------------------------------------------------------------ derived facts

    @property
    def n(self) -> int:
        return len(self.hand_counts)

    @property
    def pack(self) -> int:
        return self.rules.layout.pack

    @property
    def played(self) -> int:
        """Cards of the completed tricks and of the trick in progress."""
        mask = mask_of(self.trick)
        for t in self.tricks:
            mask |= mask_of(t.cards)
        return mask

    @property
    def other_discards_count(self) -> int:
        """Cards another seat (the declarer) laid away unseen by this seat (V0.7)."""
        if self.declarer is None or self.declarer == self.seat or self.phase in ("auction", "discard"):
            return 0
        return self.rules.layout.talon_size

    @property
    def unseen(self) -> int:
        """The cards this seat has not seen: the other hands, the talon untaken, others' discards."""
        return (
            self.pack & ~self.hand & ~self.played & ~self.discards & ~(self.talon if self.declarer == self.seat else 0)
        )

    @property
    def declared_suits(self) -> int:
        mask = 0
        for d in self.declarations:
            mask |= 1 << d.suit
        return mask

    @property
    def card_points(self) -> tuple[int, ...]:
        """Card points of the tricks each seat took (public); the discards are apart."""
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
    def known(self) -> tuple[int, ...]:
        """Per seat, the cards it certainly holds: the partner of a marriage it declared, until played (V0.5)."""
        unseen = self.unseen
        known = [0] * self.n
        for d in self.declarations:
            if d.seat != self.seat:
                known[d.seat] |= unseen & MARRIAGE[d.suit]
        return tuple(known)

    @property
    def forbidden(self) -> tuple[int, ...]:
        """Per seat, the cards it certainly does not hold, from its follows (module docstring)."""
        duty = self.rules.game.duty
        out = [0] * self.n
        every = [(t.leader, t.cards, t.trump) for t in self.tricks]
        if self.trick:
            every.append((self.leader, self.trick, self.trump))
        for leader, cards, trump in every:
            for i in range(1, len(cards)):
                seat = (leader + i) % self.n
                winning = cards[winning_index(cards[:i], trump)]
                out[seat] |= follower_forbidden(cards[i], cards[0], winning, trump, duty)
        return tuple(out)

    def check_consistent(self) -> None:
        """Raise ``IncompleteHistory`` if the counts do not add up (a partial or corrupt history)."""
        hidden = sum(self.hand_counts) - self.hand_counts[self.seat] + self.talon_count + self.other_discards_count
        if self.unseen.bit_count() != hidden:
            raise IncompleteHistory(
                f"{self.unseen.bit_count()} unseen cards for {hidden} hidden ones: the events do not cover the deal"
            )


def follower_forbidden(played: int, lead: int, winning: int, trump: int, duty: Duty) -> int:
    """The cards a follower certainly did not hold when it played ``played`` to a trick led with ``lead``
    whose winning card so far was ``winning`` (V0.4), under ``trump`` and the variant's ``duty`` — the
    inverse of ``kernel.obligation_mask``: whatever the duty preferred and the seat did not play, it lacked."""
    led = lead >> 3
    if played >> 3 == led:
        if duty == "head" and not beats(winning, trump) >> played & 1:
            return SUIT_MASK[led] & beats(winning, trump)  # V3.6: it would have had to beat the trick
        return 0
    out = SUIT_MASK[led]  # void in the suit led
    if duty == "follow" or trump == NO_TRUMP:
        return out
    if played >> 3 != trump:
        return out | SUIT_MASK[trump]  # V2.7, V3.6: void in the suit led and no trump either
    if duty == "head" and not beats(winning, trump) >> played & 1:
        out |= SUIT_MASK[trump] & beats(winning, trump)  # ruling V3.6a: no trump that beats
    return out


# ---------------------------------------------------------------- from what the server sends


def table_knowledge_from_view(view: TableSeatView, events: Sequence[TableEvent]) -> TableKnowledge:
    """Build a seat's knowledge from its ``TableSeatView`` and the events it received (redacted by
    ``table_events_for_seat``), covering at least the current deal: everything up to the last
    ``DealStarted`` is skipped. Raises ``IncompleteHistory`` if the events miss a trick of the deal or
    disagree with the view, ``ValueError`` for a spectator's view."""
    seat = view.seat
    deal = view.deal
    if seat is None or deal.hand is None:
        raise ValueError("a bot needs a seat's view, not a spectator's")
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], DealStarted):
            start = i + 1
            break

    tricks: list[PastTrick] = []
    declarations: list[Declaration] = []
    trump = NO_TRUMP
    for event in events[start:]:
        if isinstance(event, Declared):
            trump = suit_from_letter(event.suit)
            declarations.append(Declaration(event.seat, trump, event.points))
        elif isinstance(event, TableTrickWon):
            tricks.append(PastTrick(event.leader, tuple(card(c) for c in event.cards), event.seat, trump))
        elif isinstance(event, CardPlayed) and event.declare is not None:
            trump = suit_from_letter(event.declare)
    if len(tricks) != deal.tricks_played:
        raise IncompleteHistory(
            f"the events show {len(tricks)} tricks of this deal but {deal.tricks_played} were played"
        )
    shown = tuple(Declaration(d.seat, suit_from_letter(d.suit), d.points) for d in deal.declarations)
    if tuple(declarations) != shown:
        raise IncompleteHistory("the events' declarations differ from the view's")

    plays = tuple(
        Play(card(p.card), declare)
        for p in view.legal
        for declare in ((False, True) if p.declare is not None else (False,))
    )
    knowledge = TableKnowledge(
        seat=seat,
        rules=view.rules,
        dealer=deal.dealer,
        phase=deal.phase,
        turn=deal.turn,
        hand=mask_of(card(c) for c in deal.hand),
        hand_counts=deal.hand_counts,
        talon_count=deal.talon_count,
        talon=mask_of(card(c) for c in deal.talon) if deal.talon is not None else 0,
        discards=mask_of(card(c) for c in deal.discards) if deal.discards is not None else 0,
        calls=tuple((c.seat, c.bid) for c in deal.calls),
        declarer=deal.declarer,
        contract=deal.contract,
        trump=NO_TRUMP if deal.trump is None else suit_from_letter(deal.trump),
        declarations=shown,
        leader=deal.trick.leader,
        trick=tuple(card(c) for c in deal.trick.cards),
        tricks=tuple(tricks),
        totals=view.totals,
        bids=view.bids,
        may_pass=view.may_pass,
        must_discard=view.must_discard,
        plays=plays,
    )
    knowledge.check_consistent()
    return knowledge


# ---------------------------------------------------------------- sampling the hidden cards


@dataclass(frozen=True, slots=True)
class World:
    """One guess of the hidden cards consistent with a seat's knowledge: every hand (this seat's own
    included), the talon still untaken (empty once taken), the declarer's discards (this seat's own
    when it is the declarer)."""

    hands: tuple[int, ...]
    talon: int
    discards: int


def sample_world(k: TableKnowledge, rng: random.Random) -> World:
    """Deal the unseen cards to the other hands (counts as shown), the untaken talon and another seat's
    discards, at random but consistently: each seat gets the cards it is known to hold and none it is
    known not to hold. A random greedy fill, retried; then an exact matching (which always finds one
    when the true deal is consistent with the knowledge); never an exception."""
    n = k.n
    known = k.known
    forbidden = k.forbidden
    # slots: 0..n-1 the hands (own hand fixed), n the talon, n+1 the unseen discards
    need = [0 if s == k.seat else k.hand_counts[s] - known[s].bit_count() for s in range(n)]
    need += [k.talon_count, k.other_discards_count]
    allowed_not = [forbidden[s] if s != k.seat else -1 for s in range(n)] + [0, 0]
    free = list(cards_in(k.unseen & ~_or(known)))
    assignment = _fill(free, need, allowed_not, rng)
    if assignment is None:  # the inference was too strict for this deal: keep the counts only
        assignment = _fill(free, need, [0] * n + [0, 0], rng) or [0] * (n + 2)
    hands = tuple(k.hand if s == k.seat else known[s] | assignment[s] for s in range(n))
    discards = k.discards if k.declarer == k.seat else assignment[n + 1]
    return World(hands, assignment[n], discards)


def _or(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _fill(cards: list[int], need: list[int], banned: list[int], rng: random.Random) -> list[int] | None:
    """Give every card a slot with room that does not ban it; slots chosen in proportion to their room."""
    if sum(need) != len(cards):
        return None
    slots = range(len(need))
    for _ in range(12):
        order = list(cards)
        rng.shuffle(order)
        # the most constrained cards first
        order.sort(key=lambda c: sum(1 for s in slots if need[s] and not banned[s] >> c & 1))
        room = list(need)
        out = [0] * len(need)
        for c in order:
            total = sum(room[s] for s in slots if not banned[s] >> c & 1)
            if not total:
                break
            pick = rng.randrange(total)
            for s in slots:
                if banned[s] >> c & 1:
                    continue
                pick -= room[s]
                if pick < 0:
                    room[s] -= 1
                    out[s] |= 1 << c
                    break
        else:
            return out
    return _matching(cards, need, banned, rng)


def _matching(cards: list[int], need: list[int], banned: list[int], rng: random.Random) -> list[int] | None:
    """Kuhn's augmenting paths from cards to slot places: an assignment if one exists."""
    places = [s for s, count in enumerate(need) for _ in range(count)]
    rng.shuffle(places)
    owner: list[int | None] = [None] * len(places)

    def augment(c: int, seen: set[int]) -> bool:
        for p, s in enumerate(places):
            if p in seen or banned[s] >> c & 1:
                continue
            seen.add(p)
            other = owner[p]
            if other is None or augment(other, seen):
                owner[p] = c
                return True
        return False

    for c in cards:
        if not augment(c, set()):
            return None
    out = [0] * len(need)
    for p, held in enumerate(owner):
        if held is not None:
            out[places[p]] |= 1 << held
    return out
