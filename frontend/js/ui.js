// Pieces shared by the views: the name form, option summaries, invite box, dialogs, toasts.
import { api } from './api.js';
import { copyText, h } from './dom.js';
import { REFUSAL_CODES, TABLE_OPTIONS } from './generated/protocol.js';
import { getLang, hasKey, t, tn } from './i18n.js';
import { setPlayer } from './session.js';

const API_ERRORS = new Set([
  'unauthorized',
  'room_not_found',
  'match_not_found',
  'player_not_found',
  'room_full',
  'already_seated',
  'room_started',
  'invalid',
  'network',
]);

const REFUSALS = new Set(REFUSAL_CODES);

/** A REST error in words (never the raw code). */
export function apiErrorText(err) {
  const code = err && err.code;
  if (API_ERRORS.has(code)) return t(`error.${code}`);
  return REFUSALS.has(code) ? t(`reject.${code}`) : t('error.generic');
}

export function isZeroAmount(amount) {
  return !amount || /^0*(\.0*)?$/.test(String(amount));
}

// ---------------------------------------------------------------- numbers and money by locale
const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?$/;
// The server's currency when a table names none ("chips"): a word of ours, so it is translated.
export const DEFAULT_CURRENCY = TABLE_OPTIONS.currency.default;
const formats = new Map();
function numberFormat(options) {
  const key = `${getLang()}|${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, new Intl.NumberFormat(getLang(), options));
  return formats.get(key);
}

/**
 * Points and counts in the page's language; 4-digit scores stay ungrouped ("1001", "12,345"). A
 * negative number takes the true minus sign ("−40"), as the table's own totals do (model.js
 * `total`): Intl writes a hyphen-minus in some languages and not in others.
 */
export function num(n) {
  const value = Number(n);
  if (!Number.isFinite(value)) return String(n ?? '');
  const text = numberFormat({ useGrouping: 'min2', maximumFractionDigits: 2 }).format(Math.abs(value));
  return value < 0 && text !== '0' ? `−${text}` : text;
}

/** A change or a lead with its sign: "+361", "−98", and `zero` ("±0", or "+0" for a deal score). */
export function signedNum(n, zero = '±0') {
  const value = Number(n) || 0;
  return value > 0 ? `+${num(value)}` : value < 0 ? num(value) : zero;
}

const KNOWN_CURRENCIES = typeof Intl.supportedValuesOf === 'function' ? new Set(Intl.supportedValuesOf('currency')) : null;
function isCurrencyCode(cur) {
  if (!/^[A-Za-z]{3}$/.test(cur)) return false;
  return KNOWN_CURRENCIES ? KNOWN_CURRENCIES.has(cur.toUpperCase()) : true;
}

/** A currency as shown: the table's own label, or our translated word for the default one. */
export function currencyLabel(currency, amount = 2) {
  const cur = String(currency || '').trim();
  if (!cur || cur === DEFAULT_CURRENCY) return tn('money.chips', Number(amount) || 0);
  return cur;
}

/**
 * Money from the server's exact decimal string, formatted by the page's language (`0,05 €` in
 * German, `€0.05` in English) without ever going through a binary float (R6.1): Intl.NumberFormat
 * formats decimal strings exactly. An ISO 4217 code gets its symbol; any other label (the table
 * chose it, e.g. "chips") follows the number.
 */
export function money(amount, currency) {
  const text = String(amount ?? '').trim();
  const m = DECIMAL.exec(text);
  const cur = String(currency || '').trim();
  if (!m) return `${text} ${currencyLabel(cur)}`.trim();
  const exact = `${m[1]}${m[2]}.${m[3] || '0'}`;
  const digits = (m[3] || '').replace(/0+$/, '').length;
  if (isCurrencyCode(cur)) {
    try {
      const base = numberFormat({ style: 'currency', currency: cur.toUpperCase() }).resolvedOptions();
      const min = base.minimumFractionDigits;
      return numberFormat({ style: 'currency', currency: cur.toUpperCase(), minimumFractionDigits: min, maximumFractionDigits: Math.max(min, digits) }).format(exact);
    } catch {
      /* not a currency Intl knows: the label follows the number */
    }
  }
  const number = numberFormat({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(exact);
  return `${number}\u00a0${currencyLabel(cur, exact)}`;
}

/**
 * A settlement in words from the viewer's side (R6, V0.10): "You owe Ben €1", "Ben owes you €1",
 * or between two others "Ben owes Cleo €1". `debtor` and `creditor` are names; `mine` says which
 * side the viewer is on ('debtor', 'creditor' or null).
 */
/** A rating change as shown (the API's RatingChangeOut): "Rating 1523 (+14)". */
export function ratingText(change) {
  return t('rating.change', { rating: num(change.after), delta: signedNum(change.change) });
}

export function settlementWords({ debtor, creditor, amount, currency }, mine = null) {
  const text = money(amount, currency);
  if (mine === 'debtor') return t('match.stake.you_owe', { name: creditor, amount: text });
  if (mine === 'creditor') return t('match.stake.owes_you', { name: debtor, amount: text });
  return t('history.settlement.owes', { debtor, creditor, amount: text });
}

/** "Anna", "Anna and Ben", "Anna, Ben and Cleo" in the page's language. */
export function namesList(names) {
  try {
    return new Intl.ListFormat(getLang(), { type: 'conjunction' }).format(names);
  } catch {
    return names.join(', ');
  }
}

/**
 * A match left by one player at a table of three or four, in players' words (R6.2, ruling V0.10a:
 * the one who left loses alone, everyone who stayed shares the win): "Ben left the match — Anna and
 * Cleo share the win", "You left the match — …", "Ben left the match — you share the win with Cleo".
 * `name(seat)` is a seat's plain name, `me` the viewer's seat (null for a spectator). Null when the
 * match was not left, or at a table of two (one winner: the usual words).
 */
export function sharedWinWords({ places, loser, me = null, name }) {
  if (!Array.isArray(places) || places.length < 3 || !Number.isInteger(loser)) return null;
  const stayed = places.map((_, seat) => seat).filter((seat) => seat !== loser);
  // Each text is a plural key: its form follows how many names it lists (ru: "с игроком" / "с игроками").
  if (loser === me) return tn('match.you_left_shared', stayed.length, { names: namesList(stayed.map(name)) });
  if (stayed.includes(me)) {
    const others = stayed.filter((seat) => seat !== me);
    return tn('match.left_you_share', others.length, { loser: name(loser), names: namesList(others.map(name)) });
  }
  return tn('match.left_shared', stayed.length, { loser: name(loser), names: namesList(stayed.map(name)) });
}

/**
 * Why a match ended, addressed to the reader (`me`: the reader's seat, null for a spectator): "You
 * resigned.", "Ben was away for too long.", "You reached 1001." (R5, R6.2).
 */
export function endReasonWords({ endReason, loser = null, winner = null, target, me = null, name }) {
  if (endReason === 'resign' || endReason === 'absence') {
    if (!Number.isInteger(loser)) return null;
    if (loser === me) return t(endReason === 'absence' ? 'match.reason.you_absent' : 'match.reason.you_resigned');
    return t(endReason === 'absence' ? 'match.reason.absence' : 'match.reason.resign', { loser: name(loser) });
  }
  if (!Number.isInteger(winner)) return null;
  return winner === me ? t('match.reason.you_reached', { target }) : t('match.reason.target', { winner: name(winner), target });
}

/**
 * Who came first in a finished match, addressed to the reader: a match left at a table of three or
 * four in `sharedWinWords`'s words, else "You won", "Anna won", "You shared first place with Ben",
 * "Anna and Ben shared first place" (`places` per seat, 1 the best; `loser` the seat that left).
 */
export function firstPlaceWords({ places, loser = null, me = null, name }) {
  const shared = sharedWinWords({ places, loser, me, name });
  if (shared) return shared;
  const firsts = (places || []).map((place, seat) => (place === 1 ? seat : null)).filter((seat) => seat !== null);
  if (!firsts.length) return null;
  if (firsts.includes(me)) {
    const others = firsts.filter((seat) => seat !== me);
    return others.length ? tn('h2h.you_shared', others.length, { names: namesList(others.map(name)) }) : t('h2h.you_won');
  }
  return tn('h2h.winner', firsts.length, { names: namesList(firsts.map(name)) });
}

/** The head-to-head page of 2–4 people (views/h2h.js): the viewer first, then the others. */
export function h2hHref(ids) {
  return `#/h2h/${ids.map(encodeURIComponent).join(',')}`;
}

