// The talon by the game's own word (GAMES `talon_name` from backend/engine/variants.py): 1001 with
// bidding (V7.5) calls it the skat at the table, in the summary and the replay, as its lobby and rules
// page do; McLeod (V2.5) and the others say "talon". Over real engine views (fixtures/*.json).
// node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GAMES } from '../generated/protocol.js';
import { TALON_NAMES, talonKeys } from './model.js';
import en from '../i18n/en.js';
import de from '../i18n/de.js';
import ru from '../i18n/ru.js';

const view = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')).find((m) => m.view).view;
const word = (dict, key) => (typeof dict[key] === 'string' ? dict[key] : dict[key].other);

test('V7.5: 1001 with bidding names its talon the skat; McLeod (V2.5) the talon', () => {
  assert.equal(GAMES.bidding.talon_name, 'skat');
  assert.equal(GAMES.mcleod.talon_name, 'talon');
  const skat = talonKeys(view('bidding4-auction'));
  const talon = talonKeys(view('mcleod3-auction'));
  assert.equal(skat.label, 'ring.skat');
  assert.equal(talon.label, 'ring.talon');
  assert.equal(en[skat.label], 'Skat');
  assert.equal(de[skat.label], 'Skat');
  assert.equal(ru[skat.label], 'Скат');
  assert.equal(en[talon.label], 'Talon');
  assert.equal(ru[talon.label], 'Прикуп');
  assert.match(word(ru, skat.count), /^Скат: \{n\} карт/);
  assert.equal(ru[skat.card], 'из ската'); // genitive after "из"
  assert.equal(ru[talon.card], 'из прикупа');
  assert.equal(en[skat.phase], 'Skat'); // the phase chip while the declarer lays two cards away
  assert.equal(en[talon.phase], 'Talon');
  assert.deepEqual(talonKeys({}), talonKeys(view('mcleod3-auction'))); // an unknown game: the talon
});

test('every game names its talon with words every language has', () => {
  for (const [id, game] of Object.entries(GAMES)) assert.ok(TALON_NAMES.includes(game.talon_name), id);
  for (const name of TALON_NAMES) {
    const keys = talonKeys({ rules: { variant: Object.keys(GAMES).find((id) => GAMES[id].talon_name === name) } });
    for (const key of Object.values(keys)) for (const dict of [en, de, ru]) assert.ok(dict[key], `${key} missing`);
    if (name === 'skat') assert.ok(Object.values(keys).every((k) => k.includes('skat')), name);
  }
});
