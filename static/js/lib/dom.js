/* dom.js: lit-html (installed from npm, served as /vendor/lit-html.js) and the few helpers
 * the screens share. lit-html keeps the elements of a template between updates and only
 * changes the parts that differ, so a typed text, the focus and the selection survive
 * every state. User text always goes in as text, never as HTML. Knows no game. */
import { html, svg, render, nothing } from '/vendor/lit-html.js';

export { html, svg, render, nothing };

/** The element of id `id`. */
export const $ = (id) => document.getElementById(id);

const drawn = new WeakSet();
/** Render `template` into `box`; the first time, what the server put there (a "loading"
 *  line) goes: lit-html itself would keep it and add the template after it. */
export function draw(box, template) {
  if (!box) return;
  if (!drawn.has(box)) { box.replaceChildren(); drawn.add(box); }
  render(template, box);
}

/** What fields hold between renders, by name: `.value=${drafts.x ?? ''} @input=${keep('x')}`. */
export const drafts = {};
/** An input handler that keeps the field's value in drafts[name]. */
export const keep = (name) => (e) => { drafts[name] = e.target.value; };

/* Formatted question text (issue 14). The server sanitises it (an allow-list); here it is
 * parsed inertly with DOMParser and only allowed elements and attributes are copied into
 * the page (no HTML string is ever assigned). Images only from this server's
 * /g/<game>/img/<id>, shown with their alt text, bounded by CSS. */
const RICH_TAGS = new Set(['p', 'br', 'em', 'i', 'strong', 'b', 'u', 'sub', 'sup', 'ul', 'ol',
  'li', 'code', 'pre', 'blockquote', 'span']);
const IMG_SRC = /^\/g\/[A-Za-z0-9_-]+\/img\/\d+$/;
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}
function richNodes(source, into, missing) {
  for (const node of Array.from(source.childNodes)) {
    if (node.nodeType === 3) { into.appendChild(document.createTextNode(node.nodeValue)); continue; }
    if (node.nodeType !== 1) continue;
    const tag = node.tagName.toLowerCase();
    if (tag === 'img') {
      const src = node.getAttribute('src') || '';
      const alt = node.getAttribute('alt') || '';
      if (!IMG_SRC.test(src)) { if (alt) into.appendChild(el('span', 'img-alt', '[' + alt + ']')); continue; }
      const img = el('img', 'qimg');
      Object.assign(img, { src: src, alt: alt, loading: 'lazy', decoding: 'async' });
      for (const dim of ['width', 'height']) {
        const v = node.getAttribute(dim);
        if (v && /^\d{1,4}$/.test(v)) img.setAttribute(dim, v);
      }
      img.addEventListener('error', () => img.replaceWith(el('span', 'img-alt', '[' + (alt || missing) + ']')));
      into.appendChild(img);
    } else if (RICH_TAGS.has(tag)) {
      richNodes(node, into.appendChild(document.createElement(tag)), missing);
    } else {
      richNodes(node, into, missing);               // anything else: its text only
    }
  }
  return into;
}
/** Fill element `box` with sanitised HTML `html`; false (`box` untouched) when empty.
 *  `missing`: the text of an image that does not load. */
export function fillRich(box, source, missing) {
  if (!source || typeof DOMParser === 'undefined') return false;
  const doc = new DOMParser().parseFromString(String(source), 'text/html');
  box.replaceChildren(...richNodes(doc.body, document.createElement('div'), missing).childNodes);
  box.classList.add('rich');
  return true;
}

const richCache = {};
const richNodesCache = new Map();
/** An element `tag` (class `cls`, test id `testid`) with a question's text `q`, filled with
 *  its formatted form (`field`: 'html' or 'answer_html') from q[field] or, once fetched,
 *  from GET /g/<game>/rich/<ref>; the plain text stays when there is none. The same
 *  arguments give the same element, so an update leaves it (and what it fetched) alone. */
export function rich(tag, cls, testid, q, game, field, missing) {
  const key = field || 'html';
  const id = JSON.stringify([tag, cls, testid, q.text, q.answer, q[key], q.ref, game, key]);
  const cached = richNodesCache.get(id);
  if (cached) return cached;
  const box = el(tag, cls, key === 'html' ? q.text : q.answer);
  if (testid) box.setAttribute('data-testid', testid);
  if (richNodesCache.size > 200) richNodesCache.clear();
  richNodesCache.set(id, box);
  if (q[key]) { fillRich(box, q[key], missing); return box; }
  if (!q.ref || !game || typeof fetch === 'undefined') return box;
  const ref = game + ':' + q.ref;
  const got = richCache[ref];
  if (got && !got.then) { fillRich(box, got[key], missing); return box; }
  const pending = got || (richCache[ref] = fetch('/g/' + encodeURIComponent(game) + '/rich/' + q.ref,
    { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}))
    .then((body) => { richCache[ref] = body || {}; return richCache[ref]; }));
  pending.then((body) => fillRich(box, body[key], missing));
  return box;
}
