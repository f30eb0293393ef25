// The dictionaries and the current language. Every visible string has a key here.
import en from './i18n/en.js';
import de from './i18n/de.js';
import ru from './i18n/ru.js';

export const DICTS = { en, de, ru };
export const LANGUAGES = [
  ['en', 'English'],
  ['de', 'Deutsch'],
  ['ru', 'Русский'],
];
const STORAGE_KEY = '1001.lang';
const listeners = new Set();

function initialLang() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && DICTS[saved]) return saved;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return DICTS[nav] ? nav : 'en';
}

let lang = initialLang();

export function getLang() {
  return lang;
}

export function setLang(next) {
  if (!DICTS[next] || next === lang) return;
  lang = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  for (const fn of listeners) fn(next);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function lookup(key) {
  const value = DICTS[lang][key] ?? DICTS.en[key];
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

/** Translate a plural key ({one, few, many, other}) for count `n` (also passed as `{n}`). */
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
