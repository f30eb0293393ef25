// The end of the match, for every seat count: who won and why (the view's `winner`, `loser` and
// `end_reason`), the final standings in the view's places, what is owed (R6, V0.10: the message's
// `stakes`), the rematch (every person at the table accepts; the computer always has), the race
// chart and the score sheet. Nothing here decides who won: the server says it.
import { api } from '../api.js';
import { h, setChildren, svg } from '../dom.js';
import { getLang, t, tn } from '../i18n.js';
import { endReasonWords, h2hHref, isZeroAmount, money, ratingText, settlementWords, sharedWinWords } from '../ui.js';
import { isMe, isSpectator, matchOver, mySeat, otherSeats, player, roomOf, seatCount, viewOf } from './store.js';
import { isBot, plainName } from './names.js';
import { scoreSheet, standingsList, summaryTable } from './summary.js';
import { fitAll } from '../fit.js';

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

/** The seats in first place (the view's places: shared on equal totals, R6.2 / V0.10a), else the winner. */
export function firstSeats(v) {
  if (Array.isArray(v.places)) return v.places.map((place, seat) => (place === 1 ? seat : null)).filter((seat) => seat !== null);
  return Number.isInteger(v.winner) ? [v.winner] : [];
}

/**
 * The headline and the reason: won on the target (R5, V0.9: one winner), or left by a resignation
 * or absence (R6.2): at a table of two the one who stayed won; at three or four the one who left
 * loses alone and everyone who stayed shares the win (ruling V0.10a), whatever their totals.
 */
function outcome(s, v) {
  const me = mySeat(s);
  const firsts = firstSeats(v);
  const won = firsts.some((seat) => isMe(s, seat));
  const shared = sharedWinWords({ places: v.places, loser: v.loser, me: isMe(s, me) ? me : null, name: (seat) => plainName(s, seat) });
  let headline;
  if (shared) headline = shared;
  else if (firsts.length === 1) headline = won ? t('match.you_won') : t('match.they_won', { name: plainName(s, firsts[0]) });
  else headline = v.loser === me && isMe(s, me) ? t('ring.you_left') : t('ring.match_ended');
  // Addressed to the reader: "You resigned." / "You were away for too long." / "You reached 1001."
  const endReason = v.end_reason === 'target' || !Number.isInteger(v.loser) ? 'target' : v.end_reason;
  const reason = endReasonWords({ endReason, loser: v.loser, winner: v.winner, target: v.target, me: isMe(s, me) ? me : null, name: (seat) => plainName(s, seat) }) ?? '';
  return { won, headline, reason, firsts };
}

/**
 * What is owed, from the server's `stakes` (each loser owes the winner, V0.10; the one who left owes
 * every other player, V0.10a): my own settlements first. A friendly table owes nothing; at a staked
 * one a settlement of zero is left out by the server (a loser at or over the target, R5.1).
 */
function stakeLines(s, v) {
  const msg = s.msg || {};
  const room = roomOf(s);
  const options = (room && room.options) || {};
  const stakes = (Array.isArray(msg.stakes) ? msg.stakes : msg.stake ? [msg.stake] : []).filter((x) => x && !isZeroAmount(x.amount));
  const side = (x) => (isMe(s, x.debtor_seat) ? 'debtor' : isMe(s, x.creditor_seat) ? 'creditor' : null);
  const mine = [...stakes.filter(side), ...stakes.filter((x) => !side(x))];
  const first = mine[0] || null;
  let text;
  if (first) text = mine.map((x) => settlementWords({ debtor: plainName(s, x.debtor_seat), creditor: plainName(s, x.creditor_seat), amount: x.amount, currency: x.currency }, side(x))).join(' · ');
  else if (isZeroAmount(options.stake_per_point ?? '0')) text = t('match.stake.none');
  else text = t('match.stake.zero', { amount: money('0', options.currency) });
  return [
    h('p', { class: 'stake-owed', 'data-testid': 'stake-owed', 'data-amount': first ? first.amount : '0', 'data-currency': first ? first.currency : options.currency || '' }, text),
    first && side(first) && first.points_short !== undefined
      ? h('p', { class: 'muted small', 'data-testid': 'stake-detail', text: tn('match.stake.detail', Number(first.points_short), { points: first.points_short, stake: money(first.stake_per_point, first.currency), target: v.target }) })
      : null,
  ];
}

/**
 * My rating change (a rated match between people), read from the match's record once it is over:
 * the server stores the change with the match, before anyone hears that it ended. One line per
 * match, kept across the panel's redraws; empty for an unrated match or a spectator.
 */
function ratingLine() {
  const el = h('p', { class: 'rating-change', 'data-testid': 'match-rating', hidden: true });
  let matchId = null;
  let change = null;
  const show = () => {
    el.hidden = !change;
    el.textContent = change ? ratingText(change) : '';
    if (change) el.dataset.change = String(change.change);
  };
  return {
    el,
    load(s) {
      const room = roomOf(s);
      const id = room && room.match_id;
      if (!id || id === matchId) return show();
      matchId = id;
      change = null;
      show();
      if (!isMe(s, mySeat(s))) return; // a spectator has no rating here
      api
        .match(id)
        .then((detail) => {
          if (matchId !== id) return;
          const mine = (detail.rating_changes || [])[detail.my_seat];
          change = mine || null;
          show();
        })
        .catch(() => {}); // the match page shows it too
    },
  };
}

