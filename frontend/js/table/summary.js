// Results at the table, for every seat count: the deal summary over the felt (card points, marriages,
// the deal points and the Jungfrau bonus where they differ from the score, the contract made or failed,
// the score and the new totals; a thrown-in deal), until the players close it or it times out — the
// next hand waits behind it (store: `held`); the score sheet with a column per seat; and the final
// standings in the view's own places. Rows and columns come from the result (model.js), the
// places from the server: nothing here decides who won.
import { SUIT_SYMBOL } from '../cards.js';
import { h, prefersReducedMotion, setChildren } from '../dom.js';
import { getLang, t, tn } from '../i18n.js';
import { fitName } from '../fit.js';
import { nameCandidates, plainName, seatColour, seatInitial, seatTag, shortName } from './names.js';
import { seatsFromMe, signed, standings, summaryColumns, summaryRows, total } from './model.js';
import { isMe, matchOver, mySeat, seatCount, viewOf } from './store.js';

export const SUMMARY_MS = 12000;
const COUNT_DELAY_MS = 1200; // the summary has faded in (css: summary-in 0.3 s after 0.9 s)
const COUNT_MS = 700;

/** One line on the contract (V0.8): made or failed, by whom, with how many points; or the throw-in (V0.6a). */
export function contractLine(s, result) {
  if (result.thrown_in) return h('p', { class: 'contract-result thrown-in', 'data-testid': 'summary-thrown-in', text: t('ring.thrown_in') });
  if (result.declarer === null || result.declarer === undefined) return null;
  const points = (result.deal_points || [])[result.declarer] ?? 0;
  const params = { name: plainName(s, result.declarer), n: result.contract, points };
  // "You" only for a player's own contract: a spectator (or the replay) names every declarer.
  const key = isMe(s, result.declarer) ? (result.made ? 'ring.you_made' : 'ring.you_failed') : result.made ? 'ring.contract_made' : 'ring.contract_failed';
  return h(
    'p',
    { class: `contract-result ${result.made ? 'made' : 'failed'}`, 'data-testid': 'summary-contract', 'data-made': String(Boolean(result.made)), 'data-declarer': String(result.declarer), 'data-contract': String(result.contract) },
    h('span', { class: 'mark', 'aria-hidden': 'true', text: result.made ? '✓' : '✗' }),
    ' ',
    tn(key, points, params), // the plural follows the points ({n} is the contract)
  );
}

/** A name that may wrap between its words only (not at a hyphen inside one): a span per word. */
const words = (name) => String(name).split(/(\s+)/).map((w) => (/^\s+$/.test(w) || !w ? w : h('span', { class: 'word', text: w })));

/** A deal's result (a `deal_over` event or a history record) as a table: a row per seat, me first. */
export function summaryTable(s, result, declarations) {
  const me = mySeat(s);
  const v = viewOf(s);
  const rows = summaryRows(result, seatCount(s), me);
  const cols = summaryColumns(rows, v && v.rules);
  const declText = (seat) => {
    const list = (declarations || []).filter((x) => x.seat === seat);
    return list.length ? list.map((x) => `${SUIT_SYMBOL[x.suit]}${x.points}`).join(' ') : '—';
  };
  // R3: a marriage counts only for a player who took a trick
  const voided = rows.filter((r) => (declarations || []).some((x) => x.seat === r.seat) && r.declarationPoints === 0);
  const heads = [t('history.col.cards'), t('history.col.decl'), cols.dealPoints ? t('ring.col.deal_points') : null, cols.jungfrau ? t('ring.col.jungfrau') : null, t('history.col.deal'), t('history.col.total')].filter(Boolean);
  const row = (r) =>
    h(
      'tr',
      { 'data-testid': r.me ? 'summary-row-me' : `summary-row-${r.seat}`, 'data-seat': String(r.seat), class: r.declarer ? `declarer ${result.made ? 'made' : 'failed'}` : '' },
      h('th', { scope: 'row', class: `who seat-c${seatColour(s, r.seat)}`, 'data-initial': seatInitial(s, r.seat), title: plainName(s, r.seat) }, h('span', { class: 'who-name' }, words(shortName(s, r.seat))), r.declarer ? h('span', { class: 'decl-mark', text: t('ring.plays', { n: result.contract }) }) : null),
      h('td', { 'data-testid': 'summary-card-points', text: String(r.cardPoints) }),
      h('td', { class: voided.includes(r) ? 'voided' : '', 'data-testid': 'summary-declarations', text: declText(r.seat) }),
      cols.dealPoints ? h('td', { 'data-testid': 'summary-deal-points', text: String(r.dealPoints) }) : null,
      cols.jungfrau ? h('td', { 'data-testid': 'summary-jungfrau', text: r.jungfrau ? `+${r.jungfrau}` : '—' }) : null,
      h('td', { class: `gain${r.score < 0 ? ' loss' : ''}`, 'data-testid': 'summary-score', text: signed(r.score) }),
      h('td', { class: 'tot', 'data-testid': 'summary-total', 'data-total': String(r.total), 'data-from': String(r.total - r.score), text: total(r.total) }),
    );
  return h(
    'div',
    { class: 'summary' },
    contractLine(s, result),
    result.thrown_in
      ? null
      : h(
          'table',
          { class: 'summary-table', 'data-n': String(rows.length) },
          h('thead', {}, h('tr', {}, h('td', {}), heads.map((x) => h('th', { scope: 'col', text: x })))),
          h('tbody', {}, rows.map(row)),
        ),
    voided.map((r) => h('p', { class: 'muted small voided-note', text: t('summary.voided', { name: plainName(s, r.seat) }) })),
    rows.some((r) => r.jungfrau) ? h('p', { class: 'muted small', text: t('ring.jungfrau_note') }) : null,
  );
}

