// The table for 3 and 4 seats (V2–V7): the other seats around the felt (left, top, right; me at
// the bottom), each with presence, name, dealer, cards held, tricks taken, its call in the auction,
// the contract, its declarations and its total; in the middle the auction (auction.js), the talon
// and the discard (discard.js) or the trick with each card at its seat, and beside it the trump,
// the contract, the declarer's discards and the last trick. Where seats sit: nseat.js (pure).
import { cardBack, cardEl, SUIT_SYMBOL, suitBadge } from '../cards.js';
import { h, prefersReducedMotion, setChildren } from '../dom.js';
import { t, tn } from '../i18n.js';
import { syncBanners } from './centre.js';
import { presenceDot, graceText } from './seats.js';
import { plainName, shortName } from './names.js';
import { othersAround, positionOf, seatCountOf, trickCards } from './nseat.js';
import { auction, dealOf, isMe, matchOver, mySeat, phaseOf, player, tricksWon, viewOf } from './store.js';

function marriages(s, seat) {
  const d = dealOf(s);
  const list = ((d && d.declarations) || []).filter((x) => x && x.seat === seat);
  return h(
    'span',
    { class: 'marriages', 'data-testid': `seat-${seat}-declarations`, 'data-count': String(list.length), hidden: list.length ? null : true },
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
    h('strong', { text: String(n) }),
    h('span', { class: 'of', text: `/${target}` }),
  );
}

/** The seat's call in the auction ("60", "Pass"), or the contract once it is the declarer's. */
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

/** One seat's box; `open` (the replay's) is its hand face up, shown instead of the backs. */
function seatBox(s, seat, pos, { open = null, pointsText = null, shortNames = false } = {}) {
  const d = dealOf(s);
  const me = mySeat(s);
  const p = player(s, seat);
  const over = matchOver(s);
  const turn = !over && !s.held && d.turn === seat;
  const count = (d.hand_counts || [])[seat] ?? 0;
  const playing = !['auction', 'discard', 'thrown_in'].includes(phaseOf(s)); // tricks and card points once cards are played
  const won = playing ? tricksWon(s) : null;
  const mine = isMe(s, seat); // a spectator's bottom seat is one of the others
  const dot = presenceDot(s, seat);
  dot.setAttribute('data-testid', `seat-${seat}-presence`);
  const name = mine ? t('table.you_named', { name: plainName(s, seat) }) : plainName(s, seat);
  const melds = ((d.declarations || []).filter((x) => x && x.seat === seat)).length;
  const extras = [
    callChip(s, seat),
    melds ? marriages(s, seat) : null,
    p && !p.bot_level && !p.connected && p.grace_deadline && !over ? h('span', { class: 'count-chip away', 'data-testid': `seat-${seat}-grace`, text: graceText(p.grace_deadline) }) : null,
  ].filter(Boolean);
  return h(
    'div',
    {
      class: `ring-seat ${mine ? 'me' : 'other'}${seat === me ? ' bottom' : ''}`,
      'data-testid': `seat-${seat}`,
      'data-seat': String(seat),
      'data-pos': pos,
      'data-turn': String(turn),
      'data-dealer': String(d.dealer === seat),
      'data-declarer': String(d.declarer === seat),
      role: 'group',
      'aria-label': name,
    },
    h(
      'div',
      { class: 'rs-head' },
      dot,
      shortNames
        ? h('span', { class: 'seat-name', 'data-testid': `seat-${seat}-name`, title: plainName(s, seat), text: shortName(s, seat) })
        : h('span', { class: 'seat-name', 'data-testid': `seat-${seat}-name`, text: mine ? plainName(s, seat) : name }),
      d.dealer === seat ? h('span', { class: 'dealer-chip', title: t('table.dealer'), 'aria-label': t('table.dealer'), role: 'img', text: t('table.dealer_short') }) : null,
      turn ? h('span', { class: 'turn-dot', 'aria-label': t('ring.to_move'), role: 'img', title: t('ring.to_move') }) : null,
    ),
    h(
      'div',
      { class: 'rs-line' },
      mine && !playing
        ? null
        : open
        ? null
        : mine
        ? h('span', { class: 'count-chip points', 'data-testid': 'my-card-points', 'data-points': String(d.my_card_points ?? 0), text: t('table.my_card_points', { n: d.my_card_points ?? 0 }) })
        : h(
            'span',
            { class: 'rs-cards', 'data-testid': `seat-${seat}-cards`, 'data-count': String(count), role: 'img', 'aria-label': t('table.opponent_hand', { name, n: count }), title: t('table.opponent_hand', { name, n: count }) },
            cardBack({ className: 'mini' }),
            h('span', { 'aria-hidden': 'true', text: String(count) }),
          ),
      d.card_points && !mine ? h('span', { class: 'count-chip points', 'data-testid': `seat-${seat}-card-points`, 'data-points': String(d.card_points[seat]), text: pointsText ? pointsText(d.card_points[seat]) : t('table.my_card_points', { n: d.card_points[seat] }) }) : null,
      won ? h('span', { class: 'count-chip tricks', 'data-testid': `seat-${seat}-tricks`, 'data-count': String(won[seat]), title: tn('ring.tricks', won[seat]), 'aria-label': tn('ring.tricks', won[seat]), text: t('ring.tricks_short', { n: won[seat] }) }) : null,
      total(s, seat),
    ),
    extras.length ? h('div', { class: 'rs-line rs-extra' }, extras) : null,
    open,
  );
}

