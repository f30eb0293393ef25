// The end of a deal: card points, marriages, deal score and the new totals, over the felt until the
// players close it (or it times out); the next hand waits behind it (store: `held`).
import { SUIT_SYMBOL } from '../cards.js';
import { h, setChildren } from '../dom.js';
import { t } from '../i18n.js';
import { isRing, mySeat, oppSeat, matchOver } from './store.js';
import { ringSummaryTable } from './ringsummary.js';
import { plainName, shortName } from './names.js';

export const SUMMARY_MS = 12000;

/** A deal's result as one small table: a row per player, cards · marriages · deal · total. */
export function summaryTable(s, event, declarations) {
  const me = mySeat(s);
  const opp = oppSeat(s);
  const declText = (seat) => {
    const list = (declarations || []).filter((x) => x.seat === seat);
    return list.length ? list.map((x) => `${SUIT_SYMBOL[x.suit]}${x.points}`).join(' ') : '—';
  };
  const voided = [me, opp].filter((seat) => (declarations || []).some((x) => x.seat === seat) && event.declaration_points[seat] === 0);
  const row = (seat) =>
    h(
      'tr',
      { 'data-testid': seat === me ? 'summary-row-me' : 'summary-row-opponent' },
      h('th', { scope: 'row', class: 'who', title: plainName(s, seat), text: shortName(s, seat) }),
      h('td', { 'data-testid': 'summary-card-points', text: String(event.card_points[seat]) }),
      h('td', { class: voided.includes(seat) ? 'voided' : '', 'data-testid': 'summary-declarations', text: declText(seat) }),
      h('td', { class: 'gain', 'data-testid': 'summary-score', text: `+${event.score[seat]}` }),
      h('td', { class: 'tot', 'data-testid': 'summary-total', text: String(event.totals[seat]) }),
    );
  return h(
    'div',
    { class: 'summary' },
    h(
      'table',
      { class: 'summary-table' },
      h('thead', {}, h('tr', {}, h('td', {}), [t('history.col.cards'), t('history.col.decl'), t('history.col.deal'), t('history.col.total')].map((x) => h('th', { scope: 'col', text: x })))),
      h('tbody', {}, row(me), row(opp)),
    ),
    voided.map((seat) => h('p', { class: 'muted small voided-note', text: t('summary.voided', { name: plainName(s, seat) }) })),
  );
}

export function createSummary({ onClose }) {
  const el = h('div', { class: 'deal-summary-slot' });
  let shownKey = null;

  function render(s) {
    const sum = s.summary;
    if (!sum || !sum.open || matchOver(s)) {
      shownKey = null;
      el.replaceChildren();
      return;
    }
    const key = `${sum.matchId}|${sum.event.number}|${t('summary.title', { n: 1 })}`;
    if (key === shownKey) return;
    shownKey = key;
    const ring = isRing(s);
    const title = ring && sum.event.thrown_in ? t('ring.thrown_in_title', { n: sum.event.number + 1 }) : t('summary.title', { n: sum.event.number + 1 });
    setChildren(
      el,
      h(
        'section',
        { class: 'deal-summary', 'data-testid': 'deal-summary', 'data-deal': String(sum.event.number), 'data-match': String(sum.matchId), role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'deal-summary-h', style: `--summary-ms:${SUMMARY_MS}ms` },
        h('h2', { id: 'deal-summary-h', text: title }),
        ring ? ringSummaryTable(s, sum.event, sum.declarations) : summaryTable(s, sum.event, sum.declarations),
        h('div', { class: 'summary-actions' }, h('button', { type: 'button', class: 'btn primary', 'data-testid': 'deal-summary-close', title: t('summary.close'), text: t('summary.continue'), onclick: onClose })),
        h('div', { class: 'summary-timer', 'aria-hidden': 'true' }),
      ),
    );
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
