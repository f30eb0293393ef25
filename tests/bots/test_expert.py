"""Two-hand 1001's expert level (``bots.twohand``): legal, blind to hidden cards (R7), on time,
match-aware; its world search is exact."""

from __future__ import annotations

import random
import time

import pytest

from backend.bots import ExpertBot, bot_for, observe
from backend.bots.twohand.exact import solver, world_values
from backend.bots.twohand.expert import KQ_LEAD_WITHOUT_DECLARING, match_utility, world_weight
from backend.engine import DealState, Play, Rules, apply_deal, check_deal, deal_actions, deal_from_hands, new_deal
from backend.engine.cards import card

from .support import (
    TWO_HAND,
    TWO_HAND_IDS,
    StepClock,
    counted_so_far,
    exact_values,
    light_expert,
    permute_hidden,
    two_hand_position,
)


def _turn(state: DealState) -> int:
    assert state.turn is not None
    return state.turn


@pytest.mark.parametrize("rules", TWO_HAND, ids=TWO_HAND_IDS)
def test_r4_expert_plays_only_legal_cards(rules: Rules) -> None:
    rng = random.Random(rules.layout.deck_size + len(TWO_HAND_IDS))
    bot = light_expert()
    for _ in range(2):
        state = new_deal(rules, rng.randrange(1 << 60), rng.randrange(2))
        while not state.over:
            seat = _turn(state)
            play = bot.choose(observe(state, seat, (rng.randrange(900), rng.randrange(900))), rng)
            assert play in deal_actions(state, seat), (play, state)
            state, _ = apply_deal(state, seat, play)


@pytest.mark.parametrize("rules", TWO_HAND, ids=TWO_HAND_IDS)
def test_r7_expert_decides_the_same_whatever_the_hidden_cards(rules: Rules) -> None:
    """Same seat view, hidden cards permuted: the same decision (fake clock, so no timing noise)."""
    rng = random.Random(29)
    layout = rules.layout
    phase1_tricks = layout.stock_size // 2
    changed = 0
    for i in range(6):
        tricks_left = layout.deck_size // 2 - rng.randrange(phase1_tricks)
        state = two_hand_position(rules, rng, tricks_left, rng.random() < 0.5)
        seat = _turn(state)
        other = permute_hidden(state, seat, rng)
        changed += other.hands[1 - seat] != state.hands[1 - seat]
        mine, theirs = observe(state, seat, (500, 700)), observe(other, seat, (500, 700))
        assert mine == theirs
        a = light_expert(12).choose(mine, random.Random(i))
        b = light_expert(12).choose(theirs, random.Random(i))
        assert a == b
        check_deal(state, seat, a)
    assert changed >= 3


def test_expert_is_the_two_hand_registrys_and_waits_the_published_time() -> None:
    """``bot_for("expert", …)`` is an ``ExpertBot`` with the 0.7 s deadline the lobby shows."""
    bot = bot_for("expert", Rules())
    assert isinstance(bot, ExpertBot)
    assert bot.budget == 0.7


def test_expert_respects_its_deadline_on_a_fake_clock() -> None:
    """Past the deadline at the first reading: only the cheap playout pass runs, and the play is legal."""
    state = new_deal(Rules(), 77, 0)
    clock = StepClock(10.0)
    bot = ExpertBot(budget=1.0, max_worlds=12, clock=clock)
    play = bot.choose(observe(state, _turn(state)), random.Random(0))
    assert play in deal_actions(state, _turn(state))
    assert bot.last_solved == [False] * 12
    assert clock.reads <= 3  # the deadline was set, then the first check stopped the search


def test_expert_respects_a_tiny_real_deadline() -> None:
    """A 20 ms budget on the most expensive decision (the first lead) ends well within a generous bound."""
    state = new_deal(Rules(), 78, 1)
    bot = ExpertBot(budget=0.02, max_worlds=40)
    start = time.perf_counter()
    play = bot.choose(observe(state, _turn(state)), random.Random(0))
    assert time.perf_counter() - start < 1.0  # 40 playout passes plus one interrupted search
    assert play in deal_actions(state, _turn(state))


def test_r5_match_utility_prefers_the_safe_line_near_the_target() -> None:
    """960 : 980 to 1001. Play A wins the deal by 30 in every world (enough to win the match);
    play B wins by 150 in half the worlds and loses by 60 in the others: more points on average
    (+45), but the match is lost half the time. The expert takes A; a score maximizer B."""
    state = new_deal(Rules(), 5, 1)
    k = observe(state, _turn(state), (960, 980) if state.turn == 0 else (980, 960))
    assert k.totals[k.seat] == 960
    a, b = 1, 2
    scores = [{a: 30, b: 150}, {a: 30, b: 150}, {a: 30, b: -60}, {a: 30, b: -60}]
    assert ExpertBot().pick(k, [a, b], scores) == 0
    assert ExpertBot(match_aware=False).pick(k, [a, b], scores) == 1
    # Far from the target the utility is close to linear in the score: B, the better average.
    far = observe(state, _turn(state), (0, 0))
    assert ExpertBot().pick(far, [a, b], scores) == 1


