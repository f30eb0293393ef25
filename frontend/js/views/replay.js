// The replay viewer: one deal of a finished match, stepped card by card (#/replay/<match>/<deal>, and
// #/replay/<match>/<deal>/<code> with a private table's watch code). Every position comes from the
// server (GET /api/matches/{id}/deals/{n}/replay): this view only shows frames, it never applies a
// rule itself. Every hand is face up — the match is over (R7). It needs no account: a public
// table's replay is anyone's, a private one's its players' and their watch link's (issue 12).
// A game for 3 or 4 seats (V2–V7: an answer with `seats` > 2) is drawn by the n-seat table's own
// components (table/replayring.js); the controls, the keys and the links are the same.
import { api } from '../api.js';
import { h, setChildren } from '../dom.js';
import { t, tn } from '../i18n.js';
import { cardBack, cardEl, cardName, sortHand, suitBadge, suitName } from '../cards.js';
import { getPlayer } from '../session.js';
import { apiErrorText, loading, num, playerName, replayHref } from '../ui.js';
import { bottomSeat as seatOfViewer, isRingReplay } from '../table/replayframe.js';
import { createRingReplay } from '../table/replayring.js';

const SPEEDS = [0.5, 1, 2, 4]; // autoplay: moves per second
const KEY_STEPS = { ArrowRight: 1, ArrowLeft: -1 };