/** For a player (not a spectator) who sat with other people: their head-to-head page (issue 27). */
function headToHeadLink(s) {
  const me = mySeat(s);
  const mine = isMe(s, me) ? player(s, me) : null;
  const others = otherSeats(s).filter((seat) => !isBot(s, seat)).map((seat) => player(s, seat)).filter((p) => p && p.id);
  if (!mine || !mine.id || !others.length) return null;
  return h('a', { class: 'btn ghost', href: h2hHref([mine.id, ...others.map((p) => p.id)]), 'data-testid': 'match-h2h', text: t('h2h.link') });
}

/**
 * The panel at the end of a match, for the players and (`actions` given) for spectators: a spectator
 * has no rematch to offer or answer, so `actions(s)` gives the row's buttons instead (the replay).
 */
export function createMatchPanel({ sendRematch = () => {}, raceChart, actions = null }) {
  const el = h('div', { class: 'match-panel-slot' });
  let shownKey = null;
  const rating = ratingLine();

  /** The rematch (R6 ends the match; a new one with the seats moved on): it starts once every person accepted. */
  function rematchRow(s) {
    const room = roomOf(s);
    const me = mySeat(s);
    const offer = room.rematch;
    const people = otherSeats(s).filter((seat) => !isBot(s, seat));
    const act = (action) => () => sendRematch(action);
    const accepted = (offer && offer.accepted) || [];
    const waitingFor = offer ? people.filter((seat) => seat !== offer.offered_by && !accepted.includes(seat)) : [];
    const waiting = () =>
      waitingFor.length
        ? h('p', { 'data-testid': 'rematch-status', text: t('ring.rematch_waiting', { names: waitingFor.map((seat) => plainName(s, seat)).join(', ') }) })
        : h('p', { 'data-testid': 'rematch-status', text: t('rematch.starting') }); // only the computer to ask: it accepts at once
    if (!offer) return [h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-offer', text: people.length ? t('rematch.offer') : t('rematch.play_again'), onclick: act('offer') })];
    if (offer.offered_by === me) return [waiting(), waitingFor.length ? h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-withdraw', text: t('rematch.withdraw'), onclick: act('withdraw') }) : null];
    if (accepted.includes(me)) return [waiting(), h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-decline', text: t('rematch.decline'), onclick: act('decline') })];
    return [
      h('p', { 'data-testid': 'rematch-status', text: t('rematch.offered', { name: plainName(s, offer.offered_by) }) }),
      h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-accept', text: t('rematch.accept'), onclick: act('accept') }),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'rematch-decline', text: t('rematch.decline'), onclick: act('decline') }),
    ];
  }

  /** The race to the target, a line per seat (the chart's module is optional: none without it). */
  function raceFigure(s, v, history) {
    const make = raceChart();
    if (!make || !history.length) return null;
    try {
      const names = Array.from({ length: seatCount(s) }, (_, seat) => plainName(s, seat));
      return h('figure', { class: 'race' }, make({ history, target: v.target, names, me: mySeat(s) }));
    } catch {
      return null;
    }
  }

  function render(s) {
    const v = viewOf(s);
    if (!v || !matchOver(s)) {
      shownKey = null;
      if (el.firstChild) el.replaceChildren();
      return false;
    }
    const room = roomOf(s);
    const msg = s.msg || {};
    const key = JSON.stringify([room.match_id, room.status, v.winner, v.loser, v.places, msg.stakes, room.rematch, getLang(), Boolean(raceChart())]);
    if (key === shownKey) return false;
    const first = shownKey === null;
    shownKey = key;
    rating.load(s);
    const { won, headline, reason, firsts } = outcome(s, v);
    const history = v.history || [];
    const sum = s.summary;
    const lastDeal = sum && history.length && sum.event.number === history[history.length - 1].number ? summaryTable(s, sum.event, sum.declarations) : null;
    setChildren(
      el,
      h(
        'section',
        { class: `match-panel ${won ? 'won' : 'lost'}`, 'data-testid': 'match-over', 'data-winner': String(v.winner), 'data-loser': String(v.loser), role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'match-result-h' },
        h(
          'div',
          { class: 'match-head' },
          trophy(won || isSpectator(s)), // a spectator is shown the winner's cup, not a loss
          h(
            'div',
            {},
            h('h2', { id: 'match-result-h', 'data-testid': 'match-result', 'data-won': String(won), 'data-winners': firsts.join(','), tabindex: '-1' }, headline),
            h('p', { class: 'muted', 'data-testid': 'match-reason', text: reason }),
          ),
        ),
        standingsList(s),
        rating.el,
        actions ? null : stakeLines(s, v), // a spectator is sent no settlements (watch_state)
        h('div', { class: 'rematch-row' }, actions ? actions(s) : [rematchRow(s), headToHeadLink(s)], h('a', { class: 'btn ghost', href: '#/', 'data-testid': 'back-to-lobby', text: t('common.back_to_lobby') })),
        raceFigure(s, v, history),
        lastDeal ? h('details', { class: 'last-deal' }, h('summary', { text: t('summary.title', { n: sum.event.number + 1 }) }), lastDeal) : null,
        history.length ? h('details', { class: 'match-sheet', ontoggle: (event) => fitAll(event.currentTarget) }, h('summary', { text: t('sheet.title') }), scoreSheet(s, history)) : null,
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
