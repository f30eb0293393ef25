// The computer's analysis of a finished deal (issue 26), as the replay viewer and the match page show
// it: pure helpers over the server's answers to GET /api/matches/{id}/deals/{n}/analysis (`{status,
// done, total, analysis: {seats, given_away, ratings: [{step, seat, taken, best, taken_scores,
// best_scores, given_away, grade, exact, worlds, forced}]}}`) and GET /api/matches/{id}/analysis. No
// DOM and no text (tested under node: analysis-data.test.mjs). Nothing here rates an action: the
// grade of every rating is the server's, and the thresholds are the generated GRADES (the server's
// backend/analysis/model.py), never written here; the eval line's place per seat is the race
// chart's (race-data.js), so one seat has one colour in every chart, and the match page's row of
// points given away per deal is drawn on the race chart's own deal axis (raceLayout).
import { GRADES } from '../generated/protocol.js';
import { SERIES, raceLayout, seatOrder } from './race-data.js';

/** How often a queued or running analysis is asked for again (the brief: about every 0.5–1 s). */
export const POLL_MS = 700;
const PENDING = new Set(['queued', 'running']);
const list = (x) => (Array.isArray(x) ? x : []);

/** The grades, most severe first: `[{grade, from}]` (an action that gave `from` points or more away). */
export function gradeTable(grades = GRADES) {
  return list(grades).map((g) => ({ grade: g.grade, from: Number(g.from) }));
}

/** The grade names from the mildest up (the order of a legend). */
export function gradeNames(grades = GRADES) {
  return gradeTable(grades)
    .slice()
    .sort((a, b) => a.from - b.from)
    .map((g) => g.grade);
}

/**
 * Points as shown: whole points, rounded down (the server keeps the exact mean over its worlds). Down,
 * so that the figure agrees with the grade: the thresholds are whole, and 11.6 points given away is a
 * slip, not the mistake "12" would read as.
 */
export function points(x) {
  const v = Math.floor(Math.max(0, Number(x) || 0));
  return Object.is(v, -0) ? 0 : v;
}

/** Whether an analysis is still under way (the page asks again after POLL_MS). */
export function isPending(body) {
  return Boolean(body) && PENDING.has(body.status);
}

/** The progress bar's figures: decisions rated so far of all; `percent` 0–100 (0 while the total is unknown). */
export function progressOf(body) {
  const total = Math.max(0, Number(body && body.total) || 0);
  const done = Math.min(total, Math.max(0, Number(body && body.done) || 0));
  return { status: (body && body.status) || 'none', done, total, percent: total ? Math.round((done / total) * 100) : 0 };
}

/** The same action (the replay frame's action shape): a discard's two cards in any order. */
export function sameAction(a, b) {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'play') return a.card === b.card && Boolean(a.declare) === Boolean(b.declare);
  if (a.kind === 'bid') return Number(a.amount) === Number(b.amount);
  if (a.kind === 'discard') return [...list(a.cards)].sort().join() === [...list(b.cards)].sort().join();
  return true; // pass
}

/** The ratings of a done analysis, by step. */
function ratingsOf(body) {
  return body && body.status === 'done' && body.analysis ? list(body.analysis.ratings) : [];
}

/**
 * What the viewer says of one rated action: who, its grade (null: not marked), the points given away
 * (whole), the better action (null when the action taken was as good as any), exact or over how many
 * worlds (the deals the player could not tell apart), and whether it had no choice.
 */
export function verdictOf(rating) {
  const grade = rating.forced ? null : rating.grade ?? null;
  const better = !rating.forced && rating.best && !sameAction(rating.best, rating.taken) && points(rating.given_away) > 0 ? { ...rating.best } : null;
  return {
    step: rating.step,
    seat: rating.seat,
    grade,
    givenAway: points(rating.given_away),
    better,
    exact: Boolean(rating.exact),
    worlds: Number(rating.worlds) || 0,
    forced: Boolean(rating.forced),
  };
}

/** The verdict on the action of step `step` (the frame after it), or null (the deal's start, or no analysis). */
export function verdictAt(body, step) {
  const rating = ratingsOf(body).find((r) => r.step === step);
  return rating ? verdictOf(rating) : null;
}

/** Every marked action, in step order: the timeline's ticks and the list of marks. */
export function marksOf(body) {
  return ratingsOf(body)
    .map(verdictOf)
    .filter((v) => v.grade)
    .sort((a, b) => a.step - b.step);
}

