// The talon and the discard (V0.7) in the middle of the felt. The declarer sees the talon it took
// (`deal.talon`, now in its hand) and lays two cards of its hand away: tap two cards (hand.js, the
// store's `local/discard_toggle`), then Discard (only with `view.must_discard`). Everyone else sees
// that the declarer is discarding — never which cards (V0.11).
import { cardBack, cardEl } from '../cards.js';
import { h } from '../dom.js';
import { patchChildren } from './patch.js';
import { t } from '../i18n.js';
import { isBot, plainName } from './names.js';
import { DISCARD_COUNT, talonKeys } from './model.js';
import { canSubmitDiscard, dealOf, discardTurn, isBlocking, isMe, viewOf } from './store.js';

export function createDiscard({ onDiscard }) {
  const title = h('h2', { class: 'discard-title', id: 'discard-h' });
  const talon = h('div', { class: 'talon-cards', 'data-testid': 'talon' });
  const hint = h('p', { class: 'discard-hint' });
  const picked = h('p', { class: 'discard-count', 'data-testid': 'discard-count', 'aria-live': 'polite' });
  const submit = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'discard-submit', onclick: () => onDiscard() });
  const row = h('div', { class: 'discard-row' }, picked, submit);
  const el = h('section', { class: 'discard', 'data-testid': 'discard', 'aria-labelledby': 'discard-h' }, title, talon, hint, row);

  function render(s) {
    const d = dealOf(s);
    if (!d) return;
    const mine = discardTurn(s);
    const words = talonKeys(viewOf(s));
    el.dataset.mine = String(mine);
    if (mine) {
      title.textContent = t(words.youTook, { n: d.contract });
      talon.hidden = false;
      talon.setAttribute('data-testid', 'talon');
      patchChildren(talon, (d.talon || []).map((code) => cardEl(code, { className: 'small', attrs: { 'data-testid': `talon-card-${code}` } })));
      hint.textContent = t('ring.discard_hint');
      row.hidden = false;
      picked.textContent = t('ring.discard_picked', { n: s.discard.length, of: DISCARD_COUNT });
      picked.dataset.count = String(s.discard.length);
      submit.textContent = t('ring.discard_button');
      submit.disabled = !canSubmitDiscard(s) || isBlocking(s);
      return;
    }
    const who = d.declarer;
    title.textContent = isMe(s, who) ? t(words.youTook, { n: d.contract }) : t(words.took, { name: plainName(s, who), n: d.contract });
    talon.hidden = false;
    talon.removeAttribute('data-testid'); // backs only: nobody else sees the talon (V0.7a)
    patchChildren(talon, Array.from({ length: DISCARD_COUNT }, () => cardBack({ className: 'small' })));
    hint.textContent = t(isBot(s, who) ? 'table.bot_thinking' : 'ring.discarding', { name: plainName(s, who) });
    row.hidden = true;
  }

  return {
    el,
    render,
    focus() {
      if (!submit.disabled) submit.focus({ preventScroll: true });
    },
  };
}
