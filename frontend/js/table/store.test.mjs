// Unit tests of the table's store over hand-made two-hand messages in the one shape of protocol 2
// (the same reducer reads every seat count: model.test.mjs runs it over real engine views of 2, 3 and 4).
// node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockedMoves, connectionPill, initialState, isBlocking, legalMoves, marriagesOf, myTurn, optimisticCard, reduce, whyNot } from './store.js';

const deepFreeze = (o) => {
  if (o && typeof o === 'object') {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};

function stateMsg({ version, hand, turn = 0, trick = [], legal = [], blocked, events = [], totals = [0, 0], history = [], declarations = [], opp = 8, matchId = 'm1' }) {
  return deepFreeze({
    type: 'state',
    version,
    reply_to: null,
    room: { id: 'r1', status: 'playing', match_id: matchId, players: [{ seat: 0, id: 'p0', name: 'Anna', connected: true }, { seat: 1, id: 'p1', name: 'Ben', connected: true }], rematch: null, options: {} },
    view: {
      seat: 0,
      target: 1001,
      totals,
      deal_number: history.length,
      rules: { variant: 'twohand', seats: 2, target: 1001, scoring: 'original', jungfrau: false, open_scores: false, declaration_scoring: 'by_suit', show_stock_bottom: false, deck_size: 24 },
      deal: { variant: 'twohand', dealer: 1, forehand: 0, turn, phase: 'play', hand, hand_counts: [hand.length, opp], stock_count: 6, stock_bottom: null, talon_count: 0, talon: null, discards: null, calls: [], high_bid: null, declarer: null, contract: null, trump: null, declarations, trick: { leader: 0, cards: trick }, last_trick: null, tricks_played: 0, tricks_won: [0, 0], my_card_points: 0, card_points: null },
      bids: [],
      may_pass: false,
      must_discard: false,
      legal,
      blocked: blocked || [],
      history,
      winner: null,
      loser: null,
      end_reason: null,
      places: null,
    },
    events,
    stake: null,
    stakes: [],
    resign_price: null,
  });
}

const start = () => reduce(initialState({ myId: 'p0' }), stateMsg({ version: 1, hand: ['AS', '9S'], legal: [{ card: 'AS', declare: null }], blocked: [{ card: '9S', code: 'must_beat' }] }));

test('a state is shown as it is and never mutated', () => {
  const s = start();
  assert.equal(s.version, 1);
  assert.equal(s.shown, s.msg);
  assert.ok(myTurn(s));
  assert.deepEqual([...legalMoves(s).keys()], ['AS']);
  assert.equal(blockedMoves(s).get('9S'), 'must_beat');
  assert.equal(whyNot(s, '9S'), 'must_beat');
  assert.equal(whyNot(s, 'AS'), null);
});

test('an older version is ignored', () => {
  const s = start();
  const older = reduce(s, stateMsg({ version: 0, hand: [] }));
  assert.equal(older.shown, s.shown);
  assert.equal(older.version, 1);
  assert.deepEqual(older.effects, []);
});

test('a card neither legal nor blocked is refused in general terms; another seat’s turn says so', () => {
  const s = reduce(initialState({ myId: 'p0' }), stateMsg({ version: 1, hand: ['AS', '9S'], legal: [{ card: 'AS', declare: null }] }));
  assert.equal(whyNot(s, '9S'), 'not_allowed');
  const theirs = reduce(s, stateMsg({ version: 2, hand: ['AS', '9S'], turn: 1 }));
  assert.equal(whyNot(theirs, 'AS'), 'not_your_turn');
});

test('a marriage is announced once and listed by seat', () => {
  const s = reduce(start(), stateMsg({ version: 2, hand: ['AS'], turn: 1, trick: ['KH'], declarations: [{ seat: 1, suit: 'H', points: 60 }], events: [{ kind: 'card_played', seat: 1, card: 'KH', declare: 'H' }, { kind: 'declaration', seat: 1, suit: 'H', points: 60 }] }));
  assert.equal(s.banners.length, 1);
  assert.deepEqual({ ...s.banners[0], id: 0 }, { id: 0, seat: 1, suit: 'H', points: 60 });
  assert.deepEqual(marriagesOf(s, 1), [{ seat: 1, suit: 'H', points: 60 }]);
  assert.deepEqual(marriagesOf(s, 0), []);
  assert.ok(s.effects.includes('marriage') && s.effects.includes('card'));
  const done = reduce(s, { type: 'local/banner_done', id: s.banners[0].id });
  assert.equal(done.banners.length, 0);
});

test('a deal that ends holds the next hand back until the summary is closed', () => {
  const last = reduce(initialState({ myId: 'p0' }), stateMsg({ version: 5, hand: ['AS'], legal: [{ card: 'AS', declare: null }], opp: 1, trick: [] }));
  const dealOver = { kind: 'deal_over', number: 0, thrown_in: false, declarer: null, contract: null, made: null, card_points: [70, 50], declaration_points: [0, 0], deal_points: [70, 50], jungfrau: [0, 0], score: [70, 50], totals: [70, 50], seed: 'x' };
  const next = stateMsg({
    version: 6,
    hand: ['KC', 'QC', 'TD'],
    turn: 1,
    totals: [70, 50],
    history: [{ number: 0, dealer: 1, seed: 'x', thrown_in: false, declarer: null, contract: null, made: null, card_points: [70, 50], declarations: [], declaration_points: [0, 0], deal_points: [70, 50], jungfrau: [0, 0], score: [70, 50], totals: [70, 50] }],
    events: [
      { kind: 'card_played', seat: 0, card: 'AS', declare: null },
      { kind: 'card_played', seat: 1, card: '9S', declare: null },
      { kind: 'trick_won', seat: 0, leader: 0, cards: ['AS', '9S'], points: 11 },
      dealOver,
      { kind: 'deal_started', number: 1, dealer: 0 },
    ],
  });
  const s = reduce(last, next);
  assert.ok(s.held);
  assert.equal(s.version, 6);
  assert.equal(s.msg, next);
  assert.deepEqual(s.shown.view.deal.hand, []);
  assert.deepEqual(s.shown.view.deal.trick.cards, ['AS', '9S']);
  assert.deepEqual(s.shown.view.deal.hand_counts, [0, 0]);
  assert.equal(s.shown.view.deal.phase, 'over');
  assert.deepEqual(s.shown.view.deal.tricks_won, [1, 0]);
  assert.deepEqual(s.shown.view.deal.final_trick, { leader: 0, cards: ['AS', '9S'], winner: 0 });
  assert.deepEqual(s.shown.view.totals, [70, 50]);
  assert.equal(s.shown.view.deal.my_card_points, 70); // the last trick counted, as in the summary (issue 22)
  assert.equal(s.shown.view.deal.card_points, null); // R7: the others' stay hidden
  assert.equal(s.summary.open, true);
  assert.equal(legalMoves(s).size, 0);
  assert.ok(s.effects.includes('deal') && s.effects.includes('trick'));
  // The opponent leads meanwhile: still held.
  const led = reduce(s, stateMsg({ version: 7, hand: ['KC', 'QC', 'TD'], turn: 0, trick: ['JC'], legal: [{ card: 'KC', declare: null }], totals: [70, 50] }));
  assert.ok(led.held);
  assert.deepEqual(led.shown.view.deal.hand, []);
  assert.ok(!led.effects.includes('turn'));
  // A resignation behind the summary ends the match at once.
  const resigned = stateMsg({ version: 8, hand: ['KC', 'QC', 'TD'], turn: 0, totals: [70, 50], events: [{ kind: 'match_over', winner: 1, loser: 0, reason: 'resign', totals: [70, 50] }] });
  const over = reduce(led, { ...resigned, view: { ...resigned.view, winner: 1, loser: 0, end_reason: 'resign', places: [2, 1] } });
  assert.ok(!over.held);
  assert.equal(over.shown.view.winner, 1);
  const open = reduce(led, { type: 'local/summary_close' });
  assert.ok(!open.held);
  assert.equal(open.shown, open.msg);
  assert.deepEqual(open.shown.view.deal.hand, ['KC', 'QC', 'TD']);
  assert.deepEqual(open.effects, ['turn']);
});

test('chat: the log replaces, live lines count as unread until read', () => {
  let s = start();
  s = reduce(s, deepFreeze({ type: 'chat_log', lines: [{ seat: 1, name: 'Ben', text: 'hi', at: 'x' }] }));
  assert.equal(s.chat.length, 1);
  assert.equal(s.unread, 0);
  s = reduce(s, deepFreeze({ type: 'chat', seat: 1, name: 'Ben', text: '<b>yo</b>', at: 'y', reply_to: null }));
  assert.equal(s.unread, 1);
  assert.equal(s.chat[1].text, '<b>yo</b>');
  s = reduce(s, { type: 'local/sheet', open: true, tab: 'chat' });
  assert.equal(s.unread, 0);
  s = reduce(s, deepFreeze({ type: 'chat_log', lines: [{ seat: 0, name: 'Anna', text: 'a', at: 'z' }] }));
  assert.deepEqual(s.chat.map((l) => l.text), ['a']);
});

test('presence and a lost connection change copies, not the message', () => {
  let s = start();
  const msg = s.msg;
  s = reduce(s, { type: 'presence', seat: 1, connected: false, grace_deadline: '2026-01-01T00:00:00Z' });
  assert.equal(s.shown.room.players[1].connected, false);
  assert.equal(msg.room.players[1].connected, true);
  s = reduce(s, { type: 'local/conn', status: 'reconnecting' });
  assert.equal(s.shown.room.players[0].connected, false);
});

test('a rejected intent clears the pending one; stale_version waits for the state', () => {
  let s = reduce(start(), { type: 'local/sent', id: 9, kind: 'play', blocking: true });
  assert.deepEqual(s.pending, { id: 9, kind: 'play', card: null, slow: false });
  s = reduce(s, { type: 'rejected', id: 9, code: 'stale_version', version: 1 });
  assert.equal(s.pending, null);
  assert.equal(s.awaitingState, true);
  s = reduce(s, stateMsg({ version: 2, hand: ['AS'] }));
  assert.equal(s.awaitingState, false);
});

test('an illegal tap remembers the card and its reason', () => {
  let s = reduce(start(), { type: 'local/illegal', card: '9S' });
  assert.deepEqual({ card: s.illegal.card, code: s.illegal.code }, { card: '9S', code: 'must_beat' });
  s = reduce(s, { type: 'local/illegal_done', seq: s.illegal.seq });
  assert.equal(s.illegal, null);
});

test('the connection pill: a move waiting, a late pong, a socket down (issue 22)', () => {
  let s = reduce(start(), { type: 'local/conn', status: 'open' });
  assert.equal(connectionPill(s), null);
  s = reduce(s, { type: 'local/sent', id: 4, kind: 'play', card: '9S', blocking: true });
  assert.equal(connectionPill(s), null);
  assert.equal(reduce(s, { type: 'local/pending_slow', id: 3 }), s); // another intent's timer
  s = reduce(s, { type: 'local/pending_slow', id: 4 });
  assert.deepEqual(s.pending, { id: 4, kind: 'play', card: '9S', slow: true });
  assert.equal(connectionPill(s), 'sending');
  s = reduce(s, { type: 'local/health', health: 'slow' });
  assert.equal(connectionPill(s), 'slow');
  assert.equal(connectionPill(reduce(s, { type: 'local/conn', status: 'reconnecting' })), 'reconnecting');
  s = reduce(s, stateMsg({ version: 2, hand: ['AS'] })); // the answer
  assert.equal(s.pending, null);
  s = reduce(s, { type: 'local/health', health: 'ok' });
  assert.equal(connectionPill(s), null);
});

// ------------------------------------------------------------------ a card drawn at once (issue 42)
const played = (s) => s.shown.view.deal.trick.cards;

test('a legal card sent is in the trick at once; the server’s state stays the truth', () => {
  const s0 = reduce(start(), { type: 'local/conn', status: 'open' });
  const s = reduce(s0, { type: 'local/sent', id: 9, kind: 'play', card: 'AS', blocking: true, optimistic: true });
  assert.equal(optimisticCard(s), 'AS');
  assert.deepEqual(played(s), ['AS']);
  assert.deepEqual(s.shown.view.deal.hand, ['9S']);
  assert.deepEqual(s.shown.view.deal.hand_counts, [1, 8]);
  assert.equal(s.shown.view.deal.turn, 1);
  assert.deepEqual(s.shown.view.legal, []);
  assert.equal(s.msg, s0.msg); // the server's state is untouched
  assert.equal(s.pending.version, 1);
  assert.deepEqual(s.effects, ['card']);
  assert.ok(isBlocking(s));
  // an illegal card, or one sent without asking for it, is not drawn
  assert.equal(optimisticCard(reduce(s0, { type: 'local/sent', id: 9, kind: 'play', card: '9S', blocking: true, optimistic: true })), null);
  assert.equal(reduce(s0, { type: 'local/sent', id: 9, kind: 'play', card: 'AS', blocking: true }).shown, s0.shown);
});

test('the answer shows the server’s table; a same-version state keeps my card; a newer one is the server’s word', () => {
  const s0 = reduce(start(), { type: 'local/conn', status: 'open' });
  let s = reduce(s0, { type: 'local/sent', id: 9, kind: 'play', card: 'AS', blocking: true, optimistic: true });
  // same version, not the answer (a reply to something else): my card stays, still pending
  const same = reduce(s, { ...stateMsg({ version: 1, hand: ['AS', '9S'], legal: [{ card: 'AS', declare: null }] }), reply_to: 4 });
  assert.deepEqual(played(same), ['AS']);
  assert.equal(same.pending.id, 9);
  assert.equal(same.msg.reply_to, 4);
  // the answer: the server's table as it is, nothing pending, my card's sound not given twice
  const answer = { ...stateMsg({ version: 2, hand: ['9S'], turn: 1, trick: ['AS'], events: [{ kind: 'card_played', seat: 0, card: 'AS' }] }), reply_to: 9 };
  const done = reduce(same, answer);
  assert.equal(done.shown, done.msg);
  assert.equal(done.pending, null);
  assert.equal(done.putBack, null);
  assert.deepEqual(done.effects, []);
  // a newer table that does not answer it: shown as the server has it (my card back in the hand)
  const newer = reduce(s, stateMsg({ version: 3, hand: ['AS', '9S'] }));
  assert.equal(newer.shown, newer.msg);
  assert.equal(optimisticCard(newer), null);
  assert.deepEqual(newer.shown.view.deal.hand, ['AS', '9S']);
});

test('a refusal, a lost socket or no answer in time put the card back, saying why', () => {
  const s0 = reduce(start(), { type: 'local/conn', status: 'open' });
  const s = reduce(s0, { type: 'local/sent', id: 9, kind: 'play', card: 'AS', blocking: true, optimistic: true });
  const refused = reduce(s, { type: 'rejected', id: 9, code: 'must_follow' });
  assert.equal(refused.shown, s0.msg);
  assert.equal(refused.pending, null);
  assert.deepEqual({ card: refused.putBack.card, reason: refused.putBack.reason, code: refused.putBack.code }, { card: 'AS', reason: 'refused', code: 'must_follow' });
  assert.equal(reduce(s, { type: 'rejected', id: 3, code: 'must_follow' }).shown, s.shown); // another intent's
  const lost = reduce(s, { type: 'local/conn', status: 'reconnecting' });
  assert.equal(lost.putBack.reason, 'lost');
  assert.deepEqual(lost.shown.view.deal.hand, ['AS', '9S']);
  assert.equal(lost.pending, null);
  const late = reduce(s, { type: 'local/pending_timeout', id: 9 });
  assert.equal(late.putBack.reason, 'timeout');
  assert.equal(late.shown, s0.msg);
  assert.equal(reduce(late, { type: 'local/pending_timeout', id: 9 }), late); // once
});

test('a deal’s summary is made from the server’s state, not from the card drawn at once', () => {
  let s = reduce(initialState({ myId: 'p0' }), stateMsg({ version: 5, hand: ['AS'], opp: 1, legal: [{ card: 'AS', declare: null }] }));
  s = reduce(s, { type: 'local/conn', status: 'open' });
  s = reduce(s, { type: 'local/sent', id: 9, kind: 'play', card: 'AS', blocking: true, optimistic: true });
  const dealOver = { kind: 'deal_over', number: 0, totals: [120, 0], scores: [120, 0], card_points: [120, 0] };
  const events = [
    { kind: 'card_played', seat: 0, card: 'AS' },
    { kind: 'card_played', seat: 1, card: '9S' },
    { kind: 'trick_won', seat: 0, leader: 0, cards: ['AS', '9S'] },
    dealOver,
  ];
  const answer = { ...stateMsg({ version: 6, hand: ['KH', 'QH'], opp: 2, totals: [120, 0], history: [{ number: 0, declarations: [] }], events }), reply_to: 9 };
  s = reduce(s, answer);
  assert.equal(s.held, true);
  assert.equal(s.summary.event, dealOver);
  const d = s.shown.view.deal;
  assert.deepEqual(d.hand, []);
  assert.deepEqual(d.hand_counts, [0, 0]);
  assert.deepEqual(d.final_trick.cards, ['AS', '9S']);
  assert.equal(s.shown.optimistic, undefined);
  assert.equal(s.pending, null);
});
