"""V0–V7 (RULES-VARIANTS.md) for one deal of 3 or 4 seats: one state machine for every variant.

Phases: ``auction`` (V2, V3, V7) → ``discard`` (V2, V7: the declarer took the talon) → ``play`` →
``over``; or ``thrown_in`` when every player passes (ruling V0.6a). V4 and V5 start in ``play``.
What differs between variants is data (``variants.Variant``) plus the shared kernel functions
(``obligation_mask``, ``winning_index``, ``declarable``); there is one trick loop.

``TableDealState`` is frozen: ``apply_table`` returns a new state (``dataclasses.replace``) and the
events it caused, or raises ``IllegalAction`` with the first code of V0.12 and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .cards import CARD_NAMES, CARD_POINTS, KING, QUEEN, SUIT_MASK, SUITS, cards_in, mask_of
from .deal import Declaration, Play
from .errors import IllegalAction, IllegalCode
from .events import CardPlayed, Declared
from .kernel import NO_TRUMP, declarable, obligation_mask, winning_index
from .shuffle import shuffled
from .table_events import AuctionWon, BidMade, Discarded, Passed, TableDealEvent, TableTrickWon, TalonTaken, ThrownIn
from .variants import TableRules

__all__ = [
    "MAX_CARD_POINTS",
    "Bid",
    "Call",
    "Discard",
    "Pass",
    "Phase",
    "TableAction",
    "TableDealResult",
    "TableDealState",
    "TableTrick",
    "apply_table",
    "bid_cap",
    "check_table",
    "declarable_table_suits",
    "legal_bids",
    "legal_table_actions",
    "lowest_bid",
    "may_meld",
    "new_table_deal",
    "play_mask",
    "table_deal_from_hands",
    "table_deal_result",
    "table_refusal_code",
]

MAX_CARD_POINTS = 120  # V0.3: every pack holds 120 card points; V0.6b's cap starts from it
JUNGFRAU = 100  # V6.1
JUNGFRAU_SIMPLIFIED = 10  # V6.1 with `simplified` scoring


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


TableAction = Bid | Pass | Discard | Play
Phase = Literal["auction", "discard", "play", "over", "thrown_in"]

_PHASE_OF: dict[type, Phase] = {Bid: "auction", Pass: "auction", Discard: "discard", Play: "play"}


@dataclass(frozen=True, slots=True)
class Call:
    """One turn of the auction: ``bid`` points, or None for a pass."""

    seat: int
    bid: int | None


@dataclass(frozen=True, slots=True)
class TableTrick:
    leader: int
    cards: tuple[int, ...]  # in the order played, lead first
    winner: int


@dataclass(frozen=True, slots=True)
class TableDealState:
    rules: TableRules
    seed: int | None
    dealer: int
    totals: tuple[int, ...]  # the match totals before this deal (V7.7: no meld, no bid over 120 above 900)
    initial_hands: tuple[int, ...]
    talon: tuple[int, ...]  # the talon as dealt (V0.7), empty without one
    phase: Phase
    hands: tuple[int, ...]
    turn: int | None  # None once the deal is over or thrown in
    calls: tuple[Call, ...]  # the auction so far
    passed: int  # bit s set once seat s has passed
    declarer: int | None
    contract: int | None
    discards: int  # the two cards the declarer laid away (V0.7), as a mask
    trump: int  # a suit, or NO_TRUMP
    declared_suits: int
    declarations: tuple[Declaration, ...]
    leader: int
    trick: tuple[int, ...]  # the trick in progress, lead first
    tricks: tuple[TableTrick, ...]
    card_points: tuple[int, ...]  # card points of the tricks each seat took (the discards are apart)
    tricks_won: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def forehand(self) -> int:
        """V0.1: the player left of the dealer."""
        return (self.dealer + 1) % self.n

    @property
    def over(self) -> bool:
        return self.phase in ("over", "thrown_in")

    @property
    def high_bid(self) -> int | None:
        bids = [c.bid for c in self.calls if c.bid is not None]
        return bids[-1] if bids else None

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

    def __repr__(self) -> str:
        return (
            f"TableDealState({self.rules.variant}, phase={self.phase}, turn={self.turn}, "
            f"declarer={self.declarer}, contract={self.contract}, tricks={len(self.tricks)}, "
            f"trick={[CARD_NAMES[c] for c in self.trick]})"
        )


# ---------------------------------------------------------------- dealing (V0.2)


def table_deal_from_hands(
    rules: TableRules,
    dealer: int,
    hands: Sequence[Sequence[int]],
    talon: Sequence[int] = (),
    seed: int | None = None,
    totals: Sequence[int] | None = None,
) -> TableDealState:
    """A deal with explicit hands and talon, checked to partition the variant's pack."""
    n, layout = rules.n, rules.layout
    if type(dealer) is not int or not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat from 0 to {n - 1}")
    if len(hands) != n:
        raise ValueError(f"{n} hands are needed")
    every = [c for hand in hands for c in hand] + list(talon)
    if len(set(every)) != len(every):
        raise ValueError("a card appears twice in the deal")
    if mask_of(every) != layout.pack:
        raise ValueError(f"the deal is not a partition of the {layout.pack.bit_count()}-card pack of {rules.variant}")
    for seat, hand in enumerate(hands):
        if len(hand) != layout.hand_size:
            raise ValueError(f"hand {seat} must hold {layout.hand_size} cards")
    if len(talon) != layout.talon_size:
        raise ValueError(f"the talon must hold {layout.talon_size} cards")
    start = tuple(totals) if totals is not None else (0,) * n
    if len(start) != n:
        raise ValueError(f"{n} totals are needed")
    masks = tuple(mask_of(hand) for hand in hands)
    forehand = (dealer + 1) % n
    auction = rules.game.has_auction
    return TableDealState(
        rules=rules,
        seed=seed,
        dealer=dealer,
        totals=start,
        initial_hands=masks,
        talon=tuple(talon),
        phase="auction" if auction else "play",
        hands=masks,
        turn=forehand,  # V0.6: forehand speaks first; V4.4: forehand leads
        calls=(),
        passed=0,
        declarer=None,
        contract=None,
        discards=0,
        trump=NO_TRUMP,
        declared_suits=0,
        declarations=(),
        leader=forehand,
        trick=(),
        tricks=(),
        card_points=(0,) * n,
        tricks_won=(0,) * n,
    )


