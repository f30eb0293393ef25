// The hash router and the page frame (navigation, language picker, player chip).
import { LANGUAGES, getLang, onLangChange, setLang, t, translateStatic } from './i18n.js';
import { getPlayer } from './session.js';
import { setChildren } from './dom.js';
import * as lobby from './views/lobby.js';
import * as invite from './views/invite.js';
import * as table from './views/table.js';
import * as history from './views/history.js';
import * as rules from './views/rules.js';

const routes = [
  [/^\/?$/, 'lobby', (root) => lobby.mount(root)],
  [/^\/table\/([^/]+)$/, 'lobby', (root, m) => table.mount(root, decodeURIComponent(m[1]))],
  [/^\/invite\/([^/]+)$/, 'lobby', (root, m) => invite.mount(root, decodeURIComponent(m[1]))],
  [/^\/history$/, 'history', (root) => history.mountList(root)],
  [/^\/history\/([^/]+)$/, 'history', (root, m) => history.mountMatch(root, decodeURIComponent(m[1]))],
  [/^\/rules$/, 'rules', (root) => rules.mount(root)],
];

let currentView = null;
let currentPath = null;

function route() {
  const path = (location.hash || '#/').slice(1).split('?')[0] || '/';
  const root = document.getElementById('app');
  if (currentView && currentView.destroy) currentView.destroy();
  currentView = null;
  currentPath = path;
  root.replaceChildren();
  for (const [pattern, nav, make] of routes) {
    const match = path.match(pattern);
    if (match) {
      markNav(nav);
      document.body.dataset.route = path.startsWith('/table/') ? 'table' : nav;
      currentView = make(root, match) || null;
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
  chip.textContent = player ? player.name : '';
  if (player) chip.title = t('nav.signed_in_as', { name: player.name });
}

function start() {
  renderChrome();
  document.getElementById('lang-select').addEventListener('change', (e) => setLang(e.target.value));
  onLangChange(() => {
    renderChrome();
    if (currentView && currentView.relang) currentView.relang();
    else route();
  });
  window.addEventListener('player-changed', renderChrome);
  window.addEventListener('hashchange', () => {
    const path = (location.hash || '#/').slice(1) || '/';
    if (path !== currentPath) route();
  });
  route();
}

start();
