// Names and card words for the table's components (the store holds no text).
import { SUIT_SYMBOL, suitName, suitOf } from '../cards.js';
import { t } from '../i18n.js';
import { playerName } from '../ui.js';
import { dealOf, legalMoves, player } from './store.js';

export function plainName(s, seat) {
  const p = player(s, seat);
  return p ? playerName(p) : t('table.nobody');
}

/** For narrow columns: the computer is just "Computer" (its level is shown elsewhere). */
export function shortName(s, seat) {
  const p = player(s, seat);
  return p && p.bot_level ? t('bot.short') : plainName(s, seat);
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
    name: plainName(s, 1 - ((s.shown && s.shown.view && s.shown.view.seat) ?? 0)),
  };
  const known = ['not_your_turn', 'must_follow_suit', 'must_beat', 'must_trump', 'cannot_declare', 'summary_open', 'match_over', 'card_not_held', 'deal_over'];
  return t(`why.${known.includes(code) ? code : 'not_allowed'}`, params);
}

