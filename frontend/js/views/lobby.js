// The lobby: the first visit (what the game is, a picture of a table, one tap to play the computer),
// then create a table, open public tables, my unfinished tables.
import { api, asList } from '../api.js';
import { h, setChildren } from '../dom.js';
import { EXPERT_THINKING_S, TABLE_OPTIONS } from '../generated/protocol.js';
import { hasKey, t, tn } from '../i18n.js';
import { SUIT_SYMBOL, cardBack, cardEl, rankOf, rankShort, suitOf } from '../cards.js';
import { getPlayer, setPlayer } from '../session.js';
import { apiErrorText, botName, durationText, inviteBox, inviteUrl, loading, nameForm, num, playerName, toast } from '../ui.js';
import { GAME_IDS, TWO_HAND, gameAndSeats, gameInfo, gameName, seatCount, sentAsVariant, tableSummary, targetsOf } from '../games.js';
import { lobbyEvents } from '../lobby-events.js';
import { disablePush, enablePush, pushState, resyncPush } from '../push.js';

const REFRESH_MS = 4000; // a visitor without a name: the live tables (signed in, the event stream says it all)
const CLOCK_MS = 30000; // "My games": the time left is written again this often (no request)
// What the server offers comes from its own RoomCreate model (frontend/js/generated/protocol.js).
const OPT = TABLE_OPTIONS;
const values = (name) => OPT[name].values.map(String);
const defaultOf = (name) => String(OPT[name].default);
// R6.2: how long a dropped player's seat is held: a few round choices within the server's bounds.
const GRACE = OPT.reconnect_grace_s;
const GRACE_CHOICES = [...new Set([60, 120, 300, 600, GRACE.default])]
  .filter((sec) => sec >= (GRACE.minimum ?? 0) && sec <= (GRACE.maximum ?? Infinity))
  .sort((a, b) => a - b);
const CURRENCY_MAX = OPT.currency.maxLength ?? 12;
const CURRENCY_MIN = OPT.currency.minLength ?? 1;
const FORM_DEFAULTS = {
  opponent: defaultOf('opponent'),
  level: defaultOf('bot_level'),
  target: defaultOf('target'),
  scoring: defaultOf('declaration_scoring'),
  deck: String(gameInfo(TWO_HAND).decks[0]), // R1 24 cards, V1 32
  bottom: Boolean(OPT.show_stock_bottom.default),
  openScores: Boolean(OPT.open_scores.default),
  spectators: OPT.spectators ? Boolean(OPT.spectators.default) : true,
  rated: OPT.rated ? Boolean(OPT.rated.default) : true, // a match between people changes their ratings
  reactionsWatch: OPT.reactions_for_spectators ? Boolean(OPT.reactions_for_spectators.default) : false,
  hints: true, // issue 26: on wherever the server offers them (RoomCreate.hints unset); unticked sends false
  grace: defaultOf('reconnect_grace_s'),
  pace: OPT.pace ? defaultOf('pace') : 'live', // R6.3: live, or days per move
  autoPlay: false, // turn-based only: the only legal card is played by itself
  stake: '0',
  // The lobby's own choices: a table for a friend is private and staked in EUR unless changed.
  currency: 'EUR',
  visibility: 'private',
  advanced: false,
  // The game (issue 13): two-hand 1001 or a variant V2–V7, its seats, computer seats and options.
  game: TWO_HAND,
  seats: null, // the variant's first seat count
  computerSeats: null, // two friends and the rest computers (RULES-VARIANTS.md, "Playing online")
  gameScoring: 'original',
  jungfrau: false,
};

/** A choice's words, or the bare value when the server offers something this client has no words for. */
function label(key, value, params) {
  return hasKey(key) ? t(key, params) : String(value);
}
/** A computer level as the lobby offers it; the expert's says how long it thinks (issue 14). */
function levelLabel(level) {
  return label(`opt.bot_level.${level}`, level, { seconds: num(EXPERT_THINKING_S) });
}
// The last choices, kept while the page lives (a language change or a visit to another page).
let lastForm = {};

/** What the game looks like: a small table drawn with our own card faces (no image files). */
function tablePicture() {
  return h(
    'figure',
    { class: 'intro-picture', 'data-testid': 'intro-picture' },
    h(
      'div',
      { class: 'mini-table', role: 'img', 'aria-label': t('lobby.picture') },
      h('div', { class: 'mini-opponent', 'aria-hidden': 'true' }, [0, 1, 2, 3, 4, 5].map(() => cardBack())),
      h(
        'div',
        { class: 'mini-middle', 'aria-hidden': 'true' },
        h('div', { class: 'mini-stock' }, cardBack(), cardBack()),
        h('div', { class: 'mini-trick' }, cardEl('QH', { className: 'mini-led' }), cardEl('AC', { className: 'mini-answer' })),
        h('span', { class: 'mini-trump', text: '♥' }),
      ),
      h('div', { class: 'mini-hand', 'aria-hidden': 'true' }, ['KH', 'TH', 'AS', 'QS', 'JD', 'TC', '9C'].map((code) => cardEl(code))),
    ),
  );
}

/** What 1001 is, in three lines, and where the whole guide is. */
function introText() {
  return h(
    'div',
    { class: 'intro-text' },
    h('h2', { text: t('lobby.intro.title') }),
    h('ul', { class: 'intro-points' }, ['1', '2', '3'].map((n) => h('li', { text: t(`lobby.intro.${n}`) }))),
    h('a', { href: '#/rules', class: 'intro-rules', 'data-testid': 'intro-rules', text: t('lobby.intro.rules') }),
  );
}