def new_table_deal(rules: TableRules, seed: int, dealer: int, totals: Sequence[int] | None = None) -> TableDealState:
    """V0.2: shuffle from ``seed`` and deal the variant's packets from forehand to the dealer."""
    layout, n = rules.layout, rules.n
    order = shuffled(list(cards_in(layout.pack)), seed)
    hands: list[list[int]] = [[] for _ in range(n)]
    talon: list[int] = []
    position = 0
    for kind, size in layout.packets:
        if kind == "talon":
            talon.extend(order[position : position + size])
            position += size
            continue
        for k in range(1, n + 1):  # forehand first, the dealer last
            hands[(dealer + k) % n].extend(order[position : position + size])
            position += size
    return table_deal_from_hands(rules, dealer, hands, talon, seed=seed, totals=totals)


# ---------------------------------------------------------------- the auction (V0.6)


def may_meld(state: TableDealState, seat: int) -> bool:
    """V7.7 and ruling V7.7a: a player at ``target − 100`` or more may not meld (other variants: always)."""
    ban = state.rules.game.meld_ban_below_target
    return ban is None or state.totals[seat] < state.rules.goal - ban


def lowest_bid(state: TableDealState) -> int:
    """V0.6: the variant's minimum, or 10 over the highest bid so far."""
    high = state.high_bid
    minimum = state.rules.game.minimum_bid or 10
    return minimum if high is None else max(minimum, high + 10)


def bid_cap(state: TableDealState, seat: int) -> int:
    """Ruling V0.6b: 120, plus the values of the K-Q pairs in the hand (none for V7.7's banned player)."""
    if not may_meld(state, seat):
        return MAX_CARD_POINTS
    values = state.rules.game.declaration_values
    return MAX_CARD_POINTS + sum(values[s] for s in declarable(state.hands[seat], 0))


def legal_bids(state: TableDealState, seat: int) -> tuple[int, ...]:
    """Every bid ``seat`` may make now (empty unless it is its turn in the auction)."""
    if state.phase != "auction" or state.turn != seat:
        return ()
    return tuple(range(lowest_bid(state), bid_cap(state, seat) + 1, 10))


# ---------------------------------------------------------------- card play (V0.4, V0.5)


