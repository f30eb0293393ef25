// The own hand: cards are buttons laid out to use the width the hand has (overlapping as needed,
// at least 44 px of each card left to tap), arrow keys move among the playable cards, and a tap on
// a card that may not be played shakes it and says why. At a table of 3 or 4 (V2, V7) the declarer
// picks the two cards to discard here: while `view.must_discard` a tap selects or unselects a card.
// A tap counts where the card is drawn: later cards lie over earlier ones, the second row over the
// first, and nothing a tap or focus does restacks them (js/table/touch.js); with "tap to raise" on,
// a first tap raises a card and a second one plays it.
import { cardEl, cardName, sortHand } from '../cards.js';
import { h, keyOf, setAttr, sync } from '../dom.js';
import { getLang, t } from '../i18n.js';
import { canDeclare, dealOf, discardTurn, isBlocking, legalMoves, matchOver, playTurn, viewOf, whyNot } from './store.js';
import { whyText } from './names.js';
import { handLayout, ROW_SHIFT } from './layout.js';
import { talonKeys } from './model.js';
import { afterWrites, DEAL_STAGGER_MS, dealIn, flyFrom, motionOn, rectOf, slideFrom } from './motion.js';
import { tapToRaise } from '../prefs.js';
import { watchInput } from './touch.js';

