"""``worlds.sample_world``, the one guess of the hidden cards for every game: each world agrees with
everything the seat saw (R2, R3, R7, V0.5, V0.7, V0.11 and the follower's duties), and it is drawn
uniformly from the worlds that do."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from backend.bots import SeatKnowledge, choose, observe, worlds
from backend.bots.worlds import World, sample_world
from backend.engine import DealState, Play, Rules, apply, apply_deal, card, deal_from_hands
from backend.engine.cards import cards_in, mask_of

from .support import GAME_IDS, GAMES, fresh_match

WorldKey = tuple[tuple[int, ...], tuple[int, ...]]  # the other seats' hands, talon and discards; the stock


def _others(k: SeatKnowledge) -> list[int]:
    return [s for s in range(k.n) if s != k.seat]


def assert_consistent(k: SeatKnowledge, world: World) -> None:
    """Every hidden card in exactly one place, every place holding as many cards as the seat sees there,
    the cards a seat is known to hold given to it, those it is known to lack never, the faced stock card
    at the bottom of the stock, and the seat's own cards as they are."""
    assert world.hands[k.seat] == k.hand
    for s in _others(k):
        assert world.hands[s].bit_count() == k.hand_counts[s]
        assert k.known[s] & ~world.hands[s] == 0  # R3, V0.5: the declared marriage's partner
        assert world.hands[s] & k.forbidden[s] == 0  # R4 phase 2, V2.7, V3.6, V4.7, V7.8
    assert world.talon.bit_count() == k.talon_count
    if k.declarer == k.seat:
        assert world.discards == k.discards  # V0.7: its own discards, as it laid them
        hidden_discards = 0
    else:
        assert world.discards.bit_count() == k.other_discards_count
        hidden_discards = world.discards
    assert len(world.stock) == len(set(world.stock)) == k.stock_count
    if k.stock_bottom is not None:
        assert world.stock[-1] == k.stock_bottom  # R2: the faced card stays at the bottom
    places = [world.hands[s] for s in _others(k)] + [world.talon, hidden_discards, mask_of(world.stock)]
    assert sum(p.bit_count() for p in places) == k.unseen.bit_count()
    union = 0
    for p in places:
        union |= p
    assert union == k.unseen  # so each hidden card exactly once, and no card the seat has seen


def _key(k: SeatKnowledge, world: World) -> WorldKey:
    hidden_discards = 0 if k.declarer == k.seat else world.discards
    return (*(world.hands[s] for s in _others(k)), world.talon, hidden_discards), tuple(world.stock)


def consistent_worlds(k: SeatKnowledge, limit: int, *, duties: bool = True) -> list[WorldKey] | None:
    """Every world that agrees with ``k``, by brute force (``duties=False``: ignoring what the follows
    proved a seat lacks), or None if there are more than ``limit``."""
    known = k.known
    forbidden = k.forbidden if duties else (0,) * k.n
    bottom = k.stock_bottom
    held = 0
    for mask in known:
        held |= mask
    free = [c for c in cards_in(k.unseen & ~held) if c != bottom]
    places = [(known[s], k.hand_counts[s] - known[s].bit_count(), forbidden[s]) for s in _others(k)]
    places += [(0, k.talon_count, 0), (0, k.other_discards_count, 0)]
    count = math.factorial(len(free))
    for _, need, _ in places:
        count //= math.factorial(need)
    if count > 50 * limit:
        return None
    out: list[WorldKey] = []

    def fill(i: int, rest: list[int], chosen: tuple[int, ...]) -> Iterator[WorldKey]:
        if i == len(places):
            for order in itertools.permutations(rest):
                yield chosen, order + ((bottom,) if bottom is not None else ())
            return
        base, need, ban = places[i]
        for combo in itertools.combinations(rest, need):
            mask = mask_of(combo)
            if not mask & ban:
                yield from fill(i + 1, [c for c in rest if not mask >> c & 1], (*chosen, base | mask))

    for world in fill(0, free, ()):
        out.append(world)
        if len(out) > limit:
            return None
    return out


