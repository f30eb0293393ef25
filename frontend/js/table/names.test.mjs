// The suit a player lacks in the "no clubs: play a trump" refusal (why.must_trump): Russian wants the
// genitive after «нет» ("Нет треф ♣"), not the nominative ("нет масти трефы"); en and de keep their
// words. node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';

// i18n.js reads the saved language and sets <html lang> when imported: the least of a browser for it.
globalThis.localStorage = { getItem: () => 'ru', setItem() {} };
globalThis.document ??= { documentElement: {}, addEventListener() {}, removeEventListener() {} };
const { t } = await import('../i18n.js');
const { suitLacked } = await import('./names.js');
const ru = (await import('../i18n/ru.js')).default;
const en = (await import('../i18n/en.js')).default;
const de = (await import('../i18n/de.js')).default;

const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, k) => params[k]);

test('ru: "Нет треф ♣: бейте козырем ♥" — the lacked suit in the genitive', () => {
  assert.equal(suitLacked('C'), 'треф ♣');
  assert.equal(suitLacked('H'), 'червей ♥');
  assert.equal(suitLacked('D'), 'бубен ♦');
  assert.equal(t('why.must_trump', { suit: suitLacked('C'), trump: '♥', cards: '10♥' }), 'Нет треф ♣: бейте козырем ♥: только 10♥');
});

test('en and de say the lacked suit by its name', () => {
  assert.equal(fill(en['why.must_trump'], { suit: `${en['suit.gen.S']} ♠`, trump: '♦', cards: 'A♦' }), 'No spades ♠: play a trump ♦: only A♦');
  assert.equal(fill(de['why.must_trump'], { suit: `${de['suit.gen.S']} ♠`, trump: '♦', cards: 'A♦' }), 'Kein Pik ♠: Trumpf ♦ spielen: nur A♦');
  for (const s of 'CSHD') assert.equal(ru[`suit.gen.${s}`], ru[`suit.of.${s}`]); // "дама пик", "нет пик"
});
