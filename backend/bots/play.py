"""Fast card-play heuristics and playouts on bitmasks for the games of three and four (V2–V7): the
``medium`` level's play, and the playout policy and evaluation of ``hard``.

The rules of play come from the engine: the kernel (``obligation_mask``, ``winning_index``,
``beats``), the melds a seat may make (``deal.meld_suits``, ``meld_allowed``) and the score sheet
(``deal.written_score``: rounding, contract, Jungfrau — the engine's one copy). Every policy
function sees only what a seat may see: its own hand, and ``unseen``, the cards still in the other
hands (in a playout: their union, never who holds which). Two-hand 1001, whose play depends on the
stock, has its own heuristics (``twohand.policy``).

A move is an int: the card, plus ``DECLARE`` (32) when the lead declares its suit (V0.5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from backend.engine.cards import CARD_POINTS, KING, QUEEN, SUIT_MASK, cards_in
from backend.engine.deal import meld_allowed, meld_suits, written_score
from backend.engine.kernel import NO_TRUMP, beats, obligation_mask, winning_index
from backend.engine.variants import Rules, Variant

from .knowledge import SeatKnowledge
from .worlds import World

__all__ = [
    "DECLARE",
    "Game",
    "Playout",
    "choose_follow",
    "choose_lead",
    "deal_scores",
    "declare",
    "finish_trick",
    "fresh",
    "game_of",
    "meld_options",
    "objective",
    "play_out",
    "position",
    "values_of",
]

CP = CARD_POINTS
DECLARE = 32  # a move that leads a K or Q declaring its suit


@dataclass(frozen=True, slots=True)
class Game:
    """The constants of one deal that a playout needs, taken from the table rules and the public state."""

    rules: Rules
    variant: Variant
    n: int
    may_meld: tuple[bool, ...]  # V7.7 per seat
    declarer: int | None
    contract: int | None

    @property
    def values(self) -> tuple[int, int, int, int]:
        return self.variant.declaration_values


def game_of(rules: Rules, totals: tuple[int, ...], declarer: int | None, contract: int | None) -> Game:
    return Game(rules, rules.game, rules.n, tuple(meld_allowed(rules, t) for t in totals), declarer, contract)


def meld_options(g: Game, seat: int, hand: int, declared: int, last_meld: int) -> tuple[int, ...]:
    """The suits ``seat`` may declare now by leading their K or Q (V0.5, V4.5 rising melds, V7.7 ban)."""
    return meld_suits(g.variant, hand, declared, last_meld) if g.may_meld[seat] else ()


# ---------------------------------------------------------------- scoring


def deal_scores(
    g: Game, card_pts: list[int], melds: list[int], won: list[int], discard_pts: int, last_winner: int
) -> list[int]:
    """The score sheet of a finished deal (as ``deal_result(...).score``), by the engine's ``written_score``."""
    needs_trick = g.variant.meld_needs_trick
    out = []
    for s in range(g.n):
        points = card_pts[s] + (discard_pts if s == g.declarer else 0)
        if won[s] or not needs_trick:
            points += melds[s]
        out.append(
            written_score(
                g.rules,
                points,
                took_last=s == last_winner,
                took_trick=bool(won[s]),
                declarer=s == g.declarer,
                contract=g.contract,
            )
        )
    return out


# ---------------------------------------------------------------- card play heuristics


def _throw_cost(c: int, hand: int, trump: int, declared: int, unseen: int, values: tuple[int, ...]) -> int:
    """How much it hurts to give ``c`` away: its points first, more for trumps and marriage halves."""
    cost = CP[c] * 4 + (7 - (c & 7))
    suit = c >> 3
    if suit == trump:
        cost += 40
    if c & 7 in (KING, QUEEN) and not declared >> suit & 1:
        partner = c ^ 1  # K (2) <-> Q (3)
        if hand >> partner & 1:
            cost += 40 + values[suit] // 2  # a marriage in hand
        elif unseen >> partner & 1:
            cost += 4
    return cost


def _master(c: int, unseen: int, trump: int, n: int) -> bool:
    """``c`` is the highest of its suit still out, and no other seat is likely to trump it."""
    suit = SUIT_MASK[c >> 3]
    if unseen & suit & ((1 << c) - 1):
        return False  # a higher card of the suit is still out (a lower bit is a higher card)
    if trump == NO_TRUMP or c >> 3 == trump or not unseen & SUIT_MASK[trump]:
        return True
    return (unseen & suit).bit_count() >= n - 1  # every other seat can probably follow


