// Pieces shared by the views: the name form, option summaries, invite box, dialogs, toasts.
import { api } from './api.js';
import { copyText, h } from './dom.js';
import { REFUSAL_CODES, TABLE_OPTIONS } from './generated/protocol.js';
import { t } from './i18n.js';
import { setPlayer } from './session.js';

const API_ERRORS = new Set([
  'unauthorized',
  'room_not_found',
  'match_not_found',
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

/** Money from the server's exact decimal string, never through a float (R6.1). */
export function money(amount, currency) {
  return `${amount} ${currency || ''}`.trim();
}

export function inviteUrl(code) {
  return `${location.origin}/#/invite/${encodeURIComponent(code)}`;
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

/** A player's display name: the computer is named by its level, translated. */
export function playerName(player) {
  if (!player) return '?';
  return player.bot_level ? botName(player.bot_level) : player.name || '?';
}

/** R6.2 grace in words: "2 min", "45 s". */
export function durationText(seconds) {
  const s = Number(seconds) || 0;
  return s >= 60 ? t('time.minutes', { n: Math.round(s / 60) }) : t('time.seconds', { n: s });
}

/** "1001 points · by suit · stake 0.01 EUR" as a list of labelled chips. */
export function optionsSummary(options = {}) {
  const chips = [
    options.bot_level ? [t('opt.opponent'), botName(options.bot_level), 'opponent'] : null,
    [t('opt.target'), String(options.target ?? 1001), 'target'],
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
    [t('opt.grace.short'), durationText(options.reconnect_grace_s ?? 120), 'grace'],
  ].filter(Boolean);
  return h(
    'dl',
    { class: 'options-summary', 'data-testid': 'options-summary' },
    chips.map(([k, v, id]) => h('div', { class: 'opt-chip', 'data-opt': id }, h('dt', { text: k }), h('dd', { text: v }))),
  );
}

/** The invite link in a read-only field with a Copy button. */
export function inviteBox(code) {
  const url = inviteUrl(code);
  const input = h('input', {
    type: 'text',
    readonly: true,
    class: 'invite-input',
    'data-testid': 'invite-link',
    'aria-label': t('invite.link_label'),
    value: url,
  });
  input.addEventListener('focus', () => input.select());
  const status = h('span', { class: 'copy-status', role: 'status', 'data-testid': 'copy-status' });
  const button = h('button', {
    type: 'button',
    class: 'btn',
    'data-testid': 'copy-invite',
    text: t('invite.copy'),
    onclick: async () => {
      const ok = await copyText(url);
      status.textContent = ok ? t('invite.copied') : t('invite.copy_failed');
      if (!ok) input.select();
      setTimeout(() => (status.textContent = ''), 2500);
    },
  });
  return h('div', { class: 'invite-box' }, h('div', { class: 'inline-field' }, input, button), status);
}

/** A modal dialog; returns {el, close}. Escape or the backdrop closes it when `dismissable`. */
export function modal({ title, body, actions, testid, dismissable = true, onClose }) {
  const titleId = `dlg-${Math.random().toString(36).slice(2, 8)}`;
  const dialog = h(
    'div',
    { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId, 'data-testid': testid },
    h('h2', { id: titleId, text: title }),
    body,
    h('div', { class: 'dialog-actions' }, actions),
  );
  const backdrop = h('div', { class: 'backdrop' }, dialog);
  const previous = document.activeElement;
  const close = () => {
    backdrop.remove();
    document.removeEventListener('keydown', onKey);
    if (previous && previous.isConnected) previous.focus({ preventScroll: true }); // the page stays where it is
    if (onClose) onClose();
  };
  const onKey = (event) => {
    if (event.key === 'Escape' && dismissable) close();
  };
  if (dismissable) backdrop.addEventListener('click', (event) => event.target === backdrop && close());
  document.addEventListener('keydown', onKey);
  document.body.appendChild(backdrop);
  const first = dialog.querySelector('button, input, [tabindex]');
  if (first) setTimeout(() => first.focus(), 0);
  return { el: backdrop, close };
}

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
