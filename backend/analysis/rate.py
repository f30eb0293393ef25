"""The rater (issue 26): every decision of a finished deal valued from what its player knew.

``rate`` observes the true position only as the deciding seat (``bots.observe`` of the state before
the action, with the match totals before the deal) and from then on reads that ``SeatKnowledge``
alone, never the hidden cards: the worlds it averages over are drawn from the knowledge
(``worlds.sample_world``, uniform — no inference from the others' play, so a rating does not change
when the hidden cards are dealt otherwise in a way the seat could not tell apart).

Each candidate action's value is the expected *written deal score of every seat* (the deal's line on
the score sheet, R5 / V0.9, what is already taken in the deal included), by the bots' own machinery:

* two-hand 1001, stock empty (R4 phase 2: perfect information): the search core's exact value of
  every legal card (``twohand.exact``), one world, exact;
* two-hand 1001, phase 1: every consistent world when there are few (``ExpertBot.all_worlds``), else
  ``Budget.two_hand_worlds`` sampled ones, each solved to the end of the deal by the expert's search
  (``ExpertBot.world_scores`` on ``backend.search``) within a budget of search nodes, never of time (a
  world not solved within it keeps its playout's scores); exact when every world was enumerated and solved;
* the games of three and four (V2–V7): ``Budget.table_worlds`` sampled worlds, each candidate played out to
  the end with the ``medium`` heuristics for every seat (``bots.play``): cards (every legal play, a
  declaring lead and the plain lead of the same card apart, V0.5), discards (``bidding``'s best pairs
  and the pair taken, V0.7) and calls (pass, the bid taken, the lowest bids — a bid valued as this
  seat declaring at that contract, a pass by ``hard``'s model of the others' auction, V0.6); the last
  tricks of card play exactly when every consistent world can be listed and searched to the end
  (``endgame``: max^n within a node budget).

Two-hand searches count a score *difference* to come; it is turned into both seats' deal points by
``twohand.expert.final_points`` (the difference exact, the split from the deal's points so far, R3:
a seat's declarations count once it takes a trick). The best action is the one with the highest edge
(``model.points_given_away``), the action taken on ties — and, from sampled worlds, only one better
than the taken beyond the sampling noise (``NOISE_Z``). Everything is deterministic for a seed: fixed
world counts and node budgets.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from backend.bots.bidding import discard_candidates
from backend.bots.hard import (
    auction_so_far,
    bid_sheet,
    declaring_sheet,
    discard_sheet,
    game_for,
    move_of,
    pass_sheet,
)
from backend.bots.knowledge import SeatKnowledge, observe
from backend.bots.play import Game, objective, play_out, position
from backend.bots.twohand.exact import phase_two_values
from backend.bots.twohand.expert import ExpertBot, counted, final_points
from backend.bots.worlds import sample_world
from backend.engine import Action, Bid, DealState, Discard, Pass, apply_deal

from . import endgame
from .model import ANALYSIS_VERSION, DealAnalysis, Decision, Rating, points_given_away

__all__ = [
    "DEFAULT_BUDGET",
    "Budget",
    "decisions",
    "rate",
    "summarize",
]

NOISE_Z = 2.0  # a sampled candidate is "better" only beyond this many standard errors (``_rating``)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one rating does: fixed counts, never a time, so that a rating is the same on any
    machine under any load (the defaults: a two-hand deal in about 2.5 s of CPU, 4 s with V1's 32 cards,
    one of three or four in 0.5–2.5 s; bench/analysis.py)."""

    table_worlds: int = 40  # sampled worlds of a decision in the games of three and four
    two_hand_worlds: int = 12  # sampled worlds of a two-hand phase-1 decision whose worlds are too many to take all
    enumerate_limit: int = 150  # two-hand phase 1: take every consistent world when there are at most this many
    search_reads: int = 24  # two-hand phase 1: the search's budget in readings of its node counter (16384 nodes each)
    exact_reads: int = 200  # ... when every world is taken (late in phase 1): enough to solve each to the end
    exact_tricks: int = 4  # three and four: the last tricks searched exactly in every world (``endgame``)...
    exact_worlds: int = 400  # ... when there are at most this many worlds
    exact_nodes: int = 400_000  # ... and their searches together take at most this many positions
    discard_options: int = 12  # discard pairs rated besides the one taken (the table expert's count)
    low_bids: int = 4  # the lowest legal bids rated besides pass and the bid taken


DEFAULT_BUDGET = Budget()

Scores = tuple[float, ...]  # a deal's written score per seat (expected, or in one world)
# Every candidate with its score sheet in each world (the same worlds for all), and whether they are exact:
# every world the seat could not tell apart, each searched to the end.
Valued = tuple[list[tuple[Action, list[Scores]]], bool]