def declarable_table_suits(state: TableDealState, seat: int) -> tuple[int, ...]:
    """V0.5 and the variant's limits (V4.5 higher melds only, V7.7 none over 900): the suits ``seat`` may declare."""
    if state.phase != "play" or state.turn != seat or state.trick or not may_meld(state, seat):
        return ()
    suits = declarable(state.hands[seat], state.declared_suits)
    if state.rules.game.melds_ascending and state.declarations:
        values, last = state.rules.game.declaration_values, state.declarations[-1].points
        suits = tuple(s for s in suits if values[s] > last)
    return suits


def play_mask(state: TableDealState) -> int:
    """The cards the seat to move may play (0 outside the play phase): any on lead, else the variant's duty."""
    if state.phase != "play" or state.turn is None:
        return 0
    hand = state.hands[state.turn]
    if not state.trick:
        return hand
    winning = state.trick[winning_index(state.trick, state.trump)]
    return obligation_mask(hand, state.trick[0], winning, state.trump, state.rules.game.duty)


def legal_table_actions(state: TableDealState, seat: int) -> list[TableAction]:
    """Every action ``seat`` may take now."""
    if state.over or state.turn != seat:
        return []
    if state.phase == "auction":
        return [*(Bid(b) for b in legal_bids(state, seat)), Pass()]
    if state.phase == "discard":
        hand = list(cards_in(state.hands[seat]))
        return [Discard(a, b) for i, a in enumerate(hand) for b in hand[i + 1 :]]
    actions: list[TableAction] = [Play(c) for c in cards_in(play_mask(state))]
    for suit in declarable_table_suits(state, seat):
        actions += [Play(8 * suit + KING, True), Play(8 * suit + QUEEN, True)]
    return actions


# ---------------------------------------------------------------- refusals (V0.12)


def _held(state: TableDealState, seat: int, card: object) -> bool:
    return type(card) is int and 0 <= card < 32 and bool(state.hands[seat] >> card & 1)


def _shown(card: object) -> str:
    return CARD_NAMES[card] if type(card) is int and 0 <= card < 32 else repr(card)


