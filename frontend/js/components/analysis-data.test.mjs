// The analysis of a deal as the viewer shows it (analysis-data.js), over bodies of the HTTP contract
// (docs/protocol.md) for two and three seats. node --test frontend/js/components/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GRADES } from '../generated/protocol.js';
import {
  EVAL_H,
  EVAL_PAD,
  GIVEN_BAR_MAX,
  GIVEN_ROW_H,
  POLL_MS,
  betterCards,
  dealTotals,
  evalLayout,
  evalSeries,
  gradeNames,
  gradeTable,
  givenAwayLayout,
  isPending,
  marksOf,
  matchSummary,
  nextMark,
  points,
  progressOf,
  sameAction,
  timelineAt,
  verdictAt,
} from './analysis-data.js';
import { raceLayout } from './race-data.js';

const play = (seat, card, declare = null) => ({ seat, kind: 'play', card, declare });
const rating = (step, seat, taken, best, taken_scores, best_scores, given_away, extra = {}) => {
  const grade = gradeTable().find((g) => given_away >= g.from)?.grade ?? null; // as the server grades (GRADES)
  return { step, seat, taken, best, taken_scores, best_scores, given_away, grade, exact: false, worlds: 24, forced: false, ...extra };
};

// Two hands: Anna (seat 0) gives a slip and a blunder away, the computer a mistake; step 4 is forced.
const two = {
  match_id: 'm_1',
  number: 0,
  status: 'done',
  done: 5,
  total: 5,
  analysis: {
    version: 1,
    seats: 2,
    given_away: [33.4, 12.0],
    ratings: [
      rating(1, 0, play(0, 'QS'), play(0, 'KH', 'H'), [60, 70], [66, 68], 6.4),
      rating(2, 1, play(1, 'AS'), play(1, 'AS'), [62, 74], [62, 74], 0),
      rating(3, 1, play(1, '9D'), play(1, 'TD'), [70, 60], [58, 72], 12.0),
      rating(4, 0, play(0, 'JC'), play(0, 'JC'), [70, 60], [70, 60], 0, { forced: true, worlds: 1, exact: true }),
      rating(5, 0, play(0, '9C'), play(0, 'AC'), [40, 92], [66, 70], 27.0, { exact: true, worlds: 1 }),
    ],
  },
};

// Three seats with an auction: a bid, a pass, a discard; the declarer's discard a blunder.
const three = {
  match_id: 'm_3',
  number: 1,
  status: 'done',
  done: 3,
  total: 3,
  analysis: {
    version: 1,
    seats: 3,
    given_away: [0, 5.5, 30.2],
    ratings: [
      rating(1, 1, { seat: 1, kind: 'bid', amount: 110 }, { seat: 1, kind: 'pass' }, [0, -20, 40], [0, -12, 38], 5.5),
      rating(2, 2, { seat: 2, kind: 'pass' }, { seat: 2, kind: 'pass' }, [0, -20, 40], [0, -20, 40], 0),
      rating(3, 0, { seat: 0, kind: 'discard', cards: ['9H', 'JS'] }, { seat: 0, kind: 'discard', cards: ['JS', '9H'] }, [-110, 10, 20], [-110, 10, 20], 0),
    ],
  },
};
three.analysis.ratings.push(rating(4, 2, play(2, 'TC'), play(2, 'AD'), [-110, 10, -20], [-110, -15, 20], 30.2));

test('the grades are the generated ones, most severe first; the viewer lists them mildest first', () => {
  const table = gradeTable();
  assert.equal(table.length, GRADES.length);
  assert.deepEqual(table.map((g) => g.grade), ['blunder', 'mistake', 'slip']);
  assert.ok(table.every((g, i) => i === 0 || g.from < table[i - 1].from));
  assert.deepEqual(gradeNames(), ['slip', 'mistake', 'blunder']);
  assert.deepEqual(table.map((g) => g.from), GRADES.map((g) => g.from));
});

