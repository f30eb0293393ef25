// The replay viewer: one deal of a finished match, stepped card by card (#/replay/<match>/<deal>, and
// #/replay/<match>/<deal>/<code> with a private table's watch code). Every position comes from the
// server (GET /api/matches/{id}/deals/{n}/replay): this view only shows frames, it never applies a
// rule itself. Every hand is face up — the match is over (R7). It needs no account: a public
// table's replay is anyone's, a private one's its players' and their watch link's (issue 12).
// Every game of the family and every seat count is drawn by the table's own components: each frame
// becomes a spectator's state of the table (table/replayframe.js, pure) and ring.js draws it — the
// seats around the felt with every hand face up, the stock, the auction (auction.js) with the talon
// face up, the talon taken while the declarer lays two away, the trick with each card at its seat —
// with what each step did in words beside it and, at the end, the deal's score. A finished deal has
// "Analyse" (components/analysis.js, issue 26): the marks along the timeline, the eval line, the
// verdict on each step and the better card pointed at in its seat's hand.
import { api } from '../api.js';
import { createAnalysis, gradeWord } from '../components/analysis.js';
import { h, setChildren } from '../dom.js';
import { t, tn } from '../i18n.js';
import { cardEl, cardName, sortHand, suitName } from '../cards.js';
import { getPlayer } from '../session.js';
import { apiErrorText, loading, num, replayHref } from '../ui.js';
import { createAuction } from '../table/auction.js';
import { hasAuction, signed, talonKeys, total } from '../table/model.js';
import { cardShort, plainName, shortName } from '../table/names.js';
import { bottomSeat as seatOfViewer, frameState, fromTalon, resultForSummary, scoreRows, stepFacts, talonShown } from '../table/replayframe.js';
import { createRing } from '../table/ring.js';
import { fit, fitText } from '../fit.js';
import { phaseChip } from '../table/status.js';
import { viewOf } from '../table/store.js';
import { contractLine } from '../table/summary.js';

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

const none = () => {};

/** What step `step` did, in words: the call, the discard or the card, a marriage, the trick, the draws, the talon. */
function eventLines(s, facts) {
  const who = (seat) => plainName(s, seat);
  const lines = [];
  const a = facts.action;
  if (facts.start) lines.push(t(facts.phase === 'auction' ? 'replay.start_auction' : 'replay.start', { name: who(facts.turn) }));
  else if (a.kind === 'bid') lines.push(t('replay.bid', { name: who(a.seat), n: num(a.amount) }));
  else if (a.kind === 'pass') lines.push(t('replay.pass', { name: who(a.seat) }));
  else if (a.kind === 'discard') lines.push(t('replay.discarded', { name: who(a.seat), a: cardName(a.cards[0]), b: cardName(a.cards[1]) }));
  else if (a.kind === 'play') lines.push(t('replay.played', { name: who(a.seat), card: cardName(a.card) }));
  if (facts.declared) {
    const d = facts.declared;
    lines.push(tn('replay.declared', Number(d.points), { name: who(d.seat), suit: suitName(d.suit), points: num(d.points) }));
  }
  if (facts.trickWon) lines.push(tn('replay.trick_won', Number(facts.trickWon.points), { name: who(facts.trickWon.seat), points: num(facts.trickWon.points) }));
  for (const draw of facts.drawn) lines.push(t('replay.drew', { name: who(draw.seat), card: cardName(draw.card) })); // R4 phase 1
  if (facts.tookTalon) {
    const x = facts.tookTalon;
    lines.push(t(talonKeys(viewOf(s)).replayTook, { name: who(x.seat), n: num(x.contract), cards: x.cards.map(cardShort).join(' ') }));
  }
  if (facts.declarer) lines.push(t('replay.declarer', { name: who(facts.declarer.seat), n: num(facts.declarer.contract) }));
  // a throw-in is said by the deal's result below (summary.js contractLine)
  return lines;
}

/**
 * The replay's felt, for every seat count: the table's own ring with every hand face up, the
 * auction panel with the talon face up, the taken talon while the declarer discards, and the words.
 */
