// Patching a fresh drawing in (issue 42, point 2). Kept apart from dom.js: only the table uses it,
// and every other page loads dom.js (the first visit's bytes, tests/e2e/test_delivery.py).
import { setKey, sync } from '../dom.js';
import { fitText, fitted } from '../fit.js';

// A component draws what it shows as new nodes (h(), cheap while they are not in the page) and
// `patch` makes the nodes in the page look the same, by `sync`: every node kept whose kind and key
// match, only the attributes and texts that differ written. An unchanged drawing writes nothing,
// so the page is neither restyled nor laid out again for it.

// A fitted name kept in the page keeps what it shows (its text, title and data-fit are the
// fitting's, fit.js) while its candidates stay the same; new ones are fitted anew. True when handled.
const OWN = new Set(['title', 'data-fit']);
function keepFitted(node, fresh) {
  const now = fitted(node);
  const next = fitted(fresh);
  if (!now || !next) return false;
  for (const { name } of [...node.attributes]) if (!OWN.has(name) && !fresh.hasAttribute(name)) node.removeAttribute(name);
  for (const { name, value } of [...fresh.attributes]) if (!OWN.has(name) && node.getAttribute(name) !== value) node.setAttribute(name, value);
  if (now.title !== next.title || now.list.join('\n') !== next.list.join('\n')) {
    fitText(node, next.list, next.title);
    if (next.title) node.title = next.title;
    else node.removeAttribute('title');
  }
  return true;
}

/** A child's key for `patchChildren`: its kind and its `data-key` or test id, else its place among its kind. */
function childKeys(nodes) {
  const seen = new Map();
  return nodes.map((node) => {
    const name = node.nodeName;
    const id = node.nodeType === 1 ? node.getAttribute('data-key') ?? node.getAttribute('data-testid') : null;
    if (id !== null) return `${name}#${id}`;
    const i = seen.get(name) || 0;
    seen.set(name, i + 1);
    return `${name}:${i}`;
  });
}

/** Make `node` (in the page) look like `fresh` (just drawn, same kind); returns `node`. */
export function patch(node, fresh) {
  if (node === fresh) return node;
  if (node.nodeType !== 1) {
    if (node.nodeValue !== fresh.nodeValue) node.nodeValue = fresh.nodeValue;
    return node;
  }
  if (keepFitted(node, fresh)) return node; // a fitted name (fit.js) keeps what it shows
  patchAttrs(node, fresh);
  patchChildren(node, [...fresh.childNodes]);
  return node;
}

/** `node`'s attributes made `fresh`'s (the style through the CSSOM: the CSP refuses style attributes). */
export function patchAttrs(node, fresh) {
  for (const { name } of [...node.attributes]) if (!fresh.hasAttribute(name)) node.removeAttribute(name);
  for (const { name, value } of [...fresh.attributes]) {
    if (name === 'style') {
      if (node.style.cssText !== fresh.style.cssText) node.style.cssText = fresh.style.cssText;
    } else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  }
  return node;
}

/**
 * Make `parent`'s children look like the `fresh` nodes (drawn anew, not in the page), keyed by kind
 * and `data-key` / test id (else place among their kind): a child whose key is still there is kept
 * and patched, a new one is the fresh node itself, the others go. Returns the nodes new to `parent`.
 */
export function patchChildren(parent, fresh) {
  const list = fresh.filter((x) => x !== null && x !== undefined && x !== false).map((x) => (typeof x === 'object' ? x : document.createTextNode(String(x))));
  const keys = childKeys(list);
  const old = [];
  for (let child = parent.firstChild; child; child = child.nextSibling) old.push(child);
  const oldKeys = childKeys(old);
  old.forEach((child, i) => setKey(child, oldKeys[i]));
  return sync(
    parent,
    list,
    (_, i) => keys[i],
    (node) => node,
    (node, item) => (node.nodeName === item.nodeName ? patch(node, item) : node),
  );
}