def _positions(rules: Rules, seed: int, deals: int = 2) -> Iterator[DealState]:
    """The states of the first ``deals`` deals of a match of medium and easy seats (their follows show
    voids)."""
    rng = random.Random(seed)
    match = fresh_match(rules, seed)
    while not match.over and match.deal_number < deals:
        yield match.deal
        seat = match.deal.turn
        assert seat is not None
        level = "medium" if seat % 2 else "easy"
        match, _ = apply(match, seat, choose(level, observe(match.deal, seat), rng))


@pytest.mark.parametrize("fill", ["shuffle", "constrained", "matching"])
@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_sampled_worlds_are_consistent_with_what_the_seat_saw(
    rules: Rules, fill: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every step of three deals, for every seat: sampled worlds keep every constraint — by the shuffle
    (the usual way), by the constrained random fill and by the exact matching (its fallbacks, forced)."""
    if fill != "shuffle":
        monkeypatch.setattr(worlds, "_shuffled_deal", lambda *args: None)
    if fill == "matching":
        monkeypatch.setattr(worlds, "SHUFFLES", 0)
    rng = random.Random(len(rules.variant) + rules.n + rules.layout.deck_size)
    constrained = 0
    for state in _positions(rules, 17, deals=3):
        for seat in range(rules.n):
            k = observe(state, seat)
            constrained += any(k.forbidden[s] & k.unseen for s in _others(k))
            for _ in range(2):
                assert_consistent(k, sample_world(k, rng))
    assert rules.two_hand or constrained  # the follows proved voids: the constraints were tested


def _small_position(rules: Rules) -> SeatKnowledge:
    """The first seat's knowledge, in two deals of medium and easy play, with 6 to 150 consistent worlds
    — some excluded by the follows' duties where there are any (not in two-hand 1001's phase 1, R4)."""
    for seed in range(40):
        for state in _positions(rules, seed):
            if state.phase != "play":
                continue
            for seat in range(rules.n):
                k = observe(state, seat)
                every = consistent_worlds(k, 150)
                if every is None or len(every) < 6:
                    continue
                loose = consistent_worlds(k, 10_000, duties=False)
                if rules.two_hand or loose is None or len(loose) > len(every):
                    return k
    raise AssertionError("no small position found")


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_sampled_worlds_are_uniform_over_the_consistent_worlds(rules: Rules) -> None:
    """In a position with few consistent worlds, enumerated by brute force: 60 samples per world with a
    fixed seed hit every one of them, nothing else, and as often as a uniform draw would (Pearson's
    chi-square below its 99.98% quantile, by the Wilson–Hilferty approximation)."""
    k = _small_position(rules)
    every = consistent_worlds(k, 150)
    assert every is not None
    rng = random.Random(1001)
    draws = 60 * len(every)
    counts = Counter(_key(k, sample_world(k, rng)) for _ in range(draws))
    assert set(counts) == set(every)
    expected = draws / len(every)
    chi2 = sum((counts[w] - expected) ** 2 / expected for w in every)
    df = len(every) - 1
    z = 3.5
    quantile = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    assert chi2 < quantile, (chi2, quantile, len(every))


@pytest.mark.parametrize("show_bottom", [False, True])
def test_r3_r2_two_hand_worlds_keep_the_declared_partner_and_the_faced_card(show_bottom: bool) -> None:
    """Seat 0 declares clubs leading QC: every world gives KC to seat 0 (R3); the faced bottom card stays
    at the bottom of the stock (R2); the opponent's hand and the stock hold the counts seat 1 sees."""
    rules = Rules(show_stock_bottom=show_bottom)
    hands = ("KC QC 9S JS 9H JH 9D JD", "AC TC AS TS AH TH AD TD", "JC 9C KS QS KH QH KD QD")
    first, second, stock = ([card(n) for n in h.split()] for h in hands)
    state = deal_from_hands(rules, 1, [first, second], stock=stock)
    state, _ = apply_deal(state, 0, Play(card("QC"), True))
    k = observe(state, 1)
    assert k.known[0] == 1 << card("KC")
    rng = random.Random(0)
    stocks = set()
    for _ in range(200):
        world = sample_world(k, rng)
        assert_consistent(k, world)
        assert world.hands[0] >> card("KC") & 1
        assert world.hands[0].bit_count() == 7 and len(world.stock) == 8
        if show_bottom:
            assert world.stock[-1] == state.stock[-1]
        stocks.add(tuple(world.stock))
    assert len(stocks) > 150  # the stock order is guessed too, not fixed
