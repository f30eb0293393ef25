// Head to head: every match a group played, oldest to newest, as each member's final total — a
// small SVG line chart (no library), one line per member with the race chart's classes and markers
// (css/race-chart.css), the winner's point of each match filled; past MARKER_LIMIT matches thin
// lines alone, under a bold line each of the average over the latest few matches (css/h2h.css:
// .h2h-dense, .h2h-crowded, .h2h-trend). Pure numbers in h2h-data.js (no DOM).
import { svg } from '../dom.js';
import { formatDate, getLang, t, tn } from '../i18n.js';
import { num } from '../ui.js';
import { h2hLayout } from './h2h-data.js';
import { markerShape } from './race-data.js';

function shortDate(iso) {
  const d = new Date(iso);
  return iso && !Number.isNaN(d.getTime()) ? new Intl.DateTimeFormat(getLang(), { dateStyle: 'short' }).format(d) : '';
}

function text(props, content) {
  const el = svg('text', props);
  el.textContent = content;
  return el;
}

/**
 * h2hChart({points, members, names}) → <svg data-testid="h2h-chart" data-matches data-density>:
 * `points` the series of GET /api/head-to-head/series (oldest first), `names` by member id.
 */
export function h2hChart({ points, members, names }) {
  const lay = h2hLayout(points, members);
  const { width: W2, height, pad } = lay;
  const id = `h2h-t-${Math.random().toString(36).slice(2, 8)}`;
  const title = svg('title', { id });
  title.textContent = t('h2h.chart.title');
  const desc = svg('desc', { id: `${id}-d` });
  desc.textContent = tn('h2h.chart.desc', lay.count) + (lay.window ? ` ${tn('h2h.chart.trend', lay.window)}` : '');
  const root = svg('svg', { class: `race-chart h2h-chart h2h-${lay.density}`, 'data-density': lay.density, 'data-window': lay.window, viewBox: `0 0 ${W2} ${height}`, role: 'img', 'aria-labelledby': `${id} ${id}-d`, 'data-testid': 'h2h-chart', 'data-matches': lay.count });
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
    if (lay.count > 1) group.append(svg('polyline', { class: `race-line${s.trend ? ' h2h-raw' : ''}`, points: s.line }));
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
  // Every member's average over the totals of them all (none hides under another's band).
  for (const s of lay.series) {
    if (s.trend) root.append(svg('g', { class: `race-series ${s.cls}`, 'data-player': s.id }, svg('polyline', { class: 'race-line h2h-trend', points: s.trend })));
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
