// The replay of a deal, for 2, 3 and 4 seats: frames (fixtures/replay-*.json, written from the
// server's own frame builder by frontend/tools/table_fixtures.py) → the table's state and the step's
// facts. node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bottomSeat, frameMessage, frameState, fromTalon, resultForSummary, scoreRows, seatsOf, stepFacts, talonShown, trickOf } from './replayframe.js';
import { auction, dealOf, isMe, isSpectator, matchOver, mySeat, myTurn, phaseOf, tricksWon, viewOf } from './store.js';
import { hasAuction, hasStock, seatCountOf, trickCards } from './model.js';

const deepFreeze = (o) => {
  if (o && typeof o === 'object') {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};
const fixture = (name) => deepFreeze(JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')));
const thrown = fixture('replay-thrown-in');
const stepWhere = (d, test) => d.frames.findIndex(test);

const REPLAYS = [
  ['replay-twohand2', 2],
  ['replay-mcleod3', 3],
  ['replay-bidding4', 4],
];

test('where the viewer sits: its own seat when it played the match, else seat 0', () => {
  const data = fixture('replay-mcleod3');
  assert.equal(bottomSeat(data.players, 'p2'), 2);
  assert.equal(bottomSeat(data.players, 'someone else'), 0);
  assert.equal(bottomSeat(data.players, null), 0);
  assert.deepEqual(trickOf([]), null);
});

for (const [name, n] of REPLAYS) {
  const data = fixture(name);

  test(`${name}: every frame becomes a spectator's state of the ${n}-seat table: counted hands, no control`, () => {
    assert.equal(seatsOf(data), n);
    assert.equal(typeof data.variant, 'string');
    for (let step = 0; step < data.frames.length; step++) {
      const f = data.frames[step];
      const s = frameState(data, step, { bottom: 1 });
      const v = viewOf(s);
      assert.equal(seatCountOf(v), n, `step ${step}`);
      assert.ok(isSpectator(s));
      assert.equal(mySeat(s), 1);
      assert.ok(!isMe(s, 1) && !myTurn(s) && !matchOver(s));
      assert.equal(phaseOf(s), f.phase);
      const d = dealOf(s);
      assert.equal(d.hand, null);
      assert.deepEqual(d.hand_counts, f.hands.map((h) => h.length));
      assert.equal(d.stock_count, f.stock_count);
      assert.deepEqual(d.card_points, f.card_points);
      assert.deepEqual(tricksWon(s), f.tricks_won);
      assert.equal(d.turn, f.deal_over ? null : f.turn);
      assert.equal(d.declarer, f.declarer);
      assert.equal(d.contract, f.contract);
      assert.equal(auction(s).calls.length, f.calls.length);
      assert.deepEqual(d.discards, f.discards.length ? f.discards : null);
    }
    // the message is never the frame itself: frames stay as the server sent them
    const m = frameMessage(data, 4);
    assert.notEqual(m.view.deal.declarations, data.frames[4].declarations);
    // the game's flags come from its id: two-hand 1001 has the stock, the others an auction
    const v = viewOf(frameState(data, 0));
    assert.equal(hasStock(v), data.variant === 'twohand');
    assert.equal(hasAuction(v), data.frames[0].phase === 'auction');
  });

  test(`${name}: the trick in progress, a trick just taken (kept with its winner), and the last trick`, () => {
    const playing = stepWhere(data, (f) => f.trick.length === n - 1); // one card short of a trick
    const d = dealOf(frameState(data, playing));
    assert.deepEqual(trickCards(d.trick, n), data.frames[playing].trick);
    assert.equal(d.final_trick, null);

    const taken = stepWhere(data, (f) => f.trick_won && !f.deal_over);
    const f = data.frames[taken];
    const dt = dealOf(frameState(data, taken));
    assert.deepEqual(dt.final_trick, f.last_trick);
    assert.equal(dt.final_trick.cards.length, n);
    assert.equal(stepFacts(data, taken).trickWon.seat, f.last_trick.winner);
    const next = dealOf(frameState(data, taken + 1));
    assert.equal(next.final_trick, null);
    assert.deepEqual(next.last_trick, f.last_trick);
  });

  test(`${name}: the end of the deal: each seat's score and total, as stored`, () => {
    const last = data.frames.length - 1;
    assert.ok(stepFacts(data, last).dealOver);
    assert.equal(scoreRows(data, last - 1), null);
    const rows = scoreRows(data, last);
    assert.equal(rows.length, n);
    assert.deepEqual(rows.map((r) => r.score), data.result.score);
    assert.deepEqual(rows.map((r) => r.total), data.result.totals);
    assert.deepEqual(rows.map((r) => r.cardPoints), data.result.card_points);
    const result = resultForSummary(data);
    assert.deepEqual(result.deal_points, data.result.card_points.map((c, i) => c + data.result.declaration_points[i]));
    assert.equal(result.declarer, data.result.declarer);
    assert.equal(result.made, data.result.made);
    assert.ok(stepFacts(data, 0).start);
    assert.equal(stepFacts(data, 0).turn, data.frames[0].turn);
  });
}

test('two-hand 1001: the stock shrinks by the cards drawn after each trick of R4’s phase 1', () => {
  const data = fixture('replay-twohand2');
  const taken = stepWhere(data, (f) => f.trick_won);
  const facts = stepFacts(data, taken);
  assert.equal(facts.drawn.length, 2);
  assert.equal(facts.drawn[0].seat, data.frames[taken].trick_won.seat); // the winner draws first
  assert.equal(dealOf(frameState(data, taken)).stock_count, dealOf(frameState(data, taken - 1)).stock_count - 2);
  assert.equal(talonShown(data.frames[taken]), null);
  assert.equal(auction(frameState(data, taken)).calls.length, 0);
});

test('a marriage declared: trump and the declaration, in the step and from then on', () => {
  for (const [name] of REPLAYS) {
    const data = fixture(name);
    const step = stepWhere(data, (f) => f.declared);
    if (step < 0) continue;
    const f = data.frames[step];
    assert.deepEqual(stepFacts(data, step).declared, f.declared);
    const d = dealOf(frameState(data, step));
    assert.equal(d.trump, f.declared.suit);
    assert.deepEqual(d.declarations, f.declarations);
  }
  assert.ok(stepWhere(fixture('replay-twohand2'), (f) => f.declared) >= 0);
});

test('the auction: each call, the high bid and who holds it; the talon face up until taken', () => {
  const data = fixture('replay-mcleod3');
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
  const data = fixture('replay-mcleod3');
  const took = stepWhere(data, (f) => f.talon_taken);
  const facts = stepFacts(data, took);
  assert.deepEqual(facts.tookTalon, { seat: 0, contract: data.frames[took].contract, cards: data.frames[took].talon });
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
  assert.deepEqual(scoreRows(data, data.frames.length - 1).map((r) => r.made), [data.result.made, null, null]);
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
});
