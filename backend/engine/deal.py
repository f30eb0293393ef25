"""One deal of any game of the family: one state machine for two-hand 1001 (R2–R5, V1) and V2–V7.

Phases: ``auction`` (V2, V3, V7) → ``discard`` (V2, V7: the declarer took the talon) → ``play`` →
``over``; or ``thrown_in`` when every player passes (ruling V0.6a). Two-hand 1001, V4 and V5 start
in ``play``. What differs between the games is data (``variants.Variant`` and ``Rules``) plus the
kernel's functions; there is one trick loop. Two-hand 1001's own rules are its stock: while it has
cards any card may follow and after each trick every seat draws, the winner first (R4 phase 1).

``DealState`` is treated as immutable: ``apply`` copies it and changes only the copy, so a refused
action leaves the caller's state exactly as it was, and any state can be kept as a snapshot. Hands
are bitmasks (see ``cards``), so that finding the legal cards is a handful of integer operations.
``apply`` raises ``IllegalAction`` with the first code of V0.12 and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal, NamedTuple

from .cards import CARD_NAMES, CARD_POINTS, KING, QUEEN, SUIT_MASK, SUITS, cards_in, mask_of
from .errors import IllegalAction, IllegalCode
from .events import (
    AuctionWon,
    BidMade,
    CardDrawn,
    CardPlayed,
    DealEvent,
    Declared,
    Discarded,
    Passed,
    TalonTaken,
    ThrownIn,
    TrickWon,
)
from .kernel import NO_TRUMP, beats, declarable, obligation_mask, winning_index
from .shuffle import shuffled
from .variants import Rules, Variant

__all__ = [
    "MAX_CARD_POINTS",
    "Action",
    "Bid",
    "Call",
    "DealResult",
    "DealState",
    "Declaration",
    "Discard",
    "Pass",
    "Phase",
    "Play",
    "Trick",
    "apply",
    "bid_cap",
    "check",
    "contract_score",
    "deal_from_hands",
    "deal_result",
    "declarable_suits",
    "jungfrau_bonus",
    "legal_actions",
    "legal_bids",
    "legal_mask",
    "lowest_bid",
    "may_meld",
    "meld_allowed",
    "meld_suits",
    "new_deal",
    "refusal_code",
    "round_points",
    "written_score",
]

MAX_CARD_POINTS = 120  # R1, V0.3: every pack holds 120 card points; V0.6b's cap starts from it
JUNGFRAU = 100  # V6.1
JUNGFRAU_SIMPLIFIED = 10  # V6.1 with `simplified` scoring


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``; ``declare`` names its suit trump (R3, V0.5: the K or Q led from a marriage)."""

    card: int
    declare: bool = False


