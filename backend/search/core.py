"""One alpha-beta over both phases of two-hand 1001 (R4), compiled by numba or run as plain Python.

Inside a sampled world (the opponent's hand and the stock order guessed) or an open deal, two-hand 1001
is a game of perfect information to its end: phase 1 (the stock not empty: any card may follow, the
trick's winner draws the stock's top card and the loser the next, R4) and phase 2 (the stock empty:
follow suit and head, else trump, R4 and ruling R4.1). ``search`` is one negamax alpha-beta by whole
tricks over both, from the leader's point of view; its value is the leader's points still to come
minus the follower's: card points of the tricks to come, declarations still to be made (R3: a
declaration makes its suit trump at once, for the trick it leads) and the declarations of a seat that
has taken no trick yet, which count only if it takes one. Maximizing it maximizes the deal's score
difference (R5).

A position is ``(leader's hand, follower's hand, stock position, trump, declared suits, leader's
pending, follower's pending)``; *pending* is ``-1`` for a seat that has taken a trick (its declarations
count already), else the declaration points waiting for its first trick. The stock itself (``stock``,
top first) is part of the position of a world: a phase-1 entry of the transposition table carries the
world's generation (``stats[GEN]``, raised for every new stock) and is worthless in another world; a
phase-2 entry does not depend on the stock and serves every world of one epoch (``stats[EPOCH]``, a
new one for every decision, so that no decision's node counts depend on the decisions before it).

The search has a transposition table (``tt``: buckets of two entries of four ints — two key words, the
bounds with the best lead, the entry's depth and stamp, one unused — so that a bucket is one 64-byte
cache line; a new entry takes the first slot unless that holds a deeper entry stored in this world, then
the second; phase-2 positions of ``SMALL`` cards a hand are cheaper searched than stored), enhanced
transposition cut-offs (before the follows of a lead are searched, the table's bounds of the positions
after the trick may refute it; from ``ETC_DEPTH`` up), move ordering (the table's best lead, two killer
leads of the same depth, then declaring leads, then high ranks; follows: cheap winners first; move lists
built over the set cards alone), a null-window search of every lead after the first (re-searched with
the full window when it fails high) and a node limit (``stats[LIMIT]``): past it the search sets
``stats[ABORT]`` and unwinds without storing anything, so a caller (``backend.search.Solver``) can read
its own clock between slices of nodes and call again — the table keeps every finished subtree, so the
next call resumes almost where the last one stopped. Time is thus an input: the core never reads a
clock, and its values, moves and node counts are the same compiled and in plain Python.

All state is in flat int64 arrays (or lists, in plain Python) handed in by the caller: ``stats``
(``NODES`` … ``TAKEN``), ``stock``, the table, ``killers`` (two per depth) and ``buf``, the move lists
of every depth (32 slots a depth: leads 0–15, follows 16–23, their sort keys 24–31).
"""

from __future__ import annotations

from typing import Any

from .jit import jit
from .kernel import CP, beats, declarable_suits, declaration_points, follow_mask, lowest_card, popcount

__all__ = [
    "ABORT",
    "BY_SUIT",
    "DECLARE",
    "EPOCH",
    "GEN",
    "INF",
    "LIMIT",
    "MASK",
    "NODES",
    "STATS",
    "STOCK_N",
    "TAKEN",
    "after_trick",
    "follow_values",
    "lead_values",
    "search",
]

Ints = Any  # a flat int64 array (compiled) or a list of ints (plain Python)

DECLARE = 32  # a lead that declares the marriage of its K or Q (as backend.bots.play.DECLARE)
INF = 30000  # beyond every value (|value| < 1000); bounds are stored in 16 bits with OFFSET
OFFSET = 32768
KING, QUEEN = 2, 3
DEPTH_SLOTS = 32
ETC_DEPTH = 5  # enhanced transposition cut-offs from this many cards a hand (with the stock's pairs) up
SMALL = 2  # phase-2 positions of at most this many cards a hand are searched without the table

# stats[...]
NODES, LIMIT, ABORT, GEN, BY_SUIT, STOCK_N, MASK, TAKEN, EPOCH = range(9)
STATS = 9

SIGNATURE = (
    "int64(int64, int64, int64, int64, int64, int64, int64, int64, int64,"
    " int64[::1], int64[::1], int64[::1], int64[::1], int64[::1])"
)