/** A computer table with the server's defaults (the default level, no stake), then straight to it. */
async function startComputerMatch() {
  const room = await api.createRoom({ opponent: 'computer', bot_level: OPT.bot_level.default, stake_per_point: '0' });
  location.hash = `#/table/${encodeURIComponent(room.id)}`;
}

function computerHelp() {
  return t('lobby.play_computer_now.help', { target: num(OPT.target.default), name: botName(OPT.bot_level.default) });
}

/** "Play again" (issue 27): after the invite, to the new table, whose invite link is there to share. */
async function playAgain(opponent) {
  const invited = await api.inviteOpponent(opponent.id);
  const room = invited.room;
  location.hash = `#/table/${encodeURIComponent(room.id)}`;
  const name = invited.invitee.name;
  toast(invited.online ? t('lobby.again.seen', { name }) : t('lobby.again.share', { name }), 'play-again-toast');
  // Nobody saw it yet: the phone's share sheet at once, where there is one (Copy is on the table).
  if (!invited.online && typeof navigator.share === 'function' && matchMedia('(pointer: coarse)').matches) {
    navigator.share({ title: t('app.title'), text: t('invite.share_text'), url: inviteUrl(room.invite_code) }).catch(() => null);
  }
}

/** "3 d 4 h", "5 h 10 min", "12 min": the time until `deadline` (an ISO date), never below a minute. */
export function timeLeft(deadline, now = Date.now()) {
  const minutes = Math.max(1, Math.floor((Date.parse(deadline) - now) / 60000));
  const d = Math.floor(minutes / 1440);
  const hrs = Math.floor((minutes % 1440) / 60);
  if (d) return t('lobby.games.left_dh', { d: num(d), h: num(hrs) });
  if (hrs) return t('lobby.games.left_hm', { h: num(hrs), m: num(minutes % 60) });
  return t('lobby.games.left_m', { m: num(minutes) });
}

/** "Anna played K♥", "Computer (easy) bid 120": the last move at a table, in the reader's language. */
export function lastMoveText(move, players) {
  if (!move) return '';
  const name = playerName((players || [])[move.seat], players);
  if (move.kind === 'play' && move.card) return t('lobby.games.move.play', { name, card: `${rankShort(rankOf(move.card))}${SUIT_SYMBOL[suitOf(move.card)]}` });
  if (move.kind === 'bid') return t('lobby.games.move.bid', { name, amount: num(move.amount) });
  return hasKey(`lobby.games.move.${move.kind}`) ? t(`lobby.games.move.${move.kind}`, { name }) : '';
}

/** "Tell me when it's my turn": a tap turns this device's notifications on or off (the browser's
 * permission prompt comes only from that tap); hidden where the browser has no Web Push. */
function pushToggle() {
  const note = h('p', { class: 'help', 'data-testid': 'push-note' });
  const button = h('button', { type: 'button', class: 'btn', 'data-testid': 'push-toggle', hidden: true });
  const box = h('div', { class: 'push-toggle', 'data-testid': 'push-box' }, button, note);
  let state = 'unsupported';
  const show = (next) => {
    state = next;
    box.dataset.state = state;
    button.hidden = state === 'unsupported' || state === 'denied';
    button.textContent = state === 'on' ? t('lobby.push.off') : t('lobby.push.on');
    button.setAttribute('aria-pressed', state === 'on' ? 'true' : 'false');
    note.textContent = state === 'on' ? t('lobby.push.is_on') : state === 'denied' ? t('lobby.push.denied') : state === 'off' ? t('lobby.push.help') : '';
    note.hidden = state === 'unsupported';
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      show(state === 'on' ? await disablePush() : await enablePush());
    } catch {
      note.textContent = t('lobby.push.failed');
    } finally {
      button.disabled = false;
    }
  });
  show('unsupported');
  pushState()
    .then(show)
    .catch(() => show('unsupported'));
  return box;
}

/** How many games wait for the player: in the page title and, where there is one, the app's badge. */
function showWaiting(n) {
  document.title = n ? `(${n}) ${t('app.title')}` : t('app.title');
  try {
    if (n && typeof navigator.setAppBadge === 'function') navigator.setAppBadge(n).catch(() => null);
    else if (!n && typeof navigator.clearAppBadge === 'function') navigator.clearAppBadge().catch(() => null);
  } catch {
    /* a browser without the Badging API, or one that refuses it here */
  }
}