function createFelt(data, bottom, betterAt = () => null) {
  let frame = data.frames[0];
  let marks = new Set();
  let better = null; // the analysis's better action at this step: {seat, cards} to point at

  // The middle of the felt in the auction: the table's own auction panel, and the talon face up.
  const auction = createAuction({ onStep: none, onBid: none, onPass: none });
  const talon = h('div', { class: 'talon-cards', 'data-testid': 'replay-talon' });
  const talonLabel = h('span', { class: 'label' });
  const talonBox = h('div', { class: 'talon-pile replay-talon-open' }, talonLabel, talon);
  const auctionPanel = {
    el: h('div', { class: 'replay-stage' }, auction.el, talonBox),
    render(s) {
      auction.render(s);
      const shown = talonShown(frame);
      talonBox.hidden = !shown;
      talonLabel.textContent = t(talonKeys(viewOf(s)).label);
      talon.dataset.cards = shown ? shown.cards.join(' ') : '';
      setChildren(talon, shown ? shown.cards.map((code) => cardEl(code, { className: 'small' })) : []);
    },
  };

  // The talon taken: its cards face up with their taker, who lays two cards of its hand away.
  const discardTitle = h('h2', { class: 'discard-title' });
  const discardCards = h('div', { class: 'talon-cards', 'data-testid': 'replay-talon-taken' });
  const discardHint = h('p', { class: 'discard-hint' });
  const discardPanel = {
    el: h('section', { class: 'discard replay-discard', 'data-testid': 'discard' }, discardTitle, discardCards, discardHint),
    render(s) {
      const shown = talonShown(frame);
      const seat = frame.declarer;
      discardTitle.textContent = t(talonKeys(viewOf(s)).took, { name: plainName(s, seat), n: num(frame.contract ?? 0) });
      discardCards.dataset.cards = shown ? shown.cards.join(' ') : '';
      setChildren(discardCards, shown ? shown.cards.map((code) => cardEl(code, { className: 'small' })) : []);
      discardHint.textContent = t('ring.discarding', { name: plainName(s, seat) });
    },
  };

  /** A seat's hand face up, in the table's order; the talon's cards marked while discarding. */
  const hands = (seat) => {
    const cards = frame.hands[seat] || [];
    const best = better && better.seat === seat ? new Set(better.cards) : new Set();
    const card = (code) => {
      if (best.has(code)) return cardEl(code, { className: 'better-card', attrs: { 'data-better': 'true', title: t('analysis.better_card'), 'aria-label': `${cardName(code)} — ${t('analysis.better_card')}` } });
      return cardEl(code, { className: marks.has(code) ? 'from-talon' : '', attrs: marks.has(code) ? { title: t(talonKeys({ rules: { variant: data.variant } }).card) } : {} });
    };
    return h(
      'div',
      { class: 'rs-hand', 'data-testid': `replay-hand-${seat}`, 'data-cards': cards.join(' '), style: `--count:${Math.max(1, cards.length)}` },
      sortHand(cards).map(card),
    );
  };
  const ring = createRing({ auction: auctionPanel, discard: discardPanel, hands, pointsText: (n) => tn('replay.seat_points', n, { n: num(n) }), shortNames: true });

  const facts = h('p', { class: 'replay-facts' });
  const events = h('ul', { class: 'replay-events', 'data-testid': 'replay-events', 'aria-live': 'polite' });
  const result = h('div', { class: 'replay-result' });
  const points = h('p', { class: 'replay-points', 'data-testid': 'replay-points' });
  // a region of its own: on a small screen a long step scrolls in it (reached by the keyboard too)
  const info = h('div', { class: 'replay-info', role: 'region', tabindex: '0', 'aria-label': t('replay.info') }, facts, events, result, points);

  function paintInfo(s, step) {
    const n = frame.hands.length;
    setChildren(
      facts,
      h('span', { class: 'replay-phase', 'data-testid': 'replay-phase', 'data-phase': frame.phase }, phaseChip(s)),
      h('span', { class: 'replay-tricks', text: t('replay.tricks', { n: num(frame.tricks_played) }) }),
    );
    setChildren(events, eventLines(s, stepFacts(data, step)).map((line) => h('li', { text: line })));
    const rows = scoreRows(data, step);
    points.dataset.points = frame.card_points.join(',');
    points.dataset.score = rows ? rows.map((r) => r.score).join(',') : '';
    if (rows) {
      const res = resultForSummary(data);
      setChildren(result, res ? contractLine(s, res) : null);
      setChildren(
        points,
        h('strong', { text: t('replay.deal_score') }),
        ' ',
        h(
          'span',
          { class: 'replay-scores' },
          rows.map((r) =>
            h(
              'span',
              { class: `replay-score${r.declarer ? ` declarer ${r.made ? 'made' : 'failed'}` : ''}`, 'data-testid': `replay-score-${r.seat}`, 'data-score': String(r.score), 'data-total': r.total === null ? '' : String(r.total) },
              h('span', { class: 'who', title: plainName(s, r.seat), text: shortName(s, r.seat) }),
              ' ',
              h('strong', { class: r.score < 0 ? 'loss' : '', text: signed(r.score) }),
              r.total === null ? null : h('span', { class: 'tot', text: ` (${t('replay.total', { n: num(r.total) })})` }),
            ),
          ),
        ),
      );
    } else {
      // The last step of a deal a resignation cut short (R6.2, ruling V0.10a): no score.
      const cut = step === data.frames.length - 1 && !frame.deal_over;
      setChildren(result, cut ? h('p', { class: 'muted', text: t('replay.not_finished') }) : null);
      const list = Array.from({ length: n }, (_, seat) => `${shortName(s, seat)} ${total(frame.card_points[seat])}`).join(' · ');
      setChildren(points, t('replay.points_n', { list }));
    }
  }

  return {
    /** The felt's parts in the page's grid: every seat (the bottom one below the others), the middle, what happened. */
    nodes: [h('div', { class: 'replay-seats' }, ring.seats, ring.me), ring.centre, info],
    destroy: () => ring.destroy(),
    /** The info box (the analysis's verdict goes in it). */
    info,
    paint(step) {
      frame = data.frames[step];
      marks = fromTalon(frame);
      better = betterAt(step);
      const s = frameState(data, step, { bottom });
      ring.render(s, { events: [] });
      paintInfo(s, step);
      return s;
    },
  };
}

