// Match history: my matches, one match's score sheet, and the ledger per opponent — for matches of
// two, three or four players (the lists `players`, `totals` and each deal's have n entries).
import { api, asList } from '../api.js';
import { h, setChildren } from '../dom.js';
import { formatDate, t, tn } from '../i18n.js';
import { SUIT_SYMBOL, suitBadge } from '../cards.js';
import { raceChart } from '../components/race-chart.js';
import { createMatchAnalysis } from '../components/analysis.js';
import { downloadButton } from './replay.js';
import { getPlayer } from '../session.js';
import { DEFAULT_CURRENCY, apiErrorText, botName, currencyLabel, endReasonWords, h2hHref, isZeroAmount, loading, money, nameForm, num, playerName, ratingText, settlementWords, sharedWinWords, signedNum } from '../ui.js';
import { TWO_HAND, gameName, gameOf, tableSummary } from '../games.js';

// ---------------------------------------------------------------- normalising server data

function pick(obj, ...keys) {
  for (const key of keys) if (obj && obj[key] !== undefined && obj[key] !== null) return obj[key];
  return undefined;
}

function seatOfMe(m, meId) {
  const seat = pick(m, 'seat', 'my_seat');
  if (Number.isInteger(seat) && seat >= 0) return seat;
  const players = m.players || [];
  const i = players.findIndex((p) => p && (p.id === meId || p.player_id === meId));
  return i < 0 ? 0 : i;
}

/** The players in seat order (n = 2, 3 or 4): [{id, name, bot, place, result}] — the computer named by its level. */
function seatedPlayers(m) {
  const players = [...(m.players || [])].sort((a, b) => (a?.seat ?? 0) - (b?.seat ?? 0));
  const n = Math.max(players.length, (pick(m, 'totals') || []).length, 2);
  return Array.from({ length: n }, (_, i) => {
    const p = players.find((x) => x && x.seat === i) || players[i] || {};
    return { id: p.id || p.player_id || null, name: p.bot_level ? playerName(p, players) : p.name || '?', bot: p.bot_level || null, place: p.place ?? null, result: p.result ?? null };
  });
}

/**
 * One match as {id, seat, players, others, totals, result, places, …}. The server ranks every seat
 * once the match is over (`place` 1 the best, `result` won or lost: the leaver last, equal totals
 * sharing a place): the client never works out who won.
 */
export function normaliseMatch(m, meId) {
  const seat = seatOfMe(m, meId);
  const players = seatedPlayers(m);
  const n = players.length;
  // The others in play order from the viewer: the seat after mine first.
  const others = Array.from({ length: n - 1 }, (_, k) => (seat + 1 + k) % n);
  const totals = pick(m, 'totals') || [pick(m, 'total0') ?? 0, pick(m, 'total1') ?? 0];
  const options = pick(m, 'options', 'rules') || {};
  return {
    id: m.id || m.match_id,
    seat,
    n,
    players,
    others,
    names: players.map((p) => p.name),
    // everyone else, in play order (for two: the opponent)
    opponentName: others.map((s) => players[s].name).join(', '),
    opponentBot: others.map((s) => players[s].bot).find(Boolean) || null,
    totals,
    result: pick(m, 'result') ?? players[seat].result ?? null, // mine: won (first place) or lost
    places: pick(m, 'places') || null,
    status: pick(m, 'status') || 'playing',
    endReason: pick(m, 'end_reason', 'reason'),
    date: pick(m, 'finished_at', 'ended_at', 'started_at', 'created_at'),
    target: pick(m, 'target') || options.target,
    options,
    // every settlement of the match (R6, V0.10: each loser to the winner)
    settlements: asSettlements(pick(m, 'settlements', 'stakes', 'settlement')),
    deals: pick(m, 'deals', 'history') || [],
    // per seat: what the match did to the rating (null: unrated, or a computer at the table)
    ratings: Array.isArray(m.rating_changes) ? m.rating_changes : [],
  };
}

/** The people of a match (the viewer first, then the others in play order) for its head-to-head
 * page, or null when the viewer played computers only. */