export function inviteUrl(code) {
  return `${location.origin}/#/invite/${encodeURIComponent(code)}`;
}

/** The client link to one deal's replay; a private table's watch code (if any) goes along, so that
 * a spectator without an account may open it (views/replay.js). */
export function replayHref(matchId, number, code = null) {
  return `#/replay/${encodeURIComponent(matchId)}/${number}${code ? `/${encodeURIComponent(code)}` : ''}`;
}

/** The form asking for a display name (first visit, or opening an invite link). */
export function nameForm(onDone) {
  const input = h('input', {
    id: 'name-input',
    'data-testid': 'name-input',
    type: 'text',
    maxlength: 24,
    required: true,
    autocomplete: 'nickname',
    placeholder: t('name.placeholder'),
  });
  const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'name-error' });
  const button = h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'save-name', text: t('name.save') });
  const form = h(
    'form',
    { class: 'card-panel name-form', 'data-testid': 'name-form' },
    h('h2', { text: t('name.title') }),
    h('p', { class: 'muted', text: t('name.help') }),
    h('label', { for: 'name-input', class: 'field-label', text: t('name.label') }),
    h('div', { class: 'inline-field' }, input, button),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      error.textContent = t('name.empty');
      return;
    }
    button.disabled = true;
    error.textContent = '';
    try {
      const player = await api.createPlayer(name);
      setPlayer(player);
      onDone(player);
    } catch (err) {
      error.textContent = err.status === 422 ? t('name.invalid') : apiErrorText(err);
      button.disabled = false;
    }
  });
  setTimeout(() => input.focus(), 0);
  return form;
}

