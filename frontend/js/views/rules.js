// The rules page as a player's guide: short sections with card pictures, a deal played step by
// step, the table options, the computer and the games for three and four (V2–V7, V6 Jungfrau);
// the numbered rules (R1–R7, V1, V0–V7) and our rulings stay available, folded, under "The exact rules".
import { h, setChildren } from '../dom.js';
import { t } from '../i18n.js';
import { CARD_POINTS, cardEl, rankOf } from '../cards.js';
import { TABLE_OPTIONS } from '../generated/protocol.js';
import { num } from '../ui.js';
import { gameInfo } from '../games.js';

const SECTIONS = [
  ['r1', ['1', '2', '3']],
  ['r2', ['1', '2', '3', '4']],
  ['r3', ['1', '2', '3', '4', '5', '6']],
  ['r4', ['1', '2', '3', '4']],
  ['r5', ['1', '2']],
  ['r6', ['1', '2']],
  ['r7', ['1', '2']],
  ['v1', ['1', '2', '3']],
];
const RULINGS = ['r4_1', 'r5_1', 'r6_1', 'r6_2'];

// The games for three and four (RULES-VARIANTS.md): a short guide per game, [id, aspects] …
const GAMES = [
  ['mcleod', ['players', 'pack', 'deal', 'auction', 'talon', 'melds', 'play', 'scoring', 'target']],
  ['rassel', ['players', 'pack', 'deal', 'auction', 'melds', 'play', 'scoring', 'target']],
  ['thousand3', ['players', 'pack', 'deal', 'melds', 'play', 'scoring', 'target']],
  ['thousand4', ['players', 'pack', 'deal', 'rest']],
  ['bidding', ['players', 'pack', 'deal', 'auction', 'talon', 'melds', 'play', 'scoring', 'target']],
];
/** An aspect's title: the talon by the game's own word for it (GAMES `talon_name`, V7.5 the skat). */
const aspectKey = (id, aspect) => (aspect === 'talon' && gameInfo(id).talon_name === 'skat' ? 'rules.game.aspect.skat' : `rules.game.aspect.${aspect}`);
// … and the numbered rules V0–V7, in the order of RULES-VARIANTS.md; a trailing * marks a ruling
// (ours, shown as such). The text of `V2.3` is `rules.x.v2.3`.
const VARIANT_RULES = [
  ['v0', ['1', '1a*', '2', '3', '4', '5', '5a*', '5b*', '6', '6a*', '6b*', '6c*', '6d*', '6e*', '7', '7a*', '8', '8a*', '9*', '10*', '10a*', '11', '12']],
  ['v2', ['1', '2', '3*', '4', '5', '5a*', '6', '7*', '8', '9', '9a*', '10']],
  ['v3', ['1', '2', '3', '3a*', '3b*', '4', '4a*', '5', '6', '6a*', '7', '8', '9', '9a*']],
  ['v4', ['1', '2', '3', '4', '5', '5a*', '5b*', '6*', '7', '7a*', '8', '9', '9a*', '10']],
  ['v5', ['1', '2*']],
  ['v6', ['1', '2*', '3*', '4']],
  ['v7', ['1*', '2', '3*', '4', '4a*', '5', '5a*', '6', '7', '7a*', '8', '9', '9a*', '9b*', '10']],
];

/** One numbered rule of V0–V7: its number in bold ("V2.3", "Ruling V0.6a"), then its text. */
function variantRule(section, item) {
  const ruling = item.endsWith('*');
  const n = ruling ? item.slice(0, -1) : item;
  const number = `${section.toUpperCase()}.${n}`;
  return h(
    'li',
    { class: ruling ? 'ruling' : null, 'data-rule': number },
    h('strong', { class: 'rule-no', text: ruling ? `${t('rules.x.ruling')} ${number}` : number }),
    ' ',
    t(`rules.x.${section}.${n}`),
  );
}

