"""The ``expert`` level: determinized search with exact per-world evaluation, inference and match awareness.

Phase 1 (stock not empty), for the seat whose turn it is:

1. **Worlds.** ``4 × max_worlds`` guesses of the hidden cards are drawn uniformly among
   the deals consistent with what the seat saw (``worlds.sample_world``: R3 declared
   partners stay with the opponent, R2 faced card at the stock bottom). Each gets a
   likelihood from what the opponent did (``world_weight``) and ``max_worlds`` of them
   are kept by weighted sampling without replacement, so the search time goes to the
   likely worlds.
2. **Every world solved.** Pass 0 scores every legal play in every world by a ``medium`` playout
   (what ``hard`` does). Then the worlds are solved one after the other, each to the end of the deal
   by the compiled search core (``backend.search``: one alpha-beta over both phases, both hands and
   the stock order being known inside a world), until all are solved or the deadline passes; a solved
   world's exact scores replace its playout scores. Late in phase 1 every world is solved within the
   deadline; early on, the few the deadline allows.
3. **Match utility.** A world's score of a play is the deal score difference still to
   come; it is turned into an estimated chance of winning the match (``match_utility``)
   from the match totals, the deal's points so far and the target, and the play with
   the best mean chance over the worlds wins (ties, e.g. far from the target where the
   utility is almost linear, are broken by the mean score).

Phase 2 (stock empty, perfect information): the core's exact values (``exact.solve``), as ``hard``.

The decision reads only the ``SeatKnowledge`` (R7). All randomness comes from ``rng``;
the time limit comes from ``clock`` (injectable for tests), so a decision that does not
reach its deadline is reproducible.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable

from backend.engine.cards import KING, QUEEN
from backend.engine.deal import Play
from backend.search import Timeout

from ..knowledge import SeatKnowledge
from ..match import match_utility as shared_match_utility
from ..worlds import sample_world
from .exact import solve, solver, world_values
from .policy import DECLARE, cards_list
from .sim import play_out

__all__ = ["THINKING_S", "ExpertBot", "counted", "final_points", "match_utility", "world_weight"]

# The deadline of a phase-1 decision in seconds: the expert's typical thinking time per card, which the
# lobby shows (``EXPERT_THINKING_S`` in the generated client protocol).
THINKING_S = 0.7

# Likelihood factors of the opponent's observed choices (see ``world_weight``).
KQ_LEAD_WITHOUT_DECLARING = 0.3
KQ_THROWN_BREAKING_MARRIAGE = 0.5


def match_utility(totals: tuple[int, int], target: int, final_me: float, final_opp: float) -> float:
    """Estimated chance that the seat wins the match once this deal scores ``final_me`` : ``final_opp``.

    ``totals`` are (seat's, opponent's) match totals before the deal: ``bots.match.match_utility``
    for two seats (R5/R5.1: a seat reaching the target alone wins, if both reach it the higher total
    wins, a tie means another deal: 1/2; otherwise a logistic of the lead in points still needed)."""
    return shared_match_utility(totals, target, (final_me, final_opp), 0)


def world_weight(k: SeatKnowledge, opp_hand: int) -> float:
    """The relative likelihood of a sampled opponent hand given the opponent's choices so far (R3).

    * The opponent led a K or Q of a suit not yet declared without declaring it: had it
      held the partner it would usually have declared (by_suit the points are large), so
      a world where it still holds the partner counts ``0.3``.
    * The opponent threw a K or Q of an undeclared suit on a trick it lost: players rarely
      break a marriage they hold, so a world where the partner is in its hand counts ``0.5``.

    People do hold marriages back, so these are soft weights, never exclusions.
    """
    opp = k.opponent
    weight = 1.0
    pending = list(k.declarations)
    plays: list[tuple[int, int, bool, bool]] = []  # (card, leader?, declared?, lost?)
    for t in k.tricks:
        lead, follow = t.cards
        declaring = False
        if pending and pending[0].seat == t.leader and lead >> 3 == pending[0].suit and (lead & 7) in (KING, QUEEN):
            declaring = True
            pending.pop(0)
        if t.leader == opp:
            plays.append((lead, 1, declaring, t.winner != opp))
        else:
            plays.append((follow, 0, False, t.winner != opp))
    if k.trick and k.leader == opp:
        lead = k.trick[0]
        declaring = bool(pending) and pending[0].seat == opp and lead >> 3 == pending[0].suit
        plays.append((lead, 1, declaring, False))
    declared_now = k.declared_suits
    for c, led, declaring, lost in plays:
        if declaring or (c & 7) not in (KING, QUEEN):
            continue
        suit = c >> 3
        partner = c ^ 1  # K (2) <-> Q (3)
        if not opp_hand >> partner & 1:
            continue
        if led:
            if not _declared_before(k, suit, c):
                weight *= KQ_LEAD_WITHOUT_DECLARING
        elif lost and not declared_now >> suit & 1:
            weight *= KQ_THROWN_BREAKING_MARRIAGE
    return weight


def _declared_before(k: SeatKnowledge, suit: int, card: int) -> bool:
    """Was ``suit`` declared before ``card`` was played? (Declarations are matched to their leads in order.)"""
    pending = list(k.declarations)
    for t in k.tricks:
        lead = t.cards[0]
        if lead == card or t.cards[1] == card:
            return False
        if pending and pending[0].seat == t.leader and lead >> 3 == pending[0].suit and (lead & 7) in (KING, QUEEN):
            if pending[0].suit == suit:
                return True
            pending.pop(0)
    return any(d.suit == suit for d in pending) and not (k.trick and k.trick[0] == card)


def counted(k: SeatKnowledge) -> tuple[int, int, int]:
    """(seat's points so far, opponent's, points of the deal in all): card points of the tricks
    taken, declarations of seats that took a trick (R3), and the total the deal's points add up to
    so far (120 card points plus every declaration made)."""
    cards = k.card_points
    won = k.tricks_won
    mine, theirs = cards[k.seat], cards[k.opponent]
    declared = 0
    for d in k.declarations:
        declared += d.points
        if won[d.seat]:
            if d.seat == k.seat:
                mine += d.points
            else:
                theirs += d.points
    return mine, theirs, 120 + declared  # R1/V1: 120 card points in either pack


def final_points(base: tuple[int, int, int], to_come: float) -> tuple[float, float]:
    """The deal points (R5) of the seat and of its opponent once the rest of the deal goes ``to_come``
    points the seat's way (a difference, as the searches count it), from ``counted``'s ``base``: the
    difference is exact, the split takes the deal's points to add up to its total so far."""
    mine, theirs, total = base
    diff = mine - theirs + to_come
    return (total + diff) / 2, (total - diff) / 2