export function mount(root, matchId, dealNumber, code = null) {
  let destroyed = false;
  let data = null;
  let step = 0;
  let timer = null;
  let speed = 1;
  let els = null;
  let felt = null; // the table's felt (createFelt)
  let byMove = false; // a game with an auction: a step may be a call or the discard, not only a card
  let analysis = null; // the computer's analysis (a finished deal only: components/analysis.js)
  let analysed = false; // asked the server once what there is of it
  let titleEl = null; // the bar's title, fitted to its box (fit.js)
  const fitTitle = () => titleEl && fit(titleEl);
  window.addEventListener('resize', fitTitle);

  document.body.classList.add('at-replay');

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

  /** The viewer's own seat at the bottom (seat 0 for anyone else). */
  function bottomSeat() {
    const me = getPlayer();
    return seatOfViewer(data.players, me && me.id);
  }

  function paint() {
    const s = felt.paint(step);
    if (analysis) analysis.paint(step, s, (seat) => shortName(s, seat)); // as the felt names them
    // Without an auction a deal steps card by card; with one a step is also a call or the discard.
    const where = t(byMove ? 'replay.move' : 'replay.step', { n: num(step), total: num(lastStep()) });
    const grade = analysis && analysis.gradeAt(step);
    els.slider.value = String(step);
    els.slider.setAttribute('aria-valuetext', grade ? t('analysis.step_marked', { where, grade: gradeWord(grade) }) : where);
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
    if (felt) felt.destroy();
    // A finished deal can be analysed (a deal a resignation cut short has no result: nothing to rate).
    if (!analysis && data.result)
      analysis = createAnalysis({
        matchId,
        number: dealNumber,
        code,
        seats: data.seats || data.frames[0].hands.length,
        steps: lastStep(),
        me: bottomSeat(),
        onChange: () => paint(),
        onGo: (at) => (stopAutoplay(), go(at)),
      });
    felt = createFelt(data, bottomSeat(), (at) => (analysis ? analysis.better(at) : null));
    const s = felt.paint(0);
    byMove = hasAuction(viewOf(s));
    const first = control('«', 'replay.first', 'replay-first', () => (stopAutoplay(), go(0)));
    const prev = control('‹', byMove ? 'replay.prev_move' : 'replay.prev', 'replay-prev', () => (stopAutoplay(), go(step - 1)));
    const next = control('›', byMove ? 'replay.next_move' : 'replay.next', 'replay-next', () => (stopAutoplay(), go(step + 1)));
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
    els = { first, prev, next, last, play, slider, step: stepLabel };
    const who = data.players.map((p) => plainName(s, p.seat));
    const title = t('replay.title_n', { n: num(dealNumber + 1), names: who.join(', ') });
    // the whole title where it fits, else with the computers' short names, else the deal alone (fit.js)
    const shorter = t('replay.title_n', { n: num(dealNumber + 1), names: data.players.map((p) => shortName(s, p.seat)).join(', ') });
    titleEl = fitText(h('h1', { class: 'replay-title' }), [title, shorter, t('history.deal_n', { n: num(dealNumber + 1) })], title);
    return h(
      'div',
      { class: 'replay-page', 'data-testid': 'replay-viewer', 'data-match': matchId, 'data-deal': dealNumber, 'data-seats': data.seats || who.length, 'data-variant': data.variant },
      h(
        'header',
        { class: 'replay-bar' },
        backLink('replay-back'),
        titleEl,
        dealLink(dealNumber - 1, '‹', 'replay-deal-prev'),
        dealLink(dealNumber + 1, '›', 'replay-deal-next'),
        downloadButton(matchId, 'replay-download', 'btn', code),
      ),
      felt.nodes,
      analysis ? analysis.panel : null,
      h(
        'div',
        { class: 'replay-controls', role: 'group', 'aria-label': t('replay.controls') },
        first,
        prev,
        play,
        next,
        last,
        // the timeline (the slider, and once analysed the eval line and the marks along it) and the step
        h(
          'div',
          { class: 'replay-track' },
          analysis ? analysis.prevMark : null,
          h('div', { class: 'replay-timeline', 'data-testid': 'replay-timeline' }, analysis ? analysis.line : null, slider),
          analysis ? analysis.nextMark : null,
          stepLabel,
        ),
        speedSelect,
      ),
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
    const page = build();
    // the verdict first in what happened: on a small screen the rest of the step's words scroll
    if (analysis) felt.info.querySelector('.replay-events').before(analysis.verdict);
    setChildren(root, page);
    fitTitle();
    stopAutoplay();
    paint();
    if (analysis && !analysed) {
      analysed = true;
      analysis.load(); // a stored analysis (or one under way) shows at once; nothing is started
    }
  }

  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
      stopAutoplay();
      if (felt) felt.destroy();
      if (analysis) analysis.destroy();
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', fitTitle);
      document.body.classList.remove('at-replay');
    },
  };
}
