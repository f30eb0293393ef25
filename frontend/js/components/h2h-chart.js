// Head to head: every match a group played, oldest to newest, as each member's final total — a
// small SVG line chart (no library), one line per member with the race chart's classes and markers
// (css/race-chart.css), the winner's point of each match filled. Pure numbers in h2hLayout (no DOM).
import { svg } from '../dom.js';
import { formatDate, getLang, t, tn } from '../i18n.js';
import { num } from '../ui.js';
import { PAD, SERIES, W, gridStep, markerShape } from './race-data.js';

const H = 220;

function shortDate(iso) {
  const d = new Date(iso);
  return iso && !Number.isNaN(d.getTime()) ? new Intl.DateTimeFormat(getLang(), { dateStyle: 'short' }).format(d) : '';
}
const LEGEND_ROW = 18;

/**
 * The chart's numbers: `matches` newest first as the API lists them (each {players:[{id,total,place}]}),
 * `members` the group's ids in order. Scales, grid values and per member its points.
 */
export function h2hLayout(matches, members) {
  const rows = [...matches].reverse(); // oldest first
  const totalOf = (m, id) => (m.players.find((p) => p.id === id) || {}).total ?? 0;
  const all = rows.flatMap((m) => members.map((id) => totalOf(m, id)));
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
  const series = members.map((id, k) => {
    const { cls, marker } = SERIES[k] || SERIES[SERIES.length - 1];
    const points = rows.map((m, i) => {
      const seat = m.players.find((p) => p.id === id) || {};
      return { x: x(i), y: y(seat.total ?? 0), total: seat.total ?? 0, won: seat.place === 1, match: m };
    });
    return { id, k, cls, marker, points, line: points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '), legend: { x: pad.left, y: 10 + k * LEGEND_ROW } };
  });
  return { count, width: W, height, pad, grid, y, series, first: rows[0], last: rows[count - 1] };
}

function text(props, content) {
  const el = svg('text', props);
  el.textContent = content;
  return el;
}

/** h2hChart({matches, members, names}) → <svg data-testid="h2h-chart"> (`names` by member id). */
export function h2hChart({ matches, members, names }) {
  const lay = h2hLayout(matches, members);
  const { width: W2, height, pad } = lay;
  const id = `h2h-t-${Math.random().toString(36).slice(2, 8)}`;
  const title = svg('title', { id });
  title.textContent = t('h2h.chart.title');
  const desc = svg('desc', { id: `${id}-d` });
  desc.textContent = tn('h2h.chart.desc', lay.count);
  const root = svg('svg', { class: 'race-chart h2h-chart', viewBox: `0 0 ${W2} ${height}`, role: 'img', 'aria-labelledby': `${id} ${id}-d`, 'data-testid': 'h2h-chart', 'data-matches': lay.count });
  root.append(title, desc);
  const grid = svg('g', { class: 'race-grid', 'aria-hidden': 'true' });
  for (const v of lay.grid) {
    grid.append(
      svg('line', { x1: pad.left, x2: W2 - pad.right, y1: lay.y(v), y2: lay.y(v), class: `race-gridline${v === 0 ? ' zero' : ''}` }),
      text({ x: pad.left - 5, y: lay.y(v) + 3.5, class: 'race-label', 'text-anchor': 'end' }, num(v)),
    );
  }
  if (lay.count) {
    // The first and the last match's dates along the bottom.
    grid.append(text({ x: pad.left, y: height - pad.bottom + 15, class: 'race-label', 'text-anchor': 'start' }, shortDate(lay.first.finished_at)));
    if (lay.count > 1) grid.append(text({ x: W2 - pad.right, y: height - pad.bottom + 15, class: 'race-label', 'text-anchor': 'end' }, shortDate(lay.last.finished_at)));
  }
  root.append(grid);
  for (const s of lay.series) {
    const group = svg('g', { class: `race-series ${s.cls}`, 'data-player': s.id });
    if (lay.count > 1) group.append(svg('polyline', { class: 'race-line', points: s.line }));
    for (const p of s.points) {
      const { tag, attrs } = markerShape(s.marker, p.x, p.y);
      const dot = svg(tag, { ...attrs, class: `race-point${p.won ? ' won' : ''}`, 'data-total': p.total });
      const tip = svg('title');
      tip.textContent = t('h2h.chart.point', { date: formatDate(p.match.finished_at) || '', name: names[s.id] ?? '?', total: num(p.total) });
      dot.append(tip);
      group.append(dot);
    }
    root.append(group);
  }
  const legend = svg('g', { class: 'race-legend', 'aria-hidden': 'true' });
  for (const s of lay.series) {
    const { x: lx, y: ly } = s.legend;
    const item = svg('g', { class: `race-series ${s.cls}` });
    const { tag, attrs } = markerShape(s.marker, lx + 8, ly);
    const name = String(names[s.id] ?? '?');
    item.append(
      svg('line', { x1: lx, x2: lx + 16, y1: ly, y2: ly, class: 'race-line' }),
      svg(tag, { ...attrs, class: 'race-point' }),
      text({ x: lx + 22, y: ly + 4, class: 'race-name' }, name.length > 28 ? `${name.slice(0, 27)}…` : name),
    );
    legend.append(item);
  }
  root.append(legend);
  return root;
}