export const BOT_LEVELS = TABLE_OPTIONS.bot_level.values;

/** "Computer (hard)" in the current language. */
export function botName(level) {
  return t('bot.name', { level: BOT_LEVELS.includes(level) ? t(`bot.level.${level}`) : String(level) });
}

/**
 * A player's display name: the computer is named by its level, translated. Given the table's
 * `players`, several computers at one table (3 or 4 seats) are numbered in seat order:
 * "Computer 1 (easy)", "Computer 2 (easy)".
 */
export function playerName(player, players = null) {
  if (!player) return '?';
  if (!player.bot_level) return player.name || '?';
  const n = botNumber(player, players);
  return n ? t('bot.name_n', { n, level: BOT_LEVELS.includes(player.bot_level) ? t(`bot.level.${player.bot_level}`) : String(player.bot_level) }) : botName(player.bot_level);
}

/** Which computer of the table a computer seat is (1, 2, …), or 0 when it is the only one. */
export function botNumber(player, players) {
  const bots = (Array.isArray(players) ? players : []).filter((p) => p && p.bot_level);
  if (bots.length < 2) return 0;
  const i = bots.findIndex((p) => p === player || (p.id && p.id === player.id));
  return i < 0 ? 0 : i + 1;
}

/** R6.2 grace in words: "2 min", "45 s". */
export function durationText(seconds) {
  const s = Number(seconds) || 0;
  return s >= 60 ? t('time.minutes', { n: Math.round(s / 60) }) : t('time.seconds', { n: s });
}

/** "1001 points · by suit · stake 0.01 EUR" as a list of labelled chips. */
/**
 * The computer seats of a table as one chip: "Opponent: Computer (easy)" at two seats; with three or
 * four seats how many (plural forms by Intl.PluralRules) — "Opponents: 3 computers (easy)" when every
 * other seat is the computer's, "Computer seats: 2 computers (easy)" at a table shared with people.
 */
function computerChip(options) {
  if (!options.bot_level) return null;
  const count = Array.isArray(options.computer_seats) && options.computer_seats.length ? options.computer_seats.length : 1;
  const seats = Number(options.seats) || 2;
  if (seats <= 2) return [t('opt.opponent'), botName(options.bot_level), 'opponent', count];
  const level = BOT_LEVELS.includes(options.bot_level) ? t(`bot.level.${options.bot_level}`) : String(options.bot_level);
  const label = count === seats - 1 ? tn('opt.opponents', count) : tn('opt.computer_seats', count);
  return [label, count > 1 ? tn('opt.computers_n', count, { level }) : botName(options.bot_level), 'opponent', count];
}