test('progress: done of total, never past the total, and whether to ask again', () => {
  assert.deepEqual(progressOf({ status: 'running', done: 6, total: 24 }), { status: 'running', done: 6, total: 24, percent: 25 });
  assert.deepEqual(progressOf({ status: 'queued', done: 0, total: 0 }), { status: 'queued', done: 0, total: 0, percent: 0 });
  assert.equal(progressOf({ status: 'running', done: 30, total: 24 }).done, 24);
  assert.equal(progressOf(null).status, 'none');
  assert.deepEqual(['none', 'queued', 'running', 'done', 'failed'].map((status) => isPending({ status })), [false, true, true, false, false]);
  assert.ok(POLL_MS >= 500 && POLL_MS <= 1000);
});

test('the same action: a discard in either order, a play with or without its declaration', () => {
  assert.ok(sameAction(three.analysis.ratings[2].taken, three.analysis.ratings[2].best));
  assert.ok(!sameAction(play(0, 'KH', 'H'), play(0, 'KH')));
  assert.ok(!sameAction({ kind: 'bid', amount: 110 }, { kind: 'bid', amount: 120 }));
  assert.ok(sameAction({ kind: 'pass', seat: 1 }, { kind: 'pass', seat: 1 }));
  assert.ok(!sameAction({ kind: 'pass' }, { kind: 'bid', amount: 100 }));
});

test('two hands: marks by grade in step order, the better action and how it was found', () => {
  const marks = marksOf(two);
  assert.deepEqual(marks.map((m) => [m.step, m.seat, m.grade, m.givenAway]), [[1, 0, 'slip', 6], [3, 1, 'mistake', 12], [5, 0, 'blunder', 27]]);
  const first = verdictAt(two, 1);
  assert.deepEqual(first.better, play(0, 'KH', 'H'));
  assert.deepEqual([first.exact, first.worlds], [false, 24]);
  assert.deepEqual(betterCards(first), ['KH']);
  const last = verdictAt(two, 5);
  assert.deepEqual([last.exact, last.worlds, last.grade], [true, 1, 'blunder']);
  // as good as the best: no better action; forced: no grade, nothing better
  assert.equal(verdictAt(two, 2).better, null);
  assert.deepEqual([verdictAt(two, 4).forced, verdictAt(two, 4).grade, verdictAt(two, 4).better], [true, null, null]);
  assert.equal(verdictAt(two, 0), null); // the deal's start is no action
  assert.equal(verdictAt({ ...two, status: 'running', analysis: null }, 1), null);
  assert.deepEqual([nextMark(marks, 1, 1), nextMark(marks, 3, -1), nextMark(marks, 5, 1), nextMark(marks, 0, -1)], [3, 1, null, null]);
});

test('two hands: each seat’s points given away is the server’s sum, with its marks counted', () => {
  assert.deepEqual(dealTotals(two, 2), [
    { seat: 0, points: 33, counts: { slip: 1, mistake: 0, blunder: 1 } },
    { seat: 1, points: 12, counts: { slip: 0, mistake: 1, blunder: 0 } },
  ]);
  assert.deepEqual(dealTotals({ status: 'none', analysis: null }, 2).map((t) => t.points), [null, null]);
  assert.equal(points(-0.2), 0);
  assert.equal(points(18.9), 18);
  // the figure agrees with the grade: just under a threshold reads under it
  for (const g of gradeTable()) assert.ok(points(g.from - 0.01) < g.from && points(g.from) >= g.from);
});

