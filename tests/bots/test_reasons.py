"""The reasons a hint gives (``backend.bots.reasons``): one test per code, each position written out as
what the seat knows (its hand, the tricks everybody saw, the trick in progress), and the cases where
no reason applies. The reason never reads a hidden card: it takes a ``SeatKnowledge`` only."""

from __future__ import annotations

import dataclasses

from backend.bots import SeatKnowledge, observe
from backend.bots.reasons import ReasonCode, reason_for
from backend.engine import Bid, Discard, Pass, Play, Rules, new_game
from backend.engine.cards import card, mask_of
from backend.engine.deal import Declaration, Trick
from backend.engine.deal import Play as LegalPlay
from backend.engine.kernel import NO_TRUMP


def cards(*names: str) -> tuple[int, ...]:
    return tuple(card(n) for n in names)


def two_hand(
    hand: tuple[str, ...],
    *,
    trick: tuple[str, ...] = (),
    trump: int = NO_TRUMP,
    played: tuple[tuple[str, ...], ...] = (),
    legal: tuple[str, ...] | None = None,
    declares: tuple[str, ...] = (),
) -> SeatKnowledge:
    """Seat 0 of a two-hand 1001 deal (R4 phase 2: the stock empty) holding ``hand``; ``played``: the
    completed tricks (each won by its leader, seat 1); ``legal``: the cards it may play (all, unless
    given), ``declares``: the K or Q leads that declare."""
    base = observe(new_game(Rules(), 7).deal, 0)
    tricks = tuple(Trick(1, cards(*t), 1, trump) for t in played)
    plays = tuple(LegalPlay(c) for c in cards(*(legal or hand))) + tuple(LegalPlay(c, True) for c in cards(*declares))
    return dataclasses.replace(
        base,
        phase="play",
        turn=0,
        hand=mask_of(cards(*hand)),
        trick=cards(*trick),
        leader=1 if trick else 0,
        trump=trump,
        tricks=tricks,
        stock_count=0,
        stock_bottom=None,
        plays=plays,
        bids=(),
        may_pass=False,
    )


def auction(hand: tuple[str, ...], bids: tuple[int, ...] = (100, 110, 120)) -> SeatKnowledge:
    """Seat 0 of a V7 auction (three seats) holding ``hand``, ``bids`` the bids it may make (V0.6)."""
    base = observe(new_game(Rules("bidding", seats=3), 7).deal, 0)
    return dataclasses.replace(base, phase="auction", turn=0, hand=mask_of(cards(*hand)), bids=bids, may_pass=True)


SPADES = 1


def test_r3_declares_marriage_when_the_lead_names_the_trump() -> None:
    k = two_hand(("KH", "QH", "9C"), declares=("KH", "QH"))
    assert reason_for(k, Play(card("KH"), True)) == ReasonCode.DECLARES_MARRIAGE


def test_r4_draws_trumps_when_it_holds_as_many_as_the_others_may() -> None:
    # Spades trump; of the six spades the seat holds AS TS and saw KS QS JS played: one (9S) is left out there.
    k = two_hand(("AS", "TS", "9C"), trump=SPADES, played=(("KS", "QS"), ("JS", "9H")))
    assert reason_for(k, Play(card("AS"))) == ReasonCode.DRAWS_TRUMPS
    fewer = two_hand(("AS", "9C"), trump=SPADES)  # five spades unseen, one held: no drawing the last of them
    assert reason_for(fewer, Play(card("AS"))) is None


def test_r1_r4_safe_ten_once_its_ace_is_gone() -> None:
    k = two_hand(("TH", "9C"), played=(("AH", "9H"),))
    assert reason_for(k, Play(card("TH"))) == ReasonCode.SAFE_TEN
    ace_out = two_hand(("TH", "9C"))  # the ace of hearts unseen: the ten is not safe
    assert reason_for(ace_out, Play(card("TH"))) is None


def test_r3_keeps_the_marriage_when_it_follows_with_another_card() -> None:
    k = two_hand(("KD", "QD", "9D", "AC"), trick=("JD",), legal=("KD", "QD", "9D"))
    assert reason_for(k, Play(card("9D"))) == ReasonCode.KEEPS_MARRIAGE
    declared = dataclasses.replace(k, declarations=(Declaration(1, 3, 40),))  # V0.5: a suit is declared once
    assert reason_for(declared, Play(card("9D"))) != ReasonCode.KEEPS_MARRIAGE  # diamonds declared already


def test_r4_cheap_win_takes_the_trick_with_the_cheapest_card_that_takes_it() -> None:
    k = two_hand(("AC", "TC", "JC"), trick=("9C",))
    assert reason_for(k, Play(card("JC"))) == ReasonCode.CHEAP_WIN
    assert reason_for(k, Play(card("AC"))) is None  # it wins, but not cheaply


def test_r4_throws_low_when_it_does_not_take_the_trick() -> None:
    k = two_hand(("9S", "KH"), trick=("AC",))
    assert reason_for(k, Play(card("9S"))) == ReasonCode.THROWS_LOW
    assert reason_for(k, Play(card("KH"))) is None  # it gives four points away


def test_v0_6_bid_worth_and_pass_weak_from_the_hand_alone() -> None:
    strong = auction(("AC", "TC", "KC", "QC", "AS", "TS", "AH", "TH", "KH", "QH"))
    assert reason_for(strong, Bid(100)) == ReasonCode.BID_WORTH
    weak = auction(("9C", "JC", "9S", "JS", "9H", "JH", "9D", "QD", "JD", "8C"))
    assert reason_for(weak, Pass()) == ReasonCode.PASS_WEAK
    assert reason_for(weak, Bid(100)) is None
    assert reason_for(strong, Pass()) is None
    assert reason_for(auction(("9C",), bids=()), Pass()) is None  # no bid left to make: the pass is forced


def test_v0_7_banks_points_when_the_discards_are_worth_a_ten() -> None:
    k = auction(("AC", "TC"))
    assert reason_for(k, Discard(card("TD"), card("9S"))) == ReasonCode.BANKS_POINTS
    assert reason_for(k, Discard(card("9D"), card("9S"))) is None


def test_no_reason_for_an_ordinary_lead() -> None:
    k = two_hand(("9C", "JH"))
    assert reason_for(k, Play(card("9C"))) is None
