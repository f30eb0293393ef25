// A classic script, loaded async from the head so that it holds up nothing (no inline script: the
// Content-Security-Policy allows only the site's own files). It fetches the dictionary of the page's language alongside the modules
// instead of after them. The same choice as initialLang() in js/i18n.js: saved on this device, else
// the browser's, else en.
(() => {
  const langs = ['en', 'de', 'ru'];
  let lang = null;
  try { lang = localStorage.getItem('1001.lang'); } catch { /* storage blocked */ }
  if (!langs.includes(lang)) lang = (navigator.language || 'en').slice(0, 2).toLowerCase();
  if (!langs.includes(lang)) lang = 'en';
  const app = document.querySelector('script[type="module"][src$="/js/app.js"]');
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = new URL(`i18n/${lang}.js`, app.src).href;
  document.head.append(link);
  // The four-colour deck chosen on this device (js/prefs.js, which the table loads): set before the
  // first card is drawn, without fetching that module on a first visit.
  try { if (localStorage.getItem('1001.deck') === 'four') document.documentElement.dataset.deck = 'four'; } catch { /* storage blocked */ }
})();
