"""What the bot pool's fork server loads once, before it forks any worker (``rooms.bots.PRELOAD``).

Importing this module imports everything a worker runs (the bots, the analysis, ``rooms.bots``) and
loads two-hand 1001's search core from numba's cache (or compiles it) with ``warm()``, so that every
process forked from the fork server starts with it all in memory. Nothing else imports it.
"""

from __future__ import annotations

from backend.rooms import bots as _bots  # noqa: F401 - the workers' tasks and everything they import
from backend.search import warm

warm()