/** The guide to the games for three and four: a panel per game, then Jungfrau (V6). */
function gamesGuide() {
  return h(
    'section',
    { class: 'games-guide', id: 'rules-games', 'data-testid': 'rules-games' },
    h('div', { class: 'card-panel guide' }, h('h2', { text: t('rules.games.title') }), h('p', { text: t('rules.games.intro') }), h('p', { class: 'muted', text: t('rules.games.terms') })),
    GAMES.map(([id, aspects]) =>
      h(
        'section',
        { class: 'card-panel guide game', id: `rules-game-${id}`, 'data-testid': `rules-game-${id}` },
        h('h3', { class: 'h2' }, h('span', { class: 'rule-badge', text: gameInfo(id).rule }), ' ', t(`lobby.game.${id}`)),
        h(
          'dl',
          { class: 'game-facts' },
          aspects.map((aspect) => h('div', { class: 'fact', 'data-aspect': aspect }, h('dt', { text: t(aspectKey(id, aspect)) }), h('dd', { text: t(`rules.game.${id}.${aspect}`) }))),
        ),
      ),
    ),
    h(
      'section',
      { class: 'card-panel guide game', id: 'rules-game-jungfrau', 'data-testid': 'rules-game-jungfrau' },
      h('h3', { class: 'h2', text: t('rules.game.jungfrau.title') }),
      h('p', { text: t('rules.game.jungfrau.1') }),
      h('p', { text: t('rules.game.jungfrau.2') }),
    ),
  );
}
const OPTIONS = ['target', 'scoring', 'deck', 'stock_bottom', 'open_scores', 'stake', 'visibility', 'grace'];
const LEVELS = TABLE_OPTIONS.bot_level.values; // the computer's levels, as the server defines them

// The guide, in the order a new player needs it: [id, paragraphs, picture].
const GUIDE = [
  ['aim', ['rules.guide.aim']],
  ['cards', ['rules.guide.cards'], 'ranking'],
  ['deal', ['rules.guide.deal']],
  ['tricks', ['rules.guide.tricks.1', 'rules.guide.tricks.2', 'rules.guide.tricks.3']],
  ['marriage', ['rules.guide.marriage.1', 'rules.guide.marriage.2'], 'marriage'],
  ['score', ['rules.guide.score']],
];

/** A row of cards, each with a caption under it (a name, points …); `mark` highlights some. */
function cardRow(items, { className = '', label } = {}) {
  return h(
    'div',
    { class: `guide-cards ${className}`.trim(), role: label ? 'group' : null, 'aria-label': label || null },
    items.map(({ code, caption, mark, dim }) =>
      h(
        'figure',
        { class: `guide-card${mark ? ' mark' : ''}${dim ? ' dim' : ''}` },
        cardEl(code),
        caption ? h('figcaption', { text: caption }) : null,
      ),
    ),
  );
}

function picture(kind) {
  if (kind === 'ranking') {
    return cardRow(['AH', 'TH', 'KH', 'QH', 'JH', '9H'].map((code) => ({ code, caption: num(CARD_POINTS[rankOf(code)]) })));
  }
  if (kind === 'marriage') return cardRow([{ code: 'KH' }, { code: 'QH' }], { className: 'pair' });
  return null;
}

/** The worked example: a marriage, a change of trump, a phase-2 trick and the deal's score (R3–R5). */
function example() {
  const anna = t('rules.example.anna');
  const ben = t('rules.example.ben');
  const step = (n, pictureEl) =>
    h(
      'li',
      { class: 'example-step', 'data-step': n },
      h('h3', { text: t(`rules.example.step${n}.title`) }),
      pictureEl,
      h('p', { text: t(`rules.example.step${n}`) }),
    );
  return h(
    'section',
    { class: 'card-panel guide example', id: 'rules-example', 'data-testid': 'rules-example' },
    h('h2', { text: t('rules.example.title') }),
    h('p', { text: t('rules.example.intro') }),
    h(
      'ol',
      { class: 'example-steps' },
      step(1, cardRow([
        { code: 'QH', caption: `${anna} · ♥ +60`, mark: true },
        { code: 'AC', caption: ben },
      ])),
      step(2, cardRow([
        { code: 'KS', caption: `${ben} · ♠ +80`, mark: true },
        { code: 'JH', caption: anna },
      ])),
      step(
        3,
        h(
          'div',
          { class: 'example-phase2' },
          cardRow([{ code: 'TD', caption: anna }]),
          cardRow(
            [
              { code: 'AD', caption: t('rules.example.only'), mark: true },
              { code: '9D', dim: true },
              { code: 'QS', dim: true },
              { code: 'JC', dim: true },
            ],
            { className: 'example-hand', label: t('rules.example.ben_hand') },
          ),
        ),
      ),
      step(4, null),
    ),
  );
}

