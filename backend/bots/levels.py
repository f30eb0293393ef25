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
  2: perfect information) the exact values of the search core (``backend.search``). Bidding: in each
  world the deal is played out once with this seat as declarer (medium's discard) and once as a
  defender; the highest bid whose estimated make-probability is at least one half and whose expected
  score is at least that of passing is its limit, and it bids the lowest legal amount within it (a
  made contract scores the points taken, not the bid, V0.6c). Discarding: the best ``discard_options`` pairs of medium's
  heuristic, each played out in every world.
* ``expert`` — two-hand 1001 (``twohand.expert``): every sampled world solved to the end of the deal on
  the compiled search core; the games of three and four (``expert``): hard's search with worlds
  weighted by the auction, the match utility and more of everything, to a deadline.

A ``hard`` decision spends a fixed number of simulated card plays (``plies``), at least ``min_worlds``
worlds, and — in the games of three and four — stops early at a deadline (``budget`` seconds by
``clock``): bounded time whatever the position.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from backend.engine import Action, Bid, Discard, Event, Pass, Play, Rules, SeatView
from backend.engine.cards import cards_in

from . import play as table_play
from .bidding import choose_discard, hand_estimate
from .expert import TableExpertBot
from .hard import HardBot, game_for, move_of, require_turn
from .knowledge import SeatKnowledge, knowledge_from_view
from .play import DECLARE, Game
from .twohand import policy as two_hand_play
from .twohand.expert import ExpertBot

__all__ = ["LEVELS", "Bot", "EasyBot", "HardBot", "MediumBot", "bot_for", "choose", "choose_for_view", "levels_for"]

LEVELS = ("easy", "medium", "hard", "expert")


class Bot(Protocol):
    level: str

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action: ...


def _pairs(hand: int) -> list[tuple[int, int]]:
    cards = list(cards_in(hand))
    return [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]


class EasyBot:
    level = "easy"

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        k = knowledge
        require_turn(k)
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
        require_turn(k)
        g = game_for(k)
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
            if move_of(p) == move:
                return p
        return k.plays[0]  # never expected: the policy follows the same kernel as the engine


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
    "expert": TableExpertBot(),
}


def levels_for(rules: Rules) -> tuple[str, ...]:
    """The levels the computer plays a game at: ``LEVELS`` in every game."""
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
