// The one WebSocket per table: connect, reconnect with exponential backoff, hand every
// message to the view. The server sends the full state on every (re)connect.

const FATAL = { 4401: 'unauthorized', 4403: 'not_seated', 4404: 'room_not_found', 1008: 'origin' };
const REPLACED = 4409;
const MIN_DELAY = 500;
const MAX_DELAY = 8000;
const OPEN_TIMEOUT = 10000;

let current = null; // for the test hook below

export class RoomSocket {
  /**
   * @param {string} roomId
   * @param {string} token
   * @param {{onMessage: (msg: object) => void, onStatus: (status: string, detail?: string) => void}} handlers
   * status: 'connecting' (first time), 'open', 'reconnecting', 'fatal' (detail = reason), 'replaced', 'stopped'
   */
  constructor(roomId, token, handlers) {
    this.roomId = roomId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.delay = MIN_DELAY;
    this.timer = null;
    this.openTimer = null;
    this.everOpen = false;
    this.status = 'idle';
    this.onOnline = () => {
      if (this.status === 'reconnecting') this.reconnectNow();
    };
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    return `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}?token=${encodeURIComponent(this.token)}`;
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

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    this.setStatus(this.everOpen ? 'reconnecting' : 'connecting');
    let ws;
    try {
      ws = new WebSocket(this.url());
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
      if (!gotMessage) {
        // Connected for real once the server has spoken (it may accept and then close).
        gotMessage = true;
        this.everOpen = true;
        this.delay = MIN_DELAY;
        this.setStatus('open');
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (event) => {
      clearTimeout(this.openTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.status === 'stopped') return;
      if (FATAL[event.code]) {
        this.setStatus('fatal', FATAL[event.code]);
        return;
      }
      if (event.code === REPLACED) {
        this.setStatus('replaced');
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
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
    this.connect();
  }

  /** Send one JSON message; false if the socket is not open (the caller keeps its intent). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Simulate a dropped connection (test hook and debugging). */
  drop() {
    if (this.ws) this.ws.close(3000, 'drop');
  }

  stop() {
    this.setStatus('stopped');
    clearTimeout(this.timer);
    clearTimeout(this.openTimer);
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
