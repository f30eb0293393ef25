"""Why a hint suggests what it does, in a few words a card player uses: a short reason code for an
action at a seat, or None where none of them fits.

A hint (docs/protocol.md, "Hints") is the ``expert``'s choice for the seat on turn; the reason is
not the search's own (a search has no words), it is read afterwards from what the seat knows —
its ``SeatKnowledge``, never the hidden cards (R7, V0.11) — by a handful of plain rules, the first
that applies winning (``REASON_CODES`` is their order). The client says each code in the player's
language (``hint.reason.<code>`` in en, de, ru), with the card's suit where the words name one;
``backend.api.codegen`` publishes the codes.
"""

from __future__ import annotations

from enum import StrEnum

from backend.engine import Action, Bid, Discard, Pass, Play
from backend.engine.cards import ACE, CARD_POINTS, KING, QUEEN, SUIT_MASK, TEN
from backend.engine.kernel import NO_TRUMP, beats, winning_index

from .bidding import hand_estimate
from .hard import game_for
from .knowledge import SeatKnowledge

__all__ = ["REASON_CODES", "ReasonCode", "reason_for"]

BANKED_POINTS = 10  # discards worth at least this many card points bank them (V0.7): a ten or an ace


class ReasonCode(StrEnum):
    DECLARES_MARRIAGE = "declares_marriage"  # R3, V0.5: leads the K or Q of a pair and names the trump
    DRAWS_TRUMPS = "draws_trumps"  # R4: leads a trump while it holds as many as the others may have left
    SAFE_TEN = "safe_ten"  # R1, R4: a ten whose ace is gone is the highest card of its suit
    KEEPS_MARRIAGE = "keeps_marriage"  # R3, V0.5: follows without breaking an undeclared K-Q pair
    CHEAP_WIN = "cheap_win"  # R4, V0.4: takes the trick with the cheapest card that takes it
    THROWS_LOW = "throws_low"  # R1, R4: cannot or need not take the trick: gives the fewest points
    BID_WORTH = "bid_worth"  # V0.6: the hand is worth the bid (bidding.hand_estimate)
    PASS_WEAK = "pass_weak"  # V0.6: the hand is not worth the lowest bid
    BANKS_POINTS = "banks_points"  # V0.7: the discards' card points are the declarer's at once


REASON_CODES: tuple[str, ...] = tuple(code.value for code in ReasonCode)


def reason_for(knowledge: SeatKnowledge, action: Action) -> ReasonCode | None:
    """The reason for ``action`` at the seat of ``knowledge`` (whose turn it is), or None."""
    k = knowledge
    match action:
        case Play():
            return _play_reason(k, action)
        case Bid():
            return ReasonCode.BID_WORTH if action.amount <= _estimate(k) else None
        case Pass():
            return ReasonCode.PASS_WEAK if k.bids and _estimate(k) < k.bids[0] else None  # no bid left: forced
        case Discard():
            banked = CARD_POINTS[action.card_a] + CARD_POINTS[action.card_b]
            return ReasonCode.BANKS_POINTS if banked >= BANKED_POINTS else None
    return None


def _estimate(k: SeatKnowledge) -> int:
    """The deal points the hand is worth as a declarer's (V0.6; the talon's share included)."""
    g = game_for(k)
    return hand_estimate(k.hand, g.values, k.n, k.rules.layout.talon_size, g.may_meld[k.seat])


def _play_reason(k: SeatKnowledge, play: Play) -> ReasonCode | None:
    c, suit = play.card, play.card >> 3
    if play.declare:
        return ReasonCode.DECLARES_MARRIAGE
    leading = not k.trick
    if leading and k.trump != NO_TRUMP and suit == k.trump:
        theirs = (k.unseen & SUIT_MASK[suit]).bit_count()
        if 0 < theirs <= (k.hand & SUIT_MASK[suit]).bit_count():
            return ReasonCode.DRAWS_TRUMPS
    if c & 7 == TEN and not ((k.unseen | k.hand) >> (8 * suit + ACE) & 1) and (leading or _takes(k, c)):
        return ReasonCode.SAFE_TEN
    if leading:
        return None
    legal = [p.card for p in k.plays if not p.declare]
    pairs = [s for s in range(4) if _pair(k.hand, s) and not k.declared_suits >> s & 1]
    if any(c not in _pair_cards(s) and any(p in _pair_cards(s) for p in legal) for s in pairs):
        return ReasonCode.KEEPS_MARRIAGE
    winners = [p for p in legal if _takes(k, p)]
    if c in winners:
        return ReasonCode.CHEAP_WIN if CARD_POINTS[c] == min(CARD_POINTS[p] for p in winners) else None
    return ReasonCode.THROWS_LOW if CARD_POINTS[c] == min(CARD_POINTS[p] for p in legal) else None


def _takes(k: SeatKnowledge, c: int) -> bool:
    """Does ``c`` become the winning card of the trick in progress (V0.4)? A lead always does."""
    if not k.trick:
        return True
    winning = k.trick[winning_index(k.trick, k.trump)]
    return bool(beats(winning, k.trump) >> c & 1)


def _pair_cards(suit: int) -> tuple[int, int]:
    return 8 * suit + KING, 8 * suit + QUEEN


def _pair(hand: int, suit: int) -> bool:
    king, queen = _pair_cards(suit)
    return bool(hand >> king & 1 and hand >> queen & 1)
