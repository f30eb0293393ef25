// The replay viewer's felt for 3 and 4 seats (views/replay.js, V2–V7). Each frame of the server's
// replay becomes the n-seat table's state (replayframe.js) and is drawn by the table's own
// components: ring.js (the seats with their calls, contract, declarations, tricks and card points;
// the trick with each card at its seat, the contract, trump, the discards and the last trick) with
// auction.js (the calls, the high bid and who holds it). What only a replay shows is added here:
// every hand face up (R7: the match is over), the talon face up in the auction and with its taker
// while it lays two cards away, what each step did in words, and the deal's score at the end.
import { cardEl, cardName, sortHand, suitName } from '../cards.js';
import { h, setChildren } from '../dom.js';
import { t } from '../i18n.js';
import { num } from '../ui.js';
import { createAuction } from './auction.js';
import { cardShort, plainName, shortName } from './names.js';
import { signed } from './nseat.js';
import { createRing } from './ring.js';
import { contractLine } from './ringsummary.js';
import { frameState, fromTalon, resultForSummary, scoreRows, stepFacts, talonShown } from './replayframe.js';

const none = () => {};

/** What step `step` did, in words: the call, the discard or the card, a marriage, the trick, the talon. */
export function eventLines(s, facts) {
  const who = (seat) => plainName(s, seat);
  const lines = [];
  const a = facts.action;
  if (facts.start) lines.push(t(facts.phase === 'auction' ? 'replay.start_auction' : 'replay.start', { name: who(facts.turn) }));
  else if (a.kind === 'bid') lines.push(t('replay.bid', { name: who(a.seat), n: num(a.amount) }));
  else if (a.kind === 'pass') lines.push(t('replay.pass', { name: who(a.seat) }));
  else if (a.kind === 'discard') lines.push(t('replay.discarded', { name: who(a.seat), a: cardName(a.cards[0]), b: cardName(a.cards[1]) }));
  else if (a.kind === 'play') lines.push(t('replay.played', { name: who(a.seat), card: cardName(a.card) }));
  if (facts.declared) {
    const d = facts.declared;
    lines.push(t('replay.declared', { name: who(d.seat), suit: suitName(d.suit), points: num(d.points) }));
  }
  if (facts.trickWon) lines.push(t('replay.trick_won', { name: who(facts.trickWon.seat), points: num(facts.trickWon.points) }));
  if (facts.tookTalon) {
    const x = facts.tookTalon;
    lines.push(t('replay.took_talon', { name: who(x.seat), n: num(x.contract), cards: x.cards.map(cardShort).join(' ') }));
  }
  if (facts.declarer) lines.push(t('replay.declarer', { name: who(facts.declarer.seat), n: num(facts.declarer.contract) }));
  // a throw-in is said by the deal's result below (ringsummary.js contractLine)
  return lines;
}

