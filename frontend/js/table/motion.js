// Cards that travel, by the FLIP technique on the Web Animations API (element.animate, no library):
// the DOM is the new state at once (a card is in the trick, a won trick is gone), and an animation
// only shows where a card came from or goes to. Nothing waits for one: a card can be played while
// the last trick is still flying. Under `prefers-reduced-motion: reduce` nothing moves.
import { prefersReducedMotion } from '../dom.js';

export const PLAY_MS = 340;
export const SWEEP_MS = 420;
export const DEAL_MS = 300;
export const DEAL_STAGGER_MS = 45;
export const SLIDE_MS = 180;
const EASE = 'cubic-bezier(.2,.7,.3,1)';

// Motion reads where things are drawn, and a read after a write lays the page out at once. A render
// writes first (ring, hand, turn line, names fitted) and its flights are started after it, all at
// once (issue 42): `afterWrites(fn)` runs `fn` when the task's script is done (a microtask), before
// the frame is drawn, so every flight's measure shares one layout.
const queue = [];

/** Run `fn` once the writes of the present task are done (before the next frame). */
export function afterWrites(fn) {
  if (!queue.length) queueMicrotask(runQueue);
  queue.push(fn);
}

function runQueue() {
  for (const fn of queue.splice(0)) fn();
}

export function motionOn() {
  return typeof Element !== 'undefined' && typeof Element.prototype.animate === 'function' && !prefersReducedMotion();
}

/** The element's box (a DOMRect) when it is laid out, else null. */
export function rectOf(el) {
  if (!el || !el.isConnected) return null;
  const r = el.getBoundingClientRect();
  return r.width && r.height ? r : null;
}

/** The transform the stylesheet gives `el` (its place in the trick), as one matrix; '' for none. */
function baseTransform(el) {
  const t = getComputedStyle(el).transform;
  return t && t !== 'none' ? t : '';
}

/** Where `el` would be drawn if it were still at `from` (same centre, scaled to its width). */
function offset(el, from) {
  const to = el.getBoundingClientRect();
  if (!to.width || !from) return null;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.25, Math.min(2.5, from.width / to.width));
  const base = baseTransform(el);
  // translate(d) · T · scale(s): the card keeps its own place and tilt (T) and arrives there.
  return { base: base || 'none', away: `translate(${dx}px, ${dy}px) ${base} scale(${scale})` };
}

/** The card `el` (already where it belongs) flies in from the rect `from`. */
export function flyFrom(el, from, { duration = PLAY_MS, delay = 0, fade = false } = {}) {
  if (!motionOn()) return null;
  const o = offset(el, from);
  if (!o) return null;
  const first = fade ? { transform: o.away, opacity: 0.4 } : { transform: o.away };
  return el.animate([first, { transform: o.base, opacity: 1 }], { duration, delay, easing: EASE, fill: 'backwards' });
}

/**
 * A dealt card of the hand: a picture of it (a copy that takes no tap) waits at `from` for its turn
 * (`delay`, the deal's stagger) and flies to the card's place, while the card itself — the button a
 * tap hits — stays where it belongs, unseen until its picture arrives. A tap during the deal so
 * lands on the card where it will lie, never on a card still waiting at the stock (issue 42: a
 * first tap there hit nothing and sent no play). Returns the picture's animation, or null.
 */
export function dealIn(el, from, { duration = DEAL_MS, delay = 0 } = {}) {
  if (!motionOn() || !el.parentNode) return null;
  const o = offset(el, from);
  if (!o) return null;
  const ghost = document.createElement('div');
  ghost.className = `${el.className} deal-ghost`;
  ghost.style.cssText = el.style.cssText;
  ghost.setAttribute('aria-hidden', 'true');
  for (const child of el.childNodes) ghost.appendChild(child.cloneNode(true));
  el.after(ghost);
  const flight = ghost.animate([{ transform: o.away, opacity: 0.4 }, { transform: o.base, opacity: 1 }], { duration, delay, easing: EASE, fill: 'backwards' });
  // the card itself: no transform (its box stays in place), only hidden until its picture lands
  el.animate([{ opacity: 0 }, { opacity: 0 }], { duration: duration + delay });
  flight.finished.catch(() => null).then(() => ghost.remove());
  return flight;
}

/** The card `el` flies from where it is to the rect `to`, shrinking and fading (a trick to its winner). */
export function flyTo(el, to, { duration = SWEEP_MS, delay = 0, scale = 0.35 } = {}) {
  if (!motionOn() || !to) return null;
  const box = el.getBoundingClientRect();
  if (!box.width) return null;
  const target = { left: to.left + to.width / 2 - (box.width * scale) / 2, top: to.top + to.height / 2 - (box.height * scale) / 2, width: box.width * scale, height: box.height * scale };
  const o = offset(el, target);
  if (!o) return null;
  return el.animate([{ transform: o.base, opacity: 1 }, { transform: o.away, opacity: 0.15 }], { duration, delay, easing: 'cubic-bezier(.5,0,.75,.4)', fill: 'forwards' });
}

/** FLIP for a card that only moved (the hand closing a gap): from its old rect to its new place. */
export function slideFrom(el, old) {
  if (!motionOn() || !old) return null;
  const now = el.getBoundingClientRect();
  const dx = old.left - now.left;
  const dy = old.top - now.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  return el.animate([{ translate: `${dx}px ${dy}px` }, { translate: '0 0' }], { duration: SLIDE_MS, easing: EASE });
}
