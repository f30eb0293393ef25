// The table's state: one pure `reduce(state, action)` over the server's messages and the page's own
// actions. It never mutates a message (nor the previous state): every change builds new objects, so
// it runs under `node --test` without a browser (frontend/js/table/store.test.mjs).
//
// One message shape for every game of the family and every seat count (protocol 2): a `state` (a
// player's) or a `watch_state` (a spectator's, whose view is the engine's `SeatView` with `seat`
// null and no hand) carries the engine's view and events. Where a game differs, the data says so:
// the phase (`auction`, `discard`, `play`, …), `deal.stock_count`, `view.rules`. Actions are the
// server's messages as they arrive (`state`, `watch_state`, `rejected`, `chat`, `chat_log`,
// `presence`) and local ones, all named `local/*`. `state.effects` lists what the last action asks
// the page to do once (sounds: 'turn', 'card', 'trick', 'marriage', 'deal', 'match'). What only the
// page keeps — the bid amount chosen and the two cards picked for the discard — is in `bid` and
// `discard`, with the pure helpers in model.js.
import { auctionOf, bidChoice, discardReady, seatCountOf, stepBid, toggleDiscard, tricksAfter } from './model.js';

export const CHAT_KEEP = 100;

/** `bottom`: the seat drawn at the bottom when the view names none (a spectator's: seat 0). */
export function initialState({ myId = null, bottom = 0 } = {}) {
  return {
    myId,
    bottom,
    msg: null, // the last `state` message: the truth (its version is what intents are made against)
    shown: null, // what the page shows: `msg`, or the end of the last deal while its summary is up
    version: 0,
    held: false, // true while the deal summary holds the next deal back
    summary: null, // {event, declarations, matchId, open}
    banners: [], // marriages to announce on the felt: {id, seat, suit, points}
    chat: [],
    unread: 0,
    sheet: { open: false, tab: 'chat' },
    pending: null, // {id, kind, card, slow}: a blocking intent sent, not yet answered (slow: for a while);
    // a card played at once (issue 42) also has `optimistic: true` and the `version` it was made against
    putBack: null, // {card, reason: 'refused' | 'lost' | 'timeout', code, seq}: a card played at once came back
    awaitingState: false, // after stale_version: the current state follows at once
    rejected: null, // {id, code, seq}
    illegal: null, // {card, code, seq}: the last tap on a card that may not be played
    conn: 'connecting',
    health: 'ok', // 'slow': the open socket's answer to a ping is late (socket.js)
    fatal: null,
    seq: 0,
    effects: [],
    bid: null, // the amount the bid stepper shows (one of view.bids), null = the lowest (V0.6)
    discard: [], // the cards picked for the discard (V0.7)
  };
}

// ------------------------------------------------------------------ selectors (pure)
/** The card drawn in the trick before the server's answer (issue 42), or null. */
export const optimisticCard = (s) => (s.pending && s.pending.optimistic ? s.pending.card : null);

export const roomOf = (s) => (s.shown && s.shown.room) || (s.msg && s.msg.room) || null;
export const viewOf = (s) => (s.shown && s.shown.view) || null;
export const dealOf = (s) => (viewOf(s) && viewOf(s).deal) || null;

/** How many seats the table has (2, 3 or 4). */
export function seatCount(s) {
  const v = viewOf(s);
  if (v) return seatCountOf(v);
  const room = roomOf(s);
  return (room && Array.isArray(room.players) && room.players.length) || 2;
}

/** A spectator's view (`seat` null): nothing at the table is its own. */
export const isSpectator = (s) => {
  const v = viewOf(s);
  return Boolean(v) && (v.seat === null || v.seat === undefined);
};

/** The seat at the bottom of the table: mine, or for a spectator the one it looks from. */
export function mySeat(s) {
  const v = viewOf(s);
  if (v) return Number.isInteger(v.seat) ? v.seat : s.bottom;
  const room = roomOf(s);
  const players = (room && room.players) || [];
  const i = players.findIndex((p) => p && p.id === s.myId);
  return i < 0 ? s.bottom : i;
}

/** The seat is mine (a spectator has none: its bottom seat is only where it looks from). */
export const isMe = (s, seat) => !isSpectator(s) && seat === mySeat(s);

export function player(s, seat) {
  const room = roomOf(s);
  return (room && room.players && room.players[seat]) || null;
}

