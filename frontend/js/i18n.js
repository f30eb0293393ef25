// The current language and its dictionary. Every visible string has a key in js/i18n/{en,de,ru}.js.
// Only the page's language is loaded (the others are 25–33 KB each): this module waits for it before
// any importer runs (top-level await), so `t()` and `tn()` stay synchronous; switching the language
// loads the other dictionary first, then tells the listeners.
export const LANGUAGES = [
  ['en', 'English'],
  ['de', 'Deutsch'],
  ['ru', 'Русский'],
];
// Literal specifiers, one per language, so that each dictionary is its own file fetched on demand.
const LOADERS = {
  en: () => import('./i18n/en.js'),
  de: () => import('./i18n/de.js'),
  ru: () => import('./i18n/ru.js'),
};
const STORAGE_KEY = '1001.lang';
const listeners = new Set();
const loaded = {};

// index.html makes the same choice (an inline script) to start fetching the dictionary early;
// tests/e2e/test_delivery.py checks that both agree (exactly one dictionary is fetched).
function initialLang() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && LOADERS[saved]) return saved;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return LOADERS[nav] ? nav : 'en';
}

/** Fetch a language's dictionary once (later calls resolve at once). */
export async function loadLanguage(code) {
  if (!loaded[code]) loaded[code] = (await LOADERS[code]()).default;
  return loaded[code];
}

let lang = initialLang();
try {
  await loadLanguage(lang);
} catch (error) {
  if (lang === 'en') throw error;
  console.warn('could not load the dictionary', lang, error);
  lang = 'en';
  await loadLanguage(lang);
}
let wanted = lang; // the latest choice: a slow dictionary does not override a later one

export function getLang() {
  return lang;
}

/** Switch to `next` once its dictionary is loaded; resolves when the listeners have run. */
export async function setLang(next) {
  if (!LOADERS[next]) return;
  wanted = next;
  await loadLanguage(next);
  if (wanted !== next || lang === next) return; // another choice came after this one, or no change
  lang = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  for (const fn of listeners) fn(next);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether the dictionaries have words for `key` (they all have the same keys). */
export function hasKey(key) {
  return loaded[lang][key] !== undefined;
}

function lookup(key) {
  const value = loaded[lang][key];
  if (value === undefined) {
    console.warn('missing i18n key', key);
    return key;
  }
  return value;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Translate `key`, filling `{name}` placeholders from `params`. */
export function t(key, params) {
  const value = lookup(key);
  if (typeof value === 'object') return fill(value.other, params);
  return fill(value, params);
}

/**
 * Translate a plural key ({one, few, many, other}) for count `n` (also passed as `{n}`, unless
 * `params` names its own `n`: the form follows the count, e.g. the points, while `{n}` is the contract).
 */
export function tn(key, n, params = {}) {
  const value = lookup(key);
  const all = { n, ...params };
  if (typeof value !== 'object') return fill(value, all);
  const form = new Intl.PluralRules(lang).select(n);
  return fill(value[form] ?? value.other, all);
}

/** Apply translations to static markup carrying `data-i18n` attributes. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
}

export function formatDate(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

document.documentElement.lang = lang;
