// Head to head (`#/h2h/<id>,<id>[,…]`): two people, or the people of a table of three or four —
// per game their matches won and lost, deals, points per deal, marriages, contracts, the biggest
// win and the current streak, the money between them, and a chart and list of every match they
// played. Matches with a computer seat are a block of their own, never in the people's figures.
// Everything comes from GET /api/head-to-head (figures and a page of the list) and, asked at the same
// time, GET /api/head-to-head/series (the chart: every match, however many; docs/protocol.md).
// The client works nothing out.
import { api } from '../api.js';
import { h, setChildren } from '../dom.js';
import { formatDate, t, tn } from '../i18n.js';
import { getPlayer } from '../session.js';
import { h2hChart } from '../components/h2h-chart.js';
import { apiErrorText, endReasonWords, firstPlaceWords, loading, nameForm, num, playerName, settlementWords, signedNum } from '../ui.js';

const PAGE = 50;

/** A game kind's name (RATING_KINDS: the ratings and these figures are kept by the same kinds). */
function kindName(kind) {
  return t(`rating.kind.${kind}`);
}

function streakText(n) {
  if (n > 0) return tn('h2h.streak.won', n);
  if (n < 0) return tn('h2h.streak.lost', -n);
  return '—';
}


function average(value) {
  return value === null || value === undefined ? '—' : num(value);
}

/**
 * One game kind's figures: a row per figure, and only the rows with something to say (no shared
 * first place, no contract, no win with a lead: no row). A pair reads as a table of two columns;
 * three or four people as a card each (a table of four narrow columns broke words at 390 px).
 */
function kindTable(kind, names, testid) {
  const members = kind.members;
  const rows = [
    ['h2h.row.won', (m) => num(m.won), 'won'],
    // first place shared with another member (V0.10a: both stayed when a third left)
    members.some((m) => m.shared > 0) ? ['h2h.row.shared', (m) => num(m.shared ?? 0), 'shared'] : null,
    ['h2h.row.lost', (m) => num(m.lost), 'lost'],
    ['h2h.row.deals', (m) => num(m.deals), 'deals'],
    ['h2h.row.average', (m) => average(m.average_points), 'average'],
    ['h2h.row.marriages', (m) => num(m.marriages), 'marriages'],
    members.some((m) => m.contracts > 0) ? ['h2h.row.contracts', (m) => t('h2h.of', { made: num(m.contracts_made), all: num(m.contracts) }), 'contracts'] : null,
    // a win with a lead (the server keeps none for a win by a resignation while level or behind)
    members.some((m) => m.biggest_win && m.biggest_win.margin > 0) ? ['h2h.row.biggest', (m) => (m.biggest_win && m.biggest_win.margin > 0 ? signedNum(m.biggest_win.margin) : '—'), 'biggest'] : null,
    ['h2h.row.streak', (m) => streakText(m.streak), 'streak'],
  ].filter(Boolean);
  const title = h('h3', { class: 'h2h-kind-title' }, kindName(kind.kind), ' ', h('span', { class: 'muted', text: tn('h2h.matches', kind.matches) }));
  if (members.length > 2) {
    return h(
      'section',
      { class: 'h2h-kind', 'data-testid': testid, 'data-kind': kind.kind },
      title,
      h(
        'div',
        { class: 'h2h-cards' },
        members.map((m) =>
          h(
            'section',
            { class: 'h2h-card', 'data-player': m.player_id },
            h('h4', { class: 'h2h-card-name', title: names[m.player_id], text: names[m.player_id] }),
            h('dl', {}, rows.map(([label, value, key]) => h('div', { class: 'h2h-figure', 'data-row': key }, h('dt', { text: t(label) }), h('dd', { class: 'num', 'data-player': m.player_id, text: value(m) })))),
          ),
        ),
      ),
    );
  }
  return h(
    'section',
    { class: 'h2h-kind', 'data-testid': testid, 'data-kind': kind.kind },
    title,
    h(
      'table',
      { class: `data-table h2h-table cols-${members.length}` },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'visually-hidden', text: t('h2h.figure') })), members.map((m) => h('th', { scope: 'col', class: 'num h2h-name', title: names[m.player_id], text: names[m.player_id] })))),
      h(
        'tbody',
        {},
        rows.map(([label, value, key]) => h('tr', { 'data-row': key }, h('th', { scope: 'row', text: t(label) }), members.map((m) => h('td', { class: 'num', 'data-player': m.player_id, text: value(m) })))),
      ),
    ),
  );
}

