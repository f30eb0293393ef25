"""The computer's levels (``bots.levels``) in every game of the family: the registry, legal actions
everywhere, whole matches through the server's path, bounded and reproducible decisions, playouts
true to the engine, and what each level does in typical positions (R3, R4; V0.5–V0.7, V2, V4)."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from backend.bots import (
    LEVELS,
    EasyBot,
    HardBot,
    MediumBot,
    bot_for,
    choose,
    choose_for_view,
    knowledge_from_view,
    levels_for,
    observe,
)
from backend.bots.levels import Bot
from backend.bots.play import DECLARE, game_of, play_out, position
from backend.bots.worlds import World
from backend.engine import (
    Bid,
    DealState,
    Discard,
    Event,
    MatchState,
    Pass,
    Play,
    Rules,
    apply,
    apply_deal,
    card,
    check_deal,
    deal_actions,
    deal_from_hands,
    deal_result,
    events_for,
    new_deal,
    new_match,
    view_for,
)
from backend.engine.cards import mask_of

from .support import (
    GAME_IDS,
    GAMES,
    VARIANT_IDS,
    VARIANTS,
    quick_bot,
    random_position,
    small_hard,
)


def _play_deals(bots: dict[int, Bot] | Bot, rules: Rules, deals: int, seed: int) -> int:
    """Whole deals with ``bots`` (one for every seat, or per seat), every action checked against the
    engine's legal actions; returns the number of cards played."""
    rng = random.Random(seed)
    played = 0
    for _ in range(deals):
        state = new_deal(rules, rng.randrange(1 << 60), rng.randrange(rules.n))
        while not state.over:
            seat = state.turn
            assert seat is not None
            bot = bots[seat] if isinstance(bots, dict) else bots
            action = bot.choose(observe(state, seat), rng)
            assert action in deal_actions(state, seat), (action, state)
            state, _ = apply_deal(state, seat, action)
            played += isinstance(action, Play)
        assert not any(state.hands) or state.phase == "thrown_in"
    return played


# ---------------------------------------------------------------- the registry


def test_every_game_has_its_levels_and_only_those() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert")
    for rules in GAMES:
        levels = levels_for(rules)
        assert levels == LEVELS  # issue 25: expert in every game
        assert [bot_for(level, rules).level for level in levels] == list(levels)
        for level in ("impossible", *(level for level in LEVELS if level not in levels)):
            with pytest.raises(ValueError, match="unknown bot level"):
                bot_for(level, rules)


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_every_level_refuses_to_move_out_of_turn(rules: Rules) -> None:
    state = new_deal(rules, 1, 0)
    assert state.turn is not None
    waiting = (state.turn + 1) % rules.n
    for level in levels_for(rules):
        with pytest.raises(ValueError, match="turn"):
            bot_for(level, rules).choose(observe(state, waiting), random.Random(0))


