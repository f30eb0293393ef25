// The own hand: cards are buttons laid out to use the width the hand has (overlapping as needed,
// at least 44 px of each card left to tap), arrow keys move among the playable cards, and a tap on
// a card that may not be played shakes it and says why. At a table of 3 or 4 (V2, V7) the declarer
// picks the two cards to discard here: while `view.must_discard` a tap selects or unselects a card.
// A tap counts where the card is drawn: later cards lie over earlier ones, the second row over the
// first, and nothing a tap or focus does restacks them (js/table/touch.js); with "tap to raise" on,
// a first tap raises a card and a second one plays it.
import { cardEl, cardName, sortHand } from '../cards.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { canDeclare, dealOf, discardTurn, isBlocking, legalMoves, matchOver, playTurn, viewOf, whyNot } from './store.js';
import { whyText } from './names.js';
import { handLayout, ROW_SHIFT } from './layout.js';
import { talonKeys } from './model.js';
import { DEAL_STAGGER_MS, dealIn, flyFrom, motionOn, rectOf, slideFrom } from './motion.js';
import { tapToRaise } from '../prefs.js';
import { watchInput } from './touch.js';

export function createHand({ onPlay, onIllegal, onToggle = () => {} }) {
  const el = h('div', { class: 'hand', 'data-testid': 'hand', role: 'group' });
  const reason = h('p', { class: 'illegal-reason', 'data-testid': 'illegal-reason', role: 'status', 'aria-live': 'assertive', hidden: true });
  const box = h('div', { class: 'hand-box' }, el, reason);
  let last = null;
  let focusKey = null; // the card to focus after the next render
  let count = 0;
  let dealShown = null; // the deal whose cards were last drawn here
  let raised = null; // the card a first tap raised ("tap to raise, tap again to play")
  watchInput();

  const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(() => place()) : null;
  if (ro) ro.observe(box);

  /** The hand's cards (not the pictures of a deal still flying in, motion.js `dealIn`). */
  const cardsOf = () => [...el.children].filter((c) => !c.classList.contains('deal-ghost'));

  function place() {
    const cards = cardsOf();
    const n = cards.length;
    const w = box.clientWidth;
    const hgt = box.clientHeight;
    if (!n || !w || !hgt) return;
    const { rows, per, cw, step } = handLayout(n, w, hgt);
    const rowW = (k) => cw + (k - 1) * step;
    el.style.setProperty('--hcw', `${cw}px`);
    el.style.setProperty('--hstep', `${n > 1 ? Math.min(step, cw) : cw}px`); // the uncovered strip
    cards.forEach((card, i) => {
      const row = rows > 1 ? Math.floor(i / per) : 0;
      const inRow = rows > 1 ? Math.min(per, n - row * per) : n;
      const col = i - row * per;
      const x = (w - rowW(inRow)) / 2 + col * step;
      const y = row * cw * 1.4 * ROW_SHIFT + (hgt - cw * 1.4 * (1 + ROW_SHIFT * (rows - 1))) / 2;
      card.style.left = `${Math.round(x)}px`;
      card.style.top = `${Math.max(0, Math.round(y))}px`;
      card.dataset.row = String(row);
    });
    el.dataset.rows = String(rows);
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
    for (const b of cardsOf()) b.tabIndex = b === target ? 0 : -1;
  }

  /**
   * `origin()` (the table's) is where dealt and drawn cards come from: the stock, or the felt's
   * middle. The cards that stay slide to their new places (FLIP); nothing waits for the motion.
   */
  function render(s, { events = [], origin = null } = {}) {
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
    const key = `${v.deal_number}|${hand.join()}|${turn}|${blocked}|${[...legal.keys()].join()}|${s.illegal ? s.illegal.seq : ''}|${picking}|${[...picked].join()}|${t('table.your_hand')}`;
    el.setAttribute('aria-label', t('table.your_hand'));
    el.dataset.turn = String(turn);
    el.dataset.picking = String(picking);
    el.dataset.pending = String(blocked);
    renderReason(s);
    if (key === last) return;
    const drawn = new Set(events.filter((e) => e && e.kind === 'card_drawn' && e.card).map((e) => e.card));
    // A deal is dealt when it begins, and when the table opens on a deal nobody has touched yet.
    const untouched = !(d.tricks_played > 0) && !(d.trick && d.trick.cards && d.trick.cards.length) && !(d.calls && d.calls.length);
    const newDeal = dealShown === null ? untouched && hand.length > 0 : dealShown !== v.deal_number;
    const dealt = newDeal || events.some((e) => e && (e.kind === 'deal_started' || e.kind === 'match_started'));
    dealShown = v.deal_number;
    const moving = motionOn();
    const before = moving ? new Map(cardsOf().map((b) => [b.dataset.card, rectOf(b)])) : null;
    last = key;
    const buttons = hand.map((code, i) => {
      if (picking) return pickButton(code, i, picked.has(code), talon.has(code), blocked);
      const move = turn ? legal.get(code) : undefined;
      const isLegal = Boolean(move);
      const declarable = canDeclare(move);
      const cls = ['hand-card', turn ? (isLegal ? 'legal' : 'illegal') : 'idle'];
      if (declarable) cls.push('declarable');
      if (s.illegal && s.illegal.card === code) cls.push('shake');
      const note = declarable ? t('card.note_declare') : !isLegal && !matchOver(s) ? whyText(s, whyNot(s, code)) : null;
      const button = cardEl(code, {
        button: true,
        className: cls.join(' '),
        attrs: {
          'data-testid': `card-${code}`,
          'data-legal': String(isLegal),
          'data-declarable': declarable ? 'true' : null,
          'data-declare-points': declarable ? String(move.declare) : null,
          'aria-label': note ? t('card.label_with', { card: cardName(code), note }) : cardName(code),
          title: declarable ? t('table.can_declare') : null,
          // A card that may not be played stays a live button: a tap says why (its name says it too).
          disabled: blocked,
          tabindex: '-1',
          style: `--i:${i}`,
        },
      });
      button.addEventListener('click', (event) => tap(code, move, isLegal, event));
      return button;
    });
    count = buttons.length;
    if (raised && !(turn && !blocked && !picking && legal.has(raised) && hand.includes(raised))) raised = null;
    el.replaceChildren(...buttons);
    place();
    if (moving) travel(buttons, { before, drawn, dealt, from: origin ? origin() : null });
    showRaised();
    const target = pick(focused || focusKey);
    if (target) rove(target);
    if (focused || focusKey) {
      focusKey = null;
      focusTo(target);
    }
  }

  /** A new deal flies in from the stock one card after another; a drawn card too; the rest slide. */
  function travel(buttons, { before, drawn, dealt, from }) {
    buttons.forEach((button, i) => {
      const code = button.dataset.card;
      if (dealt) dealIn(button, from, { delay: i * DEAL_STAGGER_MS });
      else if (drawn.has(code) || (before.size && !before.has(code))) flyFrom(button, from, { fade: true });
      else slideFrom(button, before.get(code));
    });
  }

  /** Where a card of this hand is now (before the next render): a card played flies from there. */
  function rectOfCard(code) {
    return rectOf(el.querySelector(`button[data-card="${code}"]`));
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
      b.classList.toggle('raised', on);
      if (on) b.dataset.raised = 'true';
      else delete b.dataset.raised;
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

  /** A card of the declarer's hand while it discards: a toggle (aria-pressed), the talon's cards marked. */
  let fromTalonKey = 'ring.card_from_talon';
  function pickButton(code, i, selected, fromTalon, blocked) {
    const cls = ['hand-card', 'pickable'];
    if (selected) cls.push('selected');
    if (fromTalon) cls.push('from-talon');
    const notes = [selected ? t('ring.card_picked') : null, fromTalon ? t(fromTalonKey) : null].filter(Boolean);
    const button = cardEl(code, {
      button: true,
      className: cls.join(' '),
      attrs: {
        'data-testid': `card-${code}`,
        'data-legal': 'false',
        'data-selected': String(selected),
        'data-talon': fromTalon ? 'true' : null,
        'aria-pressed': String(selected),
        'aria-label': notes.length ? t('card.label_with', { card: cardName(code), note: notes.join(', ') }) : cardName(code),
        disabled: blocked,
        tabindex: '-1',
        style: `--i:${i}`,
      },
    });
    button.addEventListener('click', () => onToggle(code));
    return button;
  }

  function pick(code) {
    return (
      (code && el.querySelector(`button[data-card="${code}"][data-legal="true"]:not([disabled])`)) ||
      el.querySelector('button[data-legal="true"]:not([disabled])') ||
      (code && el.querySelector(`button[data-card="${code}"]:not([disabled])`)) ||
      el.querySelector('button.card:not([disabled])')
    );
  }

  function focusTo(target) {
    if (target) target.focus({ preventScroll: true });
    else {
      el.tabIndex = -1;
      el.focus({ preventScroll: true });
    }
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
    },
  };
}
