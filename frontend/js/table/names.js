// Names and card words for the table's components (the store holds no text).
import { SUIT_SYMBOL, suitName, suitOf } from '../cards.js';
import { t } from '../i18n.js';
import { botNumber, playerName } from '../ui.js';
import { dealOf, legalMoves, mySeat, otherSeats, player, roomOf } from './store.js';

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
    suit: lead ? SUIT_SYMBOL[suitOf(lead)] : '',
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