/**
 * The felt for n seats. `hands(seat)` (the replay viewer's, views/replay.js) gives a seat's hand
 * face up, drawn in its box instead of the backs; a live table shows backs only (R7). For the
 * replay's narrow boxes `pointsText(n)` words a seat's open card points ("18 pts") and `shortNames`
 * names a computer seat without its level ("Computer 2", the whole name in its title).
 */
export function createRing({ auction: auctionPanel, discard: discardPanel, hands = null, pointsText = null, shortNames = false }) {
  const seatsLayer = h('div', { class: 'ring-seats' });
  const trickLayer = h('div', { class: 'ring-trick-layer', 'data-testid': 'current-trick' });
  const ghostLayer = h('div', { class: 'ring-trick-layer ghost', 'aria-hidden': 'true' });
  const trick = h('div', { class: 'ring-trick', 'data-testid': 'trick', role: 'region' }, ghostLayer, trickLayer);
  const stage = h('div', { class: 'ring-stage' });
  const side = h('div', { class: 'ring-side' });
  const banners = h('div', { class: 'banner-layer', 'aria-live': 'polite' });
  const centre = h('div', { class: 'ring-centre' }, stage, side, banners);
  const el = h('div', { class: 'ring', 'data-testid': 'ring' }, seatsLayer, centre);
  const me = h('div', { class: 'ring-me' });
  let ghostTimers = [];

  function render(s, { events = [] } = {}) {
    const v = viewOf(s);
    const d = dealOf(s);
    if (!v || !d) return;
    const n = seatCountOf(v);
    const my = mySeat(s);
    const phase = phaseOf(s);
    el.dataset.n = String(n);
    el.dataset.phase = phase || '';
    const opts = (seat) => ({ open: hands ? hands(seat) : null, pointsText, shortNames });
    setChildren(seatsLayer, othersAround(n, my).map(({ seat, pos }) => seatBox(s, seat, pos, opts(seat))));
    setChildren(me, seatBox(s, my, 'bottom', opts(my)));

    // The middle: the auction, the talon and the discard, or the trick.
    let content = trick;
    if (phase === 'auction' || phase === 'thrown_in') content = auctionPanel.el;
    else if (phase === 'discard') content = discardPanel.el;
    if (content === auctionPanel.el) auctionPanel.render(s);
    if (content === discardPanel.el) discardPanel.render(s);
    if (stage.firstChild !== content || stage.childElementCount !== 1) setChildren(stage, content);
    stage.dataset.content = content === trick ? 'trick' : content === auctionPanel.el ? 'auction' : 'discard';
    renderTrick(s, n, my, events);
    renderSide(s, n, my, phase);
    renderBanners(s);
  }

  function trickCard(code, seat, n, my, i, extra = {}) {
    const pos = positionOf(n, my, seat);
    return cardEl(code, {
      className: `trick-card at-${pos}${extra.anim ? ' enter' : ''}${extra.winner ? ' winner' : ''}`,
      attrs: { style: `--i:${i}`, 'data-seat': String(seat), ...(extra.testids === false ? {} : { 'data-testid': `trick-card-${code}` }) },
    });
  }

  function renderTrick(s, n, my, events) {
    const d = dealOf(s);
    trick.setAttribute('aria-label', t('table.trick'));
    trick.dataset.n = String(n);
    const played = new Set(events.filter((e) => e && e.kind === 'card_played').map((e) => e.card));
    if (d.final_trick) {
      // The deal is over: its last trick stays, out of the live trick's test ids (R7 checks).
      trickLayer.replaceChildren();
      clearGhost();
      setChildren(ghostLayer, trickCards(d.final_trick, n).map(({ card, seat }, i) => trickCard(card, seat, n, my, i, { testids: false, winner: seat === d.final_trick.winner })));
      return;
    }
    setChildren(trickLayer, trickCards(d.trick, n).map(({ card, seat }, i) => trickCard(card, seat, n, my, i, { anim: played.has(card) })));
    const won = events.find((e) => e && e.kind === 'trick_won');
    if (won) {
      // A trick just taken: its cards stay a moment where they were played, then go to the winner.
      clearGhost();
      const winPos = positionOf(n, my, won.seat);
      const ghost = h('div', { class: `ring-ghost to-${winPos}` }, trickCards({ leader: won.leader, cards: won.cards }, n).map(({ card, seat }, i) => trickCard(card, seat, n, my, i, { testids: false, winner: seat === won.seat, anim: played.has(card) })));
      setChildren(ghostLayer, ghost);
      const reduced = prefersReducedMotion();
      ghostTimers.push(setTimeout(() => ghost.classList.add('sweep'), reduced ? 500 : 1100));
      ghostTimers.push(setTimeout(() => ghost.remove(), reduced ? 700 : 1600));
    } else if ((d.trick && d.trick.cards && d.trick.cards.length) || !events.length) {
      clearGhost();
      ghostLayer.replaceChildren();
    }
  }

  function clearGhost() {
    for (const id of ghostTimers) clearTimeout(id);
    ghostTimers = [];
  }

  function renderSide(s, n, my, phase) {
    const d = dealOf(s);
    const parts = [];
    const trumpBadge = h(
      'div',
      { class: 'trump-badge', 'data-testid': 'trump-badge', 'data-trump': d.trump || 'none' },
      h('span', { class: 'label', text: t('table.trump') }),
      d.trump ? h('span', { class: 'trump-sym' }, suitBadge(d.trump)) : h('span', { class: 'trump-none', text: t('table.no_trump') }),
    );
    if (phase === 'auction' || phase === 'thrown_in') {
      const count = d.talon_count || 0;
      if (count)
        parts.push(
          h(
            'div',
            { class: 'talon-pile', 'data-testid': 'talon-count', 'data-count': String(count), role: 'img', 'aria-label': tn('ring.talon_count', count), title: tn('ring.talon_count', count) },
            h('span', { class: 'label', 'aria-hidden': 'true', text: t('ring.talon') }),
            h('div', { class: 'talon-backs' }, Array.from({ length: count }, () => cardBack({ className: 'tiny' }))),
          ),
        );
    } else {
      if (d.declarer !== null && d.declarer !== undefined) {
        parts.push(
          h(
            'div',
            { class: 'contract-chip', 'data-testid': 'contract', 'data-declarer': String(d.declarer), 'data-contract': String(d.contract) },
            h('span', { class: 'label', text: t('ring.contract') }),
            h('strong', { text: String(d.contract) }),
            h('span', { class: 'who', title: plainName(s, d.declarer), text: isMe(s, d.declarer) ? t('ring.you') : shortName(s, d.declarer) }),
          ),
        );
      }
      if (phase !== 'discard') parts.push(trumpBadge);
      if (d.discards && d.discards.length && phase !== 'discard') {
        parts.push(h('div', { class: 'my-discards', 'data-testid': 'discards' }, h('span', { class: 'label', text: isMe(s, d.declarer) ? t('ring.your_discards') : t('ring.discards') }), h('div', { class: 'last-cards' }, d.discards.map((code) => cardEl(code, { className: 'tiny', attrs: { 'data-testid': `discard-card-${code}` } })))));
      }
      const last = d.final_trick ? null : d.last_trick;
      if (phase !== 'discard')
        parts.push(
          h(
            'div',
            { class: 'last-trick', 'data-testid': 'last-trick' },
            h('span', { class: 'label', text: t('table.last_trick') }),
            last
              ? h('div', { class: 'last-cards' }, last.cards.map((code) => cardEl(code, { className: 'tiny', attrs: { 'data-testid': `last-trick-card-${code}` } })))
              : h('div', { class: 'last-cards' }, h('div', { class: 'card tiny empty-slot', 'aria-hidden': 'true' })),
            last ? h('span', { class: 'won-by', text: t('table.won_by', { name: isMe(s, last.winner) ? t('ring.you') : plainName(s, last.winner) }) }) : null,
          ),
        );
    }
    setChildren(side, parts);
    side.hidden = !parts.length;
  }

  function renderBanners(s) {
    syncBanners(banners, s);
  }

  /** Count down held seats (R6.2) without re-rendering everything. */
  function tick(s) {
    for (const out of el.querySelectorAll('[data-testid$="-grace"]')) {
      const seat = Number(out.closest('[data-seat]').dataset.seat);
      const p = player(s, seat);
      if (p && p.grace_deadline) out.textContent = graceText(p.grace_deadline);
    }
  }

  // `seats` and `centre` (inside `el`) for a page that lays them out itself (the replay viewer)
  return { el, me, seats: seatsLayer, centre, render, tick };
}