function peopleOf(m, meId) {
  const others = m.others.map((s) => m.players[s]).filter((p) => p.id && !p.bot && p.id !== meId);
  return others.length ? [meId, ...others.map((p) => p.id)] : null;
}

function asSettlements(value) {
  if (Array.isArray(value)) return value.filter((x) => x && x.amount !== undefined);
  return value && value.amount !== undefined ? [value] : [];
}

/** A settlement in words from the viewer's side: "you owe B €1", "B owes you €1", "B owes C €1". */
function settlementText(x, m, meId) {
  const nameOf = (id, seat) => {
    const i = Number.isInteger(seat) ? seat : m.players.findIndex((p) => p.id === id);
    return i >= 0 && m.players[i] ? m.players[i].name : '?';
  };
  const debtor = nameOf(x.debtor_id, x.debtor_seat);
  const creditor = nameOf(x.creditor_id, x.creditor_seat);
  if (isZeroAmount(x.amount)) return t('history.settlement.even', { debtor, creditor });
  const mine = x.debtor_id === meId || x.debtor_seat === m.seat ? 'debtor' : x.creditor_id === meId || x.creditor_seat === m.seat ? 'creditor' : null;
  return settlementWords({ debtor, creditor, amount: x.amount, currency: x.currency }, mine);
}

/** What was owed (R6, V0.10): the viewer's own settlements, else every one; a friendly match owes nothing. */
function matchStakeText(m, meId) {
  const paid = m.settlements.filter((x) => !isZeroAmount(x.amount));
  if (!paid.length) return isZeroAmount(m.options.stake_per_point ?? '0') ? t('history.friendly') : money('0', m.options.currency);
  const mine = paid.filter((x) => x.debtor_id === meId || x.creditor_id === meId || x.debtor_seat === m.seat || x.creditor_seat === m.seat);
  return (mine.length ? mine : paid).map((x) => settlementText(x, m, meId)).join(' · ');
}

/** "120 : 80" for two; for more the viewer first, then the others in play order. */
function scoreText(m) {
  return [m.seat, ...m.others].map((s) => num(m.totals[s] ?? 0)).join(' : ');
}

/** My result as the server ranked it: won (first place, shared or alone) or lost; in progress before. */
function resultLabel(m) {
  const place = myPlace(m);
  const result = m.result || (place === null ? null : place === 1 ? 'won' : 'lost');
  if (m.status !== 'finished' || !result) return { text: t('history.in_progress'), cls: 'playing', result: 'playing' };
  return result === 'won' ? { text: t('history.won'), cls: 'won', result } : { text: t('history.lost'), cls: 'lost', result };
}

/** Every seat's place once the match is over (the server's: 1 the best, the leaver last), else null. */
function placesOf(m) {
  if (Array.isArray(m.places) && m.places.length === m.n) return m.places;
  return m.players.every((p) => Number.isInteger(p.place)) ? m.players.map((p) => p.place) : null;
}

function myPlace(m) {
  const places = placesOf(m);
  return places ? places[m.seat] : null;
}

/** The seats in first place (one winner, or a first place shared on equal totals). */
function winnerSeats(m) {
  const places = placesOf(m);
  if (m.status !== 'finished' || !places) return [];
  return places.map((place, seat) => (place === 1 ? seat : null)).filter((seat) => seat !== null);
}

/** The seat that resigned or stayed away (R6.2): last, the only one not first (V0.10a); else null. */
function leaverOf(m) {
  const places = placesOf(m);
  if (m.status !== 'finished' || !places || !['resign', 'absence'].includes(m.endReason)) return null;
  const last = places.indexOf(m.n);
  return last >= 0 && places.filter((place) => place === m.n).length === 1 ? last : null;
}

/**
 * "Winner: Anna" — the viewer called "you"; a match left at a table of three or four in players'
 * words, "Ben left the match — you share the win with Cleo" (R6.2, ruling V0.10a).
 */
function winnerLine(m, names, testid) {
  const seats = winnerSeats(m);
  if (!seats.length) return null;
  const shared = sharedWinWords({ places: placesOf(m), loser: leaverOf(m), me: m.seat, name: (s) => names[s] });
  if (shared) return h('span', { class: 'match-winner', 'data-testid': testid, 'data-seats': seats.join(','), 'data-left': String(leaverOf(m)), text: shared });
  const who = seats.map((s) => (s === m.seat ? t('history.you') : names[s])).join(', ');
  return h('span', { class: 'match-winner', 'data-testid': testid, 'data-seats': seats.join(','), text: tn('history.winners', seats.length, { names: who }) });
}

