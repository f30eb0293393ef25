// The one WebSocket per table: connect, reconnect with exponential backoff, hand every
// message to the view. The server sends the full state on every (re)connect.
//
// The long-lived player token never goes into a URL: before every (re)connect the client asks
// `POST /api/socket-ticket` (with the usual Authorization header) for a one-time ticket valid a
// few seconds, and opens `/ws/rooms/{id}?ticket=…&protocol=…` with it.
//
// Every socket — a player's and a spectator's (views/watch.js) — names the protocol version the page
// speaks (`PROTOCOL`, generated from the server's own). A page older than the server is closed with
// 4426 (OUTDATED_CLIENT): it reloads once to fetch the current version; should the reloaded page be
// refused again, it says so instead of reloading for ever.
//
// A socket can stall without closing (a phone between cells, a proxy holding frames): the page's own
// keep-alive finds out. While open it sends `{"type": "ping"}` every PING_MS (and at once with a
// move, `probe()`); the server answers `pong`. Any message counts as an answer. No answer after
// SLOW_MS: `onHealth('slow')`; after DEAD_MS the socket is given up and a new one opened (status
// 'reconnecting'); the next message: `onHealth('ok')`.
import { api } from './api.js';
import { CLOSE_CODES, PROTOCOL } from './generated/protocol.js';

const PROTOCOL_RELOAD = '1001.reloaded-for-protocol';

/** A socket address on this server: `path` with the query `params` and the protocol version. */
export function socketUrl(path, params = {}) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = new URLSearchParams({ ...params, protocol: String(PROTOCOL) });
  return `${scheme}://${location.host}${path}?${query}`;
}

/** 4426: reload the page once (true: reloading); false if this page was already reloaded for it. */
export function reloadOnce() {
  try {
    if (sessionStorage.getItem(PROTOCOL_RELOAD)) return false;
    sessionStorage.setItem(PROTOCOL_RELOAD, '1');
  } catch {
    return false;
  }
  location.reload();
  return true;
}

/** The server took this page's protocol: a later 4426 (after a deploy) may reload again. */
export function protocolAccepted() {
  try {
    sessionStorage.removeItem(PROTOCOL_RELOAD);
  } catch {
    /* private mode: nothing kept */
  }
}

const FATAL = {
  [CLOSE_CODES.BAD_TOKEN]: 'unauthorized',
  [CLOSE_CODES.NOT_SEATED]: 'not_seated',
  [CLOSE_CODES.UNKNOWN_ROOM]: 'room_not_found',
  [CLOSE_CODES.TABLE_CLOSED]: 'room_closed',
  [CLOSE_CODES.POLICY]: 'policy',
  [CLOSE_CODES.OUTDATED_CLIENT]: 'outdated', // once the one reload did not help
};
const REPLACED = CLOSE_CODES.REPLACED;
const MIN_DELAY = 500;
const MAX_DELAY = 8000;
const OPEN_TIMEOUT = 10000;
export const PING_MS = 3000;
export const SLOW_MS = 3000;
export const DEAD_MS = 8000;
const PING = JSON.stringify({ type: 'ping' });

let current = null; // for the test hook below

export class RoomSocket {
  /**
   * @param {string} roomId
   * @param {{onMessage: (msg: object) => void, onStatus: (status: string, detail?: string) => void}} handlers
   * status: 'connecting' (first time), 'open', 'reconnecting', 'fatal' (detail = reason), 'replaced', 'stopped'
   * onHealth (optional): 'ok' or 'slow' — an open socket whose answer to a ping is late
   */
  constructor(roomId, handlers) {
    this.roomId = roomId;
    this.handlers = handlers;
    this.attempt = 0; // each connect() counts up; an older attempt still waiting gives up
    this.ticketRetried = false; // one fresh ticket after a 4401 before it counts as fatal
    this.ws = null;
    this.delay = MIN_DELAY;
    this.timer = null;
    this.openTimer = null;
    this.everOpen = false;
    this.status = 'idle';
    this.health = 'ok';
    this.beat = null; // the ping interval of the open socket
    this.waiting = null; // {slow, dead}: the timers of a ping (or move) not answered yet
    this.onOnline = () => {
      if (this.status === 'reconnecting') this.reconnectNow();
    };
  }

  /** The socket's address: the one-time ticket (never the player's token) and the protocol version. */
  url(ticket) {
    return socketUrl(`/ws/rooms/${encodeURIComponent(this.roomId)}`, { ticket });
  }

