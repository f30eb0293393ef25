// The card table: one socket → the store (table/store.js, a pure reducer) → small components that
// render from it (table/*.js). This module only wires them and does the I/O: socket, timers, focus.
// One table for every game and seat count: the seats around the felt (table/ring.js, me at the
// bottom — for two the other on top), the stock, the auction, the talon or the trick in the middle.
import { api } from '../api.js';
import { cardBack, cardName } from '../cards.js';
import { h, setAttr, setChildren, setText } from '../dom.js';
import { patchChildren } from '../table/patch.js';
import { REFUSAL_CODES } from '../generated/protocol.js';
import { t, tn } from '../i18n.js';
import { gameInfo, gameName, gameOf, seatCount } from '../games.js';
import { clearPlayer, getPlayer, nextMessageId } from '../session.js';
import { RoomSocket } from '../socket.js';
import { fitWaiting } from '../fit.js';
import { apiErrorText, botName, inviteBox, loading, nameForm, toast } from '../ui.js';
import { declareDialog, resignDialog } from '../table/dialogs.js';
import { createHand } from '../table/hand.js';
import { createMatchPanel } from '../table/match.js';
import { cardShort, nobodyToChat, plainName, suitWord } from '../table/names.js';
import { createAuction } from '../table/auction.js';
import { createDiscard } from '../table/discard.js';
import { BANNER_MS, createRing } from '../table/ring.js';
import { createSheet } from '../table/sheet.js';
import { createBubbles, createChatMute, createReactionPicker } from '../table/reactions.js';
import { createHint, hintCards, hintOffered } from '../table/hint.js';
import { auctionTurn, bidAmount, canDeclare, canSubmitDiscard, connectionPill, dealOf, discardTurn, initialState, isBlocking, matchOver, mySeat, myTurn, reduce, roomOf, viewOf } from '../table/store.js';
import { createSummary, SUMMARY_MS } from '../table/summary.js';
import { motionOn } from '../table/motion.js';
import { createStatus } from '../table/status.js';

const REJECT_CODES = new Set(REFUSAL_CODES); // generated from the server's own enums
const PENDING_TIMEOUT_MS = 10000;
const SENDING_MS = 400; // a move unanswered this long says "sending…" (issue 22)
const OPEN_POLL_MS = 3000;
const ILLEGAL_MS = 2600;
const WIDE = '(min-width: 1100px) and (min-height: 600px)';

// Sounds and the race chart are shared modules (helper E); the table works without them.
const silent = { cue() {}, isMuted: () => true, setMuted() {} };
let feedbackModule = null;
let raceModule = null;
const feedbackReady = import('../feedback.js').then((m) => (feedbackModule = m)).catch(() => null);
const raceReady = import('../components/race-chart.js').then((m) => (raceModule = m)).catch(() => null);
const feedback = () => feedbackModule || silent;

