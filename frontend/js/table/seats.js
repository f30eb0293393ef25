// The two players on the felt: name and presence, cards held, card points of the deal, the
// marriages they declared this deal and their match score against the target.
import { cardBack, suitBadge } from '../cards.js';
import { h, setChildren, svg } from '../dom.js';
import { t, tn } from '../i18n.js';
import { dealOf, marriagesOf, matchOver, mySeat, oppSeat, player, viewOf, roomOf } from './store.js';
import { plainName } from './names.js';

export function presenceDot(s, seat, prefix = 'presence') {
  const p = player(s, seat);
  const on = Boolean(p && p.connected);
  const who = seat === mySeat(s) ? 'me' : 'opponent';
  if (p && p.bot_level) {
    const icon = h('span', { class: 'bot-badge', 'data-testid': `${prefix}-${who}`, 'data-connected': 'true', 'data-bot': p.bot_level, role: 'img', 'aria-label': t('bot.label'), title: t('bot.label') });
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
  return h('span', { class: `presence ${on ? 'on' : 'off'}`, 'data-testid': `${prefix}-${who}`, 'data-connected': String(on), role: 'img', 'aria-label': label, title: label });
}

export function graceText(deadline, now = Date.now()) {
  const left = Math.max(0, Math.round((new Date(deadline).getTime() - now) / 1000));
  return t('table.seat_held', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` });
}

function marriages(s, seat, testid) {
  const list = marriagesOf(s, seat);
  return h(
    'span',
    { class: 'marriages', 'data-testid': testid, 'data-count': String(list.length), hidden: list.length ? null : true },
    h('span', { class: 'visually-hidden', text: `${t('table.declarations')}:` }),
    list.map((x) => h('span', { class: 'marriage-chip', 'data-suit': x.suit }, suitBadge(x.suit), h('span', { text: String(x.points) }))),
  );
}

function score(s, seat, who) {
  const v = viewOf(s);
  const room = roomOf(s);
  const target = v ? v.target : (room && room.options && room.options.target) || 1001;
  const total = v ? v.totals[seat] ?? 0 : 0;
  const pct = Math.min(100, Math.round((total / target) * 100));
  return h(
    'span',
    { class: 'score', 'data-testid': `score-${who}`, 'data-total': String(total), style: `--p:${pct}%`, title: t('table.score_title', { n: total, target }) },
    h('span', { class: 'visually-hidden', text: `${t('table.score')}:` }),
    h('strong', { 'data-testid': who === 'me' ? 'my-total' : 'opponent-total', text: String(total) }),
    h('span', { class: 'of', text: `/${target}` }),
  );
}

export function createSeats() {
  const oppInfo = h('div', { class: 'seat-info opp', 'data-testid': 'opponent-info' });
  const oppHand = h('div', { class: 'opp-hand', 'data-testid': 'opponent-hand', role: 'img' });
  const meInfo = h('div', { class: 'seat-info me', 'data-testid': 'my-info' });
  const opp = h('div', { class: 'seat-row opp' }, oppInfo, oppHand);
  let turnSeat = null;

  function render(s) {
    const d = dealOf(s);
    const o = oppSeat(s);
    const m = mySeat(s);
    const count = d ? d.opponent_cards : 0;
    const p = player(s, o);
    turnSeat = d && !matchOver(s) && !s.held ? d.turn : null;
    opp.dataset.turn = String(turnSeat === o);
    meInfo.dataset.turn = String(turnSeat === m);
    setChildren(
      oppInfo,
      presenceDot(s, o),
      h('span', { class: 'seat-name', 'data-testid': 'opponent-name', text: plainName(s, o) }),
      d && d.dealer === o ? h('span', { class: 'dealer-chip', title: t('table.dealer'), 'aria-label': t('table.dealer'), role: 'img', text: t('table.dealer_short') }) : null,
      d ? h('span', { class: 'count-chip', 'data-testid': 'opponent-count', text: tn('table.cards_count', count) }) : null,
      d && d.card_points ? h('span', { class: 'count-chip points', 'data-testid': 'opponent-card-points', 'data-points': String(d.card_points[o]), text: t('table.my_card_points', { n: d.card_points[o] }) }) : null,
      p && !p.bot_level && !p.connected && p.grace_deadline && !matchOver(s) ? h('span', { class: 'count-chip away', 'data-testid': 'grace-countdown', text: graceText(p.grace_deadline) }) : null,
      d ? marriages(s, o, 'marriages-opponent') : null,
      d ? score(s, o, 'opponent') : null,
    );
    oppHand.dataset.count = String(count);
    oppHand.setAttribute('aria-label', t('table.opponent_hand', { name: plainName(s, o), n: count }));
    if (oppHand.childElementCount !== count) setChildren(oppHand, ...Array.from({ length: count }, () => cardBack({ className: 'mini' })));
    setChildren(
      meInfo,
      presenceDot(s, m),
      h('span', { class: 'seat-name', 'data-testid': 'my-name', text: plainName(s, m) }),
      d && d.dealer === m ? h('span', { class: 'dealer-chip', title: t('table.dealer'), 'aria-label': t('table.dealer'), role: 'img', text: t('table.dealer_short') }) : null,
      d ? h('span', { class: 'count-chip points', 'data-testid': 'my-card-points', 'data-points': String(d.my_card_points), text: t('table.my_card_points', { n: d.my_card_points }) }) : null,
      d ? marriages(s, m, 'marriages-me') : null,
      d ? score(s, m, 'me') : null,
    );
  }

  /** Count down a held seat (R6.2) without re-rendering everything. */
  function tick(s) {
    const out = oppInfo.querySelector('[data-testid="grace-countdown"]');
    const p = player(s, oppSeat(s));
    if (out && p && p.grace_deadline) out.textContent = graceText(p.grace_deadline);
  }

  return { opp, me: meInfo, render, tick };
}