def choose_lead(g: Game, seat: int, hand: int, trump: int, declared: int, last_meld: int, unseen: int) -> int:
    """The lead: declare (the most valuable marriage; the least valuable first where melds must rise,
    V4.5), else cash a master with points, else draw trumps holding the master, else a cheap card."""
    suits = meld_options(g, seat, hand, declared, last_meld)
    if suits:
        pick = (
            min(suits, key=lambda s: g.values[s])
            if g.variant.melds_ascending
            else max(suits, key=lambda s: g.values[s])
        )
        return 8 * pick + QUEEN | DECLARE  # lead the queen: the king stays to win later
    best, best_key = -1, -1
    for c in cards_in(hand):
        if _master(c, unseen, trump, g.n):
            key = CP[c] * 2 + (0 if c >> 3 == trump else 1)
            if key > best_key:
                best, best_key = c, key
    if best >= 0 and (CP[best] >= 10 or (best >> 3 == trump and unseen & SUIT_MASK[trump])):
        return best
    cheapest, cost = -1, 1 << 30
    for c in cards_in(hand):
        k = _throw_cost(c, hand, trump, declared, unseen, g.values)
        if c & 7 <= 1:
            k += 10  # keep aces and tens back for a trick they can take
        if k < cost:
            cheapest, cost = c, k
    if best >= 0 and CP[cheapest] > 0:
        return best
    return cheapest


def choose_follow(
    g: Game, seat: int, hand: int, trick: list[int], trump: int, declared: int, last_meld: int, unseen: int
) -> int:
    """Follow: take a trick worth taking with the cheapest card that surely wins it, else throw the
    cheapest card."""
    winning = trick[winning_index(trick, trump)]
    legal = obligation_mask(hand, trick[0], winning, trump, g.variant.duty)
    cards = list(cards_in(legal))
    if len(cards) == 1:
        return cards[0]
    points = sum(CP[c] for c in trick)
    last = len(trick) == g.n - 1
    wins = beats(winning, trump) & legal
    wants_lead = bool(meld_options(g, seat, hand, declared, last_meld))
    if wins:
        winners = list(cards_in(wins))
        sure = winners if last else [c for c in winners if _wins_against(c, unseen, trump, trick[0], g.n)]
        if sure:
            pick = min(sure, key=lambda c: _throw_cost(c, hand, trump, declared, unseen, g.values))
            if points + CP[pick] >= 10 or wants_lead or (last and points > 0):
                return pick
            if last and _throw_cost(pick, hand, trump, declared, unseen, g.values) < 20:
                return pick
        elif points >= 10:
            # no sure winner: contest a rich trick with the highest card of the suit if it is cheap to try
            same = [c for c in winners if c >> 3 == trick[0] >> 3 and CP[c] < 10]
            if same:
                return min(same)
    losers = [c for c in cards if not wins >> c & 1] or cards
    return min(losers, key=lambda c: _throw_cost(c, hand, trump, declared, unseen, g.values))


def _wins_against(c: int, unseen: int, trump: int, lead: int, n: int) -> bool:
    """``c`` played now would most likely stay the winning card: no unseen card of its suit beats it,
    and (when it is not a trump) the others can probably follow the suit led rather than trump."""
    if unseen & beats(c, trump) & SUIT_MASK[c >> 3]:
        return False
    if trump == NO_TRUMP or c >> 3 == trump or not unseen & SUIT_MASK[trump]:
        return True
    return (unseen & SUIT_MASK[lead >> 3]).bit_count() >= n - 1


# ---------------------------------------------------------------- playouts


@dataclass(slots=True)
class Playout:
    """A determinized deal in progress (mutable: ``play_out`` changes it)."""

    hands: list[int]
    leader: int
    trick: list[int]
    trump: int
    declared: int
    last_meld: int
    melds: list[int]
    card_pts: list[int]
    won: list[int]
    discard_pts: int
    last_winner: int

    def copy(self) -> Playout:
        return Playout(
            list(self.hands),
            self.leader,
            list(self.trick),
            self.trump,
            self.declared,
            self.last_meld,
            list(self.melds),
            list(self.card_pts),
            list(self.won),
            self.discard_pts,
            self.last_winner,
        )


