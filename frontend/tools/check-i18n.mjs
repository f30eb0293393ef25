// Checks that en, de and ru have exactly the same keys, that plural entries agree, and that
// every literal key used in the code (t('…') / tn('…') / data-i18n="…") exists.
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