/** Save a finished match as JSON in the replay CLI's input format (docs/engine-cli.md). */
export async function downloadMatch(matchId, code = null) {
  const data = await api.matchReplay(matchId, code);
  const blob = new Blob([`${JSON.stringify(data, null, 1)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: `1001-${matchId}.json`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A "Download JSON" button; an error is shown next to it. */
export function downloadButton(matchId, testid, className = 'btn ghost', code = null) {
  const error = h('span', { class: 'form-error', role: 'status' });
  const button = h('button', {
    type: 'button',
    class: className,
    'data-testid': testid,
    text: t('replay.download'),
    onclick: async () => {
      error.textContent = '';
      button.disabled = true;
      try {
        await downloadMatch(matchId, code);
      } catch (err) {
        error.textContent = apiErrorText(err);
      } finally {
        button.disabled = false;
      }
    },
  });
  return h('span', { class: 'replay-download' }, button, error);
}

export function mount(root, matchId, dealNumber, code = null) {
  let destroyed = false;
  let data = null;
  let step = 0;
  let timer = null;
  let speed = 1;
  let els = null;
  let ring = null; // 3 or 4 seats: the n-seat felt (table/replayring.js)

  document.body.classList.add('at-replay');

  const names = () => data.players.map((p) => (p.bot_level ? playerName(p, data.players) : p.name));
  // The match page is its players' only: anyone else goes back to the lobby.
  const isPlayer = () => Boolean(getPlayer() && data && data.players.some((p) => p.id === getPlayer().id));
  const backLink = (testid) =>
    isPlayer()
      ? h('a', { class: 'btn replay-back', href: `#/history/${encodeURIComponent(matchId)}`, 'data-testid': testid, text: t('replay.back') })
      : h('a', { class: 'btn replay-back', href: '#/', 'data-testid': testid, text: t('watch.back') });
  const frames = () => data.frames;
  const lastStep = () => frames().length - 1;

  function stopAutoplay() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (els) {
      els.play.textContent = '▶';
      els.play.setAttribute('aria-label', t('replay.play'));
      els.play.setAttribute('aria-pressed', 'false');
    }
  }

  function startAutoplay() {
    if (step >= lastStep()) go(0);
    timer = setInterval(() => {
      if (step >= lastStep()) stopAutoplay();
      else go(step + 1);
    }, 1000 / speed);
    els.play.textContent = '❚❚';
    els.play.setAttribute('aria-label', t('replay.pause'));
    els.play.setAttribute('aria-pressed', 'true');
  }

  function go(next) {
    if (!data) return;
    step = Math.max(0, Math.min(lastStep(), next));
    paint();
  }

  function onKey(event) {
    if (!data || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest('input, select, textarea')) return;
    if (event.key in KEY_STEPS) go(step + KEY_STEPS[event.key]);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(lastStep());
    else return;
    event.preventDefault();
    stopAutoplay();
  }
  document.addEventListener('keydown', onKey);

  function handRow(seat, frame) {
    const mine = getPlayer() && data.players[seat] && data.players[seat].id === getPlayer().id;
    const turn = frame.turn === seat;
    return h(
      'section',
      { class: `replay-seat${turn ? ' to-play' : ''}`, 'aria-label': names()[seat] },
      h(
        'p',
        { class: 'replay-seat-head' },
        h('strong', { class: 'replay-name', text: names()[seat] }),
        seat === data.dealer ? h('span', { class: 'replay-dealer', title: t('table.dealer'), text: t('table.dealer_short') }) : null,
        mine ? h('span', { class: 'visually-hidden', text: ` (${t('replay.you')})` }) : null,
        h('span', { class: 'replay-seat-points num', text: t('replay.seat_points', { n: num(frame.card_points[seat]) }) }),
      ),
      h(
        'div',
        { class: 'replay-hand', 'data-testid': `replay-hand-${seat}`, 'data-cards': frame.hands[seat].join(' ') },
        sortHand(frame.hands[seat]).map((code) => cardEl(code)),
      ),
    );
  }

  function trickArea(frame) {
    // The trick in progress; right after a trick is taken, that trick (marked with its winner).
    let cards = frame.trick;
    let won = null;
    if (!cards.length && frame.trick_won && frame.last_trick) {
      const lt = frame.last_trick;
      cards = lt.cards.map((card, i) => ({ seat: i === 0 ? lt.leader : 1 - lt.leader, card }));
      won = lt.winner;
    }
    const pile = frame.stock_count
      ? h('div', { class: 'replay-pile', 'aria-hidden': 'true' }, cardBack(), h('span', { class: 'replay-pile-count num', text: num(frame.stock_count) }))
      : null;
    return [
      pile,
      h(
        'div',
        { class: 'replay-trick', 'data-testid': 'replay-trick', 'aria-label': t('replay.trick') },
        cards.map((c) => h('div', { class: `replay-played seat-${c.seat === bottomSeat() ? 'bottom' : 'top'}${won === c.seat ? ' won' : ''}` }, cardEl(c.card))),
      ),
    ];
  }

  /** The viewer's own seat at the bottom (seat 0 for anyone else). */
  function bottomSeat() {
    const me = getPlayer();
    return seatOfViewer(data.players, me && me.id);
  }

  /** What the step did, in words: the card played, a marriage and trump, the trick taken, the draws. */
  function eventLines(frame) {
    const who = names();
    if (!frame.action) return [t('replay.start', { name: who[1 - data.dealer] })];
    const lines = [t('replay.played', { name: who[frame.action.seat], card: cardName(frame.action.card) })];
    if (frame.declared) {
      const d = frame.declared;
      lines.push(t('replay.declared', { name: who[d.seat], suit: suitName(d.suit), points: num(d.points) }));
    }
    if (frame.trick_won) lines.push(t('replay.trick_won', { name: who[frame.trick_won.seat], points: num(frame.trick_won.points) }));
    for (const draw of frame.drawn) lines.push(t('replay.drew', { name: who[draw.seat], card: cardName(draw.card) }));
    return lines;
  }

  function infoPanel(frame) {
    const who = names();
    const over = frame.deal_over;
    return h(
      'div',
      { class: 'replay-info' },
      h(
        'p',
        { class: 'replay-facts' },
        h('span', { class: `replay-trump${frame.declared ? ' changed' : ''}`, 'data-testid': 'replay-trump', 'data-trump': frame.trump || '' }, `${t('table.trump')}: `, frame.trump ? suitBadge(frame.trump) : t('table.no_trump')),
        h('span', { class: 'replay-stock', 'data-testid': 'replay-stock', 'data-count': frame.stock_count, text: frame.stock_count ? tn('table.stock_count', frame.stock_count, { n: num(frame.stock_count) }) : t('table.stock_empty') }),
        h('span', { class: 'replay-tricks', text: t('replay.tricks', { n: num(frame.tricks_played) }) }),
      ),
      h('ul', { class: 'replay-events', 'data-testid': 'replay-events', 'aria-live': 'polite' }, eventLines(frame).map((line) => h('li', { text: line }))),
      frame.declarations.length
        ? h('p', { class: 'replay-marriages', 'data-testid': 'replay-marriages' }, `${t('summary.declared')}: `, frame.declarations.map((d) => h('span', { class: 'replay-marriage' }, who[d.seat], ' ', suitBadge(d.suit), ` ${num(d.points)}`)))
        : null,
      h(
        'p',
        { class: 'replay-points', 'data-testid': 'replay-points', 'data-points': frame.card_points.join(','), 'data-score': frame.score ? frame.score.join(',') : '' },
        over && frame.score
          ? h('strong', { text: t('replay.score', { a: who[0], b: who[1], x: num(frame.score[0]), y: num(frame.score[1]) }) })
          : t('replay.points', { a: who[0], b: who[1], x: num(frame.card_points[0]), y: num(frame.card_points[1]) }),
      ),
      step === lastStep() && !over ? h('p', { class: 'muted', text: t('replay.not_finished') }) : null,
    );
  }

  function paint() {
    const frame = frames()[step];
    if (ring) ring.paint(step);
    else {
      const bottom = bottomSeat();
      setChildren(els.top, handRow(1 - bottom, frame));
      setChildren(els.bottom, handRow(bottom, frame));
      setChildren(els.centre, trickArea(frame));
      setChildren(els.info, infoPanel(frame));
    }
    // Two hands step card by card; at 3 or 4 seats a step is also a call or the discard.
    const where = t(ring ? 'replay.move' : 'replay.step', { n: num(step), total: num(lastStep()) });
    els.slider.value = String(step);
    els.slider.setAttribute('aria-valuetext', where);
    els.step.dataset.step = String(step);
    els.step.textContent = where;
    els.first.disabled = els.prev.disabled = step === 0;
    els.next.disabled = els.last.disabled = step === lastStep();
  }

  function control(symbol, key, testid, onclick) {
    return h('button', { type: 'button', class: 'btn replay-btn', 'data-testid': testid, 'aria-label': t(key), title: t(key), text: symbol, onclick });
  }

  /** A link to another deal of the match (none past either end), keeping the watch code. */
  function dealLink(number, symbol, testid) {
    if (number < 0 || number >= data.deals) return null;
    const label = t('replay.open_deal', { n: num(number + 1) });
    return h('a', { class: 'btn replay-deal', href: replayHref(matchId, number, code), 'data-testid': testid, 'aria-label': label, title: label, text: symbol });
  }

  function build() {
    ring = isRingReplay(data) ? createRingReplay({ data, bottom: bottomSeat() }) : null;
    const first = control('«', 'replay.first', 'replay-first', () => (stopAutoplay(), go(0)));
    const prev = control('‹', ring ? 'replay.prev_move' : 'replay.prev', 'replay-prev', () => (stopAutoplay(), go(step - 1)));
    const next = control('›', ring ? 'replay.next_move' : 'replay.next', 'replay-next', () => (stopAutoplay(), go(step + 1)));
    const last = control('»', 'replay.last', 'replay-last', () => (stopAutoplay(), go(lastStep())));
    const play = h('button', {
      type: 'button',
      class: 'btn gold replay-btn',
      'data-testid': 'replay-play',
      'aria-pressed': 'false',
      onclick: () => (timer === null ? startAutoplay() : stopAutoplay()),
    });
    const slider = h('input', {
      type: 'range',
      class: 'replay-slider',
      min: 0,
      max: lastStep(),
      step: 1,
      value: 0,
      'data-testid': 'replay-slider',
      'aria-label': t('replay.slider'),
      oninput: (event) => (stopAutoplay(), go(Number(event.target.value))),
    });
    const speedSelect = h(
      'select',
      {
        class: 'replay-speed',
        'data-testid': 'replay-speed',
        'aria-label': t('replay.speed'),
        onchange: (event) => {
          speed = Number(event.target.value);
          if (timer !== null) {
            stopAutoplay();
            startAutoplay();
          }
        },
      },
      SPEEDS.map((s) => h('option', { value: s, selected: s === speed, text: t('replay.speed_n', { n: num(s) }) })),
    );
    const stepLabel = h('span', { class: 'replay-step num', 'data-testid': 'replay-step', 'data-step': '0' });
    els = { first, prev, next, last, play, slider, step: stepLabel, top: h('div', { class: 'replay-top' }), bottom: h('div', { class: 'replay-bottom' }), centre: h('div', { class: 'replay-centre' }), info: h('div', { class: 'replay-side' }) };
    const who = names();
    const title = ring ? t('replay.title_n', { n: num(dealNumber + 1), names: who.join(', ') }) : t('replay.title', { n: num(dealNumber + 1), a: who[0], b: who[1] });
    return h(
      'div',
      { class: `replay-page${ring ? ' replay-ring' : ''}`, 'data-testid': 'replay-viewer', 'data-match': matchId, 'data-deal': dealNumber, 'data-seats': who.length, 'data-variant': data.variant || null },
      h(
        'header',
        { class: 'replay-bar' },
        backLink('replay-back'),
        h('h1', { class: 'replay-title', text: title }),
        dealLink(dealNumber - 1, '‹', 'replay-deal-prev'),
        dealLink(dealNumber + 1, '›', 'replay-deal-next'),
        downloadButton(matchId, 'replay-download', 'btn', code),
      ),
      ring ? ring.nodes : [els.top, els.centre, els.bottom, els.info],
      h('div', { class: 'replay-controls', role: 'group', 'aria-label': t('replay.controls') }, first, prev, play, next, last, slider, stepLabel, speedSelect),
    );
  }

  async function render() {
    stopAutoplay();
    root.replaceChildren();
    if (!data) {
      root.append(loading());
      try {
        data = await api.dealReplay(matchId, dealNumber, code);
      } catch (err) {
        if (destroyed) return;
        // The server answers "not found" alike for a match that does not exist and for a private
        // one without its watch code: say both, so that a visitor knows to ask for the link.
        const refused = Boolean(err && err.code === 'match_not_found');
        const text = refused ? t('replay.refused') : apiErrorText(err);
        const back = getPlayer() && !refused ? h('a', { class: 'btn ghost', href: `#/history/${encodeURIComponent(matchId)}`, text: t('replay.back') }) : h('a', { class: 'btn ghost', href: '#/', text: t('watch.back') });
        setChildren(root, h('section', { class: 'card-panel replay-error', 'data-testid': 'replay-error' }, h('p', { class: 'form-error', role: 'alert', text }), back));
        return;
      }
      if (destroyed) return;
    }
    setChildren(root, build());
    stopAutoplay();
    paint();
  }

  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
      stopAutoplay();
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('at-replay');
    },
  };
}
