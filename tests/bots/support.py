"""Helpers for the bot tests, for every game of the family: the rule sets, random positions reached
through the match API with the events every seat received, bots with small budgets and clocks that
never wait, a consistent reshuffle of the cards a seat cannot see, and — for two-hand 1001's exact
searches — plain minimax through the engine."""

from __future__ import annotations

import dataclasses
import random

from backend.bots import EasyBot, HardBot, MediumBot, TableExpertBot, bot_for
from backend.bots.levels import Bot
from backend.bots.twohand.expert import ExpertBot
from backend.engine import (
    DealState,
    Event,
    MatchState,
    Play,
    Rules,
    apply,
    apply_deal,
    deal_actions,
    deal_result,
    events_for,
    legal_actions,
    new_deal,
    new_match,
)
from backend.engine.cards import KING, QUEEN, cards_in

TWO_HAND = (
    Rules(target=301),  # R1–R7
    Rules(target=301, declaration_scoring="by_order"),  # R3 `by_order`
    Rules(target=301, show_stock_bottom=True),  # R2 the faced stock card
    Rules(target=301, deck_size=32, show_stock_bottom=True),  # V1
)
TWO_HAND_IDS = ("R_by_suit", "R_by_order", "R_stock_bottom", "V1_32_cards")
VARIANTS = (
    Rules("mcleod", target=301),
    Rules("rassel", target=300),
    Rules("thousand3", target=301),
    Rules("thousand4", target=301),
    Rules("bidding", seats=3, target=301),
    Rules("bidding", seats=4, target=301),
    Rules("thousand3", scoring="simplified", jungfrau=True),
    Rules("mcleod", target=301, jungfrau=True, open_scores=True),
)
VARIANT_IDS = (
    "V2_mcleod",
    "V3_rassel",
    "V4_thousand3",
    "V5_thousand4",
    "V7_bidding3",
    "V7_bidding4",
    "V4_simplified_V6",
    "V2_V6_open_scores",
)
GAMES = TWO_HAND + VARIANTS  # every game the computer plays, each with the options that change its play
GAME_IDS = TWO_HAND_IDS + VARIANT_IDS


class StepClock:
    """A fake clock: every reading advances it by ``step``, so a deadline falls after a fixed number of
    readings and a decision is reproducible whatever the machine's load."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def light_expert(reads: int = 6) -> ExpertBot:
    """A two-hand expert whose deadline comes after about ``reads`` clock readings (64 search nodes each)."""
    return ExpertBot(budget=float(reads), max_worlds=4, clock=StepClock(1.0))


def light_table_expert() -> TableExpertBot:
    """An expert of three and four with a small budget and a clock that never moves: reproducible."""
    return TableExpertBot(budget=0.6, plies=3000, min_worlds=4, max_worlds=6, discard_options=4, clock=lambda: 0.0)


def small_hard() -> HardBot:
    """A hard bot with a small budget and a clock that never moves: reproducible and quick."""
    return HardBot(plies=1500, min_worlds=3, budget=0.45, discard_options=3, clock=lambda: 0.0)


def quick_bot(level: str, rules: Rules) -> Bot:
    """The bot of ``level`` for ``rules``, with small budgets for the levels that search (``hard`` and
    ``expert``) and clocks that make their decisions reproducible."""
    bot_for(level, rules)  # refuses a level the game is not played at (``levels_for``)
    if level == "hard":
        return small_hard()
    if level == "expert":
        return light_expert() if rules.two_hand else light_table_expert()
    return {"easy": EasyBot(), "medium": MediumBot()}[level]


def fresh_match(rules: Rules, seed: int, totals: tuple[int, ...] | None = None) -> MatchState:
    """A new match; ``totals`` (e.g. near the target, V7.7) are given to its first deal."""
    match = new_match(rules, seed)
    if totals is None:
        return match
    deal = new_deal(rules, match.deal.seed or seed, match.deal.dealer, totals)
    return dataclasses.replace(match, deal=deal, totals=totals)


def random_position(
    rules: Rules, rng: random.Random, near_target: bool = False, steps: int | None = None
) -> tuple[MatchState, list[list[Event]]]:
    """A match of ``rules`` played at random for ``steps`` (default: a random number of) actions within
    its first deal, which is not over, and the events every seat received (``events_for``)."""
    totals = None
    if near_target:
        totals = tuple(rng.choice((0, rules.goal - 150, rules.goal - 100, rules.goal - 20)) for _ in range(rules.n))
    while True:
        match = fresh_match(rules, rng.randrange(1 << 40), totals)
        received: list[list[Event]] = [[] for _ in range(rules.n)]
        for _ in range(rng.randrange(40) if steps is None else steps):
            seat = match.deal.turn
            assert seat is not None
            nxt, events = apply(match, seat, rng.choice(legal_actions(match, seat)))
            if nxt.deal_number != match.deal_number or nxt.over:
                break
            match = nxt
            for s in range(rules.n):
                received[s].extend(events_for(events, s))
        if match.deal.turn is not None and not match.over:
            return match, received


def hidden_from(state: DealState, seat: int) -> int:
    """The true cards ``seat`` has not seen (R7, V0.11): the other hands, the stock, the untaken talon,
    another declarer's discards."""
    hidden = 0
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= hand
    for c in state.stock:
        hidden |= 1 << c
    if not state.talon_taken:
        for c in state.talon:
            hidden |= 1 << c
    if state.declarer != seat:
        hidden |= state.discards
    return hidden