@jit()
def slot(k1: int, k2: int, mask: int) -> int:
    """The table slot of a key: its bits folded down, then multiplied; only low bits are kept, so the
    compiled (wrapping) and plain (unbounded) products give the same slot."""
    m1 = k1 ^ (k1 >> 16) ^ (k1 >> 32) ^ (k1 >> 45)
    m2 = k2 ^ (k2 >> 16) ^ (k2 >> 32) ^ (k2 >> 42)
    return ((m1 * 0x9E3779B1) ^ (m2 * 0x85EBCA77)) & mask


@jit()
def position_key(
    hl: int, hf: int, pos: int, trump: int, declared: int, pl: int, pf: int, stats: Ints
) -> tuple[int, int]:
    """A position's two key words: a phase-1 key carries the world's generation, a phase-2 key the epoch."""
    ctx = ((trump + 1) << 5) | (declared << 8)
    if pos < stats[STOCK_N]:
        ctx |= (pos + 1) | (stats[GEN] << 12)
    else:
        ctx |= stats[EPOCH] << 12
    return hl | (ctx << 32), hf | ((pl + 1) << 32) | ((pf + 1) << 42)


@jit()
def probe(hl: int, hf: int, pos: int, trump: int, declared: int, pl: int, pf: int, tt: Ints, stats: Ints) -> int:
    """The table's data word of a position (bounds, best lead, depth, stamp), or -1 if it holds none."""
    k1, k2 = position_key(hl, hf, pos, trump, declared, pl, pf, stats)
    at = (slot(k1, k2, stats[MASK]) & ~1) * 4
    if tt[at] == k1 and tt[at + 1] == k2:
        return tt[at + 2]  # type: ignore[no-any-return]
    if tt[at + 4] == k1 and tt[at + 5] == k2:
        return tt[at + 6]  # type: ignore[no-any-return]
    return -1


@jit()
def follow_bound(
    hl: int,
    hf: int,
    pos: int,
    c: int,
    t: int,
    dec: int,
    gain: int,
    npl: int,
    pf: int,
    winning: int,
    top: int,
    second: int,
    nf: int,
    tt: Ints,
    stock: Ints,
    stats: Ints,
    buf: Ints,
    at: int,
) -> int:
    """Enhanced transposition cut-off: the least upper bound, for the leader of lead ``c`` (``hl`` no
    longer holds it), that the table's entries of the positions after the trick give over the follows in
    ``buf[at + 16 …]`` (INF if none): the follower's reply to ``c`` is worth at most that to the leader,
    so a bound at or below alpha refutes the lead without searching a follow."""
    phase1 = pos < stats[STOCK_N]
    npos = pos + 2 if phase1 else pos
    small = not phase1 and popcount(hl) <= SMALL  # positions the search does not store
    bound = INF
    if small:
        return bound
    taken = stats[TAKEN]
    for j in range(nf):
        f = buf[at + 16 + j]
        pts = CP[c] + CP[f]
        nhf = hf & ~(1 << f)
        if (winning >> f) & 1:
            base = gain - pts - (pf if pf > 0 else 0)
            if phase1:
                d = probe(nhf | (1 << top), hl | (1 << second), npos, t, dec, taken, npl, tt, stats)
            else:
                d = probe(nhf, hl, npos, t, dec, taken, npl, tt, stats)
            if d >= 0:
                u = base - ((d & 0xFFFF) - OFFSET)  # the follower leads next: the leader gets base - its value
                if u < bound:
                    bound = u
        else:
            base = gain + pts + (npl if npl > 0 else 0)
            if phase1:
                d = probe(hl | (1 << top), nhf | (1 << second), npos, t, dec, taken, pf, tt, stats)
            else:
                d = probe(hl, nhf, npos, t, dec, taken, pf, tt, stats)
            if d >= 0:
                u = base + (((d >> 16) & 0xFFFF) - OFFSET)
                if u < bound:
                    bound = u
    return bound


@jit()
def to_front(buf: Ints, at: int, count: int, front: int, move: int) -> int:
    """Move ``move``, if it is among ``buf[at + front : at + count]``, to ``at + front``; the next front."""
    if move < 0:
        return front
    for i in range(front, count):
        if buf[at + i] == move:
            for j in range(i, front, -1):
                buf[at + j] = buf[at + j - 1]
            buf[at + front] = move
            return front + 1
    return front


