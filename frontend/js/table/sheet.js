// The drawer one tap away: chat, the score sheet and the table's options (totals, this deal,
// sound). A side column on wide screens, a sheet over the table on phones.
import { suitBadge, suitName } from '../cards.js';
import { h, setAttr, setText, sync } from '../dom.js';
import { patch, patchChildren } from './patch.js';
import { getLang, t, tn } from '../i18n.js';
import { durationText, onlyComputersWait, turnBased } from '../ui.js';
import { tableSummary } from '../games.js';
import { dealOf, isMe, matchOver, mySeat, roomOf, seatCount, viewOf } from './store.js';
import { nobodyToChat, plainName } from './names.js';
import { seatsFromMe, total } from './model.js';
import { presenceDot } from './seats.js';
import { scoreSheet } from './summary.js';
import { deck, setDeck, setTapToRaise, setTrickStay, tapToRaise, trickStay, TRICK_STAY_NAMES } from '../prefs.js';
import { fitSoon } from '../fit.js';

/** What leaving the table mid-match means here: R6.2 at a live table, R6.3 at a turn-based one or against the computer only. */
function leaveHint(options) {
  if (onlyComputersWait(options)) return t('table.leave_hint.computer');
  if (turnBased(options)) return t('table.leave_hint.turn_based', { pace: t(`opt.pace.${options.pace}`) });
  return t('table.leave_hint', { time: durationText(options.reconnect_grace_s || 120) });
}

export const CHAT_MAX = 200;
const TABS = ['chat', 'sheet', 'table'];

