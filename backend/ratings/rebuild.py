"""Recompute every rating from the stored matches (pure): the rated matches in the order their
changes were applied, each rated as it was when it finished (``skill.rate``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .skill import INITIAL, Skill, rate

__all__ = ["Change", "RatedMatch", "Replayed", "StoredRating", "change_differences", "differences", "replay"]


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match that changes ratings: its kind, its players in seat order and their places."""

    match_id: str
    kind: str
    player_ids: tuple[str, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StoredRating:
    skill: Skill
    matches: int


@dataclass(frozen=True, slots=True)
class Change:
    """What one match did to one player's rating."""

    match_id: str
    player_id: str
    kind: str
    seat: int
    place: int
    before: Skill
    after: Skill


@dataclass
class Replayed:
    ratings: dict[tuple[str, str], StoredRating] = field(default_factory=dict)  # (player, kind) → rating
    changes: list[Change] = field(default_factory=list)  # in the order applied

    def apply(self, match: RatedMatch) -> list[Change]:
        """Rate one more match on top of the ratings so far."""
        keys = [(player_id, match.kind) for player_id in match.player_ids]
        before = [self.ratings.get(key, StoredRating(INITIAL, 0)) for key in keys]
        after = rate(match.places, [rating.skill for rating in before])
        changes = [
            Change(match.match_id, key[0], match.kind, seat, place, old.skill, new)
            for seat, (key, place, old, new) in enumerate(zip(keys, match.places, before, after, strict=True))
        ]
        for key, old, new in zip(keys, before, after, strict=True):
            self.ratings[key] = StoredRating(new, old.matches + 1)
        self.changes.extend(changes)
        return changes


def replay(matches: Iterable[RatedMatch]) -> Replayed:
    """Every rating after ``matches``, in the order given, from newcomers' ratings."""
    replayed = Replayed()
    for match in matches:
        replayed.apply(match)
    return replayed


def differences(rebuilt: dict[tuple[str, str], StoredRating], stored: dict[tuple[str, str], StoredRating]) -> list[str]:
    """Where the stored ratings are not the rebuilt ones (empty: they are equal)."""
    found = []
    for key in sorted(set(rebuilt) | set(stored)):
        want, have = rebuilt.get(key), stored.get(key)
        if want != have:
            player, kind = key
            found.append(f"{player} {kind}: stored {_text(have)}, rebuilt {_text(want)}")
    return found


def change_differences(rebuilt: list[Change], stored: list[Change]) -> list[str]:
    """Where the logged changes are not the rebuilt ones, match by match (empty: equal)."""
    by_match: dict[str, tuple[list[Change], list[Change]]] = {}
    for side, changes in enumerate((rebuilt, stored)):
        for change in changes:
            by_match.setdefault(change.match_id, ([], []))[side].append(change)
    return [
        f"match {match_id}: the {len(have)} logged changes differ from the {len(want)} rebuilt"
        for match_id, (want, have) in by_match.items()
        if sorted(want, key=_seat) != sorted(have, key=_seat)
    ]


def _seat(change: Change) -> int:
    return change.seat


def _text(rating: StoredRating | None) -> str:
    if rating is None:
        return "none"
    return f"mu={rating.skill.mu!r} sigma={rating.skill.sigma!r} after {rating.matches} matches"
