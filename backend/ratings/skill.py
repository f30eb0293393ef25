"""The rating arithmetic: the Weng–Lin Plackett–Luce model of the ``openskill`` library, which rates
a game of any number of players from their places (ties share a place).

A rating is a skill estimate ``mu`` with its uncertainty ``sigma`` (a newcomer: 25 ± 25/3). What a
person is shown is an integer from the conservative estimate mu − 3σ, scaled like the ratings
people know: ``1000 + 40 × (mu − 3σ)`` — 1000 for a newcomer, rising as wins come and the
uncertainty shrinks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

__all__ = ["DISPLAY_BASE", "DISPLAY_SCALE", "INITIAL", "Skill", "displayed", "rate"]

DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float


INITIAL = Skill(_model().mu, _model().sigma)


def rate(places: Sequence[int], before: Sequence[Skill]) -> list[Skill]:
    """Everyone's rating after a match: ``places`` per player (1 the best, equal places a tie) and
    each one's rating ``before`` it, in the same order."""
    if len(places) != len(before) or len(places) < 2:
        raise ValueError("a rated match has two or more players, each with a place and a rating")
    model = _model()
    teams = [[model.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def displayed(skill: Skill) -> int:
    """The rating shown to people: ``DISPLAY_BASE + DISPLAY_SCALE × (mu − 3σ)``, rounded."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (skill.mu - 3 * skill.sigma))