/** The score sheet: a row per deal, a column per seat (me first); the declarer's cell marked. */
export function scoreSheet(s, history) {
  const order = seatsFromMe(seatCount(s), mySeat(s));
  if (!history.length) return h('p', { class: 'muted small', text: t('sheet.empty') });
  // three or four narrow columns may show only the tags: the whole names below, tag by tag
  const legend =
    order.length > 2
      ? h('ul', { class: 'sheet-legend', 'data-testid': 'sheet-legend', 'aria-hidden': 'true' }, order.map((seat) => h('li', {}, seatTag(s, seat), h('span', { class: 'sheet-legend-name', text: plainName(s, seat) }))))
      : null;
  return h(
    'div',
    { class: 'sheet-scroll', tabindex: '0', role: 'region', 'aria-label': t('sheet.title') },
    legend,
    h(
      'table',
      { class: 'sheet', 'data-n': String(order.length) },
      h('caption', { class: 'visually-hidden', text: t('sheet.title') }),
      // a column per seat under its tag and colour (as on the felt), its name when it fits (fit.js)
      h('colgroup', {}, h('col', { class: 'sheet-no' }), order.map((seat) => h('col', { class: `seat-col seat-c${seatColour(s, seat)}` }))),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', text: '#' }),
          order.map((seat) =>
            h(
              'th',
              { scope: 'col', class: `seat-head seat-c${seatColour(s, seat)}`, 'data-seat': String(seat), 'data-colour': String(seatColour(s, seat)), 'aria-label': plainName(s, seat) },
              h('span', { class: 'sheet-who' }, seatTag(s, seat), fitName('span', { class: 'sheet-name', 'data-testid': `sheet-name-${seat}`, title: plainName(s, seat) }, [shortName(s, seat), ...nameCandidates(s, seat, shortName(s, seat)).slice(1)])),
            ),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        history.map((r) =>
          h(
            'tr',
            { 'data-testid': `sheet-row-${r.number}`, class: r.thrown_in ? 'thrown-in' : '' },
            h('th', { scope: 'row', text: String(r.number + 1) }),
            order.map((seat) =>
              h(
                'td',
                { class: `seat-c${seatColour(s, seat)}${r.declarer === seat ? ` declarer ${r.made ? 'made' : 'failed'}` : ''}`, title: r.declarer === seat ? t(r.made ? 'ring.contract_made_short' : 'ring.contract_failed_short', { n: r.contract }) : null },
                h('span', { class: `gain${(r.score[seat] ?? 0) < 0 ? ' loss' : ''}`, text: r.thrown_in ? '—' : signed(r.score[seat]) }),
                h('span', { class: 'tot', text: total(r.totals[seat]) }),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * The final standings in the view's places (R5, ruling V0.9; the one who left last, R6.2 / V0.10a):
 * each row says its place, the first place (shared on equal totals) is marked the winner, and the
 * one who resigned or stayed away says so in words (no strike-through that could hide a leader).
 */
export function standingsList(s) {
  const v = viewOf(s);
  const tag = v.end_reason === 'absence' ? t('match.tag.absent') : t('match.tag.resigned');
  return h(
    'ol',
    { class: 'standings', 'data-testid': 'final-standings' },
    standings(v.totals, v.places).map(({ seat, total: points, place }) =>
      h(
        'li',
        {
          'data-testid': `standing-${seat}`,
          'data-total': String(points),
          'data-place': place === null ? null : String(place),
          class: `${place === 1 ? 'winner' : ''}${seat === v.loser ? ' loser' : ''}${isMe(s, seat) ? ' me' : ''}`.trim(),
        },
        // equal totals share a place (1, 2, 2, 4): the number is written, not counted by the list
        h('span', { class: 'place', 'data-testid': 'standing-place', text: place === null ? '' : t('match.place', { n: place }) }),
        h('span', { class: 'who', text: isMe(s, seat) ? t('table.you_named', { name: plainName(s, seat) }) : plainName(s, seat) }),
        place === 1 ? h('span', { class: 'standing-tag winner-tag', 'data-testid': 'standing-winner', text: t('match.tag.winner') }) : null,
        seat === v.loser && v.end_reason !== 'target' ? h('span', { class: 'standing-tag loser-tag', 'data-testid': 'standing-left', text: tag }) : null,
        h('strong', { text: total(points) }),
      ),
    ),
  );
}

export function createSummary({ onClose }) {
  const el = h('div', { class: 'deal-summary-slot' });
  let shownKey = null;
  let countedKey = null;

  let counting = 0; // the count-up running: a newer one (or none) stops it

  /**
   * The new totals count up from the old ones once the summary is in (issue 22); `data-counted` says
   * when they stand. With reduced motion they stand at once.
   */
  function countUp(section) {
    const run = ++counting;
    const cells = [...section.querySelectorAll('[data-testid="summary-total"]')];
    const settle = () => {
      if (run !== counting) return;
      for (const c of cells) c.textContent = total(Number(c.dataset.total));
      section.dataset.counted = 'true';
    };
    if (!cells.length || prefersReducedMotion() || typeof requestAnimationFrame !== 'function') {
      settle();
      return;
    }
    section.dataset.counted = 'false';
    for (const c of cells) c.textContent = total(Number(c.dataset.from));
    const start = performance.now() + COUNT_DELAY_MS;
    const step = (now) => {
      if (run !== counting || !section.isConnected) return;
      const p = Math.max(0, Math.min(1, (now - start) / COUNT_MS));
      if (p >= 1) return settle();
      const eased = 1 - (1 - p) ** 3;
      for (const c of cells) c.textContent = total(Math.round(Number(c.dataset.from) + (Number(c.dataset.total) - Number(c.dataset.from)) * eased));
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
    setTimeout(settle, COUNT_DELAY_MS + COUNT_MS + 200); // a hidden tab runs no frames
  }

  function render(s) {
    const sum = s.summary;
    if (!sum || !sum.open || matchOver(s)) {
      shownKey = null;
      counting++;
      if (el.firstChild) el.replaceChildren();
      return;
    }
    const key = `${sum.matchId}|${sum.event.number}|${getLang()}`; // drawn again for another language
    if (key === shownKey) return;
    shownKey = key;
    const title = sum.event.thrown_in ? t('ring.thrown_in_title', { n: sum.event.number + 1 }) : t('summary.title', { n: sum.event.number + 1 });
    setChildren(
      el,
      h(
        'section',
        { class: 'deal-summary', 'data-testid': 'deal-summary', 'data-deal': String(sum.event.number), 'data-match': String(sum.matchId), role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'deal-summary-h', style: `--summary-ms:${SUMMARY_MS}ms` },
        h('h2', { id: 'deal-summary-h', text: title }),
        summaryTable(s, sum.event, sum.declarations),
        h('div', { class: 'summary-actions' }, h('button', { type: 'button', class: 'btn primary', 'data-testid': 'deal-summary-close', title: t('summary.close'), text: t('summary.continue'), onclick: onClose })),
        h('div', { class: 'summary-timer', 'aria-hidden': 'true' }),
      ),
    );
    const fresh = key.split('|').slice(0, 2).join('|') !== countedKey; // not again for a new language
    countedKey = key.split('|').slice(0, 2).join('|');
    const section = el.querySelector('.deal-summary');
    if (fresh) countUp(section);
    else section.dataset.counted = 'true';
  }

  return {
    el,
    render,
    focus() {
      const b = el.querySelector('[data-testid="deal-summary-close"]');
      if (b) b.focus({ preventScroll: true });
    },
  };
}