/** The other seats, in playing order from mine. */
export function otherSeats(s) {
  const n = seatCount(s);
  const me = mySeat(s);
  return Array.from({ length: n - 1 }, (_, k) => (me + 1 + k) % n);
}

/** The match is over: the view says why (`end_reason`), or the room is finished. */
export function matchOver(s) {
  const v = viewOf(s);
  const room = roomOf(s);
  return Boolean(v && v.end_reason) || Boolean(room && room.status === 'finished');
}

export function myTurn(s) {
  const d = dealOf(s);
  return Boolean(d && !isSpectator(s) && !s.held && d.turn === mySeat(s) && !matchOver(s));
}

/** The deal's phase: auction, discard, play, over or thrown_in (two-hand 1001 is always in play). */
export function phaseOf(s) {
  const d = dealOf(s);
  return d && typeof d.phase === 'string' ? d.phase : null;
}

/** My turn to play a card (not to bid or discard). */
export const playTurn = (s) => myTurn(s) && phaseOf(s) === 'play';

/** My turn to bid or pass (V0.6). */
export function auctionTurn(s) {
  const v = viewOf(s);
  return myTurn(s) && phaseOf(s) === 'auction' && Boolean(v && v.may_pass);
}

/** I hold the talon and must lay two cards away (V0.7). */
export function discardTurn(s) {
  const v = viewOf(s);
  return myTurn(s) && phaseOf(s) === 'discard' && Boolean(v && v.must_discard);
}

/** The bid the stepper shows now, or null when there is none to make. */
export function bidAmount(s) {
  const v = viewOf(s);
  return v ? bidChoice(v.bids, s.bid) : null;
}

/** The auction of the shown deal (calls, each seat's last call, high bid and holder). */
export function auction(s) {
  return auctionOf(dealOf(s), seatCount(s));
}

/** Tricks taken per seat in the shown deal (the view's own count). */
export function tricksWon(s) {
  const d = dealOf(s);
  return d && Array.isArray(d.tricks_won) ? d.tricks_won : null;
}

export const canSubmitDiscard = (s) => discardTurn(s) && discardReady(s.discard);

/** `view.legal` as a Map card → {card, declare}; empty while the summary holds the deal back. */
export function legalMoves(s) {
  const moves = new Map();
  const v = viewOf(s);
  if (!v || s.held) return moves;
  for (const move of v.legal || []) if (move && typeof move === 'object' && move.card) moves.set(move.card, move);
  return moves;
}

/** `view.blocked` as a Map card → refusal code. */
export function blockedMoves(s) {
  const out = new Map();
  const v = viewOf(s);
  if (!v || s.held || !Array.isArray(v.blocked)) return out;
  for (const b of v.blocked) if (b && typeof b === 'object' && b.card && b.code) out.set(b.card, b.code);
  return out;
}

/** Why `card` cannot be played now, as a code for `why.<code>` (or null when it can). */
export function whyNot(s, card) {
  if (legalMoves(s).has(card)) return null;
  if (matchOver(s)) return 'match_over';
  if (s.held) return 'summary_open';
  const d = dealOf(s);
  const phase = phaseOf(s);
  if (phase === 'auction') return 'auction_on';
  if (phase === 'discard') return discardTurn(s) ? null : 'discard_on';
  if (!d || d.turn !== mySeat(s)) return 'not_your_turn';
  return blockedMoves(s).get(card) || 'not_allowed';
}

export const canDeclare = (move) => Boolean(move) && move.declare !== null && move.declare !== undefined;

/**
 * The connection pill (issue 22): null while all is well; 'reconnecting' while the socket is down,
 * 'slow' while a ping goes unanswered, 'sending' while a move has waited a moment for its answer.
 */
export function connectionPill(s) {
  if (s.conn === 'reconnecting') return 'reconnecting';
  if (s.conn !== 'open') return null;
  if (s.health === 'slow') return 'slow';
  return s.pending && s.pending.slow ? 'sending' : null;
}

export function isBlocking(s) {
  return Boolean(s.pending || s.awaitingState || s.conn !== 'open');
}

/** Marriages of the current deal by seat: [{suit, points}, …]. */
export function marriagesOf(s, seat) {
  const d = dealOf(s);
  return ((d && d.declarations) || []).filter((x) => x && x.seat === seat);
}