function block(figures, names, testid, empty) {
  if (!figures.kinds.length) return h('p', { class: 'muted', 'data-testid': `${testid}-empty`, text: empty });
  return h('div', { class: 'h2h-kinds', 'data-testid': testid }, figures.kinds.map((k) => kindTable(k, names, `${testid}-${k.kind}`)));
}

/**
 * One match of the list: its totals and who came first, addressed to the reader, every name as the
 * other pages write it (the computer by its level in the page's language): "Ben resigned. You won",
 * "Ben left the match — you share the win with Cleo" (R6.2, ruling V0.10a).
 */
function matchItem(m, meId) {
  const name = (seat) => {
    const p = m.players[seat];
    return p.bot_level ? playerName(p, m.players) : p.name;
  };
  const places = m.players.map((p) => p.place);
  const me = m.players.findIndex((p) => p.id === meId);
  const n = places.length;
  const left = ['resign', 'absence'].includes(m.end_reason) && places.filter((place) => place === n).length === 1 ? places.indexOf(n) : null;
  const first = firstPlaceWords({ places, loser: left, me: me < 0 ? null : me, name });
  // at a table of two the words do not say who left: the reason first ("Ben resigned.")
  const reason = left !== null && n === 2 ? endReasonWords({ endReason: m.end_reason, loser: left, me: me < 0 ? null : me, name }) : null;
  const seated = m.players.map((p, seat) => `${name(seat)} ${num(p.total)}`).join(' · ');
  return h(
    'li',
    { class: 'h2h-match', 'data-testid': `h2h-match-${m.id}` },
    h('a', { class: 'h2h-date', href: `#/history/${encodeURIComponent(m.id)}`, text: formatDate(m.finished_at) || t('history.open') }),
    h('span', { class: 'match-game', text: kindName(m.kind) }),
    h('span', { class: 'h2h-totals num', text: seated }),
    h('span', { class: 'h2h-winner', 'data-testid': 'h2h-winner', 'data-left': left === null ? null : String(left), text: [reason, first].filter(Boolean).join(' ') }),
  );
}