export function mount(root) {
  let timer = null;
  let destroyed = false;
  // "Play again" invitations received (lobby-events.js), by table: kept over re-renders.
  const invitations = new Map();
  const invitationsEl = h('section', { class: 'invitations', 'aria-label': t('lobby.invitations'), 'aria-live': 'polite', 'data-testid': 'invitations' });
  let stream = null;
  let streamFor = null;
  // What the stream said last ("My games", the public tables), kept over re-renders; null: not yet.
  let games = null;
  let tables = null;
  let mineEl = null;
  let openEl = null;
  // On a phone "My games" is below the create form: the games waiting for the player are one tap up top.
  const gamesWaiting = h('button', {
    type: 'button',
    class: 'btn live-now games-waiting',
    'data-testid': 'games-waiting',
    hidden: true,
    onclick: () => {
      document.getElementById('mine-h')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      mineEl?.querySelector('.my-turn a')?.focus({ preventScroll: true });
    },
  });
  const clock = setInterval(() => paintGames(), CLOCK_MS);

  /** The lobby's event stream, for the player signed in (none when nobody is). */
  function listen() {
    const player = getPlayer();
    const id = player ? player.id : null;
    if (streamFor === id && (stream || !id)) return;
    if (stream) stream.close();
    stream = null;
    streamFor = id;
    invitations.clear();
    games = null;
    tables = null;
    renderInvitations();
    if (!id) {
      showWaiting(0);
      return;
    }
    resyncPush().catch(() => null); // a device whose notifications are on says so again (never asks)
    invitationsEl.dataset.stream = 'connecting';
    stream = lobbyEvents({
      onInvitation(invitation) {
        invitations.set(invitation.room_id, invitation);
        renderInvitations();
      },
      onGone(gone) {
        invitations.delete(gone.room_id);
        renderInvitations();
      },
      onGames(sent) {
        games = sent;
        showWaiting(sent.waiting || 0);
        gamesWaiting.hidden = !sent.waiting;
        gamesWaiting.textContent = sent.waiting ? tn('lobby.games.waiting', sent.waiting) : '';
        paintGames();
      },
      onTables(sent) {
        tables = sent;
        paintTables();
      },
      onReady() {
        invitationsEl.dataset.stream = 'open'; // the browser tests wait for it before inviting
      },
      onDrop() {
        invitationsEl.dataset.stream = 'connecting';
      },
    });
  }

  function renderInvitations() {
    invitationsEl.hidden = !invitations.size;
    setChildren(
      invitationsEl,
      [...invitations.values()].map((invitation) => {
        const error = h('p', { class: 'form-error', role: 'alert' });
        const join = h('button', {
          type: 'button',
          class: 'btn primary',
          'data-testid': 'invitation-join',
          text: t('lobby.invitation.join'),
          onclick: async () => {
            join.disabled = true;
            try {
              const joined = await api.joinInvite(invitation.invite_code);
              location.hash = `#/table/${encodeURIComponent((joined && joined.id) || invitation.room_id)}`;
            } catch (err) {
              error.textContent = apiErrorText(err);
              join.disabled = false;
              if (err.code === 'room_not_found' || err.code === 'room_full' || err.code === 'room_started') {
                invitations.delete(invitation.room_id);
                setTimeout(renderInvitations, 3000);
              }
            }
          },
        });
        const later = h('button', {
          type: 'button',
          class: 'btn ghost',
          'data-testid': 'invitation-later',
          text: t('lobby.invitation.later'),
          onclick: async () => {
            invitations.delete(invitation.room_id);
            renderInvitations();
            await api.declineInvitation(invitation.room_id).catch(() => null); // gone already: nothing to say
          },
        });
        return h(
          'article',
          { class: 'invitation-card', 'data-testid': `invitation-${invitation.room_id}` },
          h('h2', { text: t('lobby.invitation.title', { name: invitation.inviter.name }) }),
          h('p', { class: 'room-game', text: gameName(invitation.options) }),
          tableSummary(invitation.options),
          h('div', { class: 'row-actions' }, join, later),
          error,
        );
      }),
    );
  }

  /** Recent opponents (people only), each with a one-tap "Play again". */
  const againEl = h('div', { 'data-testid': 'recent-opponents' });
  async function renderAgain() {
    let opponents;
    try {
      opponents = await api.recentOpponents();
    } catch (err) {
      if (!destroyed) setChildren(againEl, h('p', { class: 'form-error', text: apiErrorText(err) }));
      return;
    }
    if (destroyed) return;
    if (!opponents.length) {
      setChildren(againEl, h('p', { class: 'muted', text: t('lobby.again.empty') }));
      return;
    }
    setChildren(
      againEl,
      h('p', { class: 'help', text: t('lobby.again.help') }),
      h(
        'ul',
        { class: 'room-list again-list' },
        opponents.map((opponent) => {
          const error = h('p', { class: 'form-error', role: 'alert' });
          const button = h('button', {
            type: 'button',
            class: 'btn primary',
            'data-testid': `play-again-${opponent.id}`,
            'aria-label': t('lobby.again.aria', { name: opponent.name }),
            text: t('lobby.again.button'),
            onclick: async () => {
              button.disabled = true;
              error.textContent = '';
              try {
                await playAgain(opponent);
              } catch (err) {
                error.textContent = apiErrorText(err);
                button.disabled = false;
              }
            },
          });
          return h(
            'li',
            { class: 'room-row again-row', 'data-testid': `opponent-${opponent.id}` },
            h('div', { class: 'room-main' }, h('strong', { text: opponent.name }), h('span', { class: 'room-game', text: gameName(opponent.options) }), tableSummary(opponent.options)),
            h('div', { class: 'row-actions' }, button),
            error,
          );
        }),
      ),
    );
  }

  function render() {
    root.replaceChildren();
    listen();
    const player = getPlayer();
    if (!player) {
      root.append(
        h('section', { class: 'hero' }, h('h1', { text: t('lobby.welcome') }), h('p', { class: 'lead', text: t('lobby.tagline') }), liveNow),
        h('div', { class: 'intro-grid', 'data-testid': 'getting-started' }, startForm(), tablePicture(), h('section', { class: 'card-panel intro' }, introText())),
        // The live public tables, to watch without a name or an account (shown once there is one).
        h('section', { class: 'card-panel live-tables', 'aria-labelledby': 'watch-h', hidden: true }, h('h2', { id: 'watch-h', text: t('watch.title') }), watchable),
      );
      refreshWatchable();
      return;
    }
    const mine = h('div', { 'data-testid': 'my-rooms', 'aria-live': 'polite' }, loading());
    const open = h('div', { 'data-testid': 'open-rooms' }, loading());
    mineEl = mine;
    openEl = open;
    if (games) gamesWaiting.textContent = games.waiting ? tn('lobby.games.waiting', games.waiting) : '';
    const quickError = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'quick-error' });
    const quick = h('button', {
      type: 'button',
      class: 'btn primary big',
      'data-testid': 'play-computer-now',
      'aria-describedby': 'quick-help',
      text: t('lobby.play_computer_now'),
      onclick: async () => {
        quick.disabled = true;
        quickError.textContent = '';
        try {
          await startComputerMatch();
        } catch (err) {
          quickError.textContent = apiErrorText(err);
          quick.disabled = false;
        }
      },
    });
    const friend = h('button', {
      type: 'button',
      class: 'btn big',
      'data-testid': 'play-friend',
      'aria-describedby': 'friend-help',
      text: t('lobby.play_friend'),
      onclick: () => toFriendForm('smooth'),
    });
    root.append(
      invitationsEl, // first: a friend's invitation is what matters most when there is one
      h(
        'section',
        { class: 'hero compact' },
        h('h1', { text: t('lobby.hello', { name: player.name }) }),
        h('p', { class: 'lead', text: t('lobby.tagline') }),
        gamesWaiting,
        // Each button with its own caption under it (one line under both read as the second's).
        h(
          'div',
          { class: 'quick-start' },
          h('div', { class: 'quick-choice', 'data-testid': 'quick-choice-computer' }, quick, h('p', { class: 'quick-help', id: 'quick-help', 'data-testid': 'quick-help', text: computerHelp() })),
          h('div', { class: 'quick-choice', 'data-testid': 'quick-choice-friend' }, friend, h('p', { class: 'quick-help', id: 'friend-help', 'data-testid': 'friend-help', text: t('lobby.play_friend.help') })),
        ),
        quickError,
      ),
      h(
        'div',
        { class: 'lobby-grid' },
        createForm(),
        h(
          'div',
          { class: 'lobby-lists' },
          h('section', { class: 'card-panel', 'aria-labelledby': 'mine-h' }, h('h2', { id: 'mine-h', text: t('lobby.mine') }), mine, pushToggle()),
          h('section', { class: 'card-panel', 'aria-labelledby': 'again-h' }, h('h2', { id: 'again-h', text: t('lobby.again') }), againEl),
          h('section', { class: 'card-panel', 'aria-labelledby': 'open-h' }, h('h2', { id: 'open-h', text: t('lobby.open') }), open),
          h('section', { class: 'card-panel', 'aria-labelledby': 'watch-h', hidden: true }, h('h2', { id: 'watch-h', text: t('watch.title') }), watchable),
        ),
      ),
    );
    invitationsEl.setAttribute('aria-label', t('lobby.invitations'));
    renderInvitations();
    setChildren(againEl, loading());
    renderAgain();
    paintGames();
    paintTables();
  }

  /** "My games" as the stream sent them (loading until it did). */
  function paintGames() {
    if (destroyed || !mineEl || !mineEl.isConnected || !games) return;
    renderMine(mineEl, games.games || []);
  }

  /** The public tables to join and to watch, as the stream sent them. */
  function paintTables() {
    const player = getPlayer();
    if (destroyed || !player || !tables) return;
    if (openEl && openEl.isConnected) renderOpen(openEl, tables.open || [], player);
    renderWatchable({ status: 'fulfilled', value: tables.watchable || [] }, player);
  }

  // Spectators: public tables being played, each with a "Watch" link (#/watch/<room>).
  const watchable = h('ul', { class: 'room-list', 'data-testid': 'watchable-rooms' });
  // For a visitor with no name yet, near the top: how many tables are live, leading to their list.
  const liveNow = h('button', {
    type: 'button',
    class: 'btn live-now',
    'data-testid': 'live-now',
    hidden: true,
    onclick: () => {
      watchable.parentElement?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      watchable.querySelector('a')?.focus({ preventScroll: true });
    },
  });
  function renderWatchable(result, player) {
    const rooms = result.status === 'fulfilled' ? asList(result.value, 'rooms').filter((room) => !player || !(room.players || []).some((p) => p && p.id === player.id)) : [];
    watchable.parentElement && (watchable.parentElement.hidden = !rooms.length);
    liveNow.hidden = !rooms.length;
    liveNow.textContent = tn('lobby.live_now', rooms.length);
    liveNow.dataset.count = String(rooms.length);
    setChildren(
      watchable,
      rooms.map((room) =>
        h(
          'li',
          { class: 'room-row' },
          h(
            'div',
            { class: 'room-main' },
            h('strong', { text: (room.players || []).filter(Boolean).map((p) => playerName(p, room.players)).join(' – ') }),
            h('span', { class: 'room-game', 'data-testid': 'room-game', text: gameAndSeats(room) }),
            tableSummary(room.options),
          ),
          h('div', { class: 'row-actions' }, h('a', { class: 'btn', href: `#/watch/${encodeURIComponent(room.id)}`, 'data-testid': `watch-${room.id}`, text: t('watch.button') })),
        ),
      ),
    );
  }

  /** Nobody signed in: only the live tables, refreshed like the lobby's lists. */
  async function refreshWatchable() {
    clearTimeout(timer);
    if (getPlayer() || destroyed) return;
    const [live] = await Promise.allSettled([api.watchableRooms()]);
    if (destroyed || getPlayer() || !watchable.isConnected) return;
    renderWatchable(live, null);
    timer = setTimeout(refreshWatchable, REFRESH_MS);
  }

  function renderMine(el, list) {
    if (!list.length) {
      setChildren(el, h('p', { class: 'muted', text: t('lobby.mine.empty') }));
      return;
    }
    const me = getPlayer();
    setChildren(
      el,
      h(
        'ul',
        { class: 'room-list games-list' },
        list.map((game) => {
          const room = game.room;
          const players = room.players || [];
          const others = players.filter((p) => p && p.id !== me.id);
          const free = seatCount(room.options, players) - players.filter(Boolean).length;
          const names = others.map((p) => playerName(p, players)).join(', ');
          const label = !others.length ? t('lobby.waiting_for_opponent') : free > 0 ? t('lobby.vs_waiting', { names }) : t('lobby.vs', { name: names });
          const isOpen = room.status === 'open';
          const onTurn = room.turn == null ? null : players[room.turn];
          const turnText = game.my_turn
            ? room.turn_deadline
              ? `${t('table.your_turn')} · ${timeLeft(room.turn_deadline)}`
              : t('table.your_turn')
            : room.status === 'playing' && onTurn
              ? t('lobby.games.their_turn', { name: playerName(onTurn, players) })
              : '';
          const moveText = lastMoveText(game.last_move, players);
          return h(
            'li',
            { class: `room-row game-row${game.my_turn ? ' my-turn' : ''}`, 'data-testid': `my-room-${room.id}`, 'data-status': room.status, 'data-my-turn': game.my_turn ? 'true' : 'false' },
            h(
              'div',
              { class: 'room-main' },
              h('strong', { text: label }),
              turnText
                ? h('span', { class: `turn-pill${game.my_turn ? ' mine' : ''}`, 'data-testid': `game-turn-${room.id}`, text: turnText })
                : h('span', { class: `status-pill ${room.status}`, text: t(`room.status.${room.status}`) }),
              moveText ? h('span', { class: 'last-move', 'data-testid': `game-last-${room.id}`, text: moveText }) : null,
              h('span', { class: 'room-game', 'data-testid': 'room-game', text: gameAndSeats(room) }),
              tableSummary(room.options),
            ),
            isOpen && room.visibility === 'private' && room.invite_code ? inviteBox(room.invite_code) : null,
            h(
              'div',
              { class: 'row-actions' },
              h('a', {
                class: `btn${game.my_turn || isOpen ? ' primary' : ''}`,
                href: `#/table/${encodeURIComponent(room.id)}`,
                'data-testid': `return-${room.id}`,
                text: isOpen ? t('lobby.open_table') : game.my_turn ? t('lobby.games.play') : t('lobby.return'),
              }),
              isOpen
                ? h('button', {
                    type: 'button',
                    class: 'btn ghost',
                    'data-testid': `leave-${room.id}`,
                    text: t('lobby.cancel_table'),
                    onclick: async (e) => {
                      e.target.disabled = true;
                      try {
                        await api.leaveRoom(room.id);
                      } catch {
                        e.target.disabled = false; // the stream sends the games again once it is gone
                      }
                    },
                  })
                : null,
            ),
          );
        }),
      ),
    );
  }

  function renderOpen(el, list, player) {
    const rooms = list.filter((room) => !(room.players || []).some((p) => p && p.id === player.id));
    if (!rooms.length) {
      setChildren(el, h('p', { class: 'muted', text: t('lobby.open.empty') }));
      return;
    }
    setChildren(el, 
      h(
        'ul',
        { class: 'room-list' },
        rooms.map((room) => {
          const host = (room.players || []).find(Boolean);
          const error = h('p', { class: 'form-error', role: 'alert' });
          return h(
            'li',
            { class: 'room-row', 'data-testid': `open-room-${room.id}` },
            h(
              'div',
              { class: 'room-main' },
              h('strong', { text: t('lobby.table_of', { name: host ? host.name : '?' }) }),
              h('span', { class: 'room-game', 'data-testid': 'room-game', text: gameAndSeats(room) }),
              tableSummary(room.options),
            ),
            h(
              'div',
              { class: 'row-actions' },
              h('button', {
                type: 'button',
                class: 'btn primary',
                'data-testid': `join-${room.id}`,
                text: t('lobby.join'),
                onclick: async (e) => {
                  e.target.disabled = true;
                  try {
                    await api.joinRoom(room.id);
                    location.hash = `#/table/${encodeURIComponent(room.id)}`;
                  } catch (err) {
                    error.textContent = apiErrorText(err);
                    e.target.disabled = false;
                  }
                },
              }),
            ),
            error,
          );
        }),
      ),
    );
  }

  /** The create form, set for a friend, brought into view with the focus on it. */
  function toFriendForm(behavior) {
    const human = document.getElementById('opt-opponent-human');
    if (human && !human.checked) human.click();
    document.getElementById('create-h')?.scrollIntoView({ behavior, block: 'start' });
    human?.focus({ preventScroll: true });
  }

  /** First visit: a name, then one tap to play the computer, or — the same tap that saves the name —
   * on to the form for a table to invite a friend to. */
  function startForm() {
    lastForm = { ...lastForm, opponent: 'human' }; // "Play a friend" leads to a form set for a friend
    const form = nameForm(() => {
      render();
      toFriendForm('auto');
    });
    form.classList.add('start-form');
    const input = form.querySelector('input');
    const save = form.querySelector('[data-testid="save-name"]');
    const error = form.querySelector('.form-error');
    save.textContent = t('lobby.play_friend');
    save.classList.remove('primary');
    save.classList.add('big');
    const quick = h('button', {
      type: 'button',
      class: 'btn primary big',
      'data-testid': 'play-computer-now',
      'aria-describedby': 'start-computer-help',
      text: t('lobby.play_computer_now'),
      onclick: async () => {
        quick.disabled = true;
        save.disabled = true;
        error.textContent = '';
        try {
          // One tap: the name typed so far, or "Guest" (the computer does not mind).
          if (!getPlayer()) setPlayer(await api.createPlayer(input.value.trim() || t('lobby.guest_name')));
          await startComputerMatch();
        } catch (err) {
          error.textContent = err.status === 422 ? t('name.invalid') : apiErrorText(err);
          quick.disabled = false;
          save.disabled = false;
        }
      },
    });
    const title = form.querySelector('h2');
    if (title) title.textContent = t('lobby.start');
    form.append(
      h(
        'div',
        { class: 'start-actions' },
        h('div', { class: 'start-choice' }, quick, h('p', { class: 'help', id: 'start-computer-help', text: computerHelp() })),
        h('div', { class: 'start-choice' }, save, h('p', { class: 'help', text: t('lobby.play_friend.help') })),
      ),
      error,
    );
    return form;
  }

  function createForm() {
    const s = { ...FORM_DEFAULTS, ...lastForm };
    const option = (value, label, selected) => h('option', { value, selected: value === selected, text: label });
    const select = (id, value, options) => h('select', { id, 'data-testid': id }, options.map(([v, label]) => option(v, label, value)));
    const fill = (el, value, options) => el.replaceChildren(...options.map(([v, label]) => option(v, label, value)));
    const field = (id, label, control, help, extra = {}) =>
      h('div', { class: 'field', ...extra }, h('label', { for: id, class: 'field-label', text: label }), control, help ? h('p', { class: 'help', id: `${id}-help`, text: help }) : null);
    const check = (id, testid, checked, label) => {
      const input = h('input', { type: 'checkbox', id, 'data-testid': testid, checked });
      return [input, h('div', { class: 'field check' }, input, h('label', { for: id, text: label }))];
    };

    // The game: two-hand 1001 (as ever) or one of the variants, each with a one-line description.
    if (!GAME_IDS.includes(s.game)) s.game = TWO_HAND;
    const game = select('create-variant', s.game, GAME_IDS.map((id) => [id, t(`lobby.game.${id}`)]));
    game.setAttribute('aria-describedby', 'create-variant-help');
    const gameHelp = h('p', { class: 'help', id: 'create-variant-help', 'data-testid': 'create-variant-help' });
    const gameField = h('div', { class: 'field' }, h('label', { for: 'create-variant', class: 'field-label', text: t('lobby.game') }), game, gameHelp);
    // Seats (V7: 3 or 4) and computer seats (0 … seats − 1), only for a variant.
    const seats = select('create-seats', '', []);
    const seatsField = field('create-seats', t('lobby.seats'), seats, null, { 'data-testid': 'create-seats-field' });
    const computerSeats = select('create-computer-seats', '', []);
    computerSeats.setAttribute('aria-describedby', 'create-computer-seats-help');
    const computerSeatsHelp = h('p', { class: 'help seat-help', id: 'create-computer-seats-help', 'data-testid': 'create-computer-seats-help' });
    const computerSeatsField = h(
      'div',
      { class: 'field', 'data-testid': 'create-computer-seats-field' },
      h('label', { for: 'create-computer-seats', class: 'field-label', text: t('lobby.computer_seats') }),
      computerSeats,
    );
    const seatRow = h('div', { class: 'field-row seat-row' }, seatsField, computerSeatsField);

    // Who plays two-hand 1001: a friend (invite link or public table) or the computer at a level.
    const radio = (value) =>
      h('input', { type: 'radio', name: 'opponent', id: `opt-opponent-${value}`, value, 'data-testid': `opt-opponent-${value}`, checked: s.opponent === value });
    const radios = Object.fromEntries(values('opponent').map((value) => [value, radio(value)]));
    const computer = radios.computer;
    const opponent = h(
      'fieldset',
      { class: 'field segmented', 'data-testid': 'opt-opponent' },
      h('legend', { class: 'field-label', text: t('opt.opponent') }),
      h(
        'div',
        { class: 'segments' },
        Object.entries(radios).map(([value, input]) => h('label', { for: `opt-opponent-${value}` }, input, h('span', { text: label(`opt.opponent.${value}`, value) }))),
      ),
    );
    const level = select('opt-bot-level', s.level, values('bot_level').map((l) => [l, levelLabel(l)]));
    const levelHelp = h('p', { class: 'help', id: 'opt-bot-level-help' });
    const levelField = h('div', { class: 'field', 'data-testid': 'bot-level-field' }, h('label', { for: 'opt-bot-level', class: 'field-label', text: t('opt.bot_level') }), level, levelHelp);

    const target = select('opt-target', s.target, []);
    // V4.9 (V4, V5): the score written as it is, or ÷ 10 and played to 100.
    const gameScoring = select('create-scoring', s.gameScoring, ['original', 'simplified'].map((v) => [v, t(`lobby.scoring.${v}`)]));
    const gameScoringField = field('create-scoring', t('lobby.scoring'), gameScoring, null, { 'data-testid': 'create-scoring-field' });
    const targetField = field('opt-target', t('opt.target'), target);
    const [jungfrau, jungfrauField] = check('create-jungfrau', 'create-jungfrau', s.jungfrau, t('lobby.jungfrau'));
    const stake = h('input', { type: 'text', id: 'opt-stake', 'data-testid': 'opt-stake', inputmode: 'decimal', value: s.stake, maxlength: 20, autocomplete: 'off', 'aria-describedby': 'stake-help' });
    const currency = h('input', { type: 'text', id: 'opt-currency', 'data-testid': 'opt-currency', value: s.currency, maxlength: CURRENCY_MAX, autocomplete: 'off' });
    const stakeHelp = h('p', { class: 'help', id: 'stake-help', 'data-testid': 'stake-help' });
    const visibility = select('opt-visibility', s.visibility, values('visibility').map((v) => [v, label(`opt.visibility.${v}`, v)]));
    const visibilityField = field('opt-visibility', t('opt.visibility'), visibility, t('opt.visibility.help'));
    // R6.3: live, or so many days per move (the server's set, TABLE_OPTIONS.pace).
    const pace = select('opt-pace', s.pace, (OPT.pace ? values('pace') : ['live']).map((v) => [v, label(`opt.pace.${v}`, v)]));
    const paceField = field('opt-pace', t('opt.pace'), pace, t('opt.pace.help'));
    const [autoPlay, autoPlayField] = check('opt-auto-play', 'opt-auto-play', s.autoPlay, t('opt.auto_play.long'));
    const [rated, ratedField] = check('opt-rated', 'opt-rated', s.rated, t('opt.rated.long'));
    // Hints at my turn (issue 26): the server offers them to one person against the computer; the form
    // offers only to turn them off there (whether a table may have them is the server's to say).
    const [hints, hintsField] = check('opt-hints', 'opt-hints', s.hints, t('opt.hints.long'));

    // Advanced options, folded away so that the form stays simple.
    const scoring = select('opt-scoring', s.scoring, values('declaration_scoring').map((v) => [v, label(`opt.scoring.${v}.long`, v)]));
    const deck = select('opt-deck', s.deck, gameInfo(TWO_HAND).decks.map(String).map((v) => [v, label(`opt.deck.${v}`, v)]));
    const [bottom, bottomField] = check('opt-bottom', 'opt-stock-bottom', s.bottom, t('opt.stock_bottom.long'));
    const [openScores, openScoresField] = check('opt-open-scores', 'opt-open-scores', s.openScores, t('opt.open_scores.long'));
    const [spectators, spectatorsField] = check('opt-spectators', 'opt-spectators', s.spectators, t('opt.spectators.long'));
    // Quick reactions reach the players; the spectators too only if the players say so (off by default).
    const [reactionsWatch, reactionsWatchField] = check('opt-reactions-watch', 'opt-reactions-watch', s.reactionsWatch, t('opt.reactions_for_spectators.long'));
    const grace = select('opt-grace', s.grace, GRACE_CHOICES.map((sec) => [String(sec), durationText(sec)]));
    // Two-hand only: marriage scoring (ruling V0.5b: by suit in V2–V7), the pack and the stock's bottom card.
    const scoringField = field('opt-scoring', t('opt.scoring'), scoring, t('opt.scoring.help'));
    const deckField = field('opt-deck', t('opt.deck'), deck, t('opt.deck.help'));
    const advanced = h(
      'details',
      { class: 'advanced', 'data-testid': 'opt-advanced', open: s.advanced },
      h('summary', { 'data-testid': 'opt-advanced-toggle', text: t('opt.advanced') }),
      h(
        'div',
        { class: 'advanced-body' },
        scoringField,
        deckField,
        bottomField,
        openScoresField,
        spectatorsField,
        reactionsWatchField,
        field('opt-grace', t('opt.grace'), grace, t('opt.grace.help')),
      ),
    );

    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
    const submit = h('button', { type: 'submit', class: 'btn primary big', 'data-testid': 'create-table' });
    const form = h(
      'form',
      { class: 'card-panel create-form', 'data-testid': 'create-form', 'aria-labelledby': 'create-h' },
      h('h2', { id: 'create-h', text: t('lobby.new_table') }),
      gameField,
      seatRow,
      computerSeatsHelp,
      opponent,
      levelField,
      targetField,
      gameScoringField,
      jungfrauField,
      h('div', { class: 'field-row' }, field('opt-stake', t('opt.stake_per_point'), stake), field('opt-currency', t('opt.currency'), currency)),
      stakeHelp,
      visibilityField,
      paceField,
      autoPlayField,
      ratedField,
      hintsField,
      advanced,
      submit,
      error,
    );
    const variant = () => (sentAsVariant(game.value) ? game.value : null); // RoomCreate: no variant is two-hand 1001
    const seatTotal = () => (variant() ? Number(seats.value) || gameInfo(variant()).seats[0] : 2);
    const bots = () => (variant() ? Number(computerSeats.value) || 0 : computer.checked ? 1 : 0);
    const vsComputer = () => bots() > 0 && bots() === seatTotal() - 1; // nobody to invite
    let humanStake = s.stake; // what the stake field says whenever all seats are human
    stake.addEventListener('input', () => {
      humanStake = stake.value;
    });
    // The choices that depend on the game: seats, computer seats, targets, scoring.
    const syncGame = () => {
      const id = variant();
      const info = gameInfo(id);
      form.dataset.game = info.id;
      gameHelp.textContent = t(`lobby.game.${info.id}.help`);
      const seatChoice = seats.value || String(s.seats ?? info.seats[0]);
      fill(seats, info.seats.map(String).includes(seatChoice) ? seatChoice : String(info.seats[0]), info.seats.map((n) => [String(n), num(n)]));
      const n = seatTotal();
      const botChoice = computerSeats.value || String(s.computerSeats ?? Math.max(0, n - 2));
      const botOptions = Array.from({ length: n }, (_, k) => [String(k), k ? tn('lobby.computer_seats.n', k) : t('lobby.computer_seats.none')]);
      fill(computerSeats, Number(botChoice) < n ? botChoice : String(n - 1), botOptions);
      const offered = targetsOf(id, info.simplified ? gameScoring.value : 'original');
      const targetChoice = target.value || s.target;
      fill(
        target,
        offered.map(String).includes(targetChoice) ? targetChoice : String(offered[0]),
        offered.map((v) => [String(v), label(`opt.target.${v}`, num(v))]),
      );
      target.disabled = offered.length < 2;
      // The computer's levels for this game (GAMES[variant].levels): the choice kept if offered.
      const levels = info.levels;
      const levelChoice = level.value || s.level;
      fill(level, levels.includes(levelChoice) ? levelChoice : levels[levels.length - 1], levels.map((l) => [l, levelLabel(l)]));
      seatRow.hidden = !id;
      seatsField.hidden = info.seats.length < 2;
      computerSeatsHelp.hidden = !id;
      gameScoringField.hidden = !info.simplified;
      opponent.hidden = Boolean(id);
      scoringField.hidden = Boolean(id);
      deckField.hidden = Boolean(id);
      bottomField.hidden = Boolean(id);
    };
    // Who plays: with a computer seat no stake (the server refuses one); no visibility when nobody is invited.
    const sync = () => {
      reactionsWatch.disabled = !spectators.checked; // nobody watches: nothing to show them
      syncGame();
      const k = bots();
      const n = seatTotal();
      const bot = vsComputer();
      form.dataset.opponent = bot ? 'computer' : 'human';
      levelField.hidden = k === 0;
      levelHelp.textContent = t('opt.computer.help');
      levelHelp.hidden = Boolean(variant()); // a variant's seats say it in one line above
      computerSeatsHelp.textContent = bot ? t('lobby.computer_seats.solo') : tn('lobby.computer_seats.friends', n - 1 - k);
      visibilityField.hidden = bot;
      ratedField.hidden = k > 0; // a match with a computer seat is never rated
      hintsField.hidden = !bot;
      autoPlayField.hidden = pace.value === 'live' || !OPT.auto_play;
      stake.disabled = k > 0;
      currency.disabled = k > 0;
      stake.value = k > 0 ? '0' : humanStake;
      stakeHelp.textContent = k === 0 ? t('opt.stake.help') : variant() ? t('lobby.stake.computer_seat') : t('opt.stake.computer');
      submit.textContent = bot ? t('lobby.create.computer') : t('lobby.create');
    };
    const save = () => {
      lastForm = {
        opponent: computer.checked ? 'computer' : 'human',
        level: level.value,
        target: target.value,
        scoring: scoring.value,
        deck: deck.value,
        bottom: bottom.checked,
        openScores: openScores.checked,
        spectators: spectators.checked,
        rated: rated.checked,
        hints: hints.checked,
        reactionsWatch: reactionsWatch.checked,
        grace: grace.value,
        pace: pace.value,
        autoPlay: autoPlay.checked,
        stake: humanStake,
        currency: currency.value,
        visibility: visibility.value,
        advanced: advanced.open,
        game: game.value,
        seats: seats.value,
        computerSeats: computerSeats.value,
        gameScoring: gameScoring.value,
        jungfrau: jungfrau.checked,
      };
    };
    form.addEventListener('input', save);
    form.addEventListener('change', (event) => {
      // Another game starts from its own defaults for seats and targets.
      if (event.target === game) {
        seats.value = '';
        s.seats = null;
      }
      // … and so do the computer seats for another game or seat count: two friends, the rest computers.
      if (event.target === game || event.target === seats) {
        computerSeats.value = '';
        s.computerSeats = null;
      }
      sync();
      save();
    });
    advanced.addEventListener('toggle', save);
    sync();
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const id = variant();
      const k = bots();
      const common = {
        target: Number(target.value),
        open_scores: openScores.checked,
        spectators: spectators.checked,
        reconnect_grace_s: Number(grace.value),
      };
      // Two-hand 1001 sends exactly what it always did; a variant sends its own fields instead of
      // the two-hand-only ones (marriage scoring, pack, the stock's bottom card).
      const body = id
        ? { variant: id, seats: seatTotal(), computer_seats: k, ...common }
        : { opponent: k ? 'computer' : 'human', ...common, declaration_scoring: scoring.value, show_stock_bottom: bottom.checked, deck_size: Number(deck.value) };
      if (id && gameInfo(id).simplified) body.scoring = gameScoring.value;
      if (jungfrau.checked) body.jungfrau = true;
      if (pace.value !== 'live') body.pace = pace.value;
      if (pace.value !== 'live' && autoPlay.checked) body.auto_play = true;
      if (k === 0 && !rated.checked) body.rated = false;
      if (vsComputer() && !hints.checked) body.hints = false;
      if (reactionsWatch.checked && spectators.checked) body.reactions_for_spectators = true;
      if (k > 0) {
        body.bot_level = level.value;
        body.stake_per_point = '0';
        if (!vsComputer()) body.visibility = visibility.value;
      } else {
        const stakeText = stake.value.trim().replace(',', '.') || '0';
        if (!/^\d{1,12}(\.\d{1,6})?$/.test(stakeText)) {
          error.textContent = t('opt.stake.invalid');
          stake.focus();
          return;
        }
        const cur = currency.value.trim();
        if (cur.length < CURRENCY_MIN || cur.length > CURRENCY_MAX) {
          error.textContent = t('opt.currency.invalid');
          currency.focus();
          return;
        }
        Object.assign(body, { stake_per_point: stakeText, currency: cur, visibility: visibility.value });
      }
      error.textContent = '';
      submit.disabled = true;
      try {
        const room = await api.createRoom(body);
        // With only computers to wait for the match is already playing: straight to the table.
        location.hash = `#/table/${encodeURIComponent(room.id)}`;
      } catch (err) {
        error.textContent = err.status === 422 ? t('lobby.create.invalid') : apiErrorText(err);
        submit.disabled = false;
      }
    });
    return form;
  }

  const onPlayer = () => render();
  window.addEventListener('player-changed', onPlayer);
  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      clearInterval(clock);
      document.title = t('app.title'); // the count belongs to the lobby (the badge stays: the games still wait)
      if (stream) stream.close();
      window.removeEventListener('player-changed', onPlayer);
    },
  };
}