// ------------------------------------------------------------------ the reducer
export function reduce(state, action) {
  if (!action || typeof action !== 'object') return state;
  const s = { ...state, effects: [] };
  switch (action.type) {
    case 'state':
    case 'watch_state':
      return onState(s, action);
    case 'rejected': {
      const clear = s.pending && (action.id === s.pending.id || action.id === null);
      const next = clear ? putBack(s, 'refused', String(action.code || '')) : s;
      const seq = next.seq + 1;
      return {
        ...next,
        seq,
        pending: clear ? null : s.pending,
        awaitingState: action.code === 'stale_version' ? true : s.awaitingState,
        rejected: { id: action.id ?? null, code: String(action.code || ''), seq },
      };
    }
    case 'chat':
      return addChat(s, [action], true);
    case 'chat_log':
      return addChat({ ...s, chat: [] }, Array.isArray(action.lines) ? action.lines : [], false);
    case 'presence':
      return withPlayers(s, (players) =>
        players.map((p, seat) => (p && seat === action.seat ? { ...p, connected: Boolean(action.connected), grace_deadline: action.grace_deadline || null } : p)),
      );
    case 'local/conn': {
      const next = { ...s, conn: action.status, fatal: action.status === 'fatal' ? action.detail || 'unknown' : s.fatal };
      if (action.status === 'connecting' || action.status === 'open') next.fatal = null;
      if (action.status === 'open' || !viewOf(s) || isSpectator(s)) return next;
      // While our own socket is down our own presence light says so too; a card played at once comes back.
      const me = mySeat(s);
      return withPlayers({ ...putBack(next, 'lost'), pending: null }, (players) => players.map((p, seat) => (p && seat === me ? { ...p, connected: false } : p)));
    }
    case 'local/sent': {
      if (!action.blocking) return { ...s };
      const pending = { id: action.id, kind: action.kind, card: action.card || null, slow: false };
      // A legal card of mine is in the trick at once (issue 42); the server's answer confirms it.
      if (action.optimistic && action.kind === 'play' && playTurn(s) && legalMoves(s).has(action.card) && s.shown === s.msg) {
        return { ...s, pending: { ...pending, optimistic: true, version: s.version }, shown: optimisticShown(s.msg, action.card), effects: ['card'] };
      }
      return { ...s, pending };
    }
    case 'local/pending_slow':
      return s.pending && s.pending.id === action.id && !s.pending.slow ? { ...s, pending: { ...s.pending, slow: true } } : state;
    case 'local/health':
      return action.health === s.health ? state : { ...s, health: action.health === 'slow' ? 'slow' : 'ok' };
    case 'local/pending_timeout':
      return s.pending && s.pending.id === action.id ? { ...putBack(s, 'timeout'), pending: null } : state;
    case 'local/summary_close':
      return closeSummary(s);
    case 'local/banner_done':
      return { ...s, banners: s.banners.filter((b) => b.id !== action.id) };
    case 'local/sheet': {
      const sheet = { open: action.open ?? s.sheet.open, tab: action.tab || s.sheet.tab };
      return { ...s, sheet, unread: sheet.open && sheet.tab === 'chat' ? 0 : s.unread };
    }
    case 'local/illegal': {
      const seq = s.seq + 1;
      return { ...s, seq, illegal: { card: action.card, code: whyNot(s, action.card), seq } };
    }
    case 'local/illegal_done':
      return s.illegal && s.illegal.seq === action.seq ? { ...s, illegal: null } : s;
    case 'local/bid': {
      // {amount} picks a bid, {step: -1 | 1} moves along view.bids
      const v = viewOf(s);
      if (!v || !Array.isArray(v.bids) || !v.bids.length) return state;
      const bid = action.step ? stepBid(v.bids, s.bid, action.step) : bidChoice(v.bids, action.amount);
      return bid === bidAmount(s) && s.bid !== null ? state : { ...s, bid };
    }
    case 'local/discard_toggle': {
      if (!discardTurn(s)) return state;
      return { ...s, discard: toggleDiscard(s.discard, action.card, dealOf(s).hand || []) };
    }
    case 'local/discard_clear':
      return s.discard.length ? { ...s, discard: [] } : state;
    default:
      return state;
  }
}

/**
 * The server's state `m` with my `card` played: out of my hand, into the trick after the cards
 * there (my seat leads an empty one), my count one less, the turn on to the next seat (nobody's
 * when the trick is full: who takes it is the server's to say), nothing else playable.
 */
