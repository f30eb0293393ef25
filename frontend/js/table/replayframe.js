// The replay of a deal, for every game of the family and every seat count: pure helpers over the
// server's answer to GET /api/matches/{id}/deals/{n}/replay (`{seats, variant, frames: [ReplayFrame],
// result, …}`, one frame shape for every game). No DOM and no text (tested under node:
// replayframe.test.mjs). A frame is turned into the message the table's store reads — a spectator's
// (`seat` null, no hand, nothing to do), every hand counted — so that the table's own components
// (ring.js, auction.js, summary.js) draw it as they draw a live table; the hands are shown face up
// beside it (R7: the match is over). Nothing here applies a rule: every position, the stock, every
// call, the talon, the discards and the scores come from the frames.
import { initialState, reduce } from './store.js';

export function seatsOf(data) {
  if (Number.isInteger(data.seats) && data.seats > 0) return data.seats;
  const first = data.frames && data.frames[0];
  return first && Array.isArray(first.hands) ? first.hands.length : 2;
}

/** Where the viewer sits: its own seat at the bottom when it played the match, else seat 0. */
export function bottomSeat(players, myId) {
  const i = (players || []).findIndex((p) => p && myId && p.id === myId);
  return i < 0 ? 0 : i;
}

/** `[{seat, card}]` (the frame's trick) as the view's `{leader, cards}`; null when empty. */
export function trickOf(cards) {
  if (!Array.isArray(cards) || !cards.length) return null;
  return { leader: cards[0].seat, cards: cards.map((c) => c.card) };
}

const list = (x) => (Array.isArray(x) ? x : []);

/** The room a frame is drawn in: the match's players in seat order, all present, still playing. */
function roomOf(data, n) {
  const players = Array.from({ length: n }, (_, seat) => {
    const p = list(data.players).find((x) => x && x.seat === seat) || list(data.players)[seat] || {};
    return { seat, id: p.id ?? null, name: p.name ?? '?', bot_level: p.bot_level ?? null, connected: true, grace_deadline: null };
  });
  return {
    id: null,
    status: 'playing', // the turn is shown as at a live table; the replay has no controls anyway
    options: { variant: data.variant, seats: n },
    players,
    match_id: data.match_id ?? null,
    version: 0,
    rematch: null,
  };
}

/**
 * Frame `step` as a spectator's message of the table (`seat` null: no hand, no bid, no legal card).
 * A trick just taken stays on the felt with its winner (`final_trick`).
 */
export function frameMessage(data, step) {
  const n = seatsOf(data);
  const f = data.frames[step];
  const trick = trickOf(f.trick);
  const taken = Boolean(f.trick_won && !trick && f.last_trick);
  const discards = list(f.discards);
  const deal = {
    variant: data.variant,
    phase: f.phase,
    dealer: data.dealer,
    turn: f.deal_over ? null : f.turn ?? null,
    hand: null,
    hand_counts: list(f.hands).map((h) => list(h).length),
    stock_count: f.stock_count ?? 0,
    stock_bottom: null,
    talon_count: f.talon_taken ? 0 : list(f.talon).length,
    talon: null,
    discards: discards.length ? [...discards] : null,
    calls: list(f.calls).map((c) => ({ seat: c.seat, bid: c.bid ?? null })),
    high_bid: f.high_bid ?? null,
    declarer: f.declarer ?? null,
    contract: f.contract ?? null,
    trump: f.trump ?? null,
    declarations: list(f.declarations).map((d) => ({ ...d })),
    trick: taken ? { leader: f.last_trick.leader, cards: [...f.last_trick.cards] } : trick,
    last_trick: f.last_trick ? { ...f.last_trick, cards: [...f.last_trick.cards] } : null,
    final_trick: taken ? { ...f.last_trick, cards: [...f.last_trick.cards] } : null,
    tricks_played: f.tricks_played ?? 0,
    tricks_won: list(f.tricks_won).length === n ? [...f.tricks_won] : Array(n).fill(0),
    my_card_points: null,
    card_points: list(f.card_points).length === n ? [...f.card_points] : Array(n).fill(0),
  };
  const view = {
    seat: null,
    rules: { variant: data.variant, seats: n },
    target: null,
    totals: Array(n).fill(0),
    deal_number: data.number ?? 0,
    deal,
    bids: [],
    may_pass: false,
    must_discard: false,
    legal: [],
    blocked: [],
    history: [],
    winner: null,
    loser: null,
    end_reason: null,
    places: null,
  };
  return { type: 'watch_state', version: step + 1, room: roomOf(data, n), view, events: [], watchers: 0 };
}

