// Tiny DOM helpers. User-provided text always goes through text nodes (never innerHTML).

/**
 * h('button', {class: 'btn', 'data-testid': 'x', onclick: fn}, 'label', child, [more])
 * Props: `class`, `text`, `style` (through the CSSOM: the Content-Security-Policy refuses style
 * attributes, never the CSSOM), `on<event>` handlers, booleans (true → attribute present),
 * everything else is set as an attribute.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'value') el.value = value;
    else if (key === 'style') el.style.cssText = String(value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** SVG element helper (for the few inline icons). */
export function svg(tag, props = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(props)) el.setAttribute(key, String(value));
  for (const child of children) if (child) el.appendChild(child);
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** Copy text to the clipboard, with a textarea fallback for older or insecure contexts. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through to the fallback */
  }
  const area = h('textarea', { class: 'visually-hidden', readonly: true });
  area.value = text;
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export function prefersReducedMotion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Replace an element's children, skipping null/false (native replaceChildren would print "null"). */
export function setChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// ------------------------------------------------------------------ keyed patching (issue 42)
// A node's key for `sync`: kept beside the node, never in the DOM (no attribute to restyle or read).
const KEYS = new WeakMap();

/** The key `sync` gave `node`, or undefined. */
export function keyOf(node) {
  return KEYS.get(node);
}

/**
 * Make `parent`'s children the nodes for `items`, in their order, by key: a child whose key
 * (`key(item, i)`, a string or number) is still wanted is kept and given to `update(node, item, i)`
 * (when given) — it keeps its focus, its animations and its listeners; a new key gets
 * `create(item, i)` (which builds it whole: `update` is not called for it); every other child that
 * `sync` made goes (a child it did not make — a picture in flight, motion.js — is left where it is).
 * Nothing is moved that is already in its place, so an unchanged list touches no node. Returns the
 * nodes made this time (the caller may animate them in).
 */
export function sync(parent, items, key, create, update = null) {
  const old = new Map();
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    const k = KEYS.get(child);
    if (k !== undefined && !old.has(k)) old.set(k, child);
  }
  const made = [];
  const nodes = items.map((item, i) => {
    const k = String(key(item, i));
    let node = old.get(k);
    if (node) {
      old.delete(k);
      if (update) update(node, item, i);
    } else {
      node = create(item, i);
      KEYS.set(node, k);
      made.push(node);
    }
    return node;
  });
  const wanted = new Set(nodes);
  for (let child = parent.firstChild; child; ) {
    const next = child.nextSibling;
    if (!wanted.has(child) && KEYS.has(child)) parent.removeChild(child);
    child = next;
  }
  const skip = (x) => {
    while (x && !KEYS.has(x)) x = x.nextSibling; // not ours: left where it is
    return x;
  };
  let ref = skip(parent.firstChild);
  for (const node of nodes) {
    if (node === ref) ref = skip(ref.nextSibling);
    else parent.insertBefore(node, ref);
  }
  return made;
}

/**
 * Set an element's text only when it differs (a write of the same text still dirties the layout).
 */
export function setText(el, text) {
  const value = String(text ?? '');
  if (el.textContent !== value) el.textContent = value;
  return el;
}

/** Set (or, for null/undefined/false, remove) an attribute only when it differs. */
export function setAttr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else {
    const v = value === true ? '' : String(value);
    if (el.getAttribute(name) !== v) el.setAttribute(name, v);
  }
  return el;
}

/** Give `node` the key `sync` knows it by (table/patch.js keys children drawn before by their place). */
export function setKey(node, key) {
  KEYS.set(node, key);
}