@jit()
def order_follows(hand: int, lead: int, trump: int, winning: int, phase1: bool, buf: Ints, at: int) -> int:
    """The follows of ``hand`` to ``lead`` into ``buf[at + 16 …]``, likely best first; their count.

    Phase 1 (any card): cheap winners of valuable leads, then cheap throws (trumps and marriage halves
    dearer), by card among equals. Phase 2 (``follow_mask``): the winners, cheapest first, then the
    others, cheapest first, high ranks first among equals, then by suit. Each key ends in the tie-break,
    so that an insertion sort over the legal cards alone (no scan of all 32) gives one fixed order."""
    legal = follow_mask(hand, lead, trump, phase1)
    fb = at + 16
    kb = at + 24
    count = 0
    lead_pts = CP[lead]
    while legal != 0:
        c = lowest_card(legal)
        legal &= legal - 1
        wins = (winning >> c) & 1
        if phase1:
            if wins:
                key = CP[c] - 2 * lead_pts - 8
                if c >> 3 == trump:
                    key += 6
            else:
                key = CP[c]
                if c >> 3 == trump:
                    key += 4
                if (c & 7) == KING or (c & 7) == QUEEN:
                    key += 3
            key = key * 32 + c
        else:
            key = (CP[c] if wins else 100 + CP[c]) * 32 + 4 * (c & 7) + (c >> 3)
        j = count
        while j > 0 and buf[kb + j - 1] > key:  # insertion sort
            buf[kb + j] = buf[kb + j - 1]
            buf[fb + j] = buf[fb + j - 1]
            j -= 1
        buf[kb + j] = key
        buf[fb + j] = c
        count += 1
    return count


@jit()
def order_leads(hand: int, declared: int, buf: Ints, at: int) -> int:
    """Every lead of ``hand`` into ``buf[at …]``: each declarable marriage's Q then K declaring it (R3,
    ``| DECLARE``), then every card, high ranks first (a rank's cards by suit); their count."""
    count = 0
    suits = declarable_suits(hand, declared)
    for s in range(4):
        if (suits >> s) & 1:
            buf[at + count] = (8 * s + QUEEN) | DECLARE
            buf[at + count + 1] = (8 * s + KING) | DECLARE
            count += 2
    for r in range(8):
        m = hand & (0x01010101 << r)
        while m != 0:
            buf[at + count] = lowest_card(m)
            m &= m - 1
            count += 1
    return count


