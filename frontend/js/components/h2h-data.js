// The head-to-head chart's numbers (h2h-chart.js draws them): every match of a group, oldest first,
// as each member's final total — the scales, the grid values, per member a line, and for a few
// matches a marker per match; for many, a bold line of the average over the latest few. Pure — no DOM and no text — and tested under node (h2h-data.test.mjs).
import { PAD, SERIES, W, gridStep } from './race-data.js';

export const H = 220; // for two members; each more adds a legend row
const LEGEND_ROW = 18;
/** Up to this many matches each has a marker (about 6 px apart at 360 px); past it the lines alone. */
export const MARKER_LIMIT = 50;
/** Past this many the lines are drawn thinner still, so that 1,000 matches stay a readable band. */
export const CROWDED = 300;

/** Past MARKER_LIMIT, each member's average over the last `trendWindow(count)` matches is drawn
 * bold over the thin line of the totals, which at a pixel or less a match is only a band. */
export function trendWindow(count) {
  return count <= MARKER_LIMIT ? 0 : Math.max(5, Math.ceil(count / 50));
}

/** The average of the last `span` values at each place (fewer at the start). */
export function trailingMean(values, span) {
  let sum = 0;
  return values.map((v, i) => {
    sum += v - (i >= span ? values[i - span] : 0);
    return sum / Math.min(i + 1, span);
  });
}

/** How densely the matches sit: 'sparse' (markers), 'dense' (thin lines), 'crowded' (thinner). */
export function density(count) {
  if (count <= MARKER_LIMIT) return 'sparse';
  return count <= CROWDED ? 'dense' : 'crowded';
}

/**
 * `points`: GET /api/head-to-head/series's points, oldest first (each {finished_at, kind, totals, won},
 * totals and won in the order of `members`); `members` the group's ids in that order.
 */
export function h2hLayout(points, members) {
  const rows = points || [];
  const all = rows.flatMap((p) => members.map((_, k) => Number(p.totals[k]) || 0));
  const top = Math.max(100, ...all);
  const bottom = Math.min(0, ...all);
  const extra = Math.max(0, members.length - 2) * LEGEND_ROW;
  const pad = { ...PAD, top: PAD.top + extra };
  const height = H + extra;
  const plotW = W - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const count = rows.length;
  const x = (i) => pad.left + (count > 1 ? (i / (count - 1)) * plotW : plotW / 2);
  const y = (v) => pad.top + plotH - ((v - bottom) / (top - bottom || 1)) * plotH;
  const step = gridStep(top - bottom);
  const grid = [];
  for (let v = Math.ceil(bottom / step) * step || 0; v <= top; v += step) grid.push(v);
  const dense = density(count);
  const span = trendWindow(count);
  const polyline = (ys) => ys.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const series = members.map((id, k) => {
    const { cls, marker } = SERIES[k] || SERIES[SERIES.length - 1];
    const totals = rows.map((p) => Number(p.totals[k]) || 0);
    const at = rows.map((p, i) => ({ x: x(i), y: y(totals[i]), total: totals[i], won: Boolean(p.won[k]), match: p }));
    return {
      id,
      k,
      cls,
      marker,
      line: polyline(totals),
      trend: span ? polyline(trailingMean(totals, span)) : null,
      points: dense === 'sparse' ? at : [], // past MARKER_LIMIT no marker: they would only blot the lines
      legend: { x: pad.left, y: 10 + k * LEGEND_ROW },
    };
  });
  return { count, density: dense, window: span, width: W, height, pad, grid, y, series, first: rows[0], last: rows[count - 1] };
}
