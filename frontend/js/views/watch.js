// Watching a table: read-only, public information only (the server's `watch_state` messages,
// docs/protocol.md). The table's own components and reducer draw it: a spectator's view is handed to
// them as seat 0's view with an empty hand, and seat 0's cards are shown as backs with their count.
// A table of 3 or 4 seats (its view's rules name a `variant`) is drawn by the n-seat ring
// (table/ring.js) with every seat — seat 0 at the bottom too — as card backs and a count; the
// store's `spectator` flag keeps every control (bid, pass, discard, a card) out of reach.
import { cardBack } from '../cards.js';
import { h, setChildren } from '../dom.js';
import { CLOSE_CODES } from '../generated/protocol.js';
import { t, tn } from '../i18n.js';
import { loading, playerName, replayHref } from '../ui.js';
import { createAuction } from '../table/auction.js';
import { createCentre } from '../table/centre.js';
import { createDiscard } from '../table/discard.js';
import { isRingView } from '../table/nseat.js';
import { createRing } from '../table/ring.js';
import { createSeats } from '../table/seats.js';
import { createStatus } from '../table/status.js';
import { dealOf, initialState, isRing, matchOver, reduce, roomOf, viewOf } from '../table/store.js';

const FATAL = {
  [CLOSE_CODES.WATCH_REFUSED]: 'watch.refused',
  [CLOSE_CODES.WATCH_FULL]: 'watch.full',
  [CLOSE_CODES.UNKNOWN_ROOM]: 'watch.unknown',
};
const MIN_DELAY = 500;
const MAX_DELAY = 8000;

/** A `watch_state` as the table's reducer reads a `state`: seat 0's seat, no hand, no legal play. */
export function asSeatState(m) {
  const v = m.view;
  if (!v) return { type: 'state', version: m.version, reply_to: null, room: m.room, view: null, events: m.events || [], stake: null };
  const d = v.deal;
  if (isRingView(v)) {
    // n seats: seat 0 at the bottom, no hand, nothing to bid, discard or play (`seat: null` in the view).
    const deal = { ...d, hand: [], talon: null, discards: null, my_card_points: null };
    const view = { ...v, seat: 0, legal: [], blocked: [], bids: [], may_pass: false, must_discard: false, deal };
    return { type: 'state', version: m.version, reply_to: null, room: m.room, view, events: m.events || [], stake: null };
  }
  const deal = { ...d, hand: [], opponent_cards: d.hand_counts[1], my_card_points: d.card_points ? d.card_points[0] : 0 };
  return { type: 'state', version: m.version, reply_to: null, room: m.room, view: { ...v, seat: 0, legal: [], blocked: [], deal }, events: m.events || [], stake: null };
}