export function mount(root) {
  let exactOpen = false; // kept when the language changes
  function render() {
    const exact = h(
      'details',
      { class: 'exact-rules', id: 'rules-exact', 'data-testid': 'rules-exact', open: exactOpen },
      h('summary', { 'data-testid': 'rules-exact-toggle' }, h('span', { class: 'h2', text: t('rules.exact.title') })),
      h('p', { class: 'lead', text: t('rules.exact.hint') }),
      SECTIONS.map(([id, items]) =>
        h(
          'section',
          { class: 'card-panel rule', id: `rules-${id}`, 'data-testid': `rules-${id}` },
          h('h2', { text: t(`rules.${id}.title`) }),
          h('ul', {}, items.map((n) => h('li', { text: t(`rules.${id}.${n}`) }))),
        ),
      ),
      h(
        'section',
        { class: 'card-panel rule rulings', id: 'rules-rulings', 'data-testid': 'rules-rulings' },
        h('h2', { text: t('rules.rulings.title') }),
        h('p', { class: 'muted', text: t('rules.rulings.intro') }),
        h(
          'dl',
          {},
          RULINGS.map((id) => [h('dt', { text: t(`rules.ruling.${id}.title`) }), h('dd', { text: t(`rules.ruling.${id}`) })]),
        ),
      ),
      // V0–V7 with their rulings in place (RULES-VARIANTS.md: rulings are shown in the game).
      VARIANT_RULES.map(([id, items]) =>
        h(
          'section',
          { class: 'card-panel rule variant-rules', id: `rules-${id}`, 'data-testid': `rules-${id}` },
          h('h2', { text: t(`rules.x.${id}.title`) }),
          h('ul', {}, items.map((item) => variantRule(id, item))),
        ),
      ),
    );
    exact.addEventListener('toggle', () => {
      exactOpen = exact.open;
    });
    const tocLink = (id, label) => h('li', {}, h('a', { href: '#/rules', 'data-target': id, text: label }));
    const toc = h(
      'nav',
      { class: 'rules-toc', 'aria-label': t('rules.contents') },
      h(
        'ol',
        {},
        GUIDE.map(([id]) => tocLink(id, t(`rules.guide.${id}.title`))),
        tocLink('example', t('rules.example.title')),
        tocLink('options', t('rules.options.title')),
        tocLink('computer', t('rules.computer.title')),
        tocLink('games', t('rules.games.title')),
        tocLink('exact', t('rules.exact.title')),
      ),
    );
    toc.addEventListener('click', (event) => {
      const link = event.target.closest('a[data-target]');
      if (!link) return;
      event.preventDefault();
      const target = document.getElementById(`rules-${link.dataset.target}`);
      if (!target) return;
      if (target === exact) exact.open = true;
      target.scrollIntoView({ behavior: 'smooth' });
    });
    setChildren(
      root,
      h(
        'article',
        { class: 'rules', 'data-testid': 'rules-page' },
        h('section', { class: 'hero compact' }, h('h1', { text: t('rules.title') }), h('p', { class: 'lead', text: t('rules.intro') })),
        toc,
        GUIDE.map(([id, paragraphs, kind]) =>
          h(
            'section',
            { class: 'card-panel guide', id: `rules-${id}`, 'data-testid': `rules-guide-${id}` },
            h('h2', { text: t(`rules.guide.${id}.title`) }),
            paragraphs.length > 1 ? h('ul', {}, paragraphs.map((key) => h('li', { text: t(key) }))) : h('p', { text: t(paragraphs[0]) }),
            kind ? picture(kind) : null,
          ),
        ),
        example(),
        h(
          'section',
          { class: 'card-panel rule', id: 'rules-options', 'data-testid': 'rules-options' },
          h('h2', { text: t('rules.options.title') }),
          h(
            'dl',
            {},
            OPTIONS.map((id) => [h('dt', { 'data-option': id, text: t(`rules.option.${id}.title`) }), h('dd', { text: t(`rules.option.${id}`) })]),
          ),
        ),
        h(
          'section',
          { class: 'card-panel rule', id: 'rules-computer', 'data-testid': 'rules-computer' },
          h('h2', { text: t('rules.computer.title') }),
          h('p', { text: t('rules.computer.intro') }),
          h(
            'dl',
            {},
            LEVELS.map((id) => [h('dt', { 'data-level': id, text: t(`rules.computer.${id}.title`) }), h('dd', { text: t(`rules.computer.${id}`) })]),
          ),
          h('p', { class: 'muted', text: t('rules.computer.fair') }),
        ),
        gamesGuide(),
        exact,
      ),
    );
  }
  render();
  return { relang: render };
}