/** The table's store state for frame `step`, seen from `bottom`: what ring.js, auction.js and summary.js read. */
export function frameState(data, step, { bottom = 0 } = {}) {
  return reduce(initialState({ bottom }), frameMessage(data, step));
}

/**
 * What step `step` did, as facts for a line of text each: the action (a bid, a pass, the discard,
 * a card), a declaration, the trick taken, the cards drawn from the stock (R4), the talon taken by
 * the declarer (or the declarer fixed where there is no talon), the throw-in and the end of the deal.
 */
export function stepFacts(data, step) {
  const f = data.frames[step];
  const prev = step > 0 ? data.frames[step - 1] : null;
  const a = f.action || null;
  const declarerNow = f.declarer !== null && f.declarer !== undefined;
  const declarerBefore = Boolean(prev) && prev.declarer !== null && prev.declarer !== undefined;
  const talon = list(f.talon);
  const tookTalon = Boolean(prev) && !prev.talon_taken && Boolean(f.talon_taken) && declarerNow;
  return {
    start: !a,
    phase: f.phase,
    turn: f.turn ?? null,
    action: a ? { ...a } : null,
    declared: f.declared || null,
    trickWon: f.trick_won || null,
    drawn: list(f.drawn).map((d) => ({ ...d })), // the trick's winner first (R4)
    // the auction is over: the declarer takes the talon (face up) — or, without one, just plays
    tookTalon: tookTalon ? { seat: f.declarer, contract: f.contract, cards: [...talon] } : null,
    declarer: !tookTalon && declarerNow && !declarerBefore && Boolean(prev) ? { seat: f.declarer, contract: f.contract } : null,
    thrownIn: Boolean(f.thrown_in) && !(prev && prev.thrown_in),
    dealOver: Boolean(f.deal_over) && !(prev && prev.deal_over),
  };
}

/** The talon face up, while it is on the table: in the auction, and with its taker while discarding. */
export function talonShown(frame) {
  const talon = list(frame.talon);
  if (!talon.length) return null;
  if (!frame.talon_taken && (frame.phase === 'auction' || frame.phase === 'thrown_in')) return { cards: [...talon], taken: false, seat: null };
  if (frame.talon_taken && frame.phase === 'discard') return { cards: [...talon], taken: true, seat: frame.declarer };
  return null;
}

/** The talon's cards in the declarer's hand while it chooses its discards (marked in the hand). */
export function fromTalon(frame) {
  const shown = talonShown(frame);
  return new Set(shown && shown.taken ? shown.cards : []);
}

/**
 * The end of the deal, a row per seat in seat order: its card points, the deal score and the total
 * after it (from the stored result when there is one), and whether it declared and made the contract.
 */
export function scoreRows(data, step) {
  const f = data.frames[step];
  if (!f.deal_over) return null;
  const n = seatsOf(data);
  const result = data.result || null;
  const score = list(f.score).length === n ? f.score : result ? list(result.score) : [];
  return Array.from({ length: n }, (_, seat) => ({
    seat,
    cardPoints: list(f.card_points)[seat] ?? 0,
    score: score[seat] ?? 0,
    total: result && list(result.totals).length === n ? result.totals[seat] : null,
    declarer: f.declarer === seat,
    made: f.declarer === seat ? f.made ?? (result ? result.made ?? null : null) : null,
  }));
}

/**
 * The stored result as summary.js reads a `deal_over` event: the deal points (card points and
 * the declarations that count, V0.8) added up from the stored lists when the result has none.
 */
export function resultForSummary(data) {
  const r = data.result;
  if (!r) return null;
  const n = seatsOf(data);
  const at = (xs, seat) => list(xs)[seat] ?? 0;
  const last = data.frames[data.frames.length - 1] || {};
  return {
    ...r,
    declarer: r.declarer ?? last.declarer ?? null,
    contract: r.contract ?? last.contract ?? null,
    made: r.made ?? last.made ?? null,
    thrown_in: Boolean(r.thrown_in ?? last.thrown_in),
    deal_points: list(r.deal_points).length === n ? r.deal_points : Array.from({ length: n }, (_, s) => at(r.card_points, s) + at(r.declaration_points, s)),
  };
}
