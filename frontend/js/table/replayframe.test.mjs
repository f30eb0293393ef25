// The replay of a deal for 3 seats: frames (fixtures/replay-*.json, written from the server's own
// frame builder by frontend/tools/table_fixtures.py) → the n-seat table's state and the step's facts.
// node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bottomSeat, frameMessage, frameState, fromTalon, isRingReplay, resultForSummary, scoreRows, seatsOf, stepFacts, talonShown, trickOf } from './replayframe.js';
import { auction, dealOf, isMe, matchOver, mySeat, myTurn, phaseOf, tricksWon, viewOf } from './store.js';
import { isRingView, trickCards } from './nseat.js';

const deepFreeze = (o) => {
  if (o && typeof o === 'object') {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};
const fixture = (name) => deepFreeze(JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')));
const data = fixture('replay-mcleod3');
const thrown = fixture('replay-thrown-in');
const stepWhere = (d, test) => d.frames.findIndex(test);

test('a replay for three seats is told from a two-hand one', () => {
  assert.ok(isRingReplay(data));
  assert.equal(seatsOf(data), 3);
  assert.ok(!isRingReplay({ seats: 2, variant: null, frames: [{ hands: [[], []], stock_count: 12 }] }));
  assert.ok(!isRingReplay(null));
  // before the server said `seats`: frames with an auction are n-seat ones
  assert.ok(isRingReplay({ frames: [{ calls: [], hands: [[], [], []] }] }));
  assert.equal(bottomSeat(data.players, 'p2'), 2);
  assert.equal(bottomSeat(data.players, 'someone else'), 0);
  assert.equal(bottomSeat(data.players, null), 0);
});

test('every frame becomes a spectator’s state of the n-seat table: counted hands, no control', () => {
  for (let step = 0; step < data.frames.length; step++) {
    const f = data.frames[step];
    const s = frameState(data, step, { bottom: 1 });
    const v = viewOf(s);
    assert.ok(isRingView(v), `step ${step}`);
    assert.equal(mySeat(s), 1);
    assert.ok(!isMe(s, 1) && !myTurn(s) && !matchOver(s));
    assert.equal(phaseOf(s), f.phase);
    const d = dealOf(s);
    assert.deepEqual(d.hand, []);
    assert.deepEqual(d.hand_counts, f.hands.map((h) => h.length));
    assert.deepEqual(d.card_points, f.card_points);
    assert.deepEqual(tricksWon(s), f.tricks_won);
    assert.equal(d.turn, f.deal_over ? null : f.turn);
    assert.equal(d.declarer, f.declarer);
    assert.equal(d.contract, f.contract);
    assert.equal(auction(s).calls.length, f.calls.length);
    assert.deepEqual(d.discards, f.discards.length ? f.discards : null);
  }
  // the message is never the frame itself: frames stay as the server sent them
  const m = frameMessage(data, 8);
  assert.notEqual(m.view.deal.declarations, data.frames[8].declarations);
});

test('the auction: each call, the high bid and who holds it; the talon face up until taken', () => {
  const step = stepWhere(data, (f) => f.calls.length === 3);
  const s = frameState(data, step);
  const a = auction(s);
  assert.deepEqual(a.calls.map((c) => [c.seat, c.bid]), data.frames[step].calls.map((c) => [c.seat, c.bid]));
  assert.equal(a.high, data.frames[step].high_bid);
  assert.equal(a.holder, data.frames[step].calls.at(-1).seat);
  assert.deepEqual(talonShown(data.frames[step]), { cards: data.frames[step].talon, taken: false, seat: null });
  assert.equal(dealOf(s).talon_count, 2);
});

test('the declarer takes the talon, lays two cards away, and the play begins', () => {
  const took = stepWhere(data, (f) => f.talon_taken);
  const facts = stepFacts(data, took);
  assert.deepEqual(facts.tookTalon, { seat: 0, contract: 70, cards: data.frames[took].talon });
  assert.equal(facts.action.kind, 'pass');
  const shown = talonShown(data.frames[took]);
  assert.ok(shown.taken && shown.seat === 0);
  assert.deepEqual([...fromTalon(data.frames[took])].sort(), [...data.frames[took].talon].sort());
  for (const card of data.frames[took].talon) assert.ok(data.frames[took].hands[0].includes(card));

  const discarded = took + 1;
  const f = data.frames[discarded];
  assert.equal(stepFacts(data, discarded).action.kind, 'discard');
  assert.deepEqual(stepFacts(data, discarded).action.cards, f.discards);
  assert.equal(talonShown(f), null);
  assert.equal(fromTalon(f).size, 0);
  const s = frameState(data, discarded);
  assert.equal(phaseOf(s), 'play');
  assert.deepEqual(dealOf(s).discards, f.discards);
  assert.equal(dealOf(s).talon_count, 0);
});

test('the trick in progress, a trick just taken (kept with its winner), and the last trick', () => {
  const playing = stepWhere(data, (f) => f.trick.length === 2);
  const d = dealOf(frameState(data, playing));
  assert.deepEqual(trickCards(d.trick, 3), data.frames[playing].trick);
  assert.equal(d.final_trick, null);

  const taken = stepWhere(data, (f) => f.trick_won && !f.deal_over);
  const f = data.frames[taken];
  const dt = dealOf(frameState(data, taken));
  assert.deepEqual(dt.final_trick, f.last_trick);
  assert.equal(stepFacts(data, taken).trickWon.seat, f.last_trick.winner);
  // the next card: a new trick, the one taken is the last trick
  const next = dealOf(frameState(data, taken + 1));
  assert.equal(next.final_trick, null);
  assert.deepEqual(next.last_trick, f.last_trick);
  assert.deepEqual(trickOf([]), null);
});

test('a marriage declared: trump and the declaration, in the step and from then on', () => {
  const step = stepWhere(data, (f) => f.declared);
  const f = data.frames[step];
  assert.deepEqual(stepFacts(data, step).declared, f.declared);
  const d = dealOf(frameState(data, step));
  assert.equal(d.trump, f.declared.suit);
  assert.deepEqual(d.declarations, f.declarations);
  assert.deepEqual(dealOf(frameState(data, data.frames.length - 1)).declarations, f.declarations);
});

test('the end of the deal: the contract made, each seat’s score and total, as stored', () => {
  const last = data.frames.length - 1;
  assert.ok(stepFacts(data, last).dealOver);
  assert.equal(scoreRows(data, last - 1), null);
  const rows = scoreRows(data, last);
  assert.deepEqual(rows.map((r) => r.score), data.result.score);
  assert.deepEqual(rows.map((r) => r.total), data.result.totals);
  assert.deepEqual(rows.map((r) => r.cardPoints), data.result.card_points);
  assert.deepEqual(rows.map((r) => r.made), [true, null, null]);
  const result = resultForSummary(data);
  assert.deepEqual(result.deal_points, data.result.card_points.map((c, i) => c + data.result.declaration_points[i]));
  assert.equal(result.declarer, 0);
  assert.equal(result.made, true);
});

test('everybody passes: the cards are thrown in, with the talon still face up', () => {
  const last = thrown.frames.length - 1;
  const facts = stepFacts(thrown, last);
  assert.ok(facts.thrownIn && facts.dealOver);
  assert.equal(facts.declarer, null);
  assert.equal(facts.tookTalon, null);
  assert.equal(phaseOf(frameState(thrown, last)), 'thrown_in');
  assert.ok(talonShown(thrown.frames[last]));
  assert.ok(resultForSummary(thrown).thrown_in);
  assert.deepEqual(scoreRows(thrown, last).map((r) => r.score), [0, 0, 0]);
  assert.ok(stepFacts(thrown, 0).start);
  assert.equal(stepFacts(thrown, 0).turn, thrown.frames[0].turn);
});
