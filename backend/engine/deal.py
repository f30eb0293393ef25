"""R2–R5 for one deal of two-hand 1001: the deal, legal plays, applying a play, scoring.

``DealState`` is treated as immutable: ``apply`` copies it and changes only the copy,
so a refused action leaves the caller's state exactly as it was, and any state can be
kept as a snapshot. Hands are bitmasks (see ``cards``) so that finding the legal
cards is a handful of integer operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARD_NAMES, CARD_POINTS, KING, QUEEN, SUIT_MASK, SUITS, cards_in, deck_mask, mask_of
from .errors import IllegalAction, IllegalCode
from .events import CardDrawn, CardPlayed, DealEvent, Declared, TrickWon
from .kernel import NO_TRUMP, declarable, follow_mask, trick_winner
from .rules import Rules
from .shuffle import shuffled

JUNGFRAU_BONUS = 100  # V6.1 (10 with V4's `simplified` scoring, which two-hand play does not have)

# Events are immutable, so the few that depend only on (seat, card) are built once and shared.
_PLAYED = tuple(tuple(CardPlayed(seat=seat, card=CARD_NAMES[c]) for c in range(32)) for seat in (0, 1))
_PLAYED_DECLARING = tuple(
    tuple(CardPlayed(seat=seat, card=CARD_NAMES[c], declare=SUITS[c >> 3]) for c in range(32)) for seat in (0, 1)
)
_DRAWN = tuple(tuple(CardDrawn(seat=seat, card=CARD_NAMES[c]) for c in range(32)) for seat in (0, 1))
_TRICKS_WON: dict[tuple[int, int, int, int], TrickWon] = {}  # (winner, leader, lead, follow): at most 4096


def _trick_won(winner: int, leader: int, lead: int, follow: int) -> TrickWon:
    key = (winner, leader, lead, follow)
    event = _TRICKS_WON.get(key)
    if event is None:
        event = _TRICKS_WON[key] = TrickWon(
            seat=winner,
            leader=leader,
            cards=(CARD_NAMES[lead], CARD_NAMES[follow]),
            points=CARD_POINTS[lead] + CARD_POINTS[follow],
        )
    return event


@dataclass(frozen=True, slots=True)
class Play:
    """The one action of a deal: play ``card``; ``declare`` names its suit trump (R3)."""

    card: int
    declare: bool = False


@dataclass(frozen=True, slots=True)
class Declaration:
    seat: int
    suit: int
    points: int


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[int, int]  # (lead, follow)
    winner: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """R5: what each seat scores for a finished deal."""

    card_points: tuple[int, int]
    declaration_points: tuple[int, int]  # only declarations of seats that took a trick (R3)
    tricks_won: tuple[int, int]
    jungfrau: tuple[int, int] = (0, 0)  # V6 option: 100 to a seat that took no trick (ruling V6.2)

    @property
    def score(self) -> tuple[int, int]:
        return (
            self.card_points[0] + self.declaration_points[0] + self.jungfrau[0],
            self.card_points[1] + self.declaration_points[1] + self.jungfrau[1],
        )


class DealState:
    __slots__ = (
        "card_points",
        "dealer",
        "declarations",
        "declared_suits",
        "hands",
        "initial_hands",
        "initial_stock",
        "leader",
        "rules",
        "seed",
        "stock",
        "trick",
        "tricks",
        "tricks_won",
        "trump",
        "turn",
    )

    rules: Rules
    seed: int | None
    dealer: int
    initial_hands: tuple[int, int]
    initial_stock: tuple[int, ...]
    hands: tuple[int, int]
    stock: tuple[int, ...]  # top first: stock[0] is drawn next
    trump: int  # a suit, or NO_TRUMP
    declared_suits: int  # bit s set once suit s has been declared this deal
    declarations: tuple[Declaration, ...]
    leader: int
    turn: int | None  # None once the deal is over
    trick: tuple[int, ...]  # the cards of the trick in progress, lead first
    tricks: tuple[Trick, ...]
    card_points: tuple[int, int]
    tricks_won: tuple[int, int]

    def _copy(self) -> DealState:
        # Spelled out rather than looped over __slots__: this is the engine's hot path.
        clone = DealState.__new__(DealState)
        clone.rules = self.rules
        clone.seed = self.seed
        clone.dealer = self.dealer
        clone.initial_hands = self.initial_hands
        clone.initial_stock = self.initial_stock
        clone.hands = self.hands
        clone.stock = self.stock
        clone.trump = self.trump
        clone.declared_suits = self.declared_suits
        clone.declarations = self.declarations
        clone.leader = self.leader
        clone.turn = self.turn
        clone.trick = self.trick
        clone.tricks = self.tricks
        clone.card_points = self.card_points
        clone.tricks_won = self.tricks_won
        return clone

    @property
    def forehand(self) -> int:
        return 1 - self.dealer

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def phase(self) -> int:
        """R4: phase 1 while the stock has cards, phase 2 once it is empty."""
        return 1 if self.stock else 2

    @property
    def stock_bottom(self) -> int | None:
        """R2 ``show_stock_bottom``: the faced bottom card, while it is still in the stock."""
        if self.rules.show_stock_bottom and self.stock:
            return self.stock[-1]
        return None

    def __repr__(self) -> str:
        return (
            f"DealState(dealer={self.dealer}, turn={self.turn}, trump={self.trump}, "
            f"tricks={len(self.tricks)}, trick={[CARD_NAMES[c] for c in self.trick]})"
        )


# ---------------------------------------------------------------- dealing (R2)


def deal_from_hands(
    rules: Rules,
    dealer: int,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    seed: int | None = None,
) -> DealState:
    """A deal with explicit hands and stock (``stock[0]`` on top), checked to partition the pack."""
    if type(dealer) is not int or dealer not in (0, 1):
        raise ValueError("dealer must be seat 0 or 1")
    if len(hands) != 2:
        raise ValueError("two hands are needed")
    every = [*hands[0], *hands[1], *stock]
    pack = deck_mask(rules.ranks_per_suit)
    if len(set(every)) != len(every):
        raise ValueError("a card appears twice in the deal")
    if mask_of(every) != pack:
        raise ValueError(f"the deal is not a partition of the {rules.deck_size}-card pack")
    for seat in (0, 1):
        if len(hands[seat]) != rules.hand_size:
            raise ValueError(f"hand {seat} must hold {rules.hand_size} cards")

    state = DealState.__new__(DealState)
    masks = (mask_of(hands[0]), mask_of(hands[1]))
    forehand = 1 - dealer
    state.rules = rules
    state.seed = seed
    state.dealer = dealer
    state.initial_hands = masks
    state.initial_stock = tuple(stock)
    state.hands = masks
    state.stock = tuple(stock)
    state.trump = NO_TRUMP
    state.declared_suits = 0
    state.declarations = ()
    state.leader = forehand  # R4: forehand leads to the first trick
    state.turn = forehand
    state.trick = ()
    state.tricks = ()
    state.card_points = (0, 0)
    state.tricks_won = (0, 0)
    return state


def new_deal(rules: Rules, seed: int, dealer: int) -> DealState:
    """R2: shuffle from ``seed`` and deal in packets (3-2-3), forehand first."""
    pack = list(cards_in(deck_mask(rules.ranks_per_suit)))
    order = shuffled(pack, seed)
    forehand = 1 - dealer
    hands: list[list[int]] = [[], []]
    position = 0
    for packet in rules.packets:
        for seat in (forehand, dealer):
            hands[seat].extend(order[position : position + packet])
            position += packet
    return deal_from_hands(rules, dealer, hands, order[position:], seed=seed)


# ---------------------------------------------------------------- legal plays (R3, R4)


def declarable_suits(state: DealState, seat: int) -> tuple[int, ...]:
    """R3: suits ``seat`` may declare now — only on lead, holding K and Q, once per suit."""
    if state.turn != seat or state.trick:
        return ()
    return declarable(state.hands[seat], state.declared_suits)


def legal_mask(state: DealState) -> int:
    """The cards the seat to move may play, as a mask (0 once the deal is over)."""
    if state.turn is None:
        return 0
    hand = state.hands[state.turn]
    if not state.trick:
        return hand  # leading: any card (R4)
    return follow_mask(hand, state.trick[0], state.trump, bool(state.stock))  # R4, ruling R4.1


def legal_actions(state: DealState, seat: int) -> list[Play]:
    """Every action ``seat`` may take now: each legal card, plus K/Q leads that declare."""
    if state.turn != seat:
        return []
    actions = [Play(c) for c in cards_in(legal_mask(state))]
    for suit in declarable_suits(state, seat):
        actions.append(Play(8 * suit + KING, True))
        actions.append(Play(8 * suit + QUEEN, True))
    return actions


def _refusal(state: DealState, seat: int, play: Play) -> IllegalAction | None:
    if state.turn is None:
        return IllegalAction(IllegalCode.DEAL_OVER, "the deal is over")
    if seat != state.turn:
        return IllegalAction(IllegalCode.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn")
    card = play.card
    if not (type(card) is int and 0 <= card < 32 and state.hands[seat] >> card & 1):
        shown = CARD_NAMES[card] if type(card) is int and 0 <= card < 32 else repr(card)
        return IllegalAction(IllegalCode.CARD_NOT_HELD, f"{shown} is not in your hand")
    if play.declare:
        if state.trick:
            return IllegalAction(IllegalCode.CANNOT_DECLARE, "only the player on lead may declare (R3)")
        suit, rank = card >> 3, card & 7
        if rank not in (KING, QUEEN) or suit not in declarable_suits(state, seat):
            return IllegalAction(
                IllegalCode.CANNOT_DECLARE,
                f"declaring needs leading the K or Q of an undeclared suit whose K and Q you hold (R3), "
                f"not {CARD_NAMES[card]}",
            )
    if state.trick and not legal_mask(state) >> card & 1:
        lead = state.trick[0]
        led_suit = lead >> 3
        if state.hands[seat] & SUIT_MASK[led_suit]:
            if card >> 3 != led_suit:
                return IllegalAction(IllegalCode.MUST_FOLLOW_SUIT, f"you must follow {SUITS[led_suit]} (R4)")
            return IllegalAction(IllegalCode.MUST_BEAT, f"you must beat {CARD_NAMES[lead]} (R4)")
        return IllegalAction(IllegalCode.MUST_TRUMP, f"you must play a trump, {SUITS[state.trump]} (R4)")
    return None


def refusal_code(state: DealState, seat: int, play: Play) -> IllegalCode | None:
    """Why the rules refuse ``play`` by ``seat`` now, or None if they allow it: the code ``check`` raises."""
    refusal = _refusal(state, seat, play)
    return None if refusal is None else refusal.code


def check(state: DealState, seat: int, play: Play) -> None:
    """Raise ``IllegalAction`` if ``seat`` may not make ``play`` now."""
    refusal = _refusal(state, seat, play)
    if refusal is not None:
        raise refusal


# ---------------------------------------------------------------- applying a play


def apply(state: DealState, seat: int, play: Play) -> tuple[DealState, tuple[DealEvent, ...]]:
    """Apply a play; return the next state and the events it caused.

    Raises ``IllegalAction`` (and changes nothing) if the play breaks a rule. The end of the
    deal causes no event here: ``state.over`` tells it, and ``deal_result`` scores it (the
    match layer announces it with its ``DealOver``).
    """
    check(state, seat, play)
    card = play.card
    nxt = state._copy()
    hands = list(state.hands)
    hands[seat] &= ~(1 << card)

    if play.declare:  # R3: the suit is trump at once, for this trick too
        suit = card >> 3
        points = state.rules.declaration_points(suit, len(state.declarations))
        nxt.trump = suit
        nxt.declared_suits = state.declared_suits | 1 << suit
        nxt.declarations = (*state.declarations, Declaration(seat, suit, points))
        nxt.trick = (card,)
        nxt.turn = 1 - seat
        nxt.hands = (hands[0], hands[1])
        return nxt, (_PLAYED_DECLARING[seat][card], Declared(seat=seat, suit=SUITS[suit], points=points))
    played = _PLAYED[seat][card]
    if not state.trick:
        nxt.trick = (card,)
        nxt.turn = 1 - seat
        nxt.hands = (hands[0], hands[1])
        return nxt, (played,)

    lead = state.trick[0]
    leader = state.leader
    winner = trick_winner(leader, lead, card, nxt.trump)
    points = CARD_POINTS[lead] + CARD_POINTS[card]
    taken = list(state.card_points)
    taken[winner] += points
    won = list(state.tricks_won)
    won[winner] += 1
    nxt.card_points = (taken[0], taken[1])
    nxt.tricks_won = (won[0], won[1])
    nxt.tricks = (*state.tricks, Trick(leader, (lead, card), winner))
    nxt.trick = ()
    nxt.leader = winner
    won_event = _trick_won(winner, leader, lead, card)
    nxt.turn = winner
    if state.stock:  # R4 phase 1: the winner draws first, then the loser
        top, second = state.stock[0], state.stock[1]
        hands[winner] |= 1 << top
        hands[1 - winner] |= 1 << second
        nxt.stock = state.stock[2:]
        nxt.hands = (hands[0], hands[1])
        return nxt, (
            played,
            won_event,
            _DRAWN[winner][top],
            _DRAWN[1 - winner][second],
        )
    nxt.hands = (hands[0], hands[1])
    if not (hands[0] or hands[1]):
        nxt.turn = None  # the deal is over (R5)
    return nxt, (played, won_event)


# ---------------------------------------------------------------- scoring (R3, R5)


def declaration_points(state: DealState) -> tuple[int, int]:
    """Declaration points that count: none for a seat that took no trick (R3)."""
    totals = [0, 0]
    for declaration in state.declarations:
        if state.tricks_won[declaration.seat]:
            totals[declaration.seat] += declaration.points
    return totals[0], totals[1]


def deal_result(state: DealState) -> DealResult:
    """R5: card points taken plus valid declarations (plus V6's bonus when on). Only for a finished deal."""
    if not state.over:
        raise ValueError("the deal is not over")
    if state.rules.jungfrau:  # V6.1, ruling V6.2: the seat whose opponent took every trick
        bonus = (JUNGFRAU_BONUS * (not state.tricks_won[0]), JUNGFRAU_BONUS * (not state.tricks_won[1]))
        return DealResult(state.card_points, declaration_points(state), state.tricks_won, bonus)
    return DealResult(state.card_points, declaration_points(state), state.tricks_won)