@dataclass(frozen=True, slots=True)
class Bid:
    """V0.6: bid ``amount`` points (a multiple of 10)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Pass:
    """V0.6: pass — final for this auction."""


@dataclass(frozen=True, slots=True)
class Discard:
    """V0.7: the declarer lays two cards away face down (they count for the declarer)."""

    card_a: int
    card_b: int


Action = Play | Bid | Pass | Discard
Phase = Literal["auction", "discard", "play", "over", "thrown_in"]

_PHASE_OF: dict[type, Phase] = {Bid: "auction", Pass: "auction", Discard: "discard", Play: "play"}


@dataclass(frozen=True, slots=True)
class Declaration:
    seat: int
    suit: int
    points: int


@dataclass(frozen=True, slots=True)
class Call:
    """One turn of the auction: ``bid`` points, or None for a pass."""

    seat: int
    bid: int | None


class Trick(NamedTuple):
    """A completed trick (a named tuple: one is made for every trick, so it must be cheap to make)."""

    leader: int
    cards: tuple[int, ...]  # in the order played, lead first
    winner: int
    trump: int  # the trump in force for it (R4.1, V0.4), or NO_TRUMP


# Events are immutable, so those that depend only on (seat, card) are built once and shared.
_PLAYED = tuple(tuple(CardPlayed(seat=seat, card=CARD_NAMES[c]) for c in range(32)) for seat in range(4))
_PLAYED_DECLARING = tuple(
    tuple(CardPlayed(seat=seat, card=CARD_NAMES[c], declare=SUITS[c >> 3]) for c in range(32)) for seat in range(4)
)
_DRAWN = tuple(tuple(CardDrawn(seat=seat, card=CARD_NAMES[c]) for c in range(32)) for seat in range(2))


@lru_cache(maxsize=8192)
def _trick_won(winner: int, leader: int, cards: tuple[int, ...]) -> TrickWon:
    return TrickWon(
        seat=winner,
        leader=leader,
        cards=tuple(CARD_NAMES[c] for c in cards),
        points=sum(CARD_POINTS[c] for c in cards),
    )


@dataclass(frozen=True, slots=True)
class Dealt:
    """What a deal starts from and never changes: the rules, the deal as dealt (R2, V0.2) and the match
    totals before it (V7.7)."""

    rules: Rules
    game: Variant
    seed: int | None
    dealer: int
    totals: tuple[int, ...]
    hands: tuple[int, ...]
    stock: tuple[int, ...]  # R2: top first
    talon: tuple[int, ...]  # V0.7: empty without one


@dataclass(frozen=True, slots=True)
class Auction:
    """The auction and its outcome (V0.6, V0.7): the calls, who passed, the declarer, the contract and
    the two cards the declarer laid away; empty in a game without one."""

    calls: tuple[Call, ...] = ()
    passed: int = 0  # bit s set once seat s has passed
    declarer: int | None = None
    contract: int | None = None
    discards: int = 0  # as a mask


NO_AUCTION = Auction()


class DealState:
    # What changes with every card is a slot of its own; what the deal started from (``Dealt``) and
    # the auction (``Auction``) are one slot each, so that copying a state for a card is cheap.
    __slots__ = (
        "auction",
        "card_points",
        "dealt",
        "declarations",
        "declared_suits",
        "hands",
        "leader",
        "phase",
        "stock",
        "trick",
        "tricks",
        "tricks_won",
        "trump",
        "turn",
    )

    dealt: Dealt
    auction: Auction
    phase: Phase
    hands: tuple[int, ...]
    stock: tuple[int, ...]  # top first: stock[0] is drawn next (R4 phase 1)
    turn: int | None  # None once the deal is over or thrown in
    trump: int  # a suit, or NO_TRUMP
    declared_suits: int  # bit s set once suit s has been declared this deal
    declarations: tuple[Declaration, ...]
    leader: int
    trick: tuple[int, ...]  # the trick in progress, lead first
    tricks: tuple[Trick, ...]
    card_points: tuple[int, ...]  # card points of the tricks each seat took (the discards are apart)
    tricks_won: tuple[int, ...]

    def _copy(self) -> DealState:
        # Spelled out rather than looped over __slots__: this is the engine's hot path.
        clone = DealState.__new__(DealState)
        clone.dealt = self.dealt
        clone.auction = self.auction
        clone.phase = self.phase
        clone.hands = self.hands
        clone.stock = self.stock
        clone.turn = self.turn
        clone.trump = self.trump
        clone.declared_suits = self.declared_suits
        clone.declarations = self.declarations
        clone.leader = self.leader
        clone.trick = self.trick
        clone.tricks = self.tricks
        clone.card_points = self.card_points
        clone.tricks_won = self.tricks_won
        return clone

    # ------------------------------------------------------------ as dealt, and the auction

    @property
    def rules(self) -> Rules:
        return self.dealt.rules

    @property
    def seed(self) -> int | None:
        return self.dealt.seed

    @property
    def dealer(self) -> int:
        return self.dealt.dealer

    @property
    def totals(self) -> tuple[int, ...]:
        """The match totals before this deal (V7.7: no meld, no bid over 120 at 901 or more)."""
        return self.dealt.totals

    @property
    def initial_hands(self) -> tuple[int, ...]:
        return self.dealt.hands

    @property
    def initial_stock(self) -> tuple[int, ...]:
        return self.dealt.stock

    @property
    def talon(self) -> tuple[int, ...]:
        return self.dealt.talon

    @property
    def calls(self) -> tuple[Call, ...]:
        return self.auction.calls

    @property
    def passed(self) -> int:
        return self.auction.passed

    @property
    def declarer(self) -> int | None:
        return self.auction.declarer

    @property
    def contract(self) -> int | None:
        return self.auction.contract

    @property
    def discards(self) -> int:
        return self.auction.discards

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def forehand(self) -> int:
        """R2, V0.1: the player left of the dealer (the other one of two)."""
        return (self.dealer + 1) % len(self.hands)

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def stock_bottom(self) -> int | None:
        """R2 ``show_stock_bottom``: the faced bottom card, while it is still in the stock."""
        if self.rules.show_stock_bottom and self.stock:
            return self.stock[-1]
        return None

    @property
    def high_bid(self) -> int | None:
        for call in reversed(self.calls):
            if call.bid is not None:
                return call.bid
        return None

    @property
    def high_bidder(self) -> int | None:
        for call in reversed(self.calls):
            if call.bid is not None:
                return call.seat
        return None

    @property
    def talon_taken(self) -> bool:
        """V0.7: the declarer has added the talon to their hand."""
        return bool(self.talon) and self.declarer is not None

    @property
    def discard_points(self) -> int:
        return sum(CARD_POINTS[c] for c in cards_in(self.discards))

    def seat_card_points(self, seat: int) -> int:
        """V0.7: the card points of ``seat``'s tricks, plus the discards for the declarer."""
        return self.card_points[seat] + (self.discard_points if seat == self.declarer else 0)

    def __eq__(self, other: object) -> bool:
        """Equal positions: every slot equal (a value, as the states are never changed)."""
        if not isinstance(other, DealState):
            return NotImplemented
        return all(getattr(self, slot) == getattr(other, slot) for slot in DealState.__slots__)

    __hash__ = None  # type: ignore[assignment]  # equal by value, but not frozen: never a dict key

    def __repr__(self) -> str:
        return (
            f"DealState({self.rules.variant}, phase={self.phase}, dealer={self.dealer}, turn={self.turn}, "
            f"trump={self.trump}, declarer={self.declarer}, contract={self.contract}, tricks={len(self.tricks)}, "
            f"trick={[CARD_NAMES[c] for c in self.trick]})"
        )