/** The marked step before or after `step` (`dir` −1 / +1), or null. */
export function nextMark(marks, step, dir) {
  const steps = marks.map((m) => m.step);
  return dir > 0 ? steps.find((s) => s > step) ?? null : [...steps].reverse().find((s) => s < step) ?? null;
}

/** The cards to point at in the seat's hand for a better action: the card to play, or the two to lay away. */
export function betterCards(verdict) {
  const b = verdict && verdict.better;
  if (!b) return [];
  if (b.kind === 'play') return [b.card];
  if (b.kind === 'discard') return [...list(b.cards)];
  return [];
}

/**
 * Per seat the points given away in the deal and how many actions of each grade: `[{seat, points,
 * counts: {slip, mistake, blunder}}]`; the per-seat sum is the server's (`analysis.given_away`).
 */
export function dealTotals(body, n) {
  const analysis = body && body.status === 'done' ? body.analysis : null;
  const names = gradeNames();
  return Array.from({ length: n }, (_, seat) => {
    const counts = Object.fromEntries(names.map((g) => [g, 0]));
    for (const m of marksOf(body)) if (m.seat === seat) counts[m.grade] += 1;
    return { seat, points: analysis ? points(list(analysis.given_away)[seat]) : null, counts };
  });
}

/**
 * Each seat's expected deal score over the steps: `[[{step, value}], …]` per seat — the position
 * before the first action valued as its mover's best, then after every action its taken_scores.
 */
export function evalSeries(body, n) {
  const ratings = [...ratingsOf(body)].sort((a, b) => a.step - b.step);
  if (!ratings.length) return [];
  return Array.from({ length: n }, (_, seat) => [
    { step: 0, value: Number(list(ratings[0].best_scores)[seat]) || 0 },
    ...ratings.map((r) => ({ step: r.step, value: Number(list(r.taken_scores)[seat]) || 0 })),
  ]);
}

// The eval line's own units (the chart is stretched along the timeline: x from 0 to EVAL_W is the
// slider's first to last step).
export const EVAL_W = 1000;
export const EVAL_H = 100;
export const EVAL_PAD = { left: 0, right: 0, top: 12, bottom: 12 };

/** A round step for the eval line's grid, two or three lines over the range. */
function evalGridStep(range) {
  for (const step of [10, 20, 25, 50, 100, 200, 250, 500]) if (step >= range / 3) return step;
  return Math.ceil(range / 3);
}

/**
 * Where the eval line goes: the scales over the deal's steps (0 … `steps`) and the values' range
 * (zero always in it), the grid values, a line per seat in the race chart's class and marker (the
 * viewer's seat first), and a point per marked action on its mover's line, by grade.
 */
export function evalLayout({ body, n, steps, me = 0 }) {
  const series = evalSeries(body, n);
  const values = series.flat().map((p) => p.value);
  const top = Math.max(0, ...values, 1);
  const bottom = Math.min(0, ...values);
  const pad = EVAL_PAD;
  const plotW = EVAL_W - pad.left - pad.right;
  const plotH = EVAL_H - pad.top - pad.bottom;
  const last = Math.max(1, Number(steps) || 0);
  const x = (step) => pad.left + (Math.max(0, Math.min(last, step)) / last) * plotW;
  const y = (v) => pad.top + plotH - ((v - bottom) / (top - bottom)) * plotH;
  const step = evalGridStep(top - bottom);
  const grid = [];
  for (let v = Math.ceil(bottom / step) * step || 0; v <= top; v += step) grid.push(v);
  const lines = series.length
    ? seatOrder(n, me).map((seat, k) => {
        const { cls, marker } = SERIES[k] || SERIES[SERIES.length - 1];
        const pts = series[seat];
        return { seat, cls, marker, line: pts.map((p) => `${x(p.step).toFixed(1)},${y(p.value).toFixed(1)}`).join(' '), last: pts[pts.length - 1].value };
      })
    : [];
  const valueAt = (seat, at) => {
    const pts = series[seat] || [];
    let v = pts.length ? pts[0].value : 0;
    for (const p of pts) if (p.step <= at) v = p.value;
    return v;
  };
  const marks = marksOf(body).map((m) => ({ ...m, x: x(m.step), y: y(valueAt(m.seat, m.step)) }));
  return { width: EVAL_W, height: EVAL_H, pad, top, bottom, steps: last, x, y, grid, lines, marks, valueAt };
}