@jit(SIGNATURE)
def search(
    hl: int,
    hf: int,
    pos: int,
    trump: int,
    declared: int,
    pl: int,
    pf: int,
    alpha: int,
    beta: int,
    tt: Ints,
    stock: Ints,
    stats: Ints,
    killers: Ints,
    buf: Ints,
) -> int:
    """The leader's value (its points to come minus the follower's), fail-soft in (``alpha``, ``beta``);
    ``pos`` indexes ``stock`` (``pos >= stats[STOCK_N]``: phase 2). 0 once ``stats[ABORT]`` is set."""
    n = stats[STOCK_N]
    phase1 = pos < n
    if not phase1:
        if hl == 0:
            return 0
        if hl & (hl - 1) == 0:  # the last trick: both cards forced
            c = lowest_card(hl)
            f = lowest_card(hf)
            pts = CP[c] + CP[f]
            if (beats(c, trump) >> f) & 1:
                return -pts - (pf if pf > 0 else 0)  # type: ignore[no-any-return]
            return pts + (pl if pl > 0 else 0)  # type: ignore[no-any-return]
    nodes = stats[NODES] + 1
    stats[NODES] = nodes
    if nodes > stats[LIMIT]:
        stats[ABORT] = 1
        return 0

    k1, k2 = position_key(hl, hf, pos, trump, declared, pl, pf, stats)
    depth = popcount(hl) + ((n - pos) >> 1 if phase1 else 0)
    # A bucket of two entries of four ints (key, key, data, unused) in one 64-byte line: the deeper entry
    # of this world first, then the newest. Endings of two cards each are cheaper searched than probed.
    use_tt = depth > SMALL
    at = (slot(k1, k2, stats[MASK]) & ~1) * 4
    hit = -1
    lo = -INF
    hi = INF
    tt_move = -1
    if use_tt:
        if tt[at] == k1 and tt[at + 1] == k2:
            hit = at
        elif tt[at + 4] == k1 and tt[at + 5] == k2:
            hit = at + 4
    if hit >= 0:
        d = tt[hit + 2]
        lo = (d & 0xFFFF) - OFFSET
        hi = ((d >> 16) & 0xFFFF) - OFFSET
        tt_move = ((d >> 32) & 0x7F) - 1
        if lo >= beta or lo == hi:
            return lo  # type: ignore[no-any-return]
        if hi <= alpha:
            return hi  # type: ignore[no-any-return]
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    alpha0 = alpha
    beta0 = beta

    base_at = depth * DEPTH_SLOTS
    count = order_leads(hl, declared, buf, base_at)
    front = to_front(buf, base_at, count, 0, tt_move)
    front = to_front(buf, base_at, count, front, killers[2 * depth])
    front = to_front(buf, base_at, count, front, killers[2 * depth + 1])

    top = 0
    second = 0
    npos = pos
    if phase1:
        top = stock[pos]
        second = stock[pos + 1]
        npos = pos + 2
    by_suit = stats[BY_SUIT] != 0
    taken = stats[TAKEN]  # -1 as a typed variable: a literal in a recursive call compiles a second version
    best = -INF
    best_move = buf[base_at]
    for i in range(count):
        move = buf[base_at + i]
        c = move & 31
        t = trump
        dec = declared
        gain = 0
        npl = pl
        if move & DECLARE:  # R3: trump at once; the points now, or once the declarer takes a trick
            t = c >> 3
            points = declaration_points(by_suit, t, popcount(declared))
            dec = declared | (1 << t)
            if pl < 0:
                gain = points
            else:
                npl = pl + points
        nhl = hl & ~(1 << c)
        winning = beats(c, t)
        nf = order_follows(hf, c, t, winning, phase1, buf, base_at)
        wa = alpha
        wb = beta
        if i > 0 and beta > alpha + 1:
            wb = alpha + 1  # null window: is this lead better than the best so far?
        value = 0
        if depth >= ETC_DEPTH:
            bound = follow_bound(
                nhl, hf, pos, c, t, dec, gain, npl, pf, winning, top, second, nf, tt, stock, stats, buf, base_at
            )
            if bound <= wa:
                nf = 0  # refuted by the table alone
                value = bound
        for _attempt in range(2 if nf > 0 else 0):
            worst = INF
            for j in range(nf):
                f = buf[base_at + 16 + j]
                ub = wb if wb < worst else worst
                pts = CP[c] + CP[f]
                nhf = hf & ~(1 << f)
                if (winning >> f) & 1:  # the follower takes the trick, draws first and leads next
                    base = gain - pts - (pf if pf > 0 else 0)
                    if phase1:
                        v = base - search(
                            nhf | (1 << top), nhl | (1 << second), npos, t, dec, taken, npl,
                            base - ub, base - wa, tt, stock, stats, killers, buf,
                        )  # fmt: skip
                    else:
                        v = base - search(
                            nhf, nhl, npos, t, dec, taken, npl, base - ub, base - wa,
                            tt, stock, stats, killers, buf,
                        )  # fmt: skip
                else:
                    base = gain + pts + (npl if npl > 0 else 0)
                    if phase1:
                        v = base + search(
                            nhl | (1 << top), nhf | (1 << second), npos, t, dec, taken, pf,
                            wa - base, ub - base, tt, stock, stats, killers, buf,
                        )  # fmt: skip
                    else:
                        v = base + search(
                            nhl, nhf, npos, t, dec, taken, pf, wa - base, ub - base,
                            tt, stock, stats, killers, buf,
                        )  # fmt: skip
                if stats[ABORT] != 0:
                    return 0
                if v < worst:
                    worst = v
                    if worst <= wa:
                        break
            value = worst
            if wb < beta and value >= wb:  # the null window failed high: the exact value in the full window
                wb = beta
                continue
            break
        if value > best:
            best = value
            best_move = move
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    if killers[2 * depth] != move:
                        killers[2 * depth + 1] = killers[2 * depth]
                        killers[2 * depth] = move
                    break

    if best <= alpha0:
        hi = best
    elif best >= beta0:
        lo = best
    else:
        lo = best
        hi = best
    if not use_tt:
        return best
    stamp = stats[GEN] & 0x3FFFF
    if hit < 0:
        old = tt[at + 2]
        deeper = tt[at] != -1 and ((old >> 40) & 31) > depth and ((old >> 45) & 0x3FFFF) == stamp
        hit = at + 4 if deeper else at  # a deeper entry of this world keeps the first slot
    tt[hit] = k1
    tt[hit + 1] = k2
    tt[hit + 2] = (lo + OFFSET) | ((hi + OFFSET) << 16) | ((best_move + 1) << 32) | (depth << 40) | (stamp << 45)
    return best


