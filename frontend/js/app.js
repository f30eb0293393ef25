// The hash router and the page frame (navigation, language picker, player chip).
import { fit, fitText } from './fit.js';
import { LANGUAGES, getLang, onLangChange, setLang, t, translateStatic } from './i18n.js';
import { getPlayer } from './session.js';
import { setChildren } from './dom.js';
import * as lobby from './views/lobby.js';
import * as invite from './views/invite.js';
import * as rules from './views/rules.js';

// The table and the history (and the modules only they use) are loaded when first opened, so a
// first visit to the lobby or the rules does not fetch them (frontend/README.md, "Delivery").
const table = './views/table.js';
const history = './views/history.js';
const device = './views/device.js';
const watch = './views/watch.js';
const replay = './views/replay.js';
const h2h = './views/h2h.js';

const routes = [
  [/^\/?$/, 'lobby', (root) => lobby.mount(root)],
  [/^\/table\/([^/]+)$/, 'lobby', later(table, (view, root, m) => view.mount(root, decodeURIComponent(m[1])))],
  [/^\/watch\/([^/]+)(?:\/([^/]+))?$/, 'lobby', later(watch, (view, root, m) => view.mount(root, decodeURIComponent(m[1]), m[2] ? decodeURIComponent(m[2]) : null))],
  [/^\/invite\/([^/]+)$/, 'lobby', (root, m) => invite.mount(root, decodeURIComponent(m[1]))],
  [/^\/history$/, 'history', later(history, (view, root) => view.mountList(root))],
  [/^\/history\/([^/]+)$/, 'history', later(history, (view, root, m) => view.mountMatch(root, decodeURIComponent(m[1])))],
  // `/replay/<match>/<deal>/<code>`: a private table's replay opened with its watch code (no account needed).
  [/^\/replay\/([^/]+)\/(\d{1,3})(?:\/([^/]+))?$/, 'history', later(replay, (view, root, m) => view.mount(root, decodeURIComponent(m[1]), Number(m[2]), m[3] ? decodeURIComponent(m[3]) : null))],
  // `/h2h/<id>,<id>[,<id>,<id>]`: a pair, or the people of a table of three or four.
  [/^\/h2h\/([^/]+)$/, 'history', later(h2h, (view, root, m) => view.mount(root, decodeURIComponent(m[1]).split(',')))],
  [/^\/rules$/, 'rules', styled('./views/rules.js', (root) => rules.mount(root))],
  [/^\/device$/, 'device', later(device, (view, root) => view.mountDevice(root))],
  [/^\/signin\/([^/]+)$/, 'device', later(device, (view, root, m) => view.mountSignin(root, decodeURIComponent(m[1])))],
];

let currentView = null;
let currentPath = null;
let routed = 0; // counts route() calls: a view that finished loading late mounts only if still wanted
const RELOADED = '1001.reloaded-for-update';

/** A route whose view module (`spec`) is loaded on first use; `mount(module, root, match)` runs once it is here. */
function later(spec, mount) {
  return (root, match) => {
    const turn = routed;
    preloadModules(spec);
    Promise.all([import(spec), loadStyles(spec)])
      .then(([view]) => {
        sessionStorage.removeItem(RELOADED);
        if (turn === routed) currentView = mount(view, root, match) || null;
      })
      .catch((error) => {
        console.error('could not load the page', error);
        // After a deploy this page's modules may not fit the server's newer ones: one reload loads
        // the new version (once: offline, the next failure stays on the page).
        if (!sessionStorage.getItem(RELOADED)) {
          sessionStorage.setItem(RELOADED, '1');
          location.reload();
        }
      });
    return null;
  };
}

/** A route drawn by a module already loaded whose stylesheets come with it: drawn once they are here. */
function styled(spec, mount) {
  return (root, match) => {
    const turn = routed;
    const ready = loadStyles(spec);
    if (ready === null) return mount(root, match);
    ready.then(() => {
      if (turn === routed) currentView = mount(root, match) || null;
    });
    return null;
  };
}

// index.html lists the stylesheet bundles each view needs beyond the first visit's (`view-styles`,
// backend/api/static.py): they are linked when the view first opens, in the page's order (the
// cascade stays the page's), and the view is drawn once they have loaded (no unstyled flash).
const sheets = new Map(); // bundle path → the promise of its load
function styleGraph() {
  const graph = document.getElementById('view-styles');
  return graph ? JSON.parse(graph.textContent) : { order: [], views: {} };
}

/** Links the bundles `spec` needs; null when all are loaded, else a promise of their load. */
function loadStyles(spec) {
  const { order, views } = styleGraph();
  const path = new URL(spec, import.meta.url).href.slice(CLIENT_ROOT.href.length);
  const waits = [];
  for (const file of views[path] || []) {
    if (!sheets.has(file)) sheets.set(file, linkSheet(file, order));
    if (sheets.get(file) !== true) waits.push(sheets.get(file));
  }
  return waits.length ? Promise.all(waits) : null;
}

