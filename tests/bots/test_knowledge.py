"""R7, V0.11: a bot's knowledge holds only what its seat may see, whichever way it is built, and its
inferences are sound — in every game of the family (two-hand 1001 with its table options, V1, V2–V7)."""

from __future__ import annotations

import dataclasses
import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NoReturn

import pytest

from backend.bots import IncompleteHistory, choose_for_view, knowledge_from_view, levels_for, observe
from backend.engine import (
    Action,
    DealState,
    Event,
    Rules,
    SeatView,
    TrickWon,
    apply,
    check_deal,
    events_for,
    legal_actions,
    view_for,
)

from .support import (
    GAME_IDS,
    GAMES,
    fresh_match,
    hidden_from,
    permute_hidden,
    quick_bot,
    random_position,
)


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_r7_v0_11_knowledge_from_the_view_equals_observe_and_is_sound(rules: Rules) -> None:
    """Through whole matches, for every seat at every step: the server's path (``view_for`` and the
    redacted ``events_for``) gives the knowledge the simulations' ``observe`` gives; its unseen cards
    are exactly the hidden ones; every card it is sure a seat holds is held (R3, V0.5) and every card it
    is sure a seat lacks is lacked (the duties of R4 phase 2, V2.7, V3.6, V4.7, V7.8)."""
    if rules.scoring == "original":  # several deals, so that the events span them
        rules = dataclasses.replace(rules, target=rules.game.targets[0])
    rng = random.Random(rules.n * 7 + len(rules.variant) + rules.goal)
    n = rules.n
    levels = ("medium", "easy", "medium", "easy")
    match = fresh_match(rules, 3)
    received: list[list[Event]] = [[] for _ in range(n)]
    while not match.over and len(match.history) < 2:
        deal = match.deal
        for seat in range(n):
            k = knowledge_from_view(view_for(match, seat), received[seat])
            assert k == observe(deal, seat, match.totals)
            assert k.unseen == hidden_from(deal, seat)
            for s in range(n):
                assert k.known[s] & ~deal.hands[s] == 0
                if s != seat:
                    assert k.forbidden[s] & deal.hands[s] == 0, (s, k.forbidden[s], deal.hands[s])
        seat = deal.turn
        assert seat is not None
        action = choose_for_view(levels[seat], view_for(match, seat), received[seat], rng)
        match, events = apply(match, seat, action)
        for s in range(n):
            received[s].extend(events_for(events, s))
    assert len(match.history) >= 2  # the events spanned several deals


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_r7_knowledge_from_the_current_deal_events_alone(rules: Rules) -> None:
    """Events of earlier deals may be left out: only the current deal's are needed."""
    rng = random.Random(5)
    match = fresh_match(rules, 5)
    received: list[Event] = []
    while match.deal_number < 1 or len(match.deal.tricks) < 2 or match.deal.turn != 0:
        seat = match.deal.turn
        assert seat is not None
        match, events = apply(match, seat, rng.choice(legal_actions(match, seat)))
        received.extend(events_for(events, 0))
    start = max(i for i, e in enumerate(received) if e.kind == "deal_started")
    full = knowledge_from_view(view_for(match, 0), received)
    assert knowledge_from_view(view_for(match, 0), received[start + 1 :]) == full
    assert full == observe(match.deal, 0, match.totals)


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_r7_missing_trick_events_are_refused(rules: Rules) -> None:
    rng = random.Random(2)
    match, received = random_position(rules, rng, steps=30)
    while not match.deal.tricks:
        match, received = random_position(rules, rng, steps=30)
    for seat in range(rules.n):
        events = received[seat]
        first = next(i for i, e in enumerate(events) if isinstance(e, TrickWon))
        with pytest.raises(IncompleteHistory):
            knowledge_from_view(view_for(match, seat), events[:first] + events[first + 1 :])


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_spectators_unknown_levels_and_idle_seats_are_refused(rules: Rules) -> None:
    match, received = random_position(rules, random.Random(4))
    with pytest.raises(ValueError):
        knowledge_from_view(view_for(match, None), received[0])
    seat = match.deal.turn
    assert seat is not None
    view = view_for(match, seat)
    for level in ("grandmaster", "Expert"):  # a level no game has (levels are exact names)
        with pytest.raises(ValueError, match="unknown bot level"):
            choose_for_view(level, view, received[seat], random.Random(0))
    idle = (seat + 1) % rules.n
    for level in levels_for(rules):
        with pytest.raises(ValueError, match="turn"):
            choose_for_view(level, view_for(match, idle), received[idle], random.Random(0))


# ---------------------------------------------------------------- no hidden card is ever read


