// How the player is using the page now (the "tap to raise" setting itself is kept in prefs.js).
//
// The input in use (`<html data-input="keyboard|mouse|touch">`) decides what focus and hover may do
// to the own hand (css/table/hand.css): only focus reached from the keyboard raises a card and puts
// it on top (with a ring); a tap or a click never leaves a card raised by focus or hover, and the
// card focused when the page loads (before any input) is not raised either. Otherwise a raised card
// would cover the corner of its neighbours, and a tap there would play the wrong card.

const NAV_KEYS = new Set(['Tab', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'Enter', ' ', 'Escape', 'PageUp', 'PageDown']);
let watching = false;

/** A text field: its keys (a phone's on-screen keyboard too, Enter to send) are typing, not moving focus. */
function typing(target) {
  if (!target || !target.closest) return false;
  return Boolean(target.isContentEditable || target.closest('textarea, input:not([type=checkbox], [type=radio], [type=button], [type=submit], [type=range])'));
}

function setInput(kind) {
  const root = document.documentElement;
  if (root.dataset.input !== kind) root.dataset.input = kind;
}

/** The input in use: 'keyboard', 'mouse', 'touch' or '' (nothing yet since the page loaded). */
export function inputKind() {
  return document.documentElement.dataset.input || '';
}

/** Follow the input in use (once per page; later calls do nothing). */
export function watchInput() {
  if (watching || typeof document === 'undefined') return;
  watching = true;
  document.addEventListener('keydown', (event) => NAV_KEYS.has(event.key) && !(event.key !== 'Tab' && typing(event.target)) && setInput('keyboard'), true);
  document.addEventListener('pointerdown', (event) => setInput(event.pointerType === 'mouse' ? 'mouse' : 'touch'), true);
  // A mouse moving over the page before any click (not while the keyboard is in use: a nudged mouse
  // must not take the focus ring away).
  document.addEventListener(
    'pointermove',
    (event) => {
      if (event.pointerType === 'mouse' && inputKind() !== 'keyboard' && inputKind() !== 'mouse') setInput('mouse');
    },
    true,
  );
}