# ---------------------------------------------------------------- dealing (R2, V0.2)


class _Packs(dict[int, list[int]]):
    """Each pack's cards in id order, the order the shuffle starts from."""

    def __missing__(self, pack: int) -> list[int]:
        cards = self[pack] = list(cards_in(pack))
        return cards


_PACKS = _Packs()


def deal_from_hands(
    rules: Rules,
    dealer: int,
    hands: Sequence[Sequence[int]],
    *,
    stock: Sequence[int] = (),
    talon: Sequence[int] = (),
    seed: int | None = None,
    totals: Sequence[int] | None = None,
) -> DealState:
    """A deal with explicit hands, stock (``stock[0]`` on top) and talon, checked to partition the pack."""
    n, layout = rules.n, rules.layout
    if type(dealer) is not int or not 0 <= dealer < n:
        raise ValueError("dealer must be seat 0 or 1" if n == 2 else f"dealer must be a seat from 0 to {n - 1}")
    if len(hands) != n:
        raise ValueError("two hands are needed" if n == 2 else f"{n} hands are needed")
    every = [c for hand in hands for c in hand] + list(stock) + list(talon)
    if len(set(every)) != len(every):
        raise ValueError("a card appears twice in the deal")
    if mask_of(every) != layout.pack:
        whose = "" if rules.two_hand else f" of {rules.variant}"
        raise ValueError(f"the deal is not a partition of the {layout.deck_size}-card pack{whose}")
    for seat, hand in enumerate(hands):
        if len(hand) != layout.hand_size:
            raise ValueError(f"hand {seat} must hold {layout.hand_size} cards")
    if len(talon) != layout.talon_size:
        raise ValueError(f"the talon must hold {layout.talon_size} cards")
    start = tuple(totals) if totals is not None else (0,) * n
    if len(start) != n:
        raise ValueError(f"{n} totals are needed")
    return _dealt(rules, dealer, tuple(mask_of(hand) for hand in hands), tuple(stock), tuple(talon), seed, start)