/** Where a step sits along the timeline (the slider), 0–1. */
export function timelineAt(step, steps) {
  const last = Math.max(1, Number(steps) || 0);
  return Math.max(0, Math.min(1, step / last));
}

/**
 * The match page's figures from GET /api/matches/{id}/analysis: per deal its status and each seat's
 * points given away (null until analysed), the match's per seat (summed over the analysed deals),
 * and how many of the finished deals are analysed.
 */
export function matchSummary(body, n) {
  const deals = list(body && body.deals).map((d) => ({
    number: d.number,
    status: d.status || 'none',
    givenAway: Array.isArray(d.given_away) ? d.given_away.map(points) : null,
  }));
  const sum = list(body && body.given_away);
  return {
    deals,
    givenAway: Array.from({ length: n }, (_, seat) => points(sum[seat])),
    analysed: Number(body && body.analysed) || deals.filter((d) => d.status === 'done').length,
    finished: Number(body && body.finished_deals) || deals.length,
    pending: deals.some((d) => PENDING.has(d.status)),
  };
}

// The match page's row under the race chart: per seat a row of bars, one per analysed deal, in the
// race chart's units (same width and deal axis, so each bar stands under its deal's point).
export const GIVEN_ROW_H = 28; // a seat's row: its bars (up to GIVEN_BAR_MAX) and their figures above
export const GIVEN_BAR_MAX = 14;
const GIVEN_BAR_MIN = 1.5; // an analysed deal with nothing given away still shows (a gap is no bar)
const GIVEN_TOP = 4;
const GIVEN_LABEL_SLOT = 18; // the figures above the bars only where a deal has this much room

/**
 * Where the bars go: the race chart's layout for the same `history` / `target` / `me` gives the deal
 * axis (x of deal i), the width and the seats' order, class and marker; `summary` is matchSummary's.
 * Per seat (the viewer first) a row with its baseline and a cell per deal of the race: `points`
 * (whole) and its bar for an analysed deal, `points: null` and no bar for one not analysed (a gap, not
 * a zero). One scale for every seat (the most any seat gave away in a deal), so rows compare.
 */
export function givenAwayLayout({ summary, history, target, n, me = 0 }) {
  const race = raceLayout({ history, target, n, me });
  const { x, pad, width, deals } = race;
  const byNumber = new Map(list(summary && summary.deals).map((d) => [d.number, d]));
  const analysedAt = (i) => {
    const d = byNumber.get(i);
    return d && d.status === 'done' && Array.isArray(d.givenAway) ? d.givenAway : null;
  };
  const numbers = Array.from({ length: deals }, (_, i) => i);
  const analysed = numbers.filter((i) => analysedAt(i));
  const max = Math.max(1, ...analysed.flatMap((i) => analysedAt(i).map((v) => points(v))));
  const slot = deals ? (width - pad.left - pad.right) / deals : 0;
  const barW = Math.max(2, Math.min(16, slot * 0.6));
  const rows = race.series.map((s, k) => {
    const base = GIVEN_TOP + (k + 1) * GIVEN_ROW_H - 4;
    const cells = numbers.map((i) => {
      const given = analysedAt(i);
      const cx = x(i + 1);
      if (!given) return { number: i, deal: i + 1, x: cx, status: (byNumber.get(i) || {}).status || 'none', points: null, bar: null };
      const value = points(given[s.seat]);
      const height = Math.max(GIVEN_BAR_MIN, (value / max) * GIVEN_BAR_MAX);
      return { number: i, deal: i + 1, x: cx, status: 'done', points: value, bar: { x: cx - barW / 2, y: base - height, width: barW, height } };
    });
    return { seat: s.seat, k, cls: s.cls, marker: s.marker, base, key: { x: pad.left - 14, y: base - GIVEN_BAR_MAX / 2 }, cells };
  });
  return {
    width,
    height: GIVEN_TOP + rows.length * GIVEN_ROW_H + 2,
    pad,
    deals,
    max,
    barW,
    labels: slot >= GIVEN_LABEL_SLOT,
    rows,
    analysed,
    gaps: numbers.filter((i) => !analysedAt(i)),
  };
}
