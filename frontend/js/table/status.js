// The line between the trick and the own hand: whose turn it is, and the phase (R4; at 3 or 4
// seats the deal's phase: auction, discard, play).
import { h, setChildren } from '../dom.js';
import { t } from '../i18n.js';
import { auctionTurn, dealOf, discardTurn, isRing, matchOver, myTurn, oppSeat, phaseOf } from './store.js';
import { cardShort, isBot, plainName } from './names.js';

export function createStatus() {
  const el = h('div', { class: 'turn-line', 'data-testid': 'turn-indicator', 'aria-live': 'polite' });

  function render(s) {
    const d = dealOf(s);
    if (!d) return;
    if (isRing(s)) return renderRing(s, d);
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

  function renderRing(s, d) {
    const mine = myTurn(s);
    const phase = phaseOf(s);
    const who = Number.isInteger(d.turn) ? d.turn : null;
    const waiting = (key) => t(who !== null && isBot(s, who) ? 'table.bot_thinking' : key, { name: who === null ? '' : plainName(s, who) });
    let text;
    if (matchOver(s)) text = t('table.match_over');
    else if (s.held) text = t('table.deal_over_pause');
    else if (phase === 'auction') text = auctionTurn(s) ? t('ring.your_call') : waiting('ring.bidding');
    else if (phase === 'discard') text = discardTurn(s) ? t('ring.your_discard') : waiting('ring.discarding');
    else if (mine) {
      const lead = d.trick && d.trick.cards && d.trick.cards[0];
      text = lead ? t('table.your_turn_answer', { card: cardShort(lead) }) : t('table.your_turn_lead');
    } else text = waiting('table.their_turn');
    el.className = `turn-line${mine ? ' mine' : ''}`;
    el.dataset.myTurn = String(mine);
    const shown = s.held ? 'over' : phase || 'play';
    setChildren(el, h('span', { class: 'turn-text', text }), h('span', { class: 'phase-chip', 'data-testid': 'phase', 'data-phase': shown, text: t(`ring.phase.${['auction', 'discard', 'play'].includes(shown) ? shown : 'over'}`) }));
  }

  return { el, render };
}
