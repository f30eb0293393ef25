// The line between the trick and the own hand: whose turn it is and to do what, and the deal's phase
// (the auction, the talon, the play — with a stock, R4's two phases: the stock open, then follow and
// beat — or the deal over), for every game from the same data (`deal.phase`, `deal.stock_count`).
import { h, setAttr } from '../dom.js';
import { patchChildren } from './patch.js';
import { t } from '../i18n.js';
import { hasStock, talonKeys } from './model.js';
import { auctionTurn, dealOf, discardTurn, matchOver, myTurn, phaseOf, viewOf } from './store.js';
import { cardShort, isBot, plainName } from './names.js';

export function createStatus() {
  const el = h('div', { class: 'turn-line', 'data-testid': 'turn-indicator', 'aria-live': 'polite' });

  function render(s) {
    const d = dealOf(s);
    if (!d) return;
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
    setAttr(el, 'class', `turn-line${mine ? ' mine' : ''}`);
    setAttr(el, 'data-my-turn', String(mine));
    // the deal over (held behind its summary): no one's turn, only the chip that says so (issue 22);
    // the match over: the line says it, no chip. Kept and patched: only the words that change are written.
    setAttr(el, 'data-held', String(Boolean(s.held)));
    patchChildren(el, [s.held ? null : h('span', { class: 'turn-text', text }), matchOver(s) ? null : phaseChip(s, { testid: 'phase' })]);
  }

  return { el, render };
}

/**
 * The deal's phase as a chip (`data-phase`: auction, discard, play, over, thrown_in); in the play of
 * a game with a stock, R4's phase (`data-stock`): the stock open (any card) or empty (follow and beat).
 */
export function phaseChip(s, { testid = null } = {}) {
  const d = dealOf(s);
  const phase = phaseOf(s) || 'play';
  const shown = s.held ? 'over' : phase;
  const chip = h('span', { class: 'phase-chip', 'data-testid': testid, 'data-phase': shown });
  if (shown === 'play' && hasStock(viewOf(s))) {
    const open = d.stock_count > 0;
    chip.dataset.stock = open ? 'open' : 'empty';
    chip.textContent = t(open ? 'table.phase1_short' : 'table.phase2_short');
    chip.title = t(open ? 'table.phase1' : 'table.phase2');
  } else if (shown === 'thrown_in') chip.textContent = t('ring.thrown_in_short');
  else if (shown === 'discard') chip.textContent = t(talonKeys(viewOf(s)).phase);
  else chip.textContent = t(`ring.phase.${['auction', 'discard', 'play'].includes(shown) ? shown : 'over'}`);
  return chip;
}
