"""The ``hard`` level of every game: determinized Monte Carlo from a seat's knowledge (``levels``
describes it). Its world source (``HardBot.worlds``) and its value of a score sheet (``HardBot.judge``)
are the points the games of three and four's ``expert`` (``expert.TableExpertBot``) changes."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence

from backend.engine import Action, Bid, Discard, Pass, Play
from backend.engine.deal import written_score

from . import play as table_play
from .bidding import choose_discard, discard_candidates, hand_estimate
from .knowledge import SeatKnowledge
from .play import DECLARE, Game, fresh, game_of, objective
from .twohand import sim as two_hand_sim
from .twohand.exact import solve
from .worlds import World, sample_world

__all__ = [
    "HardBot",
    "auction_so_far",
    "bid_sheet",
    "declaring_sheet",
    "discard_sheet",
    "game_for",
    "move_of",
    "pass_sheet",
    "require_turn",
]


def require_turn(k: SeatKnowledge) -> None:
    if k.turn != k.seat or k.phase not in ("auction", "discard", "play"):
        raise ValueError(f"it is not seat {k.seat}'s turn")
    if k.phase == "play" and not k.plays:
        raise ValueError("no legal play")


def move_of(play: Play) -> int:
    return play.card | (DECLARE if play.declare else 0)


def game_for(k: SeatKnowledge, declarer: int | None = None, contract: int | None = None) -> Game:
    if declarer is None:
        declarer, contract = k.declarer, k.contract
    return game_of(k.rules, k.totals, declarer, contract)


class HardBot:
    """Determinized Monte Carlo over the hidden cards for bids, discards and plays; the search core's
    exact values once a two-hand stock is empty."""

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
        require_turn(k)
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

    def worlds(self, k: SeatKnowledge, rng: random.Random, count: int) -> Iterator[World]:
        """The worlds a decision plays out, drawn one by one as they are needed: uniform over the deals
        consistent with ``k`` (``sample_world``). The expert draws them by the evidence instead."""
        for _ in range(count):
            yield sample_world(k, rng)

    def judge(self, k: SeatKnowledge, scores: list[int]) -> float:
        """The value to ``k``'s seat of a deal scored ``scores``: its score minus the mean of the others'."""
        return objective(scores, k.seat)

    # ------------------------------------------------------------ card play

    def _play(self, k: SeatKnowledge, rng: random.Random, deadline: float | None) -> Play:
        moves = [move_of(p) for p in k.plays]
        values: Callable[[World, list[int]], Sequence[float]] = (
            two_hand_sim.values_of(k) if k.rules.two_hand else table_play.values_of(k, lambda s: self.judge(k, s))
        )
        totals = [0.0] * len(moves)
        for w, world in enumerate(self.worlds(k, rng, self._worlds(k, len(moves)))):
            for i, value in enumerate(values(world, moves)):
                totals[i] += value
            if self._out_of_time(w + 1, deadline):
                break
        best = max(range(len(moves)), key=lambda i: totals[i])
        return k.plays[best]

    # ------------------------------------------------------------ discarding (V0.7)

    def _discard(self, k: SeatKnowledge, rng: random.Random, deadline: float | None) -> Discard:
        g = game_for(k)
        options = discard_candidates(k.hand, g.values, self.discard_options)
        if len(options) == 1:
            return Discard(*options[0])
        totals = [0.0] * len(options)
        for w, world in enumerate(self.worlds(k, rng, self._worlds(k, len(options)))):
            for i, (a, b) in enumerate(options):
                totals[i] += self.judge(k, discard_sheet(g, k, world, 1 << a | 1 << b))
            if self._out_of_time(w + 1, deadline):
                break
        best = max(range(len(options)), key=lambda i: totals[i])
        return Discard(*options[best])

    # ------------------------------------------------------------ the auction (V0.6)

    def bid_limit(self, k: SeatKnowledge, rng: random.Random, deadline: float | None) -> int | None:
        """The highest bid worth making (None: none), from playouts as declarer and as a defender."""
        if not k.bids:
            return None
        declaring = game_for(k, k.seat, None)
        passed, high, high_bidder, minimum = auction_so_far(k)
        own: list[int] = []  # the declarer's exact deal points in each world
        sheets: list[list[int]] = []  # the score sheet when declaring (this seat's entry rewritten per bid)
        pass_value: list[float] = []
        for w, world in enumerate(self.worlds(k, rng, self._worlds(k, 2))):
            points, scores = declaring_sheet(declaring, k, world)
            own.append(points)
            sheets.append(scores)
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
            for d, sheet in zip(own, sheets, strict=True):
                expected += self.judge(k, bid_sheet(k, d, sheet, bid))
            if expected / count < value_pass:
                break
            limit = bid
        return limit

    def _bid(self, k: SeatKnowledge, rng: random.Random, deadline: float | None) -> Action:
        limit = self.bid_limit(k, rng, deadline)
        if limit is not None and k.bids and k.bids[0] <= limit:
            return Bid(k.bids[0])
        return Pass()

    def _pass_value(
        self,
        k: SeatKnowledge,
        world: World,
        passed: set[int],
        high: int | None,
        high_bidder: int | None,
        minimum: int,
    ) -> float:
        return self.judge(k, pass_sheet(k, world, passed, high, high_bidder, minimum))


def auction_so_far(k: SeatKnowledge) -> tuple[set[int], int | None, int | None, int]:
    """The auction as ``pass_sheet`` reads it (V0.6): the seats that passed, the high bid and its bidder
    (None before the first bid), and the game's lowest contract."""
    passed = {seat for seat, bid in k.calls if bid is None}
    high = max((bid for _, bid in k.calls if bid is not None), default=None)
    high_bidder = next((seat for seat, bid in reversed(k.calls) if bid is not None), None)
    return passed, high, high_bidder, k.rules.game.minimum_bid or 10


