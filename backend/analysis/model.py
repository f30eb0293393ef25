"""What a computer analysis of a finished deal says (issue 26): the shapes shared by the rater
(``backend.analysis.rate``), the web layer that stores and serves it, and the client.

Pure data, no I/O. Every decision of every player (card, bid, pass, discard, declaration) is rated
from what that player knew at that moment (``bots.observe`` of the position before it: their own
hand, the cards seen, the bids; never the hidden cards).

Values are *written deal scores* (the deal's line on the score sheet, R5 / V0.9), expected over the
worlds the player could not tell apart. The **points given away** by an action are the drop, from the
best action found to the action taken, of the player's score against the mean of the others', scaled
by ``(n - 1) / n`` so that one card point passed from the player to another seat counts one point in
every seat count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from backend.engine import Action, DealState

__all__ = [
    "ANALYSIS_VERSION",
    "GRADES",
    "DealAnalysis",
    "Decision",
    "Grade",
    "Rating",
    "grade_of",
    "points_given_away",
]

# Bumped whenever the rater changes what it finds: a stored analysis of an older version is computed again.
ANALYSIS_VERSION = 1

Grade = Literal["slip", "mistake", "blunder"]

# Points given away from which an action is marked (lichess's inaccuracy / mistake / blunder), most
# severe first. Defined once: the server's grades, the client's marks (codegen) and the docs read these.
GRADES: tuple[tuple[Grade, float], ...] = (("blunder", 25.0), ("mistake", 12.0), ("slip", 5.0))


def grade_of(given_away: float) -> Grade | None:
    """The mark of an action that gave ``given_away`` points away (None: not marked)."""
    for grade, threshold in GRADES:
        if given_away >= threshold:
            return grade
    return None


def points_given_away(n: int, best: tuple[float, ...], taken: tuple[float, ...], seat: int) -> float:
    """How many points ``seat`` gave away by taking the action whose expected deal scores are ``taken``
    instead of the one whose expected scores are ``best`` (module docstring), never below zero."""

    def edge(scores: tuple[float, ...]) -> float:
        others = [s for i, s in enumerate(scores) if i != seat]
        return scores[seat] - sum(others) / len(others)

    return max(0.0, (edge(best) - edge(taken)) * (n - 1) / n)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision to rate: the true position before it (the rater only ever observes it as ``seat``),
    the action taken and the match totals before the deal. Picklable: it goes to a bot worker."""

    step: int  # the replay frame after the action (1 = the deal's first action)
    seat: int
    state: DealState
    action: Action
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rating:
    """The analysis of one decision, from what ``seat`` knew."""

    step: int
    seat: int
    taken: Action
    best: Action  # the best action found (``taken`` when it is as good as any)
    taken_scores: tuple[float, ...]  # expected written deal score of every seat after ``taken``
    best_scores: tuple[float, ...]  # ... after ``best``
    given_away: float  # points_given_away(n, best_scores, taken_scores, seat)
    exact: bool  # every world the player could not tell apart was searched exactly to the end of the deal
    worlds: int  # the worlds the figures average: 1 with perfect information, 0 when forced (none searched)
    forced: bool  # only one legal action: nothing to choose, given_away is 0

    @property
    def grade(self) -> Grade | None:
        return None if self.forced else grade_of(self.given_away)


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """Every decision of one deal rated, and the points each seat gave away in it."""

    version: int
    ratings: tuple[Rating, ...]
    given_away: tuple[float, ...]  # per seat, the sum over its ratings