export function createSheet({ dispatch, sendChat, feedback, extra = null, onTapToRaise = () => {} }) {
  const titleId = 'table-sheet-h';
  const title = h('h2', { id: titleId, class: 'sheet-title' });
  const close = h('button', { type: 'button', class: 'icon-btn sheet-close', 'data-testid': 'sheet-close', text: '×', onclick: () => dispatch({ type: 'local/sheet', open: false }) });
  const tabButtons = {};
  const panels = {};
  const tablist = h('div', { class: 'sheet-tabs', role: 'tablist' });
  for (const tab of TABS) {
    tabButtons[tab] = h('button', { type: 'button', role: 'tab', id: `sheet-tab-${tab}`, 'aria-controls': `sheet-panel-${tab}`, 'data-testid': `sheet-tab-${tab}`, class: 'sheet-tab', onclick: () => dispatch({ type: 'local/sheet', open: true, tab }) });
    tablist.append(tabButtons[tab]);
  }
  tablist.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const visible = TABS.filter((x) => !tabButtons[x].hidden);
    const i = visible.indexOf(document.activeElement && document.activeElement.id.replace('sheet-tab-', ''));
    const next = visible[(i + (event.key === 'ArrowRight' ? 1 : visible.length - 1)) % visible.length];
    event.preventDefault();
    dispatch({ type: 'local/sheet', open: true, tab: next });
    tabButtons[next].focus();
  });

  // chat
  const chatTitle = h('h3', { class: 'visually-hidden', id: 'chat-h' });
  const chatLog = h('ul', { class: 'chat-log', 'data-testid': 'chat-log', 'aria-live': 'polite', tabindex: '0' });
  const chatInput = h('input', { type: 'text', maxlength: CHAT_MAX, 'data-testid': 'chat-input', autocomplete: 'off' });
  const chatCount = h('span', { class: 'chat-count', 'aria-hidden': 'true' });
  const chatSend = h('button', { type: 'submit', class: 'btn', 'data-testid': 'chat-send' });
  const chatForm = h('form', { class: 'chat-form' }, chatInput, chatSend);
  const count = () => (chatCount.textContent = `${chatInput.value.length}/${CHAT_MAX}`);
  chatInput.addEventListener('input', count);
  chatForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (text && sendChat(text.slice(0, CHAT_MAX))) chatInput.value = '';
    count();
  });
  panels.chat = h('section', { class: 'sheet-panel chat', 'data-testid': 'chat', 'aria-labelledby': 'chat-h' }, chatTitle, chatLog, chatForm, chatCount);
  // score sheet
  panels.sheet = h('section', { class: 'sheet-panel score-sheet', 'data-testid': 'score-sheet' });
  // the table: totals and options, this deal, sound
  const scoreboard = h('section', { class: 'scoreboard', 'data-testid': 'scoreboard' });
  const info = h('section', { class: 'deal-info', 'data-testid': 'deal-info' });
  const sound = h('input', { type: 'checkbox', role: 'switch', 'data-testid': 'sound-toggle', id: 'sound-toggle' });
  sound.addEventListener('change', () => feedback().setMuted(!sound.checked));
  const soundRow = h('label', { class: 'switch-row', for: 'sound-toggle' }, sound, h('span', { class: 'switch-text' }));
  // this device's preferences (prefs.js): how long a finished trick stays, the four-colour deck
  const stay = h('select', { id: 'trick-stay', 'data-testid': 'trick-stay' }, TRICK_STAY_NAMES.map((value) => h('option', { value })));
  stay.addEventListener('change', () => setTrickStay(stay.value));
  const stayRow = h('div', { class: 'pref-row' }, h('label', { for: 'trick-stay', class: 'pref-label' }), stay);
  const four = h('input', { type: 'checkbox', role: 'switch', 'data-testid': 'four-colour', id: 'four-colour' });
  four.addEventListener('change', () => setDeck(four.checked ? 'four' : 'two'));
  const fourRow = h('label', { class: 'switch-row', for: 'four-colour' }, four, h('span', { class: 'switch-text' }));
  // "tap to raise, tap again to play" (off unless chosen; remembered on this device)
  const raise = h('input', { type: 'checkbox', role: 'switch', 'data-testid': 'tap-to-raise', id: 'tap-to-raise' });
  raise.addEventListener('change', () => {
    setTapToRaise(raise.checked);
    onTapToRaise(raise.checked);
  });
  const raiseRow = h('label', { class: 'switch-row', for: 'tap-to-raise' }, raise, h('span', { class: 'switch-text' }));
  const hint = h('p', { class: 'leave-hint small', 'data-testid': 'leave-hint' });
  panels.table = h('section', { class: 'sheet-panel table-options' }, scoreboard, info, soundRow, raiseRow, stayRow, fourRow, extra, hint);
  for (const tab of TABS) {
    panels[tab].id = `sheet-panel-${tab}`;
    panels[tab].setAttribute('role', 'tabpanel');
    panels[tab].setAttribute('aria-labelledby', `sheet-tab-${tab}`);
  }
  const body = h('div', { class: 'sheet-body' }, panels.chat, panels.sheet, panels.table);
  const el = h(
    'aside',
    { class: 'table-sheet', id: 'table-sheet', 'data-testid': 'table-sheet', 'aria-labelledby': titleId },
    h('div', { class: 'sheet-head' }, title, close),
    tablist,
    body,
  );
  let chatSeen = -1;
  // A chat line's key: the line itself (the store keeps a line's object while it is kept).
  const lineIds = new WeakMap();
  let lineSeq = 0;
  const lineKey = (line) => {
    if (!lineIds.has(line)) lineIds.set(line, ++lineSeq);
    return lineIds.get(line);
  };

  // What the score sheet was last drawn from (the view's history and room, the language: no words):
  // a render for something else (a card sent, the pill) does not draw its up to 100 lines again.
  let sheetFrom = null;

  function render(s) {
    const bot = nobodyToChat(s);
    const tab = bot && s.sheet.tab === 'chat' ? 'sheet' : s.sheet.tab;
    // Everything here is written only where it changes (issue 42): a state message that changes
    // nothing in the drawer restyles nothing in it.
    setAttr(el, 'data-open', String(s.sheet.open));
    setText(title, t(bot ? 'sheet.drawer_title_solo' : 'sheet.drawer_title')); // no chat without people
    setAttr(close, 'aria-label', t('table.sheet_close'));
    setAttr(close, 'title', t('table.sheet_close'));
    const names = { chat: t('chat.title'), sheet: t('sheet.title'), table: t('table.tab_table') };
    for (const x of TABS) {
      const b = tabButtons[x];
      patchChildren(b, [names[x], x === 'chat' && s.unread > 0 ? h('span', { class: 'unread-dot', 'aria-hidden': 'true' }) : null]);
      setAttr(b, 'aria-selected', String(x === tab));
      if (b.tabIndex !== (x === tab ? 0 : -1)) b.tabIndex = x === tab ? 0 : -1;
      if (panels[x].hidden !== (x !== tab)) panels[x].hidden = x !== tab;
    }
    if (tabButtons.chat.hidden !== bot) tabButtons.chat.hidden = bot; // nobody to talk to
    if (panels.chat.hidden !== (bot || tab !== 'chat')) panels.chat.hidden = bot || tab !== 'chat';
    renderChat(s);
    renderSheet(s);
    renderTable(s);
    sound.checked = !feedback().isMuted();
    setText(soundRow.querySelector('.switch-text'), t('table.sound'));
    setText(stayRow.querySelector('label'), t('prefs.trick_stay'));
    for (const option of stay.options) setText(option, t(`prefs.trick_stay.${option.value}`));
    if (stay.value !== trickStay()) stay.value = trickStay();
    four.checked = deck() === 'four';
    setText(fourRow.querySelector('.switch-text'), t('prefs.four_colour'));
    raise.checked = tapToRaise();
    setText(raiseRow.querySelector('.switch-text'), t('table.tap_to_raise'));
  }

  function renderChat(s) {
    setText(chatTitle, t('chat.title'));
    setAttr(chatInput, 'placeholder', t('chat.placeholder'));
    setAttr(chatInput, 'aria-label', t('chat.placeholder'));
    setText(chatSend, t('chat.send'));
    setAttr(chatLog, 'aria-label', t('chat.title'));
    const shown = `${chatInput.value.length}/${CHAT_MAX}`;
    if (chatCount.textContent !== shown) count();
    const me = mySeat(s);
    // a line is drawn once and kept (keyed by the line); only its name may change (a language)
    const line = (l) => h('li', { class: l.seat === me ? 'mine' : 'theirs' }, h('span', { class: 'who', text: l.name || plainName(s, l.seat) }), h('span', { class: 'what', text: l.text }));
    if (s.chat.length) sync(chatLog, s.chat, lineKey, line, (node, l) => patch(node, line(l)));
    else sync(chatLog, ['empty'], (x) => x, () => h('li', { class: 'muted small empty', text: t('chat.empty') }), (node) => setText(node, t('chat.empty')));
    if (s.chat.length !== chatSeen) {
      chatSeen = s.chat.length;
      chatLog.scrollTop = chatLog.scrollHeight;
    }
  }

  function renderSheet(s) {
    const v = viewOf(s);
    const from = [v && v.history, roomOf(s), mySeat(s), getLang(), panels.sheet.hidden, el.hidden];
    if (sheetFrom && from.every((x, i) => x === sheetFrom[i])) return;
    sheetFrom = from;
    // the lines kept (each keyed by its deal's test id) and patched: an unchanged sheet writes nothing
    patchChildren(panels.sheet, [h('h3', { class: 'visually-hidden', text: t('sheet.title') }), scoreSheet(s, (v && v.history) || [])]);
    if (!panels.sheet.hidden && !el.hidden) fitSoon(panels.sheet);
  }

  function renderTable(s) {
    const v = viewOf(s);
    const room = roomOf(s);
    const d = dealOf(s);
    const target = v ? v.target : (room && room.options && room.options.target) || 1001;
    const totals = v ? v.totals : [];
    const order = seatsFromMe(seatCount(s), mySeat(s));
    const rows = order.map((seat) =>
      h(
        'tr',
        { class: v && !matchOver(s) && d && d.turn === seat ? 'to-move' : '' },
        h('th', { scope: 'row' }, presenceDot(s, seat, `score-presence-${seat}`), ' ', isMe(s, seat) ? t('table.you_named', { name: plainName(s, seat) }) : plainName(s, seat)),
        h('td', { class: 'num', text: total(totals[seat]) }),
        h('td', { class: 'bar-cell' }, h('span', { class: 'bar', style: `--p:${Math.min(100, Math.round(((totals[seat] || 0) / target) * 100))}%` })),
      ),
    );
    patchChildren(scoreboard, [
      h('h3', { text: t('table.match') }),
      h('table', { class: 'totals' }, h('caption', { class: 'visually-hidden', text: t('table.totals_caption') }), h('tbody', {}, rows)),
      h('p', { class: 'muted small', 'data-testid': 'target', 'data-target': String(target) }, t('table.target', { n: target }), v ? ` · ${t('table.deal_number', { n: v.deal_number + 1 })}` : ''),
      room ? tableSummary(room.options) : null,
    ]);
    if (!d) {
      info.replaceChildren();
    } else {
      const trump = d.trump
        ? h('span', { class: 'trump-value', 'data-testid': 'trump', 'data-trump': d.trump }, suitBadge(d.trump), ' ', suitName(d.trump))
        : h('span', { class: 'trump-value', 'data-testid': 'trump', 'data-trump': 'none', text: t('table.no_trump') });
      const decls = (d.declarations || []).length
        ? h('ul', { class: 'decl-list', 'data-testid': 'declarations' }, d.declarations.map((x) => h('li', {}, h('span', { text: plainName(s, x.seat) }), ' ', suitBadge(x.suit), ' ', h('strong', { text: String(x.points) }))))
        : h('p', { class: 'muted small', 'data-testid': 'declarations', text: t('table.no_declarations') });
      // R7: my own card points; every seat's under open_scores
      const points = d.card_points
        ? h('p', { 'data-testid': 'card-points' }, order.map((seat) => `${isMe(s, seat) ? t('ring.you') : plainName(s, seat)} ${d.card_points[seat]}`).join(' · '))
        : h('p', { 'data-testid': 'card-points' }, tn('table.card_points_mine', d.my_card_points ?? 0));
      patchChildren(info, [
        h('h3', { text: t('table.this_deal', { n: v.deal_number + 1 }) }),
        h('div', { class: 'info-row' }, h('span', { class: 'label', text: t('table.trump') }), trump),
        h('div', { class: 'info-row col' }, h('span', { class: 'label', text: t('table.declarations') }), decls),
        h('div', { class: 'info-row' }, h('span', { class: 'label', text: t('table.card_points') }), points),
        d.declarer !== null && d.declarer !== undefined
          ? h('div', { class: 'info-row' }, h('span', { class: 'label', text: t('ring.contract') }), h('span', { 'data-testid': 'sheet-contract', text: t('ring.contract_title', { name: plainName(s, d.declarer), n: d.contract }) }))
          : null,
        h('p', { class: 'muted small', text: t('table.dealer_is', { name: plainName(s, d.dealer) }) }),
      ]);
    }
    const playing = !matchOver(s) && room && room.status === 'playing';
    if (hint.hidden !== !playing) hint.hidden = !playing;
    setText(hint, playing ? leaveHint(room.options || {}) : '');
  }

  return {
    el,
    render,
    focusFirst(s) {
      const tab = nobodyToChat(s) && s.sheet.tab === 'chat' ? 'sheet' : s.sheet.tab;
      tabButtons[tab].focus({ preventScroll: true }); // not the chat input: no keyboard popping up
    },
  };
}