def pass_sheet(
    k: SeatKnowledge, world: World, passed: set[int], high: int | None, high_bidder: int | None, minimum: int
) -> list[int]:
    """The score sheet of ``world`` if ``k``'s seat passes (``HardBot``'s model of the others' auction):
    the likeliest other seat declares at the lowest contract it must reach, discards by the heuristic
    and the deal is played out; all zeros if nobody would (ruling V0.6a: thrown in)."""
    me, n = k.seat, k.n
    layout = k.rules.layout
    now = game_for(k)
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
        return [0] * n  # ruling V0.6a: thrown in, nobody scores
    contract = max(minimum, high or minimum)
    g = game_for(k, best, contract)
    hands = list(world.hands)
    hands[best] |= world.talon
    pair = 0
    if layout.talon_size:
        a, b = choose_discard(hands[best], g.values)
        pair = 1 << a | 1 << b
        hands[best] &= ~pair
    return table_play.play_out(g, fresh(g, hands, best, pair))


def declaring_sheet(declaring: Game, k: SeatKnowledge, world: World) -> tuple[int, list[int]]:
    """``k``'s seat declares in ``world`` (``declaring``: its game as declarer): it takes the talon,
    discards by the heuristic (V0.7) and leads (V0.6d); the deal played out. Returns its exact deal
    points (discards and counted melds included, V0.8a) and the score sheet."""
    me = k.seat
    hands = list(world.hands)
    hands[me] |= world.talon
    a, b = choose_discard(hands[me], declaring.values)
    pair = 1 << a | 1 << b if k.rules.layout.talon_size else 0
    hands[me] &= ~pair
    p = fresh(declaring, hands, me, pair)
    scores = table_play.play_out(declaring, p)
    melds = p.melds[me] if p.won[me] or not declaring.variant.meld_needs_trick else 0
    return p.card_pts[me] + p.discard_pts + melds, scores


def bid_sheet(k: SeatKnowledge, points: int, sheet: list[int], bid: int) -> list[int]:
    """A declaring ``sheet`` (``declaring_sheet``) with ``k``'s seat written for contract ``bid`` on its
    exact deal ``points`` (V0.8, ruling V0.8a)."""
    written = written_score(k.rules, points, took_last=False, took_trick=True, declarer=True, contract=bid)
    return [written if s == k.seat else sheet[s] for s in range(k.n)]


def discard_sheet(g: Game, k: SeatKnowledge, world: World, pair: int) -> list[int]:
    """The score sheet of ``world`` once ``k``'s seat, the declarer, lays ``pair`` away (V0.7) and leads."""
    hands = list(world.hands)
    hands[k.seat] = k.hand & ~pair
    return table_play.play_out(g, fresh(g, hands, k.seat, pair))
