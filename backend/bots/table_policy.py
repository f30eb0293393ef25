"""Fast heuristics and playouts for V2–V7 on bitmasks: the ``medium`` variant bot, and the playout
policy and evaluation of ``hard``.

The rules of play come from the engine's ``kernel`` (``obligation_mask``, ``winning_index``,
``beats``, ``declarable``) and the variant's data (``variants.Variant``); ``deal_scores`` writes a
finished deal's score as ``table_deal.table_deal_result`` does (V0.8, V2.9, V3.8, V4.9, V6, V7.9 —
tested against it). Every policy function sees only what a seat may see: its own hand, and
``unseen``, the cards still in the other hands (in a playout: their union, never who holds which).

A move is an int: the card, plus ``DECLARE`` (32) when the lead declares its suit (V0.5).
"""

from __future__ import annotations

from dataclasses import dataclass

from backend.engine.cards import CARD_POINTS, KING, QUEEN, SUIT_MASK, cards_in
from backend.engine.kernel import NO_TRUMP, Duty, beats, declarable, obligation_mask, winning_index
from backend.engine.variants import ScoringKind, TableRules

from .policy import DECLARE  # the move encoding shared with the two-hand bots

__all__ = [
    "DECLARE",
    "Game",
    "Playout",
    "choose_discard",
    "choose_follow",
    "choose_lead",
    "deal_scores",
    "discard_candidates",
    "game_of",
    "hand_estimate",
    "meld_suits",
    "play_out",
    "rounded_points",
]

CP = CARD_POINTS
JUNGFRAU = 100  # V6.1
JUNGFRAU_SIMPLIFIED = 10


@dataclass(frozen=True, slots=True)
class Game:
    """The constants of one deal that a playout needs, taken from the table rules and the public state."""

    n: int
    duty: Duty
    values: tuple[int, int, int, int]  # declaration values by suit (V0.5)
    ascending: bool  # V4.5
    needs_trick: bool  # R3 / V7.7 (not V4.6)
    may_meld: tuple[bool, ...]  # V7.7 per seat
    scoring_kind: ScoringKind
    simplified: bool  # V4.9
    jungfrau: bool  # V6
    declarer: int | None
    contract: int | None


def game_of(rules: TableRules, totals: tuple[int, ...], declarer: int | None, contract: int | None) -> Game:
    game = rules.game
    ban = game.meld_ban_below_target
    return Game(
        n=rules.n,
        duty=game.duty,
        values=game.declaration_values,
        ascending=game.melds_ascending,
        needs_trick=game.meld_needs_trick,
        may_meld=tuple(ban is None or t < rules.goal - ban for t in totals),  # V7.7, ruling V7.7a
        scoring_kind=game.scoring_kind,
        simplified=rules.scoring == "simplified",
        jungfrau=rules.jungfrau,
        declarer=declarer,
        contract=contract,
    )


def meld_suits(g: Game, seat: int, hand: int, declared: int, last_meld: int) -> tuple[int, ...]:
    """The suits ``seat`` (on lead) may declare: V0.5, V4.5 higher melds only, V7.7 no meld over 900."""
    if not g.may_meld[seat]:
        return ()
    suits = declarable(hand, declared)
    if g.ascending and last_meld:
        suits = tuple(s for s in suits if g.values[s] > last_meld)
    return suits


# ---------------------------------------------------------------- scoring


