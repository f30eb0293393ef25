// Watching a table: read-only, public information only (the server's `watch_state` messages,
// docs/protocol.md). The table's own reducer and components draw it, for every game and seat count:
// a spectator's view is the engine's `SeatView` with `seat` null and no hand, so the store gives it
// nothing to do (no bid, pass, discard or card) and calls nobody "you"; seat 0 is drawn at the bottom
// and every seat — seat 0's too — as card backs and a count (table/ring.js).
import { h, setChildren } from '../dom.js';
import { fitWaiting } from '../fit.js';
import { CLOSE_CODES } from '../generated/protocol.js';
import { t, tn } from '../i18n.js';
import { loading, replayHref } from '../ui.js';
import { protocolAccepted, reloadOnce, socketUrl } from '../socket.js';
import { createAuction } from '../table/auction.js';
import { createDiscard } from '../table/discard.js';
import { createMatchPanel } from '../table/match.js';
import { plainName } from '../table/names.js';
import { createBubbles } from '../table/reactions.js';
import { createRing } from '../table/ring.js';
import { createStatus } from '../table/status.js';
import { createSummary, SUMMARY_MS } from '../table/summary.js';
import { initialState, matchOver, reduce, roomOf, viewOf } from '../table/store.js';

const FATAL = {
  [CLOSE_CODES.WATCH_REFUSED]: 'watch.refused',
  [CLOSE_CODES.WATCH_FULL]: 'watch.full',
  [CLOSE_CODES.UNKNOWN_ROOM]: 'watch.unknown',
  [CLOSE_CODES.OUTDATED_CLIENT]: 'watch.outdated', // after the one reload (socket.js reloadOnce)
};
const MIN_DELAY = 500;
// The race chart is optional (as at the players' table): the panel works without it.
let raceModule = null;
const raceReady = import('../components/race-chart.js').then((m) => (raceModule = m)).catch(() => null);
const MAX_DELAY = 8000;

export function mount(root, roomId, code) {
  window.scrollTo(0, 0);
  let state = initialState(); // seat 0 at the bottom
  let destroyed = false;
  let ws = null;
  let timer = null;
  let delay = MIN_DELAY;
  let fatal = null;

  const none = () => {};
  const ring = createRing({ auction: createAuction({ onStep: none, onBid: none, onPass: none }), discard: createDiscard({ onDiscard: none }) });
  const status = createStatus();
  // The players' own result screens: the deal summary (the next deal waits behind it, as theirs
  // does) and the end-of-match panel, whose row offers the replay instead of a rematch.
  let summaryTimer = null;
  const summary = createSummary({ onClose: closeSummary });
  const matchPanel = createMatchPanel({
    raceChart: () => raceModule && raceModule.raceChart,
    actions: (s) => {
      const room = roomOf(s);
      // The replay is open to whoever could watch (a private table's with this same watch code);
      // a rematch gives the room a new match and takes the link away.
      return room && room.status === 'finished' && room.match_id
        ? h('a', { class: 'btn primary', href: replayHref(room.match_id, 0, code), 'data-testid': 'watch-replay', text: t('watch.replay') })
        : null;
    },
  });
  const el = {};
  el.watchers = h('span', { class: 'bar-chip', 'data-testid': 'spectator-watchers' });
  el.back = h('a', { class: 'bar-btn', href: '#/', 'data-testid': 'table-to-lobby' });
  el.title = h('span', { class: 'bar-chip' });
  el.h1 = h('h1', { class: 'visually-hidden' });
  el.bar = h('div', { class: 'table-bar' }, el.back, el.title, h('span', { class: 'bar-space' }), el.watchers);
  el.message = h('div', { class: 'felt-message' });
  el.felt = h('section', { class: 'felt', 'data-testid': 'felt', 'data-mode': 'loading' }, ring.el, status.el, ring.me, el.message, summary.el, matchPanel.el);
  // The players' quick reactions, when they let spectators see them (the server sends none otherwise).
  const bubbles = createBubbles(el.felt);
  el.felt.append(bubbles.el);
  el.page = h('div', { class: 'table-page spectator', 'data-testid': 'spectator-table', 'data-room': roomId }, el.h1, h('div', { class: 'table-main' }, el.bar, el.felt));
  root.append(el.page);
  document.body.classList.add('at-table');

  let watchers = 0;
  // The whole page drawn, then its names fitted in the same task (fit.js), laid out once for all.
  function render(events = []) {
    draw(events);
    fitWaiting();
  }

  function draw(events) {
    if (destroyed) return;
    el.back.textContent = t('watch.back');
    el.title.textContent = t('watch.title');
    el.h1.textContent = t('watch.title');
    el.watchers.textContent = tn('watch.watchers', watchers);
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
    el.page.dataset.held = String(state.held);
    el.message.replaceChildren();
    ring.render(state, { events });
    status.render(state);
    summary.render(state);
    matchPanel.render(state);
  }

  /** The summary closes on Continue or after SUMMARY_MS, as the players' does: then the next deal. */
  function closeSummary() {
    clearTimeout(summaryTimer);
    summaryTimer = null;
    if (destroyed || !state.held) return;
    state = reduce(state, { type: 'local/summary_close' });
    render();
  }

  function onMessage(m) {
    if (m && m.type === 'reaction' && Number.isInteger(m.seat) && viewOf(state)) {
      bubbles.show(m.seat, m.reaction, plainName(state, m.seat));
      return;
    }
    if (!m || m.type !== 'watch_state') return; // `rejected` cannot happen: a spectator sends nothing
    watchers = Number(m.watchers) || 0;
    const wasHeld = state.held;
    state = reduce(state, m);
    if (state.held && !wasHeld) {
      clearTimeout(summaryTimer);
      summaryTimer = setTimeout(closeSummary, SUMMARY_MS);
    }
    render(m.events || []);
  }

  function connect() {
    if (destroyed) return;
    ws = new WebSocket(socketUrl(`/ws/rooms/${encodeURIComponent(roomId)}/watch`, code ? { code } : {}));
    ws.onmessage = (e) => {
      delay = MIN_DELAY;
      protocolAccepted();
      try {
        onMessage(JSON.parse(e.data));
      } catch (error) {
        console.error('bad message', error);
      }
    };
    ws.onclose = (e) => {
      if (destroyed) return;
      // An older page than the server's protocol: reload once to fetch the current one.
      if (e.code === CLOSE_CODES.OUTDATED_CLIENT && reloadOnce()) return;
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
  raceReady.then(() => !destroyed && matchOver(state) && render());
  return {
    relang() {
      render();
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      clearTimeout(summaryTimer);
      ring.destroy();
      bubbles.clear();
      if (ws) ws.close(1000);
      document.body.classList.remove('at-table', 'table-live');
    },
  };
}
