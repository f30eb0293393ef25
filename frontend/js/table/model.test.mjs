// The table for every seat count: the pure helpers and the store over real engine views of two-hand
// 1001 (2 seats), McLeod (V2, 3 seats) and 1001 with bidding (V7, 4 seats) — fixtures/*.json, written
// by frontend/tools/table_fixtures.py. node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  auctionOf,
  bidChoice,
  discardReady,
  hasAuction,
  hasStock,
  othersAround,
  positionOf,
  seatCountOf,
  seatsFromMe,
  signed,
  standings,
  stepBid,
  summaryColumns,
  summaryRows,
  toggleDiscard,
  trickCards,
  tricksAfter,
} from './model.js';
import {
  auction,
  auctionTurn,
  bidAmount,
  canSubmitDiscard,
  discardTurn,
  initialState,
  isMe,
  isSpectator,
  legalMoves,
  matchOver,
  mySeat,
  myTurn,
  otherSeats,
  phaseOf,
  playTurn,
  reduce,
  tricksWon,
  viewOf,
  whyNot,
} from './store.js';

const deepFreeze = (o) => {
  if (o && typeof o === 'object') {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};
export const fixture = (name) => deepFreeze(JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')));
const open = (msgs, seat = 0) => msgs.reduce((s, m) => reduce(s, m), reduce(initialState({ myId: `p${seat}` }), { type: 'local/conn', status: 'open' }));

// The games the fixtures cover, by seat count.
const GAMES = [
  ['twohand2', 2],
  ['mcleod3', 3],
  ['bidding4', 4],
];

test('seats around the felt: me at the bottom, then clockwise — for two the other on top', () => {
  assert.deepEqual(othersAround(2, 0), [{ seat: 1, pos: 'top' }]);
  assert.deepEqual(othersAround(2, 1), [{ seat: 0, pos: 'top' }]);
  assert.deepEqual(othersAround(4, 0), [
    { seat: 1, pos: 'left' },
    { seat: 2, pos: 'top' },
    { seat: 3, pos: 'right' },
  ]);
  assert.deepEqual(othersAround(4, 2), [
    { seat: 3, pos: 'left' },
    { seat: 0, pos: 'top' },
    { seat: 1, pos: 'right' },
  ]);
  assert.deepEqual(othersAround(3, 0), [
    { seat: 1, pos: 'left' },
    { seat: 2, pos: 'right' },
  ]);
  assert.deepEqual(othersAround(3, 2), [
    { seat: 0, pos: 'left' },
    { seat: 1, pos: 'right' },
  ]);
  for (const n of [2, 3, 4]) for (let me = 0; me < n; me++) assert.equal(positionOf(n, me, me), 'bottom');
  assert.deepEqual(seatsFromMe(4, 3), [3, 0, 1, 2]);
  assert.deepEqual(seatsFromMe(2, 1), [1, 0]);
});

test('a trick names the seat of each card, the leader first', () => {
  assert.deepEqual(trickCards({ leader: 1, cards: ['JS', 'AS'] }, 2), [
    { card: 'JS', seat: 1 },
    { card: 'AS', seat: 0 },
  ]);
  assert.deepEqual(trickCards({ leader: 2, cards: ['KD', 'AD', 'QD'] }, 3), [
    { card: 'KD', seat: 2 },
    { card: 'AD', seat: 0 },
    { card: 'QD', seat: 1 },
  ]);
  assert.deepEqual(trickCards({ leader: 3, cards: ['7C', '9C'] }, 4), [
    { card: '7C', seat: 3 },
    { card: '9C', seat: 0 },
  ]);
  assert.deepEqual(trickCards(null, 3), []);
});

test('the bid stepper moves along the view’s bids and never leaves them', () => {
  const bids = [60, 70, 80, 90];
  assert.equal(bidChoice(bids, null), 60);
  assert.equal(bidChoice(bids, 80), 80);
  assert.equal(bidChoice(bids, 85), 60);
  assert.equal(bidChoice([], 60), null);
  assert.equal(stepBid(bids, null, 1), 70);
  assert.equal(stepBid(bids, 90, 1), 90);
  assert.equal(stepBid(bids, 60, -1), 60);
  assert.equal(stepBid(bids, 80, -1), 70);
  assert.equal(stepBid([], 80, 1), null);
});

test('discard selection: two cards of the hand, tap again to put back, a third replaces the first', () => {
  const hand = ['AC', 'TC', 'KH', 'QH', 'JS'];
  let sel = toggleDiscard([], 'JS', hand);
  assert.deepEqual(sel, ['JS']);
  assert.ok(!discardReady(sel));
  sel = toggleDiscard(sel, 'TC', hand);
  assert.deepEqual(sel, ['JS', 'TC']);
  assert.ok(discardReady(sel));
  sel = toggleDiscard(sel, 'KH', hand);
  assert.deepEqual(sel, ['TC', 'KH']);
  sel = toggleDiscard(sel, 'TC', hand);
  assert.deepEqual(sel, ['KH']);
  assert.deepEqual(toggleDiscard(sel, '9D', hand), ['KH']);
  assert.deepEqual(toggleDiscard(['9D', 'KH'], 'AC', hand), ['KH', 'AC']);
});

test('the auction: calls by seat, the high bid and its holder; none without an auction', () => {
  const a = auctionOf({ calls: [{ seat: 2, bid: 40 }, { seat: 0, bid: 50 }, { seat: 1, bid: null }, { seat: 2, bid: 60 }], high_bid: 60 }, 3);
  assert.deepEqual(a.last, [50, 'pass', 60]);
  assert.deepEqual(a.passed, [false, true, false]);
  assert.equal(a.high, 60);
  assert.equal(a.holder, 2);
  assert.equal(auctionOf({ calls: [], high_bid: null }, 4).holder, null);
  assert.deepEqual(auctionOf({ calls: [], high_bid: null }, 2).last, [null, null]);
});

test('results: rows from me clockwise, the columns a result needs, signed scores, standings by place', () => {
  const rows = summaryRows({ declarer: 0, card_points: [78, 0, 42], declaration_points: [80, 0, 0], deal_points: [158, 0, 42], jungfrau: [0, 100, 0], score: [160, 100, 40], totals: [160, 100, 40] }, 3, 1);
  assert.deepEqual(rows.map((r) => r.seat), [1, 2, 0]);
  assert.equal(rows[0].jungfrau, 100);
  assert.ok(rows[2].declarer && !rows[0].declarer);
  assert.deepEqual(summaryColumns(rows, { jungfrau: true }), { dealPoints: true, jungfrau: true });
  // R5: two-hand 1001 writes the card points and the marriages as they are — no extra column
  const two = summaryRows({ declarer: null, card_points: [70, 50], declaration_points: [60, 0], deal_points: [130, 50], jungfrau: [0, 0], score: [130, 50], totals: [130, 50] }, 2, 0);
  assert.deepEqual(summaryColumns(two, { jungfrau: false }), { dealPoints: false, jungfrau: false });
  // a history record without deal points: card points and marriages
  assert.equal(summaryRows({ card_points: [10, 20], declaration_points: [40, 0], score: [50, 20], totals: [50, 20] }, 2, 0)[0].dealPoints, 50);
  assert.equal(signed(60), '+60');
  assert.equal(signed(-70), '−70');
  assert.equal(signed(0), '0');
  assert.deepEqual(standings([160, 200, 160]).map((x) => x.seat), [1, 0, 2]);
  // the view's places rule: the one who resigned is last whatever the totals (R6.2, V0.10a)
  assert.deepEqual(standings([300, 100, 50], [3, 1, 2]).map((x) => x.seat), [1, 2, 0]);
  assert.deepEqual(tricksAfter([1, 0, 2], [{ kind: 'trick_won', seat: 1 }, { kind: 'card_played', seat: 0 }], 3), [1, 1, 2]);
});

for (const [tag, n] of GAMES) {
  test(`${tag}: the view's own data — ${n} seats, its game's flags, my seat at the bottom`, () => {
    const s = open(fixture(`${tag}-lead`));
    const v = viewOf(s);
    assert.equal(seatCountOf(v), n);
    assert.equal(hasStock(v), v.rules.variant === 'twohand'); // R2: only two-hand 1001 deals a stock
    assert.equal(hasStock(v), v.deal.stock_count > 0);
    assert.equal(mySeat(s), 0);
    assert.ok(isMe(s, 0) && !isMe(s, 1) && !isSpectator(s));
    assert.deepEqual(otherSeats(s), Array.from({ length: n - 1 }, (_, k) => k + 1));
    assert.equal(phaseOf(s), 'play');
    assert.ok(myTurn(s) && playTurn(s) && !auctionTurn(s) && !discardTurn(s));
    assert.equal(legalMoves(s).size, v.legal.length);
    assert.deepEqual(v.deal.hand_counts.length, n);
    assert.deepEqual(tricksWon(s), v.deal.tricks_won);
  });

  test(`${tag}: play follows view.legal and explains view.blocked`, () => {
    const s = open(fixture(`${tag}-play`));
    const v = s.shown.view;
    assert.equal(phaseOf(s), 'play');
    assert.ok(playTurn(s));
    assert.deepEqual([...legalMoves(s).keys()].sort(), v.legal.map((m) => m.card).sort());
    assert.ok(v.blocked.length > 0, 'the fixture has a card the rules refuse');
    for (const b of v.blocked) assert.equal(whyNot(s, b.card), b.code);
    assert.equal(trickCards(v.deal.trick, n).at(-1).seat, (v.deal.trick.leader + v.deal.trick.cards.length - 1) % n);
    const theirs = reduce(s, { ...fixture(`${tag}-play`)[0], version: 99, view: { ...v, legal: [], blocked: [], deal: { ...v.deal, turn: 1 } } });
    assert.equal(whyNot(theirs, v.deal.hand[0]), 'not_your_turn');
  });

  test(`${tag}: the end of a deal is held with its last trick, every count and the tricks taken`, () => {
    const [before, after] = fixture(`${tag}-deal-over`);
    const s0 = open([before]);
    assert.deepEqual(tricksWon(s0), before.view.deal.tricks_won);
    const s = reduce(s0, after);
    assert.ok(s.held);
    assert.equal(s.summary.open, true);
    assert.equal(s.summary.event.kind, 'deal_over');
    const d = s.shown.view.deal;
    assert.equal(d.phase, 'over');
    assert.deepEqual(d.hand, []);
    assert.deepEqual(d.hand_counts, Array(n).fill(0));
    assert.equal(d.final_trick.cards.length, n);
    const total = d.tricks_won.reduce((a, b) => a + b, 0);
    assert.equal(total, d.tricks_played);
    assert.deepEqual(s.shown.view.totals, after.events.find((e) => e.kind === 'deal_over').totals);
    assert.ok(!myTurn(s));
    assert.ok(s.effects.includes('deal'));
    const closed = reduce(s, { type: 'local/summary_close' });
    assert.equal(closed.shown, closed.msg);
    assert.equal(phaseOf(closed), closed.msg.view.deal.phase);
    assert.deepEqual(tricksWon(closed), closed.msg.view.deal.tricks_won);
  });

  test(`${tag}: a spectator's watch_state is the same shape with no seat and no hand: nothing is its own`, () => {
    const [m] = fixture(`${tag}-spectator`);
    assert.equal(m.type, 'watch_state');
    const s = reduce(initialState(), m);
    const v = viewOf(s);
    assert.equal(v.seat, null);
    assert.equal(v.deal.hand, null);
    assert.ok(isSpectator(s));
    assert.equal(mySeat(s), 0); // seat 0 drawn at the bottom
    for (let seat = 0; seat < n; seat++) assert.ok(!isMe(s, seat));
    assert.ok(!myTurn(s) && !playTurn(s) && !auctionTurn(s));
    assert.equal(legalMoves(s).size, 0);
    assert.equal(v.deal.hand_counts.length, n);
    // bottom: another seat to look from
    assert.equal(mySeat(reduce(initialState({ bottom: n - 1 }), m)), n - 1);
  });

  test(`${tag}: the match is over by the target with the view's winner and places`, () => {
    const s = open(fixture(`${tag}-match-over`));
    const v = viewOf(s);
    assert.ok(matchOver(s) && !myTurn(s));
    assert.equal(v.end_reason, 'target');
    assert.ok(Number.isInteger(v.winner));
    assert.equal(v.places[v.winner], 1);
    assert.equal(standings(v.totals, v.places)[0].seat, v.winner);
    assert.ok(v.history.length > 0);
    assert.ok(s.effects.includes('match'));
  });

  test(`${tag}: a resignation ends the match with a loser, last in the places (R6.2, V0.10a)`, () => {
    const s = open(fixture(`${tag}-resigned`));
    const v = viewOf(s);
    assert.ok(matchOver(s) && !myTurn(s));
    assert.equal(v.loser, 1);
    assert.equal(v.end_reason, 'resign');
    assert.equal(v.places[1], n);
    assert.equal(standings(v.totals, v.places).at(-1).seat, 1);
    assert.equal(v.winner, n === 2 ? 0 : null); // first alone: the other of two; shared at 0 : 0 by more
  });
}

for (const [tag, n] of GAMES.filter(([t]) => hasAuction(fixture(`${t}-lead`)[0].view))) {
  test(`${tag}: an auction view at my turn offers bids and a pass, no card`, () => {
    const s = open(fixture(`${tag}-auction`));
    assert.equal(phaseOf(s), 'auction');
    assert.ok(myTurn(s) && auctionTurn(s) && !playTurn(s) && !discardTurn(s));
    const bids = s.shown.view.bids;
    assert.ok(bids.length > 0 && bids.every((b) => b % 10 === 0));
    assert.equal(bidAmount(s), bids[0]);
    const up = reduce(s, { type: 'local/bid', step: 1 });
    assert.equal(bidAmount(up), bids[Math.min(1, bids.length - 1)]);
    assert.equal(bidAmount(reduce(up, { type: 'local/bid', step: -1 })), bids[0]);
    assert.equal(bidAmount(reduce(s, { type: 'local/bid', amount: 5 })), bids[0]);
    const a = auction(s);
    assert.equal(a.calls.length, s.shown.view.deal.calls.length);
    assert.equal(a.last.length, n);
    assert.equal(legalMoves(s).size, 0);
    assert.equal(whyNot(s, s.shown.view.deal.hand[0]), 'auction_on');
  });

  test(`${tag}: the declarer picks two cards to discard`, () => {
    let s = open(fixture(`${tag}-discard`));
    const v = s.shown.view;
    assert.equal(phaseOf(s), 'discard');
    assert.ok(discardTurn(s) && v.must_discard);
    assert.equal(v.deal.declarer, 0);
    assert.equal(v.deal.talon.length, 2);
    assert.ok(v.deal.talon.every((c) => v.deal.hand.includes(c)));
    const [a, b, c] = v.deal.hand;
    s = reduce(s, { type: 'local/discard_toggle', card: a });
    assert.ok(!canSubmitDiscard(s));
    s = reduce(s, { type: 'local/discard_toggle', card: b });
    assert.ok(canSubmitDiscard(s));
    s = reduce(s, { type: 'local/discard_toggle', card: c });
    assert.deepEqual(s.discard, [b, c]);
    assert.equal(whyNot(s, a), null);
    // A state that is no longer the discard clears the choice.
    s = reduce(s, { ...fixture(`${tag}-discard`)[0], version: 99, view: { ...v, must_discard: false, deal: { ...v.deal, phase: 'play' } }, events: [] });
    assert.deepEqual(s.discard, []);
  });

  test(`${tag}: another seat never gets the talon or the discards; the contract is public`, () => {
    const s = open(fixture(`${tag}-other-discarded`), 1);
    const d = s.shown.view.deal;
    assert.equal(s.shown.view.seat, 1);
    assert.equal(mySeat(s), 1);
    assert.equal(d.talon, null);
    assert.equal(d.discards, null);
    assert.equal(d.declarer, 0);
    assert.ok(d.contract >= 40);
    const ev = s.shown.events.find((e) => e.kind === 'discarded');
    assert.equal(ev.cards, null);
    assert.deepEqual(reduce(s, { type: 'local/discard_toggle', card: d.hand[0] }).discard, []);
  });
}

test('everybody passed: the deal is thrown in and the summary says so', () => {
  const [before, after] = fixture('mcleod3-thrown-in');
  const s = open([before, after]);
  assert.ok(s.held);
  assert.equal(s.summary.event.thrown_in, true);
  assert.deepEqual(s.summary.event.score, [0, 0, 0]);
  const d = s.shown.view.deal;
  assert.equal(d.phase, 'thrown_in');
  assert.equal(d.calls.length, 3);
  assert.ok(d.calls.every((c) => c.bid === null));
});
