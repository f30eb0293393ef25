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