def test_r5_match_utility_follows_the_rules_at_the_target() -> None:
    assert match_utility((990, 500), 1001, 20, 0) == 1.0  # reaches 1001 alone
    assert match_utility((500, 990), 1001, 100, 20) == 0.0
    assert match_utility((995, 990), 1001, 20, 20) == 1.0  # R5.1: both reach it, the higher total wins
    assert match_utility((995, 995), 1001, 20, 20) == 0.5  # exact tie: another deal
    assert 0.5 < match_utility((600, 500), 1001, 60, 60) < 1.0
    assert match_utility((600, 500), 1001, 60, 60) > match_utility((600, 500), 1001, 50, 70)


def test_r3_worlds_weighted_by_a_king_led_without_declaring() -> None:
    """Seat 0 leads KH without declaring: worlds where it still holds QH become less likely."""
    hands = ("KH 9C JC 9S JS 9D JD TD", "AC TC AS TS AH TH AD KD", "QH KC QC KS QS QD JH 9H")
    first, second, stock = ([card(n) for n in h.split(" ")] for h in hands)
    state = deal_from_hands(Rules(), 1, [first, second], stock=stock)
    state, _ = apply_deal(state, 0, Play(card("KH")))
    k = observe(state, 1)
    assert world_weight(k, 1 << card("QH")) == KQ_LEAD_WITHOUT_DECLARING
    assert world_weight(k, 1 << card("QC")) == 1.0
    bot = ExpertBot(max_worlds=200)
    rng = random.Random(3)
    weighted = sum(opp >> card("QH") & 1 for opp, _ in bot.sample_worlds(k, rng))
    uniform = sum(opp >> card("QH") & 1 for opp, _ in ExpertBot(max_worlds=200, infer=False).sample_worlds(k, rng))
    assert weighted < 0.75 * uniform


def _reference_last_phase1_trick(state: DealState, seat: int) -> dict[Play, int]:
    """Each play's exact value for ``seat`` at the last phase-1 trick: the trick through the engine,
    then the exact phase-2 values (checked against brute force in test_exact)."""
    out = {}
    for play in deal_actions(state, seat):
        assert isinstance(play, Play)
        after, _ = apply_deal(state, seat, play)
        follows = []
        if after.trick:
            for reply in deal_actions(after, _turn(after)):
                done, _ = apply_deal(after, _turn(after), reply)
                follows.append(_value_from(done, seat))
            out[play] = min(follows)
        else:
            out[play] = _value_from(after, seat)
    return out


def _value_from(state: DealState, seat: int) -> int:
    value = max(exact_values(state).values())
    mover = state.turn
    return counted_so_far(state, seat) + (value if mover == seat else -value)


def test_world_values_are_exact_at_the_last_phase1_trick() -> None:
    rng = random.Random(41)
    for rules in (Rules(), Rules(declaration_scoring="by_order")):
        for i in range(4):
            state = two_hand_position(rules, rng, rules.layout.deck_size // 2 - 3, mid_trick=i % 2 == 1)
            seat = _turn(state)
            k = observe(state, seat)
            scores = world_values(solver(rules.by_suit), k, state.hands[1 - seat], state.stock)
            expected = _reference_last_phase1_trick(state, seat)
            before = counted_so_far(state, seat)
            got = {Play(m & 31, bool(m & 32)): before + v for m, v in scores.items()}
            assert got == expected


def test_world_values_do_not_depend_on_the_worlds_searched_before() -> None:
    """The thread's solver keeps its table from world to world and decision to decision: a world valued
    after others is valued as by a fresh solver."""
    from backend.search import Solver

    rng = random.Random(5)
    rules = Rules()
    shared = solver(rules.by_suit)
    for trick in (2, 3):
        state = two_hand_position(rules, rng, rules.layout.deck_size // 2 - trick, mid_trick=trick == 3)
        seat = _turn(state)
        k = observe(state, seat)
        opp = state.hands[1 - seat]
        worlds = [list(state.stock), list(reversed(state.stock)), list(state.stock)]
        for stock in worlds:
            got = world_values(shared, k, opp, stock)
            assert got == world_values(Solver(rules.by_suit, table_bits=12), k, opp, stock)


@pytest.mark.parametrize("show_bottom", [False, True])
def test_r2_r3_every_world_at_the_last_phase1_trick(show_bottom: bool) -> None:
    """At the last phase-1 trick the expert takes every consistent world: which unseen cards are the
    stock's two, in which order (R2: a faced bottom card stays at the bottom)."""
    rules = Rules(show_stock_bottom=show_bottom)
    rng = random.Random(8)
    state = two_hand_position(rules, rng, rules.layout.deck_size // 2 - 3)
    k = observe(state, _turn(state))
    worlds = ExpertBot().all_worlds(k, 1000)
    assert worlds is not None
    unseen = k.unseen
    free = (unseen & ~k.known_opponent_cards).bit_count() - (1 if show_bottom else 0)
    assert len(worlds) == (free * (free - 1) if not show_bottom else free)
    assert len({(opp, tuple(stock)) for opp, stock in worlds}) == len(worlds)
    for opp, stock in worlds:
        assert opp & k.known_opponent_cards == k.known_opponent_cards
        assert opp.bit_count() == k.opponent_count and len(stock) == 2
        assert opp | sum(1 << c for c in stock) == unseen
        if show_bottom:
            assert stock[-1] == state.stock[-1]
    assert (state.hands[1 - _turn(state)], list(state.stock)) in worlds  # the true deal is one of them
