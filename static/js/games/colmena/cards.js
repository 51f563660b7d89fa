/* cards.js: la colmena's cards and board, drawn from a view (an ES module on lit-html).
 *
 * `card(data, lang)` is a card as the deck prints it: a task's name with the icons of the
 * teams that can help, each icon with its name written beside it; a team card's name, icon
 * (and its name) and ×N. `board(view, opts)` is the table: a grid of cells (x, y) whose
 * size comes from CSS (the whole board in its frame, its rows as tall as their words need
 * and its type set by screen.js; or fixed cells to scroll on a phone),
 * with the cells a selected card may go to lit when the view lists them (`playable`). The
 * cells offered are every empty cell of the grid drawn; which are legal is the view's,
 * never this module's: a tap on an unlit one is sent and the server says why not.
 *
 * Test ids: colmena-board, colmena-cell-X_Y (a cell offered), card ids in data-card and
 * cells in data-at on each card of the board.
 */
import { html, svg, nothing } from '/static/js/lib/dom.js';

/** The language of a card's names: Spanish for both Spanish pages. */
export const cardLang = (lang) => (String(lang).startsWith('es') ? 'es' : 'en');

/* Each team's icon as a small line drawing in a 24-unit box; an icon of a printed deck that
 * is not one of these is drawn as a ring with its initial (its name is always written). */
const ICONS = {
  pencil: svg`<path d="M5 19 L6.2 14.4 L16.6 4 L20 7.4 L9.6 17.8 Z" /><path d="M14.6 6 L18 9.4" /><path d="M5 19 L9.6 17.8" />`,
  mortarboard: svg`<path d="M2 9 L12 4.5 L22 9 L12 13.5 Z" /><path d="M6.5 11 V16 C9 18.5 15 18.5 17.5 16 V11" /><path d="M20 10 V16" />`,
  briefcase: svg`<rect x="3" y="7.5" width="18" height="12" rx="1.8" /><path d="M9 7.5 V5 H15 V7.5" /><path d="M3 12.5 H21" />`,
  book: svg`<path d="M12 6.5 C9.5 4.8 6 4.5 3 5.2 V18.8 C6 18.1 9.5 18.4 12 20 C14.5 18.4 18 18.1 21 18.8 V5.2 C18 4.5 14.5 4.8 12 6.5 Z" /><path d="M12 6.5 V20" />`,
  brain: svg`<path d="M12 5.5 C10.4 3.6 6.8 4.2 6.5 6.9 C4.2 7.2 3.4 10 4.9 11.6 C3.5 13.3 4.6 16.3 7 16.3 C7.4 18.8 10.6 19.6 12 17.6 C13.4 19.6 16.6 18.8 17 16.3 C19.4 16.3 20.5 13.3 19.1 11.6 C20.6 10 19.8 7.2 17.5 6.9 C17.2 4.2 13.6 3.6 12 5.5 Z" /><path d="M12 5.5 V17.6" /><path d="M8.2 10 C9.5 10.4 10.4 11.4 10.5 12.8" /><path d="M15.8 10 C14.5 10.4 13.6 11.4 13.5 12.8" />`,
};

/** An icon's drawing (decorative: its name is always written next to it). */
export function iconSvg(key) {
  const known = ICONS[key];
  return html`<svg class=${'cc-glyph icon-' + (known ? key : 'other')} viewBox="0 0 24 24" aria-hidden="true" focusable="false">${known
    || svg`<circle cx="12" cy="12" r="8.5" /><text x="12" y="16" text-anchor="middle">${String(key).charAt(0).toUpperCase()}</text>`}</svg>`;
}

/** An icon with its name: «[lápiz drawing] lápiz». */
export const iconLabel = (icon, lang) => html`<span class="cc-icon">${iconSvg(icon.key)}<span class="cc-icon-name">${icon.name[cardLang(lang)] || icon.key}</span></span>`;

/** The name of a card in the page's language. */
export const cardName = (data, lang) => (data ? data.name[cardLang(lang)] || data.name.en : '');

/** A card's face: `extra` (a template) is added at its foot (a task's points, say), after a
 *  task's icons, so that it wraps with them on a short cell. */
export function card(data, lang, extra) {
  if (!data) return nothing;
  if (data.kind === 'task') {
    return html`<span class=${'cc-face task'}><span class="cc-name" title=${cardName(data, lang)}>${cardName(data, lang)}</span><span class="cc-icons">${data.icons.map((i) => iconLabel(i, lang))}${extra || nothing}</span></span>`;
  }
  const icon = data.icons[0] || { key: '?', name: { es: '?', en: '?' } };
  return html`<span class=${'cc-face team team-' + icon.key}><span class="cc-team-icon">${iconSvg(icon.key)}</span><span class="cc-name" title=${cardName(data, lang)}>${cardName(data, lang)}</span><span class="cc-team-foot"><span class="cc-icon-name">${icon.name[cardLang(lang)] || icon.key}</span><span class="cc-times">${data.times}</span></span>${extra || nothing}</span>`;
}