def decisions(start: DealState, plays: Sequence[tuple[int, Action]]) -> list[Decision]:
    """Every action of a deal (``ReplayDeal.start`` / ``.plays``), in order, with the position before it."""
    out: list[Decision] = []
    state = start
    for step, (seat, action) in enumerate(plays, start=1):
        out.append(Decision(step, seat, state, action, start.totals))
        state, _ = apply_deal(state, seat, action)
    return out


def summarize(n: int, ratings: Sequence[Rating]) -> DealAnalysis:
    """A deal's analysis: its ratings and the points each of the ``n`` seats gave away in it."""
    given = [0.0] * n
    for r in ratings:
        given[r.seat] += r.given_away
    return DealAnalysis(ANALYSIS_VERSION, tuple(ratings), tuple(given))


def rate(decision: Decision, seed: int, budget: Budget = DEFAULT_BUDGET) -> Rating:
    """Rate ``decision`` from what its seat knew (module docstring); deterministic for ``seed`` (and
    ``budget``: the work it may do)."""
    k = observe(decision.state, decision.seat, decision.totals)
    taken = decision.action
    if _choices(k) == 1:
        zero = (0.0,) * k.n
        return Rating(decision.step, decision.seat, taken, taken, zero, zero, 0.0, False, 0, True)
    rng = random.Random(seed)
    if k.phase == "auction":
        valued = _auction(k, taken, rng, budget)
    elif k.phase == "discard":
        valued = _discard(k, taken, rng, budget)
    elif k.rules.two_hand:
        valued = _two_hand_play(k, rng, budget)
        if valued[1] and k.rules.jungfrau and not all(k.tricks_won):
            valued = valued[0], False  # V6: the searches do not count the bonus of a seat that takes no trick
    else:
        valued = _table_play(k, rng, budget)
    return _rating(decision, k.n, *valued)


def _choices(k: SeatKnowledge) -> int:
    """How many actions the seat had (V0.6: pass or any legal bid; V0.7: any pair; else its plays)."""
    if k.phase == "auction":
        return 1 + len(k.bids)
    if k.phase == "discard":
        return k.hand.bit_count() * (k.hand.bit_count() - 1) // 2
    return len(k.plays)


def _rating(decision: Decision, n: int, values: list[tuple[Action, list[Scores]]], exact: bool) -> Rating:
    """The best of the candidates ``values`` (the taken action among them) against the one taken: the
    highest expected edge; when the worlds are a sample, only one better than the taken by more than
    ``NOISE_Z`` standard errors of the paired difference over the worlds (a sampled figure better by
    chance marks nothing)."""
    seat = decision.seat
    taken = decision.action
    taken_rows = next(rows for action, rows in values if _same(action, taken))
    taken_scores = _mean(taken_rows)
    best, best_scores, given = taken, taken_scores, 0.0
    for action, rows in values:
        scores = _mean(rows)
        gain = points_given_away(n, scores, taken_scores, seat)
        if gain > given and (exact or _significant(rows, taken_rows, seat)):
            best, best_scores, given = action, scores, gain
    worlds = len(taken_rows)
    return Rating(decision.step, seat, taken, best, taken_scores, best_scores, given, exact, worlds, False)


def _significant(rows: list[Scores], taken_rows: list[Scores], seat: int) -> bool:
    """The edge of ``rows`` over ``taken_rows``, world by world, is above zero by ``NOISE_Z`` standard errors."""
    gains = [objective(a, seat) - objective(b, seat) for a, b in zip(rows, taken_rows, strict=True)]
    if len(gains) < 2:
        return True
    return statistics.fmean(gains) > NOISE_Z * statistics.stdev(gains) / math.sqrt(len(gains))


def _same(a: Action, b: Action) -> bool:
    """The same action (a discard is a pair, in either order)."""
    if isinstance(a, Discard) and isinstance(b, Discard):
        return {a.card_a, a.card_b} == {b.card_a, b.card_b}
    return a == b


def _mean(rows: list[Scores]) -> Scores:
    """The expected score sheet over equally likely worlds."""
    return tuple(sum(column) / len(rows) for column in zip(*rows, strict=True))


# ---------------------------------------------------------------- two-hand 1001 (R4)


