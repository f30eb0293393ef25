// Results at a table of 3 or 4 seats (V2–V7): the deal summary (card points, declarations, deal
// points, the Jungfrau bonus, the contract made or failed, the score and the totals), a thrown-in
// deal ("everybody passed"), the score sheet with a column per seat, and the final standings.
import { SUIT_SYMBOL } from '../cards.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { plainName, shortName } from './names.js';
import { seatCountOf, seatsFromMe, signed, standings, summaryRows } from './nseat.js';
import { isMe, mySeat, viewOf } from './store.js';

const nOf = (s) => seatCountOf(viewOf(s));

/** One line on the contract: made or failed, by whom, with how many points; or the throw-in. */
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
    t(key, params),
  );
}

/** The deal's result as a table: a row per seat (me first, then clockwise). */
export function ringSummaryTable(s, result, declarations) {
  const me = mySeat(s);
  const n = nOf(s);
  const rows = summaryRows(result, n, me);
  const bonus = rows.some((r) => r.jungfrau) || Boolean(viewOf(s).rules && viewOf(s).rules.jungfrau);
  const declText = (seat) => {
    const list = (declarations || []).filter((x) => x.seat === seat);
    return list.length ? list.map((x) => `${SUIT_SYMBOL[x.suit]}${x.points}`).join(' ') : '—';
  };
  const voided = rows.filter((r) => (declarations || []).some((x) => x.seat === r.seat) && r.declarationPoints === 0);
  const heads = [t('history.col.cards'), t('history.col.decl'), t('ring.col.deal_points'), bonus ? t('ring.col.jungfrau') : null, t('history.col.deal'), t('history.col.total')].filter(Boolean);
  const row = (r) =>
    h(
      'tr',
      { 'data-testid': r.me ? 'summary-row-me' : `summary-row-${r.seat}`, 'data-seat': String(r.seat), class: r.declarer ? `declarer ${result.made ? 'made' : 'failed'}` : '' },
      h('th', { scope: 'row', class: 'who', title: plainName(s, r.seat) }, shortName(s, r.seat), r.declarer ? h('span', { class: 'decl-mark', text: t('ring.plays', { n: result.contract }) }) : null),
      h('td', { 'data-testid': 'summary-card-points', text: String(r.cardPoints) }),
      h('td', { class: voided.includes(r) ? 'voided' : '', 'data-testid': 'summary-declarations', text: declText(r.seat) }),
      h('td', { 'data-testid': 'summary-deal-points', text: String(r.dealPoints) }),
      bonus ? h('td', { 'data-testid': 'summary-jungfrau', text: r.jungfrau ? `+${r.jungfrau}` : '—' }) : null,
      h('td', { class: `gain${r.score < 0 ? ' loss' : ''}`, 'data-testid': 'summary-score', text: signed(r.score) }),
      h('td', { class: 'tot', 'data-testid': 'summary-total', text: r.total < 0 ? `−${-r.total}` : String(r.total) }),
    );
  return h(
    'div',
    { class: 'summary ring-summary' },
    contractLine(s, result),
    result.thrown_in
      ? null
      : h(
          'table',
          { class: 'summary-table' },
          h('thead', {}, h('tr', {}, h('td', {}), heads.map((x) => h('th', { scope: 'col', text: x })))),
          h('tbody', {}, rows.map(row)),
        ),
    voided.map((r) => h('p', { class: 'muted small voided-note', text: t('summary.voided', { name: plainName(s, r.seat) }) })),
    rows.some((r) => r.jungfrau) ? h('p', { class: 'muted small', text: t('ring.jungfrau_note') }) : null,
  );
}

/** The score sheet: a row per deal, a column per seat (me first); the declarer's cell marked. */
export function ringScoreSheet(s, history) {
  const me = mySeat(s);
  const order = seatsFromMe(nOf(s), me);
  if (!history.length) return h('p', { class: 'muted small', text: t('sheet.empty') });
  return h(
    'div',
    { class: 'sheet-scroll', tabindex: '0', role: 'region', 'aria-label': t('sheet.title') },
    h(
      'table',
      { class: 'sheet ring-sheet' },
      h('caption', { class: 'visually-hidden', text: t('sheet.title') }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: '#' }), order.map((seat) => h('th', { scope: 'col', title: plainName(s, seat), text: shortName(s, seat) })))),
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
                { class: r.declarer === seat ? `declarer ${r.made ? 'made' : 'failed'}` : '', title: r.declarer === seat ? t(r.made ? 'ring.contract_made_short' : 'ring.contract_failed_short', { n: r.contract }) : null },
                h('span', { class: `gain${(r.score[seat] ?? 0) < 0 ? ' loss' : ''}`, text: r.thrown_in ? '—' : signed(r.score[seat]) }),
                h('span', { class: 'tot', text: (r.totals[seat] ?? 0) < 0 ? `−${-r.totals[seat]}` : String(r.totals[seat] ?? 0) }),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** The final standings: every seat by total, the winner first (or the one who left marked). */
export function ringStandings(s) {
  const v = viewOf(s);
  const me = mySeat(s);
  return h(
    'ol',
    { class: 'ring-standings', 'data-testid': 'final-standings' },
    standings(v.totals).map(({ seat, total }) =>
      h(
        'li',
        { 'data-testid': `standing-${seat}`, 'data-total': String(total), class: `${seat === v.winner ? 'winner' : ''}${seat === v.loser ? ' loser' : ''}${seat === me ? ' me' : ''}` },
        h('span', { class: 'who', text: seat === me ? t('table.you_named', { name: plainName(s, seat) }) : plainName(s, seat) }),
        h('strong', { text: total < 0 ? `−${-total}` : String(total) }),
      ),
    ),
  );
}