export function optimisticShown(m, card) {
  const v = m.view;
  const d = v.deal;
  const n = seatCountOf(v);
  const me = v.seat;
  const hand = [...(d.hand || [])];
  const at = hand.indexOf(card);
  if (at >= 0) hand.splice(at, 1); // one card: a game of two decks may hold its twin
  const open = d.trick && Array.isArray(d.trick.cards) && d.trick.cards.length > 0;
  const trick = open ? { ...d.trick, cards: [...d.trick.cards, card] } : { ...(d.trick || {}), leader: me, cards: [card] };
  const counts = Array.isArray(d.hand_counts) ? d.hand_counts.map((c, seat) => (seat === me ? Math.max(0, c - 1) : c)) : d.hand_counts;
  const deal = { ...d, hand, hand_counts: counts, trick, turn: trick.cards.length < n ? (me + 1) % n : null };
  return { ...m, view: { ...v, deal, legal: [], blocked: [] }, optimistic: card };
}

/** The card played at once goes back to the hand (the server's table is shown), saying why. */
function putBack(s, reason, code = '') {
  if (!s.pending || !s.pending.optimistic) return s;
  const seq = s.seq + 1;
  return { ...s, seq, shown: s.held ? s.shown : s.msg, putBack: { card: s.pending.card, reason, code, seq } };
}

function onState(s0, m) {
  if (typeof m.version === 'number' && m.version < s0.version) return s0;
  const mine = s0.pending && s0.pending.optimistic ? s0.pending : null;
  const answer = Boolean(s0.pending) && m.reply_to !== null && m.reply_to !== undefined && m.reply_to === s0.pending.id;
  // A state of the same version that does not answer my play (a reply to something else, a resend)
  // keeps my card in the trick; the answer or a newer table is the server's word and is shown as it is.
  const keep = mine && !answer && m.version === s0.version;
  const s = mine ? { ...s0, shown: s0.msg } : s0; // the deal as the server has it (a summary's too)
  const events = Array.isArray(m.events) ? m.events : [];
  const kinds = new Set(events.map((e) => e && e.kind));
  const before = s.msg;
  const wasMyTurn = myTurn(s);
  const v = m.view;
  const hand = (v && v.deal && v.deal.hand) || [];
  let next = {
    ...s,
    msg: m,
    version: typeof m.version === 'number' ? m.version : s.version,
    awaitingState: false,
    pending: null, // every state answers the intent in flight (or makes it moot)
    illegal: null,
    // the bid and the discard picked stay only while they still apply
    discard: v && v.must_discard ? s.discard.filter((c) => hand.includes(c)) : [],
    bid: v && v.may_pass && Array.isArray(v.bids) && v.bids.includes(s.bid) ? s.bid : null,
  };
  const oldMatch = before && before.room && before.room.match_id;
  const newMatch = kinds.has('match_started') || (oldMatch && m.room && m.room.match_id !== oldMatch);
  if (newMatch) next = { ...next, summary: null, held: false, banners: [] };

  const dealOver = events.find((e) => e && e.kind === 'deal_over');
  const over = kinds.has('match_over') || Boolean(v && v.end_reason);
  if (dealOver) {
    const history = (v && v.history) || [];
    const record = history.find((r) => r && r.number === dealOver.number) || null;
    next.summary = {
      event: dealOver,
      declarations: record ? record.declarations || [] : [],
      matchId: (m.room && m.room.match_id) || null,
      open: !kinds.has('match_over'),
    };
    // The last trick stays and the summary shows; the next deal waits until it is closed.
    next.held = !kinds.has('match_over') && Boolean(s.shown && s.shown.view);
    next.shown = next.held ? heldView(s.shown, m, events, dealOver) : m;
  } else if (next.held && !over) {
    // The next deal goes on underneath (another seat may lead): shown later, as it is then.
    next.shown = { ...next.shown, room: m.room };
  } else {
    // Not held (any more): a resignation or a lapse ends the match even behind a summary.
    if (next.held) next.summary = next.summary && { ...next.summary, open: false };
    next.held = false;
    next.shown = m;
  }

  for (const e of events) {
    if (!e || e.kind !== 'declaration') continue;
    next.seq += 1;
    next.banners = [...next.banners, { id: next.seq, seat: e.seat, suit: e.suit, points: e.points }];
  }
  if (keep) {
    next.pending = s0.pending;
    if (!next.held && next.shown === m && m.view && m.view.deal) next.shown = optimisticShown(m, mine.card);
  }
  const fx = [];
  // my card's sound was given at the tap already
  const heard = answer && mine ? events.filter((e) => e && e.kind === 'card_played' && !(e.card === mine.card && e.seat === mySeat(s))) : events.filter((e) => e && e.kind === 'card_played');
  if (heard.length) fx.push('card');
  if (kinds.has('declaration')) fx.push('marriage');
  if (kinds.has('trick_won')) fx.push('trick');
  if (kinds.has('match_over')) fx.push('match');
  else if (dealOver) fx.push('deal');
  if (before && !wasMyTurn && myTurn(next)) fx.push('turn'); // not on arriving at the table
  next.effects = fx;
  return next;
}