test('the eval line: from the first mover’s best, then every action’s expected scores, per seat', () => {
  const series = evalSeries(two, 2);
  assert.deepEqual(series[0].map((p) => [p.step, p.value]), [[0, 66], [1, 60], [2, 62], [3, 70], [4, 70], [5, 40]]);
  assert.deepEqual(series[1].map((p) => p.value), [68, 70, 74, 60, 60, 92]);
  assert.deepEqual(evalSeries({ status: 'queued' }, 2), []);
  const lay = evalLayout({ body: two, n: 2, steps: 5, me: 1 });
  assert.deepEqual(lay.lines.map((l) => [l.seat, l.cls, l.marker]), [[1, 'race-me', 'circle'], [0, 'race-opp', 'square']]);
  assert.equal(lay.lines[0].line.split(' ').length, 6);
  assert.equal(lay.bottom, 0);
  assert.equal(lay.top, 92);
  assert.equal(lay.y(0), EVAL_H - EVAL_PAD.bottom);
  assert.equal(lay.y(92), EVAL_PAD.top);
  assert.equal(lay.x(0), EVAL_PAD.left);
  // each mark sits on its mover's line at its step
  assert.deepEqual(lay.marks.map((m) => [m.step, m.seat, m.y]), [[1, 0, lay.y(60)], [3, 1, lay.y(60)], [5, 0, lay.y(40)]]);
  assert.ok(lay.grid.includes(0) && lay.grid.every((v) => v >= lay.bottom && v <= lay.top));
  assert.equal(timelineAt(5, 5), 1);
  assert.equal(timelineAt(0, 0), 0);
});

test('three seats with an auction: a bid and a discard rated, a score below zero on the scale', () => {
  const marks = marksOf(three);
  assert.deepEqual(marks.map((m) => [m.step, m.seat, m.grade]), [[1, 1, 'slip'], [4, 2, 'blunder']]);
  assert.deepEqual(verdictAt(three, 1).better, { seat: 1, kind: 'pass' });
  assert.deepEqual(betterCards(verdictAt(three, 1)), []); // a call is written out, not pointed at
  assert.equal(verdictAt(three, 3).better, null); // the same two cards laid away
  assert.deepEqual(betterCards({ better: { kind: 'discard', cards: ['AS', 'TS'] } }), ['AS', 'TS']);
  assert.deepEqual(dealTotals(three, 3).map((t) => t.points), [0, 5, 30]);
  const lay = evalLayout({ body: three, n: 3, steps: 4, me: 2 });
  assert.deepEqual(lay.lines.map((l) => l.seat), [2, 0, 1]);
  assert.deepEqual(lay.lines.map((l) => l.cls), ['race-me', 'race-opp', 'race-opp2']);
  assert.equal(lay.bottom, -110);
  assert.equal(lay.y(-110), EVAL_H - EVAL_PAD.bottom);
  assert.ok(lay.grid.includes(0));
  assert.equal(lay.valueAt(2, 2), 40);
  assert.equal(lay.valueAt(2, 3), 20);
  assert.equal(lay.valueAt(2, 4), -20);
});

test('the match page: per deal and per seat, summed over the analysed deals', () => {
  const body = {
    match_id: 'm_4',
    seats: 4,
    deals: [
      { number: 0, status: 'done', given_away: [3.2, 0, 14.6, 40] },
      { number: 1, status: 'running', given_away: null },
      { number: 2, status: 'none', given_away: null },
    ],
    given_away: [3.2, 0, 14.6, 40],
    analysed: 1,
    finished_deals: 3,
  };
  const m = matchSummary(body, 4);
  assert.deepEqual(m.deals.map((d) => [d.number, d.status, d.givenAway]), [[0, 'done', [3, 0, 14, 40]], [1, 'running', null], [2, 'none', null]]);
  assert.deepEqual(m.givenAway, [3, 0, 14, 40]);
  assert.deepEqual([m.analysed, m.finished, m.pending], [1, 3, true]);
  assert.equal(matchSummary({ deals: [], given_away: [0, 0], analysed: 0, finished_deals: 0 }, 2).pending, false);
});

