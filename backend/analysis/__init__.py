"""Computer analysis of finished deals (issue 26): every decision rated from what its player knew.
Pure, no I/O: ``model`` holds the shapes, ``rate`` the rater (see docs/bots.md, "Analysis")."""

from .rate import decisions, rate, summarize

__all__ = ["decisions", "rate", "summarize"]