  /** A fresh one-time ticket; rejects with ApiError (status 401: the token is not valid). */
  fetchTicket() {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('ticket timeout')), OPEN_TIMEOUT);
    });
    return Promise.race([api.socketTicket(), timeout]).finally(() => clearTimeout(timer));
  }

  start() {
    current = this;
    window.addEventListener('online', this.onOnline);
    this.connect();
  }

  setStatus(status, detail) {
    this.status = status;
    this.handlers.onStatus(status, detail);
  }

  async connect() {
    clearTimeout(this.timer);
    this.timer = null;
    const attempt = ++this.attempt;
    this.setStatus(this.everOpen ? 'reconnecting' : 'connecting');
    let ticket;
    try {
      const answer = await this.fetchTicket();
      ticket = answer && answer.ticket;
      if (!ticket) throw new Error('no ticket');
    } catch (err) {
      if (attempt !== this.attempt || this.status === 'stopped') return;
      if (err && err.status === 401) this.setStatus('fatal', FATAL[CLOSE_CODES.BAD_TOKEN]);
      else this.scheduleReconnect(); // the network or the server: back off as after a failed connect
      return;
    }
    if (attempt !== this.attempt || this.status === 'stopped') return;
    let ws;
    try {
      ws = new WebSocket(this.url(ticket));
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    let gotMessage = false;
    this.openTimer = setTimeout(() => {
      if (this.ws === ws && ws.readyState !== WebSocket.OPEN) ws.close();
    }, OPEN_TIMEOUT);
    ws.onmessage = (event) => {
      if (this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.heard();
      if (!gotMessage) {
        // Connected for real once the server has spoken (it may accept and then close).
        gotMessage = true;
        this.everOpen = true;
        this.delay = MIN_DELAY;
        this.ticketRetried = false;
        protocolAccepted();
        this.setStatus('open');
        this.startBeat(ws);
      }
      if (msg && msg.type === 'pong') return; // the keep-alive's: nothing for the page
      this.handlers.onMessage(msg);
    };
    ws.onclose = (event) => {
      clearTimeout(this.openTimer);
      if (this.ws !== ws) return;
      this.stopBeat();
      this.ws = null;
      if (this.status === 'stopped') return;
      if (event.code === CLOSE_CODES.BAD_TOKEN && !gotMessage && !this.ticketRetried) {
        // The ticket may have lapsed (a phone that slept between asking and opening): ask for a
        // fresh one at once; if the token itself is refused, the ticket request answers 401.
        this.ticketRetried = true;
        this.connect();
        return;
      }
      if (event.code === CLOSE_CODES.OUTDATED_CLIENT && reloadOnce()) {
        this.setStatus('stopped'); // the page reloads with the current version
        return;
      }
      if (FATAL[event.code]) {
        this.setStatus('fatal', FATAL[event.code]);
        return;
      }
      if (event.code === REPLACED) {
        this.setStatus('replaced');
        return;
      }
      if (event.code === CLOSE_CODES.SERVICE_RESTART && gotMessage) {
        // The server restarts and has handed the table over: reconnect at once (the proxy picks
        // another server); if that fails, the usual backoff follows.
        this.connect(); // shows 'reconnecting': the socket was open before
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  // ---------------------------------------------------------------- the keep-alive

  startBeat(ws) {
    this.stopBeat();
    this.beat = setInterval(() => this.ws === ws && this.probe(), PING_MS);
  }

  stopBeat() {
    clearInterval(this.beat);
    this.beat = null;
    this.clearWaiting();
    this.setHealth('ok');
  }

  clearWaiting() {
    if (!this.waiting) return;
    clearTimeout(this.waiting.slow);
    clearTimeout(this.waiting.dead);
    this.waiting = null;
  }

  setHealth(health) {
    if (health === this.health) return;
    this.health = health;
    if (this.handlers.onHealth) this.handlers.onHealth(health);
  }

  /** Something arrived: the socket is alive. */
  heard() {
    this.clearWaiting();
    this.setHealth('ok');
  }

  /** Ping now unless an earlier ping (or move) still waits for its answer; time the answer. */
  probe() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || this.waiting) return;
    ws.send(PING);
    this.waiting = {
      slow: setTimeout(() => this.ws === ws && this.setHealth('slow'), SLOW_MS),
      dead: setTimeout(() => this.ws === ws && this.giveUp(ws), DEAD_MS),
    };
  }

  /** The socket is open but nothing comes back: leave it and open a new one. */
  giveUp(ws) {
    this.ws = null;
    this.stopBeat();
    try {
      ws.close(3001, 'stalled');
    } catch {
      /* closing anyway */
    }
    this.connect(); // 'reconnecting': it was open
  }

  scheduleReconnect() {
    this.everOpen = true; // from now on a lost socket shows the reconnecting overlay
    this.setStatus('reconnecting');
    const jitter = 0.8 + Math.random() * 0.4;
    const wait = Math.round(this.delay * jitter);
    this.delay = Math.min(this.delay * 2, MAX_DELAY);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  reconnectNow() {
    this.delay = MIN_DELAY;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
    this.stopBeat();
    this.connect();
  }

  /** Send one JSON message; false if the socket is not open (the caller keeps its intent). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    this.probe(); // a move wants its answer: time it like a ping
    return true;
  }

  /** Simulate a dropped connection (test hook and debugging). */
  /** The socket is lost now (the tests' hook): left at once, as `giveUp` leaves a stalled one —
   * while the network is down its close handshake may not finish for seconds. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    this.stopBeat();
    ws.close(3000, 'drop');
    this.scheduleReconnect();
  }

  stop() {
    this.attempt++;
    this.setStatus('stopped');
    clearTimeout(this.timer);
    clearTimeout(this.openTimer);
    this.stopBeat();
    window.removeEventListener('online', this.onOnline);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
    if (current === this) current = null;
  }
}

// Test hook: end-to-end tests cut the connection with window.__1001.dropSocket().
window.__1001 = Object.assign(window.__1001 || {}, {
  dropSocket() {
    if (current) current.drop();
    return Boolean(current);
  },
});
