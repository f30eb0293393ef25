"""Computer players for the variants V2–V7 (RULES-VARIANTS.md): bidding, discarding and card play.

The server calls one function in its bot worker::

    from backend.bots.table_players import choose_table_action

    action = choose_table_action(level, view, events, random.Random(seed))
    # view: table_seat_view(match, seat); events: table_events_for_seat(...) of the current deal at least
    # -> Bid(amount) | Pass() | Discard(card_a, card_b) | Play(card, declare), legal for the view

Levels (the names of the two-hand bots):

* ``easy`` — a random legal action; it bids rarely (the lowest bid, 15% of its turns), discards two
  random cards, plays a random legal card and declares half the time it may.
* ``medium`` — heuristics (``table_policy``): bids the lowest legal amount while it is at most
  ``hand_estimate`` of its hand; discards the worst two (keeps marriages and guarded tens, banks
  unguarded tens, voids short suits); plays: declare on lead, cash masters, take tricks cheaply, throw low.
* ``hard`` — determinized Monte Carlo: every decision samples the hidden cards (``sample_world``:
  other hands, the untaken talon, another declarer's discards, consistently with the voids, duties and
  declarations seen) and plays each candidate out to the end of the deal with the ``medium`` policy
  in every world (common random numbers), maximizing its deal score minus the mean of the others'.
  Bidding: in each world the deal is played out once with this seat as declarer (medium's discard)
  and once as a defender (the other seat most likely to win the auction declares); the highest bid
  whose estimated make-probability is at least one half and whose expected score is at least that of
  passing is its limit; it bids the lowest legal amount while that is within the limit (a made contract
  scores the points taken, not the bid, V0.6c, so it never jumps). Discarding: the best ``discard_options``
  pairs of medium's heuristic, each played out in every world.
* There is no ``expert`` for the variants: its search (issue 14) is built for two-hand 1001.

A ``hard`` decision spends a fixed number of simulated card plays (``plies``), at least ``min_worlds``
worlds, and stops early at a deadline (``budget`` seconds by ``clock``): bounded time whatever the position.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from backend.engine.cards import CARD_POINTS, cards_in
from backend.engine.deal import Play
from backend.engine.table_deal import Bid, Discard, Pass, TableAction
from backend.engine.table_events import TableEvent
from backend.engine.table_view import TableSeatView

from .table_knowledge import TableKnowledge, World, sample_world, table_knowledge_from_view
from .table_policy import (
    DECLARE,
    Game,
    Playout,
    choose_discard,
    choose_follow,
    choose_lead,
    discard_candidates,
    game_of,
    hand_estimate,
    play_out,
    rounded_points,
)

__all__ = [
    "TABLE_LEVELS",
    "TableBot",
    "TableEasyBot",
    "TableHardBot",
    "TableMediumBot",
    "choose_table_action",
    "table_bot_for",
]

# No ``expert`` here: its deep search (issue 14) is for two-hand 1001; the lobby offers these.
TABLE_LEVELS = ("easy", "medium", "hard")


class TableBot(Protocol):
    level: str

    def choose(self, knowledge: TableKnowledge, rng: random.Random) -> TableAction: ...


def _require_turn(k: TableKnowledge) -> None:
    if k.turn != k.seat or k.phase not in ("auction", "discard", "play"):
        raise ValueError(f"it is not seat {k.seat}'s turn")
    if k.phase == "play" and not k.plays:
        raise ValueError("no legal play")


def _move(play: Play) -> int:
    return play.card | (DECLARE if play.declare else 0)


def _objective(scores: list[int], seat: int) -> float:
    """A seat's deal score minus the mean of the others' (what the hard bot maximizes)."""
    n = len(scores)
    return scores[seat] - (sum(scores) - scores[seat]) / (n - 1)


def _pairs(hand: int) -> list[tuple[int, int]]:
    cards = list(cards_in(hand))
    return [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]


def _game(k: TableKnowledge, declarer: int | None = None, contract: int | None = None) -> Game:
    if declarer is None:
        declarer, contract = k.declarer, k.contract
    return game_of(k.rules, k.totals, declarer, contract)


def _playout(k: TableKnowledge, world: World) -> Playout:
    """The current position of the deal in ``world`` (the play phase, or the first lead after a discard)."""
    melds = [0] * k.n
    for d in k.declarations:
        melds[d.seat] += d.points
    last_winner = k.tricks[-1].winner if k.tricks else -1
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
        last_winner=last_winner,
    )


def _fresh(g: Game, hands: list[int], declarer: int, discards: int) -> Playout:
    """A deal at its first lead: the declarer leads (V0.6d), nothing played, nothing declared."""
    n = g.n
    return Playout(
        hands, declarer, [], -1, 0, 0, [0] * n, [0] * n, [0] * n, sum(CARD_POINTS[c] for c in cards_in(discards)), -1
    )


class TableEasyBot:
    level = "easy"

    def choose(self, knowledge: TableKnowledge, rng: random.Random) -> TableAction:
        k = knowledge
        _require_turn(k)
        if k.phase == "auction":
            if k.bids and rng.random() < 0.15:
                return Bid(k.bids[0])
            return Pass()
        if k.phase == "discard":
            a, b = rng.choice(_pairs(k.hand))
            return Discard(a, b)
        declaring = [p for p in k.plays if p.declare]
        if declaring and rng.random() < 0.5:
            return rng.choice(declaring)
        return rng.choice([p for p in k.plays if not p.declare])


class TableMediumBot:
    level = "medium"

    def choose(self, knowledge: TableKnowledge, rng: random.Random) -> TableAction:
        k = knowledge
        _require_turn(k)
        g = _game(k)
        if k.phase == "auction":
            layout = k.rules.layout
            est = hand_estimate(k.hand, g.values, k.n, layout.talon_size, g.may_meld[k.seat])
            if k.bids and k.bids[0] <= est:
                return Bid(k.bids[0])
            return Pass()
        if k.phase == "discard":
            a, b = choose_discard(k.hand, g.values)
            return Discard(a, b)
        return self.play(k, g)

    @staticmethod
    def play(k: TableKnowledge, g: Game) -> Play:
        unseen = k.unseen
        last_meld = k.declarations[-1].points if k.declarations else 0
        if k.trick:
            move = choose_follow(g, k.seat, k.hand, list(k.trick), k.trump, k.declared_suits, last_meld, unseen)
        else:
            move = choose_lead(g, k.seat, k.hand, k.trump, k.declared_suits, last_meld, unseen)
        for p in k.plays:
            if _move(p) == move:
                return p
        return k.plays[0]  # never expected: the policy follows the same kernel as the engine


class TableHardBot:
    """Determinized Monte Carlo over the hidden cards for bids, discards and plays."""

    level = "hard"

    def __init__(
        self,
        plies: int = 12_000,
        min_worlds: int = 12,
        budget: float = 0.45,
        discard_options: int = 6,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.plies = plies
        self.min_worlds = min_worlds
        self.budget = budget
        self.discard_options = discard_options
        self.clock = clock

    def choose(self, knowledge: TableKnowledge, rng: random.Random) -> TableAction:
        k = knowledge
        _require_turn(k)
        deadline = self.clock() + self.budget
        if k.phase == "auction":
            return self._bid(k, rng, deadline)
        if k.phase == "discard":
            return self._discard(k, rng, deadline)
        if len(k.plays) == 1:
            return k.plays[0]
        return self._play(k, rng, deadline)

    def _worlds(self, k: TableKnowledge, options: int) -> int:
        remaining = sum(k.hand_counts) + len(k.trick)
        return max(self.min_worlds, self.plies // max(1, options * remaining))

    def _out_of_time(self, done: int, deadline: float) -> bool:
        return done >= 4 and self.clock() > deadline

    # ------------------------------------------------------------ card play

    def _play(self, k: TableKnowledge, rng: random.Random, deadline: float) -> Play:
        g = _game(k)
        moves = [_move(p) for p in k.plays]
        totals = [0.0] * len(moves)
        worlds = self._worlds(k, len(moves))
        for w in range(worlds):
            base = _playout(k, sample_world(k, rng))
            for i, move in enumerate(moves):
                totals[i] += _objective(play_out(g, base.copy(), move), k.seat)
            if self._out_of_time(w + 1, deadline):
                break
        best = max(range(len(moves)), key=lambda i: totals[i])
        return k.plays[best]

    # ------------------------------------------------------------ discarding (V0.7)

    def _discard(self, k: TableKnowledge, rng: random.Random, deadline: float) -> Discard:
        g = _game(k)
        options = discard_candidates(k.hand, g.values, self.discard_options)
        if len(options) == 1:
            return Discard(*options[0])
        totals = [0.0] * len(options)
        worlds = self._worlds(k, len(options))
        for w in range(worlds):
            world = sample_world(k, rng)
            for i, (a, b) in enumerate(options):
                pair = 1 << a | 1 << b
                hands = list(world.hands)
                hands[k.seat] = k.hand & ~pair
                totals[i] += _objective(play_out(g, _fresh(g, hands, k.seat, pair)), k.seat)
            if self._out_of_time(w + 1, deadline):
                break
        best = max(range(len(options)), key=lambda i: totals[i])
        return Discard(*options[best])

    # ------------------------------------------------------------ the auction (V0.6)

    def bid_limit(self, k: TableKnowledge, rng: random.Random, deadline: float) -> int | None:
        """The highest bid worth making (None: none), from playouts as declarer and as a defender."""
        if not k.bids:
            return None
        me, n = k.seat, k.n
        declaring = _game(k, me, None)
        values = declaring.values
        passed = {seat for seat, bid in k.calls if bid is None}
        high = max((bid for _, bid in k.calls if bid is not None), default=None)
        high_bidder = next((seat for seat, bid in reversed(k.calls) if bid is not None), None)
        minimum = k.rules.game.minimum_bid or 10
        talon_size = k.rules.layout.talon_size
        own: list[int] = []  # the declarer's exact deal points in each world
        own_score_rest: list[float] = []  # the mean of the others' scores when declaring
        pass_value: list[float] = []
        worlds = self._worlds(k, 2)
        for w in range(worlds):
            world = sample_world(k, rng)
            # this seat declares: takes the talon, discards by the heuristic, leads
            hands = list(world.hands)
            hands[me] |= world.talon
            a, b = choose_discard(hands[me], values)
            pair = 1 << a | 1 << b if talon_size else 0
            hands[me] &= ~pair
            p = _fresh(declaring, hands, me, pair)
            scores = play_out(declaring, p)
            points = p.card_pts[me] + p.discard_pts + (p.melds[me] if p.won[me] or not declaring.needs_trick else 0)
            own.append(points)
            own_score_rest.append((sum(scores) - scores[me]) / (n - 1))
            # this seat passes: the likeliest other seat declares (or the deal is thrown in)
            pass_value.append(self._pass_value(k, world, passed, high, high_bidder, minimum))
            if self._out_of_time(w + 1, deadline):
                break
        count = len(own)
        value_pass = sum(pass_value) / count
        limit = None
        for bid in k.bids:
            made = [d for d in own if d >= bid]
            if len(made) * 2 < count:
                break
            expected = 0.0
            for d, rest in zip(own, own_score_rest, strict=True):
                rounded = rounded_points(declaring, d, False)
                written = rounded if d >= bid else (rounded - bid if declaring.scoring_kind == "round_up" else -bid)
                expected += written - rest
            if expected / count < value_pass:
                break
            limit = bid
        return limit

    def _pass_value(
        self,
        k: TableKnowledge,
        world: World,
        passed: set[int],
        high: int | None,
        high_bidder: int | None,
        minimum: int,
    ) -> float:
        me, n = k.seat, k.n
        layout = k.rules.layout
        now = _game(k)
        best, best_est = None, -1
        for seat in range(n):
            if seat == me or seat in passed:
                continue
            est = hand_estimate(world.hands[seat], now.values, n, layout.talon_size, now.may_meld[seat])
            if seat == high_bidder:
                est = max(est, high or 0) + 1000  # it has bid: it stays in unless outbid
            if (est >= max(minimum, (high or 0) + 10) or seat == high_bidder) and est > best_est:
                best, best_est = seat, est
        if best is None:
            return 0.0  # ruling V0.6a: thrown in, nobody scores
        contract = max(minimum, high or minimum)
        g = _game(k, best, contract)
        hands = list(world.hands)
        hands[best] |= world.talon
        pair = 0
        if layout.talon_size:
            a, b = choose_discard(hands[best], g.values)
            pair = 1 << a | 1 << b
            hands[best] &= ~pair
        return _objective(play_out(g, _fresh(g, hands, best, pair)), me)

    def _bid(self, k: TableKnowledge, rng: random.Random, deadline: float) -> TableAction:
        limit = self.bid_limit(k, rng, deadline)
        if limit is not None and k.bids and k.bids[0] <= limit:
            return Bid(k.bids[0])
        return Pass()


_BOTS: dict[str, TableBot] = {
    "easy": TableEasyBot(),
    "medium": TableMediumBot(),
    "hard": TableHardBot(),
}


def table_bot_for(level: str) -> TableBot:
    """The variant bot of a level: ``easy``, ``medium`` or ``hard``."""
    try:
        return _BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(TABLE_LEVELS)}") from None


def choose_table_action(
    level: str, view: TableSeatView, events: Sequence[TableEvent], rng: random.Random
) -> TableAction:
    """The action of the ``level`` bot for the seat of ``view`` (whose turn it must be), decided from the
    view and the events that seat received only (V0.11). Legal for the view: apply it with
    ``apply_table_match(match, view.seat, action)``."""
    bot = table_bot_for(level)
    return bot.choose(table_knowledge_from_view(view, events), rng)