/**
 * The end of a deal as the players last saw it: the final trick on the table (`final_trick`), every
 * seat's count down by the cards it played, the last calls in the auction, the tricks taken.
 */
function heldView(prev, m, events, dealOver) {
  const pv = prev.view;
  const pd = pv.deal || {};
  const n = seatCountOf(pv);
  const me = pv.seat;
  const won = [...events].reverse().find((e) => e && e.kind === 'trick_won') || null;
  const played = events.filter((e) => e && e.kind === 'card_played');
  const mine = new Set(played.filter((e) => e.seat === me).map((e) => e.card));
  const counts = Array.from({ length: n }, (_, seat) => Math.max(0, ((pd.hand_counts || [])[seat] || 0) - played.filter((e) => e.seat === seat).length));
  const calls = [...(pd.calls || []), ...events.filter((e) => e && (e.kind === 'bid' || e.kind === 'pass')).map((e) => ({ seat: e.seat, bid: e.kind === 'bid' ? e.amount : null }))];
  const tricks = events.filter((e) => e && e.kind === 'trick_won');
  // The card points as the deal's result counts them (the last trick taken, a declarer's discards):
  // the seats' chips say what the summary says (issue 22).
  const final = Array.isArray(dealOver.card_points) && dealOver.card_points.length === n ? dealOver.card_points : null;
  const deal = {
    ...pd,
    phase: dealOver.thrown_in ? 'thrown_in' : 'over',
    hand: Array.isArray(pd.hand) ? pd.hand.filter((c) => !mine.has(c)) : null, // a spectator holds none
    hand_counts: counts,
    calls,
    trick: won ? { leader: won.leader, cards: [...won.cards] } : pd.trick,
    final_trick: won ? { leader: won.leader, cards: [...won.cards], winner: won.seat } : null,
    tricks_played: (pd.tricks_played || 0) + tricks.length,
    tricks_won: tricksAfter(pd.tricks_won, tricks, n),
    card_points: Array.isArray(pd.card_points) && final ? [...final] : pd.card_points,
    my_card_points: Number.isInteger(me) && final ? final[me] : pd.my_card_points,
    turn: null,
  };
  return {
    ...prev,
    room: m.room,
    view: { ...pv, deal, legal: [], blocked: [], bids: [], may_pass: false, must_discard: false, totals: [...dealOver.totals], history: (m.view && m.view.history) || pv.history },
    events,
  };
}

function closeSummary(s) {
  if (!s.summary) return s;
  const wasMyTurn = myTurn(s);
  const next = { ...s, summary: { ...s.summary, open: false }, held: false, shown: s.msg };
  if (!wasMyTurn && myTurn(next)) next.effects = ['turn'];
  return next;
}

function addChat(s, lines, live) {
  const clean = lines
    .filter((l) => l && typeof l === 'object')
    .map((l) => ({ seat: l.seat, name: l.name == null ? '' : String(l.name), text: String(l.text ?? ''), at: l.at || null }));
  const chat = [...s.chat, ...clean].slice(-CHAT_KEEP);
  const me = mySeat(s);
  const reading = s.sheet.open && s.sheet.tab === 'chat';
  const fresh = live ? clean.filter((l) => l.seat !== me).length : 0;
  return { ...s, chat, unread: reading ? 0 : s.unread + fresh };
}

function withPlayers(s, change) {
  const patch = (m) => {
    if (!m || !m.room || !Array.isArray(m.room.players)) return m;
    return { ...m, room: { ...m.room, players: change(m.room.players) } };
  };
  const msg = patch(s.msg);
  const shown = s.shown === s.msg ? msg : patch(s.shown);
  return { ...s, msg, shown };
}