export function mount(root, ids) {
  let destroyed = false;
  let shown = []; // the people's matches of the list loaded so far, newest first
  let total = 0;

  async function render() {
    root.replaceChildren();
    const me = getPlayer();
    if (!me) {
      root.append(h('section', { class: 'hero compact' }, h('h1', { text: t('h2h.title') })), nameForm(render));
      return;
    }
    const panel = h('div', { class: 'h2h', 'data-testid': 'h2h' }, loading());
    root.append(h('p', {}, h('a', { href: '#/history', class: 'btn ghost back-link', text: t('history.back') })), panel);
    let data;
    // The chart's series at the same time as the figures; its failure costs the chart alone.
    const series = api.headToHeadSeries(ids).then((found) => ({ found }), (err) => ({ err }));
    try {
      data = await api.headToHead(ids, { limit: PAGE });
    } catch (err) {
      if (!destroyed) setChildren(panel, h('p', { class: 'form-error', 'data-testid': 'h2h-error', text: apiErrorText(err) }));
      return;
    }
    if (destroyed) return;
    shown = data.matches.items;
    total = data.matches.total;
    const names = Object.fromEntries(data.players.map((p) => [p.id, p.name]));
    const members = data.players.map((p) => p.id);
    const title = members.length === 2 ? t('h2h.pair', { a: names[members[0]], b: names[members[1]] }) : t('h2h.group', { names: members.map((id) => names[id]).join(', ') });

    const chartBox = h('div', { class: 'h2h-chart-box' }, loading());
    const list = h('ul', { class: 'h2h-matches', 'data-testid': 'h2h-matches' });
    const more = h('button', { type: 'button', class: 'btn ghost', 'data-testid': 'h2h-more', text: t('h2h.more') });
    const moreBox = h('div', { class: 'h2h-more' });
    const drawChart = ({ found, err }) => {
      if (err) return setChildren(chartBox, h('p', { class: 'form-error', 'data-testid': 'h2h-chart-error', text: apiErrorText(err) }));
      if (!found.points.length) return setChildren(chartBox, h('p', { class: 'muted', text: t('h2h.none') }));
      const note = found.truncated ? h('p', { class: 'muted h2h-chart-note', 'data-testid': 'h2h-chart-note', text: t('h2h.chart.shown', { shown: num(found.points.length), total: num(data.people.matches) }) }) : null;
      const chart = h2hChart({ points: found.points, members: found.players, names });
      const span = Number(chart.dataset.window);
      const trend = span ? h('p', { class: 'muted h2h-chart-note', 'data-testid': 'h2h-chart-trend', text: tn('h2h.chart.trend', span) }) : null;
      return setChildren(chartBox, [chart, trend, note]);
    };
    const drawMatches = () => {
      setChildren(list, shown.map((m) => matchItem(m, me.id)));
      setChildren(moreBox, shown.length < total ? more : null);
    };
    more.addEventListener('click', async () => {
      more.disabled = true;
      try {
        const next = await api.headToHead(ids, { limit: PAGE, offset: shown.length });
        if (destroyed) return;
        shown = shown.concat(next.matches.items);
        total = next.matches.total;
        drawMatches();
      } catch (err) {
        more.after(h('p', { class: 'form-error', text: apiErrorText(err) }));
      } finally {
        more.disabled = false;
      }
    });

    // The computer block's own list, loaded when asked for.
    const computerList = h('ul', { class: 'h2h-matches', 'data-testid': 'h2h-computer-matches' });
    const showComputers = h('button', { type: 'button', class: 'btn ghost', 'data-testid': 'h2h-computer-show', text: t('h2h.computers.show') });
    const computerBox = h('div', { class: 'h2h-more' }, data.computers.matches ? showComputers : null);
    showComputers.addEventListener('click', async () => {
      showComputers.disabled = true;
      try {
        const found = await api.headToHead(ids, { computers: true, limit: PAGE });
        if (!destroyed) setChildren(computerList, found.matches.items.map((m) => matchItem(m, me.id)));
        computerBox.replaceChildren();
      } catch (err) {
        showComputers.after(h('p', { class: 'form-error', text: apiErrorText(err) }));
      } finally {
        showComputers.disabled = false;
      }
    });

    const people = data.people.matches > 0; // matches of people only: else no list, chart or count
    const money = data.money.length
      ? h('ul', { class: 'settlements', 'data-testid': 'h2h-money' }, data.money.map((d) => {
          const mine = d.debtor_id === me.id ? 'debtor' : d.creditor_id === me.id ? 'creditor' : null;
          return h('li', { 'data-amount': d.amount, 'data-currency': d.currency, text: settlementWords({ debtor: names[d.debtor_id], creditor: names[d.creditor_id], amount: d.amount, currency: d.currency }, mine) });
        }))
      : h('p', { class: 'muted', 'data-testid': 'h2h-money', text: t('history.settled') });

    setChildren(
      panel,
      // Nothing is said of what is not there: no "0 matches", no empty list, chart or money card.
      h('section', { class: 'hero compact' }, h('h1', { 'data-testid': 'h2h-title', text: title }), data.people.matches ? h('p', { class: 'muted', 'data-testid': 'h2h-count', text: tn('h2h.matches.all', data.people.matches) }) : null),
      h(
        'div',
        { class: 'h2h-grid' },
        h('section', { class: 'card-panel', 'aria-labelledby': 'h2h-people-h' }, h('h2', { id: 'h2h-people-h', text: t('h2h.people') }), block(data.people, names, 'h2h-people', t('h2h.none'))),
        people || data.money.length
          ? h(
              'div',
              { class: 'h2h-side' },
              h('section', { class: 'card-panel', 'aria-labelledby': 'h2h-money-h' }, h('h2', { id: 'h2h-money-h', text: t('h2h.money') }), money),
              people ? h('section', { class: 'card-panel', 'aria-labelledby': 'h2h-chart-h' }, h('h2', { id: 'h2h-chart-h', text: t('h2h.chart.heading') }), chartBox) : null,
            )
          : null,
      ),
      people ? h('section', { class: 'card-panel', 'aria-labelledby': 'h2h-list-h', 'data-testid': 'h2h-list' }, h('h2', { id: 'h2h-list-h', text: t('h2h.list') }), list, moreBox) : null,
      h(
        'section',
        { class: 'card-panel h2h-computers', 'aria-labelledby': 'h2h-comp-h', 'data-testid': 'h2h-computers-block' },
        h('h2', { id: 'h2h-comp-h', text: t('h2h.computers') }),
        data.computers.matches ? h('p', { class: 'muted', text: tn('h2h.computers.note', data.computers.matches) }) : null,
        block(data.computers, names, 'h2h-computers', t('h2h.computers.none')),
        computerBox,
        computerList,
      ),
    );
    drawMatches();
    const drawn = await series;
    if (!destroyed && people) drawChart(drawn);
  }

  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
    },
  };
}
