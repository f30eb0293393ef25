"""The computer's levels, for every game of the family. Each decides from a ``SeatKnowledge`` only,
synchronously and purely; all randomness comes from the ``rng`` argument.

* ``easy`` — a random legal action: it bids rarely (the lowest bid, 15% of its turns), discards two
  random cards, plays a random legal card and declares half the time it may (R3, V0.5).
* ``medium`` — heuristics per phase: bids the lowest legal amount while it is at most the
  ``bidding.hand_estimate`` of its hand; discards the worst two (keeps marriages and guarded tens,
  banks unguarded tens, voids short suits); plays by ``play`` (the games of three and four: declare
  on lead, cash masters, take tricks cheaply, throw low) or ``twohand.policy`` (two-hand 1001: keep
  the lead in phase 1, take aces and tens cheaply, count trumps and cash sure winners in phase 2).
* ``hard`` — determinized Monte Carlo: every decision samples the hidden cards (``worlds``) and plays
  each candidate out to the end of the deal in every world; once a two-hand stock is empty (R4 phase
  2: perfect information) the exact endgame solver. Bidding: in each world the deal is played out
  once with this seat as declarer (medium's discard) and once as a defender; the highest bid whose
  estimated make-probability is at least one half and whose expected score is at least that of
  passing is its limit, and it bids the lowest legal amount within it (a made contract scores the
  points taken, not the bid, V0.6c). Discarding: the best ``discard_options`` pairs of medium's
  heuristic, each played out in every world.
* ``expert`` — two-hand 1001 only (``twohand.expert``): a deep search in every sampled world.

A ``hard`` decision spends a fixed number of simulated card plays (``plies``), at least ``min_worlds``
worlds, and — in the games of three and four — stops early at a deadline (``budget`` seconds by
``clock``): bounded time whatever the position.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from backend.engine import Action, Bid, Discard, Event, Pass, Play, Rules, SeatView
from backend.engine.cards import cards_in
from backend.engine.deal import written_score

from . import play as table_play
from .bidding import choose_discard, discard_candidates, hand_estimate
from .knowledge import SeatKnowledge, knowledge_from_view
from .play import DECLARE, Game, fresh, game_of, objective
from .twohand import policy as two_hand_play
from .twohand import sim as two_hand_sim
from .twohand.expert import ExpertBot
from .twohand.solver import solve
from .worlds import World, sample_world

__all__ = ["LEVELS", "Bot", "EasyBot", "HardBot", "MediumBot", "bot_for", "choose", "choose_for_view", "levels_for"]

LEVELS = ("easy", "medium", "hard", "expert")


class Bot(Protocol):
    level: str

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action: ...


def _require_turn(k: SeatKnowledge) -> None:
    if k.turn != k.seat or k.phase not in ("auction", "discard", "play"):
        raise ValueError(f"it is not seat {k.seat}'s turn")
    if k.phase == "play" and not k.plays:
        raise ValueError("no legal play")


def _move(play: Play) -> int:
    return play.card | (DECLARE if play.declare else 0)


def _pairs(hand: int) -> list[tuple[int, int]]:
    cards = list(cards_in(hand))
    return [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]


def _game(k: SeatKnowledge, declarer: int | None = None, contract: int | None = None) -> Game:
    if declarer is None:
        declarer, contract = k.declarer, k.contract
    return game_of(k.rules, k.totals, declarer, contract)


class EasyBot:
    level = "easy"

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
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


class MediumBot:
    level = "medium"

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        k = knowledge
        _require_turn(k)
        g = _game(k)
        if k.phase == "auction":
            est = hand_estimate(k.hand, g.values, k.n, k.rules.layout.talon_size, g.may_meld[k.seat])
            if k.bids and k.bids[0] <= est:
                return Bid(k.bids[0])
            return Pass()
        if k.phase == "discard":
            a, b = choose_discard(k.hand, g.values)
            return Discard(a, b)
        return self.play(k, g)

    @staticmethod
    def play(k: SeatKnowledge, g: Game) -> Play:
        unseen = k.unseen
        if k.rules.two_hand:  # the stock's own heuristics (R4 phase 1 and 2)
            if k.trick:
                card = two_hand_play.choose_follow(k.hand, k.trick[0], k.trump, k.declared_suits, k.stock_count, unseen)
                return Play(card)
            move = two_hand_play.choose_lead(k.hand, k.trump, k.declared_suits, k.stock_count, unseen, k.rules.by_suit)
            return Play(move & 31, bool(move & DECLARE))
        last_meld = k.declarations[-1].points if k.declarations else 0
        if k.trick:
            move = table_play.choose_follow(
                g, k.seat, k.hand, list(k.trick), k.trump, k.declared_suits, last_meld, unseen
            )
        else:
            move = table_play.choose_lead(g, k.seat, k.hand, k.trump, k.declared_suits, last_meld, unseen)
        for p in k.plays:
            if _move(p) == move:
                return p
        return k.plays[0]  # never expected: the policy follows the same kernel as the engine


class HardBot:
    """Determinized Monte Carlo over the hidden cards for bids, discards and plays; the exact solver
    once a two-hand stock is empty."""

    level = "hard"

    def __init__(
        self,
        plies: int,
        min_worlds: int,
        budget: float | None,
        discard_options: int = 6,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.plies = plies
        self.min_worlds = min_worlds
        self.budget = budget
        self.discard_options = discard_options
        self.clock = clock

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        k = knowledge
        _require_turn(k)
        deadline = None if self.budget is None else self.clock() + self.budget
        if k.phase == "auction":
            return self._bid(k, rng, deadline)
        if k.phase == "discard":
            return self._discard(k, rng, deadline)
        if len(k.plays) == 1:
            return k.plays[0]
        if k.rules.two_hand and not k.stock_count:
            return solve(k)  # R4 phase 2: perfect information
        return self._play(k, rng, deadline)

    def _worlds(self, k: SeatKnowledge, options: int) -> int:
        remaining = sum(k.hand_counts) + k.stock_count + len(k.trick)
        return max(self.min_worlds, self.plies // max(1, options * remaining))

    def _out_of_time(self, done: int, deadline: float | None) -> bool:
        return deadline is not None and done >= 4 and self.clock() > deadline

    # ------------------------------------------------------------ card play

    def _play(self, k: SeatKnowledge, rng: random.Random, deadline: float | None) -> Play:
        moves = [_move(p) for p in k.plays]
        values: Callable[[World, list[int]], Sequence[float]] = (
            two_hand_sim.values_of(k) if k.rules.two_hand else table_play.values_of(k)
        )
        totals = [0.0] * len(moves)
        for w in range(self._worlds(k, len(moves))):
            for i, value in enumerate(values(sample_world(k, rng), moves)):
                totals[i] += value
            if self._out_of_time(w + 1, deadline):
                break
        best = max(range(len(moves)), key=lambda i: totals[i])
        return k.plays[best]

    # ------------------------------------------------------------ discarding (V0.7)

    def _discard(self, k: SeatKnowledge, rng: random.Random, deadline: float | None) -> Discard:
        g = _game(k)
        options = discard_candidates(k.hand, g.values, self.discard_options)
        if len(options) == 1:
            return Discard(*options[0])
        totals = [0.0] * len(options)
        for w in range(self._worlds(k, len(options))):
            world = sample_world(k, rng)
            for i, (a, b) in enumerate(options):
                pair = 1 << a | 1 << b
                hands = list(world.hands)
                hands[k.seat] = k.hand & ~pair
                totals[i] += objective(table_play.play_out(g, fresh(g, hands, k.seat, pair)), k.seat)
            if self._out_of_time(w + 1, deadline):
                break
        best = max(range(len(options)), key=lambda i: totals[i])
        return Discard(*options[best])

    # ------------------------------------------------------------ the auction (V0.6)

    def bid_limit(self, k: SeatKnowledge, rng: random.Random, deadline: float | None) -> int | None:
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
        for w in range(self._worlds(k, 2)):
            world = sample_world(k, rng)
            # this seat declares: takes the talon, discards by the heuristic, leads
            hands = list(world.hands)
            hands[me] |= world.talon
            a, b = choose_discard(hands[me], values)
            pair = 1 << a | 1 << b if talon_size else 0
            hands[me] &= ~pair
            p = fresh(declaring, hands, me, pair)
            scores = table_play.play_out(declaring, p)
            melds = p.melds[me] if p.won[me] or not declaring.variant.meld_needs_trick else 0
            own.append(p.card_pts[me] + p.discard_pts + melds)
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
                written = written_score(k.rules, d, took_last=False, took_trick=True, declarer=True, contract=bid)
                expected += written - rest
            if expected / count < value_pass:
                break
            limit = bid
        return limit

    def _pass_value(
        self,
        k: SeatKnowledge,
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
        return objective(table_play.play_out(g, fresh(g, hands, best, pair)), me)

    def _bid(self, k: SeatKnowledge, rng: random.Random, deadline: float | None) -> Action:
        limit = self.bid_limit(k, rng, deadline)
        if limit is not None and k.bids and k.bids[0] <= limit:
            return Bid(k.bids[0])
        return Pass()


# The levels of every game: two-hand 1001 has its own hard budget (no deadline: its playouts are short)
# and the expert's search; the games of three and four think to a deadline.
_TWO_HAND: dict[str, Bot] = {
    "easy": EasyBot(),
    "medium": MediumBot(),
    "hard": HardBot(plies=20_000, min_worlds=24, budget=None),
    "expert": ExpertBot(),
}
_OTHERS: dict[str, Bot] = {
    "easy": EasyBot(),
    "medium": MediumBot(),
    "hard": HardBot(plies=12_000, min_worlds=12, budget=0.45),
}


def levels_for(rules: Rules) -> tuple[str, ...]:
    """The levels the computer plays a game at: ``expert`` only in two-hand 1001."""
    return tuple(_TWO_HAND if rules.two_hand else _OTHERS)


def bot_for(level: str, rules: Rules) -> Bot:
    """The bot of a level for a game (``levels_for``)."""
    bots = _TWO_HAND if rules.two_hand else _OTHERS
    try:
        return bots[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(bots)}") from None


def choose(level: str, knowledge: SeatKnowledge, rng: random.Random) -> Action:
    """The action of the ``level`` bot for the seat of ``knowledge`` (whose turn it must be)."""
    return bot_for(level, knowledge.rules).choose(knowledge, rng)


def choose_for_view(level: str, view: SeatView, events: Sequence[Event], rng: random.Random) -> Action:
    """The action of the ``level`` bot for the seat of ``view``, decided from the view and the events that
    seat received only (R7, V0.11): legal for the view."""
    return choose(level, knowledge_from_view(view, events), rng)
