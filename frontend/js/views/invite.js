// Opening an invite link: the table's options and a Join button (a name first if needed).
import { api } from '../api.js';
import { h, setChildren } from '../dom.js';
import { t } from '../i18n.js';
import { getPlayer } from '../session.js';
import { apiErrorText, loading, nameForm } from '../ui.js';
import { gameAndSeats, tableSummary } from '../games.js';

export function mount(root, code) {
  let destroyed = false;

  async function render() {
    root.replaceChildren();
    const player = getPlayer();
    if (!player) {
      // Before a name: who invites, to which game, for what stake (GET …/preview needs no player).
      const preview = h('section', { class: 'card-panel invite-panel', 'data-testid': 'invite-preview' }, loading());
      root.append(
        h('section', { class: 'hero compact' }, h('h1', { text: t('invite.title') })),
        preview,
        h('p', { class: 'lead', text: t('invite.need_name') }),
        nameForm(() => render()),
      );
      try {
        const found = await api.invitePreview(code);
        if (destroyed) return;
        // the seats as gameAndSeats counts them: taken ones first
        const room = { options: found.options, players: Array.from({ length: found.options.seats }, (_, i) => (i < found.seats_taken ? {} : null)) };
        setChildren(
          preview,
          found.host ? h('h2', { 'data-testid': 'invite-host', text: t('invite.invited_by', { name: found.host }) }) : null,
          h('p', { class: 'invite-game', 'data-testid': 'invite-game', text: gameAndSeats(room) }),
          tableSummary(found.options),
          found.status === 'open' ? null : h('p', { class: 'form-error', 'data-testid': 'invite-error', text: t('error.room_started') }),
        );
      } catch (err) {
        if (!destroyed) setChildren(preview, h('p', { class: 'form-error', 'data-testid': 'invite-error', text: err.code === 'room_not_found' ? t('invite.not_found') : apiErrorText(err) }));
      }
      return;
    }
    const panel = h('section', { class: 'card-panel invite-panel', 'data-testid': 'invite-panel' }, loading());
    root.append(h('section', { class: 'hero compact' }, h('h1', { text: t('invite.title') })), panel);
    let room;
    try {
      room = await api.invite(code);
    } catch (err) {
      if (destroyed) return;
      setChildren(panel, 
        h('p', { class: 'form-error', 'data-testid': 'invite-error', text: err.code === 'room_not_found' ? t('invite.not_found') : apiErrorText(err) }),
        h('a', { class: 'btn', href: '#/', text: t('common.back_to_lobby') }),
      );
      return;
    }
    if (destroyed) return;
    const players = (room.players || []).filter(Boolean);
    const host = players[0];
    const seated = players.some((p) => p.id === player.id);
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'join-error' });
    const children = [
      h('h2', { text: t('invite.invited_by', { name: host ? host.name : '?' }) }),
      // A game for 3 or 4 (V2–V7): which game and the seats taken, and the options that game has.
      h('p', { class: 'invite-game', 'data-testid': 'invite-game', text: gameAndSeats(room) }),
      tableSummary(room.options),
    ].filter(Boolean);
    if (seated) {
      children.push(
        h('p', { text: t('invite.already_seated') }),
        h('a', { class: 'btn primary big', href: `#/table/${encodeURIComponent(room.id)}`, 'data-testid': 'go-to-table', text: t('invite.go_to_table') }),
      );
    } else if (room.status !== 'open') {
      children.push(h('p', { class: 'form-error', 'data-testid': 'invite-error', text: t('error.room_started') }), h('a', { class: 'btn', href: '#/', text: t('common.back_to_lobby') }));
    } else {
      const join = h('button', {
        type: 'button',
        class: 'btn primary big',
        'data-testid': 'join-invite',
        text: t('invite.join'),
        onclick: async () => {
          join.disabled = true;
          try {
            const joined = await api.joinInvite(code);
            location.hash = `#/table/${encodeURIComponent((joined && joined.id) || room.id)}`;
          } catch (err) {
            error.textContent = apiErrorText(err);
            join.disabled = false;
          }
        },
      });
      children.push(join, error);
    }
    setChildren(panel, ...children);
  }

  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
    },
  };
}
