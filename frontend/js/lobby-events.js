// The lobby's event stream (GET /api/me/events, Server-Sent Events; docs/protocol.md): "Play again"
// invitations as they are made, "My games" (`games`) and the public tables (`tables`) whenever they
// change — the lobby polls nothing. An EventSource cannot send the token, so every (re)connect first
// asks for a one-time ticket, as a table's socket does; a dropped stream is opened again after a
// pause that grows (1 s … 30 s), at once when the page comes back online or into view.
import { api } from './api.js';
import { LOBBY_EVENTS } from './generated/protocol.js';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30000;

/**
 * Listen to the player's lobby events until `close()`: `onInvitation(invitation)`,
 * `onGone({room_id, reason})`, `onGames({games, waiting})`, `onTables({open, watchable})`, `onReady()` (the stream is listened to; waiting invitations came
 * just before) and `onDrop()` (it was lost; it is being opened again). Returns `{close}`.
 */
export function lobbyEvents({ onInvitation, onGone, onGames = () => {}, onTables = () => {}, onReady = () => {}, onDrop = () => {} }) {
  let source = null;
  let timer = null;
  let stopped = false;
  let delay = RETRY_FIRST_MS;
  let opening = false;

  const data = (event) => {
    try {
      return JSON.parse(event.data);
    } catch {
      return null;
    }
  };

  async function open() {
    if (stopped || source || opening) return;
    opening = true;
    let ticket;
    try {
      ticket = (await api.socketTicket()).ticket;
    } catch (err) {
      opening = false;
      if (err.status !== 401) retry(); // 401: signed out; the lobby renders again without a stream
      return;
    }
    opening = false;
    if (stopped) return;
    const es = new EventSource(`/api/me/events?ticket=${encodeURIComponent(ticket)}`);
    source = es;
    es.addEventListener(LOBBY_EVENTS.READY, () => {
      delay = RETRY_FIRST_MS;
      onReady();
    });
    es.addEventListener(LOBBY_EVENTS.INVITATION, (event) => {
      const invitation = data(event);
      if (invitation) onInvitation(invitation);
    });
    es.addEventListener(LOBBY_EVENTS.INVITATION_GONE, (event) => {
      const gone = data(event);
      if (gone) onGone(gone);
    });
    es.addEventListener(LOBBY_EVENTS.MY_GAMES, (event) => {
      const games = data(event);
      if (games) onGames(games);
    });
    es.addEventListener(LOBBY_EVENTS.PUBLIC_TABLES, (event) => {
      const tables = data(event);
      if (tables) onTables(tables);
    });
    // A drop, a server restart or a refused ticket: never the browser's own retry with a used ticket.
    es.onerror = () => {
      if (source !== es) return;
      es.close();
      source = null;
      onDrop();
      retry();
    };
  }

  function retry() {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(open, delay);
    delay = Math.min(delay * 2, RETRY_MAX_MS);
  }

  function soon() {
    if (stopped || source) return;
    delay = RETRY_FIRST_MS;
    clearTimeout(timer);
    open();
  }
  const onVisible = () => {
    if (document.visibilityState === 'visible') soon();
  };
  window.addEventListener('online', soon);
  document.addEventListener('visibilitychange', onVisible);
  open();

  return {
    close() {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', soon);
      document.removeEventListener('visibilitychange', onVisible);
      if (source) source.close();
      source = null;
    },
  };
}