def declare(g: Game, p: Playout, seat: int, suit: int) -> None:
    """``seat`` leads a K or Q declaring ``suit`` (V0.5): trump at once, its meld noted (counted by
    ``deal_scores``, R3: once the seat takes a trick where the game says so)."""
    p.trump = suit
    p.declared |= 1 << suit
    p.melds[seat] += g.values[suit]
    p.last_meld = g.values[suit]


def finish_trick(p: Playout, n: int) -> None:
    """The trick in progress has its ``n`` cards: its winner (V0.4) takes its points and leads the next."""
    trick = p.trick
    winner = (p.leader + winning_index(trick, p.trump)) % n
    p.card_pts[winner] += sum(CP[x] for x in trick)
    p.won[winner] += 1
    p.leader = p.last_winner = winner
    trick.clear()


def play_out(g: Game, p: Playout, first: int = -1, log: list[int] | None = None) -> list[int]:
    """Play ``p`` to the end with the heuristics for every seat; return the score sheet (``deal_scores``).
    ``first``, if not -1, is the next move (a card, plus ``DECLARE``) instead of the policy's; ``log``,
    if given, receives every move made (for the tests, which replay them through the engine)."""
    n = g.n
    hands = p.hands
    trick = p.trick
    while True:
        rest = 0
        for h in hands:
            rest |= h
        if not trick:
            seat = p.leader
            hand = hands[seat]
            if not hand:
                break
            if first >= 0:
                move, first = first, -1
            else:
                move = choose_lead(g, seat, hand, p.trump, p.declared, p.last_meld, rest & ~hand)
            c = move & 31
            if log is not None:
                log.append(move)
            if move & DECLARE:
                declare(g, p, seat, c >> 3)
        else:
            seat = (p.leader + len(trick)) % n
            hand = hands[seat]
            if first >= 0:
                c, first = first & 31, -1
            else:
                c = choose_follow(g, seat, hand, trick, p.trump, p.declared, p.last_meld, rest & ~hand)
            if log is not None:
                log.append(c)
        hands[seat] = hand & ~(1 << c)
        trick.append(c)
        if len(trick) == n:
            finish_trick(p, n)
    return deal_scores(g, p.card_pts, p.melds, p.won, p.discard_pts, p.last_winner)


def objective(scores: Sequence[float], seat: int) -> float:
    """A seat's deal score minus the mean of the others' (what the ``hard`` level maximizes)."""
    n = len(scores)
    return scores[seat] - (sum(scores) - scores[seat]) / (n - 1)


def position(k: SeatKnowledge, world: World) -> Playout:
    """The current position of the deal in ``world`` (the play phase, or the first lead after a discard)."""
    melds = [0] * k.n
    for d in k.declarations:
        melds[d.seat] += d.points
    return Playout(
        hands=list(world.hands),
        leader=k.leader,
        trick=list(k.trick),
        trump=k.trump,
        declared=k.declared_suits,
        last_meld=k.declarations[-1].points if k.declarations else 0,
        melds=melds,
        card_pts=list(k.card_points),
        won=list(k.tricks_won),
        discard_pts=sum(CARD_POINTS[c] for c in cards_in(world.discards)),
        last_winner=k.tricks[-1].winner if k.tricks else -1,
    )


def fresh(g: Game, hands: list[int], declarer: int, discards: int) -> Playout:
    """A deal at its first lead: the declarer leads (V0.6d), nothing played, nothing declared."""
    n = g.n
    return Playout(
        hands, declarer, [], -1, 0, 0, [0] * n, [0] * n, [0] * n, sum(CARD_POINTS[c] for c in cards_in(discards)), -1
    )


def values_of(
    k: SeatKnowledge, judge: Callable[[list[int]], float] | None = None
) -> Callable[[World, list[int]], list[float]]:
    """The ``hard`` level's evaluation in the games of three and four: each move played out in a world
    with the heuristics for every seat (common random numbers), its score sheet valued by ``judge``
    (default ``objective`` for the seat)."""
    g = game_of(k.rules, k.totals, k.declarer, k.contract)
    value = judge if judge is not None else (lambda scores: objective(scores, k.seat))

    def values(world: World, moves: list[int]) -> list[float]:
        base = position(k, world)
        return [value(play_out(g, base.copy(), move)) for move in moves]

    return values
