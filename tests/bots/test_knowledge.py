"""R7: a bot's knowledge holds only what its seat may see, whichever way it is built."""

from __future__ import annotations

import dataclasses
import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from backend.bots import LEVELS, IncompleteHistory, choose, knowledge_from_view, observe
from backend.engine import deal as engine
from backend.engine.cards import cards_in
from backend.engine.deal import DealState, Play
from backend.engine.events import Event
from backend.engine.match import apply as match_apply
from backend.engine.match import new_match
from backend.engine.rules import Rules
from backend.engine.view import SeatView, events_for_seat, seat_view

from .support import RULE_IDS, RULE_SETS, random_play, random_position


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_r7_knowledge_from_view_equals_observe_through_whole_matches(rules: Rules) -> None:
    """The server path (seat_view + redacted events) and the simulation path give the same knowledge."""
    rules = dataclasses.replace(rules, target=1001)
    rng = random.Random(rules.deck_size)
    for seed in (1, 2):
        match = new_match(rules, seed)
        received: list[list[Event]] = [[], []]
        while not match.over:
            for seat in (0, 1):
                from_view = knowledge_from_view(seat_view(match, seat), received[seat])
                assert from_view == observe(match.deal, seat, match.totals)
            seat = match.deal.turn
            knowledge = knowledge_from_view(seat_view(match, seat), received[seat])
            play = choose("medium" if seat else "easy", knowledge, rng)
            match, events = match_apply(match, seat, play)
            for s in (0, 1):
                received[s].extend(events_for_seat(events, s))
        assert len(match.history) >= 2  # the events spanned several deals


def test_r7_knowledge_from_the_current_deal_events_alone() -> None:
    """Events of earlier deals may be left out: only the current deal's are needed."""
    rules = Rules()
    match = new_match(rules, 5)
    received: list[Event] = []
    rng = random.Random(0)
    while match.deal_number < 1 or len(match.deal.tricks) < 3:
        seat = match.deal.turn
        match, events = match_apply(match, seat, random_play(match.deal, rng))
        received.extend(events_for_seat(events, 0))
    start = max(i for i, e in enumerate(received) if e.kind == "deal_started")
    full = knowledge_from_view(seat_view(match, 0), received)
    assert knowledge_from_view(seat_view(match, 0), received[start + 1 :]) == full
    assert full == observe(match.deal, 0, match.totals)


def test_r7_missing_trick_events_are_refused() -> None:
    rules = Rules()
    match = new_match(rules, 9)
    received: list[Event] = []
    rng = random.Random(0)
    while len(match.deal.tricks) < 2:
        match, events = match_apply(match, match.deal.turn, random_play(match.deal, rng))
        received.extend(events_for_seat(events, 1))
    first_trick = next(i for i, e in enumerate(received) if e.kind == "trick_won")
    with pytest.raises(IncompleteHistory):
        knowledge_from_view(seat_view(match, 1), received[:first_trick] + received[first_trick + 1 :])


class _Forbidden:
    """Stands for a hidden card set: any use other than counting its cards fails the test."""

    def __init__(self, count: int) -> None:
        self._count = count

    def bit_count(self) -> int:
        return self._count

    def __getattr__(self, name: str):
        raise AssertionError(f"read a hidden card set ({name})")

    def _forbidden(self, *args, **kwargs):
        raise AssertionError("read a hidden card set")

    __and__ = __rand__ = __or__ = __ror__ = __rshift__ = __xor__ = __index__ = __int__ = __eq__ = _forbidden
    __hash__ = None  # type: ignore[assignment]  # unhashable on purpose: hashing would read the cards


class _HiddenStock(tuple):
    """The stock: its length is public, its bottom card too if the table faces it (R2), nothing else."""

    faced = False

    def __getitem__(self, index):
        if index == -1 and self.faced:
            return tuple.__getitem__(self, -1)
        raise AssertionError("read the order of the stock")

    def __iter__(self):
        raise AssertionError("read the stock")