# ---------------------------------------------------------------- legal actions, whole deals and matches


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_easy_and_medium_take_only_legal_actions(rules: Rules) -> None:
    """R3, R4, V0.5–V0.7: through many whole deals, every bid, pass, discard and card is legal, and
    every card of every deal that is not thrown in (ruling V0.6a) is played."""
    deals = 150 if rules.two_hand else 60
    for bot in (EasyBot(), MediumBot()):
        played = _play_deals(bot, rules, deals, seed=1)
        if rules.two_hand:
            assert played == deals * rules.layout.deck_size
        else:
            assert played % rules.n == 0 and played >= deals // 2 * rules.n


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_hard_takes_only_legal_actions(rules: Rules) -> None:
    """A light budget over many positions, and in two-hand 1001 one deal with the level's own budget (the
    games of three and four think to a deadline: timed in ``test_a_default_hard_decision_…``)."""
    _play_deals(HardBot(plies=1200, min_worlds=4, budget=None), rules, 12 if rules.two_hand else 4, seed=2)
    if rules.two_hand:
        _play_deals(bot_for("hard", rules), rules, 1, seed=3)


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_every_level_chooses_legal_actions_in_random_positions(rules: Rules) -> None:
    """Random positions of every phase (auction, discard, play; totals near the target for V7.7's meld
    ban and V0.6b's cap): every level's action is legal (``check_deal``)."""
    rng = random.Random(len(rules.variant) + 100 * rules.n + rules.layout.deck_size)
    phases = set()
    for i in range(18):
        match, _ = random_position(rules, rng, near_target=i % 3 == 0)
        seat = match.deal.turn
        assert seat is not None
        phases.add(match.deal.phase)
        for level in levels_for(rules):
            check_deal(match.deal, seat, quick_bot(level, rules).choose(observe(match.deal, seat), random.Random(i)))
    assert "play" in phases


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_whole_matches_complete_with_bots_in_every_seat(rules: Rules) -> None:
    """A match to the (low) target with a computer of a different level in each seat, deciding from its
    view and its events only (the server's path), the events of each deal given from its start."""
    levels = ("hard", "medium", "easy", "medium")[: rules.n]
    match = new_match(rules, 17)
    received: list[list[Event]] = [[] for _ in range(rules.n)]
    actions = 0
    while not match.over:
        seat = match.deal.turn
        assert seat is not None
        knowledge = knowledge_from_view(view_for(match, seat), received[seat])
        action = quick_bot(levels[seat], rules).choose(knowledge, random.Random(actions))
        match, events = apply(match, seat, action)
        actions += 1
        for s in range(rules.n):
            if any(e.kind == "deal_started" for e in events):
                received[s] = []
            else:
                received[s].extend(events_for(events, s))
        assert actions < 5000
    assert match.winner is not None
    assert match.history


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_hard_decisions_are_reproducible_with_a_fixed_rng(rules: Rules) -> None:
    """All of hard's randomness comes from its ``rng`` (two-hand 1001: its own budget, which has no
    deadline; the others: a frozen clock, so that their deadline never cuts a decision short)."""
    rng = random.Random(4)
    for _ in range(4):
        match, _ = random_position(rules, rng)
        seat = match.deal.turn
        assert seat is not None
        k = observe(match.deal, seat)
        hard = bot_for("hard", rules) if rules.two_hand else small_hard()
        assert hard.choose(k, random.Random(9)) == hard.choose(k, random.Random(9))


@pytest.mark.parametrize(
    "rules", [Rules("bidding", seats=3), Rules("thousand4"), Rules()], ids=["V7_3", "V5", "two_hand"]
)
def test_a_default_hard_decision_stays_within_its_budget(rules: Rules) -> None:
    """The most expensive decisions (V7: the first bids; V5, two-hand 1001: the first lead and a follow)
    by the level's own bot, through the server's path: bounded by the deadline (0.45 s of wall time in the
    games of three and four) plus one world, or by the plies of two-hand 1001; CPU time checked with a
    margin for a loaded machine."""
    match = new_match(rules, 3)
    received: list[list[Event]] = [[] for _ in range(rules.n)]
    for _ in range(2):
        seat = match.deal.turn
        assert seat is not None
        start = time.process_time()
        action = choose_for_view("hard", view_for(match, seat), received[seat], random.Random(0))
        assert time.process_time() - start < 1.0
        check_deal(match.deal, seat, action)
        match, events = apply(match, seat, action)
        for s in range(rules.n):
            received[s].extend(events_for(events, s))


# ---------------------------------------------------------------- the playouts of the games of three and four


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_playouts_follow_the_engine(rules: Rules) -> None:
    """From true play positions, the playout's every move (``play.play_out``, the medium policy for every
    seat) is legal in the engine, and its final score sheet equals ``deal_result`` after replaying those
    moves (tricks, melds, V4.5, V6, V7.7 …)."""
    rng = random.Random(5 + rules.n)
    checked = 0
    while checked < 15:
        match, _ = random_position(rules, rng, near_target=checked % 4 == 0)
        state = match.deal
        if state.phase != "play":
            continue
        seat = state.turn
        assert seat is not None
        k = observe(state, seat)
        truth = World(state.hands, 0, state.discards, [])  # the true world, as a sampler could guess it
        p = position(k, truth)
        assert p.hands == list(state.hands) and p.card_pts == list(state.card_points)
        assert p.discard_pts == state.discard_points
        log: list[int] = []
        scores = play_out(game_of(rules, state.totals, state.declarer, state.contract), p, log=log)
        for move in log:
            assert state.turn is not None
            state, _ = apply_deal(state, state.turn, Play(move & 31, bool(move & DECLARE)))
        assert state.phase == "over"
        assert scores == list(deal_result(state).score)
        checked += 1


