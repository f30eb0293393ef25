// The court cards' pictures (K, Q, J): a small double-headed figure drawn as inline SVG, no image
// files. One half is drawn (a bust with its crown, tiara or cap) and turned about the middle for the
// other, as on a real card. The robe takes the card's colour (currentColor: red, black, or the
// four-colour deck's green and blue); the rest is fixed. Each picture is built once and cloned.
// The upper half keeps its right side for the sceptre and the suit, because the large corner index
// covers the frame's top left (and, turned, the bottom right).
import { svg } from './dom.js';

const SKIN = '#f1cfa6';
const GOLD = '#d9a426';
const GOLD_EDGE = '#8a6410';
const INK = '#2b2420';

const p = (d, fill, extra = {}) => ['path', { d, fill, ...extra }];

const ROBE = p('M6 64C8 50 20 43 33 41h22c13 2 25 9 27 23Z', 'currentColor');
const NECK = p('M40 33h8v9h-8Z', SKIN);
const HEAD = ['ellipse', { cx: 44, cy: 26, rx: 9, ry: 10, fill: SKIN, stroke: INK, 'stroke-width': 0.8 }];
const EYES = p('M39.6 25.4a1.3 1.3 0 1 0 2.6 0a1.3 1.3 0 1 0-2.6 0M45.8 25.4a1.3 1.3 0 1 0 2.6 0a1.3 1.3 0 1 0-2.6 0', INK);

const FIGURES = {
  K: [
    ROBE,
    p('M22 51c6-4 14-6 22-6s16 2 22 6v5c-6-4-14-6-22-6s-16 2-22 6Z', '#fff', { stroke: INK, 'stroke-width': 0.6 }), // ermine
    p('M30 50.5h1.6v2h-1.6ZM40 48.2h1.6v2h-1.6ZM50 48.6h1.6v2h-1.6ZM58 51h1.6v2h-1.6Z', INK),
    NECK,
    HEAD,
    p('M35 27c0 10 4 17 9 17s9-7 9-17c-3 5-6 6-9 6s-6-1-9-6Z', '#8b6a4a', { stroke: INK, 'stroke-width': 0.6 }), // beard
    EYES,
    p('M33.5 18V7l5.3 5.5L44 5l5.2 7.5L54.5 7v11Z', GOLD, { stroke: GOLD_EDGE, 'stroke-width': 0.9 }), // crown
    p('M67 62l5-40', 'none', { stroke: GOLD_EDGE, 'stroke-width': 2.6, 'stroke-linecap': 'round' }), // sceptre
    ['circle', { cx: 72.4, cy: 19.5, r: 3.4, fill: GOLD, stroke: GOLD_EDGE, 'stroke-width': 0.8 }],
  ],
  Q: [
    p('M32 27c-1-12 4-16 12-16s13 4 12 16l2 17c-5-3-9-4-14-4s-9 1-14 4Z', '#6b3f1f'), // hair
    ROBE,
    p('M31 42c5 9 21 9 26 0', 'none', { stroke: GOLD, 'stroke-width': 3 }), // neckline
    NECK,
    HEAD,
    EYES,
    p('M42 31.2h4a2 1.2 0 0 1-4 0Z', '#b3424a'), // lips
    p('M35.5 17l2.2-7 3.3 4.4L44 7.5l3 6.9 3.3-4.4 2.2 7c-6-2.2-11-2.2-17 0Z', GOLD, { stroke: GOLD_EDGE, 'stroke-width': 0.8 }), // tiara
    p('M66 62c0-12 2-22 5-31', 'none', { stroke: '#3e7a3a', 'stroke-width': 1.8, 'stroke-linecap': 'round' }), // the rose's stem
    ['circle', { cx: 71.5, cy: 27.5, r: 4.6, fill: 'currentColor', stroke: GOLD_EDGE, 'stroke-width': 0.7 }],
    ['circle', { cx: 71.5, cy: 27.5, r: 1.6, fill: GOLD }],
  ],
  J: [
    ROBE,
    p('M31 41.5h26v4.5H31Z', GOLD, { stroke: GOLD_EDGE, 'stroke-width': 0.6 }), // collar
    p('M37 46h3v18h-3ZM48 46h3v18h-3Z', '#ffffff', { opacity: 0.55 }), // slashed sleeves
    NECK,
    HEAD,
    p('M35 26c-1-8 3-11 9-11s10 3 9 11l1 5c-1-4-3-8-10-8s-9 4-10 8Z', '#a0612b'), // hair
    EYES,
    p('M31.5 19c1-8 6-11 13-11s12 3 12.5 11Z', 'currentColor', { stroke: INK, 'stroke-width': 0.6 }), // cap
    p('M31.5 17.5h25v3h-25Z', GOLD),
    p('M55 14c5-8 12-11 17-9-6 1-11 5-15 11Z', GOLD, { stroke: GOLD_EDGE, 'stroke-width': 0.6 }), // feather
    p('M68 63l3.5-43', 'none', { stroke: '#6b4b2a', 'stroke-width': 2, 'stroke-linecap': 'round' }), // halberd
    p('M71.8 11l3.4 9.5h-7Z', '#c9ced4', { stroke: INK, 'stroke-width': 0.6 }),
  ],
};

const cache = new Map();

function build(rank, symbol) {
  const half = () => svg('g', {}, ...FIGURES[rank].map(([tag, attrs]) => svg(tag, attrs)));
  const pip = (x, y, turn) => {
    const text = svg('text', { x, y, 'font-size': 15, 'text-anchor': 'middle', fill: 'currentColor', ...(turn ? { transform: `rotate(180 ${x} ${y - 5})` } : {}) });
    text.textContent = symbol;
    return text;
  };
  const lower = half();
  lower.setAttribute('transform', 'rotate(180 44 64)');
  return svg(
    'svg',
    { class: 'court', viewBox: '0 0 88 128', 'aria-hidden': 'true', focusable: 'false' },
    svg('rect', { class: 'court-frame', x: 1, y: 1, width: 86, height: 126, rx: 5 }),
    half(),
    lower,
    svg('path', { d: 'M2 64h84', stroke: 'currentColor', 'stroke-width': 0.8, opacity: 0.45 }),
    pip(79, 48, false),
    pip(9, 90, true),
  );
}

/** The picture of a court card (`rank` K, Q or J) with its suit's `symbol`: a fresh SVG element. */
export function courtPicture(rank, symbol) {
  const key = rank + symbol;
  if (!cache.has(key)) cache.set(key, build(rank, symbol));
  return cache.get(key).cloneNode(true);
}
