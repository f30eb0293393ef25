// dom.js's keyed `sync` (issue 42) over a tiny stand-in for the DOM: kept nodes are the same
// objects, only what changed is touched, the order follows the items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyOf, setAttr, setText, sync } from '../dom.js';
import { patch, patchChildren } from './patch.js';

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

test('a child sync did not make stays where it is (a picture in flight); items may be objects keyed by a field; an empty list empties', () => {
  const parent = new Node('p');
  sync(parent, [{ id: 1 }, { id: 2 }], (x) => x.id, (x) => new Node(`n${x.id}`));
  const stray = parent.insertBefore(new Node('stray'), parent.kids[1]);
  const [n1, n2] = [parent.kids[0], parent.kids[2]];
  const moves = [n1.moves, n2.moves];
  sync(parent, [{ id: 1 }, { id: 2 }], (x) => x.id, (x) => new Node(`n${x.id}`));
  assert.deepEqual(names(parent), ['n1', 'stray', 'n2']);
  assert.deepEqual([n1.moves, n2.moves], moves); // nothing moved round it
  sync(parent, [{ id: 2 }, { id: 3 }], (x) => x.id, (x) => new Node(`n${x.id}`));
  assert.deepEqual(names(parent), ['stray', 'n2', 'n3']);
  sync(parent, [], (x) => x.id, (x) => new Node(`n${x.id}`));
  assert.deepEqual(names(parent), ['stray']);
  assert.equal(stray.parent, parent);
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

// ------------------------------------------------------------------ patch.js: a fresh drawing patched in

/** An element or a text node of the stand-in with what `patch` reads and writes, counting writes. */
class El extends Node {
  constructor(tag, attrs = {}, ...kids) {
    super(tag);
    this.nodeType = 1;
    this.nodeName = tag.toUpperCase();
    this.writes = 0;
    const el = this;
    this.style = {
      css: '',
      get cssText() {
        return this.css;
      },
      set cssText(v) {
        this.css = v;
        el.writes += 1;
      },
    };
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'style') this.style.css = v;
      this.attrs.set(k, v);
    }
    for (const kid of kids) this.appendChild(typeof kid === 'string' ? new Text(kid) : kid);
  }
  get childNodes() {
    return [...this.kids];
  }
  get attributes() {
    return [...this.attrs].map(([name, value]) => ({ name, value }));
  }
  setAttribute(n, v) {
    this.writes += 1;
    super.setAttribute(n, v);
  }
  removeAttribute(n) {
    this.writes += 1;
    super.removeAttribute(n);
  }
}

class Text extends Node {
  constructor(value) {
    super('#text');
    this.nodeType = 3;
    this.nodeName = '#text';
    this.value = value;
    this.writes = 0;
  }
  get nodeValue() {
    return this.value;
  }
  set nodeValue(v) {
    this.value = v;
    this.writes += 1;
  }
}

/** Every write under `el` (itself included), and every move of a node under it. */
const writes = (el) => el.writes + el.kids.reduce((n, k) => n + writes(k), 0);

const seat = (count, name, turn) =>
  new El('div', { class: 'ring-seat', 'data-testid': 'seat-1', 'data-turn': String(turn), style: '--p:10%' }, new El('span', { class: 'seat-name' }, name), new El('span', { class: 'rs-cards', 'data-count': String(count) }, ...Array.from({ length: count }, () => new El('div', { class: 'card back' }))));

test('patch: the same drawing again writes nothing; a change writes only itself and keeps every node', () => {
  const box = seat(3, 'Anna', false);
  const [name, cards] = box.kids;
  const backs = cards.kids.slice();
  patch(box, seat(3, 'Anna', false));
  assert.equal(writes(box), 0);
  patch(box, seat(2, 'Anna', true));
  assert.equal(box.getAttribute('data-turn'), 'true');
  assert.equal(box.kids[0], name);
  assert.equal(box.kids[1], cards);
  assert.equal(cards.getAttribute('data-count'), '2');
  assert.deepEqual(cards.kids, backs.slice(0, 2)); // one back gone, the others kept
  assert.equal(name.kids[0].nodeValue, 'Anna');
  assert.equal(backs[2].parent, null);
  assert.equal(writes(box), 2); // data-turn and data-count: nothing else written
  patch(box, seat(2, 'Ben', true));
  assert.equal(name.kids[0].nodeValue, 'Ben');
  assert.equal(name.kids[0].writes, 1);
});

test('patch: attributes gone are removed, the style is written through the CSSOM', () => {
  const el = new El('span', { class: 'a', title: 'x', style: '--p:1%' });
  patch(el, new El('span', { class: 'b', style: '--p:2%' }));
  assert.equal(el.getAttribute('class'), 'b');
  assert.equal(el.hasAttribute('title'), false);
  assert.equal(el.style.cssText, '--p:2%');
});

test('patchChildren: children keyed by test id are kept through a change of order; new ones are the fresh nodes', () => {
  const list = new El('ul');
  const row = (n, text) => new El('li', { 'data-testid': `row-${n}` }, text);
  patchChildren(list, [row(0, 'a'), row(1, 'b')]);
  const [r0, r1] = list.kids;
  const r2 = row(2, 'c');
  const made = patchChildren(list, [row(1, 'b'), r2, row(0, 'a!')]);
  assert.deepEqual(made, [r2]);
  assert.deepEqual(list.kids, [r1, r2, r0]);
  assert.equal(r0.kids[0].nodeValue, 'a!');
  // another kind at a place is another node
  patchChildren(list, [new El('p', {}, 'empty')]);
  assert.equal(list.kids.length, 1);
  assert.equal(list.kids[0].nodeName, 'P');
});

test('patchChildren adopts children drawn before (without sync) by place and kind', () => {
  const side = new El('div', {}, new El('div', { class: 'chip' }, '120'), new El('div', { class: 'last' }));
  const [chip, last] = side.kids;
  patchChildren(side, [new El('div', { class: 'chip' }, '130'), new El('div', { class: 'last' })]);
  assert.deepEqual(side.kids, [chip, last]);
  assert.equal(chip.kids[0].nodeValue, '130');
});