def _refusal(state: TableDealState, seat: int, action: TableAction) -> IllegalAction | None:
    if state.over:
        return IllegalAction(IllegalCode.DEAL_OVER, "the deal is over")
    wanted = _PHASE_OF.get(type(action))
    if wanted != state.phase:
        return IllegalAction(IllegalCode.WRONG_PHASE, f"the deal is in its {state.phase} phase (V0.12)")
    if seat != state.turn:
        return IllegalAction(IllegalCode.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn")
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
        return None
    if isinstance(action, Play):
        return _play_refusal(state, seat, action)
    return None  # Pass: legal whenever it is the seat's turn in the auction


def _play_refusal(state: TableDealState, seat: int, play: Play) -> IllegalAction | None:
    card = play.card
    if not _held(state, seat, card):
        return IllegalAction(IllegalCode.CARD_NOT_HELD, f"{_shown(card)} is not in your hand")
    game = state.rules.game
    if play.declare:
        suit, rank = card >> 3, card & 7
        if state.trick:
            return IllegalAction(IllegalCode.CANNOT_DECLARE, "only the player on lead may declare (V0.5)")
        if rank not in (KING, QUEEN) or suit not in declarable(state.hands[seat], state.declared_suits):
            return IllegalAction(
                IllegalCode.CANNOT_DECLARE,
                f"declaring needs leading the K or Q of an undeclared suit whose K and Q you hold (V0.5), "
                f"not {CARD_NAMES[card]}",
            )
        if not may_meld(state, seat):
            return IllegalAction(
                IllegalCode.MELD_FORBIDDEN, "a player at target - 100 or more (over 900 of 1001) may not meld (V7.7)"
            )
        if suit not in declarable_table_suits(state, seat):
            return IllegalAction(
                IllegalCode.MELD_NOT_HIGHER, "a meld must be worth more than every earlier meld (V4.5)"
            )
    if state.trick and not play_mask(state) >> card & 1:
        led = state.trick[0] >> 3
        if state.hands[seat] & SUIT_MASK[led]:
            if card >> 3 != led:
                return IllegalAction(IllegalCode.MUST_FOLLOW_SUIT, f"you must follow {SUITS[led]} ({game.rule})")
            return IllegalAction(IllegalCode.MUST_BEAT, f"you must beat the trick if you can ({game.rule})")
        if card >> 3 != state.trump:
            return IllegalAction(IllegalCode.MUST_TRUMP, f"you must play a trump, {SUITS[state.trump]} ({game.rule})")
        return IllegalAction(IllegalCode.MUST_BEAT, f"you must beat the trick with a trump if you can ({game.rule})")
    return None


def table_refusal_code(state: TableDealState, seat: int, action: TableAction) -> IllegalCode | None:
    """The code ``check_table`` would raise, or None if the action is legal."""
    refusal = _refusal(state, seat, action)
    return None if refusal is None else refusal.code


def check_table(state: TableDealState, seat: int, action: TableAction) -> None:
    """Raise ``IllegalAction`` (first code in V0.12's order) if ``seat`` may not take ``action`` now."""
    refusal = _refusal(state, seat, action)
    if refusal is not None:
        raise refusal


# ---------------------------------------------------------------- applying an action


def apply_table(
    state: TableDealState, seat: int, action: TableAction
) -> tuple[TableDealState, tuple[TableDealEvent, ...]]:
    """Apply an action; return the next state and its events. Refused: ``IllegalAction``, nothing changed."""
    check_table(state, seat, action)
    if isinstance(action, Bid):
        return _after_call(
            state,
            replace(state, calls=(*state.calls, Call(seat, action.amount))),
            BidMade(seat=seat, amount=action.amount),
        )
    if isinstance(action, Pass):
        passed = replace(state, calls=(*state.calls, Call(seat, None)), passed=state.passed | 1 << seat)
        return _after_call(state, passed, Passed(seat=seat))
    if isinstance(action, Discard):
        both = 1 << action.card_a | 1 << action.card_b
        hands = _with_hand(state.hands, seat, state.hands[seat] & ~both)
        pair = (CARD_NAMES[action.card_a], CARD_NAMES[action.card_b])
        return replace(state, hands=hands, discards=both, phase="play", leader=seat, turn=seat), (
            Discarded(seat=seat, cards=pair),
        )
    return _play(state, seat, action)


def _with_hand(hands: tuple[int, ...], seat: int, hand: int) -> tuple[int, ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _after_call(
    before: TableDealState, state: TableDealState, event: TableDealEvent
) -> tuple[TableDealState, tuple[TableDealEvent, ...]]:
    """V0.6: the auction ends once one player has bid and every other has passed, or all passed (V0.6a)."""
    n, passes = state.n, state.passed.bit_count()
    if passes == n:
        return replace(state, phase="thrown_in", turn=None), (event, ThrownIn())
    high, bidder = state.high_bid, state.high_bidder
    if high is not None and bidder is not None and passes == n - 1:
        won = replace(state, declarer=bidder, contract=high, leader=bidder, turn=bidder)
        events: tuple[TableDealEvent, ...] = (event, AuctionWon(seat=bidder, contract=high))
        if not state.talon:  # V3.3b: no talon, the declarer leads (V0.6d)
            return replace(won, phase="play"), events
        hands = _with_hand(state.hands, bidder, state.hands[bidder] | mask_of(state.talon))
        taken = TalonTaken(seat=bidder, cards=tuple(CARD_NAMES[c] for c in state.talon))
        return replace(won, phase="discard", hands=hands), (*events, taken)
    seat = before.turn
    assert seat is not None
    nxt = (seat + 1) % n
    while state.passed >> nxt & 1:
        nxt = (nxt + 1) % n
    return replace(state, turn=nxt), (event,)


def _play(state: TableDealState, seat: int, play: Play) -> tuple[TableDealState, tuple[TableDealEvent, ...]]:
    card, n = play.card, state.n
    hands = _with_hand(state.hands, seat, state.hands[seat] & ~(1 << card))
    events: list[TableDealEvent] = []
    trump, declared, declarations = state.trump, state.declared_suits, state.declarations
    if play.declare:  # V0.5: trump at once, for this trick too
        suit = card >> 3
        points = state.rules.game.declaration_values[suit]
        trump, declared = suit, declared | 1 << suit
        declarations = (*declarations, Declaration(seat, suit, points))
        events += [CardPlayed(seat=seat, card=CARD_NAMES[card], declare=SUITS[suit])]
        events += [Declared(seat=seat, suit=SUITS[suit], points=points)]
    else:
        events.append(CardPlayed(seat=seat, card=CARD_NAMES[card]))
    trick = (*state.trick, card)
    if len(trick) < n:
        nxt = replace(
            state,
            hands=hands,
            trump=trump,
            declared_suits=declared,
            declarations=declarations,
            trick=trick,
            turn=(seat + 1) % n,
        )
        return nxt, tuple(events)
    winner = (state.leader + winning_index(trick, trump)) % n  # V0.4
    points = sum(CARD_POINTS[c] for c in trick)
    taken = list(state.card_points)
    taken[winner] += points
    won = list(state.tricks_won)
    won[winner] += 1
    events.append(
        TableTrickWon(seat=winner, leader=state.leader, cards=tuple(CARD_NAMES[c] for c in trick), points=points)
    )
    over = not any(hands)
    nxt = replace(
        state,
        hands=hands,
        trump=trump,
        declared_suits=declared,
        declarations=declarations,
        trick=(),
        tricks=(*state.tricks, TableTrick(state.leader, trick, winner)),
        card_points=tuple(taken),
        tricks_won=tuple(won),
        leader=winner,
        turn=None if over else winner,
        phase="over" if over else "play",
    )
    return nxt, tuple(events)


# ---------------------------------------------------------------- scoring (V0.8, V2.9, V3.8, V4.9, V6, V7.9)


@dataclass(frozen=True, slots=True)
class TableDealResult:
    """What each seat scores for a finished (or thrown-in) deal."""

    thrown_in: bool  # ruling V0.6a: nobody scores
    declarer: int | None
    contract: int | None
    made: bool | None  # V0.8, ruling V0.8a: on exact deal points; None without a contract
    tricks_won: tuple[int, ...]
    card_points: tuple[int, ...]  # the tricks taken, plus the discards for the declarer (V0.7)
    declaration_points: tuple[int, ...]  # the declarations that count (R3 / V4.6 / V7.7)
    deal_points: tuple[int, ...]  # V0.8: card points + declarations, exact
    rounded: tuple[int, ...]  # as the variant writes them (V2.9, V3.8, V4.9), before the contract
    jungfrau: tuple[int, ...]  # V6: the bonus, added after rounding, never to the declarer (V6.3)
    score: tuple[int, ...]  # written on the score sheet for this deal


def round_points(state: TableDealState, seat: int, points: int) -> int:
    """The variant's rounding of exact deal points (V2.9 / ruling V2.9a, V3.8, V4.9, V7.9a)."""
    kind = state.rules.game.scoring_kind
    if kind == "nearest_ten":
        return (points + 5) // 10 * 10
    if kind == "round_up":
        return -(-points // 10) * 10
    if kind == "thousand" and state.rules.scoring == "simplified":
        tens, rest = divmod(points, 10)
        took_last = bool(state.tricks) and state.tricks[-1].winner == seat
        return tens + (rest > 5 or (rest == 5 and took_last))
    return points


def table_deal_result(state: TableDealState) -> TableDealResult:
    """Score a finished deal: V0.8 for the contract, the variant's rounding, V6 when on."""
    if not state.over:
        raise ValueError("the deal is not over")
    n, zeros = state.n, (0,) * state.n
    if state.phase == "thrown_in":
        return TableDealResult(True, None, None, None, zeros, zeros, zeros, zeros, zeros, zeros, zeros)
    game, rules = state.rules.game, state.rules
    cards = tuple(state.seat_card_points(s) for s in range(n))
    melds = [0] * n
    for d in state.declarations:
        if state.tricks_won[d.seat] or not game.meld_needs_trick:
            melds[d.seat] += d.points
    deal_points = tuple(cards[s] + melds[s] for s in range(n))
    declarer, contract = state.declarer, state.contract
    made = None if declarer is None or contract is None else deal_points[declarer] >= contract  # V0.8a
    rounded = tuple(round_points(state, s, deal_points[s]) for s in range(n))
    bonus = JUNGFRAU_SIMPLIFIED if rules.scoring == "simplified" else JUNGFRAU
    jungfrau = tuple(
        bonus if rules.jungfrau and not state.tricks_won[s] and s != declarer else 0  # V6.1, ruling V6.3
        for s in range(n)
    )
    score = []
    for s in range(n):
        written = rounded[s]
        if s == declarer and not made and contract is not None:
            # V3.8: rounded points less the contract; V2.9, V7.9: minus the contract and nothing else
            written = rounded[s] - contract if game.scoring_kind == "round_up" else -contract
        score.append(written + jungfrau[s])  # V6.4: after rounding
    return TableDealResult(
        False,
        declarer,
        contract,
        made,
        state.tricks_won,
        cards,
        tuple(melds),
        deal_points,
        rounded,
        jungfrau,
        tuple(score),
    )
