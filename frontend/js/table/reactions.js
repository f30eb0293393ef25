// Quick reactions at the table (issue 27): a small fixed set (the server's, REACTIONS in the generated
// module: a few phrases, translated as `reaction.<code>`, and a few emoji), no free text. The picker is
// a button on the table bar opening a grid of 44×44 choices, with a mute toggle beside it (the server
// stops sending the others' reactions to a muted seat; the choice comes back in the seat's state as
// `reactions_muted`). A reaction shows as a bubble by its sender's seat, for REACTION_MS, then fades.
// A chat line from another seat shows the same way, its first words for CHAT_PREVIEW_MS (issue 22),
// unless this browser muted the chat at this table (the chat mute beside the reactions mute).
import { h, svg } from '../dom.js';
import { REACTIONS } from '../generated/protocol.js';
import { t } from '../i18n.js';

export const REACTION_MS = 2500;
export const CHAT_PREVIEW_MS = 4000;
const CHAT_PREVIEW_CHARS = 48;
const CODES = new Set(REACTIONS.map((r) => r.code));
const EMOJI = Object.fromEntries(REACTIONS.map((r) => [r.code, r.emoji]));

export const isReaction = (code) => CODES.has(code);

/** The reaction's label in the page's language ("Well played", "Thumbs up"). */
export const reactionLabel = (code) => t(`reaction.${code}`);

/** What the bubble and the choice show: the emoji, or the translated phrase. */
export const reactionText = (code) => EMOJI[code] || reactionLabel(code);

