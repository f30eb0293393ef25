// The auction (V0.6) in the middle of the felt: every call so far, the high bid and who holds it,
// and — only on my turn (`view.may_pass`) — a stepper over `view.bids` (− amount +), Bid and Pass.
// The amounts come from the server; the store keeps the one shown (`local/bid`).
import { h, setAttr, setText } from '../dom.js';
import { patchChildren } from './patch.js';
import { t } from '../i18n.js';
import { isBot, plainName } from './names.js';
import { auction, auctionTurn, bidAmount, dealOf, isBlocking, isMe, mySeat, phaseOf, viewOf } from './store.js';

export function createAuction({ onStep, onBid, onPass }) {
  const calls = h('ol', { class: 'auction-calls', 'data-testid': 'auction-calls' });
  const high = h('p', { class: 'auction-high', 'data-testid': 'high-bid' });
  const down = h('button', { type: 'button', class: 'btn step', 'data-testid': 'bid-down', onclick: () => onStep(-1) }, '−');
  const amount = h('output', { class: 'bid-amount', 'data-testid': 'bid-amount', 'aria-live': 'polite' });
  const up = h('button', { type: 'button', class: 'btn step', 'data-testid': 'bid-up', onclick: () => onStep(1) }, '+');
  const submit = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'bid-submit', onclick: () => onBid() });
  const pass = h('button', { type: 'button', class: 'btn', 'data-testid': 'pass', onclick: () => onPass() });
  const stepper = h('div', { class: 'bid-stepper', role: 'group' }, down, amount, up);
  const controls = h('div', { class: 'bid-row' }, stepper, submit, pass);
  const note = h('p', { class: 'auction-note' });
  const title = h('h2', { class: 'auction-title', id: 'auction-h' });
  const el = h('section', { class: 'auction', 'data-testid': 'auction', 'aria-labelledby': 'auction-h' }, title, calls, high, controls, note);
  el.addEventListener('keydown', (event) => {
    if (controls.hidden) return;
    if (event.key === 'ArrowUp' || event.key === '+') onStep(1);
    else if (event.key === 'ArrowDown' || event.key === '-') onStep(-1);
    else return;
    event.preventDefault();
  });

  function render(s) {
    const v = viewOf(s);
    const d = dealOf(s);
    if (!v || !d) return;
    const me = mySeat(s);
    const a = auction(s);
    const name = (seat) => (isMe(s, seat) ? t('ring.you') : plainName(s, seat));
    // written only where it changes (issue 42): the calls kept, a new one added
    setText(title, t('ring.auction'));
    setAttr(el, 'data-phase', phaseOf(s) || '');
    patchChildren(
      calls,
      a.calls.length
        ? a.calls.map((c) =>
            h(
              'li',
              { class: `call ${c.bid === null ? 'passed' : 'bid'}`, 'data-seat': String(c.seat), 'data-bid': c.bid === null ? 'pass' : String(c.bid) },
              h('span', { class: 'who', text: name(c.seat) }),
              h('strong', { text: c.bid === null ? t('ring.pass_call') : String(c.bid) }),
            ),
          )
        : [h('li', { class: 'call none', text: t('ring.no_calls') })],
    );
    setAttr(high, 'data-amount', a.high === null ? '' : String(a.high));
    setAttr(high, 'data-seat', a.holder === null ? '' : String(a.holder));
    setText(high, a.high === null ? t('ring.no_bid_yet') : t('ring.high_bid', { n: a.high, name: name(a.holder) }));

    const mine = auctionTurn(s);
    const busy = isBlocking(s);
    if (controls.hidden !== !mine) controls.hidden = !mine;
    const bid = bidAmount(s);
    const bids = v.bids || [];
    if (mine) {
      amount.textContent = bid === null ? '—' : String(bid);
      amount.dataset.amount = bid === null ? '' : String(bid);
      stepper.setAttribute('aria-label', t('ring.bid_amount'));
      down.setAttribute('aria-label', t('ring.bid_less'));
      up.setAttribute('aria-label', t('ring.bid_more'));
      down.disabled = busy || bid === null || bid === bids[0];
      up.disabled = busy || bid === null || bid === bids[bids.length - 1];
      stepper.hidden = bid === null;
      submit.hidden = bid === null;
      submit.disabled = busy;
      submit.textContent = t('ring.bid_button', { n: bid ?? '' });
      pass.disabled = busy;
      pass.textContent = t('ring.pass_button');
    }
    let text = '';
    if (phaseOf(s) === 'thrown_in') text = t('ring.thrown_in_short');
    else if (mine && bid === null) text = t('ring.no_bid_possible');
    else if (mine) text = t('ring.bid_hint', { min: bids[0], max: bids[bids.length - 1] });
    else if (isMe(s, me) && a.passed[me]) text = t('ring.you_passed');
    else if (d.turn !== null && d.turn !== undefined) text = t(isBot(s, d.turn) ? 'table.bot_thinking' : 'ring.bidding', { name: plainName(s, d.turn) });
    setText(note, text);
    if (note.hidden !== !text) note.hidden = !text;
  }

  return {
    el,
    render,
    focus() {
      if (!controls.hidden && !submit.hidden) submit.focus({ preventScroll: true });
      else if (!controls.hidden) pass.focus({ preventScroll: true });
    },
  };
}
