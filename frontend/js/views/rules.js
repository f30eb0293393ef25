// The rules page: R1–R7, our rulings and the table options, in plain words.
import { h, setChildren } from '../dom.js';
import { t } from '../i18n.js';
import { TABLE_OPTIONS } from '../generated/protocol.js';

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
const OPTIONS = ['target', 'scoring', 'deck', 'stock_bottom', 'open_scores', 'stake', 'visibility', 'grace'];
const LEVELS = TABLE_OPTIONS.bot_level.values; // the computer's levels, as the server defines them

export function mount(root) {
  function render() {
    const toc = h(
      'nav',
      { class: 'rules-toc', 'aria-label': t('rules.contents') },
      h(
        'ol',
        {},
        SECTIONS.map(([id]) => h('li', {}, h('a', { href: `#/rules`, 'data-target': id, text: t(`rules.${id}.title`) }))),
        h('li', {}, h('a', { href: '#/rules', 'data-target': 'rulings', text: t('rules.rulings.title') })),
        h('li', {}, h('a', { href: '#/rules', 'data-target': 'options', text: t('rules.options.title') })),
        h('li', {}, h('a', { href: '#/rules', 'data-target': 'computer', text: t('rules.computer.title') })),
      ),
    );
    toc.addEventListener('click', (event) => {
      const target = event.target.closest('a[data-target]');
      if (!target) return;
      event.preventDefault();
      document.getElementById(`rules-${target.dataset.target}`)?.scrollIntoView({ behavior: 'smooth' });
    });
    setChildren(root, 
      h(
        'article',
        { class: 'rules', 'data-testid': 'rules-page' },
        h('section', { class: 'hero compact' }, h('h1', { text: t('rules.title') }), h('p', { class: 'lead', text: t('rules.intro') })),
        toc,
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
      ),
    );
  }
  render();
  return { relang: render };
}
