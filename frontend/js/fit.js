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
  const known = CANDIDATES.get(el);
  if (!known || !known.list.length || !el.isConnected) return;
  const { list, title } = known;
  el.dataset.fit = '';
  for (let i = 0; i < list.length; i++) {
    if (el.textContent !== list[i]) el.textContent = list[i];
    if (!el.clientWidth && !el.getClientRects().length) return; // not laid out (hidden): nothing to decide
    if (el.scrollWidth <= el.clientWidth + 1) { // layout rounds: a pixel is not a cut
      el.dataset.fit = String(i);
      if (i > 0 || title) el.title = title || list[0];
      else el.removeAttribute('title');
      return;
    }
  }
  el.textContent = list[0];
  el.title = title || list[0];
  el.dataset.fit = 'tag';
}

export function fitAll(root) {
  if (!root) return;
  for (const el of root.querySelectorAll('.fit-name')) fit(el);
}
