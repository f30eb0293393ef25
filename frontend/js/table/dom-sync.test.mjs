// dom.js's keyed `sync` (issue 42) over a tiny stand-in for the DOM: kept nodes are the same
// objects, only what changed is touched, the order follows the items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyOf, setAttr, setText, sync } from '../dom.js';

/** Just enough of a DOM element for `sync`: children, siblings, insertBefore, removeChild. */
class Node {
  constructor(name) {
    this.name = name;
    this.parent = null;
    this.kids = [];
    this.attrs = new Map();
    this.moves = 0;
    this.text = '';
  }
  get children() {
    return [...this.kids];
  }
  get firstChild() {
    return this.kids[0] || null;
  }
  get nextSibling() {
    if (!this.parent) return null;
    const k = this.parent.kids;
    return k[k.indexOf(this) + 1] || null;
  }
  insertBefore(node, ref) {
    if (node.parent) node.parent.kids.splice(node.parent.kids.indexOf(node), 1);
    node.parent = this;
    node.moves += 1;
    const i = ref ? this.kids.indexOf(ref) : this.kids.length;
    this.kids.splice(i, 0, node);
    return node;
  }
  appendChild(node) {
    return this.insertBefore(node, null);
  }
  removeChild(node) {
    this.kids.splice(this.kids.indexOf(node), 1);
    node.parent = null;
    return node;
  }
  get textContent() {
    return this.text;
  }
  set textContent(v) {
    this.text = v;
    this.moves += 1;
  }
  hasAttribute(n) {
    return this.attrs.has(n);
  }
  getAttribute(n) {
    return this.attrs.has(n) ? this.attrs.get(n) : null;
  }
  setAttribute(n, v) {
    this.attrs.set(n, v);
  }
  removeAttribute(n) {
    this.attrs.delete(n);
  }
}

const names = (parent) => parent.kids.map((n) => n.name);

test('sync makes the children, in order, and returns the ones it made', () => {
  const parent = new Node('p');
  const made = sync(parent, ['a', 'b', 'c'], (x) => x, (x) => new Node(x));
  assert.deepEqual(names(parent), ['a', 'b', 'c']);
  assert.deepEqual(made.map((n) => n.name), ['a', 'b', 'c']);
  assert.equal(keyOf(parent.kids[1]), 'b');
});

test('an unchanged list touches no node; a kept node is the same object and is updated', () => {
  const parent = new Node('p');
  sync(parent, ['a', 'b'], (x) => x, (x) => new Node(x));
  const [a, b] = parent.kids;
  const movesBefore = [a.moves, b.moves];
  const updated = [];
  const made = sync(parent, ['a', 'b'], (x) => x, (x) => new Node(x), (node, item, i) => updated.push([node.name, item, i]));
  assert.deepEqual(made, []);
  assert.equal(parent.kids[0], a);
  assert.equal(parent.kids[1], b);
  assert.deepEqual([a.moves, b.moves], movesBefore);
  assert.deepEqual(updated, [['a', 'a', 0], ['b', 'b', 1]]);
});

test('a card added, one removed, the order changed: only those nodes move', () => {
  const parent = new Node('p');
  sync(parent, ['a', 'b', 'c', 'd'], (x) => x, (x) => new Node(x));
  const [a, b, c, d] = parent.kids;
  const made = sync(parent, ['a', 'c', 'd', 'e'], (x) => x, (x) => new Node(x));
  assert.deepEqual(names(parent), ['a', 'c', 'd', 'e']);
  assert.deepEqual(made.map((n) => n.name), ['e']);
  assert.equal(b.parent, null);
  assert.deepEqual([a.moves, c.moves, d.moves], [1, 1, 1]); // kept where they were
  sync(parent, ['d', 'a', 'c', 'e'], (x) => x, (x) => new Node(x));
  assert.deepEqual(names(parent), ['d', 'a', 'c', 'e']);
  assert.equal(parent.kids[0], d);
});

test('children sync did not make go; items may be objects keyed by a field; an empty list empties', () => {
  const parent = new Node('p');
  parent.appendChild(new Node('stray'));
  sync(parent, [{ id: 1 }, { id: 2 }], (x) => x.id, (x) => new Node(`n${x.id}`));
  assert.deepEqual(names(parent), ['n1', 'n2']);
  sync(parent, [], (x) => x.id, (x) => new Node(`n${x.id}`));
  assert.deepEqual(names(parent), []);
});

test('setText and setAttr write only a change', () => {
  const el = new Node('x');
  setText(el, 'hi');
  setText(el, 'hi');
  assert.equal(el.moves, 1);
  setAttr(el, 'aria-label', 'A');
  assert.equal(el.getAttribute('aria-label'), 'A');
  setAttr(el, 'hidden', true);
  assert.equal(el.getAttribute('hidden'), '');
  setAttr(el, 'hidden', false);
  assert.equal(el.hasAttribute('hidden'), false);
});
