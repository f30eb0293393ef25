"""V0.11: a variant bot's knowledge holds only what its seat may see, and its inferences are sound."""

from __future__ import annotations

import dataclasses
import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from backend.bots import IncompleteHistory
from backend.bots.table_knowledge import sample_world, table_knowledge_from_view
from backend.bots.table_players import TABLE_LEVELS, choose_table_action, table_bot_for
from backend.engine.cards import cards_in
from backend.engine.table_deal import TableAction, TableDealState, check_table
from backend.engine.table_events import TableEvent
from backend.engine.table_match import TableMatchState, apply_table_match
from backend.engine.table_view import TableSeatView, table_events_for_seat, table_seat_view
from backend.engine.variants import TableRules

from .table_support import TABLE_IDS, TABLE_RULES, fresh_match, random_table_position, small_hard


def _hidden_from(state: TableDealState, seat: int) -> int:
    """The true cards ``seat`` has not seen: other hands, the untaken talon, another declarer's discards."""
    hidden = 0
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= hand
    if not state.talon_taken:
        for c in state.talon:
            hidden |= 1 << c
    if state.declarer != seat:
        hidden |= state.discards
    return hidden


@pytest.mark.parametrize("rules", TABLE_RULES, ids=TABLE_IDS)
def test_knowledge_is_sound_at_every_step_for_every_seat(rules: TableRules) -> None:
    """Through whole matches, for every seat: the unseen cards are exactly the hidden ones, every card
    it is sure a seat holds is held, every card it is sure a seat lacks is lacked (V2.7, V3.6, V4.7, V7.8
    duties), and sampled worlds respect both and the counts."""
    rng = random.Random(rules.n * 7 + len(rules.variant))
    n = rules.n
    match = fresh_match(rules, 3)
    received: list[list[TableEvent]] = [[] for _ in range(n)]
    levels = ("medium", "easy", "medium", "easy")
    steps = 0
    while not match.over and steps < 400:
        deal = match.deal
        for seat in range(n):
            k = table_knowledge_from_view(table_seat_view(match, seat), received[seat])
            assert k.unseen == _hidden_from(deal, seat)
            for s in range(n):
                assert k.known[s] & ~deal.hands[s] == 0
                if s != seat:
                    assert k.forbidden[s] & deal.hands[s] == 0, (s, k.forbidden[s], deal.hands[s])
            if steps % 5 == 0 and deal.phase in ("auction", "play"):
                world = sample_world(k, rng)
                assert world.hands[seat] == deal.hands[seat]
                for s in range(n):
                    assert world.hands[s].bit_count() == deal.hands[s].bit_count()
                    if s != seat:
                        assert world.hands[s] & k.forbidden[s] == 0
                        assert k.known[s] & ~world.hands[s] == 0
                every = world.talon | (world.discards if deal.declarer != seat else 0)
                for s in range(n):
                    if s != seat:
                        every |= world.hands[s]
                assert every == k.unseen
        seat = match.deal.turn
        assert seat is not None
        view = table_seat_view(match, seat)
        action = choose_table_action(levels[seat], view, received[seat], rng)
        match, events = apply_table_match(match, seat, action)
        for s in range(n):
            received[s].extend(table_events_for_seat(events, s))
        steps += 1
    assert len(match.history) >= 1


def _permute_hidden(state: TableDealState, seat: int, rng: random.Random) -> TableDealState:
    """The same deal as ``seat`` sees it, its hidden cards (other hands, the untaken talon, another
    declarer's discards) shuffled among their places; the declared marriage partners stay put (V0.5).
    The permutation is applied to the initial hands and the talon too, so the deal stays a partition."""
    hidden = _hidden_from(state, seat)
    for d in state.declarations:
        if d.seat != seat:
            hidden &= ~(0b1100 << 8 * d.suit)  # the K and Q of a declared suit
    cards = list(cards_in(hidden))
    shuffled = list(cards)
    rng.shuffle(shuffled)
    mapping = dict(zip(cards, shuffled, strict=True))

    def remap(mask: int) -> int:
        out = 0
        for c in cards_in(mask):
            out |= 1 << mapping.get(c, c)
        return out

    hands = tuple(h if s == seat else remap(h) for s, h in enumerate(state.hands))
    initial = tuple(h if s == seat else remap(h) for s, h in enumerate(state.initial_hands))
    talon = (
        state.talon if state.declarer == seat and state.talon_taken else tuple(mapping.get(c, c) for c in state.talon)
    )
    discards = state.discards if state.declarer == seat else remap(state.discards)
    return dataclasses.replace(state, hands=hands, initial_hands=initial, talon=talon, discards=discards)


