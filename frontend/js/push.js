// "Your turn" notifications by Web Push (issue 45): turned on by a tap in the lobby, never asked for
// on a page load. The service worker (sw.js) shows what the server sends and opens the table on a tap.
// Where push is unavailable (declined, or a browser without it) the lobby still shows everything.
import { api } from './api.js';
import { getLang } from './i18n.js';

/** Can this browser get notifications from this page at all? */
export function pushSupported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;
}

async function registration() {
  return navigator.serviceWorker.ready;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** 'unsupported', 'denied' (blocked in the browser's settings), 'on' or 'off'. */
export async function pushState() {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission !== 'granted') return 'off';
  const reg = await registration();
  return (await reg.pushManager.getSubscription()) ? 'on' : 'off';
}

function asSent(subscription) {
  const json = subscription.toJSON();
  return { endpoint: json.endpoint, keys: json.keys, lang: getLang() };
}

/** After a tap: ask the browser (its one permission prompt), subscribe, and tell the server. */
export async function enablePush() {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const reg = await registration();
  let subscription = await reg.pushManager.getSubscription();
  if (!subscription) {
    const { public_key: key } = await api.pushKey();
    subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  }
  await api.subscribePush(asSent(subscription));
  return 'on';
}

export async function disablePush() {
  const reg = await registration();
  const subscription = await reg.pushManager.getSubscription();
  if (subscription) {
    await api.unsubscribePush(subscription.endpoint).catch(() => null);
    await subscription.unsubscribe().catch(() => null);
  }
  return 'off';
}

/** On opening the lobby: a device whose notifications are on tells the server again (after a
 * sign-out on every device, for the player signed in now, in the language chosen now). Never asks. */
export async function resyncPush() {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  const subscription = await (await registration()).pushManager.getSubscription();
  if (subscription) await api.subscribePush(asSent(subscription)).catch(() => null);
}
