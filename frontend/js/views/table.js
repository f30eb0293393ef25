// The card table: one socket, full per-seat views from the server, intents back.
import { api } from '../api.js';
import { cardBack, cardEl, cardName, sortHand, suitBadge, suitName, suitOf, SUIT_SYMBOL } from '../cards.js';
import { h, prefersReducedMotion, setChildren, svg } from '../dom.js';
import { REFUSAL_CODES } from '../generated/protocol.js';
import { t, tn } from '../i18n.js';
import { clearPlayer, getPlayer, nextMessageId } from '../session.js';
import { RoomSocket } from '../socket.js';
import { apiErrorText, durationText, inviteBox, isZeroAmount, loading, modal, money, nameForm, optionsSummary, playerName, toast } from '../ui.js';

const REJECT_CODES = new Set(REFUSAL_CODES); // generated from the server's own enums
const PENDING_TIMEOUT_MS = 10000;
const CHAT_MAX = 200;
const OPEN_POLL_MS = 3000;

export function mount(root, roomId) {
  const me = getPlayer();
  if (!me) {
    root.append(
      h('section', { class: 'hero compact' }, h('h1', { text: t('table.title') }), h('p', { class: 'lead', text: t('table.need_name') })),
      nameForm(() => {
        location.hash = '#/';
      }),
    );
    return null;
  }

  // ------------------------------------------------------------------ state
  let msg = null; // the last `state` message
  let version = 0;
  let pending = null; // {id, kind, timer}
  let awaitingState = false; // after stale_version: wait for the state that follows
  let connStatus = 'connecting';
  let fatal = null;
  let prevHand = null;
  let prevDealNumber = null;
  let inviteCode = null;
  let openPoll = null;
  let summary = null; // {event, declarations}: the last deal that ended
  let summaryOpen = false; // its panel stays beside the cards until the player plays on or closes it
  let declareDialog = null;
  let resignDialog = null;
  let stakeFallback = null;
  const chatLines = [];
  let destroyed = false;

  // ------------------------------------------------------------------ skeleton
  const el = {};
  el.oppInfo = h('div', { class: 'seat-info opp', 'data-testid': 'opponent-info' });
  el.oppHand = h('div', { class: 'opp-hand', 'data-testid': 'opponent-hand' });
  el.stock = h('div', { class: 'stock-area', 'data-testid': 'stock' });
  el.trickLayer = h('div', { class: 'trick-layer', 'data-testid': 'current-trick' });
  el.ghostLayer = h('div', { class: 'ghost-layer', 'aria-hidden': 'true' });
  el.trick = h('div', { class: 'trick-area', 'data-testid': 'trick', role: 'region' }, el.ghostLayer, el.trickLayer);
  el.lastTrick = h('div', { class: 'last-trick', 'data-testid': 'last-trick' });
  el.status = h('div', { class: 'turn-line', 'data-testid': 'turn-indicator', 'aria-live': 'polite' });
  el.meInfo = h('div', { class: 'seat-info me', 'data-testid': 'my-info' });
  el.hand = h('div', { class: 'hand', 'data-testid': 'hand', role: 'group' });
  el.centre = h('div', { class: 'felt-centre' }, el.stock, el.trick, el.lastTrick);
  el.feltMessage = h('div', { class: 'felt-message' });
  el.matchPanel = h('div', { class: 'match-panel-slot' });
  el.summary = h('div', { class: 'deal-summary-slot' }); // on the felt (phones, tablets)
  el.summarySide = h('div', { class: 'deal-summary-slot side' }); // beside it (wide screens)
  el.felt = h(
    'section',
    { class: 'felt', 'data-testid': 'felt' },
    h('div', { class: 'felt-top' }, el.oppInfo, el.oppHand),
    el.centre,
    el.feltMessage,
    el.status,
    h('div', { class: 'felt-bottom' }, el.meInfo, el.hand),
    el.summary,
    el.matchPanel,
  );
  el.score = h('section', { class: 'side-panel scoreboard', 'data-testid': 'scoreboard' });
  el.info = h('section', { class: 'side-panel deal-info', 'data-testid': 'deal-info' });
  el.actions = h('div', { class: 'side-actions' });
  el.sheet = h('section', { class: 'side-panel score-sheet', 'data-testid': 'score-sheet' });
  el.chatLog = h('ul', { class: 'chat-log', 'data-testid': 'chat-log', 'aria-live': 'polite' });
  el.chatInput = h('input', { type: 'text', maxlength: CHAT_MAX, 'data-testid': 'chat-input', autocomplete: 'off' });
  el.chatCount = h('span', { class: 'chat-count', 'aria-hidden': 'true' });
  el.chatSend = h('button', { type: 'submit', class: 'btn', 'data-testid': 'chat-send' });
  el.chatTitle = h('h2', { id: 'chat-h' });
  el.chatForm = h('form', { class: 'chat-form' }, el.chatInput, el.chatSend);
  el.chat = h('section', { class: 'side-panel chat', 'data-testid': 'chat', 'aria-labelledby': 'chat-h' }, el.chatTitle, el.chatLog, el.chatForm, el.chatCount);
  el.side = h('aside', { class: 'table-side' }, el.summarySide, el.score, el.info, el.actions, el.chat, el.sheet);
  el.overlay = h('div', { class: 'reconnecting-overlay', 'data-testid': 'reconnecting-overlay', role: 'alert', hidden: true });
  el.errorSlot = h('div', { class: 'error-slot' });
  el.page = h('div', { class: 'table-page', 'data-testid': 'table-page', 'data-room': roomId }, el.errorSlot, el.felt, el.side, el.overlay);
  root.append(el.page);

  el.chatForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = el.chatInput.value.trim();
    if (!text) return;
    if (sendIntent({ type: 'chat', text: text.slice(0, CHAT_MAX) }, { blocking: false })) el.chatInput.value = '';
    updateChatCount();
  });
  el.chatInput.addEventListener('input', updateChatCount);
  el.hand.addEventListener('keydown', onHandKey);

  // ------------------------------------------------------------------ socket
  const socket = new RoomSocket(roomId, {
    onMessage,
    onStatus(status, detail) {
      connStatus = status;
      if (status === 'fatal') fatal = detail;
      if (status !== 'open') {
        clearPending();
        // While our own socket is down, our own presence dot says so too.
        const mine = player(mySeat());
        if (mine && mine.connected && view()) {
          mine.connected = false;
          renderSeats();
          renderScore();
        }
      }
      renderConnection();
      if (status === 'fatal' || status === 'replaced') renderAll();
    },
  });

  function onMessage(m) {
    if (!m || typeof m !== 'object') return;
    if (m.type === 'state') applyState(m);
    else if (m.type === 'rejected') onRejected(m);
    else if (m.type === 'chat') addChat(m);
    else if (m.type === 'presence') onPresence(m);
  }

  // ------------------------------------------------------------------ derived
  const room = () => (msg && msg.room) || null;
  const view = () => (msg && msg.view) || null;
  const deal = () => (view() && view().deal) || null;
  /** `view.legal`: one `{card, declare}` per card this seat may play now; `declare` is what leading
   * the card as a declaration would score (R3), or null. The server decides; the client never guesses. */
  function legalMoves() {
    const moves = new Map();
    for (const move of (view() && view().legal) || []) if (move && typeof move === 'object' && move.card) moves.set(move.card, move);
    return moves;
  }
  const canDeclare = (move) => Boolean(move) && move.declare !== null && move.declare !== undefined;
  function mySeat() {
    if (view()) return view().seat;
    const players = (room() && room().players) || [];
    const i = players.findIndex((p) => p && p.id === me.id);
    return i < 0 ? 0 : i;
  }
  const oppSeat = () => 1 - mySeat();
  function player(seat) {
    const players = (room() && room().players) || [];
    return players[seat] || null;
  }
  function nameOf(seat) {
    const p = player(seat);
    if (!p) return t('table.nobody');
    return seat === mySeat() ? t('table.you_named', { name: playerName(p) }) : playerName(p);
  }
  const plainName = (seat) => (player(seat) ? playerName(player(seat)) : t('table.nobody'));
  /** For narrow columns: the computer is just "Computer" (its level is shown elsewhere). */
  const shortName = (seat) => (isBot(seat) ? t('bot.short') : plainName(seat));
  const isBot = (seat) => Boolean(player(seat) && player(seat).bot_level);
  const vsBot = () => isBot(oppSeat());
  const matchOver = () => Boolean(view() && view().winner !== null && view().winner !== undefined) || (room() && room().status === 'finished');
  const myTurn = () => Boolean(deal() && deal().turn === mySeat() && !matchOver());

  // ------------------------------------------------------------------ incoming
  function applyState(m) {
    if (typeof m.version === 'number' && m.version < version) return;
    const before = msg;
    msg = m;
    version = m.version;
    el.page.dataset.version = String(version);
    awaitingState = false;
    if (pending && (m.reply_to === pending.id || pending.kind !== 'chat')) clearPending();
    const events = Array.isArray(m.events) ? m.events : [];
    const hadMatch = before && before.room && before.room.match_id;
    if (events.some((e) => e.kind === 'match_started') || (hadMatch && m.room && m.room.match_id !== hadMatch)) {
      closeSummary();
      summary = null;
      stakeFallback = null;
      prevHand = null;
    }
    const dealOver = events.find((e) => e.kind === 'deal_over');
    if (dealOver) {
      const record = (view() && (view().history || []).find((r) => r.number === dealOver.number)) || null;
      summary = { event: dealOver, declarations: record ? record.declarations : [] };
      summaryOpen = !events.some((e) => e.kind === 'match_over');
    }
    if (m.room && m.room.status === 'open') startOpenPoll();
    else stopOpenPoll();
    renderAll(events);
    if (matchOver() && !m.stake && !stakeFallback) loadStakeFallback();
  }

  function onRejected(m) {
    if (pending && (m.id === pending.id || m.id === null)) clearPending();
    if (m.code === 'stale_version') {
      awaitingState = true; // the current state follows at once
      toast(t('reject.stale_version'), 'rejected-message');
    } else {
      toast(rejectText(m.code), 'rejected-message');
    }
    renderHand([]);
  }

  function rejectText(code) {
    if (!REJECT_CODES.has(code)) return t('reject.unknown');
    const d = deal();
    const lead = d && d.trick && d.trick.cards && d.trick.cards[0];
    const params = {
      suit: lead ? `${SUIT_SYMBOL[suitOf(lead)]} ${suitName(suitOf(lead))}` : '',
      card: lead ? cardName(lead) : '',
      trump: d && d.trump ? `${SUIT_SYMBOL[d.trump]} ${suitName(d.trump)}` : '',
    };
    return t(`reject.${code}`, params);
  }

  function onPresence(m) {
    const p = player(m.seat);
    if (p) {
      p.connected = Boolean(m.connected);
      p.grace_deadline = m.grace_deadline || null;
    }
    if (view()) {
      renderSeats();
      renderScore();
    }
  }

  // While the opponent is away and their seat is held (R6.2), count down the time left.
  const graceTicker = setInterval(() => {
    const out = el.oppInfo.querySelector('[data-testid="grace-countdown"]');
    const p = player(oppSeat());
    if (!out || !p || !p.grace_deadline) return;
    out.textContent = graceText(p.grace_deadline);
  }, 1000);

  function graceText(deadline) {
    const left = Math.max(0, Math.round((new Date(deadline).getTime() - Date.now()) / 1000));
    const mm = Math.floor(left / 60);
    const ss = String(left % 60).padStart(2, '0');
    return t('table.seat_held', { time: `${mm}:${ss}` });
  }

  function addChat(m) {
    chatLines.push({ seat: m.seat, name: m.name, text: String(m.text ?? ''), at: m.at });
    if (chatLines.length > 100) chatLines.shift();
    renderChat(true);
  }

  // ------------------------------------------------------------------ outgoing
  function sendIntent(body, { blocking = true } = {}) {
    if (blocking && (pending || awaitingState)) return false;
    const { type, ...rest } = body;
    const id = nextMessageId(roomId);
    if (!socket.send({ type, id, version, ...rest })) {
      toast(t('table.not_connected'), 'rejected-message');
      return false;
    }
    if (blocking) {
      pending = { id, kind: type, timer: setTimeout(() => { pending = null; renderHand([]); }, PENDING_TIMEOUT_MS) };
      renderHand([]);
    }
    return true;
  }

  function clearPending() {
    if (pending) clearTimeout(pending.timer);
    pending = null;
  }

  function onCardClick(code) {
    const move = legalMoves().get(code);
    if (!view() || !myTurn() || pending || awaitingState || !move) return;
    if (canDeclare(move)) {
      openDeclare(code, move.declare);
      return;
    }
    if (sendIntent({ type: 'play', card: code, declare: false })) closeSummary();
  }

  /** R3: lead `code` with or without declaring its marriage; `points` come from the server. */
  function openDeclare(code, points) {
    const suit = suitOf(code);
    if (declareDialog) declareDialog.close();
    const choose = (declare) => () => {
      declareDialog.close();
      declareDialog = null;
      if (sendIntent({ type: 'play', card: code, declare })) closeSummary();
    };
    declareDialog = modal({
      title: t('declare.title'),
      testid: 'declare-dialog',
      body: h('div', { class: 'declare-body' }, cardEl(code, { className: 'small' }), h('p', { text: t('declare.explain', { suit: suitName(suit) }) })),
      actions: [
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'declare-yes', onclick: choose(true) }, t('declare.yes', { symbol: SUIT_SYMBOL[suit], points })),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'declare-no', onclick: choose(false), text: t('declare.no') }),
        h('button', { type: 'button', class: 'btn ghost', 'data-testid': 'declare-cancel', onclick: () => declareDialog.close(), text: t('common.cancel') }),
      ],
      onClose: () => (declareDialog = null),
    });
  }

  function openResign() {
    resignDialog = modal({
      title: t('resign.title'),
      testid: 'resign-dialog',
      body: h('p', { text: t('resign.explain') }),
      actions: [
        h('button', {
          type: 'button',
          class: 'btn danger',
          'data-testid': 'resign-yes',
          text: t('resign.yes'),
          onclick: () => {
            resignDialog.close();
            sendIntent({ type: 'resign' });
          },
        }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'resign-no', text: t('resign.no'), onclick: () => resignDialog.close() }),
      ],
      onClose: () => (resignDialog = null),
    });
  }

  function onHandKey(event) {
    const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'];
    if (!keys.includes(event.key)) return;
    const cards = [...el.hand.querySelectorAll('button.card:not([disabled])')];
    if (!cards.length) return;
    event.preventDefault();
    let i = cards.indexOf(document.activeElement);
    if (event.key === 'Home') i = 0;
    else if (event.key === 'End') i = cards.length - 1;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') i = i <= 0 ? cards.length - 1 : i - 1;
    else i = i >= cards.length - 1 ? 0 : i + 1;
    cards[i].focus();
  }

  // ------------------------------------------------------------------ rendering
  function renderAll(events = []) {
    if (destroyed) return;
    renderConnection();
    if (fatal || connStatus === 'replaced') {
      renderFatal();
      return;
    }
    el.felt.hidden = false;
    el.side.hidden = false;
    el.errorSlot.replaceChildren();
    const r = room();
    el.page.dataset.status = r ? r.status : 'connecting';
    if (!r) {
      setChildren(el.feltMessage, loading());
      return;
    }
    renderSeats();
    renderScore();
    renderChat(false);
    if (r.status === 'open' || !view()) {
      renderWaiting();
      return;
    }
    el.feltMessage.replaceChildren();
    el.centre.hidden = false;
    renderCentre(events);
    renderHand(events);
    renderStatus();
    renderInfo();
    renderActions();
    renderSheet();
    renderSummary();
    renderMatchPanel();
    el.chat.hidden = vsBot(); // nobody to talk to
    document.title = myTurn() ? `● ${t('table.your_turn')} — ${t('app.title')}` : t('app.title');
  }

  function renderConnection() {
    const show = connStatus === 'reconnecting';
    el.overlay.hidden = !show;
    el.page.dataset.connection = connStatus;
    if (show) {
      setChildren(el.overlay, 
        h(
          'div',
          { class: 'overlay-box' },
          h('div', { class: 'spinner', 'aria-hidden': 'true' }),
          h('p', { text: t('table.reconnecting') }),
          h('button', { type: 'button', class: 'btn', 'data-testid': 'reconnect-now', text: t('table.reconnect_now'), onclick: () => socket.reconnectNow() }),
        ),
      );
    }
  }

  function renderFatal() {
    el.page.dataset.status = 'error';
    const reason = connStatus === 'replaced' ? 'replaced' : fatal;
    const actions = [h('a', { class: 'btn', href: '#/', text: t('common.back_to_lobby') })];
    if (reason === 'replaced') {
      actions.unshift(
        h('button', {
          type: 'button',
          class: 'btn primary',
          'data-testid': 'use-here',
          text: t('table.use_here'),
          onclick: () => {
            connStatus = 'connecting';
            socket.reconnectNow();
            renderAll();
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
    el.felt.hidden = true;
    el.side.hidden = true;
    setChildren(el.errorSlot, 
      h(
        'section',
        { class: 'card-panel table-error', 'data-testid': 'table-error', role: 'alert' },
        h('h2', { text: t('table.error_title') }),
        h('p', { text: t(`table.error.${reason}`) }),
        h('div', { class: 'row-actions' }, actions),
      ),
    );
  }

  function presenceDot(seat, prefix = 'presence') {
    const p = player(seat);
    const on = Boolean(p && p.connected);
    if (p && p.bot_level) {
      // The computer is always there: a small chip icon instead of a presence light.
      const icon = h('span', {
        class: 'bot-badge',
        'data-testid': `${prefix}-${seat === mySeat() ? 'me' : 'opponent'}`,
        'data-connected': 'true',
        'data-bot': p.bot_level,
        role: 'img',
        'aria-label': t('bot.label'),
        title: t('bot.label'),
      });
      icon.appendChild(
        svg(
          'svg',
          { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true' },
          svg('rect', { x: 3, y: 3, width: 10, height: 10, rx: 2, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
          svg('rect', { x: 6, y: 6, width: 4, height: 4, fill: 'currentColor' }),
          svg('path', { d: 'M6 1v2M10 1v2M6 13v2M10 13v2M1 6h2M1 10h2M13 6h2M13 10h2', stroke: 'currentColor', 'stroke-width': 1.4 }),
        ),
      );
      return icon;
    }
    return h('span', {
      class: `presence ${on ? 'on' : 'off'}`,
      'data-testid': `${prefix}-${seat === mySeat() ? 'me' : 'opponent'}`,
      'data-connected': String(on),
      role: 'img',
      'aria-label': on ? t('table.online') : t('table.offline'),
      title: on ? t('table.online') : t('table.offline'),
    });
  }

  function renderSeats() {
    const d = deal();
    const opp = oppSeat();
    const count = d ? d.opponent_cards : 0;
    setChildren(el.oppInfo, 
      presenceDot(opp),
      h('span', { class: 'seat-name', 'data-testid': 'opponent-name', text: plainName(opp) }),
      d && d.dealer === opp ? h('span', { class: 'dealer-chip', title: t('table.dealer'), text: t('table.dealer_short') }) : null,
      d ? h('span', { class: 'count-chip', 'data-testid': 'opponent-count', text: tn('table.cards_count', count) }) : null,
      // open_scores (R7): the opponent's card points of this deal are public at this table.
      d && d.card_points
        ? h('span', { class: 'count-chip points', 'data-testid': 'opponent-card-points', 'data-points': String(d.card_points[opp]), text: t('table.my_card_points', { n: d.card_points[opp] }) })
        : null,
      (() => {
        const p = player(opp);
        if (!p || p.bot_level || p.connected || !p.grace_deadline || matchOver()) return null;
        return h('span', { class: 'count-chip away', 'data-testid': 'grace-countdown', text: graceText(p.grace_deadline) });
      })(),
    );
    el.oppHand.dataset.count = String(count);
    el.oppHand.setAttribute('aria-label', t('table.opponent_hand', { name: plainName(opp), n: count }));
    el.oppHand.setAttribute('role', 'img');
    setChildren(el.oppHand, ...Array.from({ length: count }, () => cardBack({ className: 'mini' })));
    const mine = mySeat();
    setChildren(el.meInfo, 
      presenceDot(mine),
      h('span', { class: 'seat-name', 'data-testid': 'my-name', text: plainName(mine) }),
      d && d.dealer === mine ? h('span', { class: 'dealer-chip', title: t('table.dealer'), text: t('table.dealer_short') }) : null,
      d ? h('span', { class: 'count-chip points', 'data-testid': 'my-card-points', 'data-points': String(d.my_card_points), text: t('table.my_card_points', { n: d.my_card_points }) }) : null,
    );
  }

  function renderScore() {
    const v = view();
    const r = room();
    const target = v ? v.target : (r && r.options && r.options.target) || 1001;
    const totals = v ? v.totals : [0, 0];
    const rows = [mySeat(), oppSeat()].map((seat) =>
      h(
        'tr',
        { class: v && !matchOver() && deal() && deal().turn === seat ? 'to-move' : '' },
        h('th', { scope: 'row' }, presenceDot(seat, 'score-presence'), ' ', nameOf(seat)),
        h('td', { class: 'num', 'data-testid': seat === mySeat() ? 'my-total' : 'opponent-total', text: String(totals[seat] ?? 0) }),
        h('td', { class: 'bar-cell' }, h('span', { class: 'bar', style: `--p:${Math.min(100, Math.round(((totals[seat] || 0) / target) * 100))}%` })),
      ),
    );
    setChildren(el.score, 
      h('h2', { text: t('table.match') }),
      h(
        'table',
        { class: 'totals' },
        h('caption', { class: 'visually-hidden', text: t('table.totals_caption') }),
        h('tbody', {}, rows),
      ),
      h('p', { class: 'muted small', 'data-testid': 'target', 'data-target': String(target) }, t('table.target', { n: target }), v ? ` · ${t('table.deal_number', { n: v.deal_number + 1 })}` : ''),
      r ? optionsSummary(r.options) : null,
    );
  }

  function renderWaiting() {
    el.centre.hidden = true;
    el.hand.replaceChildren();
    el.oppHand.replaceChildren();
    el.status.replaceChildren();
    el.matchPanel.replaceChildren();
    el.summary.replaceChildren();
    el.summarySide.replaceChildren();
    el.info.replaceChildren();
    el.sheet.replaceChildren();
    const r = room();
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
    setChildren(el.feltMessage, 
      h(
        'div',
        { class: 'waiting-panel', 'data-testid': 'waiting-panel' },
        h('div', { class: 'waiting-cards', 'aria-hidden': 'true' }, cardBack({ className: 'small' }), cardBack({ className: 'small' }), cardBack({ className: 'small' })),
        h('h2', { text: t('table.waiting') }),
        h('p', { text: r.visibility === 'public' ? t('table.waiting_public') : t('table.waiting_private') }),
        box,
        cancel,
      ),
    );
    el.actions.replaceChildren();
    if (!inviteCode && r.invite_code) inviteCode = r.invite_code;
    const fill = () => {
      if (inviteCode) setChildren(box, inviteBox(inviteCode));
    };
    if (inviteCode) fill();
    else
      api
        .room(roomId)
        .then((full) => {
          inviteCode = full && full.invite_code;
          fill();
          if (!inviteCode) box.replaceChildren();
        })
        .catch(() => box.replaceChildren());
  }

  function startOpenPoll() {
    if (openPoll) return;
    openPoll = setInterval(async () => {
      try {
        const full = await api.room(roomId);
        if (full && full.status !== 'open' && room() && room().status === 'open') socket.reconnectNow();
      } catch {
        /* keep waiting */
      }
    }, OPEN_POLL_MS);
  }

  function stopOpenPoll() {
    clearInterval(openPoll);
    openPoll = null;
  }

  function playedNow(events) {
    return new Set(events.filter((e) => e.kind === 'card_played').map((e) => e.card));
  }

  function renderCentre(events) {
    const d = deal();
    const me = mySeat();
    // Stock, with the faced bottom card where R2 shows one.
    const stockChildren = [];
    if (d.stock_bottom) stockChildren.push(cardEl(d.stock_bottom, { className: 'stock-bottom small', attrs: { 'data-testid': 'stock-bottom' } }));
    if (d.stock_count > 0) {
      const layers = Math.min(4, Math.ceil(d.stock_count / 2));
      for (let i = 0; i < layers; i++) stockChildren.push(cardBack({ className: 'small stack', attrs: { style: `--i:${i}` } }));
    } else {
      stockChildren.push(h('div', { class: 'card small empty-slot', 'aria-hidden': 'true' }));
    }
    setChildren(el.stock, 
      h('div', { class: 'stock-pile' }, stockChildren),
      h('span', { class: 'count-chip', 'data-testid': 'stock-count', 'data-count': String(d.stock_count) }, d.stock_count > 0 ? tn('table.stock_count', d.stock_count) : t('table.stock_empty')),
    );
    el.stock.setAttribute('aria-label', d.stock_count > 0 ? tn('table.stock_count', d.stock_count) : t('table.stock_empty'));

    // The trick in progress.
    const played = playedNow(events);
    const trick = d.trick || { leader: null, cards: [] };
    el.trick.setAttribute('aria-label', t('table.trick'));
    setChildren(el.trickLayer, 
      ...(trick.cards || []).map((code, i) => {
        const seat = i === 0 ? trick.leader : 1 - trick.leader;
        const side = seat === me ? 'mine' : 'theirs';
        const anim = played.has(code) ? ` enter-${side}` : '';
        return cardEl(code, { className: `trick-card ${side} pos-${i}${anim}`, attrs: { 'data-testid': `trick-card-${code}` } });
      }),
    );
    // A trick just taken: show it for a moment, then sweep it to the winner's side.
    const won = events.find((e) => e.kind === 'trick_won');
    if (won) showGhost(won);
    // A new lead already on the table: the previous trick sweeps away at once.
    else if ((trick.cards || []).length) for (const ghost of el.ghostLayer.children) ghost.classList.add('sweep');

    const last = d.last_trick;
    setChildren(el.lastTrick, 
      h('span', { class: 'label', text: t('table.last_trick') }),
      last
        ? h(
            'div',
            { class: 'last-cards' },
            last.cards.map((code) => cardEl(code, { className: 'tiny', attrs: { 'data-testid': `last-trick-card-${code}` } })),
          )
        : h('div', { class: 'last-cards' }, h('div', { class: 'card tiny empty-slot', 'aria-hidden': 'true' })),
      last ? h('span', { class: 'small', text: t('table.won_by', { name: plainName(last.winner) }) }) : null,
    );
  }

  function showGhost(won) {
    const me = mySeat();
    const reduced = prefersReducedMotion();
    const ghost = h(
      'div',
      { class: `ghost-trick ${won.seat === me ? 'to-mine' : 'to-theirs'}` },
      won.cards.map((code, i) => {
        const seat = i === 0 ? won.leader : 1 - won.leader;
        return cardEl(code, { className: `trick-card ${seat === me ? 'mine' : 'theirs'} pos-${i}`, attrs: { 'aria-hidden': 'true' } });
      }),
    );
    setChildren(el.ghostLayer, ghost);
    setTimeout(() => ghost.classList.add('sweep'), reduced ? 400 : 750);
    setTimeout(() => ghost.remove(), reduced ? 600 : 1300);
  }

  function renderHand(events) {
    const v = view();
    const d = deal();
    if (!v || !d) return;
    const focusedCard = el.hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
    const legal = legalMoves();
    const turn = myTurn();
    const blocked = Boolean(pending || awaitingState || connStatus !== 'open');
    const hand = sortHand(d.hand || []);
    const fresh = new Set();
    const newDeal = prevDealNumber !== v.deal_number;
    if (events.length) {
      if (prevHand && !newDeal) for (const c of hand) if (!prevHand.includes(c)) fresh.add(c);
      if (events.some((e) => e.kind === 'deal_started' || e.kind === 'match_started')) for (const c of hand) fresh.add(c);
    }
    prevHand = [...hand];
    prevDealNumber = v.deal_number;
    el.hand.setAttribute('aria-label', t('table.your_hand'));
    el.hand.dataset.turn = String(turn);
    el.hand.style.setProperty('--n', String(Math.max(hand.length, 6)));
    setChildren(el.hand, 
      ...hand.map((code, i) => {
        const move = turn ? legal.get(code) : undefined;
        const isLegal = Boolean(move);
        const declarable = canDeclare(move);
        const cls = ['hand-card', turn ? (isLegal ? 'legal' : 'illegal') : 'idle'];
        if (declarable) cls.push('declarable');
        if (fresh.has(code)) cls.push('drawn');
        const button = cardEl(code, {
          button: true,
          className: cls.join(' '),
          attrs: {
            'data-testid': `card-${code}`,
            'data-legal': String(isLegal),
            'data-declarable': declarable ? 'true' : null,
            'data-declare-points': declarable ? String(move.declare) : null,
            title: declarable ? t('table.can_declare') : null,
            disabled: !isLegal || blocked,
            'aria-disabled': String(!isLegal || blocked),
            style: `--i:${i}`,
          },
        });
        button.addEventListener('click', () => onCardClick(code));
        return button;
      }),
    );
    el.hand.dataset.pending = String(blocked);
    if (focusedCard || (turn && document.activeElement === document.body && !document.querySelector('.backdrop'))) {
      const again = el.hand.querySelector(`button[data-card="${focusedCard}"]:not([disabled])`) || (focusedCard ? el.hand.querySelector('button.card:not([disabled])') : null);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function renderStatus() {
    const d = deal();
    let text;
    let cls = 'turn-line';
    if (matchOver()) text = t('table.match_over');
    else if (myTurn()) {
      cls += ' mine';
      const lead = d.trick && d.trick.cards && d.trick.cards[0];
      text = lead ? t('table.your_turn_answer', { card: cardName(lead) }) : t('table.your_turn_lead');
    } else text = t(vsBot() ? 'table.bot_thinking' : 'table.their_turn', { name: plainName(oppSeat()) });
    el.status.className = cls;
    el.status.dataset.myTurn = String(myTurn());
    const phase = d.phase === 2 ? h('span', { class: 'phase-chip', 'data-testid': 'phase', 'data-phase': '2', text: t('table.phase2') }) : h('span', { class: 'phase-chip', 'data-testid': 'phase', 'data-phase': '1', text: t('table.phase1') });
    setChildren(el.status, h('span', { class: 'turn-text', text }), phase);
  }

  function renderInfo() {
    const d = deal();
    const v = view();
    const trump = d.trump
      ? h('span', { class: 'trump-value', 'data-testid': 'trump', 'data-trump': d.trump }, suitBadge(d.trump), ' ', suitName(d.trump))
      : h('span', { class: 'trump-value', 'data-testid': 'trump', 'data-trump': 'none', text: t('table.no_trump') });
    const decls = (d.declarations || []).length
      ? h(
          'ul',
          { class: 'decl-list', 'data-testid': 'declarations' },
          d.declarations.map((x) => h('li', {}, h('span', { text: plainName(x.seat) }), ' ', suitBadge(x.suit), ' ', h('strong', { text: String(x.points) }))),
        )
      : h('p', { class: 'muted small', 'data-testid': 'declarations', text: t('table.no_declarations') });
    const points = d.card_points
      ? h(
          'p',
          { 'data-testid': 'card-points' },
          t('table.card_points_both', { me: d.card_points[mySeat()], them: d.card_points[oppSeat()], name: plainName(oppSeat()) }),
        )
      : h('p', { 'data-testid': 'card-points' }, t('table.card_points_mine', { n: d.my_card_points }));
    setChildren(el.info, 
      h('h2', { text: t('table.this_deal', { n: v.deal_number + 1 }) }),
      h('div', { class: 'info-row' }, h('span', { class: 'label', text: t('table.trump') }), trump),
      h('div', { class: 'info-row col' }, h('span', { class: 'label', text: t('table.declarations') }), decls),
      h('div', { class: 'info-row' }, h('span', { class: 'label', text: t('table.card_points') }), points),
      h('p', { class: 'muted small', text: t('table.dealer_is', { name: plainName(d.dealer) }) }),
    );
  }

  function renderActions() {
    const canResign = !matchOver() && room() && room().status === 'playing';
    setChildren(el.actions, 
      canResign ? h('button', { type: 'button', class: 'btn ghost danger-text', 'data-testid': 'resign', text: t('resign.button'), onclick: openResign }) : null,
      h('a', { class: 'btn ghost', href: '#/', 'data-testid': 'table-to-lobby', text: t('common.back_to_lobby') }),
      canResign ? h('p', { class: 'leave-hint', 'data-testid': 'leave-hint', text: t('table.leave_hint', { time: graceSpan() }) }) : null,
    );
  }

  /** R6.2: how long this table holds an absent seat, in words ("2 min", "45 s"). */
  function graceSpan() {
    return durationText((room() && room().options && room().options.reconnect_grace_s) || 120);
  }

  function renderSheet() {
    const v = view();
    const history = v.history || [];
    const me = mySeat();
    const opp = oppSeat();
    if (!history.length) {
      setChildren(el.sheet, h('h2', { text: t('sheet.title') }), h('p', { class: 'muted small', text: t('sheet.empty') }));
      return;
    }
    setChildren(el.sheet, 
      h('h2', { text: t('sheet.title') }),
      h(
        'table',
        { class: 'sheet' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: '#' }), h('th', { scope: 'col', text: shortName(me) }), h('th', { scope: 'col', text: shortName(opp) }))),
        h(
          'tbody',
          {},
          history.map((r) =>
            h(
              'tr',
              {},
              h('td', { text: String(r.number + 1) }),
              h('td', {}, h('span', { class: 'gain', text: `+${r.score[me]}` }), h('span', { class: 'tot', text: String(r.totals[me]) })),
              h('td', {}, h('span', { class: 'gain', text: `+${r.score[opp]}` }), h('span', { class: 'tot', text: String(r.totals[opp]) })),
            ),
          ),
        ),
      ),
    );
  }

  function renderChat(scroll) {
    el.chatTitle.textContent = t('chat.title');
    el.chatInput.placeholder = t('chat.placeholder');
    el.chatInput.setAttribute('aria-label', t('chat.placeholder'));
    el.chatSend.textContent = t('chat.send');
    updateChatCount();
    const me = mySeat();
    setChildren(el.chatLog, 
      ...(chatLines.length
        ? chatLines.map((line) =>
            h('li', { class: line.seat === me ? 'mine' : 'theirs' }, h('span', { class: 'who', text: line.name || plainName(line.seat) }), h('span', { class: 'what', text: line.text })),
          )
        : [h('li', { class: 'muted small empty', text: t('chat.empty') })]),
    );
    if (scroll) el.chatLog.scrollTop = el.chatLog.scrollHeight;
  }

  function updateChatCount() {
    el.chatCount.textContent = `${el.chatInput.value.length}/${CHAT_MAX}`;
  }

  // ------------------------------------------------------------------ deal & match end
  /** A deal's result as one small table: a row per player, cards · marriages · deal · total. */
  function summaryTable(event, declarations) {
    const me = mySeat();
    const opp = oppSeat();
    const declText = (seat) => {
      const list = (declarations || []).filter((x) => x.seat === seat);
      if (!list.length) return '—';
      return list.map((x) => `${SUIT_SYMBOL[x.suit]}${x.points}`).join(' ');
    };
    const voided = [me, opp].filter((s) => (declarations || []).some((x) => x.seat === s) && event.declaration_points[s] === 0);
    const row = (seat) =>
      h(
        'tr',
        { 'data-testid': seat === me ? 'summary-row-me' : 'summary-row-opponent' },
        h('th', { scope: 'row', class: 'who', title: plainName(seat), text: shortName(seat) }),
        h('td', { 'data-testid': 'summary-card-points', text: String(event.card_points[seat]) }),
        h('td', { class: voided.includes(seat) ? 'voided' : '', 'data-testid': 'summary-declarations', text: declText(seat) }),
        h('td', { class: 'gain', 'data-testid': 'summary-score', text: `+${event.score[seat]}` }),
        h('td', { class: 'tot', 'data-testid': 'summary-total', text: String(event.totals[seat]) }),
      );
    return h(
      'div',
      { class: 'summary' },
      h(
        'table',
        { class: 'summary-table' },
        h(
          'thead',
          {},
          h('tr', {}, h('td', {}), [t('history.col.cards'), t('history.col.decl'), t('history.col.deal'), t('history.col.total')].map((x) => h('th', { scope: 'col', text: x }))),
        ),
        h('tbody', {}, row(me), row(opp)),
      ),
      voided.map((seat) => h('p', { class: 'muted small voided-note', text: t('summary.voided', { name: plainName(seat) }) })),
    );
  }

  /** The last deal's result beside the cards: it blocks nothing and goes when the player plays on. */
  function renderSummary(force = false) {
    const slot = wideScreen.matches ? el.summarySide : el.summary;
    const other = slot === el.summary ? el.summarySide : el.summary;
    other.replaceChildren();
    if (!summary || !summaryOpen || matchOver()) {
      slot.replaceChildren();
      return;
    }
    const { event, declarations } = summary;
    const shown = slot.firstElementChild;
    if (!force && shown && shown.dataset.deal === String(event.number) && shown.dataset.match === String(room().match_id)) return; // as it is: no new slide-in
    const title = t('summary.title', { n: event.number + 1 });
    setChildren(
      slot,
      h(
        'section',
        { class: 'deal-summary', 'data-testid': 'deal-summary', 'data-deal': String(event.number), 'data-match': String(room().match_id), role: 'status', 'aria-label': title },
        h(
          'div',
          { class: 'deal-summary-head' },
          h('h2', { text: title }),
          h('button', { type: 'button', class: 'icon-btn', 'data-testid': 'deal-summary-close', 'aria-label': t('summary.close'), title: t('summary.close'), text: '×', onclick: closeSummary }),
        ),
        summaryTable(event, declarations),
      ),
    );
  }

  function closeSummary() {
    summaryOpen = false;
    el.summary.replaceChildren();
    el.summarySide.replaceChildren();
  }

  // Wide screens show the side column next to the felt: the summary goes there (as in table.css).
  const wideScreen = window.matchMedia('(min-width: 981px)');
  const onWidth = () => {
    if (view()) renderSummary(true);
  };
  wideScreen.addEventListener('change', onWidth);

  function onKey(event) {
    if (event.key === 'Escape' && summaryOpen && !document.querySelector('.backdrop')) closeSummary();
  }
  document.addEventListener('keydown', onKey);

  async function loadStakeFallback() {
    const r = room();
    if (!r || !r.match_id) return;
    stakeFallback = { loading: true };
    try {
      const m = await api.match(r.match_id);
      const s = m && (m.stake || m.settlement);
      stakeFallback = s && s.amount !== undefined ? s : { none: true };
    } catch {
      stakeFallback = { none: true };
    }
    renderMatchPanel();
  }

  function stakeText(stake) {
    if (!stake || stake.amount === undefined) return t('match.stake.unknown');
    if (isZeroAmount(stake.amount)) {
      // A staked match where the loser reached the target too: nothing short, nothing owed (R6).
      return isZeroAmount(stake.stake_per_point) ? t('match.stake.none') : t('match.stake.zero', { amount: money(stake.amount, stake.currency) });
    }
    const amount = money(stake.amount, stake.currency);
    const debtor = stake.debtor_seat;
    if (debtor === mySeat()) return t('match.stake.you_owe', { name: plainName(oppSeat()), amount });
    if (debtor === oppSeat()) return t('match.stake.owes_you', { name: plainName(oppSeat()), amount });
    return amount;
  }

  function renderMatchPanel() {
    const wasShown = el.matchPanel.childElementCount > 0;
    if (!matchOver() || !view()) {
      el.matchPanel.replaceChildren();
      return;
    }
    const v = view();
    const r = room();
    const me = mySeat();
    const won = v.winner === me;
    const loser = 1 - v.winner;
    const reasonKey = { target: 'match.reason.target', resign: 'match.reason.resign', absence: 'match.reason.absence' }[v.end_reason] || 'match.reason.target';
    const stake = msg.stake || (stakeFallback && !stakeFallback.none && !stakeFallback.loading ? stakeFallback : null);
    const stakeDetail =
      stake && !isZeroAmount(stake.amount) && stake.points_short !== undefined
        ? h('p', { class: 'muted small', 'data-testid': 'stake-detail', text: t('match.stake.detail', { points: stake.points_short, stake: money(stake.stake_per_point, stake.currency), target: v.target }) })
        : null;
    const offer = r.rematch;
    const rematch = [];
    const act = (action) => () => sendIntent({ type: 'rematch', action });
    if (!offer) rematch.push(h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-offer', text: vsBot() ? t('rematch.play_again') : t('rematch.offer'), onclick: act('offer') }));
    else if (offer.offered_by === me && vsBot()) {
      // The computer accepts at once: the next state starts the new match.
      rematch.push(h('p', { 'data-testid': 'rematch-status', text: t('rematch.starting') }));
    } else if (offer.offered_by === me) {
      rematch.push(
        h('p', { 'data-testid': 'rematch-status', text: t('rematch.waiting', { name: plainName(oppSeat()) }) }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-withdraw', text: t('rematch.withdraw'), onclick: act('withdraw') }),
      );
    } else {
      rematch.push(
        h('p', { 'data-testid': 'rematch-status', text: t('rematch.offered', { name: plainName(oppSeat()) }) }),
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-accept', text: t('rematch.accept'), onclick: act('accept') }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-decline', text: t('rematch.decline'), onclick: act('decline') }),
      );
    }
    const lastDeal = summary && summary.event && (v.history || []).length && summary.event.number === v.history[v.history.length - 1].number ? summaryTable(summary.event, summary.declarations) : null;
    setChildren(el.matchPanel, 
      h(
        'section',
        { class: `match-panel ${won ? 'won' : 'lost'}`, 'data-testid': 'match-over', 'data-winner': String(v.winner), role: 'dialog', 'aria-labelledby': 'match-result-h' },
        trophy(won),
        h('h2', { id: 'match-result-h', 'data-testid': 'match-result', 'data-won': String(won) }, won ? t('match.you_won') : t('match.they_won', { name: plainName(v.winner) })),
        h('p', { class: 'muted', text: t(reasonKey, { winner: plainName(v.winner), loser: plainName(loser), target: v.target }) }),
        h('p', { class: 'final-totals', 'data-testid': 'final-totals' }, `${plainName(me)} ${v.totals[me]} : ${v.totals[oppSeat()]} ${plainName(oppSeat())}`),
        h('p', { class: 'stake-owed', 'data-testid': 'stake-owed', 'data-amount': stake ? stake.amount : '', 'data-currency': stake ? stake.currency : '' }, stake ? stakeText(stake) : t('common.loading')),
        stakeDetail,
        lastDeal ? h('details', { class: 'last-deal' }, h('summary', { text: t('summary.title', { n: summary.event.number + 1 }) }), lastDeal) : null,
        h('div', { class: 'rematch-row' }, rematch, h('a', { class: 'btn ghost', href: '#/', 'data-testid': 'back-to-lobby', text: t('common.back_to_lobby') })),
      ),
    );
    if (!wasShown) {
      // Bring the result into view and announce it (the panel is a dialog over the felt).
      el.felt.scrollIntoView({ block: 'start', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
      const heading = el.matchPanel.querySelector('h2');
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }

  /** A small inline SVG: a gold cup for the winner, crossed cards for the loser. */
  function trophy(won) {
    const box = h('div', { class: 'trophy', 'aria-hidden': 'true' });
    box.innerHTML = won
      ? '<svg viewBox="0 0 64 64" width="56" height="56"><path d="M18 8h28v14a14 14 0 0 1-28 0z" fill="#e2b648" stroke="#a57a18" stroke-width="2"/><path d="M18 12H9a9 9 0 0 0 10 13M46 12h9a9 9 0 0 1-10 13" fill="none" stroke="#a57a18" stroke-width="3"/><rect x="29" y="35" width="6" height="10" fill="#c99a2a"/><rect x="20" y="45" width="24" height="7" rx="2" fill="#5b3a1e"/><text x="32" y="25" text-anchor="middle" font-size="13" fill="#c0262d">♥</text></svg>'
      : '<svg viewBox="0 0 64 64" width="56" height="56"><rect x="14" y="12" width="24" height="34" rx="3" transform="rotate(-14 26 29)" fill="#fdf8ee" stroke="#8a948e" stroke-width="2"/><rect x="26" y="14" width="24" height="34" rx="3" transform="rotate(12 38 31)" fill="#fdf8ee" stroke="#8a948e" stroke-width="2"/><text x="39" y="37" text-anchor="middle" font-size="14" fill="#17191c">♣</text></svg>';
    return box;
  }

  function relang() {
    if (fatal || connStatus === 'replaced') renderFatal();
    else {
      renderAll();
      if (view()) renderSummary(true);
    }
  }

  renderAll();
  socket.start(); // last: its status callback uses the helpers defined above
  return {
    relang,
    destroy() {
      destroyed = true;
      clearInterval(graceTicker);
      socket.stop();
      stopOpenPoll();
      clearPending();
      document.removeEventListener('keydown', onKey);
      wideScreen.removeEventListener('change', onWidth);
      if (declareDialog) declareDialog.close();
      if (resignDialog) resignDialog.close();
      document.title = t('app.title');
    },
  };
}
