// Names that fit their box, never cut inside a word: an element made by `fitName` holds the first of
// its candidate texts (the whole name, a shorter one, the first word with an ellipsis) that fits on
// one line; when none fits it is hidden (`data-fit="tag"`) and the seat's coloured tag beside it
// (names.js `seatTag`) stands for the seat, the whole name in its title and the seat's label.
// `fitAll(root)` measures again (after a render, a resize, the drawer opening on a wide screen).
import { h } from './dom.js';

const CANDIDATES = new WeakMap();

/** A one-line name element trying `candidates` in turn (duplicates and empties dropped). */
export function fitName(tag, props, candidates) {
  const el = h(tag, { ...props, class: `${props.class || ''} fit-name`.trim() });
  return fitText(el, candidates, props.title || null);
}

/** Give an element (already made) its candidate texts; `title` stays its title whatever it shows. */
export function fitText(el, candidates, title = null) {
  const list = [...new Set(candidates.filter(Boolean))];
  el.classList.add('fit-name');
  el.textContent = list[0] || '';
  CANDIDATES.set(el, { list, title });
  return el;
}

/** An element's candidate texts and title, if it is a fitted name (table/patch.js keeps those). */
export const fitted = (el) => CANDIDATES.get(el);

/** Pick, for one element, the first candidate that fits (its box must be laid out). */
export function fit(el) {
  if (el) fitEach([el]);
}

/** Fit every name under the roots given (the seats and my box at once: one measure for all). */
export function fitAll(...roots) {
  const els = [];
  for (const root of roots) if (root) els.push(...root.querySelectorAll('.fit-name'));
  fitEach(els);
}

// Names fitted before the next frame is drawn, all at once: a render that fitted them at once and
// again after the frame (when the page had settled) laid the page out twice for every candidate
// tried, and a table of four spent most of each card's render there on a phone.
const waiting = new Set();
let frame = 0;

/** Fit every name under the roots given before the page is next drawn (one pass for all the roots
 * asked for meanwhile: the render is done and laid out by then, and nothing is drawn unfitted). */
export function fitSoon(...roots) {
  for (const root of roots) if (root) waiting.add(root);
  if (!frame) frame = requestAnimationFrame(fitWaiting);
}

/** Fit now what `fitSoon` was asked for: at the end of a whole render, so that the page is never
 * left between two tasks with a name not yet fitted (a test's look, an assistive technology's). */
export function fitWaiting() {
  if (frame) cancelAnimationFrame(frame);
  frame = 0;
  const roots = [...waiting].filter((root) => root.isConnected);
  waiting.clear();
  if (roots.length) fitAll(...roots);
}

// What a name came to when it was last measured: the same candidates in the same box (its class,
// its width and the first candidate's width, all read in the first pass anyway) come to the same
// outcome, so they are not tried again. Each try lays the page out, and a table's seats are built
// anew at every card. Only a box as wide whatever it holds is remembered: a table cell's width
// follows its text and its neighbours', so the same first measure can end otherwise there.
// Bounded: forgotten all at once past a few hundred (names × box sizes).
const OUTCOMES = new Map();
const OUTCOMES_MAX = 256;

// Every element tries its candidates in step with the others: all of them write a candidate, then
// all of them are measured. Reading a size after a write makes the browser lay the page out again,
// so one element at a time cost a layout per element and candidate (a phone's main thread busy for
// a long moment at each card of a table of four); in step it is one layout per candidate. Nothing is
// written that is already so: a name that still fits whole costs a read of a page laid out already.
/** Whether a box holds the element: its first ancestor that is not `display: contents` has one. */
function laidOut(el) {
  let box = el;
  while (box && getComputedStyle(box).display === 'contents') box = box.parentElement;
  return Boolean(box && box.getClientRects().length);
}

function fitEach(els) {
  let trying = [];
  for (const el of els) {
    const known = CANDIDATES.get(el);
    if (!known || !known.list.length || !el.isConnected) continue;
    // Not laid out (the site header hidden at a table in play): nothing to measure, every candidate
    // would "fit" in no room and the whole name would stay once the box is shown (issue 42, point 4)
    if (!laidOut(el.parentElement)) continue;
    if (el.dataset.fit === 'tag') el.dataset.fit = ''; // shown again to be measured
    trying.push({ el, known, i: 0, key: null, width: null, steady: true });
  }
  while (trying.length) {
    for (const t of trying) if (t.el.textContent !== t.known.list[t.i]) t.el.textContent = t.known.list[t.i];
    // reads only: the page is laid out once for all of them
    const sized = trying.map((t) => ({ t, shown: Boolean(t.el.clientWidth || t.el.getClientRects().length), width: t.el.clientWidth, needs: t.el.scrollWidth }));
    trying = [];
    for (const { t, shown, width, needs } of sized) {
      const { el, known: { list, title } } = t;
      const key = t.key ?? `${el.className}|${width}|${needs}|${list.join('\n')}`;
      const steady = t.steady && (t.width === null || t.width === width); // the box kept its width from one text to the next
      if (!shown) { // not laid out (hidden): nothing to decide
        set(el, '');
      } else if (needs <= width + 1) { // layout rounds: a pixel is not a cut
        set(el, String(t.i), t.i > 0 || title ? title || list[0] : null);
        if (t.i > 0 && steady) remember(key, t.i);
      } else if (t.i === 0 && OUTCOMES.has(key)) {
        settle(el, list, title, OUTCOMES.get(key));
      } else if (t.i + 1 < list.length) {
        trying.push({ ...t, i: t.i + 1, key, width, steady });
      } else {
        settle(el, list, title, 'tag');
        if (steady) remember(key, 'tag');
      }
    }
  }
}

/** Show the outcome decided: candidate `outcome` (an index) or, for 'tag', none (the seat's tag stands in). */
function settle(el, list, title, outcome) {
  const text = outcome === 'tag' ? list[0] : list[outcome];
  if (el.textContent !== text) el.textContent = text;
  set(el, String(outcome), title || list[0]);
}

function remember(key, outcome) {
  if (OUTCOMES.size >= OUTCOMES_MAX) OUTCOMES.clear();
  OUTCOMES.set(key, outcome);
}

/** The outcome on the element (`data-fit`, and its title unless `title` is undefined), where it differs. */
function set(el, outcome, title = undefined) {
  if (el.dataset.fit !== outcome) el.dataset.fit = outcome;
  if (title === null) el.removeAttribute('title');
  else if (title !== undefined && el.title !== title) el.title = title;
}
