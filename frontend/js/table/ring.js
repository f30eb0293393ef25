// The felt, for every seat count: the other seats around it (seats.js; me at the bottom, the others
// clockwise — for two the other on top, for three left and right, for four left, top and right),
// and in the middle the stock with its count and the faced bottom card where the game deals one
// (two-hand 1001, R2/R4) with the trump beside it, the auction (auction.js, V0.6) or the talon and
// the discard (discard.js, V0.7) or the trick with each card at its seat's side, and beside it the
// contract, the trump, the declarer's discards and the last trick; the marriage announcements (R3)
// over it. Where a seat sits: model.js (pure). What a game has comes from data (`deal.phase`, the
// game's `stock` flag, `deal.stock_count`, `deal.declarer`), never from asking which game it is.
// Cards travel (motion.js): a card played flies in from the hand or its seat, the trick taken stays
// as long as this device's setting says (prefs.js; or until tapped) and then flies to its winner.
import { cardBack, cardEl, cardName, SUIT_SYMBOL, suitBadge } from '../cards.js';
import { h, keyOf, setAttr, setChildren, sync } from '../dom.js';
import { patch, patchChildren } from './patch.js';
import { t, tn } from '../i18n.js';
import { fitSoon } from '../fit.js';
import { plainName, seatColour, seatTag, shortName } from './names.js';
import { hasStock, othersAround, positionOf, talonKeys, trickCards } from './model.js';
import { dealOf, isMe, mySeat, optimisticCard, phaseOf, seatCount, viewOf } from './store.js';
import { seatBox, tickSeats } from './seats.js';
import { afterWrites, flyFrom, flyTo, motionOn, PLAY_MS, rectOf } from './motion.js';
import { TRICK_STAY, trickStay } from '../prefs.js';

export const BANNER_MS = 2600;

/**
 * The marriage banners of a table: one per declaration still shown, each added once. The pair is
 * shown as pictures only: no card codes in the DOM (the partner stays in the hand).
 */
function syncBanners(banners, s) {
  sync(banners, s.banners, (b) => b.id, (b) => banner(s, b));
}

function banner(s, b) {
  {
    const pair = ['K', 'Q'].map((rank) => {
      const card = cardEl(`${rank}${b.suit}`, { className: 'tiny' });
      card.removeAttribute('data-card');
      card.setAttribute('aria-hidden', 'true');
      card.removeAttribute('role');
      card.removeAttribute('aria-label');
      return card;
    });
    return (
      h(
        'div',
        { class: 'marriage-banner', 'data-testid': 'marriage-banner', 'data-id': String(b.id), 'data-seat': String(b.seat), 'data-suit': b.suit, 'data-points': String(b.points), role: 'status' },
        h('div', { class: 'pair' }, pair),
        h('p', { text: t('table.marriage_banner', { name: plainName(s, b.seat), symbol: SUIT_SYMBOL[b.suit], points: b.points }) }),
      )
    );
  }
}

function trumpBadge(d) {
  return h(
    'div',
    { class: 'trump-badge', 'data-testid': 'trump-badge', 'data-trump': d.trump || 'none' },
    h('span', { class: 'label', text: t('table.trump') }),
    d.trump ? h('span', { class: 'trump-sym' }, suitBadge(d.trump)) : h('span', { class: 'trump-none', text: t('table.no_trump') }),
  );
}

/**
 * The felt. `hands(seat)` (the replay viewer's, views/replay.js) gives a seat's hand face up, drawn
 * in its box instead of the backs; a live table shows backs only (R7). For the replay's narrow boxes
 * `pointsText(n)` words a seat's open card points ("18 pts") and `shortNames` names a computer seat
 * without its level ("Computer 2", the whole name in its title). `sweepFinal` (the live table's): a
 * deal's last trick goes to its winner after its moment on the felt; the replay keeps it in view.
 */
