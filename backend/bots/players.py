"""The three bot levels. Each decides from a ``SeatKnowledge`` only, synchronously and purely.

* ``easy`` — a random legal card; when it may declare it does so half the time (R3).
* ``medium`` — card-play heuristics (``policy``): declare the most valuable marriage on
  lead, keep the lead in phase 1, take aces and tens cheaply, throw low cards on lost
  tricks, count trumps and cash sure winners in phase 2.
* ``hard`` — phase 1: determinized Monte Carlo — sample the hidden cards many times,
  consistently with everything seen, and score each legal play by playing the deal out
  with the ``medium`` heuristics; phase 2 (stock empty, perfect information): exact
  alpha-beta search (``solver``).
* ``expert`` — phase 1: determinized search where every sampled world is searched by
  alpha-beta (``deep``), deeper and deeper until a deadline, worlds weighted by what the
  opponent's plays reveal, plays chosen for the chance of winning the match
  (``expert``); phase 2: the exact solver, as ``hard``.

All randomness comes from the ``rng`` argument, so a decision is a pure function of
``(knowledge, rng state)``.
"""

from __future__ import annotations

import random
from typing import Protocol

from backend.engine.deal import Play

from .core import cards_list, legal_plays
from .knowledge import SeatKnowledge
from .policy import DECLARE, choose_follow, choose_lead
from .sim import play_out
from .solver import EndgameSolver, Position

__all__ = ["LEVELS", "Bot", "EasyBot", "ExpertBot", "HardBot", "MediumBot", "bot_for", "choose"]

LEVELS = ("easy", "medium", "hard", "expert")


class Bot(Protocol):
    level: str

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Play: ...


def _require_turn(k: SeatKnowledge) -> list[Play]:
    if k.turn != k.seat:
        raise ValueError(f"it is not seat {k.seat}'s turn")
    plays = legal_plays(k)
    if not plays:
        raise ValueError("no legal play")
    return plays


class EasyBot:
    level = "easy"

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Play:
        plays = _require_turn(knowledge)
        declaring = [p for p in plays if p.declare]
        if declaring and rng.random() < 0.5:
            return rng.choice(declaring)
        return rng.choice([p for p in plays if not p.declare])


class MediumBot:
    level = "medium"

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Play:
        k = knowledge
        _require_turn(k)
        if k.trick:
            return Play(choose_follow(k.hand, k.trick[0], k.trump, k.declared_suits, k.stock_count, k.unseen))
        move = choose_lead(k.hand, k.trump, k.declared_suits, k.stock_count, k.unseen, k.rules.by_suit)
        return Play(move & 31, bool(move & DECLARE))


class HardBot:
    """Determinized Monte Carlo in phase 1, exact search in phase 2.

    A phase-1 decision samples ``worlds`` guesses of the hidden cards and plays each
    legal play out in each of them, where ``worlds`` spends a budget of ``plies``
    simulated card plays (so a decision costs about the same early or late in the deal,
    and in the 32-card variant), but never fewer than ``min_worlds``.
    """

    level = "hard"

    def __init__(self, plies: int = 20_000, min_worlds: int = 24) -> None:
        self.plies = plies
        self.min_worlds = min_worlds

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Play:
        k = knowledge
        plays = _require_turn(k)
        if len(plays) == 1:
            return plays[0]
        if not k.stock_count:
            return self._solve(k)
        return self._monte_carlo(k, plays, rng)

    # ------------------------------------------------------------ phase 2

    @staticmethod
    def position(k: SeatKnowledge) -> Position:
        """The exact phase-2 position: every unseen card is the opponent's (stock empty)."""
        hands = [0, 0]
        hands[k.seat] = k.hand
        hands[k.opponent] = k.unseen
        pending = k.pending
        return Position((hands[0], hands[1]), k.leader, k.trick, k.trump, k.declared_suits, (pending[0], pending[1]))

    def _solve(self, k: SeatKnowledge) -> Play:
        solver = EndgameSolver(k.rules.by_suit)
        play, _ = solver.best(self.position(k))
        return play

    # ------------------------------------------------------------ phase 1

    def sample_world(self, k: SeatKnowledge, rng: random.Random) -> tuple[int, list[int]]:
        """One guess of (opponent's hand, stock top first) consistent with what ``k`` saw.

        The declared-marriage partners the opponent still holds are in its hand (R3); the
        faced bottom card is the last card of the stock (R2); the other unseen cards are
        dealt uniformly at random.
        """
        known = k.known_opponent_cards
        bottom = k.stock_bottom
        free = [c for c in cards_list(k.unseen & ~known) if c != bottom]
        rng.shuffle(free)
        need = k.opponent_count - known.bit_count()
        opp = known
        for c in free[:need]:
            opp |= 1 << c
        stock = free[need:]
        if bottom is not None:
            stock.append(bottom)
        return opp, stock

    def _monte_carlo(self, k: SeatKnowledge, plays: list[Play], rng: random.Random) -> Play:
        remaining = k.hand.bit_count() + k.opponent_count + k.stock_count + len(k.trick)
        worlds = max(self.min_worlds, self.plies // (len(plays) * remaining))
        by_suit = k.rules.by_suit
        me = k.seat
        sign = 1 if me == 0 else -1
        base_pending = k.pending
        declared = k.declared_suits
        lead = k.trick[0] if k.trick else -1
        moves = [p.card | (DECLARE if p.declare else 0) for p in plays]
        totals = [0] * len(plays)
        for _ in range(worlds):
            opp, stock = self.sample_world(k, rng)
            for i, move in enumerate(moves):
                hands = [0, 0]
                hands[me] = k.hand
                hands[1 - me] = opp
                totals[i] += sign * play_out(
                    hands, stock, k.trump, declared, list(base_pending), k.leader, lead, by_suit, move
                )
        best = max(range(len(plays)), key=lambda i: totals[i])
        return plays[best]


from .expert import ExpertBot  # noqa: E402  (expert builds on HardBot above)

_BOTS: dict[str, Bot] = {"easy": EasyBot(), "medium": MediumBot(), "hard": HardBot(), "expert": ExpertBot()}


def bot_for(level: str) -> Bot:
    """The bot of a level: ``easy``, ``medium``, ``hard`` or ``expert``."""
    try:
        return _BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(LEVELS)}") from None


def choose(level: str, knowledge: SeatKnowledge, rng: random.Random) -> Play:
    """The play of the ``level`` bot for the seat of ``knowledge`` (whose turn it must be)."""
    return bot_for(level).choose(knowledge, rng)