# ---------------------------------------------------------------- two-hand 1001: declarations and tricks (R3, R4)


def _deal(forehand_hand: str, dealer_hand: str, stock: str, rules: Rules | None = None) -> DealState:
    """Seat 0 is forehand (dealer 1) and leads the first trick."""
    cards = [[card(n) for n in h.split()] for h in (forehand_hand, dealer_hand, stock)]
    return deal_from_hands(rules or Rules(), 1, [cards[0], cards[1]], stock=cards[2])


# Seat 0 holds the clubs and diamonds marriages.
MARRIAGES = _deal("KC QC KD QD 9S JS 9H JH", "AC TC AS TS AH TH AD TD", "JC 9C KS QS KH QH JD 9D")


def test_r3_medium_declares_the_most_valuable_marriage_on_lead() -> None:
    play = MediumBot().choose(observe(MARRIAGES, 0), random.Random(0))
    assert isinstance(play, Play) and play.declare and play.card >> 3 == 0  # clubs: 100 points (by_suit)


def test_r3_easy_declares_about_half_the_time_when_it_can() -> None:
    knowledge = observe(MARRIAGES, 0)
    rng = random.Random(1)
    plays = [choose("easy", knowledge, rng) for _ in range(600)]
    share = sum(isinstance(p, Play) and p.declare for p in plays) / len(plays)
    assert 0.42 < share < 0.58
    assert all(p in deal_actions(MARRIAGES, 0) for p in plays)


def test_r3_hard_declares_a_marriage_on_lead() -> None:
    play = bot_for("hard", Rules()).choose(observe(MARRIAGES, 0), random.Random(2))
    assert isinstance(play, Play) and play.declare


def test_r4_medium_takes_a_ten_with_its_ace_in_phase_1() -> None:
    state = _deal("TS 9C JC 9H JH 9D JD KH", "AS QS JS KC QC KD QD AH", "AC TC KS TH QH AD TD 9S")
    state, _ = apply_deal(state, 0, Play(card("TS")))
    assert MediumBot().choose(observe(state, 1), random.Random(0)) == Play(card("AS"))


def test_r4_medium_throws_a_low_card_on_a_lost_trick() -> None:
    state = _deal("AH 9C JC 9H JH 9D JD KH", "AS QS JS KC TC KD TD 9S", "AC QC KS TS TH QH AD QD")
    state, _ = apply_deal(state, 0, Play(card("AH")))
    play = MediumBot().choose(observe(state, 1), random.Random(0))
    assert play == Play(card("9S"))  # no heart, no trump: the card worth least


# ---------------------------------------------------------------- the games of three and four (V0.5–V0.7, V2, V4)


def _match_with_hands(rules: Rules, hands: list[list[str]], talon: list[str], dealer: int) -> MatchState:
    deal = deal_from_hands(rules, dealer, [[card(c) for c in h] for h in hands], talon=[card(c) for c in talon], seed=1)
    return dataclasses.replace(new_match(rules, 1), deal=deal)


MCLEOD_STRONG = [
    ["AC", "TC", "KC", "QC", "AS", "TS"],  # forehand (seat 1 when seat 0 deals): two tens guarded, ♣ marriage
    ["JC", "KS", "QS", "AH", "JH", "JD"],
    ["JS", "TH", "KH", "QH", "TD", "KD"],
]
MCLEOD_TALON = ["AD", "QD"]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_v2_a_strong_hand_bids_and_a_weak_one_passes(level: str) -> None:
    """V2: forehand with A-T-K-Q of clubs and A-T of spades bids; with jacks and a lone ten it passes."""
    rules = Rules("mcleod", target=1001)
    bot: Bot = HardBot(plies=4000, min_worlds=12, budget=0.45, clock=lambda: 0.0) if level == "hard" else MediumBot()
    strong = _match_with_hands(rules, [MCLEOD_STRONG[2], MCLEOD_STRONG[0], MCLEOD_STRONG[1]], MCLEOD_TALON, 0)
    k = knowledge_from_view(view_for(strong, 1), [])
    action = bot.choose(k, random.Random(1))
    assert isinstance(action, Bid) and action.amount == 40
    # seat 1 (forehand) holds four jacks, a lone KS and a lone TD
    weak = _match_with_hands(
        rules,
        [MCLEOD_STRONG[0], ["JC", "JS", "JH", "JD", "KS", "TD"], ["QS", "AH", "TH", "KH", "QH", "KD"]],
        MCLEOD_TALON,
        0,
    )
    k = knowledge_from_view(view_for(weak, 1), [])
    assert bot.choose(k, random.Random(1)) == Pass()


