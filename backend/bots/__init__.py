"""Computer opponents for two-hand 1001.

The server needs three calls::

    from backend.bots import choose, knowledge_from_view

    knowledge = knowledge_from_view(seat_view, events_seen_by_that_seat)  # engine.view's SeatView, events
    play = choose("hard", knowledge, random.Random(seed))  # -> engine Play(card, declare)

``knowledge_from_view`` reads only what the seat was sent (R7); simulations use
``observe(deal_state, seat)``, which builds the same knowledge from the public parts
of a state. Bots are pure and synchronous. See docs/bots.md.
"""

from .knowledge import IncompleteHistory, SeatKnowledge, knowledge_from_view, observe
from .players import LEVELS, Bot, EasyBot, ExpertBot, HardBot, MediumBot, bot_for, choose

__all__ = [
    "LEVELS",
    "Bot",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "IncompleteHistory",
    "MediumBot",
    "SeatKnowledge",
    "bot_for",
    "choose",
    "knowledge_from_view",
    "observe",
]
