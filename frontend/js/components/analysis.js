// The computer's analysis of a finished deal on the replay viewer (issue 26): "Analyse", the
// progress while the server's bot workers rate every decision (POST, then GET about every POLL_MS),
// the refusals in words, and once done the marks on the timeline (the slider) with the eval line
// drawn along it, the verdict on the step shown (grade, points given away, the better action, exact
// or over how many guessed deals) and every seat's points given away in the deal. The figures are
// the server's and the pure helpers' (analysis-data.js); this module only draws them. The felt's own
// part — the better card pointed at in its seat's hand — is the replay view's (views/replay.js asks
// `better(step)`).
import { api } from '../api.js';
import { h, setChildren, svg } from '../dom.js';
import { t, tn } from '../i18n.js';
import { cardName } from '../cards.js';
import { apiErrorText, num, replayHref } from '../ui.js';
import { cardShort, seatTag } from '../table/names.js';
import { POLL_MS, betterCards, dealTotals, evalLayout, givenAwayLayout, gradeTable, isPending, marksOf, matchSummary, nextMark, progressOf, timelineAt, verdictAt } from './analysis-data.js';
import { markerShape } from './race-data.js';

/** A grade in words (Slip / Mistake / Blunder, in the page's language). */
export function gradeWord(grade) {
  return t(`grade.${grade}`);
}

/** A grade's chip: its word on its colour; its title says from how many points it is given. */
export function gradeChip(grade, extra = {}) {
  const from = gradeTable().find((g) => g.grade === grade);
  const title = from ? tn('analysis.grade_from', from.from, { grade: gradeWord(grade), n: num(from.from) }) : gradeWord(grade);
  return h('span', { class: `grade-chip grade-${grade}`, 'data-grade': grade, title, ...extra, text: gradeWord(grade) });
}

/**
 * An action written out: "Ace of clubs", "King of hearts, declaring the marriage", "bid 120", "pass",
 * "lay away Ace of spades and Ten of spades"; `card` names the cards (cardShort for "A♠" in a narrow line).
 */
export function actionText(action, card = cardName) {
  if (action.kind === 'play') return t(action.declare ? 'analysis.action.play_declare' : 'analysis.action.play', { card: card(action.card) });
  if (action.kind === 'bid') return t('analysis.action.bid', { n: num(action.amount) });
  if (action.kind === 'discard') return t('analysis.action.discard', { a: card(action.cards[0]), b: card(action.cards[1]) });
  return t('analysis.action.pass');
}

/** How the figure was found: "exact", or "from 24 deals guessed" (the worlds the player could not tell apart). */
export function howFound(verdict) {
  return verdict.exact ? t('analysis.exact') : tn('analysis.worlds', verdict.worlds, { n: num(verdict.worlds) });
}

/**
 * createAnalysis({matchId, number, code, seats, steps, me, onChange, onGo}) → the parts the replay
 * places: `panel` (Analyse / the progress / a refusal / every seat's points given away
 * figures), `line` (the eval line and the marks, laid along the slider: same first and last step),
 * `prevMark` / `nextMark` (buttons beside the timeline, to the marked move before or after),
 * `verdict` (a line for the step shown). `paint(step, s)` redraws them for step `step` of the store state `s` (names,
 * seat tags); `better(step)` the seat and cards to point at on the felt; `onChange()` is called
 * when the analysis arrives (the felt repaints), `onGo(step)` when a mark is chosen.
 */
