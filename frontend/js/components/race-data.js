// The race chart's numbers (race-chart.js draws them): the match totals after each deal for 2, 3 or
// 4 players, where each point and grid line goes, which line is whose and where its legend sits.
// Pure — no DOM and no text — and tested under node (race-data.test.mjs).
import { seatsFromMe } from '../table/model.js';

export const W = 360;
export const H = 230; // for two players; each more adds a legend row
export const PAD = { left: 38, right: 14, top: 52, bottom: 24 };
const LEGEND_ROW = 18;

/** Each line's class (colour, css/race-chart.css) and marker, by its place from the viewer's seat. */
export const SERIES = [
  { cls: 'race-me', marker: 'circle' },
  { cls: 'race-opp', marker: 'square' },
  { cls: 'race-opp2', marker: 'triangle' },
  { cls: 'race-opp3', marker: 'diamond' },
];

/**
 * The totals after each deal, as [[seat0, seat1, …], …] from a view's `history` or a match detail's
 * `deals` (lists `totals`; two-hand records may have `total0` / `total1`). `n` players (default: as
 * many as the first deal has); a deal with another count is left out.
 */
export function raceTotals(history, n = null) {
  const rows = (history || []).map((d) => (Array.isArray(d.totals) ? d.totals : [d.total0, d.total1]).map((x) => Number(x) || 0));
  const count = n || (rows[0] ? rows[0].length : 2);
  return rows.filter((row) => row.length === count);
}

/** The seats from the viewer's, in playing order: me first, then the others clockwise (seat 0 first
 * for a viewer who is not one of them). */
export function seatOrder(n, me = 0) {
  return seatsFromMe(n, Number.isInteger(me) && me >= 0 && me < n ? me : 0);
}

/** A round step for the grid lines, about a fifth of the way to the top. */
export function gridStep(top) {
  for (const step of [25, 50, 100, 200, 250, 500, 1000, 2000]) if (step >= top / 5) return step;
  return Math.ceil(top / 5);
}

/** A marker's shape at (x, y): {tag, attrs} for an SVG element. */
export function markerShape(marker, x, y) {
  const f = (v) => v.toFixed(1);
  if (marker === 'circle') return { tag: 'circle', attrs: { cx: f(x), cy: f(y), r: 3.5 } };
  if (marker === 'square') return { tag: 'rect', attrs: { x: f(x - 3.2), y: f(y - 3.2), width: 6.4, height: 6.4 } };
  const pts = marker === 'triangle' ? [[0, -4.4], [4, 3], [-4, 3]] : [[0, -4.4], [4.4, 0], [0, 4.4], [-4.4, 0]];
  return { tag: 'polygon', attrs: { points: pts.map(([dx, dy]) => `${f(x + dx)},${f(y + dy)}`).join(' ') } };
}

/**
 * Everything the chart places: the scales, the grid values, and per player (the viewer first) its
 * class, marker, polyline points from 0 and a point per deal; the legend's place for each: a line
 * each above the plot, which grows the chart by a row for every player past two (names stay whole).
 */
export function raceLayout({ history, target, n = null, me = 0 }) {
  const totals = raceTotals(history, n);
  const count = n || (totals[0] ? totals[0].length : 2);
  const goal = Number(target) || 1001;
  const deals = totals.length;
  const top = Math.max(goal, ...totals.flat(), 1);
  const bottom = Math.min(0, ...totals.flat());
  const extra = Math.max(0, count - 2) * LEGEND_ROW;
  const pad = { ...PAD, top: PAD.top + extra };
  const height = H + extra;
  const plotW = W - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (i) => pad.left + (deals ? (i / deals) * plotW : 0);
  const y = (v) => pad.top + plotH - ((v - bottom) / (top - bottom)) * plotH;
  const step = gridStep(top - bottom);
  const grid = [];
  for (let v = Math.ceil(bottom / step) * step || 0; v < top; v += step) {
    if (v !== 0 && Math.abs(v - goal) < (top - bottom) * 0.07) continue; // too close to the target's own label
    grid.push(v);
  }
  const series = seatOrder(count, me).map((seat, k) => {
    const { cls, marker } = SERIES[k] || SERIES[SERIES.length - 1];
    const points = [[x(0), y(0)], ...totals.map((row, i) => [x(i + 1), y(row[seat])])];
    return {
      seat,
      k,
      cls,
      marker,
      line: points.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' '),
      points: totals.map((row, i) => ({ deal: i + 1, total: row[seat], x: x(i + 1), y: y(row[seat]) })),
      last: deals ? totals[deals - 1][seat] : 0,
      legend: { x: pad.left, y: 10 + k * LEGEND_ROW },
    };
  });
  return { goal, deals, top, bottom, n: count, width: W, height, pad, grid, x, y, series, nameMax: 28 };
}
