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

// Every element tries its candidates in step with the others: all of them write a candidate, then
// all of them are measured. Reading a size after a write makes the browser lay the page out again,
// so one element at a time cost a layout per element and candidate (a phone's main thread busy for
// a long moment at each card of a table of four); in step it is one layout per candidate. Nothing is
// written that is already so: a name that still fits whole costs a read of a page laid out already.
function fitEach(els) {
  let trying = [];
  for (const el of els) {
    const known = CANDIDATES.get(el);
    if (!known || !known.list.length || !el.isConnected) continue;
    if (el.dataset.fit === 'tag') el.dataset.fit = ''; // shown again to be measured
    trying.push({ el, known, i: 0 });
  }
  while (trying.length) {
    for (const t of trying) if (t.el.textContent !== t.known.list[t.i]) t.el.textContent = t.known.list[t.i];
    // reads only: the page is laid out once for all of them
    const sized = trying.map((t) => ({ t, shown: Boolean(t.el.clientWidth || t.el.getClientRects().length), fits: t.el.scrollWidth <= t.el.clientWidth + 1 }));
    trying = [];
    for (const { t, shown, fits } of sized) {
      const { el, known: { list, title } } = t;
      if (!shown) { // not laid out (hidden): nothing to decide
        set(el, '');
      } else if (fits) { // layout rounds: a pixel is not a cut
        set(el, String(t.i), t.i > 0 || title ? title || list[0] : null);
      } else if (t.i + 1 < list.length) {
        trying.push({ ...t, i: t.i + 1 });
      } else {
        el.textContent = list[0];
        set(el, 'tag', title || list[0]);
      }
    }
  }
}

/** The outcome on the element (`data-fit`, and its title unless `title` is undefined), where it differs. */
function set(el, outcome, title = undefined) {
  if (el.dataset.fit !== outcome) el.dataset.fit = outcome;
  if (title === null) el.removeAttribute('title');
  else if (title !== undefined && el.title !== title) el.title = title;
}
