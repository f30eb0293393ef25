// Names and card words for the table's components (the store holds no text).
import { SUIT_SYMBOL, suitName, suitOf } from '../cards.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { botNumber, playerName } from '../ui.js';
import { dealOf, legalMoves, mySeat, otherSeats, player, roomOf, seatCount } from './store.js';

const playersOf = (s) => (roomOf(s) && roomOf(s).players) || [];

export function plainName(s, seat) {
  const p = player(s, seat);
  return p ? playerName(p, playersOf(s)) : t('table.nobody');
}

/** For narrow columns: the computer is just "Computer" (its level is shown elsewhere), numbered when there are several. */
export function shortName(s, seat) {
  const p = player(s, seat);
  if (!p || !p.bot_level) return plainName(s, seat);
  const n = botNumber(p, playersOf(s));
  return n ? t('bot.short_n', { n }) : t('bot.short');
}

export const isBot = (s, seat) => Boolean(player(s, seat) && player(s, seat).bot_level);

export const suitWord = (suit) => `${SUIT_SYMBOL[suit]} ${suitName(suit)}`;

/** The suit a player lacks, "No clubs ♣": its word in the form the language wants after "no" (suit.gen.*, Russian's genitive "нет треф"). */
export const suitLacked = (suit) => `${t(`suit.gen.${suit}`)} ${SUIT_SYMBOL[suit]}`;

/** A short card label for lines of text: "A♣", "10♥" (indices as on the cards). */
export function cardShort(code) {
  return `${t(`rank.short.${code[0]}`)}${SUIT_SYMBOL[code[1]]}`;
}

/** Why a card cannot be played, in the player's terms ("Follow ♣ and beat the K: only A♣"). */
export function whyText(s, code) {
  const d = dealOf(s);
  const lead = d && d.trick && d.trick.cards && d.trick.cards[0];
  const legal = [...legalMoves(s).keys()];
  const params = {
    suit: lead ? (code === 'must_trump' ? suitLacked(suitOf(lead)) : SUIT_SYMBOL[suitOf(lead)]) : '',
    card: lead ? cardShort(lead) : '',
    trump: d && d.trump ? SUIT_SYMBOL[d.trump] : '',
    cards: legal.map(cardShort).join(' '),
    name: plainName(s, turnSeat(s)),
  };
  const known = ['not_your_turn', 'must_follow_suit', 'must_beat', 'must_trump', 'cannot_declare', 'summary_open', 'match_over', 'card_not_held', 'deal_over', 'auction_on', 'discard_on'];
  return t(`why.${known.includes(code) ? code : 'not_allowed'}`, params);
}

/** The seat to move (for "wait for …"), else the declarer, else the next seat. */
function turnSeat(s) {
  const d = dealOf(s);
  if (d && Number.isInteger(d.turn)) return d.turn;
  if (d && Number.isInteger(d.declarer)) return d.declarer;
  return otherSeats(s)[0] ?? mySeat(s);
}

/** Nobody at the table to chat with: every other seat taken is the computer's. */
export function nobodyToChat(s) {
  const taken = otherSeats(s).filter((seat) => player(s, seat));
  return taken.length > 0 && taken.every((seat) => isBot(s, seat));
}

// ------------------------------------------------------------------ seat tags: an initial and a colour

/**
 * A seat's colour: its place in playing order from the seat at the bottom (0 the viewer's own, then
 * clockwise) — the order of the race chart's lines (race-me, race-opp, race-opp2, race-opp3), so one
 * seat has one colour on the felt, on its trick cards, in the score sheet and in the chart.
 */
export function seatColour(s, seat) {
  const n = seatCount(s);
  return (((seat - mySeat(s)) % n) + n) % n;
}

const firstLetters = (name, k) => [...String(name || '').trim()].slice(0, k).join('').toLocaleUpperCase();

/**
 * A seat's initial: a person's first letter (two when another person's name starts alike), a
 * computer's "C" with its number ("C2") where there are several.
 */
export function seatInitial(s, seat) {
  const p = player(s, seat);
  if (!p) return '?';
  if (p.bot_level) {
    const n = botNumber(p, playersOf(s));
    return n ? t('seat.bot_initial_n', { n }) : t('seat.bot_initial');
  }
  const mine = firstLetters(p.name, 1);
  const alike = playersOf(s).some((q) => q && q !== p && !q.bot_level && q.id !== p.id && firstLetters(q.name, 1) === mine);
  return firstLetters(p.name, alike ? 2 : 1) || '?';
}

/** The seat's tag: its initial on its colour (words for it are the name beside it or its label). */
export function seatTag(s, seat, attrs = {}) {
  return h('span', { class: `seat-tag seat-c${seatColour(s, seat)}`, 'data-colour': String(seatColour(s, seat)), 'aria-hidden': 'true', ...attrs, text: seatInitial(s, seat) });
}

/**
 * What a narrow box may show for a seat, longest first: the whole name, a computer's without its
 * level, a person's first word with an ellipsis (never a cut inside a word); fit.js picks one.
 */
export function nameCandidates(s, seat, whole = plainName(s, seat)) {
  const p = player(s, seat);
  const out = [whole];
  if (p && p.bot_level) out.push(shortName(s, seat));
  else {
    const words = whole.split(/\s+/).filter(Boolean);
    if (words.length > 1) out.push(`${words[0]}…`);
  }
  return out;
}