def test_v0_6b_hard_never_bids_over_the_cap() -> None:
    """Ruling V0.6b: without a K-Q pair no bid above 120; the bot's limit is always among the view's bids."""
    rules = Rules("mcleod", target=1001)
    hands = [
        ["AC", "TC", "KC", "AS", "TS", "KS"],
        ["QC", "QS", "AH", "JH", "JD", "JS"],
        ["JC", "TH", "KH", "QH", "TD", "KD"],
    ]
    match = _match_with_hands(rules, hands, ["AD", "QD"], 2)  # seat 0 is forehand
    view = view_for(match, 0)
    assert max(view.bids) == 120
    k = knowledge_from_view(view, [])
    bot = HardBot(plies=3000, min_worlds=12, budget=0.45, clock=lambda: 0.0)
    limit = bot.bid_limit(k, random.Random(0), 0.0)
    assert limit is None or limit in view.bids


def test_v0_7_medium_discard_keeps_marriages_and_banks_a_lone_ten() -> None:
    """V0.7: the discards count for the declarer — a ten without its ace is laid away, a marriage kept."""
    rules = Rules("mcleod", target=1001)
    hands = [
        ["AC", "KC", "QC", "TS", "JH", "AD"],
        ["TC", "JC", "AS", "KS", "AH", "TH"],
        ["QS", "JS", "KH", "QH", "TD", "KD"],
    ]
    match = _match_with_hands(rules, hands, ["QD", "JD"], 2)
    state = match.deal
    state, _ = apply_deal(state, 0, Bid(40))
    state, _ = apply_deal(state, 1, Pass())
    state, _ = apply_deal(state, 2, Pass())
    match = dataclasses.replace(match, deal=state)
    action = choose_for_view("medium", view_for(match, 0), [], random.Random(0))
    assert isinstance(action, Discard)
    laid = mask_of((action.card_a, action.card_b))
    assert laid >> card("TS") & 1
    assert not laid & mask_of(card(c) for c in ("KC", "QC", "AC", "AD"))
    hard = HardBot(plies=3000, min_worlds=12, budget=0.45, clock=lambda: 0.0).choose(
        knowledge_from_view(view_for(match, 0), []), random.Random(0)
    )
    assert isinstance(hard, Discard)
    check_deal(state, 0, hard)


def test_v0_5_medium_declares_on_lead_and_hard_declares_or_cashes_the_ace_first() -> None:
    """V0.5: holding ♣ A-T-K-Q-J-9 on the first lead (V4: forehand leads), medium declares ♣ (100); hard
    declares it too or first cashes the ace, which keeps the lead for the declaration."""
    rules = Rules("thousand3", target=1001)
    hands = [
        ["AS", "TS", "JH", "9H", "AD", "9D", "9S", "JD"],
        ["KC", "QC", "AC", "TC", "JC", "9C", "AH", "TH"],
        ["KS", "QS", "JS", "KH", "QH", "TD", "KD", "QD"],
    ]
    match = _match_with_hands(rules, hands, [], 0)
    k = knowledge_from_view(view_for(match, 1), [])
    medium = MediumBot().choose(k, random.Random(0))
    assert isinstance(medium, Play) and medium.declare and medium.card >> 3 == 0
    hard = HardBot(plies=4000, min_worlds=12, budget=0.45, clock=lambda: 0.0).choose(k, random.Random(0))
    assert isinstance(hard, Play) and ((hard.declare and hard.card >> 3 == 0) or hard.card == card("AC"))
