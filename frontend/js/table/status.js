// The line between the trick and the own hand: whose turn it is, and the phase (R4).
import { h, setChildren } from '../dom.js';
import { t } from '../i18n.js';
import { dealOf, matchOver, myTurn, oppSeat } from './store.js';
import { cardShort, isBot, plainName } from './names.js';

export function createStatus() {
  const el = h('div', { class: 'turn-line', 'data-testid': 'turn-indicator', 'aria-live': 'polite' });

  function render(s) {
    const d = dealOf(s);
    if (!d) return;
    let text;
    const mine = myTurn(s);
    if (matchOver(s)) text = t('table.match_over');
    else if (s.held) text = t('table.deal_over_pause');
    else if (mine) {
      const lead = d.trick && d.trick.cards && d.trick.cards[0];
      text = lead ? t('table.your_turn_answer', { card: cardShort(lead) }) : t('table.your_turn_lead');
    } else text = t(isBot(s, oppSeat(s)) ? 'table.bot_thinking' : 'table.their_turn', { name: plainName(s, oppSeat(s)) });
    el.className = `turn-line${mine ? ' mine' : ''}`;
    el.dataset.myTurn = String(mine);
    const phase = d.phase === 2 ? 2 : 1;
    setChildren(el, h('span', { class: 'turn-text', text }), h('span', { class: 'phase-chip', 'data-testid': 'phase', 'data-phase': String(phase), text: t(phase === 2 ? 'table.phase2_short' : 'table.phase1_short'), title: t(phase === 2 ? 'table.phase2' : 'table.phase1') }));
  }

  return { el, render };
}