export function createAnalysis({ matchId, number, code = null, seats, steps, me = 0, onChange, onGo }) {
  let body = null; // the server's last answer (null: not asked yet)
  let error = null; // the last refusal (an ApiError)
  let timer = null;
  let asking = false;
  let destroyed = false;
  let step = 0;
  let state = null; // the store state of the step shown (the seat tags)
  let nameOf = (seat) => String(seat); // a seat's name (the view's plainName)

  const panel = h('section', { class: 'replay-analysis', 'data-testid': 'analysis', 'data-status': 'none', 'aria-label': t('analysis.heading') });
  const verdict = h('p', { class: 'analysis-verdict', 'data-testid': 'analysis-verdict', 'aria-live': 'polite', hidden: true });
  const lineBox = h('div', { class: 'eval-box', hidden: true });

  const done = () => Boolean(body && body.status === 'done' && body.analysis);
  const marks = () => marksOf(body);

  function stopPolling() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function poll() {
    stopPolling();
    if (destroyed || !isPending(body)) return;
    timer = setTimeout(async () => {
      timer = null;
      try {
        take(await api.dealAnalysis(matchId, number, code));
      } catch (err) {
        fail(err);
      }
    }, POLL_MS);
  }

  function take(answer) {
    if (destroyed) return;
    const was = done();
    body = answer;
    error = null;
    render();
    if (done() && !was && onChange) onChange();
    poll();
  }

  function fail(err) {
    if (destroyed) return;
    error = err;
    stopPolling();
    render();
  }

  async function start() {
    if (asking) return;
    asking = true;
    error = null;
    render();
    try {
      take(await api.analyseDeal(matchId, number, code));
    } catch (err) {
      fail(err);
    } finally {
      asking = false;
      render();
    }
  }

  // ---------------------------------------------------------------- the panel

  function analyseButton(label) {
    return h('button', {
      type: 'button',
      class: 'btn gold analysis-start',
      'data-testid': error ? 'analysis-retry' : 'analyse',
      title: t('analysis.analyse_title'),
      disabled: asking,
      onclick: start,
      text: label,
    });
  }

  function progressBar() {
    const p = progressOf(body);
    const label = p.status === 'queued' || !p.total ? t('analysis.queued') : tn('analysis.running', p.total, { done: num(p.done), n: num(p.total) });
    const bar = h(
      'div',
      {
        class: 'analysis-bar',
        role: 'progressbar',
        'data-testid': 'analysis-progress',
        'aria-label': t('analysis.progress'),
        'aria-valuemin': 0,
        'aria-valuemax': p.total,
        'aria-valuenow': p.done,
        'aria-valuetext': label,
        'data-done': p.done,
        'data-total': p.total,
      },
      h('span', { class: 'analysis-bar-fill', style: `width:${p.percent}%` }),
    );
    return [h('span', { class: 'analysis-running', text: label }), bar];
  }

  function givenAway() {
    const totals = dealTotals(body, seats);
    const order = Array.from({ length: seats }, (_, k) => (me + k) % seats);
    return [
      h(
        'p',
        { class: 'analysis-given', 'data-testid': 'analysis-given-away', title: t('analysis.given_away') },
        h('span', { class: 'analysis-given-label', text: t('analysis.given_short') }),
        order.map((seat) => {
          const row = totals[seat];
          const name = nameOf(seat);
          return h(
            'span',
            { class: `analysis-seat${seat === me ? ' me' : ''}`, 'data-testid': `analysis-given-${seat}`, 'data-points': String(row.points), title: name },
            state ? seatTag(state, seat) : null,
            h('strong', { class: 'num', 'aria-hidden': 'true', text: num(row.points) }),
            h('span', { class: 'visually-hidden', text: tn('analysis.seat_gave', row.points, { name, n: num(row.points) }) }),
          );
        }),
      ),
    ];
  }

  // The marks' buttons beside the timeline: to the marked move before or after the step shown.
  const jump = (dir, symbol, key, testid) => {
    const button = h('button', { type: 'button', class: 'btn replay-btn analysis-jump', 'data-testid': testid, hidden: true, text: symbol });
    button.addEventListener('click', () => {
      const target = nextMark(marks(), step, dir);
      if (target !== null) onGo(target);
    });
    return { button, key };
  };
  const prevJump = jump(-1, '‹!', 'analysis.prev_mark', 'analysis-prev-mark');
  const nextJump = jump(1, '!›', 'analysis.next_mark', 'analysis-next-mark');

  function paintJumps() {
    const list = marks();
    for (const [j, dir] of [[prevJump, -1], [nextJump, 1]]) {
      const label = `${t(j.key)} (${tn('analysis.marks_n', list.length, { n: num(list.length) })})`;
      j.button.hidden = !done();
      j.button.disabled = nextMark(list, step, dir) === null;
      j.button.setAttribute('aria-label', label);
      j.button.title = label;
      j.button.dataset.marks = String(list.length);
    }
  }

  function paintPanel() {
    const status = error ? 'error' : body ? body.status : 'none';
    panel.dataset.status = status;
    if (error) {
      // a refusal (analysis_limit, analysis_queue_full, deal_unfinished …) in words, and another try
      const retry = error.code !== 'deal_unfinished' && error.code !== 'deal_not_found';
      setChildren(panel, h('p', { class: 'form-error analysis-error', role: 'alert', 'data-testid': 'analysis-error', 'data-code': error.code, text: apiErrorText(error) }), retry ? analyseButton(t('analysis.retry')) : null);
    } else if (done()) setChildren(panel, givenAway());
    else if (isPending(body)) setChildren(panel, progressBar());
    else if (body && body.status === 'failed')
      setChildren(panel, h('p', { class: 'form-error analysis-error', role: 'alert', 'data-testid': 'analysis-error', 'data-code': 'failed', text: t('analysis.failed') }), analyseButton(t('analysis.retry')));
    else setChildren(panel, analyseButton(t('analysis.analyse')), h('span', { class: 'analysis-hint', text: t('analysis.hint') }));
  }

  // ---------------------------------------------------------------- the eval line along the timeline

  function paintLine() {
    lineBox.hidden = !done();
    if (!done()) {
      lineBox.replaceChildren();
      return;
    }
    const lay = evalLayout({ body, n: seats, steps, me });
    const title = svg('title');
    title.textContent = t('analysis.eval_title');
    const desc = svg('desc');
    desc.textContent = lay.lines.map((l) => t('analysis.eval_seat', { name: nameOf(l.seat), n: num(Math.round(l.last)) })).join(', ');
    const chart = svg(
      'svg',
      { class: 'eval-line', viewBox: `0 0 ${lay.width} ${lay.height}`, preserveAspectRatio: 'none', role: 'img', 'data-testid': 'eval-line', 'data-steps': lay.steps, 'data-seats': seats },
      title,
      desc,
    );
    chart.append(svg('line', { class: 'eval-zero', x1: 0, x2: lay.width, y1: lay.y(0), y2: lay.y(0) }));
    for (const l of lay.lines) {
      const group = svg('g', { class: `race-series ${l.cls}`, 'data-seat': l.seat });
      group.append(svg('polyline', { class: 'race-line', points: l.line }));
      chart.append(group);
    }
    // The marks: a dot each on its mover's line (HTML, so that it stays round on a stretched chart).
    const dots = lay.marks.map((m) =>
      h('button', {
        type: 'button',
        class: `eval-mark grade-${m.grade}`,
        'data-testid': `eval-mark-${m.step}`,
        'data-grade': m.grade,
        'data-seat': m.seat,
        tabindex: '-1', // the keyboard has ‹! and !› (and the slider says the grade)
        'aria-hidden': 'true',
        title: `${gradeWord(m.grade)}: ${tn('analysis.gave_away', m.givenAway, { name: nameOf(m.seat), n: num(m.givenAway) })}`,
        style: `left:${(timelineAt(m.step, lay.steps) * 100).toFixed(2)}%;top:${((m.y / lay.height) * 100).toFixed(2)}%`,
        onclick: () => onGo(m.step),
      }),
    );
    const cursor = h('span', { class: 'eval-cursor', 'aria-hidden': 'true', style: `left:${(timelineAt(step, lay.steps) * 100).toFixed(2)}%` });
    setChildren(lineBox, h('div', { class: 'eval-plot' }, chart, dots, cursor));
  }

  // ---------------------------------------------------------------- the verdict on the step shown

  function paintVerdict() {
    const v = done() ? verdictAt(body, step) : null;
    verdict.hidden = !v;
    if (!v) {
      verdict.replaceChildren();
      verdict.dataset.grade = '';
      return;
    }
    const who = nameOf(v.seat);
    Object.assign(verdict.dataset, { step: String(v.step), seat: String(v.seat), grade: v.grade || '', givenAway: String(v.givenAway), exact: String(v.exact), worlds: String(v.worlds) });
    if (v.forced) setChildren(verdict, t('analysis.forced', { name: who }));
    else if (!v.better) setChildren(verdict, t('analysis.best', { name: who }));
    else
      setChildren(
        verdict,
        v.grade ? [gradeChip(v.grade), ' '] : null,
        tn('analysis.gave_away', v.givenAway, { name: who, n: num(v.givenAway) }),
        ' ',
        // the cards as on their corners ("A♠"), their names for screen readers
        h(
          'span',
          { class: 'analysis-better', 'data-testid': 'analysis-better', 'data-kind': v.better.kind },
          h('span', { 'aria-hidden': 'true', text: t('analysis.better', { action: actionText(v.better, cardShort) }) }),
          h('span', { class: 'visually-hidden', text: t('analysis.better', { action: actionText(v.better) }) }),
        ),
        ' ',
        h('span', { class: 'analysis-how', 'data-testid': 'analysis-how', text: `(${howFound(v)})` }),
      );
  }

  function render() {
    if (destroyed) return;
    panel.setAttribute('aria-label', t('analysis.heading'));
    paintPanel();
    paintLine();
    paintJumps();
    paintVerdict();
  }

  return {
    panel,
    line: lineBox,
    prevMark: prevJump.button,
    nextMark: nextJump.button,
    verdict,
    /** Ask the server what it has (a stored analysis, or one under way); nothing is started. */
    async load() {
      try {
        take(await api.dealAnalysis(matchId, number, code));
      } catch (err) {
        fail(err);
      }
    },
    paint(at, s, nameFn) {
      step = at;
      state = s;
      if (nameFn) nameOf = nameFn;
      render();
    },
    /** The grade of the action of step `at` (for the slider's words), or null. */
    gradeAt(at) {
      const v = done() ? verdictAt(body, at) : null;
      return v ? v.grade : null;
    },
    /** The better action of step `at` on the felt: its seat and the cards to point at in its hand. */
    better(at) {
      const v = done() ? verdictAt(body, at) : null;
      return v && v.better ? { seat: v.seat, cards: betterCards(v) } : null;
    },
    destroy() {
      destroyed = true;
      stopPolling();
    },
  };
}

