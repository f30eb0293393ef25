"""The rater (issue 26): every decision of a finished deal valued from what its player knew.

``rate`` observes the true position only as the deciding seat (``bots.observe`` of the state before
the action, with the match totals before the deal) and from then on reads that ``SeatKnowledge``
alone, never the hidden cards: the worlds it averages over are drawn from the knowledge
(``worlds.sample_world``, uniform — no inference from the others' play, so a rating does not change
when the hidden cards are dealt otherwise in a way the seat could not tell apart).

Each candidate action's value is the expected *written deal score of every seat* (the deal's line on
the score sheet, R5 / V0.9, what is already taken in the deal included), by the bots' own machinery:

* two-hand 1001, stock empty (R4 phase 2: perfect information): the endgame solver's exact value of
  every legal card (``twohand.solver``), one world, exact;
* two-hand 1001, phase 1: every consistent world when there are few (``ExpertBot.all_worlds``), else
  ``TWO_HAND_WORLDS`` sampled ones, each searched by the expert's iterative deepening
  (``ExpertBot.world_scores``: ``deep.DealSearch``, exact to the end of the deal at full depth) within
  a budget of search nodes, never of time; exact when every world was enumerated and searched to the end;
* the games of three and four (V2–V7): ``TABLE_WORLDS`` sampled worlds, each candidate played out to
  the end with the ``medium`` heuristics for every seat (``bots.play``): cards (every legal play, a
  declaring lead and the plain lead of the same card apart, V0.5), discards (``bidding``'s best pairs
  and the pair taken, V0.7) and calls (pass, the bid taken, the lowest bids — a bid valued as this
  seat declaring at that contract, a pass by ``hard``'s model of the others' auction, V0.6).

Two-hand searches count a score *difference* to come; it is turned into both seats' deal points by
``twohand.expert.final_points`` (the difference exact, the split from the deal's points so far, R3:
a seat's declarations count once it takes a trick). The best action is the one with the highest edge
(``model.points_given_away``), the action taken on ties. Everything is deterministic for a seed: fixed
world counts and node budgets.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

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
from backend.bots.play import play_out, position
from backend.bots.twohand import solver
from backend.bots.twohand.expert import ExpertBot, counted, final_points
from backend.bots.worlds import sample_world
from backend.engine import Action, Bid, DealState, Discard, Pass, apply_deal

from .model import ANALYSIS_VERSION, DealAnalysis, Decision, Rating, points_given_away

__all__ = [
    "DISCARD_OPTIONS",
    "ENUMERATE_LIMIT",
    "LOW_BIDS",
    "SEARCH_READS",
    "TABLE_WORLDS",
    "TWO_HAND_WORLDS",
    "decisions",
    "rate",
    "summarize",
]

TABLE_WORLDS = 32  # sampled worlds of a decision in the games of three and four
TWO_HAND_WORLDS = 12  # sampled worlds of a two-hand phase-1 decision whose worlds are too many to take all
ENUMERATE_LIMIT = 150  # two-hand phase 1: take every consistent world when there are at most this many
SEARCH_READS = 30  # two-hand phase 1: the search's budget in readings of its node counter (64 nodes each)
DISCARD_OPTIONS = 12  # discard pairs rated besides the one taken (the table expert's count)
LOW_BIDS = 4  # the lowest legal bids rated besides pass and the bid taken

Scores = tuple[float, ...]


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


def rate(decision: Decision, seed: int) -> Rating:
    """Rate ``decision`` from what its seat knew (module docstring); deterministic for ``seed``."""
    k = observe(decision.state, decision.seat, decision.totals)
    taken = decision.action
    if _choices(k) == 1:
        zero = (0.0,) * k.n
        return Rating(decision.step, decision.seat, taken, taken, zero, zero, 0.0, False, 0, True)
    rng = random.Random(seed)
    if k.phase == "auction":
        values, worlds, exact = _auction(k, taken, rng)
    elif k.phase == "discard":
        values, worlds, exact = _discard(k, taken, rng)
    elif k.rules.two_hand:
        values, worlds, exact = _two_hand_play(k, rng)
    else:
        values, worlds, exact = _table_play(k, rng)
    return _rating(decision, k.n, values, worlds, exact)


def _choices(k: SeatKnowledge) -> int:
    """How many actions the seat had (V0.6: pass or any legal bid; V0.7: any pair; else its plays)."""
    if k.phase == "auction":
        return 1 + len(k.bids)
    if k.phase == "discard":
        return k.hand.bit_count() * (k.hand.bit_count() - 1) // 2
    return len(k.plays)


def _rating(decision: Decision, n: int, values: list[tuple[Action, Scores]], worlds: int, exact: bool) -> Rating:
    """The best of the candidates ``values`` (the taken action among them) against the one taken."""
    taken = decision.action
    taken_scores = next(scores for action, scores in values if _same(action, taken))
    best, best_scores, given = taken, taken_scores, 0.0
    for action, scores in values:
        gain = points_given_away(n, scores, taken_scores, decision.seat)
        if gain > given:
            best, best_scores, given = action, scores, gain
    return Rating(decision.step, decision.seat, taken, best, taken_scores, best_scores, given, exact, worlds, False)


def _same(a: Action, b: Action) -> bool:
    """The same action (a discard is a pair, in either order)."""
    if isinstance(a, Discard) and isinstance(b, Discard):
        return {a.card_a, a.card_b} == {b.card_a, b.card_b}
    return a == b


def _mean(rows: list[list[float]], count: int) -> Scores:
    return tuple(total / count for total in (sum(column) for column in zip(*rows, strict=True)))


# ---------------------------------------------------------------- two-hand 1001 (R4)


class _Counter:
    """A clock that counts its readings: the search's budget in nodes (``DealSearch`` reads it every 64
    phase-1 nodes and every 256 phase-2 ones), so that a rating never depends on the machine's speed."""

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


