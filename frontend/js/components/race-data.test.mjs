// The race chart's numbers for 2, 3 and 4 players (race-data.js). node --test frontend/js/components/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { H, PAD, SERIES, W, gridStep, markerShape, raceLayout, raceTotals, seatOrder } from './race-data.js';

// A real three-seat match's history (the engine's view at its end, js/table/fixtures).
const ring = JSON.parse(readFileSync(new URL('../table/fixtures/mcleod3-match-over.json', import.meta.url), 'utf8'))[0].view;

test('totals per deal: lists of n, or a two-hand record’s total0 / total1', () => {
  assert.deepEqual(raceTotals([{ totals: [120, 60] }, { total0: 200, total1: 90 }]), [[120, 60], [200, 90]]);
  assert.deepEqual(raceTotals(ring.history), ring.history.map((d) => d.totals));
  assert.equal(raceTotals(ring.history)[0].length, 3);
  assert.deepEqual(raceTotals([{ totals: [1, 2, 3, 4] }, { totals: [5, 6] }], 4), [[1, 2, 3, 4]]);
  assert.deepEqual(raceTotals(null), []);
});

test('the viewer’s line first, then the others in playing order', () => {
  assert.deepEqual(seatOrder(2, 1), [1, 0]);
  assert.deepEqual(seatOrder(3, 1), [1, 2, 0]);
  assert.deepEqual(seatOrder(4, 2), [2, 3, 0, 1]);
  assert.deepEqual(seatOrder(3, 7), [0, 1, 2]); // an unknown seat: from seat 0
});

test('two players: as before — circles for me, squares for the other, a legend line each', () => {
  const lay = raceLayout({ history: [{ totals: [300, 120] }, { totals: [650, 400] }], target: 1001, me: 1 });
  assert.equal(lay.n, 2);
  assert.deepEqual(lay.series.map((s) => [s.seat, s.cls, s.marker]), [[1, 'race-me', 'circle'], [0, 'race-opp', 'square']]);
  assert.deepEqual(lay.series[0].points.map((p) => p.total), [120, 400]);
  assert.deepEqual(lay.series.map((s) => s.last), [400, 650]);
  assert.deepEqual(lay.series.map((s) => s.legend), [{ x: PAD.left, y: 10 }, { x: PAD.left, y: 28 }]);
  assert.equal(lay.y(0), H - PAD.bottom);
  assert.equal(lay.y(1001), PAD.top);
  assert.ok(!lay.grid.some((v) => v !== 0 && Math.abs(v - 1001) < 1001 * 0.07));
});

test('three players from a real match: a line each with its own colour and marker, up to the target', () => {
  const lay = raceLayout({ history: ring.history, target: ring.target, n: 3, me: 2 });
  assert.equal(lay.deals, ring.history.length);
  assert.deepEqual(lay.series.map((s) => s.seat), [2, 0, 1]);
  assert.deepEqual(lay.series.map((s) => s.cls), ['race-me', 'race-opp', 'race-opp2']);
  assert.equal(new Set(lay.series.map((s) => s.marker)).size, 3);
  for (const s of lay.series) {
    assert.deepEqual(s.points.map((p) => p.total), ring.history.map((d) => d.totals[s.seat]));
    assert.equal(s.last, ring.totals[s.seat]);
    assert.equal(s.line.split(' ').length, ring.history.length + 1); // from 0 : 0 through every deal
    for (const p of s.points) assert.ok(p.x >= PAD.left && p.x <= W - PAD.right && p.y >= lay.pad.top - 0.01 && p.y <= lay.height - PAD.bottom + 0.01, JSON.stringify(p));
  }
  // the legend: a row each above the plot, which starts a row lower than for two
  assert.deepEqual(lay.series.map((s) => s.legend.y), [10, 28, 46]);
  assert.ok(lay.series.every((s) => s.legend.y < lay.pad.top - 10));
  assert.equal(lay.height, H + 18);
  assert.equal(lay.y(lay.top), PAD.top + 18);
});

test('four players and a total below zero (a failed contract): the scale reaches down to it', () => {
  const history = [{ totals: [-40, 18, 32, 46] }, { totals: [80, 18, 140, 46] }];
  const lay = raceLayout({ history, target: 301, n: 4, me: 0 });
  assert.deepEqual(lay.series.map((s) => s.cls), SERIES.map((x) => x.cls));
  assert.equal(lay.bottom, -40);
  assert.equal(lay.height, H + 36);
  assert.equal(lay.y(-40), lay.height - PAD.bottom);
  assert.ok(lay.y(0) < lay.height - PAD.bottom);
  assert.ok(lay.grid.includes(0) && lay.grid.every((v) => !Object.is(v, -0)));
  assert.deepEqual(lay.series.map((s) => s.legend.y), [10, 28, 46, 64]);
});

test('grid steps and marker shapes', () => {
  assert.equal(gridStep(1001), 250);
  assert.equal(gridStep(301), 100);
  assert.equal(markerShape('circle', 10, 20).tag, 'circle');
  assert.equal(markerShape('square', 10, 20).attrs.x, '6.8');
  assert.equal(markerShape('triangle', 10, 20).attrs.points.split(' ').length, 3);
  assert.equal(markerShape('diamond', 10, 20).attrs.points.split(' ').length, 4);
});
