// The head-to-head chart's numbers (h2h-data.js). node --test frontend/js/components/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CROWDED, H, MARKER_LIMIT, density, h2hLayout, trailingMean, trendWindow } from './h2h-data.js';
import { PAD, W } from './race-data.js';

const point = (totals, won, day = 1) => ({ finished_at: `2026-11-${String(day).padStart(2, '0')}T20:00:00Z`, kind: 'twohand24', totals, won });

test('a line per member in the order asked, oldest match first, the winner known per point', () => {
  const lay = h2hLayout([point([1001, 800], [true, false], 1), point([950, 1010], [false, true], 2)], ['a', 'b']);
  assert.equal(lay.count, 2);
  assert.equal(lay.density, 'sparse');
  assert.deepEqual(lay.series.map((s) => [s.id, s.cls, s.marker]), [['a', 'race-me', 'circle'], ['b', 'race-opp', 'square']]);
  assert.deepEqual(lay.series[0].points.map((p) => [p.total, p.won]), [[1001, true], [950, false]]);
  assert.deepEqual(lay.series[1].points.map((p) => [p.total, p.won]), [[800, false], [1010, true]]);
  assert.equal(lay.series[0].points[0].x, PAD.left);
  assert.equal(lay.series[0].points[1].x, W - PAD.right);
  assert.equal(lay.first.finished_at.slice(0, 10), '2026-11-01');
  assert.equal(lay.height, H);
  assert.equal(lay.window, 0);
  assert.deepEqual(lay.series.map((s) => s.trend), [null, null]); // few matches: markers, no average
});

test('the average of the latest few: a window of 5 past the marker limit, then a fiftieth of them', () => {
  assert.deepEqual([trendWindow(MARKER_LIMIT), trendWindow(MARKER_LIMIT + 1), trendWindow(250), trendWindow(1000)], [0, 5, 5, 20]);
  assert.deepEqual(trailingMean([10, 20, 30, 40], 2), [10, 15, 25, 35]);
  assert.deepEqual(trailingMean([1011, 720, 1011, 720], 4), [1011, 865.5, 914, 865.5]);
});

test('a total below zero moves the scale down; a table of four grows by two legend rows', () => {
  const lay = h2hLayout([point([310, -70, 330, 5], [false, false, true, false])], ['a', 'b', 'c', 'd']);
  assert.ok(lay.grid.includes(0) && lay.y(0) < lay.y(-70));
  assert.equal(lay.y(-70), lay.height - PAD.bottom); // the lowest total sits on the plot's floor
  assert.equal(lay.height, H + 2 * 18);
  assert.equal(lay.series[0].points[0].x, PAD.left + (W - PAD.left - PAD.right) / 2); // one match: in the middle
  assert.deepEqual(h2hLayout([], ['a', 'b']).series.map((s) => s.line), ['', '']);
});

test('past MARKER_LIMIT matches no markers and thinner lines; 1,000 stay inside the chart', () => {
  assert.deepEqual([density(MARKER_LIMIT), density(MARKER_LIMIT + 1), density(CROWDED), density(CROWDED + 1)], ['sparse', 'dense', 'dense', 'crowded']);
  const many = Array.from({ length: 1000 }, (_, i) => point(i % 2 ? [720, 1011] : [1011, 720], i % 2 ? [false, true] : [true, false]));
  const lay = h2hLayout(many, ['a', 'b']);
  assert.equal(lay.count, 1000);
  assert.equal(lay.density, 'crowded');
  for (const s of lay.series) {
    assert.equal(s.points.length, 0);
    for (const line of [s.line, s.trend]) {
      const xy = line.split(' ').map((p) => p.split(',').map(Number));
      assert.equal(xy.length, 1000);
      assert.ok(xy.every(([x, y]) => x >= PAD.left && x <= W - PAD.right && y >= 0 && y <= lay.height));
    }
  }
  assert.equal(lay.window, 20);
  const last = lay.series[0].trend.split(' ').at(-1).split(',').map(Number)[1];
  assert.equal(last, Number(lay.y(865.5).toFixed(1))); // alternately 1011 and 720: the average between
});
