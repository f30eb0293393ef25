// Checks that en, de and ru have exactly the same keys, that plural entries agree, that every
// literal key used in the code (t('…') / tn('…') / data-i18n="…") exists, that player text names
// no rule codes (R4, V6: only the rules page cites them) and that a number shown with a noun has
// plural forms (a plural entry, shown through tn()).
// Run: node frontend/tools/check-i18n.mjs  (exit code 1 on a problem)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const langs = ['en', 'de', 'ru'];
const dicts = {};
for (const lang of langs) dicts[lang] = (await import(join(root, 'js', 'i18n', `${lang}.js`))).default;

const problems = [];
const base = new Set(Object.keys(dicts.en));
for (const lang of langs) {
  const keys = new Set(Object.keys(dicts[lang]));
  for (const k of base) if (!keys.has(k)) problems.push(`${lang}: missing ${k}`);
  for (const k of keys) if (!base.has(k)) problems.push(`${lang}: extra ${k}`);
  for (const [k, v] of Object.entries(dicts[lang])) {
    if (typeof v === 'object' && !('other' in v)) problems.push(`${lang}: plural ${k} lacks "other"`);
    if (typeof v === 'string' && !v.trim()) problems.push(`${lang}: empty ${k}`);
    const enV = dicts.en[k];
    if (enV !== undefined && typeof enV !== typeof v) problems.push(`${lang}: ${k} plural/string mismatch`);
    const params = (s) => new Set((typeof s === 'string' ? s : Object.values(s).join(' ')).match(/\{\w+\}/g) || []);
    if (enV !== undefined) {
      const a = [...params(enV)].sort().join();
      const b = [...params(v)].sort().join();
      if (a !== b) problems.push(`${lang}: ${k} placeholders ${b} differ from en ${a}`);
    }
  }
}

// Player-visible text names no rule codes ("R6.2", "V1"): only the rules page (keys rules.*) cites them.
const RULE_CODE = /\b[RV]\d+(\.\d+)?[a-z]?\b/;
const RULE_CODES_ALLOWED = (k) => k.startsWith('rules.');
// A number shown with a noun is a plural entry ({one, few, many, other}, chosen by Intl.PluralRules):
// a plain string whose placeholder is followed by one of these nouns is refused. Abbreviations that
// do not change with the number ("5 min", "3 St.") are listed below.
const COUNTED = {
  en: /\{\w+\}\s+(?:other\s+|more\s+|rated\s+)?(?:cards?|points?|card points?|tricks?|match(?:es)?|deals?|computers?|seats?|players?|devices?|spectators?|watching|marriages?|pts?)\b/i,
  de: /\{\w+\}\s+(?:andere\w*\s+|weitere\s+)?(?:Karten?|Punkte?n?|Augen?|Stiche?|Partien?|Spiele?n?|Computer|Plätze|Platz|Spieler|Geräte?|Zuschauer|schau\w*|Hochzeiten?)\b/,
  ru: /\{\w+\}\s+(?:других\s+|другом\s+)?(?:карт\w*|очк\w*|взят\w*|парти\w*|сдач\w*|компьютер\w*|мест\w*|игрок\w*|устройств\w*|зрител\w*|марьяж\w*)/i,
};
// table.score_title counts the target (100 or more), always plural.
const COUNTED_ALLOWED = new Set(['time.minutes', 'time.seconds', 'ring.tricks_short', 'table.score_title']);
for (const lang of langs) {
  for (const [k, v] of Object.entries(dicts[lang])) {
    const texts = typeof v === 'string' ? [v] : Object.values(v);
    if (!RULE_CODES_ALLOWED(k) && texts.some((x) => RULE_CODE.test(x))) problems.push(`${lang}: ${k} names a rule code in player text: ${texts.find((x) => RULE_CODE.test(x))}`);
    if (typeof v === 'object') {
      const need = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.filter((c) => c !== 'zero' && c !== 'two');
      const lacking = need.filter((c) => !(c in v));
      if (lacking.length) problems.push(`${lang}: plural ${k} lacks ${lacking.join(', ')}`);
    }
    if (typeof v === 'string' && !COUNTED_ALLOWED.has(k) && COUNTED[lang].test(v)) problems.push(`${lang}: ${k} counts a noun without plural forms: ${v}`);
  }
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const sources = walk(root).filter((p) => /\.(js|html)$/.test(p) && !p.includes(`${join('js', 'i18n')}`) && !p.includes('tools'));
let used = 0;
for (const file of sources) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/\btn?\(\s*'([a-z0-9_.]+)'/gi)) {
    used++;
    if (!base.has(m[1])) problems.push(`${file}: unknown key ${m[1]}`);
  }
  for (const m of text.matchAll(/data-i18n(?:-aria)?="([^"]+)"/g)) {
    used++;
    if (!base.has(m[1])) problems.push(`${file}: unknown key ${m[1]}`);
  }
  for (const m of text.matchAll(/'((?:match|history)\.reason\.[a-z_]+)'/g)) if (!base.has(m[1])) problems.push(`${file}: unknown key ${m[1]}`);
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`i18n ok: ${base.size} keys in ${langs.join(', ')}; ${used} literal uses checked`);
