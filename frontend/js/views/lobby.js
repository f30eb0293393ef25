// The lobby: name on first visit, create a table, open public tables, my unfinished tables.
import { api, asList } from '../api.js';
import { h, setChildren } from '../dom.js';
import { t } from '../i18n.js';
import { getPlayer } from '../session.js';
import { apiErrorText, inviteBox, loading, nameForm, optionsSummary } from '../ui.js';

const REFRESH_MS = 4000;

export function mount(root) {
  let timer = null;
  let destroyed = false;
  let formState = null; // keep the form's values across a language change

  function render() {
    root.replaceChildren();
    const player = getPlayer();
    if (!player) {
      root.append(
        h('section', { class: 'hero' }, h('h1', { text: t('lobby.welcome') }), h('p', { class: 'lead', text: t('lobby.tagline') })),
        nameForm(() => render()),
      );
      return;
    }
    const mine = h('div', { 'data-testid': 'my-rooms' }, loading());
    const open = h('div', { 'data-testid': 'open-rooms' }, loading());
    root.append(
      h('section', { class: 'hero compact' }, h('h1', { text: t('lobby.hello', { name: player.name }) }), h('p', { class: 'lead', text: t('lobby.tagline') })),
      h(
        'div',
        { class: 'lobby-grid' },
        createForm(),
        h(
          'div',
          { class: 'lobby-lists' },
          h('section', { class: 'card-panel', 'aria-labelledby': 'mine-h' }, h('h2', { id: 'mine-h', text: t('lobby.mine') }), mine),
          h('section', { class: 'card-panel', 'aria-labelledby': 'open-h' }, h('h2', { id: 'open-h', text: t('lobby.open') }), open),
        ),
      ),
    );
    refresh(mine, open);
  }

  async function refresh(mineEl, openEl) {
    clearTimeout(timer);
    const player = getPlayer();
    if (!player || destroyed) return;
    const [mine, open] = await Promise.allSettled([api.myRooms(), api.openRooms()]);
    if (destroyed || !mineEl.isConnected) return;
    if (!getPlayer()) {
      render();
      return;
    }
    renderMine(mineEl, mine);
    renderOpen(openEl, open, player);
    timer = setTimeout(() => refresh(mineEl, openEl), REFRESH_MS);
  }

  function renderMine(el, result) {
    if (result.status === 'rejected') {
      setChildren(el, h('p', { class: 'form-error', text: apiErrorText(result.reason) }));
      return;
    }
    const rooms = asList(result.value, 'rooms');
    if (!rooms.length) {
      setChildren(el, h('p', { class: 'muted', text: t('lobby.mine.empty') }));
      return;
    }
    const me = getPlayer();
    setChildren(el, 
      h(
        'ul',
        { class: 'room-list' },
        rooms.map((room) => {
          const other = (room.players || []).find((p) => p && p.id !== me.id);
          const label = other ? t('lobby.vs', { name: other.name }) : t('lobby.waiting_for_opponent');
          const isOpen = room.status === 'open';
          return h(
            'li',
            { class: 'room-row', 'data-testid': `my-room-${room.id}`, 'data-status': room.status },
            h(
              'div',
              { class: 'room-main' },
              h('strong', { text: label }),
              h('span', { class: `status-pill ${room.status}`, text: t(`room.status.${room.status}`) }),
              optionsSummary(room.options),
            ),
            isOpen && room.visibility === 'private' && room.invite_code ? inviteBox(room.invite_code) : null,
            h(
              'div',
              { class: 'row-actions' },
              h('a', { class: 'btn primary', href: `#/table/${encodeURIComponent(room.id)}`, 'data-testid': `return-${room.id}`, text: isOpen ? t('lobby.open_table') : t('lobby.return') }),
              isOpen
                ? h('button', {
                    type: 'button',
                    class: 'btn ghost',
                    'data-testid': `leave-${room.id}`,
                    text: t('lobby.cancel_table'),
                    onclick: async (e) => {
                      e.target.disabled = true;
                      try {
                        await api.leaveRoom(room.id);
                      } catch {
                        /* shown by the refresh */
                      }
                      render();
                    },
                  })
                : null,
            ),
          );
        }),
      ),
    );
  }

  function renderOpen(el, result, player) {
    if (result.status === 'rejected') {
      setChildren(el, h('p', { class: 'form-error', text: apiErrorText(result.reason) }));
      return;
    }
    const rooms = asList(result.value, 'rooms').filter((room) => !(room.players || []).some((p) => p && p.id === player.id));
    if (!rooms.length) {
      setChildren(el, h('p', { class: 'muted', text: t('lobby.open.empty') }));
      return;
    }
    setChildren(el, 
      h(
        'ul',
        { class: 'room-list' },
        rooms.map((room) => {
          const host = (room.players || []).find(Boolean);
          const error = h('p', { class: 'form-error', role: 'alert' });
          return h(
            'li',
            { class: 'room-row', 'data-testid': `open-room-${room.id}` },
            h('div', { class: 'room-main' }, h('strong', { text: t('lobby.table_of', { name: host ? host.name : '?' }) }), optionsSummary(room.options)),
            h(
              'div',
              { class: 'row-actions' },
              h('button', {
                type: 'button',
                class: 'btn primary',
                'data-testid': `join-${room.id}`,
                text: t('lobby.join'),
                onclick: async (e) => {
                  e.target.disabled = true;
                  try {
                    await api.joinRoom(room.id);
                    location.hash = `#/table/${encodeURIComponent(room.id)}`;
                  } catch (err) {
                    error.textContent = apiErrorText(err);
                    e.target.disabled = false;
                  }
                },
              }),
            ),
            error,
          );
        }),
      ),
    );
  }

  function createForm() {
    const s = formState || { target: '1001', scoring: 'by_suit', bottom: false, stake: '0', currency: 'EUR', visibility: 'private' };
    const select = (id, testid, value, options) =>
      h(
        'select',
        { id, 'data-testid': testid },
        options.map(([v, label]) => h('option', { value: v, selected: v === value, text: label })),
      );
    const target = select('opt-target', 'opt-target', s.target, [
      ['1001', t('opt.target.1001')],
      ['501', t('opt.target.501')],
      ['301', t('opt.target.301')],
    ]);
    const scoring = select('opt-scoring', 'opt-scoring', s.scoring, [
      ['by_suit', t('opt.scoring.by_suit.long')],
      ['by_order', t('opt.scoring.by_order.long')],
    ]);
    const bottom = h('input', { type: 'checkbox', id: 'opt-bottom', 'data-testid': 'opt-stock-bottom', checked: s.bottom });
    const stake = h('input', { type: 'text', id: 'opt-stake', 'data-testid': 'opt-stake', inputmode: 'decimal', value: s.stake, maxlength: 20, autocomplete: 'off' });
    const currency = h('input', { type: 'text', id: 'opt-currency', 'data-testid': 'opt-currency', value: s.currency, maxlength: 12, autocomplete: 'off' });
    const visibility = select('opt-visibility', 'opt-visibility', s.visibility, [
      ['private', t('opt.visibility.private')],
      ['public', t('opt.visibility.public')],
    ]);
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
    const submit = h('button', { type: 'submit', class: 'btn primary big', 'data-testid': 'create-table', text: t('lobby.create') });
    const field = (id, label, control, help) =>
      h('div', { class: 'field' }, h('label', { for: id, class: 'field-label', text: label }), control, help ? h('p', { class: 'help', text: help }) : null);
    const form = h(
      'form',
      { class: 'card-panel create-form', 'data-testid': 'create-form', 'aria-labelledby': 'create-h' },
      h('h2', { id: 'create-h', text: t('lobby.new_table') }),
      field('opt-target', t('opt.target'), target),
      field('opt-scoring', t('opt.scoring'), scoring, t('opt.scoring.help')),
      h('div', { class: 'field check' }, bottom, h('label', { for: 'opt-bottom', text: t('opt.stock_bottom.long') })),
      h('div', { class: 'field-row' }, field('opt-stake', t('opt.stake_per_point'), stake), field('opt-currency', t('opt.currency'), currency)),
      h('p', { class: 'help', text: t('opt.stake.help') }),
      field('opt-visibility', t('opt.visibility'), visibility, t('opt.visibility.help')),
      submit,
      error,
    );
    const save = () => {
      formState = { target: target.value, scoring: scoring.value, bottom: bottom.checked, stake: stake.value, currency: currency.value, visibility: visibility.value };
    };
    form.addEventListener('input', save);
    form.addEventListener('change', save);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const stakeText = stake.value.trim().replace(',', '.') || '0';
      if (!/^\d{1,12}(\.\d{1,8})?$/.test(stakeText)) {
        error.textContent = t('opt.stake.invalid');
        stake.focus();
        return;
      }
      const cur = currency.value.trim();
      if (!cur || cur.length > 12) {
        error.textContent = t('opt.currency.invalid');
        currency.focus();
        return;
      }
      error.textContent = '';
      submit.disabled = true;
      try {
        const room = await api.createRoom({
          target: Number(target.value),
          declaration_scoring: scoring.value,
          show_stock_bottom: bottom.checked,
          stake_per_point: stakeText,
          currency: cur,
          visibility: visibility.value,
        });
        location.hash = `#/table/${encodeURIComponent(room.id)}`;
      } catch (err) {
        error.textContent = err.status === 422 ? t('lobby.create.invalid') : apiErrorText(err);
        submit.disabled = false;
      }
    });
    return form;
  }

  const onPlayer = () => render();
  window.addEventListener('player-changed', onPlayer);
  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      window.removeEventListener('player-changed', onPlayer);
    },
  };
}