class _HiddenTuple(tuple):
    """``initial_stock`` and the like: no access at all."""

    def __getitem__(self, index):
        raise AssertionError("read a hidden tuple")

    def __iter__(self):
        raise AssertionError("read a hidden tuple")

    def __len__(self):
        raise AssertionError("read a hidden tuple")


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_r7_observe_reads_neither_the_opponents_hand_nor_the_stock(rules: Rules) -> None:
    rng = random.Random(3)
    for _ in range(40):
        state = random_position(rules, rng, rng.randrange(1, rules.deck_size // 2 + 1), rng.random() < 0.5)
        seat = state.turn
        expected = observe(state, seat)
        guarded = state._copy()
        other = 1 - seat
        hands = [0, 0]
        hands[seat] = state.hands[seat]
        hands[other] = _Forbidden(state.hands[other].bit_count())
        guarded.hands = tuple(hands)
        initial = [0, 0]
        initial[seat] = state.initial_hands[seat]
        initial[other] = _Forbidden(rules.hand_size)
        guarded.initial_hands = tuple(initial)
        stock = _HiddenStock(state.stock)
        stock.faced = rules.show_stock_bottom
        guarded.stock = stock
        guarded.initial_stock = _HiddenTuple(state.initial_stock)
        assert observe(guarded, seat) == expected


def _permute_hidden(state: DealState, seat: int, rng: random.Random) -> DealState:
    """The same deal as ``seat`` sees it, with the hidden cards (opponent's hand, stock) shuffled.

    Cards the seat knows where they are keep their place: the declared marriage partner
    still in the opponent's hand (R3) and the faced bottom card of the stock (R2). The
    permutation is applied to the initial hands and stock too, so the result is a
    consistent deal.
    """
    other = 1 - seat
    fixed = set()
    for d in state.declarations:
        if d.seat == other:
            fixed |= {c for c in (8 * d.suit + 2, 8 * d.suit + 3) if state.hands[other] >> c & 1}
    if state.stock_bottom is not None:
        fixed.add(state.stock_bottom)
    hidden = sorted((set(cards_in(state.hands[other])) | set(state.stock)) - fixed)
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled, strict=True))

    def remap_mask(mask: int) -> int:
        out = 0
        for c in cards_in(mask):
            out |= 1 << mapping.get(c, c)
        return out

    permuted = state._copy()
    hands = list(state.hands)
    hands[other] = remap_mask(state.hands[other])
    permuted.hands = tuple(hands)
    initial = list(state.initial_hands)
    initial[other] = remap_mask(state.initial_hands[other])
    permuted.initial_hands = tuple(initial)
    permuted.stock = tuple(mapping.get(c, c) for c in state.stock)
    permuted.initial_stock = tuple(mapping.get(c, c) for c in state.initial_stock)
    return permuted


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_r7_bots_decide_the_same_whatever_the_hidden_cards(rules: Rules) -> None:
    """Two deals that differ only in the opponent's hand and the stock order look the same to a seat,
    and every bot makes the same decision in both with the same random seed."""
    rng = random.Random(11)
    changed = 0
    phase1_tricks = (rules.deck_size - 2 * rules.hand_size) // 2
    for i in range(12):
        tricks_left = rules.deck_size // 2 - rng.randrange(phase1_tricks)  # phase 1: something is hidden
        state = random_position(rules, rng, tricks_left, rng.random() < 0.5)
        seat = state.turn
        other_state = _permute_hidden(state, seat, rng)
        changed += other_state.hands[1 - seat] != state.hands[1 - seat]
        mine, theirs = observe(state, seat), observe(other_state, seat)
        assert mine == theirs
        match = dataclasses.replace(new_match(rules, 1), deal=state)
        assert seat_view(match, seat) == seat_view(dataclasses.replace(match, deal=other_state), seat)
        for level in LEVELS:
            if level == "hard" and i % 3:
                continue  # keep the test fast: hard on every third position
            if level == "expert":
                continue  # its deadline reads a real clock: tested with a fake clock in test_expert.py
            a = choose(level, mine, random.Random(i))
            b = choose(level, theirs, random.Random(i))
            assert a == b
            engine.check(state, seat, a)
            engine.check(other_state, seat, b)
    assert changed >= 6  # the permutation really moved hidden cards


def _decide_in_worker(level: str, view: SeatView, events: tuple[Event, ...], seed: int) -> Play:
    """What the server's bot worker does: knowledge from the pickled view and events, then a play."""
    return choose(level, knowledge_from_view(view, events), random.Random(seed))


def test_r7_view_and_events_pickle_into_another_process() -> None:
    """The server passes a seat's view and redacted events to a bot in a worker process (spawned)."""
    rules = Rules(show_stock_bottom=True)
    match = new_match(rules, 21)
    received: list[Event] = []
    rng = random.Random(1)
    while match.deal_number < 1 or len(match.deal.tricks) < 2 or match.deal.turn != 0:
        match, events = match_apply(match, match.deal.turn, random_play(match.deal, rng))
        received.extend(events_for_seat(events, 0))
    view = seat_view(match, 0)
    events_sent = tuple(received)
    assert pickle.loads(pickle.dumps(view)) == view
    assert pickle.loads(pickle.dumps(events_sent)) == events_sent
    here = _decide_in_worker("hard", view, events_sent, 5)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = pool.submit(_decide_in_worker, "hard", view, events_sent, 5).result(timeout=120)
    assert there == here
    engine.check(match.deal, 0, there)
