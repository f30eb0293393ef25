// The table's pure helpers over the engine's one `SeatView` (backend/engine/view.py), for every game of
// the family and every seat count (2, 3 or 4): where each seat sits, the trick's card per seat, the
// auction, the discard selection, the deal summary's rows, the final standings. No DOM and no text:
// tested under node (model.test.mjs, with real engine views in fixtures/ written by
// frontend/tools/table_fixtures.py). Nothing here applies a rule: bids come from `view.bids`, plays
// from `view.legal`, places from `view.places`. Where a game genuinely differs, it is read from data:
// the view's `rules` and the game's flags in the generated GAMES (stock, auction, talon).
import { GAMES } from '../generated/protocol.js';

/** How many seats a view has (its rules; else its totals). */
export function seatCountOf(v) {
  if (!v) return 2;
  const n = (v.rules && v.rules.seats) || (Array.isArray(v.totals) ? v.totals.length : 2);
  return Number(n) || 2;
}

/** The game's facts from the generated GAMES ({stock, auction, talon, seats, …}); {} for an unknown one. */
export function gameOfView(v) {
  const id = v && v.rules && v.rules.variant;
  return (id && GAMES[id]) || {};
}

/** The game deals a stock to draw from (two-hand 1001, R2/R4): the stock pile is on the felt. */
export const hasStock = (v) => Boolean(gameOfView(v).stock);

/** The game has an auction (V0.6): steps of a replay may be calls, not only cards. */
export const hasAuction = (v) => Boolean(gameOfView(v).auction);

/** The i18n keys that name the talon, by the game's own word for it (GAMES `talon_name`: V7 calls it the skat, V7.5). */
const TALON_KEYS = {
  talon: { label: 'ring.talon', count: 'ring.talon_count', took: 'ring.took_talon', youTook: 'ring.you_took_talon', card: 'ring.card_from_talon', replayTook: 'replay.took_talon', phase: 'ring.phase.discard' },
  skat: { label: 'ring.skat', count: 'ring.skat_count', took: 'ring.took_skat', youTook: 'ring.you_took_skat', card: 'ring.card_from_skat', replayTook: 'replay.took_skat', phase: 'ring.phase.discard_skat' },
};
export const TALON_NAMES = Object.keys(TALON_KEYS);
export const talonKeys = (v) => TALON_KEYS[gameOfView(v).talon_name] || TALON_KEYS.talon;

/**
 * Where a seat sits as `me` sees the table: me at the bottom, the others clockwise (V0.1) — for two
 * the other on top; for three left and right; for four left, top, right.
 */
export function positionOf(n, me, seat) {
  const k = (((seat - me) % n) + n) % n;
  if (k === 0) return 'bottom';
  if (n === 2) return 'top';
  if (n === 3) return k === 1 ? 'left' : 'right';
  if (n === 4) return ['bottom', 'left', 'top', 'right'][k];
  return `other-${k}`;
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

/** The trick's cards with the seat that played each: the leader first, then clockwise (R4, V0.4). */
export function trickCards(trick, n) {
  if (!trick || !Array.isArray(trick.cards)) return [];
  return trick.cards.map((card, i) => ({ card, seat: (trick.leader + i) % n }));
}

// ------------------------------------------------------------------ the auction (V0.6)

/**
 * The auction as a table shows it: every call in order, each seat's last call (a number, 'pass'
 * or null), who has passed, the high bid and its holder. Without an auction: no calls.
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

/** Tricks taken per seat this deal after `tricks_won` (the view's) and the `trick_won` events that followed. */
export function tricksAfter(tricksWon, events, n) {
  const counts = Array.from({ length: n }, (_, seat) => (Array.isArray(tricksWon) ? tricksWon[seat] ?? 0 : 0));
  for (const e of events || []) if (e && e.kind === 'trick_won' && Number.isInteger(e.seat) && e.seat < n) counts[e.seat] += 1;
  return counts;
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
    // a history record of the match page may not carry them: the card points and the marriages (R5)
    dealPoints: Array.isArray(result.deal_points) ? at(result.deal_points, seat) : at(result.card_points, seat) + at(result.declaration_points, seat),
    jungfrau: at(result.jungfrau, seat),
    score: at(result.score, seat),
    total: at(result.totals, seat),
  }));
}

/**
 * Which columns a deal's result needs beyond cards, marriages, score and total: the deal points
 * when some seat's score is not simply its points (a contract, V0.8; simplified scoring, V4.9), the
 * Jungfrau bonus when the table plays it or someone got it (V6).
 */
export function summaryColumns(rows, rules = {}) {
  return {
    dealPoints: rows.some((r) => r.score !== r.dealPoints + r.jungfrau),
    jungfrau: Boolean(rules && rules.jungfrau) || rows.some((r) => r.jungfrau),
  };
}

/**
 * The final standings, best first: the view's own places (1 the best, the one who left last,
 * equal totals sharing a place); without them (a match not over) by total. Ties keep seat order.
 */
export function standings(totals, places = null) {
  const list = (totals || []).map((total, seat) => ({ seat, total, place: Array.isArray(places) ? places[seat] ?? null : null }));
  const rank = (x) => (x.place === null ? 0 : x.place);
  return list.sort((a, b) => rank(a) - rank(b) || b.total - a.total || a.seat - b.seat);
}

/** A signed score for the sheet: "+60", "−70" (a true minus sign), "0". */
export function signed(n) {
  const x = Number(n) || 0;
  if (x > 0) return `+${x}`;
  if (x < 0) return `−${Math.abs(x)}`;
  return '0';
}

/** A total with a true minus sign: "−60", "120". */
export const total = (n) => ((Number(n) || 0) < 0 ? `−${-n}` : String(Number(n) || 0));
