"""Ratings per person and game kind (issue 27): the kinds (``kinds``), the arithmetic on the
openskill library (``skill``) and the rebuild from the stored matches (``rebuild``).

Everything here is pure; the store applies a finished match's change in the transaction that stores
it (``backend.db.action_log``), and ``python -m backend.admin ratings --rebuild`` recomputes them all.
"""

from .kinds import RATING_KINDS, match_kind, options_kind, rating_kind
from .skill import INITIAL, Skill, displayed, rate

__all__ = ["INITIAL", "RATING_KINDS", "Skill", "displayed", "match_kind", "options_kind", "rate", "rating_kind"]
