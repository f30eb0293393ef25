// The end of the match: who won and why, what is owed (R6), the race chart and the score sheet,
// and the rematch.
import { h, setChildren, svg } from '../dom.js';
import { t } from '../i18n.js';
import { isZeroAmount, money } from '../ui.js';
import { isRing, matchOver, mySeat, oppSeat, roomOf, viewOf } from './store.js';
import { ringScoreSheet, ringStandings, ringSummaryTable } from './ringsummary.js';
import { isBot, plainName } from './names.js';
import { scoreSheet } from './sheet.js';
import { summaryTable } from './summary.js';

export function stakeText(s, stake) {
  if (!stake || stake.amount === undefined) return t('match.stake.unknown');
  if (isZeroAmount(stake.amount)) {
    return isZeroAmount(stake.stake_per_point) ? t('match.stake.none') : t('match.stake.zero', { amount: money(stake.amount, stake.currency) });
  }
  const amount = money(stake.amount, stake.currency);
  if (stake.debtor_seat === mySeat(s)) return t('match.stake.you_owe', { name: plainName(s, oppSeat(s)), amount });
  if (stake.debtor_seat === oppSeat(s)) return t('match.stake.owes_you', { name: plainName(s, oppSeat(s)), amount });
  return amount;
}

function trophy(won) {
  const box = h('div', { class: `trophy ${won ? 'won' : 'lost'}`, 'aria-hidden': 'true' });
  const g = won
    ? svg(
        'svg',
        { viewBox: '0 0 64 64', width: 52, height: 52 },
        svg('path', { class: 'cup', d: 'M18 8h28v14a14 14 0 0 1-28 0z' }),
        svg('path', { class: 'cup-line', d: 'M18 12H9a9 9 0 0 0 10 13M46 12h9a9 9 0 0 1-10 13', fill: 'none' }),
        svg('rect', { class: 'cup-stem', x: 29, y: 35, width: 6, height: 10 }),
        svg('rect', { class: 'cup-base', x: 20, y: 45, width: 24, height: 7, rx: 2 }),
      )
    : svg(
        'svg',
        { viewBox: '0 0 64 64', width: 52, height: 52 },
        svg('rect', { class: 'crossed', x: 14, y: 12, width: 24, height: 34, rx: 3, transform: 'rotate(-14 26 29)' }),
        svg('rect', { class: 'crossed', x: 26, y: 14, width: 24, height: 34, rx: 3, transform: 'rotate(12 38 31)' }),
      );
  box.append(g);
  return box;
}