def rounded_points(g: Game, points: int, took_last: bool) -> int:
    kind = g.scoring_kind
    if kind == "nearest_ten":  # V2.9, ruling V2.9a
        return (points + 5) // 10 * 10
    if kind == "round_up":  # V3.8
        return -(-points // 10) * 10
    if kind == "thousand" and g.simplified:  # V4.9
        tens, rest = divmod(points, 10)
        return tens + (rest > 5 or (rest == 5 and took_last))
    return points


def deal_scores(
    g: Game, card_pts: list[int], melds: list[int], won: list[int], discard_pts: int, last_winner: int
) -> list[int]:
    """The score sheet of a finished deal (as ``table_deal_result(...).score``)."""
    out = []
    for s in range(g.n):
        points = card_pts[s] + (discard_pts if s == g.declarer else 0)
        if won[s] or not g.needs_trick:
            points += melds[s]
        written = rounded_points(g, points, s == last_winner)
        if s == g.declarer and g.contract is not None and points < g.contract:  # V0.8a on exact points
            written = written - g.contract if g.scoring_kind == "round_up" else -g.contract
        if g.jungfrau and not won[s] and s != g.declarer:  # V6.1, ruling V6.3
            written += JUNGFRAU_SIMPLIFIED if g.simplified else JUNGFRAU
        out.append(written)
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
    suits = meld_suits(g, seat, hand, declared, last_meld)
    if suits:
        pick = min(suits, key=lambda s: g.values[s]) if g.ascending else max(suits, key=lambda s: g.values[s])
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
    legal = obligation_mask(hand, trick[0], winning, trump, g.duty)
    cards = list(cards_in(legal))
    if len(cards) == 1:
        return cards[0]
    points = sum(CP[c] for c in trick)
    last = len(trick) == g.n - 1
    wins = beats(winning, trump) & legal
    wants_lead = bool(meld_suits(g, seat, hand, declared, last_meld))
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
                suit = c >> 3
                p.trump = suit
                p.declared |= 1 << suit
                p.melds[seat] += g.values[suit]
                p.last_meld = g.values[suit]
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
            winner = (p.leader + winning_index(trick, p.trump)) % n
            p.card_pts[winner] += sum(CP[x] for x in trick)
            p.won[winner] += 1
            p.leader = p.last_winner = winner
            trick.clear()
    return deal_scores(g, p.card_pts, p.melds, p.won, p.discard_pts, p.last_winner)


# ---------------------------------------------------------------- bidding and discarding


def hand_estimate(hand: int, values: tuple[int, ...], n: int, talon_size: int, may_meld: bool) -> int:
    """A quick guess of the deal points a declarer holding ``hand`` takes (before the talon): sure
    winners and their captures, guarded tens, marriages (the first one is sure — the declarer leads,
    V0.6d — the others need the lead back), long suits, and a share of the talon."""
    est = 0
    marriages = []
    for s in range(4):
        suit = hand & SUIT_MASK[s]
        if not suit:
            continue
        length = suit.bit_count()
        ace, ten = suit >> 8 * s & 1, suit >> 8 * s + 1 & 1
        if ace:
            est += 11 + 3 * (n - 1)
        if ten:
            est += 10 + 2 * (n - 1) if ace else (6 if length >= 3 else 2)
        king, queen = suit >> 8 * s + KING & 1, suit >> 8 * s + QUEEN & 1
        if king and queen and may_meld:
            marriages.append(values[s])
            est += 4
        else:
            est += 2 * (king + queen)
        if length >= 4:
            est += 6 * (length - 3)
    marriages.sort(reverse=True)
    for i, v in enumerate(marriages):
        est += v if i == 0 else v // 2
    est += 6 * talon_size
    return est


def _discard_value(c: int, hand: int, values: tuple[int, ...]) -> int:
    """How good it is to lay ``c`` away (V0.7: the discards count for the declarer)."""
    s = c >> 3
    suit = hand & SUIT_MASK[s]
    length = suit.bit_count()
    rank = c & 7
    has_ace = suit >> 8 * s & 1
    if rank in (KING, QUEEN) and hand >> (c ^ 1) & 1:
        return -200 - values[s]  # half of a marriage in hand
    if rank == 0:
        return -60 + (10 if length == 1 else 0)  # an ace wins its own trick
    if rank == 1:
        return -40 if has_ace else 30 - 4 * length  # an unguarded ten is banked rather than lost
    value = CP[c] * 3 + 12 - 3 * length  # low cards of short suits: void them
    if has_ace and length >= 3:
        value -= 10
    return value


def discard_candidates(hand: int, values: tuple[int, ...], limit: int) -> list[tuple[int, int]]:
    """The ``limit`` best pairs to discard by the heuristic, best first (voiding a suit is a bonus)."""
    cards = list(cards_in(hand))
    value = {c: _discard_value(c, hand, values) for c in cards}
    pairs = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            score = value[a] + value[b]
            if a >> 3 == b >> 3 and (hand & SUIT_MASK[a >> 3]).bit_count() == 2:
                score += 15  # the pair voids a suit
            pairs.append((score, a, b))
    pairs.sort(key=lambda t: -t[0])
    return [(a, b) for _, a, b in pairs[:limit]]


def choose_discard(hand: int, values: tuple[int, ...]) -> tuple[int, int]:
    return discard_candidates(hand, values, 1)[0]