def permute_hidden(state: DealState, seat: int, rng: random.Random) -> DealState:
    """The same deal as ``seat`` sees it, its hidden cards (``hidden_from``) shuffled among their places.

    The cards whose place the seat knows keep it: the K or Q of a marriage another seat declared, still
    in that hand (R3, V0.5), and the faced bottom card of the stock (R2). The permutation is applied to
    the deal as dealt too (initial hands, stock, talon), so the result is a partition of the pack."""
    hidden = hidden_from(state, seat)
    for d in state.declarations:
        if d.seat != seat:
            hidden &= ~(1 << 8 * d.suit + KING | 1 << 8 * d.suit + QUEEN)
    if state.stock_bottom is not None:
        hidden &= ~(1 << state.stock_bottom)
    cards = list(cards_in(hidden))
    shuffled = list(cards)
    rng.shuffle(shuffled)
    mapping = dict(zip(cards, shuffled, strict=True))

    def remap(mask: int) -> int:
        out = 0
        for c in cards_in(mask):
            out |= 1 << mapping.get(c, c)
        return out

    def remap_all(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(mapping.get(c, c) for c in cards)

    permuted = state._copy()
    permuted.hands = tuple(remap(h) for h in state.hands)
    permuted.stock = remap_all(state.stock)
    dealt = state.dealt
    permuted.dealt = dataclasses.replace(
        dealt, hands=tuple(remap(h) for h in dealt.hands), stock=remap_all(dealt.stock), talon=remap_all(dealt.talon)
    )
    permuted.auction = dataclasses.replace(state.auction, discards=remap(state.auction.discards))
    return permuted


# ---------------------------------------------------------------- two-hand 1001: exact play (R4 phase 2)


def random_play(state: DealState, rng: random.Random) -> Play:
    assert state.turn is not None
    play = rng.choice(deal_actions(state, state.turn))
    assert isinstance(play, Play)
    return play


def two_hand_position(rules: Rules, rng: random.Random, tricks_left: int, mid_trick: bool = False) -> DealState:
    """A two-hand deal played at random until ``tricks_left`` tricks remain (plus a lead if ``mid_trick``)."""
    assert rules.two_hand
    state = new_deal(rules, rng.randrange(1 << 60), rng.randrange(2))
    while len(state.tricks) < rules.layout.deck_size // 2 - tricks_left:
        assert state.turn is not None
        state, _ = apply_deal(state, state.turn, random_play(state, rng))
    if mid_trick:
        assert state.turn is not None
        state, _ = apply_deal(state, state.turn, random_play(state, rng))
    return state


def final_difference(state: DealState, seat: int) -> int:
    """R5: the finished deal's score of ``seat`` minus the opponent's."""
    score = deal_result(state).score
    return score[seat] - score[1 - seat]


def brute_force(state: DealState, seat: int) -> int:
    """Plain minimax through the engine itself (no pruning, no table): final score difference for ``seat``."""
    if state.over:
        return final_difference(state, seat)
    turn = state.turn
    assert turn is not None
    values = [brute_force(apply_deal(state, turn, a)[0], seat) for a in deal_actions(state, turn)]
    return max(values) if turn == seat else min(values)


def counted_so_far(state: DealState, seat: int) -> int:
    """Score difference already certain: card points taken plus declarations of seats that took a trick (R3)."""
    points = list(state.card_points)
    for d in state.declarations:
        if state.tricks_won[d.seat]:
            points[d.seat] += d.points
    return points[seat] - points[1 - seat]


def exact_values(state: DealState) -> dict[Play, int]:
    """Phase 2 (stock empty): every legal play's exact value for the seat to move, its points to come
    minus the opponent's, by the search core on the position read straight off the state (R3: pending
    declarations) — not through a seat's knowledge."""
    from backend.search import DECLARE, Solver

    assert not state.stock and state.turn is not None
    pending = [0, 0]
    for d in state.declarations:
        pending[d.seat] += d.points
    pl, pf = (-1 if state.tricks_won[s] else pending[s] for s in (state.leader, 1 - state.leader))
    solver = Solver(state.rules.by_suit, table_bits=14)
    solver.set_stock([])
    hl, hf = state.hands[state.leader], state.hands[1 - state.leader]
    if state.trick:
        values = solver.follow_values(state.trick[0], hl, hf, state.trump, state.declared_suits, pl, pf)
    else:
        values = solver.lead_values(hl, hf, state.trump, state.declared_suits, pl, pf)
    return {Play(m & 31, bool(m & DECLARE)): v for m, v in values.items()}