class _Counter:
    """A clock that counts its readings: the search's budget in nodes (``backend.search.Solver`` reads it
    every ``SLICE_NODES`` nodes), so that a rating never depends on the machine's speed."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


def _two_hand_scores(k: SeatKnowledge, to_come: float) -> Scores:
    """Both seats' deal points once the rest of the deal goes ``to_come`` points the seat's way (R5: the
    written score of two-hand 1001 is its exact deal points)."""
    out = [0.0, 0.0]
    out[k.seat], out[k.opponent] = final_points(counted(k), to_come)
    return tuple(out)


def _two_hand_play(k: SeatKnowledge, rng: random.Random, budget: Budget) -> Valued:
    plays = list(k.plays)
    if not k.stock_count:  # R4 phase 2: perfect information, the solver's exact values
        solved = phase_two_values(k)
        return [(p, [_two_hand_scores(k, solved[p])]) for p in plays], True
    clock = _Counter()
    bot = ExpertBot(clock=clock, infer=False)
    every = bot.all_worlds(k, budget.enumerate_limit)
    if every is not None:
        worlds, reads = every, budget.exact_reads
    else:
        sampled = [sample_world(k, rng) for _ in range(budget.two_hand_worlds)]
        worlds, reads = [(w.hands[k.opponent], w.stock) for w in sampled], budget.search_reads
    moves = [move_of(p) for p in plays]
    scores, solved_worlds = bot.world_scores(k, moves, worlds, clock() + reads)
    exact = every is not None and all(solved_worlds)  # every world solved to the end
    values: list[tuple[Action, list[Scores]]] = [
        (p, [_two_hand_scores(k, row[move]) for row in scores]) for p, move in zip(plays, moves, strict=True)
    ]
    return values, exact


# ---------------------------------------------------------------- the games of three and four (V2–V7)


def _table_play(k: SeatKnowledge, rng: random.Random, budget: Budget) -> Valued:
    g = game_for(k)
    moves = [move_of(p) for p in k.plays]
    exact = _table_endgame(k, g, moves, budget)
    if exact is not None:
        return exact
    rows: list[list[Scores]] = [[] for _ in moves]
    for _ in range(budget.table_worlds):
        base = position(k, sample_world(k, rng))
        for i, move in enumerate(moves):
            rows[i].append(_floats(play_out(g, base.copy(), move)))
    return list(zip(k.plays, rows, strict=True)), False


def _table_endgame(k: SeatKnowledge, g: Game, moves: list[int], budget: Budget) -> Valued | None:
    """The last tricks exactly (``endgame``): every world, each searched to the end; None when the worlds
    are too many or the searches would take more than the budget's nodes."""
    if k.hand.bit_count() > budget.exact_tricks:
        return None
    worlds = endgame.all_worlds(k, budget.exact_worlds)
    if not worlds:
        return None
    # The first world tells whether all of them fit: it may take its share of the nodes, no more.
    search = endgame.MaxN(g, budget.exact_nodes // len(worlds))
    rows: list[list[Scores]] = [[] for _ in moves]
    try:
        for world in worlds:
            base = position(k, world)
            for i, move in enumerate(moves):
                rows[i].append(_floats(search.scores(search.after(base, move))))
            search.limit = budget.exact_nodes
    except endgame.OutOfNodes:
        return None
    return list(zip(k.plays, rows, strict=True)), True


def _discard(k: SeatKnowledge, taken: Action, rng: random.Random, budget: Budget) -> Valued:
    g = game_for(k)
    options: list[Action] = [Discard(a, b) for a, b in discard_candidates(k.hand, g.values, budget.discard_options)]
    if not any(_same(o, taken) for o in options):
        options.append(taken)
    pairs = [1 << o.card_a | 1 << o.card_b for o in options if isinstance(o, Discard)]
    rows: list[list[Scores]] = [[] for _ in options]
    for _ in range(budget.table_worlds):
        world = sample_world(k, rng)
        for i, pair in enumerate(pairs):
            rows[i].append(_floats(discard_sheet(g, k, world, pair)))
    return list(zip(options, rows, strict=True)), False


def _auction(k: SeatKnowledge, taken: Action, rng: random.Random, budget: Budget) -> Valued:
    bids = list(k.bids[: budget.low_bids])
    if isinstance(taken, Bid) and taken.amount not in bids:
        bids.append(taken.amount)
    declaring = game_for(k, k.seat, None)
    passed, high, high_bidder, minimum = auction_so_far(k)
    pass_rows: list[Scores] = []
    bid_rows: list[list[Scores]] = [[] for _ in bids]
    for _ in range(budget.table_worlds):
        world = sample_world(k, rng)
        points, sheet = declaring_sheet(declaring, k, world)
        for i, bid in enumerate(bids):
            bid_rows[i].append(_floats(bid_sheet(k, points, sheet, bid)))
        pass_rows.append(_floats(pass_sheet(k, world, passed, high, high_bidder, minimum)))
    values: list[tuple[Action, list[Scores]]] = [(Pass(), pass_rows)]
    values += [(Bid(b), rows) for b, rows in zip(bids, bid_rows, strict=True)]
    return values, False


def _floats(sheet: list[int]) -> Scores:
    return tuple(float(s) for s in sheet)
