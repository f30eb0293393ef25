// The table's dialogs: declaring a marriage (R3) and resigning with its price (R6.2).
import { cardEl, SUIT_SYMBOL, suitName, suitOf } from '../cards.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { isZeroAmount, modal, money } from '../ui.js';
import { otherSeats, roomOf } from './store.js';
import { plainName } from './names.js';

/** R3: lead `code` with or without declaring its marriage; `points` come from the server. */
export function declareDialog({ code, points, onChoose, returnFocus }) {
  const suit = suitOf(code);
  let dlg = null;
  const choose = (declare) => () => {
    dlg.close();
    onChoose(declare);
  };
  dlg = modal({
    title: t('declare.title'),
    testid: 'declare-dialog',
    returnFocus,
    body: h('div', { class: 'declare-body' }, cardEl(code, { className: 'small' }), h('p', { text: t('declare.explain', { suit: suitName(suit) }) })),
    actions: [
      h('button', { type: 'button', class: 'btn primary', 'data-testid': 'declare-yes', onclick: choose(true) }, t('declare.yes', { symbol: SUIT_SYMBOL[suit], points })),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'declare-no', onclick: choose(false), text: t('declare.no') }),
      h('button', { type: 'button', class: 'btn ghost', 'data-testid': 'declare-cancel', onclick: () => dlg.close(), text: t('common.cancel') }),
    ],
  });
  return dlg;
}

/**
 * What resigning now costs, from the server's `resign_price` (null: no stake): R6.2 at a table of
 * two, owed to the other; V0.10a at three or four, owed to each other player.
 */
export function resignPriceText(s) {
  const msg = s.msg || {};
  const room = roomOf(s);
  const options = (room && room.options) || {};
  const price = msg.resign_price;
  const others = otherSeats(s);
  if (price && !isZeroAmount(price.amount)) {
    const amount = money(price.amount, price.currency);
    if (others.length === 1) return t('resign.price', { amount, name: plainName(s, price.creditor_seat ?? others[0]) });
    return t('resign.price_each', { amount, names: others.map((seat) => plainName(s, seat)).join(', ') });
  }
  // no stake at this table, or nothing short of the target any more (R5.1)
  return isZeroAmount(options.stake_per_point ?? '0') ? t('resign.price_none') : t('resign.price_zero');
}

export function resignDialog({ s, onConfirm, returnFocus }) {
  let dlg = null;
  dlg = modal({
    title: t('resign.title'),
    testid: 'resign-dialog',
    returnFocus,
    body: h('div', {}, h('p', { class: 'resign-price', 'data-testid': 'resign-price', text: resignPriceText(s) }), h('p', { class: 'muted small', text: t('resign.explain') })),
    actions: [
      h('button', {
        type: 'button',
        class: 'btn danger',
        'data-testid': 'resign-yes',
        text: t('resign.yes'),
        onclick: () => {
          dlg.close();
          onConfirm();
        },
      }),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'resign-no', text: t('resign.no'), onclick: () => dlg.close() }),
    ],
  });
  return dlg;
}