/** R6.3: the table is played at days per move (`options.pace`), not live. */
export function turnBased(options = {}) {
  return Boolean(options.pace) && options.pace !== 'live';
}

/** R6.3: every seat but one person's is the computer's, so the table never ends by that person's absence. */
export function onlyComputersWait(options = {}) {
  const seats = options.seats ?? 2;
  return (options.computer_seats || []).length === seats - 1;
}

export function optionsSummary(options = {}) {
  const chips = [
    computerChip(options),
    [t('opt.target'), num(options.target ?? 1001), 'target'],
    [t('opt.scoring'), t(`opt.scoring.${options.declaration_scoring || 'by_suit'}`), 'scoring'],
    [t('opt.deck'), options.deck_size === 32 ? t('opt.deck.short.32') : t('opt.deck.short.24'), 'deck'],
    // Yes/no options only when on: their absence says "no" without filling the panel.
    options.show_stock_bottom ? [t('opt.stock_bottom'), t('common.yes'), 'stock-bottom'] : null,
    options.open_scores ? [t('opt.open_scores'), t('common.yes'), 'open-scores'] : null,
    [
      t('opt.stake'),
      isZeroAmount(options.stake_per_point)
        ? t('opt.stake.friendly')
        : t('opt.stake.per_point', { amount: money(options.stake_per_point, options.currency) }),
      'stake',
    ],
    // R6.3: a turn-based table's days per move; a live one's seat hold (R6.2) where another person waits.
    turnBased(options) ? [t('opt.pace'), hasKey(`opt.pace.${options.pace}`) ? t(`opt.pace.${options.pace}`) : options.pace, 'pace'] : null,
    !turnBased(options) && !onlyComputersWait(options) ? [t('opt.grace.short'), durationText(options.reconnect_grace_s ?? 120), 'grace'] : null,
  ].filter(Boolean);
  return h(
    'dl',
    { class: 'options-summary', 'data-testid': 'options-summary' },
    chips.map(([k, v, id, count]) => h('div', { class: 'opt-chip', 'data-opt': id, 'data-count': count === undefined ? null : String(count) }, h('dt', { text: k }), h('dd', { text: v }))),
  );
}

/**
 * A link to pass on: a read-only field, Copy, and Share through the system sheet (messengers, mail …)
 * where the browser offers the Web Share API. `ids` are the test ids of the field, the Copy and
 * Share buttons and the status line; `keys` the i18n keys of label, copy, copied, copy_failed,
 * share and share_text.
 */
export function linkBox(url, ids, keys) {
  const input = h('input', {
    type: 'text',
    readonly: true,
    class: 'invite-input',
    'data-testid': ids.field,
    'aria-label': t(keys.label),
    value: url,
  });
  input.addEventListener('focus', () => input.select());
  const status = h('span', { class: 'copy-status', role: 'status', 'data-testid': ids.status });
  const copy = h('button', {
    type: 'button',
    class: 'btn',
    'data-testid': ids.copy,
    text: t(keys.copy),
    onclick: async () => {
      const ok = await copyText(url);
      status.textContent = ok ? t(keys.copied) : t(keys.copy_failed);
      if (!ok) input.select();
      setTimeout(() => (status.textContent = ''), 2500);
    },
  });
  const share =
    typeof navigator.share === 'function'
      ? h('button', {
          type: 'button',
          class: 'btn primary',
          'data-testid': ids.share,
          text: t(keys.share),
          onclick: async () => {
            try {
              await navigator.share({ title: t('app.title'), text: t(keys.share_text), url });
            } catch {
              /* the player closed the sheet: nothing to say */
            }
          },
        })
      : null;
  return h('div', { class: 'invite-box' }, h('div', { class: 'inline-field' }, input, copy, share), status);
}

/** The invite link of a table, with Copy and Share. */
export function inviteBox(code) {
  return linkBox(
    inviteUrl(code),
    { field: 'invite-link', copy: 'copy-invite', share: 'share-invite', status: 'copy-status' },
    { label: 'invite.link_label', copy: 'invite.copy', copied: 'invite.copied', copy_failed: 'invite.copy_failed', share: 'invite.share', share_text: 'invite.share_text' },
  );
}

