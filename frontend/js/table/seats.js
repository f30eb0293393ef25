// The seats at the table, for every seat count: one box per seat — presence, name, dealer, the cards
// it holds (backs only, R7), its card points where they are shown, the tricks it took, its call or
// contract in an auction (V0.6), its marriages (R3) and its total against the target. Where a box
// sits comes from model.positionOf (me at the bottom, the others clockwise; for two the other on
// top); ring.js places them. A spectator's bottom seat is one of the others: backs and a count.
import { cardBack, suitBadge } from '../cards.js';
import { h, svg } from '../dom.js';
import { t, tn } from '../i18n.js';
import { fitName } from '../fit.js';
import { nameCandidates, plainName, seatTag, shortName } from './names.js';
import { auction, dealOf, isMe, marriagesOf, matchOver, phaseOf, player, seatCount, tricksWon, viewOf } from './store.js';

/** The seat's presence: a light (online / away), or the computer's badge. */
export function presenceDot(s, seat, testid = `seat-${seat}-presence`) {
  const p = player(s, seat);
  const on = Boolean(p && p.connected);
  if (p && p.bot_level) {
    const icon = h('span', { class: 'bot-badge', 'data-testid': testid, 'data-connected': 'true', 'data-bot': p.bot_level, role: 'img', 'aria-label': t('bot.label'), title: t('bot.label') });
    icon.appendChild(
      svg(
        'svg',
        { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true' },
        svg('rect', { x: 3, y: 3, width: 10, height: 10, rx: 2, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
        svg('rect', { x: 6, y: 6, width: 4, height: 4, fill: 'currentColor' }),
        svg('path', { d: 'M6 1v2M10 1v2M6 13v2M10 13v2M1 6h2M1 10h2M13 6h2M13 10h2', stroke: 'currentColor', 'stroke-width': 1.4 }),
      ),
    );
    return icon;
  }
  const label = on ? t('table.online') : t('table.offline');
  return h('span', { class: `presence ${on ? 'on' : 'off'}`, 'data-testid': testid, 'data-connected': String(on), role: 'img', 'aria-label': label, title: label });
}

/** R6.2: how long an absent player's seat is still held. */
export function graceText(deadline, now = Date.now()) {
  const left = Math.max(0, Math.round((new Date(deadline).getTime() - now) / 1000));
  return t('table.seat_held', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` });
}

function marriages(s, seat) {
  const list = marriagesOf(s, seat);
  if (!list.length) return null;
  return h(
    'span',
    { class: 'marriages', 'data-testid': `seat-${seat}-declarations`, 'data-count': String(list.length) },
    h('span', { class: 'visually-hidden', text: `${t('table.declarations')}:` }),
    list.map((x) => h('span', { class: 'marriage-chip', 'data-suit': x.suit }, suitBadge(x.suit), h('span', { text: String(x.points) }))),
  );
}

function total(s, seat) {
  const v = viewOf(s);
  const target = v.target || 1001;
  const n = (v.totals || [])[seat] ?? 0;
  const pct = Math.max(0, Math.min(100, Math.round((n / target) * 100)));
  return h(
    'span',
    { class: 'score', 'data-testid': `seat-${seat}-total`, 'data-total': String(n), style: `--p:${pct}%`, title: t('table.score_title', { n, target }) },
    h('span', { class: 'visually-hidden', text: `${t('table.score')}:` }),
    h('strong', { text: n < 0 ? `−${-n}` : String(n) }),
    h('span', { class: 'of', text: `/${target}` }),
  );
}

/** The seat's call in the auction ("60", "Pass"), or the contract once it is the declarer's (V0.6). */
function callChip(s, seat) {
  const d = dealOf(s);
  const phase = phaseOf(s);
  if (d.declarer === seat && d.contract !== null && d.contract !== undefined) {
    return h('span', { class: 'call-chip declarer', 'data-testid': `seat-${seat}-contract`, 'data-contract': String(d.contract), title: t('ring.contract_title', { name: plainName(s, seat), n: d.contract }) }, t('ring.plays', { n: d.contract }));
  }
  if (phase !== 'auction' && phase !== 'thrown_in') return null;
  const last = auction(s).last[seat];
  if (last === null || last === undefined) return null;
  return last === 'pass'
    ? h('span', { class: 'call-chip passed', 'data-testid': `seat-${seat}-call`, 'data-call': 'pass', text: t('ring.pass_call') })
    : h('span', { class: 'call-chip bid', 'data-testid': `seat-${seat}-call`, 'data-call': String(last), text: String(last) });
}

/**
 * The cards a seat holds, face down (R7): at a table of two a fan of backs (there is room), at three
 * or four one back and the count.
 */
function cardsHeld(s, seat, name) {
  const count = (dealOf(s).hand_counts || [])[seat] ?? 0;
  const fan = seatCount(s) === 2;
  const label = tn('table.opponent_hand', count, { name });
  return h(
    'span',
    { class: `rs-cards${fan ? ' fan' : ''}`, 'data-testid': `seat-${seat}-cards`, 'data-count': String(count), role: 'img', 'aria-label': label, title: label },
    h('span', { class: 'rs-backs' }, Array.from({ length: fan ? count : 1 }, () => cardBack({ className: 'mini' }))),
    h('span', { class: 'rs-count', 'aria-hidden': 'true', text: String(count) }),
  );
}

/**
 * One seat's box at `pos` (bottom, top, left, right). `open` (the replay's) is its hand face up,
 * drawn instead of the backs; `pointsText(n)` words open card points for narrow boxes ("18 pts");
 * `shortNames` names a computer seat without its level ("Computer 2", the whole name in its title).
 */
export function seatBox(s, seat, pos, { open = null, pointsText = null, shortNames = false } = {}) {
  const d = dealOf(s);
  const n = seatCount(s);
  const p = player(s, seat);
  const over = matchOver(s);
  const turn = !over && !s.held && d.turn === seat;
  const playing = !['auction', 'discard', 'thrown_in'].includes(phaseOf(s)); // tricks and card points once cards are played
  const won = playing && n > 2 ? tricksWon(s) : null; // two seats: the cards held say enough
  const mine = isMe(s, seat); // a spectator's bottom seat is one of the others
  const plain = plainName(s, seat);
  const name = mine ? t('table.you_named', { name: plain }) : plain;
  const points = d.card_points ? d.card_points[seat] : null; // R7 open_scores: every seat's
  const extras = [
    callChip(s, seat),
    marriages(s, seat),
    p && !p.bot_level && !p.connected && p.grace_deadline && !over ? h('span', { class: 'count-chip away', 'data-testid': `seat-${seat}-grace`, text: graceText(p.grace_deadline) }) : null,
  ].filter(Boolean);
  return h(
    'div',
    {
      class: `ring-seat ${mine ? 'me' : 'other'}`,
      'data-testid': `seat-${seat}`,
      'data-seat': String(seat),
      'data-pos': pos,
      'data-me': String(mine),
      'data-turn': String(turn),
      'data-dealer': String(d.dealer === seat),
      'data-declarer': String(d.declarer === seat),
      role: 'group',
      'aria-label': name,
    },
    h(
      'div',
      { class: 'rs-info' },
      h(
        'div',
        { class: 'rs-head' },
        presenceDot(s, seat),
        seatTag(s, seat, { 'data-testid': `seat-${seat}-tag` }),
        // one line, never cut inside a word: the whole name, a shorter one, or only the tag (fit.js)
        shortNames
          ? fitName('span', { class: 'seat-name', 'data-testid': `seat-${seat}-name`, title: plain }, [shortName(s, seat), ...nameCandidates(s, seat).slice(1)])
          : fitName('span', { class: 'seat-name', 'data-testid': `seat-${seat}-name` }, nameCandidates(s, seat)),
        turn && !mine ? h('span', { class: 'turn-dot', 'aria-label': t('ring.to_move'), role: 'img', title: t('ring.to_move') }) : null,
      ),
      h(
        'div',
        { class: 'rs-line' },
        // the dealer's mark on the line of its cards, not beside its name: every seat's name has the
        // same room, and two names as long are shown alike (issue 42, point 4)
        d.dealer === seat ? h('span', { class: 'dealer-chip', title: t('table.dealer'), 'aria-label': t('table.dealer'), role: 'img', text: t('table.dealer_short') }) : null,
        mine && playing ? h('span', { class: 'count-chip points', 'data-testid': 'my-card-points', 'data-points': String(d.my_card_points ?? 0), text: tn('table.my_card_points', d.my_card_points ?? 0) }) : null,
        points !== null && !mine && playing
          ? h('span', { class: 'count-chip points', 'data-testid': `seat-${seat}-card-points`, 'data-points': String(points), text: pointsText ? pointsText(points) : tn('table.my_card_points', points) })
          : null,
        won ? h('span', { class: 'count-chip tricks', 'data-testid': `seat-${seat}-tricks`, 'data-count': String(won[seat]), title: tn('ring.tricks', won[seat]), 'aria-label': tn('ring.tricks', won[seat]), text: t('ring.tricks_short', { n: won[seat] }) }) : null,
        total(s, seat),
      ),
      extras.length ? h('div', { class: 'rs-line rs-extra' }, extras) : null,
    ),
    mine || open ? null : cardsHeld(s, seat, plain),
    open,
  );
}

/** Count down held seats (R6.2) in `el` without re-rendering everything. */
export function tickSeats(el, s) {
  for (const out of el.querySelectorAll('[data-testid$="-grace"]')) {
    const seat = Number(out.closest('[data-seat]').dataset.seat);
    const p = player(s, seat);
    if (p && p.grace_deadline) out.textContent = graceText(p.grace_deadline);
  }
}
