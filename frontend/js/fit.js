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
// a long moment at each card of a table of four); in step it is one layout per candidate.
function fitEach(els) {
  let trying = [];
  for (const el of els) {
    const known = CANDIDATES.get(el);
    if (!known || !known.list.length || !el.isConnected) continue;
    el.dataset.fit = '';
    trying.push({ el, known, i: 0 });
  }
  while (trying.length) {
    for (const t of trying) if (t.el.textContent !== t.known.list[t.i]) t.el.textContent = t.known.list[t.i];
    // reads only: the page is laid out once for all of them
    const sized = trying.map((t) => ({ t, shown: Boolean(t.el.clientWidth || t.el.getClientRects().length), fits: t.el.scrollWidth <= t.el.clientWidth + 1 }));
    trying = [];
    for (const { t, shown, fits } of sized) {
      const { el, known: { list, title } } = t;
      if (!shown) continue; // not laid out (hidden): nothing to decide
      if (fits) { // layout rounds: a pixel is not a cut
        el.dataset.fit = String(t.i);
        if (t.i > 0 || title) el.title = title || list[0];
        else el.removeAttribute('title');
      } else if (t.i + 1 < list.length) {
        trying.push({ ...t, i: t.i + 1 });
      } else {
        el.textContent = list[0];
        el.title = title || list[0];
        el.dataset.fit = 'tag';
      }
    }
  }
}
