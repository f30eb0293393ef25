"""R3, R4 — the search core (``backend.search``): exact against plain minimax over both phases, the
same compiled and in plain Python (THOUSAND_NO_JIT=1), and exact whatever its table holds."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import cache

import pytest

from backend.engine.cards import CARD_POINTS, KING, QUEEN
from backend.engine.kernel import beats, declarable, declaration_points, follow_mask
from backend.search import COMPILED, DECLARE, Solver, Timeout

from . import identity


@cache
def minimax(
    hl: int, hf: int, stock: tuple[int, ...], trump: int, declared: int, pl: int, pf: int, by_suit: bool
) -> int:
    """Plain negamax over whole tricks, written from R3/R4 on the engine's kernel: the leader's points to
    come minus the follower's (pending: -1 once a seat took a trick, else its declarations waiting)."""
    if not hl:
        return 0
    return max(lead_value(hl, hf, stock, trump, declared, pl, pf, by_suit, m) for m in leads(hl, declared))


def leads(hand: int, declared: int) -> list[int]:
    out = [c for c in range(32) if hand >> c & 1]
    for s in declarable(hand, declared):
        out += [8 * s + KING | DECLARE, 8 * s + QUEEN | DECLARE]
    return out


def lead_value(
    hl: int, hf: int, stock: tuple[int, ...], trump: int, declared: int, pl: int, pf: int, by_suit: bool, move: int
) -> int:
    c = move & 31
    gain = 0
    if move & DECLARE:
        trump = c >> 3
        points = declaration_points(by_suit, trump, declared.bit_count())
        declared |= 1 << trump
        if pl < 0:
            gain = points
        else:
            pl += points
    hl &= ~(1 << c)
    legal = follow_mask(hf, c, trump, bool(stock))
    return gain + min(
        trick_value(hl, hf & ~(1 << f), stock, c, f, trump, declared, pl, pf, by_suit)
        for f in range(32)
        if legal >> f & 1
    )


def trick_value(
    hl: int,
    hf: int,
    stock: tuple[int, ...],
    lead: int,
    follow: int,
    trump: int,
    declared: int,
    pl: int,
    pf: int,
    by_suit: bool,
) -> int:
    """The leader's value once ``lead`` and ``follow`` are played: the winner takes them (and its pending
    declarations), draws the stock's top card, the loser the next (R4), and leads."""
    pts = CARD_POINTS[lead] + CARD_POINTS[follow]
    if beats(lead, trump) >> follow & 1:
        if stock:
            hf, hl = hf | 1 << stock[0], hl | 1 << stock[1]
        return -pts - max(pf, 0) - minimax(hf, hl, stock[2:], trump, declared, -1, pl, by_suit)
    if stock:
        hl, hf = hl | 1 << stock[0], hf | 1 << stock[1]
    return pts + max(pl, 0) + minimax(hl, hf, stock[2:], trump, declared, -1, pf, by_suit)


def small_positions(seed: int, count: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    shapes = [(24, 3, 2), (24, 3, 4), (24, 4, 2), (32, 3, 2), (24, 4, 0), (32, 5, 0)]
    return [identity.random_open_position(rng, *shapes[i % len(shapes)]) for i in range(count)]


@pytest.mark.parametrize(("seed", "table_bits"), [(0, 12), (1, 12), (2, 12), (3, 3)])
def test_r3_r4_every_lead_and_follow_valued_as_plain_minimax_over_both_phases(seed: int, table_bits: int) -> None:
    # small tables: entries are replaced in their buckets and cut-offs read bounds of positions that lose
    # their entries later; the values must not change
    solver = Solver(table_bits=table_bits)
    for p in small_positions(seed, 12):
        hl, hf, trump, declared, pl, pf = (p[k] for k in ("hl", "hf", "trump", "declared", "pl", "pf"))
        assert isinstance(hl, int) and isinstance(hf, int) and isinstance(trump, int)
        assert isinstance(declared, int) and isinstance(pl, int) and isinstance(pf, int)
        stock = p["stock"]
        assert isinstance(stock, list)
        by_suit = bool(p["by_suit"])
        solver.by_suit = by_suit
        solver.set_stock(stock)
        got = solver.lead_values(hl, hf, trump, declared, pl, pf)
        want = {m: lead_value(hl, hf, tuple(stock), trump, declared, pl, pf, by_suit, m) for m in leads(hl, declared)}
        assert got == want
        assert solver.value(hl, hf, trump, declared, pl, pf) == max(want.values())
        lead = min(c for c in range(32) if hl >> c & 1)
        follows = solver.follow_values(lead, hl & ~(1 << lead), hf, trump, declared, pl, pf)
        legal = follow_mask(hf, lead, trump, bool(stock))
        assert follows == {
            f: -trick_value(hl & ~(1 << lead), hf & ~(1 << f), tuple(stock), lead, f, trump, declared, pl, pf, by_suit)
            for f in range(32)
            if legal >> f & 1
        }


def test_a_world_is_valued_alike_after_other_worlds_and_alone() -> None:
    """Phase-1 entries of other stocks never answer for this one; phase-2 entries serve every world."""
    positions = identity.positions(7)[4:10]
    shared = Solver(table_bits=14)
    for p in positions:
        for stock in (p["stock"], list(reversed(p["stock"])), p["stock"]):
            shared.by_suit = p["by_suit"]
            shared.set_stock(stock)
            alone = Solver(p["by_suit"], table_bits=14)
            alone.set_stock(stock)
            args = (p["hl"], p["hf"], p["trump"], p["declared"], p["pl"], p["pf"])
            assert shared.lead_values(*args) == alone.lead_values(*args)


def test_a_deadline_on_the_injected_clock_stops_a_search_between_slices() -> None:
    p = identity.positions()[3]
    reads: list[int] = []
    solver = Solver(table_bits=12, clock=lambda: float(len(reads.append(0) or reads)), deadline=3.0, slice_nodes=10)
    solver.set_stock(p["stock"])
    with pytest.raises(Timeout):
        solver.lead_values(p["hl"], p["hf"], p["trump"], p["declared"], p["pl"], p["pf"])
    assert len(reads) == 4 and solver.nodes <= 3 * 11  # three slices searched, the fourth reading was late


@pytest.mark.skipif(not COMPILED, reason="the compiled path is the one compared with plain Python")
def test_the_compiled_core_and_plain_python_give_the_same_values_moves_and_node_counts() -> None:
    compiled = identity.run()
    env = {**os.environ, "THOUSAND_NO_JIT": "1"}
    plain = subprocess.run(
        [sys.executable, "-m", "tests.search.identity"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert json.loads(plain.stdout) == json.loads(json.dumps(compiled))
    assert any(r["timed"][0] is None for r in compiled) and any(r["timed"][0] is not None for r in compiled)