def _dealt(
    rules: Rules,
    dealer: int,
    masks: tuple[int, ...],
    stock: tuple[int, ...],
    talon: tuple[int, ...],
    seed: int | None,
    start: tuple[int, ...],
) -> DealState:
    """A deal at its start, from hands already checked (or dealt by ``new_deal``) to partition the pack."""
    n = len(masks)
    state = DealState.__new__(DealState)
    forehand = (dealer + 1) % n
    game = rules.game
    state.dealt = Dealt(rules, game, seed, dealer, start, masks, stock, talon)
    state.auction = NO_AUCTION
    state.phase = "auction" if game.has_auction else "play"
    state.hands = masks
    state.stock = stock
    state.turn = forehand  # R4: forehand leads; V0.6: forehand speaks first; V4.4: forehand leads
    state.trump = NO_TRUMP  # R3, V0.5: a deal starts without a trump suit
    state.declared_suits = 0
    state.declarations = ()
    state.leader = forehand
    state.trick = ()
    state.tricks = ()
    state.card_points = (0,) * n
    state.tricks_won = (0,) * n
    return state


def new_deal(rules: Rules, seed: int, dealer: int, totals: Sequence[int] | None = None) -> DealState:
    """R2, V0.2: shuffle from ``seed`` and deal the game's packets, forehand first and the dealer last."""
    layout, n = rules.layout, rules.n
    order = shuffled(_PACKS[layout.pack], seed)
    hands = [0] * n
    talon: tuple[int, ...] = ()
    stock: tuple[int, ...] = ()
    position = 0
    for kind, size in layout.packets:
        if kind == "each":
            for k in range(1, n + 1):
                for c in order[position : position + size]:
                    hands[(dealer + k) % n] |= 1 << c
                position += size
            continue
        if kind == "talon":
            talon += tuple(order[position : position + size])
        else:
            stock += tuple(order[position : position + size])
        position += size
    start = tuple(totals) if totals is not None else (0,) * n
    return _dealt(rules, dealer, tuple(hands), stock, talon, seed, start)


# ---------------------------------------------------------------- the auction (V0.6)


def may_meld(state: DealState, seat: int) -> bool:
    """V7.7 and ruling V7.7a: a player at ``target − 100`` or more may not meld (other games: always)."""
    return meld_allowed(state.dealt.rules, state.dealt.totals[seat])


def meld_allowed(rules: Rules, total: int) -> bool:
    """V7.7 and ruling V7.7a, for a match total: melds end at ``target − 100`` (901 of 1001)."""
    ban = rules.game.meld_ban_below_target
    return ban is None or total < rules.goal - ban


def meld_suits(game: Variant, hand: int, declared: int, last_points: int) -> tuple[int, ...]:
    """R3, V0.5 and V4.5: the suits a seat on lead holding ``hand`` may declare, ``declared`` being the
    suits declared this deal and ``last_points`` the value of the last declaration (0: none yet)."""
    suits = declarable(hand, declared)
    if game.melds_ascending and last_points:
        suits = tuple(s for s in suits if game.declaration_values[s] > last_points)
    return suits


def lowest_bid(state: DealState) -> int:
    """V0.6: the game's minimum, or 10 over the highest bid so far."""
    high = state.high_bid
    minimum = state.dealt.game.minimum_bid or 10
    return minimum if high is None else max(minimum, high + 10)


def bid_cap(state: DealState, seat: int) -> int:
    """Ruling V0.6b: 120, plus the values of the K-Q pairs in the hand (none for V7.7's banned player)."""
    if not may_meld(state, seat):
        return MAX_CARD_POINTS
    values = state.dealt.game.declaration_values
    return MAX_CARD_POINTS + sum(values[s] for s in declarable(state.hands[seat], 0))


def legal_bids(state: DealState, seat: int) -> tuple[int, ...]:
    """Every bid ``seat`` may make now (empty unless it is its turn in the auction)."""
    if state.phase != "auction" or state.turn != seat:
        return ()
    return tuple(range(lowest_bid(state), bid_cap(state, seat) + 1, 10))


# ---------------------------------------------------------------- card play (R3, R4, V0.4, V0.5)


def declarable_suits(state: DealState, seat: int) -> tuple[int, ...]:
    """R3, V0.5 and the game's limits (V4.5 higher melds only, V7.7 none over 900): the suits ``seat``
    may declare now — only on lead, holding K and Q, each suit once per deal."""
    if state.turn != seat or state.trick or state.phase != "play" or not may_meld(state, seat):
        return ()
    last = state.declarations[-1].points if state.declarations else 0
    return meld_suits(state.dealt.game, state.hands[seat], state.declared_suits, last)