/** Why a finished match ended when someone left it (R6.2), addressed to the reader: "You resigned.",
 * "Ben was away for too long."; null for a match won on the target. */
function leaveText(m, names) {
  if (m.status !== 'finished' || !['resign', 'absence'].includes(m.endReason)) return null;
  return endReasonWords({ endReason: m.endReason, loser: leaverOf(m), me: m.seat, name: (s) => names[s] });
}

// ---------------------------------------------------------------- the list and the ledger

export function mountList(root) {
  let destroyed = false;
  async function render() {
    root.replaceChildren();
    const me = getPlayer();
    if (!me) {
      root.append(h('section', { class: 'hero compact' }, h('h1', { text: t('history.title') })), nameForm(render));
      return;
    }
    const list = h('div', { 'data-testid': 'match-list' }, loading());
    const ledger = h('div', { 'data-testid': 'ledger' }, loading());
    const ratings = h('ul', { class: 'rating-list', 'data-testid': 'my-ratings' });
    const ratingsPanel = h('section', { class: 'card-panel', 'aria-labelledby': 'rt-h', hidden: true }, h('h2', { id: 'rt-h', text: t('history.ratings') }), ratings);
    root.append(
      h(
        'section',
        { class: 'hero compact' },
        h('h1', { text: t('history.title') }),
        // Another device: a one-time sign-in link moves this history and ledger there.
        h('a', { class: 'btn', href: '#/device', 'data-testid': 'device-open', text: t('device.open') }),
      ),
      h(
        'div',
        { class: 'history-grid' },
        h('section', { class: 'card-panel', 'aria-labelledby': 'ml-h' }, h('h2', { id: 'ml-h', text: t('history.matches') }), list),
        h('section', { class: 'card-panel', 'aria-labelledby': 'lg-h' }, h('h2', { id: 'lg-h', text: t('history.ledger') }), ledger),
        ratingsPanel,
      ),
    );
    const [matches, balances, mine] = await Promise.allSettled([api.matches(50, 0), api.ledger(), api.playerRatings(me.id)]);
    if (destroyed) return;
    renderMatches(list, matches, me);
    renderLedger(ledger, balances);
    renderRatings(ratingsPanel, ratings, mine);
  }

  /** My rating in each game kind I have played rated matches of (none: the panel stays hidden). */
  function renderRatings(panel, el, result) {
    const rows = result.status === 'fulfilled' && Array.isArray(result.value.ratings) ? result.value.ratings : [];
    panel.hidden = rows.length === 0;
    setChildren(
      el,
      rows.map((r) =>
        h(
          'li',
          { 'data-testid': `my-rating-${r.kind}`, 'data-rating': String(r.rating) },
          h('span', { class: 'rating-kind', text: t(`rating.kind.${r.kind}`) }),
          ' ',
          h('strong', { text: num(r.rating) }),
          ' ',
          h('span', { class: 'muted small', text: tn('rating.matches', r.matches) }),
        ),
      ),
    );
  }

  function renderMatches(el, result, me) {
    if (result.status === 'rejected') {
      setChildren(el, h('p', { class: 'form-error', text: apiErrorText(result.reason) }));
      return;
    }
    const matches = asList(result.value, 'matches').map((m) => normaliseMatch(m, me.id));
    if (!matches.length) {
      setChildren(el, h('p', { class: 'muted', text: t('history.no_matches') }));
      return;
    }
    setChildren(
      el,
      h(
        'ul',
        { class: 'match-cards', 'aria-labelledby': 'ml-h' },
        matches.map((m) => {
          const res = resultLabel(m);
          return h(
            'li',
            { class: 'match-card', 'data-testid': `match-row-${m.id}` },
            h('a', { class: 'match-date', href: `#/history/${encodeURIComponent(m.id)}`, 'data-testid': `match-link-${m.id}`, 'data-at': m.date || null, text: formatDate(m.date) || t('history.open') }),
            h(
              'span',
              { class: 'match-opponent', 'data-testid': 'match-row-opponent', 'data-bot': m.opponentBot, 'data-players': m.n },
              // The opponents' head-to-head page (people only: a computer has none).
              peopleOf(m, me.id)
                ? h('a', { href: h2hHref(peopleOf(m, me.id)), 'data-testid': 'match-row-h2h', title: t('h2h.link'), text: m.opponentName })
                : m.opponentName,
              // A game other than two-hand 1001 says which (issue 13).
              gameOf(m.options) !== TWO_HAND ? h('span', { class: 'match-game', 'data-testid': 'match-row-game', text: gameName(m.options) }) : null,
            ),
            h('span', { class: 'match-result' }, h('span', { class: `result-pill ${res.cls}`, 'data-testid': 'match-row-result', 'data-result': res.result, text: res.text })),
            // A match someone left says why, to the reader: "You resigned." (R6.2)
            leaveText(m, m.names) ? h('span', { class: 'match-reason muted', 'data-testid': 'match-row-reason', 'data-reason': m.endReason, text: leaveText(m, m.names) }) : null,
            // A finished match for three or four: my place and who won (R5, V0.9; R6.2 / V0.10a after a resignation).
            m.n > 2 && winnerSeats(m).length
              ? h(
                  'span',
                  { class: 'match-outcome' },
                  h('span', { class: 'match-place', 'data-testid': 'match-row-place', 'data-place': String(myPlace(m)), text: t('history.place_of', { n: num(myPlace(m)), of: num(m.n) }) }),
                  ' · ',
                  winnerLine(m, m.names, 'match-row-winner'),
                )
              : null,
            h('span', { class: 'match-score num' }, h('span', { class: 'visually-hidden', text: `${t('history.col.score')}: ` }), scoreText(m)),
            h('span', { class: 'match-stake', 'data-testid': 'match-row-stake', text: m.status === 'finished' ? matchStakeText(m, me.id) : '—' }),
          );
        }),
      ),
    );
  }

  function renderLedger(el, result) {
    if (result.status === 'rejected') {
      setChildren(el, h('p', { class: 'form-error', text: apiErrorText(result.reason) }));
      return;
    }
    const rows = asList(result.value, 'opponents', 'ledger', 'entries');
    if (!rows.length) {
      setChildren(el, h('p', { class: 'muted', text: t('history.no_ledger') }));
      return;
    }
    setChildren(el, 
      h(
        'ul',
        { class: 'ledger-list' },
        rows.map((row) => {
          const opp = pick(row, 'opponent') || {};
          const botLevel = pick(row, 'opponent_bot_level') || (typeof opp === 'object' && opp.bot_level) || null;
          const name = botLevel ? botName(botLevel) : typeof opp === 'string' ? opp : opp.name || pick(row, 'opponent_name', 'name') || '?';
          const oppId = (typeof opp === 'object' && opp.id) || pick(row, 'opponent_id') || name;
          const played = pick(row, 'played', 'matches', 'matches_played') ?? 0;
          const won = pick(row, 'won', 'wins', 'matches_won') ?? 0;
          // first place shared with this opponent (V0.10a: both stayed when another left) — a draw
          const shared = pick(row, 'shared') ?? 0;
          let balances = pick(row, 'balance', 'balances') || {};
          if (!Array.isArray(balances)) balances = Object.entries(balances).map(([currency, amount]) => ({ currency, amount }));
          return h(
            'li',
            { class: 'ledger-row', 'data-testid': `ledger-${oppId}` },
            h(
              'strong',
              { class: 'ledger-name', 'data-testid': 'ledger-name', 'data-bot': botLevel },
              botLevel || !pick(row, 'opponent_id') || !getPlayer()
                ? name
                : h('a', { href: h2hHref([getPlayer().id, pick(row, 'opponent_id')]), 'data-testid': 'ledger-h2h', title: t('h2h.link.with', { name }), text: name }),
            ),
            h('span', { class: 'muted', 'data-testid': 'ledger-figures', 'data-won': won, 'data-shared': shared, text: shared ? t('history.played_won_shared', { played: num(played), won: num(won), shared: num(shared) }) : t('history.played_won', { played: num(played), won: num(won) }) }),
            h(
              'span',
              { class: 'balances' },
              balances.length
                ? balances.map((b) => {
                    const amount = String(b.amount);
                    const negative = amount.startsWith('-');
                    const zero = isZeroAmount(amount.replace(/^[-+]/, ''));
                    const settled = b.currency === DEFAULT_CURRENCY ? t('history.settled') : t('history.even', { currency: currencyLabel(b.currency) });
                    return h('span', {
                      class: `balance ${zero ? 'even' : negative ? 'neg' : 'pos'}`,
                      'data-testid': 'ledger-balance',
                      'data-amount': amount,
                      'data-currency': b.currency,
                      text: zero ? settled : negative ? t('history.you_owe', { amount: money(amount.slice(1), b.currency) }) : t('history.owed_to_you', { amount: money(amount.replace(/^\+/, ''), b.currency) }),
                    });
                  })
                : // nothing ever owed between them (friendly matches: a zero amount is left out, R6)
                  h('span', { class: 'balance even', 'data-testid': 'ledger-balance', 'data-amount': '0', text: t('history.settled') }),
            ),
          );
        }),
      ),
    );
  }

  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
    },
  };
}

