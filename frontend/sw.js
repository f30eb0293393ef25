// The service worker: keeps the static client of one version so that the page opens from the
// phone's storage. It keeps nothing else: the REST API (/api), the sockets (/ws) and every other
// request go to the network untouched, so the game state is never stored here.
//
// The server (backend/api/static.py) fills in VERSION (the hash of the client's files) and SHELL
// (the page and the versioned files it loads) when it starts; a new deploy therefore changes this
// file, the browser installs the new worker, and `activate` deletes the caches of older versions.
const VERSION = 'dev';
const SHELL = [];

const CACHE = `1001-static-${VERSION}`;
const ASSETS = `/v/${VERSION}/`;

/** Only the page itself and the current version's files; never the API, the sockets or anything else. */
function cacheable(url) {
  if (url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith('/api') || url.pathname.startsWith('/ws')) return false;
  return url.pathname === '/' || url.pathname.startsWith(ASSETS);
}

/** A versioned file is kept only when the server vouched for its version (`immutable`): during a
 * rolling deploy an older server answers a newer version's URL with its own file and `no-cache`. */
function keepable(url, response) {
  if (!cacheable(url) || !response.ok || response.type !== 'basic') return false;
  return url.pathname === '/' || (response.headers.get('cache-control') || '').includes('immutable');
}

async function fetchAndKeep(cache, request) {
  const response = await fetch(request);
  const url = new URL(typeof request === 'string' ? request : request.url, self.location.origin);
  if (keepable(url, response)) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => Promise.all(SHELL.map((url) => fetchAndKeep(cache, url))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith('1001-static-') && name !== CACHE).map((name) => caches.delete(name)),
      ))
      .then(() => self.clients.claim()),
  );
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(request)) || fetchAndKeep(cache, request);
}

// The page (index.html) always comes from the server when it answers; the kept copy is for offline.
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await cache.put('/', response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match('/');
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!cacheable(url)) return; // not answered here: the browser fetches it as if there were no worker
  if (url.pathname === '/') {
    if (request.mode === 'navigate') event.respondWith(networkFirst(request));
    return;
  }
  event.respondWith(cacheFirst(request));
});

// Web Push (issue 45): the server's notification ({title, body, url, tag, kind}) shown; one per table
// (`tag`: a newer one replaces the older), and a tap opens its table in a window of the game.
self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '1001' };
  }
  const url = typeof data.url === 'string' && data.url.startsWith('/#/') ? data.url : '/';
  event.waitUntil(
    self.registration.showNotification(data.title || '1001', {
      body: data.body || '',
      tag: data.tag || 'table',
      renotify: true,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url, kind: data.kind || '' },
    }),
  );
});

async function openTable(url) {
  const target = new URL(url, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if (new URL(client.url).origin !== self.location.origin) continue;
    const shown = await client.navigate(target).catch(() => null);
    if (shown) {
      await shown.focus().catch(() => null);
      return shown;
    }
  }
  return self.clients.openWindow(target);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openTable((event.notification.data && event.notification.data.url) || '/'));
});