function linkSheet(file, order) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL(file, CLIENT_ROOT).href;
  link.dataset.bundle = file;
  const rank = order.indexOf(file);
  const after = [...document.querySelectorAll('link[data-bundle]')].find((l) => order.indexOf(l.dataset.bundle) > rank);
  if (after) after.before(link);
  else {
    const linked = document.querySelectorAll('link[rel="stylesheet"]');
    if (linked.length) linked[linked.length - 1].after(link);
    else document.head.append(link);
  }
  return new Promise((resolve) => {
    const done = () => {
      sheets.set(file, true);
      resolve();
    };
    link.addEventListener('load', done, { once: true });
    link.addEventListener('error', () => { console.warn('stylesheet', file); done(); }, { once: true });
  });
}

// index.html lists, for each view loaded on demand, the modules it brings (backend/api/static.py):
// they are all requested at once instead of one import level after another.
const CLIENT_ROOT = new URL('../', import.meta.url);
const preloaded = new Set();
function preloadModules(spec) {
  const graph = document.getElementById('module-graph');
  const path = new URL(spec, import.meta.url).href.slice(CLIENT_ROOT.href.length);
  for (const file of graph ? JSON.parse(graph.textContent)[path] || [] : []) {
    if (preloaded.has(file)) continue;
    preloaded.add(file);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = new URL(file, CLIENT_ROOT).href;
    document.head.append(link);
  }
}

function route() {
  const path = (location.hash || '#/').slice(1).split('?')[0] || '/';
  const root = document.getElementById('app');
  if (currentView && currentView.destroy) currentView.destroy();
  currentView = null;
  currentPath = path;
  routed += 1;
  root.replaceChildren();
  for (const [pattern, nav, make] of routes) {
    const match = path.match(pattern);
    if (match) {
      markNav(nav);
      document.body.dataset.route = path.startsWith('/table/') || path.startsWith('/watch/') ? 'table' : nav;
      currentView = make(root, match) || null;
      // the header's name fitted again where it may have been hidden meanwhile (a table in play)
      fit(document.querySelector('[data-testid="player-chip"]'));
      return;
    }
  }
  location.replace('#/');
}

function markNav(active) {
  for (const link of document.querySelectorAll('[data-nav]')) {
    if (link.dataset.nav === active) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

function renderChrome() {
  translateStatic();
  document.title = t('app.title');
  const select = document.getElementById('lang-select');
  setChildren(select, 
    ...LANGUAGES.map(([code, label]) => {
      const opt = document.createElement('option');
      opt.value = code;
      opt.textContent = label;
      opt.selected = code === getLang();
      return opt;
    }),
  );
  select.setAttribute('aria-label', t('nav.language'));
  document.querySelector('.site-nav').setAttribute('aria-label', t('nav.main'));
  const chip = document.querySelector('[data-testid="player-chip"]');
  const player = getPlayer();
  chip.hidden = !player;
  // the name on one line, never cut inside a word: whole, its first word, its initial (fit.js)
  const words = player ? player.name.trim().split(/\s+/) : [];
  const initial = player ? [...player.name.trim()].slice(0, 1).join('').toLocaleUpperCase() : '';
  fitText(chip, player ? [player.name, words.length > 1 ? `${words[0]}…` : null, initial] : [''], player ? t('nav.signed_in_as', { name: player.name }) : null);
  fit(chip);
  if (player) chip.setAttribute('aria-label', t('nav.chip_device', { name: player.name })); // a link to #/device
}

function start() {
  renderChrome();
  window.addEventListener('resize', () => fit(document.querySelector('[data-testid="player-chip"]')));
  document.getElementById('lang-select').addEventListener('change', (e) => setLang(e.target.value));
  onLangChange(() => {
    renderChrome();
    if (currentView && currentView.relang) currentView.relang();
    else route();
  });
  window.addEventListener('player-changed', renderChrome);
  window.addEventListener('player-changed', warmTable);
  window.addEventListener('hashchange', () => {
    const path = (location.hash || '#/').slice(1) || '/';
    if (path !== currentPath) route();
  });
  route();
  warmTable();
}

// A player with a name will likely sit at a table next: its modules are fetched (not run) while
// the page is idle, so the table opens at once. A first visit, before a name, does not pay for them.
function warmTable() {
  if (!getPlayer()) return;
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 0));
  idle(() => {
    preloadModules(table);
    loadStyles(table); // not used on the lobby, but ready when the table opens
  });
}

start();

// Installable: the service worker (sw.js) keeps the static client for the next visit, never the
// game state. Browsers allow it on https and on localhost only.
function registerWorker() {
  navigator.serviceWorker.register('/sw.js').catch((error) => console.warn('service worker', error));
}
if ('serviceWorker' in navigator && window.isSecureContext) {
  if (document.readyState === 'complete') registerWorker();
  else window.addEventListener('load', registerWorker, { once: true });
}