test('the match page’s row under the race chart: a bar per analysed deal on the race’s deal axis, gaps for the others', () => {
  // four deals of three players; deal 0 and 2 analysed (2: nobody gave anything away), 1 running, 3 never asked
  const history = [{ totals: [120, 80, 60] }, { totals: [250, 160, 90] }, { totals: [300, 310, 200] }, { totals: [420, 330, 260] }];
  const body = {
    seats: 3,
    deals: [
      { number: 0, status: 'done', given_away: [3.7, 28, 12] },
      { number: 1, status: 'running', given_away: null },
      { number: 2, status: 'done', given_away: [0, 0, 0] },
      { number: 3, status: 'none', given_away: null },
    ],
    given_away: [3.7, 28, 12],
    analysed: 2,
    finished_deals: 4,
  };
  const summary = matchSummary(body, 3);
  const lay = givenAwayLayout({ summary, history, target: 1001, n: 3, me: 1 });
  const race = raceLayout({ history, target: 1001, n: 3, me: 1 });
  // the race chart's width and deal axis, its seats in its order with its classes and markers
  assert.equal(lay.width, race.width);
  assert.deepEqual(lay.rows.map((r) => [r.seat, r.cls, r.marker]), race.series.map((s) => [s.seat, s.cls, s.marker]));
  for (const row of lay.rows) assert.deepEqual(row.cells.map((c) => c.x), race.series[0].points.map((p) => p.x));
  assert.deepEqual([lay.deals, lay.analysed, lay.gaps, lay.max], [4, [0, 2], [1, 3], 28]);
  // a gap is no bar and no figure; an analysed zero is a figure 0 with a bar that still shows
  const bySeat = Object.fromEntries(lay.rows.map((r) => [r.seat, r]));
  assert.deepEqual(bySeat[0].cells.map((c) => c.points), [3, null, 0, null]);
  assert.deepEqual(bySeat[1].cells.map((c) => [c.status, c.points]), [['done', 28], ['running', null], ['done', 0], ['none', null]]);
  assert.equal(bySeat[1].cells[1].bar, null);
  assert.ok(bySeat[2].cells[2].bar.height > 0 && bySeat[2].cells[2].bar.height < 2);
  // one scale for every seat: the most given away in a deal is a full bar, standing on its row's baseline
  const full = bySeat[1].cells[0].bar;
  assert.equal(full.height, GIVEN_BAR_MAX);
  assert.equal(full.y + full.height, bySeat[1].base);
  assert.ok(Math.abs(bySeat[2].cells[0].bar.height - (12 / 28) * GIVEN_BAR_MAX) < 1e-9);
  // centred under the deal's point, the rows one under the other inside the chart
  assert.equal(full.x + full.width / 2, bySeat[1].cells[0].x);
  assert.deepEqual(lay.rows.map((r) => r.base), [0, 1, 2].map((k) => 4 + (k + 1) * GIVEN_ROW_H - 4));
  assert.ok(lay.rows.every((r) => r.base < lay.height));
  assert.equal(lay.labels, true); // four deals leave room for the figures
});

test('the row under the race chart: nothing analysed is all gaps; a long match drops the figures, not the bars', () => {
  const history = Array.from({ length: 30 }, (_, i) => ({ totals: [i * 30, i * 20] }));
  const none = givenAwayLayout({ summary: matchSummary({ deals: history.map((_, i) => ({ number: i, status: 'none' })) }, 2), history, target: 1001, n: 2 });
  assert.deepEqual([none.analysed.length, none.gaps.length, none.max], [0, 30, 1]);
  assert.ok(none.rows.every((r) => r.cells.every((c) => c.bar === null && c.points === null)));
  const deals = history.map((_, i) => ({ number: i, status: 'done', given_away: [i, 2 * i] }));
  const all = givenAwayLayout({ summary: matchSummary({ deals }, 2), history, target: 1001, n: 2 });
  assert.equal(all.labels, false);
  assert.ok(all.barW >= 2 && all.rows.every((r) => r.cells.every((c) => c.bar && c.bar.x >= all.pad.left - all.barW && c.bar.x + c.bar.width <= all.width)));
  // no analysis at all yet (the answer still on its way)
  assert.deepEqual(givenAwayLayout({ summary: matchSummary(null, 2), history, target: 1001, n: 2 }).analysed, []);
});

