"""The expert of the games of three and four (``bots.expert``, issue 25): legal, reproducible on a
fake clock, its worlds weighted by the auction (V0.6, V0.6b), and its match utility (V0.9) — shared
with two-hand 1001's expert (``bots.match``)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from backend.bots import HardBot, TableExpertBot, bot_for, observe
from backend.bots.bidding import hand_estimate
from backend.bots.evidence import auction_hands, call_weight
from backend.bots.expert import THINKING_S
from backend.bots.match import match_utility, weighted_order
from backend.bots.twohand.expert import THINKING_S as TWO_HAND_THINKING_S
from backend.bots.twohand.expert import match_utility as two_hand_match_utility
from backend.bots.worlds import World
from backend.engine import Bid, DealState, Pass, Rules, apply_deal, deal_actions, new_deal
from backend.engine.cards import KING, QUEEN

from .support import VARIANT_IDS, VARIANTS, StepClock, light_table_expert, random_position


def _turn(state: DealState) -> int:
    assert state.turn is not None
    return state.turn


# ---------------------------------------------------------------- the registry, legality, reproducibility


def test_the_registrys_expert_of_every_variant_thinks_within_the_published_time() -> None:
    """The lobby shows one expert thinking time (the two-hand expert's 0.7 s): the variants' is below it."""
    for rules in VARIANTS:
        bot = bot_for("expert", rules)
        assert isinstance(bot, TableExpertBot)
        assert bot.budget == THINKING_S <= TWO_HAND_THINKING_S


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_v0_5_v0_7_expert_takes_only_legal_actions_through_whole_deals(rules: Rules) -> None:
    """Every bid, pass, discard and card of whole deals is legal, totals at random (near the target too:
    V7.7's meld ban, V0.6b's cap)."""
    rng = random.Random(len(rules.variant) + 7 * rules.n)
    bot = light_table_expert()
    for d in range(2):
        state = new_deal(rules, rng.randrange(1 << 40), d % rules.n)
        totals = tuple(rng.choice((0, rules.goal - 150, rules.goal - 90, rules.goal - 10)) for _ in range(rules.n))
        while not state.over:
            seat = _turn(state)
            action = bot.choose(observe(state, seat, totals), rng)
            assert action in deal_actions(state, seat), (action, state)
            state, _ = apply_deal(state, seat, action)


@pytest.mark.parametrize("rules", VARIANTS[:6], ids=VARIANT_IDS[:6])
def test_expert_is_reproducible_on_a_fake_clock(rules: Rules) -> None:
    """A clock that advances at every reading: the deadline falls after the same amount of search, so the
    same knowledge and seed give the same decision; and the deadline does stop it early."""
    rng = random.Random(3 + rules.n)
    for _ in range(4):
        match, _ = random_position(rules, rng)
        k = observe(match.deal, _turn(match.deal), match.totals)
        decisions = []
        for _ in range(2):
            clock = StepClock(0.1)
            bot = TableExpertBot(budget=1.0, clock=clock)
            decisions.append(bot.choose(k, random.Random(11)))
            assert clock.reads <= 1 + 10 + 1  # set the deadline, then stopped at the first check past it
        assert decisions[0] == decisions[1]


# ---------------------------------------------------------------- the auction as evidence (V0.6, V0.6b)


def _auction(rules: Rules, calls: list[int | None], want_pair_for: int | None = None) -> DealState:
    """A deal whose auction went ``calls`` (a bid or a pass per turn), on the first seed where they are
    legal — and, with ``want_pair_for``, where that call's seat holds a K-Q pair (V0.6b: a bid over 120)."""
    for seed in range(500):
        state = new_deal(rules, seed, 0)
        try:
            for i, call in enumerate(calls):
                seat = _turn(state)
                if i == want_pair_for and not any(
                    state.hands[seat] >> 8 * s + KING & 1 and state.hands[seat] >> 8 * s + QUEEN & 1 for s in range(4)
                ):
                    raise ValueError("no K-Q pair")
                state, _ = apply_deal(state, seat, Pass() if call is None else Bid(call))
        except ValueError:
            continue
        if state.phase == "auction":
            return state
    raise AssertionError("no deal fits")


def _estimate(rules: Rules, hand: int) -> int:
    return hand_estimate(hand, rules.game.declaration_values, rules.n, rules.layout.talon_size, True)


def test_v0_6_a_bid_makes_strong_hands_likelier_and_a_pass_weak_ones() -> None:
    """V2: the first seat passes at the minimum (40, V2.4), the next bids 100; the third, to speak,
    draws its worlds by those calls: the bidder's sampled hands are worth more than uniform samples give
    it, the passer's less."""
    rules = Rules("mcleod", target=1001)
    state = _auction(rules, [None, 100])
    passer, bidder = (c.seat for c in state.calls)
    me = _turn(state)
    k = observe(state, me)
    uniform = list(HardBot(1, 1, None).worlds(k, random.Random(1), 300))
    weighted = list(TableExpertBot(max_worlds=300).worlds(k, random.Random(1), 300))
    assert len(weighted) == 300

    def mean_estimate(worlds: list[World], seat: int) -> float:
        return statistics.mean(_estimate(rules, w.hands[seat]) for w in worlds)

    assert mean_estimate(weighted, bidder) > mean_estimate(uniform, bidder) + 5
    assert mean_estimate(weighted, passer) < mean_estimate(uniform, passer) - 5
    # soft weights, never exclusions: a hand that could not have bid 110 keeps a chance
    assert min(call_weight(k, w) for w in uniform) > 0


def test_v0_6b_a_bid_over_120_makes_a_k_q_pair_almost_sure() -> None:
    """Three-seat V7: seat 1 bid 130, legal only with a K-Q pair (ruling V0.6b): nearly every weighted
    world gives it one, far more than uniform worlds do."""
    rules = Rules("bidding", seats=3, target=1001)
    state = _auction(rules, [130], want_pair_for=0)
    bidder = state.calls[0].seat
    k = observe(state, _turn(state))

    def with_pair(worlds: list[World]) -> float:
        held = [auction_hands(k, w)[bidder] for w in worlds]
        return statistics.mean(any(h >> 8 * s + KING & 1 and h >> 8 * s + QUEEN & 1 for s in range(4)) for h in held)

    uniform = list(HardBot(1, 1, None).worlds(k, random.Random(2), 200))
    weighted = list(TableExpertBot(max_worlds=200).worlds(k, random.Random(2), 200))
    assert with_pair(weighted) > 0.9 and with_pair(weighted) > with_pair(uniform) + 0.2


def test_weighted_order_draws_by_weight_without_replacement() -> None:
    rng = random.Random(5)
    firsts = [weighted_order([1.0, 3.0, 0.0], rng) for _ in range(2000)]
    assert all(sorted(order) == [0, 1, 2] and order[-1] == 2 for order in firsts)  # a zero weight comes last
    share = sum(order[0] == 1 for order in firsts) / len(firsts)
    assert 0.70 < share < 0.80  # P(first = 1) = 3/4


# ---------------------------------------------------------------- the match utility (R5.1, V0.9)


def test_v0_9_match_utility_at_the_target_for_three_and_four_seats() -> None:
    target = 1001
    assert match_utility((950, 900, 980), target, (60, 0, 0), 0) == 1.0  # the unique highest at the target
    assert match_utility((950, 900, 980), target, (60, 0, 0), 2) == 0.0
    assert match_utility((950, 900, 980), target, (80, 0, 30), 0) == 1.0  # both over it: the higher wins
    assert match_utility((950, 900, 980), target, (80, 0, 30), 2) == 0.0
    tied = [match_utility((950, 900, 980), target, (60, 0, 30), s) for s in range(3)]
    assert tied == [0.5, 0.0, 0.5]  # a tie for the highest at 1010: another deal
    assert match_utility((950, 960, 970, 990), target, (0, 0, 0, -200), 3) < 0.25  # a failed contract falls back
    # below the target: the chances add up to one, more points is better, and the leader is the rival
    totals, deal = (400, 500, 300), (40, 40, 40)
    chances = [match_utility(totals, target, deal, s) for s in range(3)]
    assert sum(chances) == pytest.approx(1.0) and chances[1] > chances[0] > chances[2]
    assert match_utility(totals, target, (60, 40, 40), 0) > match_utility(totals, target, deal, 0)
    # taking 20 from the leader helps more than taking 20 from the last
    assert match_utility(totals, target, (40, 20, 40), 0) > match_utility(totals, target, (40, 40, 20), 0)
    # V4.9 simplified (tenths, to 100): the same chances on a tenth of the points
    tenth = match_utility((40, 50, 30), 100, (4, 4, 4), 0, unit=0.1)
    assert tenth == pytest.approx(match_utility((400, 500, 300), 1000, (40, 40, 40), 0))


def test_r5_for_two_seats_the_shared_match_utility_is_the_two_hand_logistic() -> None:
    """Below the target, two seats: σ(1.7 · L / (100 · √n)), L the lead in points still needed, n the
    deals still expected ((needs together) / 190, at least ½) — the two-hand expert's rule, which
    calls this function; at the target R5.1 (the higher total, a tie ½)."""
    for totals, finals in (((600, 500), (60, 60)), ((0, 0), (80, 40)), ((900, 950), (0, 40))):
        need_me, need_opp = (1001 - t - f for t, f in zip(totals, finals, strict=True))
        deals = max((need_me + need_opp) / 190, 0.5)
        expected = 1 / (1 + math.exp(-1.7 * (need_opp - need_me) / (100 * math.sqrt(deals))))
        assert match_utility(totals, 1001, finals, 0) == pytest.approx(expected)
        assert two_hand_match_utility(totals, 1001, *finals) == pytest.approx(expected)
    assert match_utility((990, 500), 1001, (20, 0), 0) == 1.0
    assert match_utility((995, 995), 1001, (20, 20), 0) == 0.5