class ExpertBot:
    """See the module docstring. ``budget`` is the thinking time in seconds of ``clock`` per phase-1 decision."""

    level = "expert"

    def __init__(
        self,
        budget: float = THINKING_S,
        max_worlds: int = 80,
        clock: Callable[[], float] = time.perf_counter,
        match_aware: bool = True,
        infer: bool = True,
        enumerate_limit: int = 150,
    ) -> None:
        self.budget = budget
        self.max_worlds = max_worlds
        self.clock = clock
        self.match_aware = match_aware
        self.infer = infer
        self.enumerate_limit = enumerate_limit
        self.last_solved: list[bool] = []  # per world of the last decision, solved to the end (for benchmarks)

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Play:
        k = knowledge
        plays = list(k.plays)
        if k.turn != k.seat or not plays:
            raise ValueError(f"it is not seat {k.seat}'s turn")
        if len(plays) == 1:
            return plays[0]
        if not k.stock_count:
            self.last_solved = []
            return solve(k)
        return self._phase1(k, plays, rng)

    # ------------------------------------------------------------ phase 1

    def sample_worlds(self, k: SeatKnowledge, rng: random.Random) -> list[tuple[int, list[int]]]:
        """``max_worlds`` worlds, drawn by weight (without replacement) from 4× as many uniform samples."""
        candidates = []
        for _ in range(4 * self.max_worlds):
            sampled = sample_world(k, rng)
            candidates.append((sampled.hands[k.opponent], sampled.stock))
        if not self.infer:
            return candidates[: self.max_worlds]
        keyed = []
        for i, world in enumerate(candidates):
            w = world_weight(k, world[0])
            keyed.append((rng.random() ** (1.0 / w), i))  # Efraimidis–Spirakis
        keyed.sort(reverse=True)
        return [candidates[i] for _, i in keyed[: self.max_worlds]]

    def all_worlds(self, k: SeatKnowledge, limit: int) -> list[tuple[int, list[int]]] | None:
        """Every world consistent with ``k`` (as ``sample_world`` draws them), or ``None`` if there are more
        than ``limit``. Late in phase 1 there are few: at the last phase-1 trick of the 24-card game at
        most 10 · 9 = 90 (which two unseen cards are in the stock, in which order)."""
        known = k.known_opponent_cards
        bottom = k.stock_bottom
        free = [c for c in cards_list(k.unseen & ~known) if c != bottom]
        need = k.opponent_count - known.bit_count()
        in_stock = len(free) - need
        count = math.comb(len(free), need) * math.factorial(in_stock)
        if count > limit:
            return None
        worlds = []
        for chosen in itertools.combinations(free, in_stock):
            opp = known
            for c in free:
                if c not in chosen:
                    opp |= 1 << c
            for order in itertools.permutations(chosen):
                stock = list(order)
                if bottom is not None:
                    stock.append(bottom)
                worlds.append((opp, stock))
        return worlds

    def _phase1(self, k: SeatKnowledge, plays: list[Play], rng: random.Random) -> Play:
        deadline = self.clock() + self.budget
        every = self.all_worlds(k, self.enumerate_limit)
        weights: list[float] | None = None
        if every is not None:
            # Few enough to take them all (in random order, so that a deadline leaves a fair subset
            # searched deeply), each weighted by its likelihood.
            rng.shuffle(every)
            worlds = every
            if self.infer:
                weights = [world_weight(k, opp) for opp, _ in worlds]
        else:
            worlds = self.sample_worlds(k, rng)
        moves = [p.card | (DECLARE if p.declare else 0) for p in plays]
        scores, self.last_solved = self.world_scores(k, moves, worlds, deadline)
        return plays[self.pick(k, moves, scores, weights)]

    def world_scores(
        self, k: SeatKnowledge, moves: list[int], worlds: list[tuple[int, list[int]]], deadline: float
    ) -> tuple[list[dict[int, int]], list[bool]]:
        """Every move's score (deal score difference to come, for the seat) in every world (the
        opponent's hand, the stock top first): the exact value where the world was solved before
        ``deadline`` of ``clock``, else its playout's; and per world whether it was solved."""
        me = k.seat
        pending = k.pending
        by_suit = k.rules.by_suit
        lead = k.trick[0] if k.trick else -1

        # Pass 0: medium playouts (cheap, never interrupted).
        scores: list[dict[int, int]] = []
        for opp, stock in worlds:
            row = {}
            for move in moves:
                hands = [0, 0]
                hands[me] = k.hand
                hands[1 - me] = opp
                diff = play_out(hands, stock, k.trump, k.declared_suits, list(pending), k.leader, lead, by_suit, move)
                row[move] = diff if me == 0 else -diff
            scores.append(row)
        solved = [False] * len(worlds)

        # Then every world to the end of the deal, one after the other, until the deadline.
        search = solver(by_suit, deadline, self.clock)
        try:
            for i, (opp, stock) in enumerate(worlds):
                scores[i] = world_values(search, k, opp, stock)
                solved[i] = True
        except Timeout:
            pass
        return scores, solved

    # ------------------------------------------------------------ the match utility

    def pick(
        self, k: SeatKnowledge, moves: list[int], scores: list[dict[int, int]], weights: list[float] | None = None
    ) -> int:
        """The index of the move with the best mean match utility over the worlds' scores (deal score
        difference to come per move, one dict per world, weighted by ``weights``); ties broken by the mean
        score. Without ``match_aware``: the mean score."""
        base = counted(k)
        w = weights if weights is not None else [1.0] * len(scores)
        best_key: tuple[float, float] = (-math.inf, -math.inf)
        best = 0
        for j, move in enumerate(moves):
            total = 0.0
            utility = 0.0
            for row, weight in zip(scores, w, strict=True):
                value = row[move]
                total += weight * value
                if self.match_aware:
                    utility += weight * self._utility(k, base, value)
            key = (utility, total) if self.match_aware else (total, 0.0)
            if key > best_key:
                best_key, best = key, j
        return best

    def _utility(self, k: SeatKnowledge, base: tuple[int, int, int], to_come: int) -> float:
        """Chance of winning the match if the rest of the deal goes ``to_come`` points our way (difference)."""
        final_me, final_opp = final_points(base, to_come)
        totals = k.totals
        return match_utility((totals[k.seat], totals[k.opponent]), k.rules.goal, final_me, final_opp)
