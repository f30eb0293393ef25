"""The last tricks of the games of three and four (V2–V7), exactly: every world a seat could not tell
apart, each searched to the end of the deal with every card known (max^n).

Late in a deal few cards are hidden, so the worlds consistent with a seat's knowledge can be listed
(``all_worlds``: the other hands and, for a defender, the declarer's discards, V0.7 — each seat with
the cards it is known to hold, none it is known to lack, as ``worlds.sample_world`` deals them; the
list is uniform over the same set that sampler draws from). In each world the rest of the deal is a
game of perfect information for several players: ``MaxN`` plays it out with every seat choosing, at
each of its turns, the card that maximises its own final score minus the mean of the others'
(``play.objective``, the ``hard`` level's aim; the first such card in a fixed order on ties), the score
sheet written by the engine's rules (``play.deal_scores``). The moves are the engine's kernel duties
(``kernel.obligation_mask``) and melds (``play.meld_options``). The work is bounded by a node count, so
a search either finishes — its values are exact for that world — or gives up, never a time.
"""

from __future__ import annotations

from collections.abc import Iterator

from backend.bots.knowledge import SeatKnowledge
from backend.bots.play import DECLARE, Game, Playout, deal_scores, declare, finish_trick, meld_options, objective
from backend.bots.worlds import World
from backend.engine.cards import KING, QUEEN, cards_in
from backend.engine.kernel import obligation_mask, winning_index

__all__ = ["MaxN", "OutOfNodes", "all_worlds"]


class OutOfNodes(Exception):
    """A search used up its node budget."""


def all_worlds(k: SeatKnowledge, limit: int) -> list[World] | None:
    """Every world consistent with ``k`` in the play phase of a game of three or four (no stock, the talon
    taken), or None if there are more than ``limit``."""
    me = k.seat
    known, forbidden = k.known, k.forbidden
    held = 0
    for mask in known:
        held |= mask
    free = list(cards_in(k.unseen & ~held))
    others = [s for s in range(k.n) if s != me]
    need = [k.hand_counts[s] - known[s].bit_count() for s in others] + [k.other_discards_count]
    banned = [forbidden[s] for s in others] + [0]
    found: list[list[int]] = []

    def place(i: int, masks: list[int]) -> bool:
        """Deal ``free[i:]``; False once more than ``limit`` worlds are found."""
        if i == len(free):
            found.append(list(masks))
            return len(found) <= limit
        c = free[i]
        for slot, count in enumerate(need):
            if masks[slot].bit_count() < count and not banned[slot] >> c & 1:
                masks[slot] |= 1 << c
                going = place(i + 1, masks)
                masks[slot] &= ~(1 << c)
                if not going:
                    return False
        return True

    if not place(0, [0] * len(need)):
        return None
    worlds = []
    for masks in found:
        hands = [0] * k.n
        hands[me] = k.hand
        for slot, s in enumerate(others):
            hands[s] = known[s] | masks[slot]
        discards = k.discards if k.declarer == me else masks[-1]
        worlds.append(World(tuple(hands), 0, discards, []))
    return worlds


class MaxN:
    """Perfect-information search of one world's remaining tricks (module docstring). ``nodes`` counts
    the positions searched by every ``scores`` call so far; past ``limit`` they raise ``OutOfNodes``."""

    def __init__(self, g: Game, limit: int) -> None:
        self.g = g
        self.limit = limit
        self.nodes = 0

    def moves(self, p: Playout) -> Iterator[int]:
        """The moves of the seat to move: each legal card (a follower's duty, V0.4), then the K and Q
        leads that declare (V0.5)."""
        g, n = self.g, self.g.n
        seat = (p.leader + len(p.trick)) % n
        hand = p.hands[seat]
        if p.trick:
            winning = p.trick[winning_index(p.trick, p.trump)]
            yield from cards_in(obligation_mask(hand, p.trick[0], winning, p.trump, g.variant.duty))
            return
        yield from cards_in(hand)
        for suit in meld_options(g, seat, hand, p.declared, p.last_meld):
            yield 8 * suit + KING | DECLARE
            yield 8 * suit + QUEEN | DECLARE

    def after(self, p: Playout, move: int) -> Playout:
        """The position once the seat to move makes ``move`` (a new object; ``p`` is unchanged)."""
        n = self.g.n
        seat = (p.leader + len(p.trick)) % n
        q = p.copy()
        c = move & 31
        if move & DECLARE:
            declare(self.g, q, seat, c >> 3)
        q.hands[seat] &= ~(1 << c)
        q.trick.append(c)
        if len(q.trick) == n:
            finish_trick(q, n)
        return q

    def scores(self, p: Playout) -> list[int]:
        """The score sheet at the end of the deal when every seat plays as the module docstring says."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfNodes
        g = self.g
        seat = (p.leader + len(p.trick)) % g.n
        if not p.trick and not p.hands[seat]:
            return deal_scores(g, p.card_pts, p.melds, p.won, p.discard_pts, p.last_winner)
        best: list[int] | None = None
        best_value = 0.0
        for move in self.moves(p):
            sheet = self.scores(self.after(p, move))
            value = objective(sheet, seat)
            if best is None or value > best_value:
                best, best_value = sheet, value
        assert best is not None
        return best
