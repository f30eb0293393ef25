// The hint (issue 26): at my turn, where the table offers hints — `room.hints`, the server's own rule
// (one person against the computer, for nothing), never worked out here — the bar's "Hint" button
// asks for the expert's choice; the answer is written out under the turn line with its reason in my
// words, and the view highlights the card (or the two discards) in my hand. A hint belongs to the
// version it was asked at: once the table moves on it is gone.
import { HINT_REASONS } from '../generated/protocol.js';
import { h, setAttr, setText } from '../dom.js';
import { patchChildren } from './patch.js';
import { t } from '../i18n.js';
import { cardShort, suitWord } from './names.js';
import { myTurn, roomOf } from './store.js';

const REASONS = new Set(HINT_REASONS);

/** The Hint button is offered: the table offers hints (the server says so) and it is my turn. */
export function hintOffered(s) {
  const room = roomOf(s);
  return Boolean(room && room.hints && room.status === 'playing' && myTurn(s) && !s.held);
}

/** A hint's words: what the computer would do, and why (null where no reason applies). */
export function hintWords(hint) {
  const a = hint.action;
  let action;
  if (a.kind === 'play') action = a.declare ? t('hint.play_declare', { card: cardShort(a.card), suit: suitWord(a.card[1]) }) : t('hint.play', { card: cardShort(a.card) });
  else if (a.kind === 'bid') action = t('hint.bid', { amount: a.amount });
  else if (a.kind === 'discard') action = t('hint.discard', { cards: a.cards.map(cardShort).join(', ') });
  else action = t('hint.pass');
  const code = REASONS.has(hint.reason) ? hint.reason : null;
  if (!code) return { action, reason: null };
  const suit = a.kind === 'play' ? a.card[1] : null;
  // the ace "of hearts" wants the genitive in Russian (туз червей); a declared suit its name with its symbol
  const word = !suit ? '' : code === 'safe_ten' ? t(`suit.gen.${suit}`) : suitWord(suit);
  return { action, reason: t(`hint.reason.${code}`, { suit: word }) };
}

/** The cards of my hand a hint points at. */
export function hintCards(hint) {
  if (!hint) return [];
  const a = hint.action;
  return a.kind === 'play' ? [a.card] : a.kind === 'discard' ? [...a.cards] : [];
}

export function createHint({ onAsk }) {
  const label = h('span', { class: 'bar-label visually-hidden until-wide' });
  const button = h('button', { type: 'button', class: 'bar-btn hint-btn', 'data-testid': 'hint', hidden: true, onclick: () => onAsk() }, h('span', { class: 'hint-icon', 'aria-hidden': 'true', text: '?' }), label);
  const box = h('div', { class: 'hint-box', 'data-testid': 'hint-box', role: 'status', 'aria-live': 'polite', id: 'hint-box' });
  let asked = null; // {id, version} while the server works it out
  let shown = null; // the hint message of the current version

  /** What the view shows now: a hint of an older version is dropped. */
  function current(s) {
    if (shown && shown.version !== s.version) shown = null;
    if (asked && asked.version !== s.version) asked = null;
    return hintOffered(s) ? shown : null;
  }

  function render(s) {
    const offered = hintOffered(s);
    const hint = current(s);
    // written only where it changes (issue 42): the table renders this at every state and card
    if (button.hidden !== !offered) button.hidden = !offered;
    if (button.disabled !== Boolean(asked)) button.disabled = Boolean(asked);
    setAttr(button, 'aria-busy', String(Boolean(asked)));
    setAttr(button, 'aria-controls', 'hint-box');
    setText(label, asked ? t('hint.thinking') : t('hint.button'));
    setAttr(button, 'title', t('hint.button'));
    if (box.hidden !== !hint) box.hidden = !hint;
    if (!hint) {
      if (box.firstChild) box.replaceChildren();
      return;
    }
    const words = hintWords(hint);
    patchChildren(box, [
      h('span', { class: 'hint-what', 'data-testid': 'hint-action', text: `${t('hint.title')} ${words.action}` }),
      words.reason ? h('span', { class: 'hint-why', 'data-testid': 'hint-reason', 'data-reason': hint.reason, text: words.reason }) : null,
    ]);
  }

  return {
    button,
    box,
    render,
    /** The hint I asked for, or null. */
    shownFor: (s) => current(s),
    asking: (id, version) => {
      asked = { id, version };
    },
    /** A `hint` message: kept if it answers my question at this version. */
    got(m) {
      if (!asked || m.reply_to !== asked.id) return false;
      asked = null;
      shown = m;
      return true;
    },
    /** A refusal: true if it answered my hint (the question is over). */
    refused(m) {
      if (!asked || m.id !== asked.id) return false;
      asked = null;
      return true;
    },
  };
}
