// The race to the target: both players' match totals after each deal, as a small SVG line chart
// with the target as a dashed line. Used by the match detail (history) and the end-of-match panel.
// Colours come from CSS classes (frontend/css/race-chart.css → tokens), never from here.
import { svg } from '../dom.js';
import { t, tn } from '../i18n.js';
import { num } from '../ui.js';

const W = 360;
const H = 230;
const PAD = { left: 38, right: 14, top: 52, bottom: 24 };
const NAME_MAX = 28;

/** The totals after each deal, as [[seat0, seat1], …], from view `history` or match-detail `deals`. */
export function raceTotals(history) {
  return (history || [])
    .map((d) => (Array.isArray(d.totals) ? d.totals : [d.total0, d.total1]).map((x) => Number(x) || 0))
    .filter((pair) => pair.length === 2);
}

/** A round step for the grid lines, about a fifth of the way to the top. */
function gridStep(top) {
  for (const step of [25, 50, 100, 200, 250, 500, 1000, 2000]) if (step >= top / 5) return step;
  return Math.ceil(top / 5);
}

function short(name) {
  const text = String(name ?? '?');
  return text.length > NAME_MAX ? `${text.slice(0, NAME_MAX - 1)}…` : text;
}

function text(props, content) {
  const el = svg('text', props);
  el.textContent = content;
  return el;
}

/**
 * raceChart({history, target, names, me}) → <svg data-testid="race-chart">.
 * `names` are in seat order; `me` (default 0) is the viewer's seat: drawn first and as "race-me".
 */
export function raceChart({ history, target, names = [], me = 0 }) {
  const totals = raceTotals(history);
  const goal = Number(target) || 1001;
  const deals = totals.length;
  const top = Math.max(goal, ...totals.flat(), 1);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (deals ? (i / deals) * plotW : 0);
  const y = (v) => PAD.top + plotH - (v / top) * plotH;
  const seats = [me === 1 ? 1 : 0, me === 1 ? 0 : 1];
  const nameOf = (seat) => names[seat] ?? '?';

  const title = t('race.title', { target: num(goal) });
  const last = totals[deals - 1] || [0, 0];
  const desc = deals
    ? tn('race.desc', deals, { scores: seats.map((s) => `${nameOf(s)} ${num(last[s])}`).join(', '), target: num(goal) })
    : t('race.none');
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
  });
  root.append(titleEl, descEl);

  // Grid: round steps below the target, then the target itself as a dashed line.
  const grid = svg('g', { class: 'race-grid', 'aria-hidden': 'true' });
  const step = gridStep(top);
  for (let v = 0; v < top; v += step) {
    if (v > 0 && Math.abs(v - goal) < top * 0.07) continue; // too close to the target's own label
    grid.append(
      svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: 'race-gridline' }),
      text({ x: PAD.left - 5, y: y(v) + 3.5, class: 'race-label', 'text-anchor': 'end' }, num(v)),
    );
  }
  grid.append(
    svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(goal), y2: y(goal), class: 'race-target', 'data-testid': 'race-target' }),
    text({ x: PAD.left - 5, y: y(goal) + 3.5, class: 'race-label race-target-label', 'text-anchor': 'end' }, num(goal)),
  );
  // Deal numbers along the bottom (thinned out for a long match).
  const every = Math.max(1, Math.ceil(deals / 12));
  for (let i = 1; i <= deals; i += 1) {
    if (i !== deals && (i % every || deals - i < every)) continue; // the last deal always, nothing crowding it
    grid.append(text({ x: x(i), y: H - PAD.bottom + 15, class: 'race-label', 'text-anchor': 'middle' }, num(i)));
  }
  root.append(grid);

  // One line per player from 0 : 0 through every deal; a marker per deal (circle: me, square: the other).
  seats.forEach((seat, k) => {
    const cls = k === 0 ? 'race-me' : 'race-opp';
    const points = [[x(0), y(0)], ...totals.map((pair, i) => [x(i + 1), y(pair[seat])])];
    const group = svg('g', { class: `race-series ${cls}`, 'data-seat': seat });
    group.append(svg('polyline', { class: 'race-line', points: points.map((p) => p.map((n) => n.toFixed(1)).join(',')).join(' ') }));
    totals.forEach((pair, i) => {
      const [px, py] = [x(i + 1), y(pair[seat])];
      const marker =
        k === 0
          ? svg('circle', { cx: px.toFixed(1), cy: py.toFixed(1), r: 3.5, class: 'race-point', 'data-deal': i + 1, 'data-total': pair[seat] })
          : svg('rect', { x: (px - 3.2).toFixed(1), y: (py - 3.2).toFixed(1), width: 6.4, height: 6.4, class: 'race-point', 'data-deal': i + 1, 'data-total': pair[seat] });
      const tip = svg('title');
      tip.textContent = t('race.point', { deal: num(i + 1), name: nameOf(seat), total: num(pair[seat]) });
      marker.append(tip);
      group.append(marker);
    });
    root.append(group);
  });

  // The legend: who is which line, with the latest totals.
  const legend = svg('g', { class: 'race-legend', 'aria-hidden': 'true' });
  seats.forEach((seat, k) => {
    const lx = PAD.left;
    const ly = 10 + k * 18; // one line each: long names never collide
    const cls = k === 0 ? 'race-me' : 'race-opp';
    const item = svg('g', { class: `race-series ${cls}` });
    item.append(
      svg('line', { x1: lx, x2: lx + 16, y1: ly, y2: ly, class: 'race-line' }),
      k === 0 ? svg('circle', { cx: lx + 8, cy: ly, r: 3.5, class: 'race-point' }) : svg('rect', { x: lx + 4.8, y: ly - 3.2, width: 6.4, height: 6.4, class: 'race-point' }),
      text({ x: lx + 22, y: ly + 4, class: 'race-name' }, `${short(nameOf(seat))} ${num(last[seat])}`),
    );
    legend.append(item);
  });
  root.append(legend);
  return root;
}