// ---------------------------------------------------------------- dialogs (focus trap, return of focus)
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** The elements of `root` that Tab reaches, in order (visible ones only). */
export function focusables(root) {
  return [...root.querySelectorAll(FOCUSABLE)].filter(
    (el) => !el.closest('[inert]') && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden',
  );
}

const openDialogs = []; // the stack of open modals, the topmost last

/**
 * A modal dialog; returns {el, close}. While it is open the page behind it is inert and Tab cycles
 * inside it; Escape or the backdrop closes it when `dismissable`. On closing, focus goes back to
 * `returnFocus` (an element, or a function returning one, e.g. when the opener was re-rendered)
 * or else to the element that had it when the dialog opened; failing both, to the page's content.
 */
export function modal({ title, body, actions, testid, dismissable = true, onClose, returnFocus }) {
  const titleId = `dlg-${Math.random().toString(36).slice(2, 8)}`;
  const dialog = h(
    'div',
    {
      class: 'dialog',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': titleId,
      'data-testid': testid,
      tabindex: '-1',
    },
    h('h2', { id: titleId, text: title }),
    body,
    h('div', { class: 'dialog-actions' }, actions),
  );
  const backdrop = h('div', { class: 'backdrop' }, dialog);
  const previous = document.activeElement;
  // Everything else on the page is inert while the dialog is open (toasts keep speaking).
  const madeInert = [...document.body.children].filter(
    (el) => el !== backdrop && !el.inert && !el.classList.contains('toast'),
  );
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    backdrop.remove();
    for (const el of madeInert) el.inert = false;
    const index = openDialogs.indexOf(entry);
    if (index >= 0) openDialogs.splice(index, 1);
    document.removeEventListener('keydown', onKey, true);
    const wanted = typeof returnFocus === 'function' ? returnFocus() : returnFocus;
    const target = [wanted, previous].find(
      (el) => el && el.isConnected && el !== document.body && !el.closest('[inert]') && el.getClientRects().length > 0,
    );
    // The page stays where it is; with no opener left, the page's content takes focus, never <body>.
    if (target) target.focus({ preventScroll: true });
    else if (!openDialogs.length) focusContent({ preventScroll: true });
    if (onClose) onClose();
  };
  const entry = { close };
  const onKey = (event) => {
    if (openDialogs[openDialogs.length - 1] !== entry) return; // only the topmost dialog answers
    if (event.key === 'Escape') {
      // The dialog's own: the page behind (an open sheet, a summary) must not close on it too.
      event.preventDefault();
      event.stopPropagation();
      if (dismissable) close();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = focusables(dialog);
    if (!items.length) {
      event.preventDefault();
      dialog.focus();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const inside = dialog.contains(document.activeElement);
    if (event.shiftKey && (!inside || document.activeElement === first || document.activeElement === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
      event.preventDefault();
      first.focus();
    }
  };
  if (dismissable) backdrop.addEventListener('click', (event) => event.target === backdrop && close());
  document.addEventListener('keydown', onKey, true);
  document.body.appendChild(backdrop);
  for (const el of madeInert) el.inert = true;
  openDialogs.push(entry);
  const autofocus = dialog.querySelector('[autofocus]') || focusables(dialog)[0] || dialog;
  autofocus.focus({ preventScroll: true });
  return { el: backdrop, close };
}

/**
 * Focus the current view's content: its first heading (made focusable for the purpose), else
 * <main>. The "Skip to content" link and dialogs without an opener land here.
 */
export function focusContent(options = {}) {
  const main = document.getElementById('main');
  if (!main) return;
  const heading = [...main.querySelectorAll('h1, h2, [role="heading"]')].find((el) => el.getClientRects().length > 0);
  const target = heading || main;
  if (target !== main && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus(options);
}

// "Skip to content" (index.html) must not change the hash: that is the router's, and "#main" would
// send the player to the lobby. It moves focus to the current view's content instead.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('.skip-link') : null;
  if (!link) return;
  event.preventDefault();
  focusContent();
});

let toastTimer = null;
export function toast(text, testid = 'toast') {
  let el = document.querySelector('.toast');
  if (!el) {
    el = h('div', { class: 'toast', role: 'status' });
    document.body.appendChild(el);
  }
  el.setAttribute('data-testid', testid);
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('show'), 4000);
}

export function loading() {
  return h('p', { class: 'loading', 'data-testid': 'loading', text: t('common.loading') });
}
