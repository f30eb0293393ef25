// This device's table preferences, kept in localStorage beside the sound switch (feedback.js): how
// long a finished trick stays on the felt, the four-colour deck, and "tap to raise, tap again to play". Read anywhere; a change is
// announced as a `prefs-changed` event on window. The deck is applied as `html[data-deck]` (CSS).

const KEYS = { trickStay: '1001.trick-stay', deck: '1001.deck', tapToRaise: '1001.tapToRaise' };

/** How long a finished trick stays before it goes to its winner (ms); 'tap' waits for a tap. */
export const TRICK_STAY = Object.freeze({ short: 500, normal: 1100, long: 2400, tap: null });
export const TRICK_STAY_NAMES = Object.freeze(Object.keys(TRICK_STAY));
export const DECKS = Object.freeze(['two', 'four']);

const fallback = {}; // when storage is refused (private modes), a choice lasts as long as the page

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function read(key) {
  const store = storage();
  return store ? store.getItem(key) : (fallback[key] ?? null);
}

/** Keep `value` under `key`; null forgets it (the default again). */
function write(key, value) {
  fallback[key] = value;
  const store = storage();
  if (store && value === null) store.removeItem(key);
  else if (store) store.setItem(key, value);
  window.dispatchEvent(new CustomEvent('prefs-changed', { detail: { key } }));
}

/** 'short' | 'normal' | 'long' | 'tap' */
export function trickStay() {
  const v = read(KEYS.trickStay);
  return TRICK_STAY_NAMES.includes(v) ? v : 'normal';
}

export function setTrickStay(name) {
  if (TRICK_STAY_NAMES.includes(name)) write(KEYS.trickStay, name);
}

/** True when this device wants a first tap to raise a card and a second to play it (off unless chosen). */
export function tapToRaise() {
  return read(KEYS.tapToRaise) === '1';
}

export function setTapToRaise(on) {
  write(KEYS.tapToRaise, on ? '1' : null);
}

/** 'two' (red and black) | 'four' (♣ green, ♦ blue) */
export function deck() {
  return read(KEYS.deck) === 'four' ? 'four' : 'two';
}

export function setDeck(name) {
  if (!DECKS.includes(name)) return;
  write(KEYS.deck, name);
  applyDeck();
}

/** Put the deck on the page (`html[data-deck]`), for every card drawn anywhere. */
export function applyDeck() {
  if (typeof document !== 'undefined') document.documentElement.dataset.deck = deck();
}