export function mount(root, roomId) {
  const me = getPlayer();
  window.scrollTo(0, 0); // the lobby's scroll position must not carry over
  if (!me) {
    root.append(
      h('section', { class: 'hero compact' }, h('h1', { text: t('table.title') }), h('p', { class: 'lead', text: t('table.need_name') })),
      nameForm(() => {
        location.hash = '#/';
      }),
    );
    return null;
  }

  let state = initialState({ myId: me.id });
  let destroyed = false;
  let inviteCode = null;
  let openPoll = null;
  let dialog = null;
  let summaryTimer = null;
  let arrived = false;
  const timers = new Set();
  const wide = window.matchMedia(WIDE);
  state = reduce(state, { type: 'local/sheet', open: wide.matches, tab: 'chat' });

  // ------------------------------------------------------------------ components
  const hand = createHand({ onPlay, onIllegal, onToggle: (card) => dispatch({ type: 'local/discard_toggle', card }) });
  const auction = createAuction({
    onStep: (step) => dispatch({ type: 'local/bid', step }),
    onBid: () => {
      const amount = bidAmount(state);
      if (auctionTurn(state) && amount !== null) sendIntent({ type: 'bid', amount });
    },
    onPass: () => auctionTurn(state) && sendIntent({ type: 'pass' }),
  });
  const discard = createDiscard({ onDiscard: () => canSubmitDiscard(state) && sendIntent({ type: 'discard', cards: [...state.discard] }) });
  const ring = createRing({ auction, discard, sweepFinal: true });
  const status = createStatus();
  const summary = createSummary({ onClose: () => dispatch({ type: 'local/summary_close' }) });
  const matchPanel = createMatchPanel({ sendRematch: (action) => sendIntent({ type: 'rematch', action }), raceChart: () => raceModule && raceModule.raceChart });
  // Spectators: how many watch (a `watchers` message) and, at a private table, the watch link.
  const watch = { count: 0 };
  watch.chip = h('span', { class: 'bar-chip', 'data-testid': 'watchers', hidden: true });
  watch.button = h('button', { type: 'button', class: 'btn', 'data-testid': 'watch-link', onclick: copyWatchLink });
  watch.note = h('p', { class: 'muted small', 'data-testid': 'watch-note' });
  watch.allow = h('input', { type: 'checkbox', role: 'switch', id: 'allow-watching', 'data-testid': 'allow-watching' });
  watch.allow.addEventListener('change', async () => {
    const allowed = watch.allow.checked;
    watch.allow.disabled = true;
    try {
      await api.allowWatching(roomId, allowed); // the new room arrives as a `state`
    } catch (err) {
      watch.allow.checked = !allowed;
      toast(apiErrorText(err), 'rejected-message');
    } finally {
      watch.allow.disabled = false;
    }
  });
  watch.allowText = h('span', { class: 'switch-text' });
  // Whether the spectators see the players' quick reactions too (issue 27; off unless a player allows it).
  watch.reactions = h('input', { type: 'checkbox', role: 'switch', id: 'allow-reactions-watch', 'data-testid': 'allow-reactions-watch' });
  watch.reactions.addEventListener('change', async () => {
    const allowed = watch.reactions.checked;
    watch.reactions.disabled = true;
    try {
      await api.allowReactionsWatch(roomId, allowed); // the new room arrives as a `state`
    } catch (err) {
      watch.reactions.checked = !allowed;
      toast(apiErrorText(err), 'rejected-message');
    } finally {
      watch.reactions.disabled = false;
      renderBar();
    }
  });
  watch.reactionsText = h('span', { class: 'switch-text' });
  watch.reactionsRow = h('label', { class: 'switch-row', for: 'allow-reactions-watch' }, watch.reactions, watch.reactionsText);
  watch.box = h('div', { class: 'watch-box' }, h('label', { class: 'switch-row', for: 'allow-watching' }, watch.allow, watch.allowText), watch.reactionsRow, watch.button, watch.note);
  // Quick reactions (issue 27): not blocking, like chat; the answer is the echo (or a refusal).
  const picker = createReactionPicker({
    onReact: (reaction) => sendIntent({ type: 'react', reaction }, { blocking: false }),
    onMute: (muted) => sendIntent({ type: 'mute_reactions', muted }, { blocking: false }),
  });
  const chatMute = createChatMute(roomId);
  // Hints (issue 26): not blocking, like chat; answered by a `hint` message (or a refusal).
  const hint = createHint({ onAsk: askHint });
  const sheet = createSheet({ dispatch, sendChat: (text) => sendIntent({ type: 'chat', text }, { blocking: false }), feedback, extra: watch.box, onTapToRaise: () => hand.lower() });

  const el = {};
  el.h1 = h('h1', { class: 'visually-hidden', id: 'table-h1', tabindex: '-1' });
  el.lobby = h('a', { class: 'bar-btn', href: '#/', 'data-testid': 'table-to-lobby' });
  el.resign = h('button', { type: 'button', class: 'bar-btn danger-text', 'data-testid': 'resign', onclick: openResign });
  el.unread = h('span', { class: 'unread-dot', 'data-testid': 'chat-unread', hidden: true });
  el.toggle = h('button', { type: 'button', class: 'bar-btn sheet-toggle', 'data-testid': 'sheet-toggle', 'aria-controls': 'table-sheet', onclick: toggleSheet });
  el.dealChip = h('span', { class: 'bar-chip', 'data-testid': 'deal-chip' });
  el.connPill = h('span', { class: 'conn-pill', 'data-testid': 'connection-pill', role: 'status', hidden: true });
  el.bar = h('div', { class: 'table-bar' }, el.lobby, el.dealChip, el.connPill, watch.chip, h('span', { class: 'bar-space' }), hint.button, picker.button, picker.mute, chatMute.el, el.resign, el.toggle);
  el.feltMessage = h('div', { class: 'felt-message' });
  el.felt = h(
    'section',
    { class: 'felt', 'data-testid': 'felt', 'aria-labelledby': 'table-h1' },
    ring.el,
    status.el,
    hint.box,
    ring.me,
    hand.el,
    el.feltMessage,
    summary.el,
    matchPanel.el,
  );
  const bubbles = createBubbles(el.felt);
  el.felt.append(bubbles.el);
  el.overlay = h('div', { class: 'reconnecting-overlay', 'data-testid': 'reconnecting-overlay', role: 'alert', hidden: true });
  el.errorSlot = h('div', { class: 'error-slot' });
  el.main = h('div', { class: 'table-main' }, el.bar, el.felt);
  el.scrim = h('div', { class: 'sheet-scrim', 'aria-hidden': 'true', onclick: () => dispatch({ type: 'local/sheet', open: false }) });
  el.page = h('div', { class: 'table-page', 'data-testid': 'table-page', 'data-room': roomId }, el.h1, el.errorSlot, el.main, el.scrim, sheet.el, el.overlay);
  root.append(el.page);
  document.body.classList.add('at-table');

  // ------------------------------------------------------------------ socket
  const socket = new RoomSocket(roomId, {
    onMessage(m) {
      if (!m || typeof m !== 'object') return;
      if (m.type === 'hint') {
        if (hint.got(m)) renderHint();
        return;
      }
      if (m.type === 'rejected' && hint.refused(m)) {
        if (m.code !== 'stale_version') onRejected(m); // stale: I have moved on already
        renderHint();
        return;
      }
      if (m.type === 'rejected') onRejected(m);
      if (m.type === 'reaction') {
        onReaction(m);
        return;
      }
      if (m.type === 'chat') onChatLine(m);
      if (m.type === 'watchers') {
        watch.count = Number(m.count) || 0;
        renderBar();
        return;
      }
      if (m.type === 'state' && m.room && m.room.status === 'open') startOpenPoll();
      else if (m.type === 'state') stopOpenPoll();
      dispatch(m);
    },
    onStatus(status, detail) {
      dispatch({ type: 'local/conn', status, detail });
    },
    onHealth(health) {
      dispatch({ type: 'local/health', health });
    },
  });

  // ------------------------------------------------------------------ the loop
  function dispatch(action) {
    if (destroyed) return;
    const before = state;
    state = reduce(state, action);
    if (state === before && action.type !== 'state') return;
    if (action.type === 'local/pending_slow' || action.type === 'local/health') {
      renderPill(); // they change the pill and the note on the card sent, nothing else
      return;
    }
    render(action.type === 'state' ? action.events || [] : []);
    afterChange(before, action);
  }

  function later(fn, ms) {
    const id = setTimeout(() => {
      timers.delete(id);
      fn();
    }, ms);
    timers.add(id);
    return id;
  }

  function afterChange(before, action) {
    // the sounds after the frame that shows what they go with (issue 42: a tone's Web Audio set-up
    // in the tap's task held the card back from the screen on a slow phone)
    if (state.effects.length) {
      const names = state.effects;
      requestAnimationFrame(() => !destroyed && later(() => names.forEach((name) => feedback().cue(name)), 0));
    }
    if (state.putBack && state.putBack !== before.putBack) toast(putBackText(state.putBack), 'rejected-message');
    for (const b of state.banners) if (!before.banners.some((x) => x.id === b.id)) later(() => dispatch({ type: 'local/banner_done', id: b.id }), BANNER_MS);
    if (state.illegal && state.illegal !== before.illegal) {
      const seq = state.illegal.seq;
      later(() => dispatch({ type: 'local/illegal_done', seq }), ILLEGAL_MS);
    }
    // The summary: opened → timer and focus; closed → the hand gets focus back.
    const wasOpen = Boolean(before.summary && before.summary.open && before.held);
    const isOpen = Boolean(state.summary && state.summary.open && state.held);
    if (isOpen && !wasOpen) {
      clearTimeout(summaryTimer);
      summaryTimer = later(() => dispatch({ type: 'local/summary_close' }), SUMMARY_MS);
      if (focusInTable()) summary.focus();
    } else if (wasOpen && !isOpen) {
      clearTimeout(summaryTimer);
      if (focusInTable() && !dialog) hand.focus();
    }
    // A card of mine was played (the answer to my intent): focus returns to the hand.
    if (action.type === 'state' && action.reply_to !== null && action.reply_to !== undefined && !isOpen && !matchOver(state) && focusInTable() && !dialog) hand.focus();
    // n seats: my call in the auction comes round, or the talon is mine to discard from.
    if (action.type === 'state' && !isOpen && focusInTable() && !dialog) {
      if (auctionTurn(state) && !auctionTurn(before)) auction.focus();
      else if (discardTurn(state) && !discardTurn(before)) hand.focus();
    }
    if (action.type === 'local/discard_toggle' && state.discard.length === 2 && focusInTable() && !dialog) discard.focus();
    if (action.type === 'state' && !arrived && viewOf(state)) {
      arrived = true;
      if (!matchOver(state) && !isOpen) {
        if (auctionTurn(state)) auction.focus();
        else hand.focus();
      }
    }
    if (before.sheet.open !== state.sheet.open && !wide.matches) {
      if (state.sheet.open) sheet.focusFirst(state);
      else el.toggle.focus({ preventScroll: true });
    }
  }

  /** Focus is ours to move: on the page itself, in the hand or on something that went away. */
  function focusInTable() {
    const a = document.activeElement;
    if (!a || a === document.body || !a.isConnected) return true;
    if (a.closest('.chat-form') || a.closest('.backdrop')) return false;
    return el.page.contains(a) || a.id === 'main';
  }

  // ------------------------------------------------------------------ intents
  function sendIntent(body, { blocking = true } = {}) {
    if (blocking && (state.pending || state.awaitingState)) return false;
    const { type, ...rest } = body;
    const id = nextMessageId(roomId);
    if (!socket.send({ type, id, version: state.version, ...rest })) {
      toast(t('table.not_connected'), 'rejected-message');
      return false;
    }
    if (blocking) {
      // a play is drawn in the trick in this same task (issue 42): the answer confirms it, a refusal,
      // a lost socket or PENDING_TIMEOUT_MS without an answer puts it back (store.js)
      dispatch({ type: 'local/sent', id, kind: type, card: type === 'play' ? body.card : null, blocking: true, optimistic: type === 'play' });
      later(() => dispatch({ type: 'local/pending_slow', id }), SENDING_MS);
      later(() => dispatch({ type: 'local/pending_timeout', id }), PENDING_TIMEOUT_MS);
    }
    return true;
  }

  /** Ask for a hint at my turn; the answer comes as a `hint` message for this version. */
  function askHint() {
    if (!hintOffered(state) || isBlocking(state)) return;
    const id = nextMessageId(roomId);
    if (!socket.send({ type: 'hint', id, version: state.version })) {
      toast(t('table.not_connected'), 'rejected-message');
      return;
    }
    hint.asking(id, state.version);
    renderHint();
  }

  /** The hint under the turn line, and its card (or two discards) marked in my hand. */
  function renderHint() {
    hint.render(state);
    const cards = new Set(hintCards(hint.shownFor(state)));
    for (const b of el.page.querySelectorAll('.hand .card')) {
      const on = cards.has(b.dataset.card);
      if (b.classList.contains('hinted') !== on) b.classList.toggle('hinted', on);
      if (on) setAttr(b, 'aria-describedby', 'hint-box');
      else if (b.getAttribute('aria-describedby') === 'hint-box') b.removeAttribute('aria-describedby');
    }
  }

  function onPlay(code, move) {
    if (!myTurn(state) || isBlocking(state)) return;
    if (canDeclare(move)) {
      dialog = declareDialog({
        code,
        points: move.declare,
        returnFocus: () => el.page.querySelector(`[data-card="${code}"]`) || el.page.querySelector('.hand button.card'),
        onChoose: (declare) => sendIntent({ type: 'play', card: code, declare }),
      });
      const close = dialog.close;
      dialog.close = () => {
        close();
        dialog = null;
      };
      watchDialog();
      return;
    }
    sendIntent({ type: 'play', card: code, declare: false });
  }

  function onIllegal(code) {
    dispatch({ type: 'local/illegal', card: code });
  }

  /** A reaction by a seat (my own comes back as the answer): a bubble by it, unless I muted them. */
  function onReaction(m) {
    const mine = m.reply_to !== null && m.reply_to !== undefined;
    if (!mine && state.msg && state.msg.reactions_muted) return; // one already on its way when I muted
    if (!Number.isInteger(m.seat)) return;
    bubbles.show(m.seat, m.reaction, plainName(state, m.seat));
  }

  /** A chat line from another seat: its first words by the sender's seat, unless the chat is muted here. */
  function onChatLine(m) {
    if (!Number.isInteger(m.seat) || m.seat === mySeat(state) || chatMute.isMuted()) return;
    bubbles.showChat(m.seat, m.text, plainName(state, m.seat));
  }

  function onRejected(m) {
    // a card played at once and refused: its toast says it is back, and why (afterChange)
    if (state.pending && state.pending.optimistic && (m.id === state.pending.id || m.id === null)) return;
    if (m.code === 'stale_version') toast(t('reject.stale_version'), 'rejected-message');
    else toast(REJECT_CODES.has(m.code) ? rejectText(m.code) : t('reject.unknown'), 'rejected-message');
  }

  /** Why a card drawn in the trick before the server's answer is back in the hand (issue 42). */
  function putBackText(back) {
    const card = cardName(back.card);
    if (back.reason === 'lost') return t('card.back_lost', { card });
    if (back.reason === 'timeout') return t('card.back_timeout', { card });
    const reason = back.code === 'stale_version' ? t('reject.stale_version') : REJECT_CODES.has(back.code) ? rejectText(back.code) : t('reject.unknown');
    return t('card.back', { card, reason });
  }

  function rejectText(code) {
    const d = dealOf(state);
    const lead = d && d.trick && d.trick.cards && d.trick.cards[0];
    return t(`reject.${code}`, { suit: lead ? suitWord(lead[1]) : '', card: lead ? cardShort(lead) : '', trump: d && d.trump ? suitWord(d.trump) : '' });
  }

  function openResign() {
    dialog = resignDialog({ s: state, returnFocus: () => el.resign, onConfirm: () => sendIntent({ type: 'resign' }) });
    watchDialog();
  }

  /** Our dialogs close through ui.modal (Escape, backdrop, buttons): forget them once gone. */
  function watchDialog() {
    const check = () => {
      if (!dialog) return;
      if (!document.querySelector('.backdrop')) dialog = null;
      else later(check, 300);
    };
    later(check, 300);
  }

  function toggleSheet() {
    const open = !state.sheet.open;
    dispatch({ type: 'local/sheet', open, tab: open && state.unread > 0 ? 'chat' : undefined });
  }

  function onKey(event) {
    if (event.key !== 'Escape' || document.querySelector('.backdrop')) return;
    if (state.sheet.open && !wide.matches) dispatch({ type: 'local/sheet', open: false });
    else if (state.held) dispatch({ type: 'local/summary_close' });
  }
  document.addEventListener('keydown', onKey);
  const onWide = () => {
    dispatch({ type: 'local/sheet', open: wide.matches });
    hand.place();
  };
  wide.addEventListener('change', onWide);
  const onResize = () => hand.place();
  window.addEventListener('resize', onResize);

  // ------------------------------------------------------------------ rendering
  // The whole page drawn, then its names fitted in the same task (fit.js), laid out once for all.
  function render(events = []) {
    draw(events);
    fitWaiting();
  }

  function draw(events) {
    if (destroyed) return;
    renderConnection();
    renderBar();
    setAttr(el.page, 'data-version', state.version);
    if (state.fatal || state.conn === 'replaced') {
      renderFatal();
      return;
    }
    // only what changes is written (issue 42): an unchanged attribute written again still restyles
    if (el.main.hidden) el.main.hidden = false;
    if (sheet.el.hidden) sheet.el.hidden = false;
    if (el.errorSlot.firstChild) el.errorSlot.replaceChildren();
    const room = roomOf(state);
    setAttr(el.page, 'data-status', room ? room.status : 'connecting');
    if (!room || (room.status !== 'playing' && room.status !== 'finished')) document.body.classList.remove('table-live');
    setAttr(el.page, 'data-held', String(state.held));
    setAttr(el.page, 'data-sheet', state.sheet.open ? 'open' : 'closed');
    const inert = state.sheet.open && !wide.matches; // the drawer over the table on phones
    if (el.main.inert !== inert) el.main.inert = inert;
    sheet.render(state);
    if (!room) {
      el.felt.dataset.mode = 'loading';
      setChildren(el.feltMessage, loading());
      return;
    }
    if (room.status === 'open' || !viewOf(state)) {
      el.felt.dataset.mode = 'waiting';
      renderWaiting(room);
      return;
    }
    setAttr(el.felt, 'data-mode', 'playing');
    // the table keeps the whole screen at the end of a match too (issue 22): its bar leads to the lobby
    if (!document.body.classList.contains('table-live')) document.body.classList.add('table-live');
    if (el.feltMessage.firstChild) el.feltMessage.replaceChildren();
    // where my cards are, read before this render writes anything (issue 42: one layout, not one per
    // component): a card played leaves from there, the others slide from there
    const before = motionOn() ? hand.rects() : null;
    ring.render(state, { events, origin: before ? (code) => before.get(code) || null : null });
    status.render(state);
    hand.render(state, { events, origin: ring.dealOrigin, before });
    renderPill(); // after the hand: the card sent may have been drawn anew
    renderHint(); // after the hand too: it marks the hinted card
    summary.render(state);
    if (matchPanel.render(state) && focusInTable()) matchPanel.focus();
    const title = myTurn(state) ? `● ${t('table.your_turn')} — ${t('app.title')}` : t('app.title');
    if (document.title !== title) document.title = title;
  }

  function renderWatch(room) {
    const hide = (node, hidden) => node.hidden !== hidden && (node.hidden = hidden);
    hide(watch.chip, !(watch.count > 0));
    setText(watch.chip, tn('watch.watchers', watch.count));
    setAttr(watch.chip, 'data-count', watch.count);
    const allowed = Boolean(room && room.options && room.options.spectators !== false);
    hide(watch.button, !(allowed && room.visibility === 'private' && room.status !== 'closed'));
    setText(watch.button, t('watch.link'));
    hide(watch.note, allowed);
    setText(watch.note, t('watch.off'));
    if (!watch.allow.disabled) watch.allow.checked = allowed;
    // Every table may be watched, computer seats or not (friends may watch one person play the computer).
    hide(watch.box, !room || room.status === 'closed');
    setText(watch.allowText, t('watch.allow'));
    hide(watch.reactionsRow, !allowed || nobodyToChat(state));
    if (!watch.reactions.disabled) watch.reactions.checked = Boolean(room && room.options && room.options.reactions_for_spectators);
    setText(watch.reactionsText, t('watch.allow_reactions'));
  }

  async function copyWatchLink() {
    try {
      const link = await api.watchLink(roomId);
      const url = `${location.origin}${location.pathname}#/watch/${encodeURIComponent(link.room_id)}/${encodeURIComponent(link.code)}`;
      watch.button.dataset.url = url;
      if (navigator.share && matchMedia('(pointer: coarse)').matches) await navigator.share({ url }).catch(() => null);
      else if (navigator.clipboard) await navigator.clipboard.writeText(url).catch(() => null);
      toast(t('watch.link_copied'));
    } catch (err) {
      toast(t('watch.link_failed'), 'rejected-message');
    }
  }

  function renderBar() {
    const room = roomOf(state);
    renderWatch(room);
    const v = viewOf(state);
    setText(el.h1, room && room.players && room.players.some((p, seat) => p && seat > 0) ? t('ring.h1', { names: room.players.map((p, seat) => plainName(state, seat)).join(', ') }) : t('table.title'));
    // the bar's buttons kept and patched (issue 42): a state that changes none of their words writes nothing
    patchChildren(el.lobby, [h('span', { 'aria-hidden': 'true', text: '←' }), h('span', { class: 'bar-label', text: t('common.back_to_lobby') })]);
    setAttr(el.lobby, 'title', t('common.back_to_lobby'));
    const canResign = room && room.status === 'playing' && !matchOver(state) && v;
    picker.render({ available: Boolean(v && room.status !== 'closed' && !nobodyToChat(state)), muted: Boolean(state.msg && state.msg.reactions_muted) });
    chatMute.render({ available: Boolean(v && room.status !== 'closed' && !nobodyToChat(state)) });
    hint.render(state);
    if (el.resign.hidden !== !canResign) el.resign.hidden = !canResign;
    patchChildren(el.resign, [h('span', { 'aria-hidden': 'true', class: 'flag', text: '⚑' }), h('span', { class: 'bar-label', text: t('resign.button') })]);
    setAttr(el.resign, 'title', t('resign.button'));
    const unread = !(state.unread > 0) || nobodyToChat(state);
    if (el.unread.hidden !== unread) el.unread.hidden = unread;
    setAttr(el.unread, 'aria-label', t('table.unread'));
    setAttr(el.unread, 'role', 'img');
    // At a table without people the drawer has no chat, and its button says so (issue 43).
    const toggleText = t(nobodyToChat(state) ? 'table.sheet_toggle_solo' : 'table.sheet_toggle');
    if (!el.toggle.firstChild) el.toggle.append(h('span', { 'aria-hidden': 'true', class: 'burger', text: '☰' }), h('span', { class: 'bar-label' }), el.unread);
    setText(el.toggle.querySelector('.bar-label'), toggleText);
    setAttr(el.toggle, 'aria-expanded', String(state.sheet.open));
    setAttr(el.toggle, 'title', toggleText);
    if (el.dealChip.hidden !== !v) el.dealChip.hidden = !v;
    // Two unbreakable parts: on a crowded phone bar it wraps as "Deal 1 ·" / "Target 301", never inside them.
    patchChildren(el.dealChip, v ? [h('span', { text: `${t('table.deal_number', { n: v.deal_number + 1 })} ·` }), ' ', h('span', { text: t('table.target', { n: v.target }) })] : []);
  }

  /** The pill on the bar (sending…, connection slow, reconnecting) and "sending…" on the card played. */
  function renderPill() {
    const pill = connectionPill(state);
    if (el.connPill.hidden !== !pill) el.connPill.hidden = !pill;
    setAttr(el.connPill, 'data-state', pill || 'ok');
    setText(el.connPill, pill ? t(`conn.${pill}`) : '');
    const card = state.pending && state.pending.slow && state.pending.card;
    for (const b of el.page.querySelectorAll('.hand .card.sending, .trick-card.sending')) {
      if (b.dataset.card === card) continue;
      b.classList.remove('sending');
      b.querySelector('.sending-note')?.remove();
    }
    // the card sent: in the hand, or already in the trick (drawn there at once, issue 42)
    const b = card ? el.page.querySelector(`.hand button.card[data-card="${card}"]`) || (state.pending.optimistic ? el.page.querySelector(`[data-testid="current-trick"] .trick-card[data-card="${card}"]`) : null) : null;
    if (b && !b.classList.contains('sending')) {
      b.classList.add('sending');
      b.append(h('span', { class: 'sending-note', 'data-testid': 'sending', text: t('conn.sending') }));
    }
  }

  function renderConnection() {
    renderPill();
    const show = state.conn === 'reconnecting';
    if (el.overlay.hidden !== !show) el.overlay.hidden = !show;
    setAttr(el.page, 'data-connection', state.conn);
    if (show && !el.overlay.childElementCount) {
      setChildren(
        el.overlay,
        h(
          'div',
          { class: 'overlay-box' },
          h('div', { class: 'spinner', 'aria-hidden': 'true' }),
          h('p', { text: t('table.reconnecting') }),
          h('button', { type: 'button', class: 'btn', 'data-testid': 'reconnect-now', text: t('table.reconnect_now'), onclick: () => socket.reconnectNow() }),
        ),
      );
    } else if (!show && el.overlay.firstChild) el.overlay.replaceChildren();
  }

  function renderFatal() {
    el.page.dataset.status = 'error';
    document.body.classList.remove('table-live');
    const reason = state.conn === 'replaced' ? 'replaced' : state.fatal;
    const actions = [h('a', { class: 'btn', href: '#/', text: t('common.back_to_lobby') })];
    if (reason === 'replaced') {
      actions.unshift(
        h('button', {
          type: 'button',
          class: 'btn primary',
          'data-testid': 'use-here',
          text: t('table.use_here'),
          onclick: () => {
            dispatch({ type: 'local/conn', status: 'connecting' });
            socket.reconnectNow();
          },
        }),
      );
    }
    if (reason === 'unauthorized') {
      actions.unshift(
        h('button', {
          type: 'button',
          class: 'btn primary',
          text: t('table.choose_name_again'),
          onclick: () => {
            clearPlayer();
            location.hash = '#/';
          },
        }),
      );
    }
    el.main.hidden = true;
    sheet.el.hidden = true;
    setChildren(
      el.errorSlot,
      h(
        'section',
        { class: 'card-panel table-error', 'data-testid': 'table-error', role: 'alert' },
        h('h2', { text: t('table.error_title') }),
        h('p', { text: t(`table.error.${reason}`) }),
        h('div', { class: 'row-actions' }, actions),
      ),
    );
  }

  function renderWaiting(room) {
    const box = h('div', { class: 'invite-slot' }, loading());
    const cancel = h('button', {
      type: 'button',
      class: 'btn ghost',
      'data-testid': 'leave-table',
      text: t('lobby.cancel_table'),
      onclick: async () => {
        cancel.disabled = true;
        try {
          await api.leaveRoom(roomId);
          location.hash = '#/';
        } catch (err) {
          toast(apiErrorText(err));
          cancel.disabled = false;
        }
      },
    });
    setChildren(
      el.feltMessage,
      h(
        'div',
        { class: 'waiting-panel', 'data-testid': 'waiting-panel' },
        h('div', { class: 'waiting-cards', 'aria-hidden': 'true' }, cardBack({ className: 'small' }), cardBack({ className: 'small' }), cardBack({ className: 'small' })),
        ...waitingText(room),
        box,
        computersForm(room),
        cancel,
      ),
    );
    if (!inviteCode && room.invite_code) inviteCode = room.invite_code;
    const fill = () => inviteCode && setChildren(box, inviteBox(inviteCode));
    if (inviteCode) fill();
    else
      api
        .room(roomId)
        .then((full) => {
          inviteCode = full && full.invite_code;
          if (inviteCode) fill();
          else box.replaceChildren();
        })
        .catch(() => box.replaceChildren());
  }

  /**
   * The creator of a table for nothing may stop waiting: the computer takes every empty seat (at
   * the chosen level) and the match starts. Nobody else sees it; a staked table has no such choice.
   */
  function computersForm(room) {
    const mine = room.players && room.players[0] && room.players[0].id === me.id;
    if (!mine || Number(room.options.stake_per_point) !== 0) return null;
    const level = h(
      'select',
      { 'data-testid': 'fill-level', 'aria-label': t('table.fill_level') },
      gameInfo(gameOf(room.options)).levels.map((value) => h('option', { value, text: botName(value), selected: value === 'medium' })),
    );
    const button = h('button', {
      type: 'button',
      class: 'btn',
      'data-testid': 'fill-computers',
      text: t('table.fill_computers'),
      onclick: async () => {
        button.disabled = true;
        try {
          await api.seatComputers(roomId, level.value); // the match starts: the socket brings the state
        } catch (err) {
          toast(apiErrorText(err));
          button.disabled = false;
        }
      },
    });
    return h('div', { class: 'fill-computers row-actions' }, level, button);
  }

  /** Who the table waits for: the seats still free, and how to invite them. */
  function waitingText(room) {
    const n = seatCount(room.options, room.players);
    const taken = (room.players || []).filter(Boolean).length;
    return [
      h('h2', { text: tn('ring.waiting', n - taken) }),
      h('p', { class: 'seats-taken', 'data-testid': 'seats-taken', 'data-taken': String(taken), 'data-seats': String(n), text: t('lobby.game_seats', { game: gameName(room.options), taken, seats: n }) }),
      h('p', { text: room.visibility === 'public' ? t('ring.waiting_public') : t('ring.waiting_private') }),
    ];
  }

  function startOpenPoll() {
    if (openPoll) return;
    openPoll = setInterval(async () => {
      try {
        const full = await api.room(roomId);
        const room = roomOf(state);
        if (full && full.status !== 'open' && room && room.status === 'open') socket.reconnectNow();
      } catch {
        /* keep waiting */
      }
    }, OPEN_POLL_MS);
  }

  function stopOpenPoll() {
    clearInterval(openPoll);
    openPoll = null;
  }

  const graceTicker = setInterval(() => ring.tick(state), 1000);
  feedbackReady.then(() => !destroyed && render());
  raceReady.then(() => !destroyed && matchOver(state) && render());

  render();
  socket.start(); // last: its status callback uses the helpers defined above
  return {
    relang() {
      render();
    },
    destroy() {
      destroyed = true;
      clearInterval(graceTicker);
      for (const id of timers) clearTimeout(id);
      socket.stop();
      stopOpenPoll();
      hand.destroy();
      ring.destroy();
      picker.destroy();
      bubbles.clear();
      document.removeEventListener('keydown', onKey);
      wide.removeEventListener('change', onWide);
      window.removeEventListener('resize', onResize);
      document.body.classList.remove('at-table', 'table-live');
      if (dialog) dialog.close();
      document.title = t('app.title');
    },
  };
}
