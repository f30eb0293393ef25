"""Computer players for every game of the family (two-hand 1001, V1, V2–V7), deciding only from what
their seat may see (R7, V0.11). See docs/bots.md.

The server needs one call, in its bot worker::

    from backend.bots import choose_for_view

    action = choose_for_view("hard", view, events, random.Random(seed))
    # view: engine.view_for(match, seat); events: engine.events_for(...) of the current deal at least
    # -> Play(card, declare) | Bid(amount) | Pass() | Discard(a, b), legal for the view

``knowledge_from_view`` reads only what the seat was sent; simulations use ``observe(state, seat)``,
which builds the same knowledge from the public parts of a state. The levels (``levels``) are pure
and synchronous: ``choose(level, knowledge, rng)``. Modules: ``knowledge`` (what a seat knows),
``worlds`` (guessing the hidden cards), ``bidding`` and ``play`` (heuristics and playouts for the
games of three and four), ``twohand`` (two-hand 1001's heuristics, exact values on the search core and the
``expert``'s search).
"""

from .expert import TableExpertBot
from .knowledge import IncompleteHistory, SeatKnowledge, knowledge_from_view, observe
from .levels import LEVELS, Bot, EasyBot, HardBot, MediumBot, bot_for, choose, choose_for_view, levels_for
from .twohand.expert import ExpertBot

__all__ = [
    "LEVELS",
    "Bot",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "IncompleteHistory",
    "MediumBot",
    "SeatKnowledge",
    "TableExpertBot",
    "bot_for",
    "choose",
    "choose_for_view",
    "knowledge_from_view",
    "levels_for",
    "observe",
]