class _Forbidden:
    """Stands for a hidden card set: any use other than counting its cards fails the test."""

    def __init__(self, count: int) -> None:
        self._count = count

    def bit_count(self) -> int:
        return self._count

    def __getattr__(self, name: str) -> NoReturn:
        raise AssertionError(f"read a hidden card set ({name})")

    def _forbidden(self, *args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("read a hidden card set")

    __and__ = __rand__ = __or__ = __ror__ = __rshift__ = __xor__ = __index__ = __int__ = __eq__ = _forbidden
    __hash__ = None  # type: ignore[assignment]  # unhashable on purpose: hashing would read the cards


class _HiddenCards(tuple[int, ...]):
    """The stock, as dealt or now, or an unseen talon: its length is public (a count of the view), and
    the stock's bottom card if the table faces it (R2); its cards and their order are not."""

    faced = False

    def __getitem__(self, index: Any) -> Any:
        if index == -1 and self.faced:
            return tuple.__getitem__(self, -1)
        raise AssertionError("read hidden cards")

    def __iter__(self) -> NoReturn:
        raise AssertionError("read hidden cards")


def _guarded(state: DealState, seat: int) -> DealState:
    """``state`` with every card ``seat`` may not see replaced by an object that fails when read: the
    other hands (now and as dealt), the stock (now and as dealt), the talon unless this seat is the
    declarer who took it, another declarer's discards."""
    guarded = state._copy()
    guarded.hands = tuple(h if s == seat else _Forbidden(h.bit_count()) for s, h in enumerate(state.hands))
    stock = _HiddenCards(state.stock)
    stock.faced = state.rules.show_stock_bottom
    guarded.stock = stock
    dealt = state.dealt
    mine = state.declarer == seat and state.talon_taken
    guarded.dealt = dataclasses.replace(
        dealt,
        hands=tuple(h if s == seat else _Forbidden(h.bit_count()) for s, h in enumerate(dealt.hands)),
        stock=_HiddenCards(dealt.stock),
        talon=dealt.talon if mine else _HiddenCards(dealt.talon),
    )
    if state.declarer != seat:
        guarded.auction = dataclasses.replace(state.auction, discards=_Forbidden(state.discards.bit_count()))
    return guarded


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_r7_v0_11_observe_reads_no_hidden_card(rules: Rules) -> None:
    """``observe`` on a state whose hidden cards fail on any read (but their counts) gives the same
    knowledge, for the seat to move and for the others, in every phase."""
    rng = random.Random(3)
    phases = set()
    for i in range(30):
        match, _ = random_position(rules, rng, near_target=i % 3 == 0)
        state = match.deal
        phases.add(state.phase)
        for seat in range(rules.n):
            assert observe(_guarded(state, seat), seat) == observe(state, seat)
    assert "play" in phases and (not rules.game.has_auction or "auction" in phases)


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_r7_v0_11_bots_decide_the_same_whatever_the_hidden_cards(rules: Rules) -> None:
    """Two deals that differ only in the cards a seat cannot see look the same to it (equal knowledge,
    equal views), and every level makes the same decision in both with the same seed — a legal one in
    both (hard and the expert of three and four with small budgets and frozen clocks; the two-hand
    expert in test_expert.py)."""
    rng = random.Random(len(rules.variant) * 31 + rules.n + rules.layout.deck_size)
    changed = 0
    for i in range(8):
        match, _ = random_position(rules, rng, near_target=i % 4 == 0)
        while rules.two_hand and not match.deal.stock:  # phase 1: something is hidden (R4)
            match, _ = random_position(rules, rng)
        state = match.deal
        seat = state.turn
        assert seat is not None
        other = permute_hidden(state, seat, rng)
        changed += other.hands != state.hands
        assert observe(state, seat) == observe(other, seat)
        permuted = dataclasses.replace(match, deal=other)
        assert view_for(match, seat) == view_for(permuted, seat)
        for level in levels_for(rules):
            if level == "expert" and rules.two_hand:
                continue  # its deadline is tested with a fake clock in test_expert.py
            a = quick_bot(level, rules).choose(observe(state, seat), random.Random(i))
            b = quick_bot(level, rules).choose(observe(other, seat), random.Random(i))
            assert a == b
            check_deal(state, seat, a)
            check_deal(other, seat, b)
    assert changed >= 4  # the permutation really moved hidden cards


def _decide_in_worker(level: str, view: SeatView, events: tuple[Event, ...], seed: int, quick: bool) -> Action:
    """What the server's bot worker does (``rooms.bots.decide``): the action from the pickled view and
    events only — with the level's own bot, or (``quick``) its small, frozen-clock test twin."""
    if not quick:
        return choose_for_view(level, view, events, random.Random(seed))
    return quick_bot(level, view.rules).choose(knowledge_from_view(view, events), random.Random(seed))


def test_r7_views_and_events_pickle_into_another_process() -> None:
    """The server passes a seat's view and redacted events to a bot in a worker process (spawned, so
    with another hash seed), which decides as this process does — hard in phase 1 of two-hand 1001 with
    the faced stock card (its own budget: no deadline), hard (frozen clock) and medium in four-seat V7."""
    cases: list[tuple[str, bool, SeatView, tuple[Event, ...], DealState, int]] = []
    for rules, steps, levels in (
        (Rules(show_stock_bottom=True), 5, (("hard", False),)),
        (Rules("bidding", seats=4, target=301), 25, (("hard", True), ("medium", False))),
    ):
        rng = random.Random(8)
        match, received = random_position(rules, rng, steps=steps)
        while match.deal.phase != "play" or (rules.two_hand and not match.deal.stock):
            match, received = random_position(rules, rng, steps=steps)
        seat = match.deal.turn
        assert seat is not None
        view, sent = view_for(match, seat), tuple(received[seat])
        assert pickle.loads(pickle.dumps(view)) == view
        assert pickle.loads(pickle.dumps(sent)) == sent
        cases += [(level, quick, view, sent, match.deal, seat) for level, quick in levels]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = [
            pool.submit(_decide_in_worker, level, view, sent, 5, quick) for level, quick, view, sent, _, _ in cases
        ]
        for (level, quick, view, sent, state, seat), future in zip(cases, there, strict=True):
            action = future.result(timeout=120)
            assert action == _decide_in_worker(level, view, sent, 5, quick)
            check_deal(state, seat, action)