def _decide(level: str, view: TableSeatView, events: list[TableEvent], seed: int) -> TableAction:
    bot = small_hard(level) if level in ("hard", "expert") else table_bot_for(level)
    return bot.choose(table_knowledge_from_view(view, events), random.Random(seed))


@pytest.mark.parametrize("rules", TABLE_RULES, ids=TABLE_IDS)
def test_bots_decide_the_same_whatever_the_hidden_cards(rules: TableRules) -> None:
    """Two deals that differ only in the cards a seat cannot see look the same to it (equal views), and
    every level makes the same decision in both with the same seed — a legal one in both."""
    rng = random.Random(len(rules.variant) * 31 + rules.n)
    changed = 0
    for i in range(8):
        match, received = random_table_position(rules, rng)
        seat = match.deal.turn
        assert seat is not None
        other = _permute_hidden(match.deal, seat, rng)
        changed += other.hands != match.deal.hands
        permuted: TableMatchState = dataclasses.replace(match, deal=other)
        view = table_seat_view(match, seat)
        assert view == table_seat_view(permuted, seat)
        for level in TABLE_LEVELS:
            a = _decide(level, view, received[seat], i)
            b = _decide(level, table_seat_view(permuted, seat), received[seat], i)
            assert a == b
            check_table(match.deal, seat, a)
            check_table(other, seat, b)
    assert changed >= 4  # the permutation really moved hidden cards


def test_missing_trick_events_are_refused() -> None:
    rules = TableRules("thousand3", target=301)
    rng = random.Random(2)
    while True:
        match, received = random_table_position(rules, rng)
        if match.deal.tricks:
            break
    events = received[0]
    first = next(i for i, e in enumerate(events) if e.kind == "trick_won")
    with pytest.raises(IncompleteHistory):
        table_knowledge_from_view(table_seat_view(match, 0), events[:first] + events[first + 1 :])


def test_spectators_and_unknown_levels_are_refused() -> None:
    rules = TableRules("mcleod", target=301)
    match, received = random_table_position(rules, random.Random(4))
    with pytest.raises(ValueError):
        table_knowledge_from_view(table_seat_view(match, None), received[0])
    seat = match.deal.turn
    assert seat is not None
    with pytest.raises(ValueError):
        choose_table_action("grandmaster", table_seat_view(match, seat), received[seat], random.Random(0))
    idle = (seat + 1) % rules.n
    with pytest.raises(ValueError):
        choose_table_action("medium", table_seat_view(match, idle), received[idle], random.Random(0))


def _decide_in_worker(level: str, view: TableSeatView, events: tuple[TableEvent, ...], seed: int) -> TableAction:
    """What the server's bot worker does: the action from the pickled view and events."""
    return choose_table_action(level, view, events, random.Random(seed))


def test_view_and_events_pickle_into_another_process() -> None:
    rules = TableRules("bidding", seats=4, target=301)
    rng = random.Random(8)
    while True:
        match, received = random_table_position(rules, rng)
        if match.deal.phase == "play":
            break
    seat = match.deal.turn
    assert seat is not None
    view = table_seat_view(match, seat)
    sent = tuple(received[seat])
    assert pickle.loads(pickle.dumps(view)) == view
    assert pickle.loads(pickle.dumps(sent)) == sent
    here = _decide_in_worker("medium", view, sent, 5)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = pool.submit(_decide_in_worker, "medium", view, sent, 5).result(timeout=120)
    assert there == here
    check_table(match.deal, seat, there)
