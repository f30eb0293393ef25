// The race to the target: every player's match totals after each deal (two, three or four players),
// as a small SVG line chart with the target as a dashed line. Used by the match detail (history) and
// the end-of-match panel (table/match.js). The numbers and places come from race-data.js (pure,
// node-tested); colours come from CSS classes (frontend/css/race-chart.css → tokens), never from here.
import { svg } from '../dom.js';
import { t, tn } from '../i18n.js';
import { num } from '../ui.js';
import { markerShape, raceLayout } from './race-data.js';

export { raceTotals } from './race-data.js';

function short(name, max) {
  const text = String(name ?? '?');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function text(props, content) {
  const el = svg('text', props);
  el.textContent = content;
  return el;
}

function marker(shape, x, y, extra = {}) {
  const { tag, attrs } = markerShape(shape, x, y);
  return svg(tag, { ...attrs, class: 'race-point', ...extra });
}

/**
 * raceChart({history, target, names, me}) → <svg data-testid="race-chart">.
 * `names` are in seat order (their count is the number of players); `me` (default 0) is the
 * viewer's seat: its line is "race-me" (a circle per deal), the others follow in playing order
 * ("race-opp" squares, "race-opp2" triangles, "race-opp3" diamonds), each named in the legend.
 */
export function raceChart({ history, target, names = [], me = 0 }) {
  const n = names.length >= 2 ? names.length : null; // else as many as the first deal has
  const lay = raceLayout({ history, target, n, me });
  const { goal, deals, x, y, pad, width: W, height: H } = lay;
  const nameOf = (seat) => names[seat] ?? '?';

  const title = t('race.title', { target: num(goal) });
  const desc = deals ? tn('race.desc', deals, { scores: lay.series.map((s) => `${nameOf(s.seat)} ${num(s.last)}`).join(', '), target: num(goal) }) : t('race.none');
  const titleEl = svg('title', { id: `race-t-${Math.random().toString(36).slice(2, 8)}` });
  titleEl.textContent = title;
  const descEl = svg('desc', { id: `${titleEl.id}-d` });
  descEl.textContent = desc;

  const root = svg('svg', {
    class: 'race-chart',
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-labelledby': `${titleEl.id} ${descEl.id}`,
    'data-testid': 'race-chart',
    'data-deals': deals,
    'data-target': goal,
    'data-players': lay.n,
  });
  root.append(titleEl, descEl);

  // Grid: round steps below the target, then the target itself as a dashed line.
  const grid = svg('g', { class: 'race-grid', 'aria-hidden': 'true' });
  for (const v of lay.grid) {
    grid.append(
      svg('line', { x1: pad.left, x2: W - pad.right, y1: y(v), y2: y(v), class: `race-gridline${v === 0 && lay.bottom < 0 ? ' zero' : ''}` }),
      text({ x: pad.left - 5, y: y(v) + 3.5, class: 'race-label', 'text-anchor': 'end' }, num(v)),
    );
  }
  grid.append(
    svg('line', { x1: pad.left, x2: W - pad.right, y1: y(goal), y2: y(goal), class: 'race-target', 'data-testid': 'race-target' }),
    text({ x: pad.left - 5, y: y(goal) + 3.5, class: 'race-label race-target-label', 'text-anchor': 'end' }, num(goal)),
  );
  // Deal numbers along the bottom (thinned out for a long match).
  const every = Math.max(1, Math.ceil(deals / 12));
  for (let i = 1; i <= deals; i += 1) {
    if (i !== deals && (i % every || deals - i < every)) continue; // the last deal always, nothing crowding it
    grid.append(text({ x: x(i), y: H - pad.bottom + 15, class: 'race-label', 'text-anchor': 'middle' }, num(i)));
  }
  root.append(grid);

  // One line per player from 0 through every deal, a marker per deal (its shape tells the players apart too).
  for (const s of lay.series) {
    const group = svg('g', { class: `race-series ${s.cls}`, 'data-seat': s.seat });
    group.append(svg('polyline', { class: 'race-line', points: s.line }));
    for (const p of s.points) {
      const dot = marker(s.marker, p.x, p.y, { 'data-deal': p.deal, 'data-total': p.total });
      const tip = svg('title');
      tip.textContent = t('race.point', { deal: num(p.deal), name: nameOf(s.seat), total: num(p.total) });
      dot.append(tip);
      group.append(dot);
    }
    root.append(group);
  }

  // The legend: who is which line, with the latest totals.
  const legend = svg('g', { class: 'race-legend', 'aria-hidden': 'true' });
  for (const s of lay.series) {
    const { x: lx, y: ly } = s.legend;
    const item = svg('g', { class: `race-series ${s.cls}`, 'data-seat': s.seat });
    item.append(
      svg('line', { x1: lx, x2: lx + 16, y1: ly, y2: ly, class: 'race-line' }),
      marker(s.marker, lx + 8, ly),
      text({ x: lx + 22, y: ly + 4, class: 'race-name' }, `${short(nameOf(s.seat), lay.nameMax)} ${num(s.last)}`),
    );
    legend.append(item);
  }
  root.append(legend);
  return root;
}