def legal_mask(state: DealState) -> int:
    """The cards the seat to move may play (0 outside the play phase): any on lead, and any while a
    stock lasts (R4 phase 1); else the game's duty to the trick (R4 phase 2, ruling R4.1, V2.7, V3.6,
    V4.7, V7.8) against its winning card so far (V0.4)."""
    turn = state.turn
    if turn is None or state.phase != "play":
        return 0
    hand = state.hands[turn]
    trick = state.trick
    if not trick or state.stock:
        return hand
    winning = trick[0] if len(trick) == 1 else trick[winning_index(trick, state.trump)]
    return obligation_mask(hand, trick[0], winning, state.trump, state.dealt.game.duty)


def legal_actions(state: DealState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now: bids and a pass, two discards, or each legal card plus the
    K and Q leads that declare."""
    if state.turn != seat:
        return []
    if state.phase == "auction":
        return [*(Bid(b) for b in legal_bids(state, seat)), Pass()]
    if state.phase == "discard":
        hand = list(cards_in(state.hands[seat]))
        return [Discard(a, b) for i, a in enumerate(hand) for b in hand[i + 1 :]]
    actions: list[Action] = [Play(c) for c in cards_in(legal_mask(state))]
    for suit in declarable_suits(state, seat):
        actions += [Play(8 * suit + KING, True), Play(8 * suit + QUEEN, True)]
    return actions


# ---------------------------------------------------------------- refusals (V0.12)


def _held(state: DealState, seat: int, card: object) -> bool:
    return type(card) is int and 0 <= card < 32 and bool(state.hands[seat] >> card & 1)


def _shown(card: object) -> str:
    return CARD_NAMES[card] if type(card) is int and 0 <= card < 32 else repr(card)


def _refusal(state: DealState, seat: int, action: Action) -> IllegalAction | None:
    if state.turn is None:
        return IllegalAction(IllegalCode.DEAL_OVER, "the deal is over")
    if _PHASE_OF.get(type(action)) != state.phase:
        return IllegalAction(IllegalCode.WRONG_PHASE, f"the deal is in its {state.phase} phase (V0.12)")
    if seat != state.turn:
        return IllegalAction(IllegalCode.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn")
    if type(action) is Play:
        return _play_refusal(state, seat, action)
    if isinstance(action, Bid):
        amount = action.amount
        if type(amount) is not int or amount % 10:
            return IllegalAction(
                IllegalCode.BID_NOT_MULTIPLE_OF_TEN, f"a bid is a multiple of 10, not {amount!r} (V0.6)"
            )
        if amount < lowest_bid(state):
            return IllegalAction(IllegalCode.BID_TOO_LOW, f"the lowest bid now is {lowest_bid(state)} (V0.6)")
        if amount > bid_cap(state, seat):
            return IllegalAction(IllegalCode.BID_OVER_CAP, f"your highest bid is {bid_cap(state, seat)} (V0.6b)")
        return None
    if isinstance(action, Discard):
        a, b = action.card_a, action.card_b
        if a == b:
            return IllegalAction(IllegalCode.MUST_DISCARD_TWO, "discard two different cards (V0.7)")
        for c in (a, b):
            if not _held(state, seat, c):
                return IllegalAction(IllegalCode.CARD_NOT_HELD, f"{_shown(c)} is not in your hand")
    return None  # Pass: legal whenever it is the seat's turn in the auction


def _play_refusal(state: DealState, seat: int, play: Play) -> IllegalAction | None:
    card = play.card
    if not _held(state, seat, card):
        return IllegalAction(IllegalCode.CARD_NOT_HELD, f"{_shown(card)} is not in your hand")
    two_hand = state.rules.two_hand
    rule = "R3" if two_hand else "V0.5"
    if play.declare:
        suit, rank = card >> 3, card & 7
        if state.trick:
            return IllegalAction(IllegalCode.CANNOT_DECLARE, f"only the player on lead may declare ({rule})")
        if rank not in (KING, QUEEN) or suit not in declarable(state.hands[seat], state.declared_suits):
            return IllegalAction(
                IllegalCode.CANNOT_DECLARE,
                f"declaring needs leading the K or Q of an undeclared suit whose K and Q you hold ({rule}), "
                f"not {CARD_NAMES[card]}",
            )
        if not may_meld(state, seat):
            return IllegalAction(
                IllegalCode.MELD_FORBIDDEN, "a player at target - 100 or more (over 900 of 1001) may not meld (V7.7)"
            )
        if suit not in declarable_suits(state, seat):
            return IllegalAction(
                IllegalCode.MELD_NOT_HIGHER, "a meld must be worth more than every earlier meld (V4.5)"
            )
    if state.trick and not legal_mask(state) >> card & 1:
        rule = state.dealt.game.rule
        led = state.trick[0] >> 3
        if state.hands[seat] & SUIT_MASK[led]:
            if card >> 3 != led:
                return IllegalAction(IllegalCode.MUST_FOLLOW_SUIT, f"you must follow {SUITS[led]} ({rule})")
            if two_hand:  # two cards: the lead is the card to beat (R4 rule 1)
                return IllegalAction(IllegalCode.MUST_BEAT, f"you must beat {CARD_NAMES[state.trick[0]]} ({rule})")
            return IllegalAction(IllegalCode.MUST_BEAT, f"you must beat the trick if you can ({rule})")
        if card >> 3 != state.trump:
            return IllegalAction(IllegalCode.MUST_TRUMP, f"you must play a trump, {SUITS[state.trump]} ({rule})")
        return IllegalAction(IllegalCode.MUST_BEAT, f"you must beat the trick with a trump if you can ({rule})")
    return None


def refusal_code(state: DealState, seat: int, action: Action) -> IllegalCode | None:
    """Why the rules refuse ``action`` by ``seat`` now, or None if they allow it: the code ``check`` raises."""
    refusal = _refusal(state, seat, action)
    return None if refusal is None else refusal.code


def check(state: DealState, seat: int, action: Action) -> None:
    """Raise ``IllegalAction`` (the first code in V0.12's order) if ``seat`` may not take ``action`` now."""
    refusal = _refusal(state, seat, action)
    if refusal is not None:
        raise refusal


# ---------------------------------------------------------------- applying an action


def apply(state: DealState, seat: int, action: Action) -> tuple[DealState, tuple[DealEvent, ...]]:
    """Apply an action; return the next state and the events it caused.

    Raises ``IllegalAction`` (and changes nothing) if the action breaks a rule. The end of the deal
    causes no event here: ``state.over`` tells it, and ``deal_result`` scores it (the match layer
    announces it with its ``DealOver``).
    """
    if type(action) is Play and seat == state.turn and not action.declare and state.phase == "play":
        # The hot path: a card without a declaration, played when it is that seat's turn to play.
        card = action.card
        if type(card) is int and 0 <= card < 32:
            playable = legal_mask(state) if state.trick and not state.stock else state.hands[seat]
            if playable >> card & 1:
                return _play(state, seat, action)
    check(state, seat, action)
    if type(action) is Play:
        return _play(state, seat, action)
    nxt = state._copy()
    auction = state.auction
    if isinstance(action, Bid):
        nxt.auction = replace(auction, calls=(*auction.calls, Call(seat, action.amount)))
        return _after_call(state, nxt, BidMade(seat=seat, amount=action.amount))
    if isinstance(action, Pass):
        nxt.auction = replace(auction, calls=(*auction.calls, Call(seat, None)), passed=auction.passed | 1 << seat)
        return _after_call(state, nxt, Passed(seat=seat))
    assert isinstance(action, Discard)
    both = 1 << action.card_a | 1 << action.card_b
    nxt.hands = _with_hand(state.hands, seat, state.hands[seat] & ~both)
    nxt.auction = replace(auction, discards=both)
    nxt.phase = "play"
    nxt.leader = nxt.turn = seat  # ruling V0.6d: the declarer leads
    return nxt, (Discarded(seat=seat, cards=(CARD_NAMES[action.card_a], CARD_NAMES[action.card_b])),)


def _with_hand(hands: tuple[int, ...], seat: int, hand: int) -> tuple[int, ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _after_call(before: DealState, state: DealState, event: DealEvent) -> tuple[DealState, tuple[DealEvent, ...]]:
    """V0.6: the auction ends once one player has bid and every other has passed, or all passed (V0.6a)."""
    n, passes = state.n, state.passed.bit_count()
    if passes == n:
        state.phase, state.turn = "thrown_in", None
        return state, (event, ThrownIn())
    high, bidder = state.high_bid, state.high_bidder
    if high is not None and bidder is not None and passes == n - 1:
        state.auction = replace(state.auction, declarer=bidder, contract=high)
        state.leader = state.turn = bidder
        events: tuple[DealEvent, ...] = (event, AuctionWon(seat=bidder, contract=high))
        if not state.talon:  # V3.3b: no talon, the declarer leads (V0.6d)
            state.phase = "play"
            return state, events
        state.hands = _with_hand(state.hands, bidder, state.hands[bidder] | mask_of(state.talon))
        state.phase = "discard"
        return state, (*events, TalonTaken(seat=bidder, cards=tuple(CARD_NAMES[c] for c in state.talon)))
    seat = before.turn
    assert seat is not None
    nxt = (seat + 1) % n
    while state.passed >> nxt & 1:
        nxt = (nxt + 1) % n
    state.turn = nxt
    return state, (event,)


def _play(state: DealState, seat: int, play: Play) -> tuple[DealState, tuple[DealEvent, ...]]:
    card = play.card
    nxt = state._copy()
    hands = list(state.hands)
    hands[seat] &= ~(1 << card)
    n = len(hands)
    if play.declare:  # R3, V0.5: the suit is trump at once, for this trick too
        suit = card >> 3
        points = state.rules.declaration_points(suit, len(state.declarations))
        nxt.trump = suit
        nxt.declared_suits = state.declared_suits | 1 << suit
        nxt.declarations = (*state.declarations, Declaration(seat, suit, points))
        played: tuple[DealEvent, ...] = (
            _PLAYED_DECLARING[seat][card],
            Declared(seat=seat, suit=SUITS[suit], points=points),
        )
    else:
        played = (_PLAYED[seat][card],)
    trick = (*state.trick, card)
    if len(trick) < n:
        nxt.trick = trick
        nxt.turn = seat + 1 if seat + 1 < n else 0
        nxt.hands = tuple(hands)
        return nxt, played

    leader = state.leader
    if n == 2:  # R4: one follower, who takes the trick with a card that beats the lead
        winner = 1 - leader if beats(trick[0], nxt.trump) >> card & 1 else leader
    else:  # V0.4: the winning card so far, seat by seat
        winner = (leader + winning_index(trick, nxt.trump)) % n
    won_event = _trick_won(winner, leader, trick)
    taken = list(state.card_points)
    taken[winner] += won_event.points
    won = list(state.tricks_won)
    won[winner] += 1
    nxt.card_points = tuple(taken)
    nxt.tricks_won = tuple(won)
    nxt.tricks = (*state.tricks, Trick(leader, trick, winner, nxt.trump))
    nxt.trick = ()
    nxt.leader = nxt.turn = winner
    stock = state.stock
    if stock:  # R4 phase 1: the winner draws first, then the loser
        hands[winner] |= 1 << stock[0]
        hands[1 - winner] |= 1 << stock[1]
        nxt.stock = stock[2:]
        nxt.hands = tuple(hands)
        return nxt, (*played, won_event, _DRAWN[winner][stock[0]], _DRAWN[1 - winner][stock[1]])
    nxt.hands = tuple(hands)
    if not hands[winner]:  # every hand is empty: the deal is over (R5)
        nxt.turn = None
        nxt.phase = "over"
    return nxt, (*played, won_event)


# ---------------------------------------------------------------- scoring (R3, R5, V0.8, V2.9, V3.8, V4.9, V6, V7.9)


@dataclass(frozen=True, slots=True)
class DealResult:
    """What each seat scores for a finished (or thrown-in) deal."""

    thrown_in: bool  # ruling V0.6a: nobody scores
    declarer: int | None
    contract: int | None
    made: bool | None  # V0.8, ruling V0.8a: on exact deal points; None without a contract
    tricks_won: tuple[int, ...]
    card_points: tuple[int, ...]  # the tricks taken, plus the discards for the declarer (V0.7)
    declaration_points: tuple[int, ...]  # the declarations that count (R3 / V4.6 / V7.7)
    deal_points: tuple[int, ...]  # R5, V0.8: card points + declarations, exact
    rounded: tuple[int, ...]  # as the game writes them (V2.9, V3.8, V4.9), before the contract
    jungfrau: tuple[int, ...]  # V6: the bonus, added after rounding, never to the declarer (V6.3)
    score: tuple[int, ...]  # written on the score sheet for this deal


def round_points(rules: Rules, points: int, took_last: bool) -> int:
    """The game's rounding of exact deal points (V2.9 / ruling V2.9a, V3.8, V4.9 — ``took_last``: the
    seat took the last trick; R5 and V7.9a: none)."""
    kind = rules.game.scoring_kind
    if kind == "nearest_ten":
        return (points + 5) // 10 * 10
    if kind == "round_up":
        return -(-points // 10) * 10
    if kind == "thousand" and rules.scoring == "simplified":
        tens, rest = divmod(points, 10)
        return tens + (rest > 5 or (rest == 5 and took_last))
    return points


def jungfrau_bonus(rules: Rules) -> int:
    """V6.1: what a seat that took no trick receives (100, 10 with `simplified` scoring; 0 when off)."""
    if not rules.jungfrau:
        return 0
    return JUNGFRAU_SIMPLIFIED if rules.scoring == "simplified" else JUNGFRAU


def contract_score(rules: Rules, rounded: int, points: int, contract: int | None) -> int:
    """What a declarer writes (V0.8): its ``rounded`` points if it made the contract on its exact
    ``points`` (ruling V0.8a) — else minus the contract (V2.9, V7.9), or its rounded points less the
    contract (V3.8)."""
    if contract is None or points >= contract:
        return rounded
    return rounded - contract if rules.game.scoring_kind == "round_up" else -contract


def written_score(
    rules: Rules, points: int, *, took_last: bool, took_trick: bool, declarer: bool, contract: int | None
) -> int:
    """What the score sheet writes for a seat whose exact deal points are ``points`` (R5, V0.8): rounded
    as the game rounds, the contract judged for the declarer, then the Jungfrau bonus for a seat without
    a trick, never the declarer (V6.3, V6.4: after rounding)."""
    written = round_points(rules, points, took_last)
    if declarer:
        return contract_score(rules, written, points, contract)
    return written if took_trick else written + jungfrau_bonus(rules)


def deal_result(state: DealState) -> DealResult:
    """Score a finished deal: R5 (and V0.8 for a contract), the game's rounding, V6 when on."""
    if not state.over:
        raise ValueError("the deal is not over")
    n, zeros = len(state.hands), (0,) * len(state.hands)
    if state.phase == "thrown_in":
        return DealResult(True, None, None, None, zeros, zeros, zeros, zeros, zeros, zeros, zeros)
    game, rules, won = state.dealt.game, state.dealt.rules, state.tricks_won
    declarer, contract = state.declarer, state.contract
    cards = state.card_points if declarer is None else tuple(state.seat_card_points(s) for s in range(n))
    melds = [0] * n
    for d in state.declarations:
        if won[d.seat] or not game.meld_needs_trick:  # R3: none for a seat without a trick
            melds[d.seat] += d.points
    deal_points = tuple(c + m for c, m in zip(cards, melds, strict=True))
    made = None if declarer is None or contract is None else deal_points[declarer] >= contract  # V0.8a
    if game.scoring_kind == "exact":  # R5, V7.9a: written as they are
        rounded = deal_points
    else:
        last = state.tricks[-1].winner
        rounded = tuple(round_points(rules, deal_points[s], s == last) for s in range(n))
    score = list(rounded)
    if declarer is not None:
        score[declarer] = contract_score(rules, rounded[declarer], deal_points[declarer], contract)
    bonus = jungfrau_bonus(rules)
    jungfrau = tuple(bonus if not won[s] and s != declarer else 0 for s in range(n)) if bonus else zeros
    if bonus:
        score = [s + j for s, j in zip(score, jungfrau, strict=True)]
    return DealResult(
        False, declarer, contract, made, won, cards, tuple(melds), deal_points, rounded, jungfrau, tuple(score)
    )