export function createMatchPanel({ sendRematch, raceChart }) {
  const el = h('div', { class: 'match-panel-slot' });
  let shownKey = null;

  function render(s, { stakeFallback } = {}) {
    const v = viewOf(s);
    if (!v || !matchOver(s)) {
      shownKey = null;
      el.replaceChildren();
      return false;
    }
    if (isRing(s)) return renderRing(s, v);
    const room = roomOf(s);
    const me = mySeat(s);
    const opp = oppSeat(s);
    const won = v.winner === me;
    const loser = 1 - v.winner;
    const stake = (s.msg && s.msg.stake) || (stakeFallback && !stakeFallback.none && !stakeFallback.loading ? stakeFallback : null);
    const offer = room.rematch;
    const key = JSON.stringify([room.match_id, v.winner, stake, offer, t('match.you_won'), Boolean(raceChart())]);
    if (key === shownKey) return false;
    const first = shownKey === null;
    shownKey = key;
    let reason;
    if (v.end_reason === 'resign' && loser === me) reason = t('match.reason.you_resigned');
    else {
      const reasonKey = { target: 'match.reason.target', resign: 'match.reason.resign', absence: 'match.reason.absence' }[v.end_reason] || 'match.reason.target';
      reason = t(reasonKey, { winner: plainName(s, v.winner), loser: plainName(s, loser), target: v.target });
    }
    const stakeDetail =
      stake && !isZeroAmount(stake.amount) && stake.points_short !== undefined
        ? h('p', { class: 'muted small', 'data-testid': 'stake-detail', text: t('match.stake.detail', { points: stake.points_short, stake: money(stake.stake_per_point, stake.currency), target: v.target }) })
        : null;
    const act = (action) => () => sendRematch(action);
    const rematch = [];
    if (!offer) rematch.push(h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-offer', text: isBot(s, opp) ? t('rematch.play_again') : t('rematch.offer'), onclick: act('offer') }));
    else if (offer.offered_by === me && isBot(s, opp)) rematch.push(h('p', { 'data-testid': 'rematch-status', text: t('rematch.starting') }));
    else if (offer.offered_by === me)
      rematch.push(
        h('p', { 'data-testid': 'rematch-status', text: t('rematch.waiting', { name: plainName(s, opp) }) }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-withdraw', text: t('rematch.withdraw'), onclick: act('withdraw') }),
      );
    else
      rematch.push(
        h('p', { 'data-testid': 'rematch-status', text: t('rematch.offered', { name: plainName(s, opp) }) }),
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-accept', text: t('rematch.accept'), onclick: act('accept') }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-decline', text: t('rematch.decline'), onclick: act('decline') }),
      );
    const history = v.history || [];
    const sum = s.summary;
    const lastDeal = sum && history.length && sum.event.number === history[history.length - 1].number ? summaryTable(s, sum.event, sum.declarations) : null;
    const chart = raceFigure(s, v, history, 2);
    setChildren(
      el,
      h(
        'section',
        { class: `match-panel ${won ? 'won' : 'lost'}`, 'data-testid': 'match-over', 'data-winner': String(v.winner), role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'match-result-h' },
        h(
          'div',
          { class: 'match-head' },
          trophy(won),
          h(
            'div',
            {},
            h('h2', { id: 'match-result-h', 'data-testid': 'match-result', 'data-won': String(won), tabindex: '-1' }, won ? t('match.you_won') : t('match.they_won', { name: plainName(s, v.winner) })),
            h('p', { class: 'muted', 'data-testid': 'match-reason', text: reason }),
          ),
        ),
        h('p', { class: 'final-totals', 'data-testid': 'final-totals' }, `${plainName(s, me)} ${v.totals[me]} : ${v.totals[opp]} ${plainName(s, opp)}`),
        h('p', { class: 'stake-owed', 'data-testid': 'stake-owed', 'data-amount': stake ? stake.amount : '', 'data-currency': stake ? stake.currency : '' }, stake ? stakeText(s, stake) : t('common.loading')),
        stakeDetail,
        h('div', { class: 'rematch-row' }, rematch, h('a', { class: 'btn ghost', href: '#/', 'data-testid': 'back-to-lobby', text: t('common.back_to_lobby') })),
        chart,
        lastDeal ? h('details', { class: 'last-deal' }, h('summary', { text: t('summary.title', { n: sum.event.number + 1 }) }), lastDeal) : null,
        history.length ? h('details', { class: 'match-sheet' }, h('summary', { text: t('sheet.title') }), scoreSheet(s, history)) : null,
      ),
    );
    return first;
  }

  /** The race to the target, a line per seat of `n` (the chart's module is optional: none without it). */
  function raceFigure(s, v, history, n) {
    const make = raceChart();
    if (!make || !history.length) return null;
    try {
      const names = Array.from({ length: n }, (_, seat) => plainName(s, seat));
      return h('figure', { class: 'race' }, make({ history, target: v.target, names, me: mySeat(s) }));
    } catch {
      return null;
    }
  }

  /** 3 or 4 seats: the winner (V0.9) or who left (V0.10a), the standings, the rematch, the race, the sheet. */
  function renderRing(s, v) {
    const room = roomOf(s);
    const me = mySeat(s);
    const offer = room.rematch;
    const key = JSON.stringify([room.match_id, v.winner, v.loser, offer, t('match.you_won'), Boolean(raceChart())]);
    if (key === shownKey) return false;
    const first = shownKey === null;
    shownKey = key;
    const won = v.winner === me;
    let headline;
    let reason;
    if (v.winner !== null && v.winner !== undefined) {
      headline = won ? t('match.you_won') : t('match.they_won', { name: plainName(s, v.winner) });
      reason = t('match.reason.target', { winner: plainName(s, v.winner), target: v.target });
    } else {
      headline = v.loser === me ? t('match.reason.you_resigned') : t('ring.match_ended');
      const reasonKey = v.end_reason === 'absence' ? 'match.reason.absence' : 'match.reason.resign';
      reason = v.loser === me ? t('ring.you_left') : t(reasonKey, { loser: plainName(s, v.loser) });
    }
    const act = (action) => () => sendRematch(action);
    const rematch = [];
    // Every person plays the rematch, so it starts once all have accepted (the computer always has).
    const accepted = (offer && offer.accepted) || [];
    const waitingFor = offer ? room.players.map((_, seat) => seat).filter((seat) => seat !== offer.offered_by && !accepted.includes(seat) && !isBot(s, seat)) : [];
    const waiting = () => h('p', { 'data-testid': 'rematch-status', text: t('ring.rematch_waiting', { names: waitingFor.map((seat) => plainName(s, seat)).join(', ') }) });
    if (!offer) rematch.push(h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-offer', text: t('rematch.offer'), onclick: act('offer') }));
    else if (offer.offered_by === me) rematch.push(waiting(), h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-withdraw', text: t('rematch.withdraw'), onclick: act('withdraw') }));
    else if (accepted.includes(me)) rematch.push(waiting(), h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-decline', text: t('rematch.decline'), onclick: act('decline') }));
    else
      rematch.push(
        h('p', { 'data-testid': 'rematch-status', text: t('rematch.offered', { name: plainName(s, offer.offered_by) }) }),
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-accept', text: t('rematch.accept'), onclick: act('accept') }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-decline', text: t('rematch.decline'), onclick: act('decline') }),
      );
    const history = v.history || [];
    const sum = s.summary;
    const lastDeal = sum && history.length && sum.event.number === history[history.length - 1].number ? ringSummaryTable(s, sum.event, sum.declarations) : null;
    const chart = raceFigure(s, v, history, (v.totals || []).length);
    setChildren(
      el,
      h(
        'section',
        { class: `match-panel ${won ? 'won' : 'lost'}`, 'data-testid': 'match-over', 'data-winner': String(v.winner), 'data-loser': String(v.loser), role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'match-result-h' },
        h(
          'div',
          { class: 'match-head' },
          trophy(won),
          h(
            'div',
            {},
            h('h2', { id: 'match-result-h', 'data-testid': 'match-result', 'data-won': String(won), tabindex: '-1' }, headline),
            h('p', { class: 'muted', 'data-testid': 'match-reason', text: reason }),
          ),
        ),
        ringStandings(s),
        h('div', { class: 'rematch-row' }, rematch, h('a', { class: 'btn ghost', href: '#/', 'data-testid': 'back-to-lobby', text: t('common.back_to_lobby') })),
        chart,
        lastDeal ? h('details', { class: 'last-deal' }, h('summary', { text: t('summary.title', { n: sum.event.number + 1 }) }), lastDeal) : null,
        history.length ? h('details', { class: 'match-sheet' }, h('summary', { text: t('sheet.title') }), ringScoreSheet(s, history)) : null,
      ),
    );
    return first;
  }

  return {
    el,
    render,
    focus() {
      const heading = el.querySelector('h2');
      if (heading) heading.focus({ preventScroll: true });
    },
  };
}