// ---------------------------------------------------------------- one match as a score sheet

function pair(d, key, seat) {
  const v = d[key];
  if (Array.isArray(v)) return v[seat];
  const alt = d[`${key}${seat}`];
  return alt === undefined ? 0 : alt;
}

/** The marriages a seat declared in a deal, as coloured suit symbols (read by name). */
function declared(d, seat) {
  return (d.declarations || []).filter((x) => x.seat === seat).map((x) => (SUIT_SYMBOL[x.suit] ? suitBadge(x.suit) : x.suit));
}

/** A deal score with its sign: "+120", "−100" (a failed contract), "+0". */
const signed = (n) => signedNum(n, '+0');

/** A variant deal's auction in a line: "Anna: 120 — made", "Ben: 100 — failed", "all passed — thrown in". */
function contractLine(d, names) {
  if (d.thrown_in) return h('span', { class: 'contract-text thrown', text: t('history.thrown_in') });
  if (!Number.isInteger(d.declarer)) return null;
  const made = d.made === true ? 'made' : d.made === false ? 'failed' : null;
  return h(
    'span',
    { class: 'contract-text' },
    t('history.contract', { name: names[d.declarer] ?? '?', contract: num(d.contract ?? 0) }),
    made ? [' ', h('span', { class: `contract-result ${made}`, 'data-made': String(d.made), text: t(`history.contract.${made}`) })] : null,
  );
}

