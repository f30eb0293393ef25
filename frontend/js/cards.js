// Card rendering: large corner indices, a centre pip, or for K, Q and J a picture (court.js, inline SVG).
// Codes follow the protocol: rank A T K Q J 9 (8 7) then suit C S H D, e.g. "TH".
import { h } from './dom.js';
import { t } from './i18n.js';
import { courtPicture } from './court.js';

export const SUITS = ['C', 'S', 'H', 'D'];
export const RANKS = ['A', 'T', 'K', 'Q', 'J', '9', '8', '7'];
export const SUIT_SYMBOL = { C: '♣', S: '♠', H: '♥', D: '♦' };
export const CARD_POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0 };
// Display order alternates colours: ♣ ♥ ♠ ♦.
const DISPLAY_SUIT_ORDER = ['C', 'H', 'S', 'D'];

export const rankOf = (code) => code[0];
export const suitOf = (code) => code[1];
export const isRed = (suit) => suit === 'H' || suit === 'D';

export function sortHand(cards) {
  return [...cards].sort((a, b) => {
    const s = DISPLAY_SUIT_ORDER.indexOf(suitOf(a)) - DISPLAY_SUIT_ORDER.indexOf(suitOf(b));
    return s || RANKS.indexOf(rankOf(a)) - RANKS.indexOf(rankOf(b));
  });
}

export function rankShort(rank) {
  return t(`rank.short.${rank}`);
}

export function cardName(code) {
  return t('card.name', { rank: t(`rank.name.${rankOf(code)}`), suit: t(`suit.of.${suitOf(code)}`) });
}

export function suitName(suit) {
  return t(`suit.name.${suit}`);
}

/** An inline suit symbol in the right colour, with its name for screen readers. */
export function suitBadge(suit) {
  return h('span', {
    class: `suit-sym ${isRed(suit) ? 'red' : 'black'} suit-${suit}`,
    role: 'img',
    'aria-label': suitName(suit),
    title: suitName(suit),
    text: SUIT_SYMBOL[suit],
  });
}

function face(code) {
  const rank = rankOf(code);
  const suit = suitOf(code);
  const sym = SUIT_SYMBOL[suit];
  const short = rankShort(rank);
  const corner = (pos) =>
    h('span', { class: `corner ${pos}`, 'aria-hidden': 'true' }, h('span', { class: short.length > 1 ? 'idx wide' : 'idx', text: short }), h('span', { class: 'csuit', text: sym }));
  const isFace = rank === 'K' || rank === 'Q' || rank === 'J';
  const centre = isFace
    ? h('span', { class: 'centre court-face', 'aria-hidden': 'true' }, courtPicture(rank, sym))
    : h('span', { class: `centre pip ${rank === 'A' ? 'ace' : ''}`, 'aria-hidden': 'true', text: sym });
  return [corner('tl'), centre, corner('br')];
}

/** A face-up card. `opts.button` makes it a <button>; extra attributes go in `opts.attrs`. */
export function cardEl(code, opts = {}) {
  const suit = suitOf(code);
  const court = 'KQJ'.includes(rankOf(code)) ? ' court-card' : '';
  const cls = `card ${isRed(suit) ? 'red' : 'black'} suit-${suit}${court} ${opts.className || ''}`.trim();
  const attrs = { class: cls, 'data-card': code, ...(opts.attrs || {}) };
  if (opts.button) {
    return h('button', { type: 'button', 'aria-label': cardName(code), ...attrs }, face(code));
  }
  return h('div', { role: 'img', 'aria-label': cardName(code), ...attrs }, face(code));
}

/** A face-down card: carries no card name, ever (R7). */
export function cardBack(opts = {}) {
  return h('div', { class: `card back ${opts.className || ''}`.trim(), 'aria-hidden': 'true', ...(opts.attrs || {}) });
}
