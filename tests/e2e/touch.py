"""Shared by the touch and contrast tests: where each card of the own hand may be tapped, and the
colours behind an element.

``VISIBLE_STRIPS_JS`` takes the bounding boxes of the hand's cards and their stacking (z-index, then
the order they are drawn in): a card's visible part is its box minus the boxes of every card drawn
over it, cut into rectangles; its strip is the widest of them (the largest shorter side).
``BACKGROUNDS_JS`` walks from an element up through its ancestors and lists every colour that can be
behind its text (gradients give each of their stops), composited down to the first opaque layer.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

VISIBLE_STRIPS_JS = """
() => {
  const cards = [...document.querySelectorAll('[data-testid="hand"] button.card')];
  const zOf = (el) => { const z = getComputedStyle(el).zIndex; return z === 'auto' ? 0 : Number(z); };
  const items = cards.map((el, i) => {
    const r = el.getBoundingClientRect();
    return { el, i, z: zOf(el), box: { l: r.left, t: r.top, r: r.right, b: r.bottom } };
  });
  const over = (a, b) => b.z > a.z || (b.z === a.z && b.i > a.i); // b is drawn over a
  const minus = (p, c) => {
    const l = Math.max(p.l, c.l), r = Math.min(p.r, c.r), t = Math.max(p.t, c.t), b = Math.min(p.b, c.b);
    if (l >= r || t >= b) return [p];
    const out = [];
    if (p.t < t) out.push({ l: p.l, r: p.r, t: p.t, b: t });
    if (b < p.b) out.push({ l: p.l, r: p.r, t: b, b: p.b });
    if (p.l < l) out.push({ l: p.l, r: l, t, b });
    if (r < p.r) out.push({ l: r, r: p.r, t, b });
    return out;
  };
  return items.map((a) => {
    let pieces = [a.box];
    for (const b of items) if (b !== a && over(a, b)) pieces = pieces.flatMap((p) => minus(p, b.box));
    const size = (p) => Math.min(p.r - p.l, p.b - p.t);
    pieces.sort((x, y) => size(y) - size(x) || (y.r - y.l) * (y.b - y.t) - (x.r - x.l) * (x.b - x.t));
    const best = pieces[0] || null;
    const x = best ? (best.l + best.r) / 2 : null;
    const y = best ? (best.t + best.b) / 2 : null;
    const hit = best ? document.elementFromPoint(x, y) : null;
    const card = hit && hit.closest('[data-testid="hand"] [data-card]');
    return {
      card: a.el.dataset.card,
      row: Number(a.el.dataset.row || 0),
      strip: best,
      x, y,
      w: best ? best.r - best.l : 0,
      h: best ? best.b - best.t : 0,
      hit: card ? card.dataset.card : (hit ? hit.tagName + '.' + hit.className : null),
    };
  });
}
"""

BACKGROUNDS_JS = """
(el) => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const layers = []; // top first: each a list of possible colours
  let opaque = false;
  for (let a = el; a && !opaque; a = a.parentElement) {
    const s = getComputedStyle(a);
    const stops = (s.backgroundImage.match(/rgba?\\([^)]+\\)/g) || []).map(parse).filter(Boolean);
    if (stops.length) layers.push(stops);
    const c = parse(s.backgroundColor);
    if (c && c[3] > 0) {
      layers.push([c]);
      if (c[3] >= 1) opaque = true;
    }
  }
  if (!opaque) layers.push([[255, 255, 255, 1]]);
  let below = [layers.pop()[0].slice(0, 3)];
  while (layers.length) {
    const layer = layers.pop();
    const next = [];
    for (const b of below) for (const c of layer) next.push([0, 1, 2].map((k) => c[k] * c[3] + b[k] * (1 - c[3])));
    below = next;
  }
  return { fg: parse(getComputedStyle(el).color), backgrounds: below };
}
"""


def luminance(rgb: list[float]) -> float:
    def channel(v: float) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else float(((c + 0.055) / 1.055) ** 2.4)

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[float], b: list[float]) -> float:
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def worst_contrast(page: Page, selector: str) -> tuple[float, dict[str, Any]]:
    """The lowest contrast of the element's text colour against any colour that can be behind it."""
    found: dict[str, Any] = page.locator(selector).first.evaluate(BACKGROUNDS_JS)
    fg = found["fg"]
    assert fg and fg[3] == 1, found
    return min(contrast(fg, bg) for bg in found["backgrounds"]), found


# The hand's cards at rest: no finite animation (a card dealt, drawn or sliding into place: the
# cards travel, issue 22) still running on any of them.
HAND_AT_REST_JS = """() => [...document.querySelectorAll('[data-testid="hand"] button.card')].every((card) =>
  card.getAnimations().every((a) => a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity))"""


def strips(page: Page) -> list[dict[str, Any]]:
    """Each hand card's visible strip, measured once the cards have come to rest where they are drawn."""
    page.wait_for_function(HAND_AT_REST_JS)
    result: list[dict[str, Any]] = page.evaluate(VISIBLE_STRIPS_JS)
    return result


PLAY = re.compile(r'"type"\s*:\s*"play"')