/**
 * The row under the match page's race chart: each player's points given away per analysed deal, a
 * bar row per seat in the race chart's colour and marker, each bar under its deal's point of the race
 * (the same width and deal axis: givenAwayLayout). A deal not analysed is a gap, not a zero bar. For
 * screen readers the chart is one image, named by its caption and described deal by deal.
 * `summary` is matchSummary's; `history`, `target`, `me` the race chart's; `names` in seat order.
 */
export function givenAwayRow({ summary, history, target, names, me = 0 }) {
  const lay = givenAwayLayout({ summary, history, target, n: names.length, me });
  const id = `given-${Math.random().toString(36).slice(2, 8)}`;
  const nameOf = (seat) => names[seat] ?? '?';
  const caption = h('p', { class: 'given-row-caption', id: `${id}-t`, text: t('analysis.row_title') });
  const desc = svg('desc', { id: `${id}-d` });
  const gaps = lay.gaps.length ? [tn('analysis.row_gaps', lay.gaps.length, { deals: lay.gaps.map((i) => num(i + 1)).join(', ') })] : [];
  desc.textContent = [
    ...lay.rows.map((r) => `${nameOf(r.seat)}: ${r.cells.filter((c) => c.bar).map((c) => t('analysis.row_deal', { deal: num(c.deal), n: num(c.points) })).join(', ')}.`),
    ...gaps,
  ].join(' ');
  const chart = svg('svg', {
    class: 'race-chart given-row',
    viewBox: `0 0 ${lay.width} ${lay.height}`,
    role: 'img',
    'aria-labelledby': `${caption.id} ${desc.id}`,
    'data-testid': 'given-away-row',
    'data-deals': lay.deals,
    'data-analysed': lay.analysed.join(','),
    'data-gaps': lay.gaps.join(','),
  });
  chart.append(desc);
  for (const r of lay.rows) {
    const group = svg('g', { class: `race-series ${r.cls}`, 'data-seat': r.seat, 'data-testid': `given-away-seat-${r.seat}` });
    const { tag, attrs } = markerShape(r.marker, r.key.x, r.key.y);
    const key = svg(tag, { ...attrs, class: 'race-point', 'aria-hidden': 'true' });
    const who = svg('title');
    who.textContent = nameOf(r.seat);
    key.append(who);
    group.append(svg('line', { class: 'race-gridline', x1: lay.pad.left, x2: lay.width - lay.pad.right, y1: r.base, y2: r.base }), key);
    for (const c of r.cells) {
      if (!c.bar) continue; // not analysed: a gap
      const bar = svg('rect', { class: 'given-bar', x: c.bar.x.toFixed(1), y: c.bar.y.toFixed(1), width: c.bar.width.toFixed(1), height: c.bar.height.toFixed(1), 'data-testid': `given-away-bar-${c.number}-${r.seat}`, 'data-deal': c.number, 'data-points': c.points });
      const tip = svg('title');
      tip.textContent = t('race.point', { deal: num(c.deal), name: nameOf(r.seat), total: num(c.points) });
      bar.append(tip);
      group.append(bar);
      if (lay.labels) {
        const figure = svg('text', { class: 'race-label', x: c.x.toFixed(1), y: (c.bar.y - 2).toFixed(1), 'text-anchor': 'middle', 'aria-hidden': 'true' });
        figure.textContent = num(c.points);
        group.append(figure);
      }
    }
    chart.append(group);
  }
  return h('div', { class: 'given-row-box' }, caption, chart);
}

