"""Matches steered to a tie at the target (ruling R5.1, ruling V0.9): another deal must follow.

Random play rarely ends a deal with two seats sharing the highest total at or over the target, so
each deal is played many times from its start and the playing that brings the two highest totals
closest together is kept, until one ends in such a tie. Deterministic from the rng.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from backend.engine import Action, MatchState, Rules, apply, legal_actions, new_game


@dataclass(frozen=True)
class TiedMatch:
    rules: Rules
    seed: int
    actions: tuple[tuple[int, Action], ...]  # from the first move to the move that ties
    match: MatchState  # the match right after that move: the next deal dealt, nobody the winner


def legal(match: MatchState) -> tuple[int, list[Action]]:
    """The seat to move and what it may do."""
    seat = match.deal.turn
    assert seat is not None
    return seat, legal_actions(match, seat)


def tied_at_target(match: MatchState) -> bool:
    top = max(match.totals)
    return not match.over and top >= goal(match) and match.totals.count(top) >= 2


def goal(match: MatchState) -> int:
    return match.rules.goal


def play_deal(match: MatchState, rng: random.Random) -> tuple[MatchState, list[tuple[int, Action]]]:
    """Random legal actions to the end of the current deal."""
    number, moves = match.deal_number, []
    while not match.over and match.deal_number == number:
        seat, actions = legal(match)
        action = rng.choice(actions)
        match, _ = apply(match, seat, action)
        moves.append((seat, action))
    return match, moves


def _spread(match: MatchState) -> int:
    top, second = sorted(match.totals, reverse=True)[:2]
    return top - second


def tie_at_target(rules: Rules, seed: int, play: int, tries: int = 60, attempts: int = 8) -> TiedMatch | None:
    """A way of playing the match of ``seed`` into a tie at the target (rngs ``play``, ``play + 1``, …),
    or None if ``attempts`` of them find none."""
    for attempt in range(attempts):
        tied = _steer(rules, seed, random.Random(play + attempt), tries)
        if tied is not None:
            return tied
    return None


def _steer(rules: Rules, seed: int, rng: random.Random, tries: int) -> TiedMatch | None:
    match, log = new_game(rules, seed), []
    while not match.over:
        playings = [play_deal(match, rng) for _ in range(tries)]
        for after, moves in playings:
            if tied_at_target(after):
                return TiedMatch(rules, seed, (*log, *moves), after)
        going_on = [(after, moves) for after, moves in playings if not after.over]
        if not going_on:
            return None
        match, moves = min(going_on, key=lambda playing: _spread(playing[0]))
        log += moves
    return None