export function mount(root, roomId, code) {
  window.scrollTo(0, 0);
  let state = initialState({ myId: null, spectator: true });
  let counts = [0, 0];
  let destroyed = false;
  let ws = null;
  let timer = null;
  let delay = MIN_DELAY;
  let fatal = null;

  const centre = createCentre();
  const seats = createSeats();
  const none = () => {};
  const ring = createRing({ auction: createAuction({ onStep: none, onBid: none, onPass: none }), discard: createDiscard({ onDiscard: none }) });
  const status = createStatus();
  const el = {};
  el.watchers = h('span', { class: 'bar-chip', 'data-testid': 'spectator-watchers' });
  el.back = h('a', { class: 'bar-btn', href: '#/', 'data-testid': 'table-to-lobby' });
  el.title = h('span', { class: 'bar-chip' });
  el.h1 = h('h1', { class: 'visually-hidden' });
  el.bar = h('div', { class: 'table-bar' }, el.back, el.title, h('span', { class: 'bar-space' }), el.watchers);
  el.seat0 = h('div', { class: 'opp-hand spectator-hand', 'data-testid': 'spectator-hand-0', role: 'img' });
  el.message = h('div', { class: 'felt-message' });
  el.felt = h('section', { class: 'felt', 'data-testid': 'felt', 'data-mode': 'loading' }, seats.opp, centre.el, el.seat0, seats.me, ring.el, status.el, ring.me, el.message);
  el.page = h('div', { class: 'table-page spectator', 'data-testid': 'spectator-table', 'data-room': roomId }, el.h1, h('div', { class: 'table-main' }, el.bar, el.felt));
  root.append(el.page);
  document.body.classList.add('at-table');

  let watchers = 0;
  function render(events = []) {
    if (destroyed) return;
    el.back.textContent = t('watch.back');
    el.title.textContent = t('watch.title');
    el.h1.textContent = t('watch.title');
    el.watchers.textContent = t('watch.watchers', { n: watchers });
    el.watchers.dataset.count = String(watchers);
    if (fatal) {
      document.body.classList.remove('table-live');
      el.felt.dataset.mode = 'waiting';
      setChildren(el.message, h('p', { class: 'form-error', role: 'alert', 'data-testid': 'watch-error', text: t(fatal) }));
      return;
    }
    const room = roomOf(state);
    el.page.dataset.version = String(state.version);
    if (!room || !viewOf(state)) {
      document.body.classList.remove('table-live');
      el.felt.dataset.mode = 'waiting';
      setChildren(el.message, room ? h('p', { class: 'muted', text: t('watch.waiting') }) : loading());
      return;
    }
    el.felt.dataset.mode = 'playing';
    // While the match is played a phone gives the site header's rows to the table (as players' do).
    document.body.classList.toggle('table-live', room.status === 'playing' && !matchOver(state));
    // The match is over: its replay is open to whoever could watch it (a private table's with this
    // same watch code). A rematch gives the room a new match and takes the link away.
    if (room.status === 'finished' && room.match_id) {
      const winner = room.players[viewOf(state).winner];
      setChildren(
        el.message,
        h(
          'p',
          { class: 'watch-over', 'data-testid': 'watch-over' },
          winner ? h('strong', { text: t('match.they_won', { name: playerName(winner, room.players) }) }) : null,
          h('a', { class: 'btn primary', href: replayHref(room.match_id, 0, code), 'data-testid': 'watch-replay', text: t('watch.replay') }),
        ),
      );
    } else el.message.replaceChildren();
    const ringMode = isRing(state);
    el.felt.dataset.ring = String(ringMode);
    status.el.hidden = !ringMode;
    el.seat0.hidden = ringMode;
    if (ringMode) {
      ring.render(state, { events });
      status.render(state);
      return;
    }
    seats.render(state);
    centre.render(state, { events });
    // Seat 0's card points are its own unless the table shows both (R7 `open_scores`).
    const d = dealOf(state);
    if (!d.card_points) for (const chip of el.page.querySelectorAll('[data-testid="my-card-points"]')) chip.remove();
    el.seat0.dataset.count = String(counts[0]);
    el.seat0.setAttribute('aria-label', tn('table.cards_count', counts[0]));
    if (el.seat0.childElementCount !== counts[0]) setChildren(el.seat0, ...Array.from({ length: counts[0] }, () => cardBack({ className: 'mini' })));
  }

  function onMessage(m) {
    if (!m || m.type !== 'watch_state') return; // `rejected` cannot happen: a spectator sends nothing
    watchers = Number(m.watchers) || 0;
    counts = m.view ? m.view.deal.hand_counts : [0, 0];
    state = reduce(state, asSeatState(m));
    if (state.held) state = reduce(state, { type: 'local/summary_close' }); // no summary here: show the next deal
    render(m.events || []);
  }

  function connect() {
    if (destroyed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = code ? `?code=${encodeURIComponent(code)}` : '';
    ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${encodeURIComponent(roomId)}/watch${query}`);
    ws.onmessage = (e) => {
      delay = MIN_DELAY;
      try {
        onMessage(JSON.parse(e.data));
      } catch (error) {
        console.error('bad message', error);
      }
    };
    ws.onclose = (e) => {
      if (destroyed) return;
      if (FATAL[e.code]) {
        fatal = FATAL[e.code];
        render();
        return;
      }
      timer = setTimeout(connect, delay);
      delay = Math.min(MAX_DELAY, delay * 2);
    };
  }

  render();
  connect();
  return {
    relang() {
      render();
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      if (ws) ws.close(1000);
      document.body.classList.remove('at-table', 'table-live');
    },
  };
}
