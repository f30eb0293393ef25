// Sound and vibration cues for the table: short tones synthesised with Web Audio (no audio files)
// and a buzz through navigator.vibrate where the device has one. Both stay silent when muted; the
// switch is remembered per device (localStorage). The AudioContext is created lazily on the first
// user gesture (browsers refuse to start audio before one), so a cue before any tap is silent.

const STORAGE_KEY = '1001.muted';

/**
 * Each cue: tones as [frequency Hz, start s, length s, gain], an oscillator type and a vibration
 * pattern (ms). Kept short and quiet: a game of many tricks must not become noise.
 */
export const CUES = {
  turn: { type: 'sine', tones: [[660, 0, 0.09, 0.16], [880, 0.1, 0.12, 0.16]], vibrate: [30] },
  card: { type: 'triangle', tones: [[220, 0, 0.05, 0.22]], vibrate: [] },
  trick: { type: 'triangle', tones: [[330, 0, 0.07, 0.18], [247, 0.07, 0.09, 0.16]], vibrate: [15] },
  marriage: { type: 'sine', tones: [[523, 0, 0.12, 0.15], [659, 0.12, 0.12, 0.15], [784, 0.24, 0.2, 0.15]], vibrate: [40, 60, 40] },
  deal: { type: 'sine', tones: [[440, 0, 0.12, 0.14], [554, 0.12, 0.18, 0.14]], vibrate: [50] },
  match: { type: 'sine', tones: [[523, 0, 0.14, 0.15], [659, 0.14, 0.14, 0.15], [784, 0.28, 0.14, 0.15], [1047, 0.42, 0.35, 0.15]], vibrate: [80, 60, 160] },
};
export const CUE_NAMES = Object.freeze(Object.keys(CUES));

let audio = null; // the AudioContext, once a gesture allowed it
let unlocked = false;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // private modes may refuse storage: then the switch lasts as long as the page
  }
}

let mutedFallback = false;

/** True when this device has the sound and vibration switched off. */
export function isMuted() {
  const store = storage();
  if (!store) return mutedFallback;
  return store.getItem(STORAGE_KEY) === '1';
}

/** Switch sound and vibration off (true) or on (false) on this device. */
export function setMuted(muted) {
  mutedFallback = Boolean(muted);
  const store = storage();
  if (store) {
    if (muted) store.setItem(STORAGE_KEY, '1');
    else store.removeItem(STORAGE_KEY);
  }
  if (muted && audio && audio.state === 'running') audio.suspend().catch(() => {});
  window.dispatchEvent(new CustomEvent('feedback-muted', { detail: { muted: Boolean(muted) } }));
}

function audioClass() {
  return window.AudioContext || window.webkitAudioContext || null;
}

/** Create (or resume) the AudioContext inside a user gesture. */
function unlock() {
  unlocked = true;
  if (isMuted()) return;
  const Ctx = audioClass();
  if (!Ctx) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}

// Made after the frame that answers the gesture, not in its task (issue 42: a new AudioContext
// took ~80 ms of a slow phone's first tap at the table, before its card was drawn). The page's
// user activation lasts, so the context may start then; a cue given earlier unlocks at once.
let unlocking = false;
function unlockSoon() {
  if (unlocking || (audio && audio.state === 'running')) return;
  unlocking = true;
  requestAnimationFrame(() =>
    setTimeout(() => {
      unlocking = false;
      unlock();
    }, 0),
  );
}

for (const type of ['pointerdown', 'keydown', 'touchend']) {
  window.addEventListener(type, unlockSoon, { capture: true, passive: true });
}

/** True once the page has had a user gesture (also one before this module was loaded). */
function activated() {
  return unlocked || Boolean(navigator.userActivation && navigator.userActivation.hasBeenActive);
}

function play(spec) {
  if (!audio && activated()) unlock();
  if (!audio) return;
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  const now = audio.currentTime + 0.01;
  for (const [freq, start, length, gain] of spec.tones) {
    const osc = audio.createOscillator();
    const amp = audio.createGain();
    osc.type = spec.type;
    osc.frequency.setValueAtTime(freq, now + start);
    // A soft attack and an exponential release: no clicks.
    amp.gain.setValueAtTime(0.0001, now + start);
    amp.gain.exponentialRampToValueAtTime(gain, now + start + 0.012);
    amp.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(amp).connect(audio.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

function buzz(pattern) {
  if (!pattern.length || typeof navigator.vibrate !== 'function') return;
  // Only after a gesture (browsers ignore or warn about vibration before one).
  if (!activated()) return;
  try {
    navigator.vibrate(pattern);
  } catch {
    /* some browsers throw instead of ignoring */
  }
}

/** Announce a game event: 'turn', 'card', 'trick', 'marriage', 'deal' or 'match'. Returns whether it sounded. */
export function cue(name) {
  const spec = CUES[name];
  if (!spec) {
    console.warn('unknown feedback cue', name);
    return false;
  }
  if (isMuted()) return false;
  try {
    play(spec);
  } catch {
    /* audio is a nicety: never break the table for it */
  }
  buzz(spec.vibrate);
  window.__1001 = Object.assign(window.__1001 || {}, { lastCue: name }); // a test hook: the last cue given
  return true;
}