/**
 * The match page's part (views/history.js): per player the points given away in each analysed deal
 * and in the match (GET /api/matches/{id}/analysis), "Analyse" for each deal not analysed yet (POST,
 * then the match's figures asked again about every POLL_MS while one runs), a link to each analysed
 * deal's replay, and `chart`: the row of points given away per deal for under the race chart (`race`:
 * the race chart's {history, target, me}). `names` in seat order; `order` the seats as the page lists
 * them (the viewer first).
 */
export function createMatchAnalysis({ matchId, names, order, race = null }) {
  const n = names.length;
  let body = null;
  let error = null;
  let timer = null;
  let destroyed = false;
  const el = h('section', { class: 'card-panel analysis-block', 'data-testid': 'match-analysis', 'aria-labelledby': 'analysis-h', hidden: true });
  // under the race chart (the page places it): the points given away per deal, once one is analysed
  const chart = h('div', { class: 'given-row-slot', 'data-testid': 'given-away-slot', hidden: true });

  function stopPolling() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  async function refresh() {
    stopPolling();
    try {
      body = await api.matchAnalysis(matchId);
    } catch (err) {
      if (destroyed) return;
      if (!body) return; // nothing to show (an older server, or no access): the block stays hidden
      error = err;
    }
    if (destroyed) return;
    render();
    if (matchSummary(body, n).pending) timer = setTimeout(refresh, POLL_MS);
  }

  async function start(number) {
    error = null;
    try {
      const answer = await api.analyseDeal(matchId, number);
      const deal = body.deals.find((d) => d.number === number);
      if (deal) deal.status = answer.status;
    } catch (err) {
      error = err;
    }
    if (destroyed) return;
    render();
    refresh();
  }

  const seatFigure = (seat, value, testid) =>
    h(
      'span',
      { class: 'analysis-deal-seat', 'data-testid': testid, 'data-points': value === null ? '' : String(value) },
      `${names[seat]} `,
      h('strong', { class: 'num', text: value === null ? '—' : num(value) }),
    );

  function render() {
    const m = matchSummary(body, n);
    // A match with no finished deal has nothing to analyse: no block ("0 of 0 deals analysed").
    el.hidden = m.finished === 0 && !error;
    if (el.hidden) {
      chart.hidden = true;
      return;
    }
    chart.hidden = !(race && race.history.length && m.analysed);
    setChildren(chart, chart.hidden ? null : givenAwayRow({ summary: m, ...race, names }));
    setChildren(
      el,
      h('h2', { id: 'analysis-h', text: t('analysis.given_away') }),
      h('p', { class: 'muted', 'data-testid': 'match-analysed', 'data-analysed': m.analysed, text: tn('analysis.match_analysed', m.finished, { n: num(m.analysed), total: num(m.finished) }) }),
      m.analysed
        ? h(
            'p',
            { class: 'analysis-totals', 'data-testid': 'match-given-away' },
            h('strong', { text: t('analysis.match_total') }),
            order.map((seat) => seatFigure(seat, m.givenAway[seat], `match-given-away-${seat}`)),
          )
        : null,
      error ? h('p', { class: 'form-error', role: 'alert', 'data-testid': 'match-analysis-error', 'data-code': error.code, text: apiErrorText(error) }) : null,
      h(
        'ol',
        { class: 'analysis-deals' },
        m.deals.map((d) => {
          const label = t('history.deal_n', { n: num(d.number + 1) });
          let end;
          if (d.status === 'done') end = h('a', { class: 'btn ghost', href: replayHref(matchId, d.number), 'data-testid': `analysis-replay-${d.number}`, 'aria-label': t('replay.open_deal', { n: num(d.number + 1) }), text: '▶' });
          else if (d.status === 'queued' || d.status === 'running') end = h('span', { class: 'muted', role: 'status', text: t('analysis.deal_running') });
          else end = h('button', { type: 'button', class: 'btn', 'data-testid': `match-analyse-${d.number}`, 'aria-label': t('analysis.analyse_deal', { n: num(d.number + 1) }), onclick: () => start(d.number), text: t('analysis.analyse') });
          return h(
            'li',
            { 'data-testid': `analysis-deal-${d.number}`, 'data-status': d.status },
            h('span', { class: 'deal-label', text: label }),
            h('span', { class: 'analysis-deal-figures' }, d.givenAway ? order.map((seat) => seatFigure(seat, d.givenAway[seat], `analysis-deal-${d.number}-seat-${seat}`)) : null),
            end,
          );
        }),
      ),
    );
  }

  refresh();
  return {
    el,
    chart,
    destroy() {
      destroyed = true;
      stopPolling();
    },
  };
}
