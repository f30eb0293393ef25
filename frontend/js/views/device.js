// "Use on another device": a one-time sign-in link (and its QR code) that moves this player —
// history, ledger and tables — to another browser or phone; and `#/signin/<code>`, which redeems it.
// The link carries only a short-lived, single-use code: the player's token never appears in a URL.
import { api } from '../api.js';
import { h, setChildren } from '../dom.js';
import { getLang, t, tn } from '../i18n.js';
import { clearPlayer, getPlayer, setPlayer } from '../session.js';
import { apiErrorText, linkBox, loading, nameForm } from '../ui.js';

const LINK_REFUSALS = new Set(['device_link_used', 'device_link_expired', 'device_link_unknown']);

/** The sign-in link for a code, on this server's origin. */
export function signinUrl(code) {
  return `${location.origin}/#/signin/${encodeURIComponent(code)}`;
}

/** The server's QR SVG as an image: a data: URL, never parsed into this page's DOM. */
function qrImage(svgText) {
  return h('img', {
    class: 'device-qr',
    'data-testid': 'device-qr',
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`,
    alt: t('device.qr_alt'),
    width: 196,
    height: 196,
  });
}

function clockTime(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return '';
  return when.toLocaleTimeString(getLang(), { hour: '2-digit', minute: '2-digit' });
}

export function mountDevice(root) {
  let destroyed = false;
  let link = null; // {code, expires_at, qr_svg} of the link shown

  function hero() {
    return h('section', { class: 'hero compact' }, h('h1', { text: t('device.title') }), h('p', { class: 'lead', text: t('device.intro') }));
  }

  async function make(panel) {
    setChildren(panel, loading());
    try {
      link = await api.createDeviceLink();
    } catch (err) {
      if (destroyed) return;
      setChildren(panel, h('p', { class: 'form-error', role: 'alert', 'data-testid': 'device-error', text: apiErrorText(err) }));
      return;
    }
    if (!destroyed) show(panel);
  }

  function show(panel) {
    const url = signinUrl(link.code);
    const box = linkBox(
      url,
      { field: 'device-link', copy: 'device-copy', share: 'device-share', status: 'device-copy-status' },
      { label: 'device.link_label', copy: 'device.copy', copied: 'device.copied', copy_failed: 'device.copy_failed', share: 'device.share', share_text: 'device.share_text' },
    );
    const again = h('button', {
      type: 'button',
      class: 'btn',
      'data-testid': 'device-new-link',
      text: t('device.new_link'),
      onclick: () => make(panel),
    });
    setChildren(
      panel,
      h('h2', { text: t('device.link_heading') }),
      h('figure', { class: 'device-qr-figure' }, qrImage(link.qr_svg), h('figcaption', { class: 'muted', text: t('device.scan') })),
      box,
      h('p', { 'data-testid': 'device-expiry', 'data-expires-at': link.expires_at, text: t('device.expires', { time: clockTime(link.expires_at) }) }),
      h('p', { class: 'muted', text: t('device.private') }),
      again,
    );
  }

  // This account: sign the other devices out, or delete it (after a second, explicit step).
  let accountNote = null; // {key, vars, testid, error} shown under the buttons, kept across a change of language
  let confirming = false;

  function note(key, vars = {}, { error = false } = {}) {
    accountNote = { key, vars, error };
    renderAccount();
  }

  async function signOutOthers() {
    try {
      const { devices } = await api.signOutOthers();
      if (!destroyed) note(devices ? 'account.signed_out' : 'account.signed_out_none', { n: devices });
    } catch (err) {
      if (!destroyed) note(null, { text: apiErrorText(err) }, { error: true });
    }
  }

  async function deleteAccount() {
    try {
      await api.deleteAccount();
    } catch (err) {
      confirming = false;
      if (destroyed) return;
      if (err && err.code === 'room_started') note('account.delete_playing', {}, { error: true });
      else note(null, { text: apiErrorText(err) }, { error: true });
      return;
    }
    clearPlayer();
    if (!destroyed) location.replace('#/');
  }

  let accountPanel = null;
  function renderAccount() {
    if (!accountPanel) return;
    const shown = accountNote
      ? h('p', {
          class: accountNote.error ? 'form-error' : 'muted',
          role: accountNote.error ? 'alert' : 'status',
          'data-testid': 'account-note',
          text: accountNote.key ? tn(accountNote.key, accountNote.vars.n ?? 0, accountNote.vars) : accountNote.vars.text,
        })
      : null;
    const confirm = confirming
      ? h(
          'div',
          { class: 'account-confirm', 'data-testid': 'account-delete-confirm' },
          h('p', { text: t('account.delete_explained') }),
          h(
            'div',
            { class: 'actions' },
            h('button', { type: 'button', class: 'btn danger', 'data-testid': 'account-delete-yes', text: t('account.delete_yes'), onclick: deleteAccount }),
            h('button', { type: 'button', class: 'btn', 'data-testid': 'account-delete-no', text: t('common.cancel'), onclick: () => { confirming = false; renderAccount(); } }),
          ),
        )
      : null;
    setChildren(
      accountPanel,
      h('h2', { text: t('account.heading') }),
      h('p', { class: 'muted', text: t('account.intro') }),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'btn', 'data-testid': 'account-sign-out-others', text: t('account.sign_out_others'), onclick: signOutOthers }),
        confirming ? null : h('button', { type: 'button', class: 'btn danger', 'data-testid': 'account-delete', text: t('account.delete'), onclick: () => { confirming = true; accountNote = null; renderAccount(); } }),
      ),
      confirm,
      shown,
    );
  }

  function render() {
    root.replaceChildren();
    if (!getPlayer()) {
      root.append(hero(), h('p', { text: t('device.no_player') }), nameForm(render));
      return;
    }
    const panel = h('section', { class: 'card-panel device-panel', 'data-testid': 'device-panel' });
    accountPanel = h('section', { class: 'card-panel device-panel', 'data-testid': 'account-panel' });
    renderAccount();
    root.append(hero(), panel, accountPanel);
    if (link) show(panel);
    else make(panel);
  }

  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
    },
  };
}

export function mountSignin(root, code) {
  let destroyed = false;
  let redeeming = false;
  let refusal = null; // the server's refusal, kept so that a change of language can show it again

  function frame(...children) {
    root.replaceChildren(
      h('section', { class: 'hero compact' }, h('h1', { text: t('signin.title') })),
      h('section', { class: 'card-panel device-panel', 'data-testid': 'signin-panel' }, ...children),
    );
  }

  function failed(err) {
    refusal = err;
    const text = LINK_REFUSALS.has(err && err.code) ? t(`reject.${err.code}`) : apiErrorText(err);
    frame(
      h('p', { class: 'form-error', role: 'alert', 'data-testid': 'signin-error', 'data-code': (err && err.code) || '', text }),
      h('p', { class: 'muted', text: t('signin.ask_for_new') }),
      h('a', { class: 'btn', href: '#/', text: t('common.back_to_lobby') }),
    );
  }

  async function redeem() {
    if (redeeming) return;
    redeeming = true;
    frame(h('p', { class: 'loading', 'data-testid': 'loading', text: t('signin.working') }));
    let player;
    try {
      player = await api.redeemDeviceLink(code);
    } catch (err) {
      if (!destroyed) failed(err);
      return;
    }
    setPlayer({ id: player.id, name: player.name, token: player.token });
    if (!destroyed) location.replace('#/history'); // the used code leaves the address bar and the back list
  }

  function render() {
    if (refusal) {
      failed(refusal);
      return;
    }
    if (redeeming) return;
    const current = getPlayer();
    if (!current) {
      redeem();
      return;
    }
    // This browser already plays as somebody: switching replaces that player here (not on the server).
    frame(
      h('p', { 'data-testid': 'signin-replace', text: t('signin.replace', { name: current.name }) }),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'signin-confirm', text: t('signin.confirm'), onclick: redeem }),
        h('a', { class: 'btn', href: '#/history', text: t('signin.keep', { name: current.name }) }),
      ),
    );
  }

  render();
  return {
    relang: render,
    destroy() {
      destroyed = true;
    },
  };
}