/** A bell (struck through when muted), drawn: no emoji font needed on the bar. */
function bell(muted) {
  return svg(
    'svg',
    { class: 'reaction-icon', viewBox: '0 0 20 20', width: 18, height: 18, 'aria-hidden': 'true' },
    svg('path', { d: 'M10 2.5c-3 0-5 2.3-5 5.2v3.4L3.3 14h13.4L15 11.1V7.7c0-2.9-2-5.2-5-5.2z', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6, 'stroke-linejoin': 'round' }),
    svg('path', { d: 'M8 16.2a2 2 0 0 0 4 0', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
    muted ? svg('path', { d: 'M3 3l14 14', stroke: 'currentColor', 'stroke-width': 1.8, 'stroke-linecap': 'round' }) : null,
  );
}

/**
 * The bar's reactions button with its grid, and the mute toggle. `onReact(code)` sends a reaction,
 * `onMute(muted)` the seat's new choice.
 */
export function createReactionPicker({ onReact, onMute }) {
  const grid = h('div', { class: 'reaction-grid', id: 'reaction-grid', 'data-testid': 'reaction-grid', role: 'group', hidden: true });
  const button = h('button', { type: 'button', class: 'bar-btn reactions-btn', 'data-testid': 'reactions-button', 'aria-controls': 'reaction-grid', 'aria-expanded': 'false', onclick: () => setOpen(grid.hidden) });
  const mute = h('button', { type: 'button', class: 'bar-btn reactions-mute', 'data-testid': 'reactions-mute', 'aria-pressed': 'false', onclick: () => onMute(mute.getAttribute('aria-pressed') !== 'true') });
  const wrap = h('div', { class: 'reactions-wrap' }, button, grid);
  let lang = null;

  function setOpen(open) {
    grid.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) {
      fill();
      const first = grid.querySelector('button');
      if (first) first.focus();
    }
  }

  function fill() {
    if (lang === document.documentElement.lang && grid.childElementCount) return;
    lang = document.documentElement.lang;
    grid.setAttribute('aria-label', t('reactions.title'));
    grid.replaceChildren(
      ...REACTIONS.map(({ code, emoji }) =>
        h('button', {
          type: 'button',
          class: `reaction-choice${emoji ? ' emoji' : ''}`,
          'data-testid': `reaction-${code}`,
          'data-reaction': code,
          'aria-label': reactionLabel(code),
          title: reactionLabel(code),
          text: reactionText(code),
          onclick: () => {
            setOpen(false);
            button.focus({ preventScroll: true });
            onReact(code);
          },
        }),
      ),
    );
  }

  function onKey(event) {
    if (event.key === 'Escape' && !grid.hidden) {
      event.stopPropagation();
      setOpen(false);
      button.focus({ preventScroll: true });
    }
  }
  function onOutside(event) {
    if (!grid.hidden && !wrap.contains(event.target)) setOpen(false);
  }
  wrap.addEventListener('keydown', onKey);
  document.addEventListener('pointerdown', onOutside);

  return {
    button: wrap,
    mute,
    /** `available`: the seat may react (a player at a table with another person); `muted`: its choice. */
    render({ available, muted }) {
      wrap.hidden = !available;
      mute.hidden = !available;
      if (!available) setOpen(false);
      button.replaceChildren(h('span', { class: 'reaction-icon', 'aria-hidden': 'true', text: '☺' }), h('span', { class: 'bar-label visually-hidden until-wide', text: t('reactions.button') }));
      button.title = t('reactions.button');
      mute.setAttribute('aria-pressed', String(Boolean(muted)));
      mute.dataset.muted = String(Boolean(muted));
      mute.replaceChildren(bell(muted), h('span', { class: 'bar-label visually-hidden until-wide', text: t('reactions.mute') }));
      mute.title = muted ? t('reactions.muted') : t('reactions.mute');
      if (lang !== document.documentElement.lang) lang = null; // relabel the grid next time it opens
      if (!grid.hidden) fill();
    },
    close: () => setOpen(false),
    destroy() {
      document.removeEventListener('pointerdown', onOutside);
    },
  };
}

/** The first words of a chat line, at most `max` characters, cut at a word with "…" when longer. */
export function chatPreviewText(text, max = CHAT_PREVIEW_CHARS) {
  const line = String(text ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?–—-]+$/, '')}…`;
}

/**
 * The bubbles over the felt: `show(seat, code, name)` puts a reaction by that seat's box (found in
 * `felt` by its test id, wherever ring.js placed it: at the bottom a bubble above it, elsewhere below
 * it), replacing that seat's previous bubble, and takes it away after REACTION_MS; `showChat(seat,
 * text, name)` does the same with the first words of a chat line, for CHAT_PREVIEW_MS.
 */
export function createBubbles(felt) {
  const layer = h('div', { class: 'reaction-layer', 'aria-live': 'polite' });
  const shown = new Map(); // seat → {el, timer}

  function place(bubble, seat) {
    const box = felt.querySelector(`[data-testid="seat-${seat}"]`);
    const frame = felt.getBoundingClientRect();
    if (!box || !frame.width) {
      bubble.dataset.at = 'centre';
      return;
    }
    const r = box.getBoundingClientRect();
    const bottom = box.dataset.pos === 'bottom';
    const half = Math.min(90, frame.width / 2);
    const x = Math.max(half, Math.min(frame.width - half, r.left + r.width / 2 - frame.left));
    bubble.dataset.at = bottom ? 'above' : 'below';
    bubble.style.left = `${Math.round(x)}px`;
    bubble.style.top = `${Math.round((bottom ? r.top : r.bottom) - frame.top)}px`;
  }

  function put(seat, bubble, ms) {
    const old = shown.get(seat);
    if (old) {
      clearTimeout(old.timer);
      old.el.remove();
    }
    layer.append(bubble);
    place(bubble, seat);
    const timer = setTimeout(() => {
      bubble.remove();
      if (shown.get(seat) && shown.get(seat).el === bubble) shown.delete(seat);
    }, ms);
    shown.set(seat, { el: bubble, timer });
  }

  return {
    el: layer,
    show(seat, code, name) {
      if (!isReaction(code)) return;
      const bubble = h(
        'div',
        { class: `reaction-bubble${EMOJI[code] ? ' emoji' : ''}`, 'data-testid': 'reaction-bubble', 'data-seat': String(seat), 'data-reaction': code, role: 'status' },
        h('span', { class: 'visually-hidden', text: `${name}: ` }),
        h('span', { 'aria-hidden': EMOJI[code] ? 'true' : null, text: reactionText(code) }),
        EMOJI[code] ? h('span', { class: 'visually-hidden', text: reactionLabel(code) }) : null,
      );
      put(seat, bubble, REACTION_MS);
    },
    showChat(seat, text, name) {
      const words = chatPreviewText(text);
      if (!words) return;
      const bubble = h(
        'div',
        { class: 'reaction-bubble chat-preview', 'data-testid': 'chat-preview', 'data-seat': String(seat), role: 'status' },
        h('span', { class: 'visually-hidden', text: `${t('chat.preview_from', { name })} ` }),
        h('span', { class: 'chat-preview-text', text: words }),
      );
      put(seat, bubble, CHAT_PREVIEW_MS);
    },
    clear() {
      for (const { el, timer } of shown.values()) {
        clearTimeout(timer);
        el.remove();
      }
      shown.clear();
    },
  };
}

/** A speech bubble (struck through when muted), drawn like the bell. */
function speech(muted) {
  return svg(
    'svg',
    { class: 'reaction-icon', viewBox: '0 0 20 20', width: 18, height: 18, 'aria-hidden': 'true' },
    svg('path', { d: 'M3 4.5h14v8.5H9l-4 3.5V13H3z', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6, 'stroke-linejoin': 'round' }),
    muted ? svg('path', { d: 'M3 3l14 14', stroke: 'currentColor', 'stroke-width': 1.8, 'stroke-linecap': 'round' }) : null,
  );
}

const chatMuteKey = (roomId) => `1001.chat_muted.${roomId}`;

/** Whether this browser muted the chat previews at table `roomId` (kept per table in localStorage). */
export function chatMuted(roomId) {
  try {
    return localStorage.getItem(chatMuteKey(roomId)) === '1';
  } catch {
    return false;
  }
}

function setChatMuted(roomId, muted) {
  try {
    if (muted) localStorage.setItem(chatMuteKey(roomId), '1');
    else localStorage.removeItem(chatMuteKey(roomId));
  } catch {
    // private mode without storage: the choice lasts for this page only
  }
}

/**
 * The bar's chat mute (beside the reactions mute): muted, a chat line shows only as the dot on ☰,
 * with no preview by its sender's seat. Client-side, per table. `onChange(muted)` after a tap.
 */
export function createChatMute(roomId, { onChange = () => {} } = {}) {
  let muted = chatMuted(roomId);
  const button = h('button', {
    type: 'button',
    class: 'bar-btn reactions-mute chat-mute',
    'data-testid': 'chat-mute',
    'aria-pressed': 'false',
    onclick: () => {
      muted = !muted;
      setChatMuted(roomId, muted);
      render({ available: !button.hidden });
      onChange(muted);
    },
  });
  function render({ available }) {
    button.hidden = !available;
    button.setAttribute('aria-pressed', String(muted));
    button.dataset.muted = String(muted);
    button.replaceChildren(speech(muted), h('span', { class: 'bar-label visually-hidden until-wide', text: t('chat.mute') }));
    button.title = muted ? t('chat.muted') : t('chat.mute');
  }
  return { el: button, render, isMuted: () => muted };
}