export function createRing({ auction: auctionPanel, discard: discardPanel, hands = null, pointsText = null, shortNames = false, sweepFinal = false }) {
  const seatsLayer = h('div', { class: 'ring-seats' });
  const trickLayer = h('div', { class: 'ring-trick-layer', 'data-testid': 'current-trick' });
  const ghostLayer = h('div', { class: 'ring-trick-layer ghost-layer', 'aria-hidden': 'true' });
  const trick = h('div', { class: 'ring-trick', 'data-testid': 'trick', role: 'region' }, ghostLayer, trickLayer);
  const stage = h('div', { class: 'ring-stage' });
  const stock = h('div', { class: 'stock-area', 'data-testid': 'stock', role: 'img' });
  const stockSide = h('div', { class: 'ring-stock' });
  const side = h('div', { class: 'ring-side' });
  const banners = h('div', { class: 'banner-layer', 'aria-live': 'polite' });
  const centre = h('div', { class: 'ring-centre' }, stockSide, stage, side, banners);
  const el = h('div', { class: 'ring', 'data-testid': 'ring' }, seatsLayer, centre);
  const me = h('div', { class: 'ring-me' });
  let ghost = null; // the trick just taken, on its way to the winner: { el, timer }
  let finalShown = false; // the ghost layer holds a deal's last trick (behind its summary)
  let lastMsg = null;
  // "Tap to clear" (prefs.js): a tap on the felt's middle sends the trick just taken to its winner.
  trick.addEventListener('click', () => ghost && sweepGhost());

  /**
   * `origin(code)` (the table's) is where a card of mine was before it was played: its place in my
   * hand, measured before the hand re-renders. Any other card comes from its seat's box.
   */
  function render(s, { events = [], origin = null } = {}) {
    const v = viewOf(s);
    const d = dealOf(s);
    if (!v || !d) return;
    const n = seatCount(s);
    const my = mySeat(s);
    const phase = phaseOf(s);
    const stocked = hasStock(v);
    // Every write below is made only where it changes something (issue 42): a state that changed
    // one seat's count restyles and lays out that count, not the felt.
    setAttr(el, 'data-n', n);
    setAttr(el, 'data-phase', phase || '');
    setAttr(el, 'data-stock', String(stocked));
    setAttr(me, 'data-n', n);
    setAttr(centre, 'data-n', n); // the replay viewer lays out the centre without `el`
    setAttr(centre, 'data-stock', String(stocked));
    const opts = (seat) => ({ open: hands ? hands(seat) : null, pointsText, shortNames });
    // The seat boxes, kept from one state to the next (keyed by seat and place) and patched.
    const box = ({ seat, pos }) => seatBox(s, seat, pos, opts(seat));
    const seatKey = ({ seat, pos }) => `${seat}:${pos}`;
    sync(seatsLayer, othersAround(n, my), seatKey, box, (node, item) => patch(node, box(item)));
    sync(me, [{ seat: my, pos: 'bottom' }], seatKey, box, (node, item) => patch(node, box(item)));

    // The middle: the auction, the talon and the discard, or the trick.
    let content = trick;
    if (phase === 'auction' || phase === 'thrown_in') content = auctionPanel.el;
    else if (phase === 'discard') content = discardPanel.el;
    if (content === auctionPanel.el) auctionPanel.render(s);
    if (content === discardPanel.el) discardPanel.render(s);
    if (stage.firstChild !== content || stage.childElementCount !== 1) setChildren(stage, content);
    setAttr(stage, 'data-content', content === trick ? 'trick' : content === auctionPanel.el ? 'auction' : 'discard');
    renderStock(d, stocked);
    renderTrick(s, n, my, events, origin);
    renderSide(s, phase, stocked, events);
    syncBanners(banners, s);
    fitNames();
  }

  // The middle's and the stage's sizes for its cards (felt.css): 1% of each, as custom properties
  // written only when a size changes (issue 42: as container query units they cost a style pass in
  // every layout of the felt). A ResizeObserver answers after the layout and before the paint, so
  // no frame is drawn with the old sizes.
  const unit = (px) => `${Math.round(px) / 100}px`;
  const sizes =
    typeof ResizeObserver === 'function'
      ? new ResizeObserver((entries) => {
          for (const entry of entries) {
            const box = entry.contentBoxSize && entry.contentBoxSize[0];
            const w = box ? box.inlineSize : entry.contentRect.width;
            const hgt = box ? box.blockSize : entry.contentRect.height;
            const [pw, ph] = entry.target === stage ? ['--scw', '--sch'] : ['--ccw', '--cch'];
            if (entry.target.style.getPropertyValue(pw) !== unit(w)) entry.target.style.setProperty(pw, unit(w));
            if (entry.target.style.getPropertyValue(ph) !== unit(hgt)) entry.target.style.setProperty(ph, unit(hgt));
          }
        })
      : null;
  if (sizes) {
    sizes.observe(centre);
    sizes.observe(stage);
  }

  // Names fit their boxes (fit.js) before the render is drawn, and whenever the window changes size:
  // the seats and my box, wherever the page put them (the replay viewer lays them out itself).
  const fitNames = () => fitSoon(seatsLayer, me);
  window.addEventListener('resize', fitNames);

  /** R2/R4: the stock as a pile with its count, the faced bottom card where shown, the trump beside it. */
  function renderStock(d, stocked) {
    if (stockSide.hidden !== !stocked) stockSide.hidden = !stocked;
    if (!stocked) return;
    const pile = [];
    if (d.stock_bottom) pile.push(cardEl(d.stock_bottom, { className: 'stock-bottom small', attrs: { 'data-testid': 'stock-bottom' } }));
    if (d.stock_count > 0) {
      const layers = Math.min(3, Math.ceil(d.stock_count / 3));
      for (let i = 0; i < layers; i++) pile.push(cardBack({ className: 'small stack', attrs: { style: `--i:${i}` } }));
    } else pile.push(h('div', { class: 'card small empty-slot', 'aria-hidden': 'true' }));
    patchChildren(stock, [
      h('div', { class: 'stock-pile' }, pile),
      h('span', { class: 'count-chip', 'data-testid': 'stock-count', 'data-count': String(d.stock_count) }, String(d.stock_count)),
    ]);
    setAttr(stock, 'aria-label', d.stock_count > 0 ? tn('table.stock_count', d.stock_count) : t('table.stock_empty'));
    if (stock.parentNode !== stockSide) stockSide.prepend(stock);
    const badge = stockSide.querySelector('.trump-badge');
    if (badge) patch(badge, trumpBadge(d));
    else stockSide.append(trumpBadge(d));
  }

  /** A card of the trick, in front of the seat that played it, marked with that seat's tag (its name in the label). */
  function trickCard(s, code, seat, n, my, i, extra = {}) {
    const pos = positionOf(n, my, seat);
    const card = cardEl(code, {
      className: `trick-card at-${pos}${extra.winner ? ' winner' : ''}`,
      attrs: { style: `--i:${i}`, 'data-seat': String(seat), 'data-owner': String(seat), 'data-colour': String(seatColour(s, seat)), ...(extra.testids === false ? {} : { 'data-testid': `trick-card-${code}` }) },
    });
    const label = { card: card.getAttribute('aria-label') || code, name: plainName(s, seat) };
    card.setAttribute('aria-label', isMe(s, seat) ? t('ring.trick_card_mine', label) : t('ring.trick_card', label));
    card.append(seatTag(s, seat, { class: `seat-tag trick-owner seat-c${seatColour(s, seat)}`, 'data-testid': extra.testids === false ? null : `trick-owner-${code}` }));
    return card;
  }

  /** A card kept in the live trick (sync): what may change about it is its place in order and its owner's name. */
  function patchTrickCard(s, card, code, seat, i) {
    card.style.setProperty('--i', String(i));
    const label = { card: cardName(code), name: plainName(s, seat) };
    setAttr(card, 'aria-label', isMe(s, seat) ? t('ring.trick_card_mine', label) : t('ring.trick_card', label));
    setAttr(card, 'data-colour', String(seatColour(s, seat)));
    const tag = seatTag(s, seat, { class: `seat-tag trick-owner seat-c${seatColour(s, seat)}`, 'data-testid': `trick-owner-${code}` });
    const old = card.querySelector('.trick-owner');
    if (!old) card.append(tag);
    else patch(old, tag);
  }

  function renderTrick(s, n, my, events, origin) {
    const d = dealOf(s);
    // The cards on the felt already (mine drawn at once, issue 42): they do not fly in again.
    const shownBefore = new Set([...trickLayer.children].map((c) => keyOf(c)).filter(Boolean));
    const fresh = s.msg !== lastMsg;
    lastMsg = s.msg;
    const v = viewOf(s);
    setAttr(trick, 'aria-label', t('table.trick'));
    setAttr(trick, 'data-n', n);
    const played = events.filter((e) => e && e.kind === 'card_played');
    const layCards = (layer, tr, extra) => {
      const cards = trickCards(tr, n);
      layer.style.setProperty('--k', String(cards.length)); // how many: a table of two lays them side by side
      return cards.map(({ card, seat }, i) => trickCard(s, card, seat, n, my, i, extra(card, seat)));
    };
    if (d.final_trick) {
      // The deal is over: its last trick shows a moment, out of the live trick's test ids (R7
      // checks), then goes to its winner like every other trick (issue 22: the chips count it).
      trickLayer.replaceChildren();
      const f = d.final_trick;
      const key = `${v.deal_number}|${f.cards.join()}|${f.winner}`;
      if (ghostLayer.dataset.final === key) return; // laid already (a render for something else)
      dropGhost();
      finalShown = true;
      ghostLayer.dataset.final = key;
      const g = h('div', { class: 'ring-ghost final', 'data-testid': 'final-trick', 'data-winner': String(f.winner) });
      g.append(...layCards(g, f, (card, seat) => ({ testids: false, winner: seat === f.winner })));
      setChildren(ghostLayer, g);
      flyIn(g, played, origin, shownBefore);
      if (sweepFinal) {
        // The live table's: after its moment (a tap cannot clear it behind the summary: "until
        // tapped" waits as long as "normal"), the last trick goes to its winner like every other.
        ghost = { el: g, winner: f.winner, timer: null };
        const mine = ghost;
        const ms = TRICK_STAY[trickStay()] ?? TRICK_STAY.normal;
        mine.timer = setTimeout(() => ghost === mine && sweepGhost(), ms + (motionOn() ? PLAY_MS : 0));
      }
      return;
    }
    if (finalShown) {
      finalShown = false;
      delete ghostLayer.dataset.final;
      dropGhost();
      ghostLayer.replaceChildren();
    }
    // The live trick, keyed by seat and card: a card already there is kept (the server's answer to
    // a card drawn at once redraws nothing); a card new to it flies in if it was played just now.
    const live = trickCards(d.trick, n);
    if (trickLayer.style.getPropertyValue('--k') !== String(live.length)) trickLayer.style.setProperty('--k', String(live.length));
    const liveKey = ({ card, seat }) => `${seat}:${card}:${positionOf(n, my, seat)}`;
    const made = sync(
      trickLayer,
      live,
      liveKey,
      ({ card, seat }, i) => trickCard(s, card, seat, n, my, i),
      (node, { card, seat }, i) => patchTrickCard(s, node, card, seat, i),
    );
    const won = events.find((e) => e && e.kind === 'trick_won');
    if (won) {
      // A trick just taken: its cards stay a moment where they were played (prefs.js: short, normal,
      // long, or until a tap), then go to the winner's seat. The live trick underneath is empty already.
      dropGhost();
      const stay = trickStay();
      const g = h('div', { class: 'ring-ghost', 'data-testid': 'trick-ghost', 'data-winner': String(won.seat), 'data-stay': stay });
      g.append(...layCards(g, { leader: won.leader, cards: won.cards }, (card, seat) => ({ testids: false, winner: seat === won.seat })));
      if (stay === 'tap') g.append(h('span', { class: 'ghost-hint', text: t('ring.tap_to_clear') }));
      setChildren(ghostLayer, g);
      ghost = { el: g, winner: won.seat, timer: null };
      flyIn(g, played, origin, shownBefore);
      const ms = TRICK_STAY[stay];
      if (ms !== null) {
        const mine = ghost;
        mine.timer = setTimeout(() => ghost === mine && sweepGhost(), ms + (motionOn() ? PLAY_MS : 0));
      }
    } else if (ghost && d.trick && d.trick.cards && d.trick.cards.length) {
      sweepGhost(); // the next trick has begun: the last one goes now
    } else if (ghost && fresh && !events.length) {
      dropGhost(); // a state that no action caused (a reconnect): drawn as it is
    }
    if (!motionOn()) return;
    const mine = optimisticCard(s);
    const now = new Set(played.map((e) => `${e.seat}:${e.card}:${positionOf(n, my, e.seat)}`));
    if (mine) now.add(`${my}:${mine}:${positionOf(n, my, my)}`);
    for (const node of made) {
      if (!now.has(keyOf(node))) continue; // on the table already when the page came (a reconnect)
      const seat = Number(node.dataset.seat);
      const at = origin && seat === my ? origin(node.dataset.card) : null; // measured before the render's writes
      afterWrites(() => node.isConnected && flyFrom(node, at || seatRect(seat, true), { fade: !at }));
    }
  }

  /** The cards just played fly in from the hand (`origin`) or from their seat's box (not one on the felt already). */
  function flyIn(layer, played, origin, shownBefore) {
    if (!played.length || !motionOn()) return;
    for (const e of played) {
      if (shownBefore && [...shownBefore].some((k) => k.startsWith(`${e.seat}:${e.card}:`))) continue;
      const card = layer.querySelector(`.trick-card[data-card="${e.card}"]`);
      if (!card) continue;
      const at = origin && origin(e.card);
      afterWrites(() => card.isConnected && flyFrom(card, at || seatRect(e.seat, true), { fade: !at }));
    }
  }

  /** A seat's box on the felt (its held cards where `cards`): where its cards come from and go to. */
  function seatRect(seat, cards = false) {
    for (const root of [el, me]) {
      const box = root.querySelector(`.ring-seat[data-seat="${seat}"]`);
      if (!box) continue;
      return (cards && rectOf(box.querySelector('.rs-cards'))) || rectOf(box);
    }
    return null;
  }

  /** The trick just taken goes to its winner's seat, and is gone once there. */
  function sweepGhost() {
    if (!ghost) return;
    const { el: g, winner, timer } = ghost;
    clearTimeout(timer);
    ghost = null;
    const hint = g.querySelector('.ghost-hint');
    if (hint) hint.remove();
    if (!motionOn()) {
      g.remove(); // nothing flies under reduced motion: no layout to read
      return;
    }
    afterWrites(() => {
      const to = g.isConnected ? seatRect(winner) : null;
      const flights = to ? [...g.querySelectorAll('.trick-card')].map((c, i) => flyTo(c, to, { delay: i * 40 })).filter(Boolean) : [];
      if (!flights.length) g.remove();
      else Promise.all(flights.map((a) => a.finished.catch(() => null))).then(() => g.remove());
    });
  }

  function dropGhost() {
    if (!ghost) return;
    clearTimeout(ghost.timer);
    ghost.el.remove();
    ghost = null;
  }

  function renderSide(s, phase, stocked, events) {
    const d = dealOf(s);
    const parts = [];
    if (phase === 'auction' || phase === 'thrown_in') {
      const count = d.talon_count || 0;
      const words = talonKeys(viewOf(s));
      if (count)
        parts.push(
          h(
            'div',
            { class: 'talon-pile', 'data-testid': 'talon-count', 'data-count': String(count), role: 'img', 'aria-label': tn(words.count, count), title: tn(words.count, count) },
            h('span', { class: 'label', 'aria-hidden': 'true', text: t(words.label) }),
            h('div', { class: 'talon-backs' }, Array.from({ length: count }, () => cardBack({ className: 'tiny' }))),
          ),
        );
    } else {
      if (d.declarer !== null && d.declarer !== undefined) {
        parts.push(
          h(
            'div',
            { class: 'contract-chip', 'data-testid': 'contract', 'data-declarer': String(d.declarer), 'data-contract': String(d.contract) },
            h('span', { class: 'label', text: t('ring.contract') }),
            h('strong', { text: String(d.contract) }),
            h('span', { class: 'who', title: plainName(s, d.declarer), text: isMe(s, d.declarer) ? t('ring.you') : shortName(s, d.declarer) }),
          ),
        );
      }
      if (phase !== 'discard' && !stocked) parts.push(trumpBadge(d)); // with a stock, the trump is beside it
      if (d.discards && d.discards.length && phase !== 'discard') {
        parts.push(h('div', { class: 'my-discards', 'data-testid': 'discards' }, h('span', { class: 'label', text: isMe(s, d.declarer) ? t('ring.your_discards') : t('ring.discards') }), h('div', { class: 'last-cards' }, d.discards.map((code) => cardEl(code, { className: 'tiny', attrs: { 'data-testid': `discard-card-${code}` } })))));
      }
      if (phase !== 'discard') parts.push(lastTrick(s, d));
    }
    // kept and patched part by part (each has its test id): the last trick is not drawn again
    patchChildren(side, parts);
    if (side.hidden !== !parts.length) side.hidden = !parts.length;
  }

  /** The last trick taken, and by whom: once a deal is over, its final trick (behind its summary
   * too, which covers the felt: never an empty frame there; issue 42, point 4). */
  function lastTrick(s, d) {
    const last = d.final_trick || d.last_trick;
    return h(
      'div',
      { class: 'last-trick', 'data-testid': 'last-trick' },
      h('span', { class: 'label', text: t('table.last_trick') }),
      last
        ? h('div', { class: 'last-cards' }, last.cards.map((code) => cardEl(code, { className: 'tiny', attrs: { 'data-testid': `last-trick-card-${code}` } })))
        : h('div', { class: 'last-cards' }, h('div', { class: 'card tiny empty-slot', 'aria-hidden': 'true' })),
      last ? h('span', { class: 'won-by', text: isMe(s, last.winner) ? t('table.won_by_you') : t('table.won_by', { name: plainName(s, last.winner) }) }) : null,
    );
  }

  // `seats`, `me` and `centre` for a page that lays them out itself (the replay viewer)
  return {
    el,
    me,
    seats: seatsLayer,
    centre,
    render,
    /** Where a deal's cards come from: the stock where the game has one, else the middle of the felt. */
    dealOrigin() {
      return (!stockSide.hidden && rectOf(stock.querySelector('.stock-pile'))) || rectOf(stage) || rectOf(centre);
    },
    destroy() {
      window.removeEventListener('resize', fitNames);
      if (sizes) sizes.disconnect();
    },
    /** Count down held seats (R6.2) without re-rendering everything. */
    tick(s) {
      tickSeats(el, s);
      tickSeats(me, s);
    },
  };
}