/**
 * The score sheet: one group of rows per deal (the viewer first, then the others in play order),
 * five narrow columns, so it reads on a 360-px phone without sideways scrolling or cut columns.
 * A deal with an auction (V2, V3, V7) has a first row naming the declarer, the contract and
 * whether it was made; the declarer's row is marked.
 */
function scoreSheet(deals, seat, names, replayOf = null) {
  const n = names.length;
  const order = [seat, ...Array.from({ length: n - 1 }, (_, k) => (seat + 1 + k) % n)];
  const heads = [t('history.col.cards'), t('history.col.decl'), t('history.col.deal'), t('history.col.total')];
  return h(
    'table',
    { class: `data-table sheet-table${n > 2 ? ' many' : ''}`, 'data-testid': 'deal-sheet', 'data-players': n },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col', class: 'deal-no', text: '#' }),
        h('th', { scope: 'col', class: 'who' }, h('span', { class: 'visually-hidden', text: t(n > 2 ? 'history.col.player' : 'history.col.opponent') })),
        heads.map((x) => h('th', { scope: 'col', class: 'num', text: x })),
      ),
    ),
    deals.map((d, i) => {
      const number = (d.number ?? i) + 1;
      const contract = contractLine(d, names);
      const dealNo = h(
        'th',
        { scope: 'rowgroup', rowspan: n + (contract ? 1 : 0), class: 'deal-no' },
        h('span', { 'aria-label': t('history.deal_n', { n: num(number) }), text: num(number) }),
        // A finished match: each deal opens in the replay viewer (views/replay.js).
        replayOf ? h('a', { class: 'deal-replay', href: `#/replay/${encodeURIComponent(replayOf)}/${d.number ?? i}`, 'data-testid': `deal-replay-${d.number ?? i}`, 'aria-label': t('replay.open_deal', { n: num(number) }), title: t('replay.open_deal', { n: num(number) }), text: '▶' }) : null,
      );
      return h(
        'tbody',
        { class: 'deal-group', 'data-testid': `deal-row-${d.number ?? i}`, 'data-declarer': Number.isInteger(d.declarer) ? d.declarer : null, 'data-thrown-in': d.thrown_in ? 'true' : null },
        contract ? h('tr', { class: 'contract', 'data-testid': 'deal-contract' }, dealNo, h('td', { colspan: 5 }, contract)) : null,
        order.map((s, k) =>
          h(
            'tr',
            { class: `${k === 0 ? 'me' : 'opp'}${s === d.declarer ? ' declarer' : ''}`, 'data-seat': s },
            k === 0 && !contract ? dealNo : null,
            h('th', { scope: 'row', class: 'who' }, s === d.declarer ? h('span', { class: 'declarer-mark', title: t('history.declarer'), 'aria-label': t('history.declarer'), text: '★ ' }) : null, names[s]),
            h('td', { class: 'num', text: num(pair(d, 'card_points', s)) }),
            h('td', { class: 'num decl' }, declared(d, s), ' ', num(pair(d, 'declaration_points', s))),
            h('td', { class: `num${pair(d, 'score', s) < 0 ? ' minus' : ''}`, text: signed(pair(d, 'score', s)) }),
            h('td', { class: 'num strong', text: num(pair(d, 'totals', s)) }),
          ),
        ),
      );
    }),
  );
}

