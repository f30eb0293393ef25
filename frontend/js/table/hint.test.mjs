// A hint's words (js/table/hint.js, issue 26): the action written out and its reason in each
// language, with the suit in the form the sentence wants (Russian: «туз червей», the genitive), and
// every reason code the server may send (HINT_REASONS) worded in en, de and ru.
// node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

let lang = 'en';
globalThis.localStorage = { getItem: () => lang, setItem() {} };
globalThis.document ??= { documentElement: {}, addEventListener() {}, removeEventListener() {} };
const { HINT_REASONS } = await import('../generated/protocol.js');
const { hintCards, hintOffered, hintWords } = await import('./hint.js');
const { initialState, reduce } = await import('./store.js');
const dicts = {
  en: (await import('../i18n/en.js')).default,
  de: (await import('../i18n/de.js')).default,
  ru: (await import('../i18n/ru.js')).default,
};

const play = (card, reason, declare = false) => ({ type: 'hint', version: 3, reply_to: 1, action: { seat: 0, kind: 'play', card, declare }, reason });

test('en: the card to play and why, the ace named by its suit', () => {
  const words = hintWords(play('TH', 'safe_ten'));
  assert.equal(words.action, 'play 10♥');
  assert.equal(words.reason, 'The 10 is safe: the ace of hearts is gone.');
});

test('a declaration names its suit; bids, passes and discards are written out; no reason, no words', () => {
  assert.match(hintWords(play('KS', 'declares_marriage', true)).action, /K♠.*spades/);
  assert.equal(hintWords({ action: { seat: 0, kind: 'bid', amount: 120 }, reason: 'bid_worth' }).action, 'bid 120');
  assert.equal(hintWords({ action: { seat: 0, kind: 'pass' }, reason: 'pass_weak' }).reason, 'The hand is too weak to bid.');
  assert.equal(hintWords({ action: { seat: 0, kind: 'discard', cards: ['TD', '9S'] }, reason: null }).action, 'lay away 10♦, 9♠');
  assert.equal(hintWords(play('9C', null)).reason, null);
  assert.equal(hintWords(play('9C', 'not_a_code')).reason, null); // an unknown code is left unsaid
});

test('the hinted cards: the one to play, or the two to lay away', () => {
  assert.deepEqual(hintCards(play('AC', null)), ['AC']);
  assert.deepEqual(hintCards({ action: { seat: 0, kind: 'discard', cards: ['TD', '9S'] } }), ['TD', '9S']);
  assert.deepEqual(hintCards({ action: { seat: 0, kind: 'pass' } }), []);
  assert.deepEqual(hintCards(null), []);
});

test('the button is offered where the server says the table offers hints, at my turn, for two, three and four', () => {
  for (const name of ['twohand2-lead', 'mcleod3-auction', 'bidding4-play']) {
    const [message] = JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
    const at = (hints, turn) => {
      const m = { ...message, room: { ...message.room, hints }, view: { ...message.view, deal: { ...message.view.deal, turn } } };
      return reduce(reduce(initialState({ myId: 'p0' }), { type: 'local/conn', status: 'open' }), m);
    };
    assert.equal(hintOffered(at(true, 0)), true, name);
    assert.equal(hintOffered(at(false, 0)), false, name); // the server's answer, never worked out here
    assert.equal(hintOffered(at(true, 1)), false, name); // not my turn
  }
});

test('every reason code has its words in en, de and ru', () => {
  for (const code of HINT_REASONS) for (const dict of Object.values(dicts)) assert.ok(dict[`hint.reason.${code}`], `${code}`);
});