def _two_hand_play(k: SeatKnowledge, rng: random.Random) -> tuple[list[tuple[Action, Scores]], int, bool]:
    plays = list(k.plays)
    if not k.stock_count:  # R4 phase 2: perfect information, the solver's exact values
        solved = solver.EndgameSolver(k.rules.by_suit).values(solver.position(k))
        return [(p, _two_hand_scores(k, solved[p])) for p in plays], 1, True
    clock = _Counter()
    bot = ExpertBot(budget=SEARCH_READS, clock=clock, infer=False)
    every = bot.all_worlds(k, ENUMERATE_LIMIT)
    if every is not None:
        worlds = every
    else:
        sampled = [sample_world(k, rng) for _ in range(TWO_HAND_WORLDS)]
        worlds = [(w.hands[k.opponent], w.stock) for w in sampled]
    moves = [move_of(p) for p in plays]
    scores, depths = bot.world_scores(k, moves, worlds, clock() + SEARCH_READS)
    exact = every is not None and min(depths) >= k.stock_count // 2  # every world searched to the end
    count = len(worlds)
    values: list[tuple[Action, Scores]] = []
    for p, move in zip(plays, moves, strict=True):
        values.append((p, _two_hand_scores(k, sum(row[move] for row in scores) / count)))
    return values, count, exact


# ---------------------------------------------------------------- the games of three and four (V2–V7)


def _table_play(k: SeatKnowledge, rng: random.Random) -> tuple[list[tuple[Action, Scores]], int, bool]:
    g = game_for(k)
    moves = [move_of(p) for p in k.plays]
    rows: list[list[list[float]]] = [[] for _ in moves]
    for _ in range(TABLE_WORLDS):
        base = position(k, sample_world(k, rng))
        for i, move in enumerate(moves):
            rows[i].append([float(s) for s in play_out(g, base.copy(), move)])
    return [(p, _mean(r, TABLE_WORLDS)) for p, r in zip(k.plays, rows, strict=True)], TABLE_WORLDS, False


def _discard(k: SeatKnowledge, taken: Action, rng: random.Random) -> tuple[list[tuple[Action, Scores]], int, bool]:
    g = game_for(k)
    options: list[Action] = [Discard(a, b) for a, b in discard_candidates(k.hand, g.values, DISCARD_OPTIONS)]
    if not any(_same(o, taken) for o in options):
        options.append(taken)
    pairs = [1 << o.card_a | 1 << o.card_b for o in options if isinstance(o, Discard)]
    rows: list[list[list[float]]] = [[] for _ in options]
    for _ in range(TABLE_WORLDS):
        world = sample_world(k, rng)
        for i, pair in enumerate(pairs):
            rows[i].append([float(s) for s in discard_sheet(g, k, world, pair)])
    return [(o, _mean(r, TABLE_WORLDS)) for o, r in zip(options, rows, strict=True)], TABLE_WORLDS, False


def _auction(k: SeatKnowledge, taken: Action, rng: random.Random) -> tuple[list[tuple[Action, Scores]], int, bool]:
    bids = list(k.bids[:LOW_BIDS])
    if isinstance(taken, Bid) and taken.amount not in bids:
        bids.append(taken.amount)
    declaring = game_for(k, k.seat, None)
    passed, high, high_bidder, minimum = auction_so_far(k)
    pass_rows: list[list[float]] = []
    bid_rows: list[list[list[float]]] = [[] for _ in bids]
    for _ in range(TABLE_WORLDS):
        world = sample_world(k, rng)
        points, sheet = declaring_sheet(declaring, k, world)
        for i, bid in enumerate(bids):
            bid_rows[i].append([float(s) for s in bid_sheet(k, points, sheet, bid)])
        pass_rows.append([float(s) for s in pass_sheet(k, world, passed, high, high_bidder, minimum)])
    values: list[tuple[Action, Scores]] = [(Pass(), _mean(pass_rows, TABLE_WORLDS))]
    values += [(Bid(b), _mean(r, TABLE_WORLDS)) for b, r in zip(bids, bid_rows, strict=True)]
    return values, TABLE_WORLDS, False