export function createRingReplay({ data, bottom = 0 }) {
  let frame = data.frames[0];
  let marks = new Set();

  // The middle of the felt in the auction: the table's own auction panel, and the talon face up.
  const auction = createAuction({ onStep: none, onBid: none, onPass: none });
  const talon = h('div', { class: 'talon-cards', 'data-testid': 'replay-talon' });
  const talonLabel = h('span', { class: 'label' });
  const talonBox = h('div', { class: 'talon-pile replay-talon-open' }, talonLabel, talon);
  const auctionPanel = {
    el: h('div', { class: 'replay-stage' }, auction.el, talonBox),
    render(s) {
      auction.render(s);
      const shown = talonShown(frame);
      talonBox.hidden = !shown;
      talonLabel.textContent = t('ring.talon');
      talon.dataset.cards = shown ? shown.cards.join(' ') : '';
      setChildren(talon, shown ? shown.cards.map((code) => cardEl(code, { className: 'small' })) : []);
    },
  };

  // The talon taken: its cards face up with their taker, who lays two cards of its hand away.
  const discardTitle = h('h2', { class: 'discard-title' });
  const discardCards = h('div', { class: 'talon-cards', 'data-testid': 'replay-talon-taken' });
  const discardHint = h('p', { class: 'discard-hint' });
  const discardPanel = {
    el: h('section', { class: 'discard replay-discard', 'data-testid': 'discard' }, discardTitle, discardCards, discardHint),
    render(s) {
      const shown = talonShown(frame);
      const seat = frame.declarer;
      discardTitle.textContent = t('ring.took_talon', { name: plainName(s, seat), n: num(frame.contract ?? 0) });
      discardCards.dataset.cards = shown ? shown.cards.join(' ') : '';
      setChildren(discardCards, shown ? shown.cards.map((code) => cardEl(code, { className: 'small' })) : []);
      discardHint.textContent = t('ring.discarding', { name: plainName(s, seat) });
    },
  };

  /** A seat's hand face up, in the table's order; the talon's cards marked while discarding. */
  const hands = (seat) => {
    const cards = frame.hands[seat] || [];
    return h(
      'div',
      { class: 'rs-hand', 'data-testid': `replay-hand-${seat}`, 'data-cards': cards.join(' '), style: `--count:${Math.max(1, cards.length)}` },
      sortHand(cards).map((code) => cardEl(code, { className: marks.has(code) ? 'from-talon' : '', attrs: marks.has(code) ? { title: t('ring.card_from_talon') } : {} })),
    );
  };
  const ring = createRing({ auction: auctionPanel, discard: discardPanel, hands, pointsText: (n) => t('replay.seat_points', { n: num(n) }), shortNames: true });

  const facts = h('p', { class: 'replay-facts' });
  const events = h('ul', { class: 'replay-events', 'data-testid': 'replay-events', 'aria-live': 'polite' });
  const result = h('div', { class: 'replay-result' });
  const points = h('p', { class: 'replay-points', 'data-testid': 'replay-points' });
  const info = h('div', { class: 'replay-info replay-ring-info' }, facts, events, result, points);

  function paintInfo(s, step) {
    const phase = frame.phase;
    const n = frame.hands.length;
    setChildren(
      facts,
      h('span', { class: 'replay-phase', 'data-testid': 'replay-phase', 'data-phase': phase, text: phase === 'thrown_in' ? t('ring.thrown_in_short') : t(`ring.phase.${phase}`) }),
      h('span', { class: 'replay-tricks', text: t('replay.tricks', { n: num(frame.tricks_played) }) }),
    );
    setChildren(events, eventLines(s, stepFacts(data, step)).map((line) => h('li', { text: line })));
    const rows = scoreRows(data, step);
    points.dataset.points = frame.card_points.join(',');
    points.dataset.score = rows ? rows.map((r) => r.score).join(',') : '';
    if (rows) {
      const res = resultForSummary(data);
      setChildren(result, res ? contractLine(s, res) : null);
      setChildren(
        points,
        h('strong', { text: t('replay.deal_score') }),
        ' ',
        h(
          'span',
          { class: 'replay-scores' },
          rows.map((r) =>
            h(
              'span',
              { class: `replay-score${r.declarer ? ` declarer ${r.made ? 'made' : 'failed'}` : ''}`, 'data-testid': `replay-score-${r.seat}`, 'data-score': String(r.score), 'data-total': r.total === null ? '' : String(r.total) },
              h('span', { class: 'who', title: plainName(s, r.seat), text: shortName(s, r.seat) }),
              ' ',
              h('strong', { class: r.score < 0 ? 'loss' : '', text: signed(r.score) }),
              r.total === null ? null : h('span', { class: 'tot', text: ` (${t('replay.total', { n: r.total < 0 ? `−${num(-r.total)}` : num(r.total) })})` }),
            ),
          ),
        ),
      );
    } else {
      // The last step of a deal a resignation cut short (R6.2, ruling V0.10a): no score.
      const cut = step === data.frames.length - 1 && !frame.deal_over;
      setChildren(result, cut ? h('p', { class: 'muted', text: t('replay.not_finished') }) : null);
      const list = Array.from({ length: n }, (_, seat) => `${shortName(s, seat)} ${num(frame.card_points[seat])}`).join(' · ');
      setChildren(points, t('replay.points_n', { list }));
    }
  }

  return {
    /** The felt's parts in the page's grid: every seat (mine below the others), the middle, what happened. */
    nodes: [h('div', { class: 'replay-seats' }, ring.seats, ring.me), ring.centre, info],
    paint(step) {
      frame = data.frames[step];
      marks = fromTalon(frame);
      const s = frameState(data, step, { bottom });
      ring.render(s, { events: [] });
      paintInfo(s, step);
    },
  };
}
