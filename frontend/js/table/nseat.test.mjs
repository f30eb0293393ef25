// The table for 3 and 4 seats: pure helpers and the store over real engine views
// (fixtures/*.json, written by frontend/tools/table_fixtures.py). node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { auctionOf, bidChoice, discardReady, isRingView, othersAround, positionOf, seatsFromMe, signed, standings, stepBid, summaryRows, toggleDiscard, trickCards, tricksWonOf } from './nseat.js';
import {
  auction,
  auctionTurn,
  bidAmount,
  canSubmitDiscard,
  discardTurn,
  initialState,
  legalMoves,
  matchOver,
  myTurn,
  phaseOf,
  playTurn,
  reduce,
  tricksWon,
  whyNot,
} from './store.js';

const deepFreeze = (o) => {
  if (o && typeof o === 'object') {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};
const fixture = (name) => deepFreeze(JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')));
const open = (msgs, seat = 0) => msgs.reduce((s, m) => reduce(s, m), reduce(initialState({ myId: `p${seat}` }), { type: 'local/conn', status: 'open' }));

test('seats around the felt: me at the bottom, then clockwise left, top, right', () => {
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
  assert.equal(positionOf(3, 1, 1), 'bottom');
  assert.deepEqual(seatsFromMe(4, 3), [3, 0, 1, 2]);
});

test('a trick names the seat of each card, the leader first', () => {
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

test('the auction: calls by seat, the high bid and its holder', () => {
  const a = auctionOf({ calls: [{ seat: 2, bid: 40 }, { seat: 0, bid: 50 }, { seat: 1, bid: null }, { seat: 2, bid: 60 }], high_bid: 60 }, 3);
  assert.deepEqual(a.last, [50, 'pass', 60]);
  assert.deepEqual(a.passed, [false, true, false]);
  assert.equal(a.high, 60);
  assert.equal(a.holder, 2);
  assert.equal(auctionOf({ calls: [], high_bid: null }, 4).holder, null);
});

test('results: rows from me clockwise, signed scores, standings', () => {
  const rows = summaryRows({ declarer: 0, card_points: [78, 0, 42], declaration_points: [80, 0, 0], deal_points: [158, 0, 42], jungfrau: [0, 100, 0], score: [160, 100, 40], totals: [160, 100, 40] }, 3, 1);
  assert.deepEqual(rows.map((r) => r.seat), [1, 2, 0]);
  assert.equal(rows[0].jungfrau, 100);
  assert.ok(rows[2].declarer && !rows[0].declarer);
  assert.equal(signed(60), '+60');
  assert.equal(signed(-70), '−70');
  assert.equal(signed(0), '0');
  assert.deepEqual(standings([160, 200, 160]).map((x) => x.seat), [1, 0, 2]);
});

for (const [tag, n] of [
  ['mcleod3', 3],
  ['bidding4', 4],
]) {
  test(`${tag}: an auction view at my turn offers bids and a pass, no card`, () => {
    const s = open(fixture(`${tag}-auction`));
    assert.ok(isRingView(s.shown.view));
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
    s = reduce(s, { ...v, type: 'state', version: 99, room: fixture(`${tag}-discard`)[0].room, view: { ...v, must_discard: false, deal: { ...v.deal, phase: 'play' } }, events: [] });
    assert.deepEqual(s.discard, []);
  });

  test(`${tag}: another seat never gets the talon or the discards; the contract is public`, () => {
    const s = open(fixture(`${tag}-other-discarded`), 1);
    const d = s.shown.view.deal;
    assert.equal(s.shown.view.seat, 1);
    assert.equal(d.talon, null);
    assert.equal(d.discards, null);
    assert.equal(d.declarer, 0);
    assert.ok(d.contract >= 40);
    const ev = s.shown.events.find((e) => e.kind === 'discarded');
    assert.equal(ev.cards, null);
    // Nothing picked for a discard is possible here.
    assert.deepEqual(reduce(s, { type: 'local/discard_toggle', card: d.hand[0] }).discard, []);
  });

  test(`${tag}: play follows view.legal and explains view.blocked`, () => {
    const s = open(fixture(`${tag}-play`));
    const v = s.shown.view;
    assert.equal(phaseOf(s), 'play');
    assert.ok(playTurn(s));
    assert.deepEqual([...legalMoves(s).keys()].sort(), v.legal.map((m) => m.card).sort());
    for (const b of v.blocked) assert.equal(whyNot(s, b.card), b.code);
    assert.equal(trickCards(v.deal.trick, n).at(-1).seat, (v.deal.trick.leader + v.deal.trick.cards.length - 1) % n);
  });

  test(`${tag}: the end of a deal is held with its last trick, counts and tricks taken`, () => {
    const [before, after] = fixture(`${tag}-deal-over`);
    // Follow the whole deal's tricks: the tally is consistent only when every trick was seen.
    const s0 = open([before]);
    assert.deepEqual(tricksWon(s0), before.view.deal.tricks_won); // the server's own count
    const s = reduce(s0, after);
    assert.ok(s.held);
    assert.equal(s.summary.open, true);
    const d = s.shown.view.deal;
    assert.equal(d.phase, 'over');
    assert.deepEqual(d.hand, []);
    assert.deepEqual(d.hand_counts, Array(n).fill(0));
    assert.equal(d.final_trick.cards.length, n);
    assert.deepEqual(s.shown.view.totals, after.events.find((e) => e.kind === 'deal_over').totals);
    assert.ok(!myTurn(s));
    assert.ok(s.effects.includes('deal'));
    const closed = reduce(s, { type: 'local/summary_close' });
    assert.equal(closed.shown, closed.msg);
    assert.equal(phaseOf(closed), closed.msg.view.deal.phase);
    assert.deepEqual(tricksWon(closed), closed.msg.view.deal.tricks_won);
  });
}

test('tricks taken: counted from trick_won events only when every trick of the deal was seen', () => {
  const deal = { tricks_played: 2 };
  assert.deepEqual(tricksWonOf(deal, { deal: 0, counts: [1, 0, 1] }, 0, 3), [1, 0, 1]);
  assert.equal(tricksWonOf(deal, { deal: 0, counts: [1, 0, 0] }, 0, 3), null);
  assert.equal(tricksWonOf(deal, { deal: 1, counts: [1, 0, 1] }, 0, 3), null);
  assert.deepEqual(tricksWonOf({ tricks_played: 2, tricks_won: [0, 2, 0] }, null, 0, 3), [0, 2, 0]);
});

test('without tricks_won in the view (a deal just ended), a deal followed from its first trick counts every trick; a reload does not guess', () => {
  const [base] = fixture('mcleod3-play');
  const deal = (tricks) => ({ ...base.view.deal, tricks_played: tricks, tricks_won: undefined, last_trick: null });
  const at = (version, tricks, events) => ({ ...base, version, view: { ...base.view, deal: deal(tricks) }, events });
  const won = (seat) => ({ kind: 'trick_won', seat, leader: 0, cards: ['AC', 'TC', 'KC'], points: 25 });
  let s = open([at(1, 0, [])]);
  assert.deepEqual(tricksWon(s), [0, 0, 0]);
  s = reduce(s, at(2, 1, [won(2)]));
  s = reduce(s, at(3, 2, [won(0)]));
  assert.deepEqual(tricksWon(s), [1, 0, 1]);
  const reloaded = open([at(3, 2, [])]);
  assert.equal(tricksWon(reloaded), null);
});

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

test('the match is over by the target, or by a resignation with a loser and no winner', () => {
  const won = open(fixture('mcleod3-match-over'));
  assert.ok(matchOver(won));
  assert.ok(won.shown.view.winner !== null);
  assert.ok(won.shown.view.history.length > 0);
  const resigned = open(fixture('bidding4-resigned'));
  assert.equal(resigned.shown.view.winner, null);
  assert.equal(resigned.shown.view.loser, 1);
  assert.ok(matchOver(resigned));
  assert.ok(!myTurn(resigned));
});
