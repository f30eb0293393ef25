// The player's identity in this browser: id, name and the secret token (localStorage).
const KEY = '1001.player';

export function getPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || 'null');
    return p && p.id && p.token ? p : null;
  } catch {
    return null;
  }
}

export function setPlayer(player) {
  localStorage.setItem(KEY, JSON.stringify({ id: player.id, name: player.name, token: player.token }));
  window.dispatchEvent(new CustomEvent('player-changed'));
}

export function clearPlayer() {
  localStorage.removeItem(KEY);
  window.dispatchEvent(new CustomEvent('player-changed'));
}

/** The client message id counter for a room: increasing, and kept across reloads so that
 * a reloaded page never reuses an id the server has already answered. */
export function nextMessageId(roomId) {
  const key = `1001.msgid.${roomId}`;
  const next = (parseInt(localStorage.getItem(key) || '0', 10) || 0) + 1;
  localStorage.setItem(key, String(next));
  return next;
}