export function createHand({ onPlay, onIllegal, onToggle = () => {} }) {
  const el = h('div', { class: 'hand', 'data-testid': 'hand', role: 'group' });
  const reason = h('p', { class: 'illegal-reason', 'data-testid': 'illegal-reason', role: 'status', 'aria-live': 'assertive', hidden: true });
  const box = h('div', { class: 'hand-box' }, el, reason);
  let laid = null; // the cards last laid out and moved (deal and order: no words in it)
  let focusKey = null; // the card to focus after the next render
  let count = 0;
  let dealShown = null; // the deal whose cards were last drawn here
  let raised = null; // the card a first tap raised ("tap to raise, tap again to play")
  watchInput();

  // The hand's size, as the ResizeObserver last saw it (read there, after a layout): placing the
  // cards at a play reads no size, so it lays nothing out (issue 42).
  let size = null;
  const ro =
    typeof ResizeObserver === 'function'
      ? new ResizeObserver(() => {
          size = { w: box.clientWidth, h: box.clientHeight };
          place();
        })
      : null;
  if (ro) ro.observe(box);

  /** The hand's cards (not the pictures of a deal still flying in, motion.js `dealIn`). */
  const cardsOf = () => [...el.children].filter((c) => !c.classList.contains('deal-ghost'));

  function place() {
    const cards = cardsOf();
    const n = cards.length;
    const w = size ? size.w : box.clientWidth;
    const hgt = size ? size.h : box.clientHeight;
    if (!n || !w || !hgt) return;
    const { rows, per, cw, step } = handLayout(n, w, hgt);
    const rowW = (k) => cw + (k - 1) * step;
    const hcw = `${cw}px`;
    const hstep = `${n > 1 ? Math.min(step, cw) : cw}px`; // the uncovered strip
    if (el.style.getPropertyValue('--hcw') !== hcw) el.style.setProperty('--hcw', hcw);
    if (el.style.getPropertyValue('--hstep') !== hstep) el.style.setProperty('--hstep', hstep);
    cards.forEach((card, i) => {
      const row = rows > 1 ? Math.floor(i / per) : 0;
      const inRow = rows > 1 ? Math.min(per, n - row * per) : n;
      const col = i - row * per;
      const x = (w - rowW(inRow)) / 2 + col * step;
      const y = row * cw * 1.4 * ROW_SHIFT + (hgt - cw * 1.4 * (1 + ROW_SHIFT * (rows - 1))) / 2;
      const left = `${Math.round(x)}px`;
      const top = `${Math.max(0, Math.round(y))}px`;
      if (card.style.left !== left) card.style.left = left;
      if (card.style.top !== top) card.style.top = top;
      setAttr(card, 'data-row', row);
    });
    setAttr(el, 'data-rows', rows);
  }

  el.addEventListener('keydown', (event) => {
    const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'];
    if (!keys.includes(event.key)) return;
    const all = [...el.querySelectorAll('button.card:not([disabled])')];
    const legal = all.filter((b) => b.dataset.legal === 'true');
    const cards = legal.length ? legal : all;
    if (!cards.length) return;
    event.preventDefault();
    let i = cards.indexOf(document.activeElement);
    if (event.key === 'Home') i = 0;
    else if (event.key === 'End') i = cards.length - 1;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') i = i <= 0 ? cards.length - 1 : i - 1;
    else i = i >= cards.length - 1 ? 0 : i + 1;
    rove(cards[i]);
    cards[i].focus();
  });

  function rove(target) {
    for (const b of cardsOf()) {
      const want = b === target ? 0 : -1;
      if (b.tabIndex !== want) b.tabIndex = want;
    }
  }

  /**
   * `origin()` (the table's) is where dealt and drawn cards come from: the stock, or the felt's
   * middle. The cards that stay slide to their new places (FLIP); nothing waits for the motion.
   */
  function render(s, { events = [], origin = null, before: measured = null } = {}) {
    const v = viewOf(s);
    const d = dealOf(s);
    if (!v || !d) {
      el.replaceChildren();
      reason.hidden = true;
      return;
    }
    const focused = el.contains(document.activeElement) ? document.activeElement.dataset.card : null;
    const legal = legalMoves(s);
    const turn = playTurn(s);
    const blocked = isBlocking(s);
    const hand = sortHand(d.hand || []);
    const picking = discardTurn(s);
    const picked = new Set(picking ? s.discard || [] : []);
    const talon = new Set(picking ? d.talon || [] : []);
    fromTalonKey = talonKeys(v).card;
    setAttr(el, 'aria-label', t('table.your_hand'));
    setAttr(el, 'data-turn', String(turn));
    setAttr(el, 'data-picking', String(picking));
    setAttr(el, 'data-pending', String(blocked));
    renderReason(s);
    // The buttons are kept from one state to the next, keyed by card (issue 42): only what changed
    // about a card is written. A card shaken anew (a refused tap) is a new button, so it shakes.
    const shaking = s.illegal ? s.illegal.card : null;
    const cardKey = (code) => (code === shaking ? `${code}!${s.illegal.seq}` : code);
    const spec = (code, i) => (picking ? pickSpec(code, i, picked.has(code), talon.has(code), blocked) : playSpec(s, code, i, turn, legal, blocked, shaking));
    const order = `${v.deal_number}|${hand.join()}|${picking}`;
    const keepRaised = () => {
      if (raised && !(turn && !blocked && !picking && legal.has(raised) && hand.includes(raised))) raised = null;
    };
    if (order === laid) {
      // the same cards in the same places: nothing moves, nothing is measured
      if (sync(el, hand, cardKey, (code, i) => button(spec(code, i)), (node, code, i) => apply(node, spec(code, i))).length) place();
      keepRaised();
      showRaised();
      refocus(focused);
      return;
    }
    const drawn = new Set(events.filter((e) => e && e.kind === 'card_drawn' && e.card).map((e) => e.card));
    // A deal is dealt when it begins, and when the table opens on a deal nobody has touched yet.
    const untouched = !(d.tricks_played > 0) && !(d.trick && d.trick.cards && d.trick.cards.length) && !(d.calls && d.calls.length);
    const newDeal = dealShown === null ? untouched && hand.length > 0 : dealShown !== v.deal_number;
    const dealt = newDeal || events.some((e) => e && (e.kind === 'deal_started' || e.kind === 'match_started'));
    dealShown = v.deal_number;
    const moving = motionOn();
    // where the cards were: measured by the table before its render wrote anything (else now)
    const before = moving ? measured || rects() : null;
    laid = order;
    // the pictures of a deal still flying in belong to the hand that was: gone with it
    if (dealt) for (const g of el.querySelectorAll('.deal-ghost')) g.remove();
    const fresh = new Set(sync(el, hand, cardKey, (code, i) => button(spec(code, i)), (node, code, i) => apply(node, spec(code, i))));
    const buttons = cardsOf();
    count = buttons.length;
    keepRaised();
    place();
    // the flights measure where the cards now are once the whole render is written (one layout)
    if (moving) afterWrites(() => travel(buttons.filter((b) => b.isConnected), { before, drawn, dealt, fresh, from: origin ? origin() : null }));
    showRaised();
    refocus(focused);
  }

  /** The roving tab stop on the card to focus, and focus there when the hand had it or was asked to. */
  function refocus(focused) {
    const target = pick(focused || focusKey);
    if (target) rove(target);
    if (focused || focusKey) {
      focusKey = null;
      if (document.activeElement !== target) focusTo(target);
    }
  }

  /** A new deal flies in from the stock one card after another; a drawn card too; the rest slide. */
  function travel(buttons, { before, drawn, dealt, fresh, from }) {
    buttons.forEach((button, i) => {
      const code = button.dataset.card;
      if (dealt) dealIn(button, from, { delay: i * DEAL_STAGGER_MS });
      else if (drawn.has(code) || (before.size && !before.has(code))) flyFrom(button, from, { fade: true });
      else if (!fresh.has(button) || before.has(code)) slideFrom(button, before.get(code));
    });
  }

  /** What a card of the hand is to show and do now: its classes, attributes and what a tap does. */
  function playSpec(s, code, i, turn, legal, blocked, shaking) {
    const move = turn ? legal.get(code) : undefined;
    const isLegal = Boolean(move);
    const declarable = canDeclare(move);
    const cls = ['hand-card', turn ? (isLegal ? 'legal' : 'illegal') : 'idle'];
    if (declarable) cls.push('declarable');
    if (shaking === code) cls.push('shake');
    const note = declarable ? t('card.note_declare') : !isLegal && !matchOver(s) ? whyText(s, whyNot(s, code)) : null;
    return {
      code,
      i,
      cls,
      act: (event) => tap(code, move, isLegal, event),
      attrs: {
        'data-testid': `card-${code}`,
        'data-legal': String(isLegal),
        'data-declarable': declarable ? 'true' : null,
        'data-declare-points': declarable ? String(move.declare) : null,
        'data-selected': null,
        'data-talon': null,
        'aria-pressed': null,
        'aria-label': note ? t('card.label_with', { card: cardName(code), note }) : cardName(code),
        title: declarable ? t('table.can_declare') : null,
        // A card that may not be played stays a live button: a tap says why (its name says it too).
        disabled: blocked,
      },
    };
  }

  // What a tap on a kept button does now (its spec's `act`), and the language its face was drawn in.
  const ACTS = new WeakMap();

  // A finger's tap is acted on when it lifts within the card (pointerup), not at the `click` the
  // browser sends after it (issue 42: a task or more later on a slow phone). The click of that same
  // tap is then cancelled (touchend's default) or, should it come anyway, swallowed before anything
  // sees it: it would land on whatever the tap opened there (the marriage question's backdrop). A
  // finger that moved (a scroll, a drag) or lifted off the card acts at its click, if any, as before.
  // The mouse and the keyboard act at their click.
  let gesture = null; // { id, b, x, y, acted }: the finger on a card now
  const SLOP = 10; // px a finger may move and still tap

  /** A new button for a card (its face drawn once; a tap does what its latest spec says). */
  function button({ code, i, cls, attrs, act }) {
    const b = cardEl(code, { button: true, className: cls.join(' '), attrs: { ...attrs, tabindex: '-1', style: `--i:${i}` } });
    b.dataset.lang = getLang();
    ACTS.set(b, act);
    b.addEventListener('pointerdown', (event) => {
      gesture = event.pointerType !== 'mouse' && event.isPrimary ? { id: event.pointerId, b, x: event.clientX, y: event.clientY, acted: false } : null;
    });
    b.addEventListener('pointerup', (event) => {
      const g = gesture;
      if (!g || g.b !== b || g.id !== event.pointerId || g.acted || b.disabled) return;
      if (Math.abs(event.clientX - g.x) > SLOP || Math.abs(event.clientY - g.y) > SLOP) return;
      const hit = document.elementFromPoint(event.clientX, event.clientY);
      if (!hit || hit.closest('button') !== b) return; // lifted off the card (or over another lying on it)
      g.acted = true;
      ACTS.get(b)({ detail: 1, pointerType: event.pointerType });
    });
    b.addEventListener('pointercancel', () => {
      gesture = null;
    });
    b.addEventListener('touchend', (event) => {
      if (gesture && gesture.acted && gesture.b === b && event.cancelable) event.preventDefault(); // no click after it
    });
    b.addEventListener('click', (event) => ACTS.get(b)(event));
    return b;
  }

  /** A kept button made to say what its spec says: only what differs is written. */
  function apply(b, { code, i, cls, attrs, act }) {
    ACTS.set(b, act);
    for (const [name, value] of Object.entries(attrs)) setAttr(b, name, value);
    const keep = ['card', ...[...b.classList].filter((c) => c === 'raised' || c === 'sending' || c.startsWith('suit-') || c === 'red' || c === 'black' || c === 'court-card')];
    const want = [...new Set([...keep, ...cls])].join(' ');
    if (b.className !== want) b.className = want;
    if (b.style.getPropertyValue('--i') !== String(i)) b.style.setProperty('--i', String(i));
    if (b.dataset.lang !== getLang()) {
      // another language: the face's corner index is drawn anew (a rank's letter is a word)
      const face = cardEl(code);
      b.replaceChildren(...face.childNodes);
      if (b.classList.contains('sending')) b.classList.remove('sending');
      b.dataset.lang = getLang();
    }
  }

  /** Where a card of this hand is now (before the next render): a card played flies from there. */
  function rectOfCard(code) {
    return rectOf(el.querySelector(`button[data-card="${code}"]`));
  }

  /** Where every card of the hand is now, by card (one layout for all, read before a render writes). */
  function rects() {
    return new Map(cardsOf().map((b) => [b.dataset.card, rectOf(b)]));
  }

  /**
   * A tap or click on a card of the hand: a legal one is played, another one says why. With "tap to
   * raise" on, a first tap (not a key: Enter plays at once) only raises a legal card; a second tap
   * on it plays it, a tap on another card raises that one instead.
   */
  function tap(code, move, isLegal, event) {
    if (isLegal && event.detail > 0 && tapToRaise() && raised !== code) {
      raised = code;
      showRaised();
      return;
    }
    raised = null;
    showRaised();
    if (isLegal) onPlay(code, move);
    else onIllegal(code);
  }

  function showRaised() {
    for (const b of cardsOf()) {
      const on = b.dataset.card === raised;
      if (b.classList.contains('raised') !== on) b.classList.toggle('raised', on);
      setAttr(b, 'data-raised', on ? 'true' : null);
    }
  }

  // A tap anywhere off the hand lowers a raised card.
  const lower = (event) => {
    if (raised && !el.contains(event.target)) {
      raised = null;
      showRaised();
    }
  };
  document.addEventListener('pointerdown', lower, true);
  // a new touch begins a new gesture; the click of a tap acted on at pointerup reaches nothing
  const newGesture = () => {
    gesture = null;
  };
  const swallow = (event) => {
    if (!(gesture && gesture.acted && event.detail > 0)) return;
    gesture = null;
    event.stopPropagation();
    event.preventDefault();
  };
  document.addEventListener('pointerdown', newGesture, true);
  document.addEventListener('click', swallow, true);

  /** A card of the declarer's hand while it discards: a toggle (aria-pressed), the talon's cards marked. */
  let fromTalonKey = 'ring.card_from_talon';
  function pickSpec(code, i, selected, fromTalon, blocked) {
    const cls = ['hand-card', 'pickable'];
    if (selected) cls.push('selected');
    if (fromTalon) cls.push('from-talon');
    const notes = [selected ? t('ring.card_picked') : null, fromTalon ? t(fromTalonKey) : null].filter(Boolean);
    return {
      code,
      i,
      cls,
      act: () => onToggle(code),
      attrs: {
        'data-testid': `card-${code}`,
        'data-legal': 'false',
        'data-declarable': null,
        'data-declare-points': null,
        'data-selected': String(selected),
        'data-talon': fromTalon ? 'true' : null,
        'aria-pressed': String(selected),
        'aria-label': notes.length ? t('card.label_with', { card: cardName(code), note: notes.join(', ') }) : cardName(code),
        title: null,
        disabled: blocked,
      },
    };
  }

  function pick(code) {
    return (
      (code && el.querySelector(`button[data-card="${code}"][data-legal="true"]:not([disabled])`)) ||
      el.querySelector('button[data-legal="true"]:not([disabled])') ||
      (code && el.querySelector(`button[data-card="${code}"]:not([disabled])`)) ||
      el.querySelector('button.card:not([disabled])')
    );
  }

  /** Focus `target` (else the hand) once the render's writes are done: focusing restyles the page,
   * and after the flights' measures the page is styled and laid out already (issue 42). */
  function focusTo(target) {
    afterWrites(() => {
      const now = target && target.isConnected ? target : pick('any');
      if (now) {
        if (document.activeElement !== now) now.focus({ preventScroll: true });
      } else if (el.isConnected) {
        el.tabIndex = -1;
        el.focus({ preventScroll: true });
      }
    });
  }

  function renderReason(s) {
    if (!s.illegal) {
      reason.hidden = true;
      reason.textContent = '';
      return;
    }
    reason.hidden = false;
    reason.textContent = whyText(s, s.illegal.code);
  }

  return {
    el: box,
    render,
    place,
    rectOf: rectOfCard,
    rects,
    /** Focus the hand (the first playable card, or the hand itself) now and after the next render. */
    focus(code = 'any') {
      focusKey = code;
      focusTo(pick(code));
    },
    get count() {
      return count;
    },
    /** Lower a card raised by a first tap (the setting was switched off). */
    lower() {
      raised = null;
      showRaised();
    },
    destroy() {
      if (ro) ro.disconnect();
      document.removeEventListener('pointerdown', lower, true);
      document.removeEventListener('pointerdown', newGesture, true);
      document.removeEventListener('click', swallow, true);
    },
  };
}
