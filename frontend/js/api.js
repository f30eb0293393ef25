// REST calls (docs/protocol.md). Errors become ApiError with the server's stable code.
import { getPlayer, clearPlayer } from './session.js';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  const player = getPlayer();
  if (player) headers.Authorization = `Bearer ${player.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, 'network', String(err));
  }
  if (response.status === 204) return null;
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const detail = data && data.detail;
    let code = `http_${response.status}`;
    let message = '';
    if (detail && typeof detail === 'object' && !Array.isArray(detail)) {
      code = detail.code || code;
      message = detail.message || '';
    } else if (response.status === 422) {
      code = 'invalid';
    }
    if (response.status === 401) {
      code = 'unauthorized';
      if (player) clearPlayer();
    }
    throw new ApiError(response.status, code, message);
  }
  return data;
}

function codeQuery(code) {
  return code ? `?code=${encodeURIComponent(code)}` : '';
}

/** Lists may come bare or wrapped ({items: [...]}, {matches: [...]} …). */
export function asList(data, ...keys) {
  if (Array.isArray(data)) return data;
  for (const key of [...keys, 'items', 'results']) if (data && Array.isArray(data[key])) return data[key];
  return [];
}

export const api = {
  createPlayer: (name) => request('POST', '/api/players', { name }),
  me: () => request('GET', '/api/me'),
  /** A one-time ticket for opening a table's socket: `{ticket, expires_in}` (the token stays in the header). */
  socketTicket: () => request('POST', '/api/socket-ticket'),
  createRoom: (options) => request('POST', '/api/rooms', options),
  openRooms: () => request('GET', '/api/rooms'),
  myRooms: () => request('GET', '/api/rooms/mine'),
  watchableRooms: () => request('GET', '/api/rooms/watchable'),
  allowWatching: (id, allowed) => request('PATCH', `/api/rooms/${encodeURIComponent(id)}`, { spectators: allowed }),
  allowReactionsWatch: (id, allowed) => request('PATCH', `/api/rooms/${encodeURIComponent(id)}`, { reactions_for_spectators: allowed }),
  watchLink: (id) => request('POST', `/api/rooms/${encodeURIComponent(id)}/watch-link`),
  room: (id) => request('GET', `/api/rooms/${encodeURIComponent(id)}`),
  joinRoom: (id) => request('POST', `/api/rooms/${encodeURIComponent(id)}/join`),
  leaveRoom: (id) => request('POST', `/api/rooms/${encodeURIComponent(id)}/leave`),
  seatComputers: (id, level) => request('POST', `/api/rooms/${encodeURIComponent(id)}/computers`, { level }),
  invite: (code) => request('GET', `/api/invites/${encodeURIComponent(code)}`),
  // what an invitation is, before a name is chosen (no player needed)
  invitePreview: (code) => request('GET', `/api/invites/${encodeURIComponent(code)}/preview`),
  joinInvite: (code) => request('POST', `/api/invites/${encodeURIComponent(code)}/join`),
  matches: (limit = 50, offset = 0) => request('GET', `/api/matches?limit=${limit}&offset=${offset}`),
  match: (id) => request('GET', `/api/matches/${encodeURIComponent(id)}`),
  // Replays need no account: a public table's for anyone, a private one's for its players or with
  // its watch code (`code`, from the watch link).
  /** A finished match in the replay CLI's input format: `{match_id, players, deals: [{number, replay, result}]}`. */
  matchReplay: (id, code = null) => request('GET', `/api/matches/${encodeURIComponent(id)}/replay${codeQuery(code)}`),
  /** One deal of a finished match, the position after every action: `{players, dealer, deals, result, frames}`. */
  dealReplay: (id, number, code = null) => request('GET', `/api/matches/${encodeURIComponent(id)}/deals/${Number(number)}/replay${codeQuery(code)}`),
  // The computer's analysis of a finished deal (issue 26): the replay's access, the same `code`.
  /** Start it unless stored: `{status, done, total, analysis}` (202 while queued or running, 200 done). */
  analyseDeal: (id, number, code = null) => request('POST', `/api/matches/${encodeURIComponent(id)}/deals/${Number(number)}/analysis${codeQuery(code)}`),
  /** What there is of it: `{status: none|queued|running|done|failed, done, total, analysis}`. */
  dealAnalysis: (id, number, code = null) => request('GET', `/api/matches/${encodeURIComponent(id)}/deals/${Number(number)}/analysis${codeQuery(code)}`),
  /** Every deal's status and points given away per seat, and the match's: `{deals, given_away, analysed, finished_deals}`. */
  matchAnalysis: (id, code = null) => request('GET', `/api/matches/${encodeURIComponent(id)}/analysis${codeQuery(code)}`),
  ledger: () => request('GET', '/api/ledger'),
  // Play again (issue 27): recent opponents, a private table with the last options for one of them
  // (`{room, invitee, online}`), and "Not now" for an invitation received (lobby-events.js).
  recentOpponents: () => request('GET', '/api/me/opponents'),
  inviteOpponent: (id) => request('POST', `/api/me/opponents/${encodeURIComponent(id)}/invite`),
  declineInvitation: (roomId) => request('POST', `/api/me/invitations/${encodeURIComponent(roomId)}/decline`),
  /** A player's ratings per game kind (RATING_KINDS): {player_id, ratings: [{kind, rating, mu, sigma, matches}]}. */
  playerRatings: (id) => request('GET', `/api/players/${encodeURIComponent(id)}/ratings`),
  /** Head to head of 2–4 people (ids): figures per game kind, the stakes between them, a page of their matches. */
  headToHead: (ids, { computers = false, limit = 50, offset = 0 } = {}) =>
    request('GET', `/api/head-to-head?players=${ids.map(encodeURIComponent).join(',')}&computers=${computers}&limit=${limit}&offset=${offset}`),
  /** Every people-only match of 2–4 people (ids), oldest first, as final totals: `{players, points, cap, truncated}`. */
  headToHeadSeries: (ids) => request('GET', `/api/head-to-head/series?players=${ids.map(encodeURIComponent).join(',')}`),
  /** A one-time sign-in link for another device: `{code, expires_at, qr_svg}`. */
  createDeviceLink: () => request('POST', '/api/device-links'),
  /** Redeem a sign-in link's code: `{id, name, token}` — the same player, a token for this device. */
  redeemDeviceLink: (code) => request('POST', '/api/device-links/redeem', { code }),
  /** Sign every other device of this player out: `{devices}`, how many were. */
  signOutOthers: () => request('POST', '/api/me/sign-out-others'),
  /** Delete this account (finished matches keep it as "Deleted player"); 409 room_started while playing. */
  deleteAccount: () => request('DELETE', '/api/me'),
  // Web Push (issue 45, push.js): the server's VAPID public key, and this device's subscription.
  pushKey: () => request('GET', '/api/push/key'),
  subscribePush: (subscription) => request('POST', '/api/me/push-subscriptions', subscription),
  unsubscribePush: (endpoint) => request('DELETE', `/api/me/push-subscriptions?endpoint=${encodeURIComponent(endpoint)}`),
};