const key = (x, y) => x + '_' + y;

/** The board: `opts` {lang, t, num, fit (the whole board in its frame), cell (px, when not
 *  fit), min (the smallest cell in px when fit), lit (cells [[x, y]] of the card selected),
 *  offer (true: every empty cell of the grid is a button), onCell([x, y]), what (the
 *  selected card's name, for the cells' labels), completed (cells of completed tasks, with
 *  points), label (the board's name)}. */
export function board(view, opts) {
  const o = opts || {};
  const t = o.t;
  const taken = new Map(view.board.map((b) => [key(b.at[0], b.at[1]), b]));
  const lit = new Set((o.lit || []).map((c) => key(c[0], c[1])));
  const cells = view.board.map((b) => b.at).concat(o.lit || []);
  if (!cells.length) cells.push([0, 0]);
  // An empty ring around the cards: where a card may be offered to go.
  const margin = o.offer ? 1 : 0;
  const minX = Math.min(...cells.map((c) => c[0])) - margin;
  const maxX = Math.max(...cells.map((c) => c[0])) + margin;
  const minY = Math.min(...cells.map((c) => c[1])) - margin;
  const maxY = Math.max(...cells.map((c) => c[1])) + margin;
  const cols = maxX - minX + 1;
  const rows = maxY - minY + 1;
  const place = (x, y) => 'grid-column:' + (x - minX + 1) + ';grid-row:' + (y - minY + 1);
  const done = new Map((o.completed || []).map((c) => [key(c.at[0], c.at[1]), c]));
  const items = view.board.map((b) => {
    const k = key(b.at[0], b.at[1]);
    const finished = done.get(k);
    const extra = finished ? html`<span class="cc-done">✓ ${t('colmena.card.completed', { n: o.num(finished.points) })}</span>` : null;
    return html`<li class=${'cc-cell cc-card ' + b.card.kind + (finished ? ' completed' : '')} style=${place(b.at[0], b.at[1])} data-card=${b.card.id} data-at=${k}>${card(b.card, o.lang, extra)}</li>`;
  });
  if (o.offer || lit.size) {
    const nextTo = (x, y) => [[0, -1, 'up'], [-1, 0, 'left'], [1, 0, 'right'], [0, 1, 'down']]
      .map(([dx, dy, side]) => [taken.get(key(x + dx, y + dy)), side]).filter(([b]) => b)
      .map(([b, side]) => t('colmena.cell.side.' + side, { card: cardName(b.card, o.lang) }));
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const k = key(x, y);
        if (taken.has(k) || (!o.offer && !lit.has(k))) continue;
        const on = lit.has(k);
        const near = nextTo(x, y);
        const label = (on ? t('colmena.cell.play', { card: o.what || '' }) : t('colmena.cell.try', { card: o.what || '' }))
          + (near.length ? ' · ' + near.join(', ') : '');
        items.push(html`<li class=${'cc-cell cc-target' + (on ? ' lit' : '')} style=${place(x, y)}><button type="button" data-testid=${'colmena-cell-' + k} data-x=${x} data-y=${y} aria-label=${label} title=${label} @click=${() => o.onCell([x, y])}><span aria-hidden="true">${on ? '+' : '·'}</span></button></li>`);
      }
    }
  }
  const style = '--cols:' + cols + ';--rows:' + rows + (o.fit ? '' : ';--cell:' + (o.cell || 100) + 'px') + (o.min ? ';--min-cell:' + o.min + 'px' : '');
  // The frame scrolls on a phone: it takes the focus, so the keyboard scrolls it too.
  return html`<div class=${'cc-frame' + (o.fit ? ' fit' : ' zoomed')} data-testid="colmena-board-frame" tabindex="0" role="region" aria-label=${t('colmena.board_title')}><ol class="cc-grid" style=${style} data-testid="colmena-board" aria-label=${o.label || o.plural('colmena.board', view.board.length)} @keydown=${arrows}>${items.length ? items : html`<li class="cc-empty">${t('colmena.board_empty')}</li>`}</ol></div>`;
}

/* Arrow keys move between the cells offered, to the nearest one on that side. */
const STEP = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
function arrows(e) {
  const step = STEP[e.key];
  const from = e.target.closest && e.target.closest('button[data-x]');
  if (!step || !from) return;
  const x0 = Number(from.dataset.x), y0 = Number(from.dataset.y);
  let best = null, bestCost = Infinity;
  for (const b of e.currentTarget.querySelectorAll('button[data-x]')) {
    const dx = Number(b.dataset.x) - x0, dy = Number(b.dataset.y) - y0;
    const along = dx * step[0] + dy * step[1];
    if (along <= 0) continue;
    const cost = along + 2 * Math.abs(step[0] ? dy : dx);
    if (cost < bestCost) { bestCost = cost; best = b; }
  }
  if (best) {
    e.preventDefault();
    best.focus();
    best.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}