/** Each player's rating change, in the order of the totals line (a rated match between people only). */
function ratingList(m, order, names) {
  const rows = order.filter((s) => m.ratings[s]);
  if (!rows.length) return null;
  return h(
    'ul',
    { class: 'rating-changes', 'data-testid': 'detail-ratings' },
    rows.map((s) => h('li', { 'data-testid': `detail-rating-${s}`, 'data-change': String(m.ratings[s].change), text: `${names[s]}: ${ratingText(m.ratings[s])}` })),
  );
}

export function mountMatch(root, matchId) {
  let destroyed = false;
  let analysis = null; // the points given away per deal (components/analysis.js), once the match is over
  async function render() {
    if (analysis) analysis.destroy();
    analysis = null;
    root.replaceChildren();
    const me = getPlayer();
    if (!me) {
      root.append(nameForm(render));
      return;
    }
    const panel = h('section', { class: 'card-panel', 'data-testid': 'match-detail' }, loading());
    root.append(h('p', {}, h('a', { href: '#/history', class: 'btn ghost back-link', 'data-testid': 'back-to-history', text: t('history.back') })), panel);
    let raw;
    try {
      raw = await api.match(matchId);
    } catch (err) {
      if (!destroyed) setChildren(panel, h('p', { class: 'form-error', text: apiErrorText(err) }));
      return;
    }
    if (destroyed) return;
    const m = normaliseMatch(raw, me.id);
    const res = resultLabel(m);
    if (m.status === 'finished')
      analysis = createMatchAnalysis({
        matchId: m.id,
        names: m.names.map((name, i) => (i === m.seat ? me.name : name)),
        order: [m.seat, ...m.others],
        race: { history: m.deals, target: m.target, me: m.seat },
      });
    const seat = m.seat;
    const names = m.names.map((name, i) => (i === seat ? me.name : name));
    // Every finished match replays, two-hand 1001 and the games for three and four (V2–V7) alike.
    const replayable = m.status === 'finished';
    const target = m.target ? ` (${t('table.target', { n: num(m.target) })})` : '';
    // The totals, me first then in play order — once over, in the server's places (1. Anna 320 · 2. …).
    const order = [seat, ...m.others];
    const places = m.status === 'finished' ? placesOf(m) : null;
    if (places) order.sort((a, b) => places[a] - places[b]);
    const totalsLine = [
      ...order.flatMap((s, k) => [
        k ? ' · ' : null,
        h('span', { 'data-testid': `detail-place-${s}`, 'data-place': places ? String(places[s]) : null, class: places && places[s] === 1 ? 'first' : null, text: `${places ? `${num(places[s])}. ` : ''}${names[s]} ${num(m.totals[s] ?? 0)}` }),
      ]),
      target,
    ];
    setChildren(
      panel,
      h('h1', { class: 'h2', text: m.others.length === 1 ? t('history.match_vs', { name: m.opponentName }) : t('history.match_with', { names: m.opponentName }) }),
      gameOf(m.options) !== TWO_HAND ? h('p', { class: 'match-game-line', 'data-testid': 'detail-game', text: gameName(m.options) }) : null,
      h('p', { class: 'muted match-when', text: formatDate(m.date) }),
      h(
        'p',
        {},
        h('span', { class: `result-pill ${res.cls}`, 'data-testid': 'detail-result', 'data-result': res.result, text: res.text }),
        ' ',
        // Why it ended, to the reader: "You resigned." / "Ben was away for too long." / "target reached"
        m.endReason && m.status === 'finished' ? h('span', { 'data-testid': 'detail-reason', text: leaveText(m, names) ?? t(`history.reason.${m.endReason}`) }) : '',
        winnerSeats(m).length ? [' · ', winnerLine(m, names, 'detail-winner')] : null,
      ),
      h('p', { class: 'final-totals', 'data-testid': 'detail-totals' }, ...totalsLine),
      // The head to head of this match's people (computers have none).
      peopleOf(m, me.id) ? h('p', {}, h('a', { class: 'btn ghost', href: h2hHref(peopleOf(m, me.id)), 'data-testid': 'detail-h2h', text: t('h2h.link') })) : null,
      // Every settlement of the match, one a line (each loser owes the winner, V0.10).
      m.status === 'finished' && m.settlements.length
        ? h(
            'ul',
            { class: 'settlements', 'data-testid': 'detail-stake' },
            m.settlements.map((x) => h('li', { 'data-testid': 'detail-settlement', 'data-amount': x.amount, 'data-currency': x.currency, text: settlementText(x, m, me.id) })),
          )
        : h('p', { 'data-testid': 'detail-stake' }, m.status === 'finished' ? matchStakeText(m, me.id) : t('history.in_progress')),
      ratingList(m, order, names),
      Object.keys(m.options).length ? tableSummary(m.options) : null,
      // The replay viewer (views/replay.js) and the whole match as the replay CLI's input.
      replayable
        ? h(
            'p',
            { class: 'match-replay' },
            downloadButton(m.id, 'match-download'),
            // A resignation (R6.2) cut the last deal short: it is not on the score sheet, but it replays.
            m.endReason && m.endReason !== 'target'
              ? [' ', h('a', { class: 'btn ghost', href: `#/replay/${encodeURIComponent(m.id)}/${m.deals.length}`, 'data-testid': `deal-replay-${m.deals.length}`, text: t('replay.open_unfinished', { n: num(m.deals.length + 1) }) })]
              : null,
          )
        : null,
      m.deals.length
        ? h(
            'div',
            { class: 'detail-grid' },
            // The race to the target: a line per player (two, three or four), the viewer's first.
            // Under it, once a deal is analysed, every player's points given away per deal (issue 26).
            h('section', { class: 'race-block', 'aria-labelledby': 'race-h' }, h('h2', { id: 'race-h', text: t('race.heading') }), raceChart({ history: m.deals, target: m.target, names, me: seat }), analysis ? analysis.chart : null),
            h('section', { class: 'sheet-block', 'aria-labelledby': 'deals-h' }, h('h2', { id: 'deals-h', text: t('history.deals') }), scoreSheet(m.deals, seat, names, replayable ? m.id : null)),
          )
        : [h('h2', { text: t('history.deals') }), h('p', { class: 'muted', text: t('history.no_deals') })],
    );
    // The computer's analysis (issue 26): every player's points given away per deal and in the match.
    if (analysis) root.append(analysis.el);
  }
  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
      if (analysis) analysis.destroy();
    },
  };
}
