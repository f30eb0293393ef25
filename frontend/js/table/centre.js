// The middle of the felt: stock (with its count and the trump badge), the trick, the last trick,
// and the brief marriage announcements.
import { cardBack, cardEl, SUIT_SYMBOL, suitBadge } from '../cards.js';
import { h, prefersReducedMotion, setChildren } from '../dom.js';
import { t, tn } from '../i18n.js';
import { dealOf, mySeat } from './store.js';
import { plainName } from './names.js';

export const BANNER_MS = 2600;

export function createCentre() {
  const stock = h('div', { class: 'stock-area', 'data-testid': 'stock' });
  const trump = h('div', { class: 'trump-badge', 'data-testid': 'trump-badge' });
  const trickLayer = h('div', { class: 'trick-layer', 'data-testid': 'current-trick' });
  const ghostLayer = h('div', { class: 'ghost-layer', 'aria-hidden': 'true' });
  const trick = h('div', { class: 'trick-area', 'data-testid': 'trick', role: 'region' }, ghostLayer, trickLayer);
  const lastTrick = h('div', { class: 'last-trick', 'data-testid': 'last-trick' });
  const banners = h('div', { class: 'banner-layer', 'aria-live': 'polite' });
  const el = h('div', { class: 'felt-centre' }, h('div', { class: 'centre-side left' }, stock, trump), trick, h('div', { class: 'centre-side right' }, lastTrick), banners);
  let lastKey = null;

  function render(s, { events = [] } = {}) {
    const d = dealOf(s);
    if (!d) return;
    const me = mySeat(s);
    // Stock, with the faced bottom card where R2 shows one.
    const pile = [];
    if (d.stock_bottom) pile.push(cardEl(d.stock_bottom, { className: 'stock-bottom small', attrs: { 'data-testid': 'stock-bottom' } }));
    if (d.stock_count > 0) {
      const layers = Math.min(3, Math.ceil(d.stock_count / 3));
      for (let i = 0; i < layers; i++) pile.push(cardBack({ className: 'small stack', attrs: { style: `--i:${i}` } }));
    } else pile.push(h('div', { class: 'card small empty-slot', 'aria-hidden': 'true' }));
    const stockText = d.stock_count > 0 ? tn('table.stock_count', d.stock_count) : t('table.stock_empty');
    setChildren(
      stock,
      h('div', { class: 'stock-pile' }, pile),
      h('span', { class: 'count-chip', 'data-testid': 'stock-count', 'data-count': String(d.stock_count) }, String(d.stock_count)),
    );
    stock.setAttribute('aria-label', stockText);
    stock.setAttribute('role', 'img');

    trump.dataset.trump = d.trump || 'none';
    setChildren(
      trump,
      h('span', { class: 'label', text: t('table.trump') }),
      d.trump ? h('span', { class: 'trump-sym' }, suitBadge(d.trump)) : h('span', { class: 'trump-none', text: t('table.no_trump') }),
    );

    // The trick in progress; while a deal summary is up, its last trick stays on the table.
    const played = new Set(events.filter((e) => e && e.kind === 'card_played').map((e) => e.card));
    trick.setAttribute('aria-label', t('table.trick'));
    const cardsOf = (tr, extra = {}) =>
      (tr.cards || []).map((code, i) => {
        const seat = i === 0 ? tr.leader : 1 - tr.leader;
        const side = seat === me ? 'mine' : 'theirs';
        const anim = played.has(code) ? ` enter-${side}` : '';
        return cardEl(code, { className: `trick-card ${side} pos-${i}${anim}`, attrs: extra.testids === false ? {} : { 'data-testid': `trick-card-${code}` } });
      });
    if (d.final_trick) {
      // Cards of a deal already over: kept out of the R7 checks of the live deal (like the sweep).
      trickLayer.replaceChildren();
      setChildren(ghostLayer, h('div', { class: `ghost-trick held to-${d.final_trick.winner === me ? 'mine' : 'theirs'}` }, cardsOf(d.final_trick, { testids: false })));
    } else {
      setChildren(trickLayer, ...cardsOf(d.trick || { leader: null, cards: [] }));
      const won = events.find((e) => e && e.kind === 'trick_won');
      if (won) showGhost(won, me);
      else if ((d.trick && d.trick.cards && d.trick.cards.length) || !events.length) ghostLayer.replaceChildren();
    }

    const last = d.final_trick ? null : d.last_trick;
    const key = last ? `${last.cards.join()}|${last.winner}` : 'none';
    if (key !== lastKey || !events.length) {
      lastKey = key;
      setChildren(
        lastTrick,
        h('span', { class: 'label', text: t('table.last_trick') }),
        last
          ? h('div', { class: 'last-cards' }, last.cards.map((code) => cardEl(code, { className: 'tiny', attrs: { 'data-testid': `last-trick-card-${code}` } })))
          : h('div', { class: 'last-cards' }, h('div', { class: 'card tiny empty-slot', 'aria-hidden': 'true' })),
        last ? h('span', { class: 'won-by', text: t('table.won_by', { name: plainName(s, last.winner) }) }) : null,
      );
    }
    renderBanners(s);
  }

  function showGhost(won, me) {
    const reduced = prefersReducedMotion();
    const ghost = h(
      'div',
      { class: `ghost-trick to-${won.seat === me ? 'mine' : 'theirs'}` },
      won.cards.map((code, i) => {
        const seat = i === 0 ? won.leader : 1 - won.leader;
        return cardEl(code, { className: `trick-card ${seat === me ? 'mine' : 'theirs'} pos-${i}`, attrs: { 'aria-hidden': 'true' } });
      }),
    );
    setChildren(ghostLayer, ghost);
    setTimeout(() => ghost.classList.add('sweep'), reduced ? 300 : 700);
    setTimeout(() => ghost.remove(), reduced ? 500 : 1250);
  }

  function renderBanners(s) {
    syncBanners(banners, s);
  }

  return { el, render };
}

/**
 * The marriage banners of a table (two seats or more): one per declaration still shown, each added
 * once. The pair is shown as pictures only: no card codes in the DOM (the partner stays in the hand).
 */
export function syncBanners(banners, s) {
  const shown = new Set([...banners.children].map((b) => b.dataset.id));
  const wanted = new Set(s.banners.map((b) => String(b.id)));
  for (const b of [...banners.children]) if (!wanted.has(b.dataset.id)) b.remove();
  for (const b of s.banners) {
    if (shown.has(String(b.id))) continue;
    const pair = ['K', 'Q'].map((rank) => {
      const card = cardEl(`${rank}${b.suit}`, { className: 'tiny' });
      card.removeAttribute('data-card');
      card.setAttribute('aria-hidden', 'true');
      card.removeAttribute('role');
      card.removeAttribute('aria-label');
      return card;
    });
    banners.append(
      h(
        'div',
        { class: 'marriage-banner', 'data-testid': 'marriage-banner', 'data-id': String(b.id), 'data-seat': String(b.seat), 'data-suit': b.suit, 'data-points': String(b.points), role: 'status' },
        h('div', { class: 'pair' }, pair),
        h('p', { text: t('table.marriage_banner', { name: plainName(s, b.seat), symbol: SUIT_SYMBOL[b.suit], points: b.points }) }),
      ),
    );
  }
}
