// The table for 3 and 4 seats (RULES-VARIANTS.md V2–V7): pure helpers over the engine's
// `TableSeatView` (backend/engine/table_view.py) — where each seat sits, the auction, the discard
// selection, tricks taken, the deal summary's rows. No DOM and no text: tested under node
// (nseat.test.mjs, with real views in fixtures/ written by frontend/tools/table_fixtures.py).
// The table never re-derives a rule: bids come from `view.bids`, plays from `view.legal`.

/** A view of the n-seat engine: its rules name a variant (two-hand views have none). */
export const isRingView = (v) => Boolean(v && v.rules && typeof v.rules === 'object' && v.rules.variant);

export function seatCountOf(v) {
  if (!v) return 2;
  const n = (v.rules && v.rules.seats) || (Array.isArray(v.totals) ? v.totals.length : 2);
  return Number(n) || 2;
}

/** Where a seat sits as `me` sees the table (me at the bottom; clockwise = left, top, right, V0.1). */
export function positionOf(n, me, seat) {
  const k = (((seat - me) % n) + n) % n;
  if (k === 0) return 'bottom';
  if (n === 3) return k === 1 ? 'left' : 'right';
  if (n === 4) return ['bottom', 'left', 'top', 'right'][k];
  return k === 1 ? 'top' : `other-${k}`;
}

/** The other seats in playing order from my left: [{seat, pos}]. */
export function othersAround(n, me) {
  const out = [];
  for (let k = 1; k < n; k++) {
    const seat = (me + k) % n;
    out.push({ seat, pos: positionOf(n, me, seat) });
  }
  return out;
}

/** Every seat, me first, then clockwise (the order of summary rows and score columns). */
export const seatsFromMe = (n, me) => Array.from({ length: n }, (_, k) => (me + k) % n);

/** The trick's cards with the seat that played each: the leader first, then clockwise (V0.4). */
export function trickCards(trick, n) {
  if (!trick || !Array.isArray(trick.cards)) return [];
  return trick.cards.map((card, i) => ({ card, seat: (trick.leader + i) % n }));
}

// ------------------------------------------------------------------ the auction (V0.6)

/**
 * The auction as a table shows it: every call in order, each seat's last call (a number, 'pass'
 * or null), who has passed, the high bid and its holder.
 */
export function auctionOf(deal, n) {
  const calls = ((deal && deal.calls) || []).filter((c) => c && typeof c === 'object');
  const last = Array.from({ length: n }, () => null);
  const passed = Array.from({ length: n }, () => false);
  let high = null;
  let holder = null;
  for (const c of calls) {
    if (c.bid === null || c.bid === undefined) {
      last[c.seat] = 'pass';
      passed[c.seat] = true;
    } else {
      last[c.seat] = c.bid;
      high = c.bid;
      holder = c.seat;
    }
  }
  if (deal && deal.high_bid !== undefined && deal.high_bid !== null) high = deal.high_bid;
  return { calls, last, passed, high, holder };
}

/** The amount the stepper shows: the wanted one if it is a bid the view offers, else the lowest. */
export function bidChoice(bids, wanted) {
  const list = Array.isArray(bids) ? bids : [];
  if (!list.length) return null;
  if (wanted !== null && wanted !== undefined && list.includes(wanted)) return wanted;
  return list[0];
}

/** One step of the stepper (−1 or +1) along the view's bids, clamped at both ends. */
export function stepBid(bids, current, dir) {
  const list = Array.isArray(bids) ? bids : [];
  if (!list.length) return null;
  const at = list.indexOf(bidChoice(list, current));
  return list[Math.max(0, Math.min(list.length - 1, at + (dir < 0 ? -1 : 1)))];
}

// ------------------------------------------------------------------ the discard (V0.7)

export const DISCARD_COUNT = 2;

/**
 * Tap a card of the hand to select it for the discard, tap again to put it back. A third card
 * replaces the one selected first. Cards not in `hand` are never selected.
 */
export function toggleDiscard(selected, card, hand) {
  const sel = (selected || []).filter((c) => (hand || []).includes(c));
  if (!(hand || []).includes(card)) return sel;
  if (sel.includes(card)) return sel.filter((c) => c !== card);
  const next = [...sel, card];
  return next.length > DISCARD_COUNT ? next.slice(next.length - DISCARD_COUNT) : next;
}

export const discardReady = (selected) => Array.isArray(selected) && selected.length === DISCARD_COUNT && selected[0] !== selected[1];

// ------------------------------------------------------------------ tricks taken

/**
 * Tricks taken by seat in the current deal: the view's own `tricks_won` when it has one; else the
 * tally the store kept from `trick_won` events, when it accounts for every trick played; else null.
 */
export function tricksWonOf(deal, tally, dealNumber, n) {
  if (deal && Array.isArray(deal.tricks_won)) return deal.tricks_won;
  if (!deal || !tally || tally.deal !== dealNumber || !Array.isArray(tally.counts) || tally.counts.length !== n) return null;
  const sum = tally.counts.reduce((a, b) => a + b, 0);
  return sum === (deal.tricks_played || 0) ? tally.counts : null;
}

/** The tally after one state's events: `trick_won` counts, `deal_started` starts a fresh one. */
export function tallyAfter(tally, events, dealNumber, n) {
  let cur = tally;
  for (const e of events || []) {
    if (!e || typeof e !== 'object') continue;
    if (e.kind === 'deal_started') cur = { deal: e.number, counts: Array(n).fill(0) };
    else if (e.kind === 'trick_won' && cur && Number.isInteger(e.seat) && e.seat < n) {
      const counts = [...cur.counts];
      counts[e.seat] += 1;
      cur = { ...cur, counts };
    }
  }
  if (!cur || cur.deal !== dealNumber || !Array.isArray(cur.counts) || cur.counts.length !== n) {
    // Joined mid-deal (or a new match): only a deal seen from its first trick can be counted.
    cur = { deal: dealNumber, counts: Array(n).fill(0) };
  }
  return cur;
}

// ------------------------------------------------------------------ results

/** A deal's result (a `deal_over` event or a history record) as one row per seat, me first. */
export function summaryRows(result, n, me) {
  const at = (list, seat) => (Array.isArray(list) ? list[seat] ?? 0 : 0);
  return seatsFromMe(n, me).map((seat) => ({
    seat,
    me: seat === me,
    declarer: result.declarer === seat,
    cardPoints: at(result.card_points, seat),
    declarationPoints: at(result.declaration_points, seat),
    dealPoints: at(result.deal_points, seat),
    jungfrau: at(result.jungfrau, seat),
    score: at(result.score, seat),
    total: at(result.totals, seat),
  }));
}

/** Seats ordered by total, highest first (ties keep seat order). */
export function standings(totals) {
  return (totals || []).map((total, seat) => ({ seat, total })).sort((a, b) => b.total - a.total || a.seat - b.seat);
}

/** A signed score for the sheet: "+60", "−70" (a true minus sign), "0". */
export function signed(n) {
  const x = Number(n) || 0;
  if (x > 0) return `+${x}`;
  if (x < 0) return `−${Math.abs(x)}`;
  return '0';
}