@jit()
def after_trick(
    hl: int,
    hf: int,
    pos: int,
    lead: int,
    follow: int,
    trump: int,
    declared: int,
    pl: int,
    pf: int,
    alpha: int,
    beta: int,
    tt: Ints,
    stock: Ints,
    stats: Ints,
    killers: Ints,
    buf: Ints,
) -> int:
    """The value for the *leader* of a trick once ``lead`` (its declaration already paid for by the
    caller) and ``follow`` are on the table; ``hl`` and ``hf`` no longer hold them."""
    pts = CP[lead] + CP[follow]
    taken = stats[TAKEN]
    phase1 = pos < stats[STOCK_N]
    npos = pos + 2 if phase1 else pos
    if (beats(lead, trump) >> follow) & 1:
        base = -pts - (pf if pf > 0 else 0)
        if phase1:
            hf |= 1 << stock[pos]
            hl |= 1 << stock[pos + 1]
        return base - search(  # type: ignore[no-any-return]
            hf, hl, npos, trump, declared, taken, pl, base - beta, base - alpha,
            tt, stock, stats, killers, buf,
        )  # fmt: skip
    base = pts + (pl if pl > 0 else 0)
    if phase1:
        hl |= 1 << stock[pos]
        hf |= 1 << stock[pos + 1]
    return base + search(  # type: ignore[no-any-return]
        hl, hf, npos, trump, declared, taken, pf, alpha - base, beta - base,
        tt, stock, stats, killers, buf,
    )  # fmt: skip


@jit()
def lead_values(
    hl: int,
    hf: int,
    trump: int,
    declared: int,
    pl: int,
    pf: int,
    moves: Ints,
    values: Ints,
    tt: Ints,
    stock: Ints,
    stats: Ints,
    killers: Ints,
    buf: Ints,
) -> int:
    """Every lead's exact value for the leader (stock position 0) into ``moves``/``values``; their count
    (``card | DECLARE`` for a declaring lead). 0 if the node limit was reached."""
    root = 63 * DEPTH_SLOTS  # the root's own rows of buf, above every depth
    count = order_leads(hl, declared, buf, root)
    by_suit = stats[BY_SUIT] != 0
    phase1 = stats[STOCK_N] > 0
    for i in range(count):
        move = buf[root + i]
        c = move & 31
        t = trump
        dec = declared
        gain = 0
        npl = pl
        if move & DECLARE:
            t = c >> 3
            points = declaration_points(by_suit, t, popcount(declared))
            dec = declared | (1 << t)
            if pl < 0:
                gain = points
            else:
                npl = pl + points
        nhl = hl & ~(1 << c)
        nf = order_follows(hf, c, t, beats(c, t), phase1, buf, root)
        worst = INF
        for j in range(nf):
            f = buf[root + 16 + j]
            v = after_trick(nhl, hf & ~(1 << f), 0, c, f, t, dec, npl, pf, -INF, worst,
                            tt, stock, stats, killers, buf)  # fmt: skip
            if stats[ABORT] != 0:
                return 0
            if v < worst:
                worst = v
        moves[i] = move
        values[i] = gain + worst
    return count


@jit()
def follow_values(
    lead: int,
    hl: int,
    hf: int,
    trump: int,
    declared: int,
    pl: int,
    pf: int,
    moves: Ints,
    values: Ints,
    tt: Ints,
    stock: Ints,
    stats: Ints,
    killers: Ints,
    buf: Ints,
) -> int:
    """Every legal follow's exact value for the follower (stock position 0) to ``lead``, which ``hl`` no
    longer holds, into ``moves``/``values``; their count. 0 if the node limit was reached."""
    root = 63 * DEPTH_SLOTS
    nf = order_follows(hf, lead, trump, beats(lead, trump), stats[STOCK_N] > 0, buf, root)
    for j in range(nf):
        moves[j] = buf[root + 16 + j]
    for j in range(nf):
        f = moves[j]
        v = after_trick(hl, hf & ~(1 << f), 0, lead, f, trump, declared, pl, pf, -INF, INF,
                        tt, stock, stats, killers, buf)  # fmt: skip
        if stats[ABORT] != 0:
            return 0
        values[j] = -v
    return nf