// The server's own rater over the replay fixtures' deals (tools/table_fixtures.py): two-hand 1001, McLeod
// (V2) with its auction and discard, 1001 with bidding for four (V7).
const fixture = (name) => JSON.parse(readFileSync(new URL(`../table/fixtures/${name}.json`, import.meta.url), 'utf8'));
const REAL = ['twohand2', 'mcleod3', 'bidding4'].map((tag) => ({ tag, body: fixture(`analysis-${tag}`), replay: fixture(`replay-${tag}`) }));

test('real analyses: a rating per action of the replay, its seat and action the frame’s', () => {
  for (const { tag, body, replay } of REAL) {
    const n = replay.seats;
    assert.equal(body.analysis.seats, n, tag);
    assert.equal(body.analysis.ratings.length, replay.frames.length - 1, tag);
    for (const r of body.analysis.ratings) {
      const frame = replay.frames[r.step];
      assert.equal(r.seat, frame.action.seat, `${tag} step ${r.step}`);
      assert.ok(sameAction(r.taken, frame.action), `${tag} step ${r.step}`);
      assert.equal(verdictAt(body, r.step).seat, r.seat);
    }
    assert.deepEqual(progressOf(body), { status: 'done', done: body.total, total: body.total, percent: 100 });
    assert.ok(!isPending(body));
  }
});

test('real analyses: the better card is one the seat held, and is still in its hand on the felt', () => {
  let pointed = 0;
  let written = 0;
  for (const { tag, body, replay } of REAL) {
    for (const r of body.analysis.ratings) {
      const v = verdictAt(body, r.step);
      if (!v.better) continue;
      const before = replay.frames[r.step - 1].hands[r.seat];
      const after = replay.frames[r.step].hands[r.seat];
      for (const card of betterCards(v)) assert.ok(before.includes(card), `${tag} step ${r.step}: ${card} not held`);
      if (v.better.kind === 'play') {
        assert.ok(after.includes(v.better.card), `${tag} step ${r.step}: ${v.better.card} not on the felt`);
        pointed += 1;
      } else written += 1;
    }
  }
  assert.ok(pointed > 0 && written > 0, `${pointed} cards pointed at, ${written} calls or discards written out`);
});

test('real analyses: marks, totals and the eval line for two, three and four seats', () => {
  const kinds = new Set();
  for (const { tag, body, replay } of REAL) {
    const n = replay.seats;
    const marks = marksOf(body);
    assert.ok(marks.length > 0, tag);
    assert.ok(marks.every((m, i) => m.grade && (i === 0 || m.step > marks[i - 1].step)), tag);
    for (const m of marks) kinds.add(m.better ? m.better.kind : 'none');
    const totals = dealTotals(body, n);
    assert.deepEqual(totals.map((t) => t.points), body.analysis.given_away.map((x) => Math.floor(x)), tag);
    assert.equal(totals.reduce((sum, t) => sum + Object.values(t.counts).reduce((a, b) => a + b, 0), 0), marks.length, tag);
    const series = evalSeries(body, n);
    assert.equal(series.length, n, tag);
    for (const line of series) assert.deepEqual(line.map((p) => p.step), replay.frames.map((_, i) => i), tag);
    const lay = evalLayout({ body, n, steps: replay.frames.length - 1, me: 0 });
    assert.equal(lay.lines.length, n, tag);
    for (const l of lay.lines)
      for (const pt of l.line.split(' ').map((xy) => xy.split(',').map(Number))) {
        assert.ok(pt[0] >= 0 && pt[0] <= lay.width + 0.01 && pt[1] >= lay.pad.top - 0.01 && pt[1] <= lay.height - lay.pad.bottom + 0.01, `${tag} ${pt}`);
      }
    assert.ok(lay.marks.every((m) => m.x >= 0 && m.x <= lay.width), tag);
  }
  assert.ok(kinds.has('play') && (kinds.has('bid') || kinds.has('pass')) && kinds.has('discard'), [...kinds].join());
});
