/* board.js: a Hive board drawn from the view the server sends, an ES module on lit-html.
 *
 * render(container, view, options) draws into `container` (again on every view: the pan,
 * the zoom and the piece picked are kept per container) an SVG hex board with pan and zoom
 * (drag, pinch, wheel, the − + and fit buttons), every stack with its insect drawn and
 * named (colour written, not shown by colour alone), both hands, the last move marked and
 * the move list as text. A screen that may move (its view has `destinations`) picks a
 * piece by a tap, a click or Enter, sees the cells the engine lists for it lit, and plays
 * one by a tap on it: `options.onPlay(move)`. A piece the engine lists as stuck calls
 * `options.onExplain(why)` instead. Nothing here knows a rule: every destination and every
 * reason comes from the view. Where the hexes go is geometry.js's.
 *
 * options: {t (the catalog), onPlay, onExplain, id (a prefix of test ids, default
 * 'hive'), mini (a small board of the hall's projector: no buttons, no list), mine (the
 * colour of a player's own phone: its hand listed first)}.
 */
import { html, svg, render as draw, nothing } from '/static/js/lib/dom.js';
import { R, centre, hexPoints, fit, zoomAt } from './geometry.js';

/** The insects, in the order the hands list them. */
export const KINDS = ['Q', 'S', 'B', 'G', 'A', 'M', 'L', 'P'];
const COLOURS = ['white', 'black'];
const at = (x, y) => 'translate(' + x.toFixed(2) + ',' + y.toFixed(2) + ')';
const TILE = hexPoints(R - 2);
const RING = hexPoints(R - 3);
// The insect high in its tile, its name low where the hexagon is wide, inside every edge.
const GLYPH = { scale: 1.1, dy: -9 }, LABEL_Y = R * 0.41;

/* Each insect as a small drawing in a 24-unit box centred on 0, 0 (the kind's letter
 * is written beside it, so a glyph never has to be recognised to be read). */
const GLYPHS = {
  Q: svg`<ellipse cx="-5" cy="-3" rx="5" ry="3" class="wing"/><ellipse cx="5" cy="-3" rx="5" ry="3" class="wing"/><ellipse cx="0" cy="2" rx="4.5" ry="7"/><line x1="-4" y1="1" x2="4" y2="1" class="cut"/><line x1="-4" y1="4.5" x2="4" y2="4.5" class="cut"/><circle cx="0" cy="-7" r="2.5"/>`,
  B: svg`<circle cx="0" cy="-8" r="2.5"/><ellipse cx="0" cy="1" rx="7" ry="8.5"/><line x1="0" y1="-6" x2="0" y2="9" class="cut"/><path d="M-7 -2 L-11 -5 M7 -2 L11 -5 M-7 3 L-11 3 M7 3 L11 3 M-6 7 L-10 10 M6 7 L10 10" class="leg"/>`,
  G: svg`<ellipse cx="0" cy="1" rx="3" ry="9"/><circle cx="0" cy="-9" r="2.3"/><path d="M-2 2 L-9 -4 L-8 10 M2 2 L9 -4 L8 10 M-2 -3 L-6 -6 M2 -3 L6 -6 M-1 -11 L-4 -14 M1 -11 L4 -14" class="leg"/>`,
  S: svg`<circle cx="0" cy="-3" r="3.5"/><circle cx="0" cy="5" r="5"/><path d="M-2 -4 L-9 -10 L-11 -6 M2 -4 L9 -10 L11 -6 M-3 -2 L-11 -3 M3 -2 L11 -3 M-3 0 L-10 4 L-11 8 M3 0 L10 4 L11 8 M-2 1 L-7 9 M2 1 L7 9" class="leg"/>`,
  A: svg`<circle cx="0" cy="-8" r="2.5"/><circle cx="0" cy="-2" r="2.5"/><ellipse cx="0" cy="6" rx="4" ry="5"/><path d="M-1 -10 L-4 -13 M1 -10 L4 -13 M-2 -3 L-9 -7 M2 -3 L9 -7 M-2 -1 L-10 0 M2 -1 L10 0 M-2 0 L-8 6 M2 0 L8 6" class="leg"/>`,
  // The expansions: a mosquito's thin body, wings and long mouth; a ladybug's round,
  // spotted back; a pillbug's segmented shell.
  M: svg`<ellipse cx="-5" cy="-2" rx="5" ry="2.2" class="wing"/><ellipse cx="5" cy="-2" rx="5" ry="2.2" class="wing"/><ellipse cx="0" cy="3" rx="2" ry="7"/><circle cx="0" cy="-6" r="2.2"/><path d="M0 -8 L0 -13 M-1 -1 L-9 -6 M1 -1 L9 -6 M-1 1 L-9 5 M1 1 L9 5 M-1 3 L-7 11 M1 3 L7 11" class="leg"/>`,
  L: svg`<circle cx="0" cy="-8" r="3"/><circle cx="0" cy="2" r="8.5"/><line x1="0" y1="-6" x2="0" y2="10.5" class="cut"/><circle cx="-4" cy="-1" r="1.7" class="spot"/><circle cx="4" cy="-1" r="1.7" class="spot"/><circle cx="-4" cy="5" r="1.5" class="spot"/><circle cx="4" cy="5" r="1.5" class="spot"/><path d="M-1 -10 L-3 -13 M1 -10 L3 -13" class="leg"/>`,
  P: svg`<ellipse cx="0" cy="1" rx="7.5" ry="10.5"/><path d="M-7 -5 Q0 -7 7 -5 M-7.5 -1 Q0 -3 7.5 -1 M-7.5 3 Q0 1 7.5 3 M-7 7 Q0 5 7 7" class="cut"/><path d="M-2 -9 L-4 -13 M2 -9 L4 -13 M-7 -3 L-11 -4 M7 -3 L11 -4 M-8 1 L-11 1 M8 1 L11 1 M-7 5 L-11 6 M7 5 L11 6" class="leg"/>`,
};
/** The drawing of insect `kind` (a group, `scale` times the 24-unit box). */
const glyph = (kind, scale, dy = 0) => svg`<g class="glyph" transform=${'translate(0 ' + dy + ') scale(' + scale + ')'} aria-hidden="true">${GLYPHS[kind] || GLYPHS.Q}</g>`;

/** A small stand-alone SVG of an insect (for the hands and the screens' texts). */
export const icon = (kind, colour) => html`<svg class=${'hive-icon ' + colour} viewBox="-14 -14 28 28" width="28" height="28"
  aria-hidden="true" focusable="false">${glyph(kind, 1)}</svg>`;

/** The words of a piece: "hormiga blanca (wA1)". */
export function pieceName(t, name) {
  const colour = name[0] === 'w' ? 'white' : 'black';
  return t('hive.piece', { insect: t('hive.insect.' + name[1]), colour: t('hive.of.' + colour + '.' + name[1]), name: name });
}

/** A side in words: "blancas (Ana)", "negras (la computadora)"; a side whose player has
 *  no name but the engine's default (the colour's English name) is the colour alone. */
export function side(t, view, colour) {
  // The computer's side is named as the class calls it, not by the engine's "Bot".
  const computer = view.bot && view.bot === (colour === 'white' ? 1 : 2);
  const name = computer ? t('hive.computer') : (view.players || {})[colour] || '';
  return name && name.toLowerCase() !== colour
    ? t('hive.side', { colour: t('colour.' + colour), name: name }) : t('colour.' + colour);
}

/* What is kept per container between views: the piece picked, the pan and zoom (moved
 * once a person panned or zoomed), the frame's size last drawn, the last view and options. */
const memories = new WeakMap();
function memory(container) {
  if (!memories.has(container)) {
    memories.set(container, { picked: null, scale: 1, x: 0, y: 0, moved: false, seq: -1, w: -1, h: -1 });
  }
  return memories.get(container);
}

/** Draw `view` into `container` (see the file's head). */
export function render(container, view, options) {
  const mem = memory(container);
  mem.view = view;
  mem.o = options || {};
  if (view.seq !== mem.seq) { mem.picked = null; mem.seq = view.seq; }
  const to = view.destinations || null;
  if (mem.picked && !(to && to[mem.picked])) mem.picked = null;
  paint(container, mem);
}

/** Draw again with what `mem` holds; a frame whose size the drawing changed (the first
 *  one) is fitted and drawn once more. */
function paint(container, mem) {
  const active = document.activeElement;
  const focused = active && container.contains(active) ? active.getAttribute('data-testid') : null;
  for (let i = 0; i < 2; i++) {
    const frame = container.querySelector('svg.hive-svg');
    mem.w = frame ? frame.clientWidth : 0;
    mem.h = frame ? frame.clientHeight : 0;
    draw(board(container, mem), container);
    const drawn = container.querySelector('svg.hive-svg');
    if (drawn.clientWidth === mem.w && drawn.clientHeight === mem.h) break;
  }
  const svgEl = container.querySelector('svg.hive-svg');
  if (!mem.watched) { mem.watched = true; watch(container, svgEl, mem); }
  // A cell drawn where another was keeps the focus on its element: it goes back to its test id.
  if (focused && document.activeElement?.getAttribute('data-testid') !== focused) {
    const again = container.querySelector('[data-testid="' + focused + '"]');
    if (again) again.focus();
  }
}

function board(container, mem) {
  const view = mem.view;
  const o = mem.o;
  const t = o.t || ((k) => k);
  const id = o.id || 'hive';
  const to = view.destinations || null;
  const stuck = view.stuck || {};
  const lit = mem.picked ? to[mem.picked] : [];
  const litAt = new Map(lit.map((d) => [d.q + ',' + d.r, d]));
  const pickable = (name) => !!(to && (to[name] || stuck[name]));
  const again = () => paint(container, mem);
  const pick = (name) => {
    if (stuck[name]) { mem.picked = null; if (o.onExplain) o.onExplain(stuck[name], name); }
    else {
      mem.picked = mem.picked === name ? null : name;
      if (o.onExplain) o.onExplain(null, name);
    }
    again();
  };
  const play = (d) => { mem.picked = null; if (o.onPlay) o.onPlay(d.move); };

  const width = Math.max(mem.w, 100), height = Math.max(mem.h, 100);
  // An empty board is fitted around its first cell; what is lit and the last move's origin in.
  const placed = view.stacks.length ? view.stacks : [{ q: 0, r: 0 }];
  const left = view.last_move && view.last_move.from ? [view.last_move.from] : [];
  if (!mem.moved) Object.assign(mem, fit(placed.concat(lit, left), width, height, o.mini, o.limits));

  const below = new Map();              // q,r -> the pieces under the top one
  for (const p of view.pieces) {
    if (p.top) continue;
    const k = p.q + ',' + p.r;
    if (!below.has(k)) below.set(k, []);
    below.get(k).push(p.piece);
  }
  const last = view.last_move;
  const isLast = (c) => !!(last && last.to && last.to.q === c.q && last.to.r === c.r);
  const from = last && last.from
    ? svg`<polygon class="hive-from" points=${RING} transform=${at(...centre(last.from.q, last.from.r))}/>` : nothing;
  const stacks = view.stacks.map((st) => {
    const colour = st.top[0] === 'w' ? 'white' : 'black';
    const dest = litAt.get(st.q + ',' + st.r);
    const mine = pickable(st.top);
    const under = (below.get(st.q + ',' + st.r) || []).slice().reverse();
    let label = pieceName(t, st.top);
    if (under.length) label += ', ' + t('hive.on_top_of', { pieces: under.map((n) => pieceName(t, n)).join(', ') });
    if (isLast(st)) label += ', ' + t('hive.last_move_mark');
    return svg`<g class=${'hive-stack ' + colour + (dest ? ' lit' : '') + (mem.picked === st.top ? ' picked' : '')
        + (isLast(st) ? ' last' : '') + (mine || dest ? ' live' : '')}
      transform=${at(...centre(st.q, st.r))} data-testid=${id + '-cell-' + st.q + '_' + st.r}
      data-piece=${st.top} data-height=${st.height} role=${dest || mine ? 'button' : 'img'}
      tabindex=${dest || mine ? 0 : nothing}
      aria-label=${dest ? t('hive.play_here', { move: dest.move, where: label }) : label}
      aria-pressed=${mine && !dest ? String(mem.picked === st.top) : nothing}
      @activate=${dest ? () => play(dest) : mine ? () => pick(st.top) : nothing}
      ><polygon points=${TILE} class="tile"/>${glyph(st.top[1], GLYPH.scale, GLYPH.dy)}<text class="letter" x="0" y=${LABEL_Y}
      aria-hidden="true">${st.top}</text>${st.height > 1 ? svg`<g class="height" aria-hidden="true"><circle
      cx=${R * 0.58} cy=${-R * 0.5} r="9"/><text x=${R * 0.58} y=${-R * 0.5 + 4}>${st.height}</text></g>` : nothing}</g>`;
  });
  const dests = lit.filter((d) => !view.stacks.some((st) => st.q === d.q && st.r === d.r)).map((d) => svg`<g
    class="hive-dest live" transform=${at(...centre(d.q, d.r))} data-testid=${id + '-cell-' + d.q + '_' + d.r}
    data-move=${d.move} role="button" tabindex="0"
    aria-label=${t('hive.play_here', { move: d.move, where: t('hive.empty_cell') })}
    @activate=${() => play(d)}><polygon points=${RING}/><circle r="6"/></g>`);
  const empty = !view.stacks.length && !lit.length
    ? svg`<text class="hive-empty" x="0" y="5">${t('hive.board_empty')}</text>` : nothing;

  return html`<div class=${'hive-board' + (o.mini ? ' mini' : '')}>${o.mini ? nothing : zoomBar(t, id, container, mem)}<svg
    class="hive-svg" role="group" data-testid=${id + '-board'} aria-label=${t('hive.board_label', { n: view.stacks.length })}
    viewBox=${'0 0 ' + width + ' ' + height}><g class="layer" transform=${'translate(' + mem.x.toFixed(1) + ','
    + mem.y.toFixed(1) + ') scale(' + mem.scale.toFixed(3) + ')'}>${from}${stacks}${dests}${empty}</g></svg>${hands(t, id, view, mem,
    o.mini ? () => false : pickable, pick, o.mini)}${o.mini ? nothing : moveList(t, id, view)}</div>`;
}

/** Follow the frame's size (drawn again when it changed since it was last drawn) and the
 *  person's gestures on it. */
function watch(container, frame, mem) {
  const again = () => paint(container, mem);
  if (typeof ResizeObserver !== 'undefined') {
    new ResizeObserver(() => {
      if (frame.isConnected && (frame.clientWidth !== mem.w || frame.clientHeight !== mem.h)) again();
    }).observe(frame);
  }
  gestures(frame, mem, again);
}

function zoomBar(t, id, container, mem) {
  const again = () => paint(container, mem);
  const zoom = (f) => {
    Object.assign(mem, zoomAt(mem, f, mem.w / 2, mem.h / 2), { moved: true });
    again();
  };
  const button = (name, label, text, fn) => html`<button type="button" class="hive-zoom-b" data-testid=${id + '-' + name}
    aria-label=${label} title=${label} @click=${fn}>${text}</button>`;
  return html`<div class="hive-zoom">${button('zoom-out', t('hive.zoom_out'), '\u2212', () => zoom(1 / 1.25))}${
    button('zoom-in', t('hive.zoom_in'), '+', () => zoom(1.25))}${
    button('fit', t('hive.fit'), t('hive.fit_short'), () => { mem.moved = false; again(); })}</div>`;
}

/* Pan with one pointer, pinch with two, zoom with the wheel; a press that did not
 * move is a tap ("activate" on the cell under it), as is Enter or Space on a cell. */
function gestures(frame, mem, again) {
  const down = new Map();
  let travelled = 0, pinch = null;
  const local = (e) => { const r = frame.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  const zoom = (f, x, y) => Object.assign(mem, zoomAt(mem, f, x, y), { moved: true });
  frame.addEventListener('pointerdown', (e) => {
    down.set(e.pointerId, local(e));
    if (down.size === 1) travelled = 0;
    if (down.size === 2) {
      const [a, b] = Array.from(down.values());
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
    }
  });
  frame.addEventListener('pointermove', (e) => {
    if (!down.has(e.pointerId)) return;
    const before = down.get(e.pointerId), now = local(e);
    down.set(e.pointerId, now);
    if (down.size === 1) {
      const dx = now[0] - before[0], dy = now[1] - before[1];
      travelled += Math.abs(dx) + Math.abs(dy);
      if (travelled > 8) {
        if (!frame.hasPointerCapture(e.pointerId)) frame.setPointerCapture(e.pointerId);
        mem.x += dx; mem.y += dy; mem.moved = true; again();
      }
    } else if (down.size === 2 && pinch) {
      const [a, b] = Array.from(down.values());
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (pinch.d > 0) zoom(d / pinch.d, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      pinch.d = d; travelled = 99; again();
    }
  });
  const up = (e) => {
    if (!down.has(e.pointerId)) return;
    down.delete(e.pointerId);
    if (down.size < 2) pinch = null;
    if (down.size === 0 && travelled <= 8 && e.type === 'pointerup') {
      const cell = e.target.closest && e.target.closest('[role="button"]');
      if (cell && frame.contains(cell)) cell.dispatchEvent(new CustomEvent('activate'));
    }
  };
  frame.addEventListener('pointerup', up);
  frame.addEventListener('pointercancel', up);
  frame.addEventListener('wheel', (e) => {
    e.preventDefault();
    const [x, y] = local(e);
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, x, y);
    again();
  }, { passive: false });
  frame.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const cell = e.target.closest && e.target.closest('[role="button"]');
    if (!cell) return;
    e.preventDefault();
    cell.dispatchEvent(new CustomEvent('activate'));
  });
}

function hands(t, id, view, mem, pickable, pick, mini) {
  const piece = (colour, entry) => {
    const name = entry.next;
    const live = !!name && pickable(name);
    const cls = 'hive-hand-piece ' + colour + (entry.left ? '' : ' gone') + (name && mem.picked === name ? ' picked' : '');
    const testid = id + '-hand-' + colour + '-' + entry.kind;
    const words = t('hive.in_hand', { insect: t('hive.insects.' + entry.kind), n: entry.left });
    // What is read aloud is the visible text and, after it, what the glyph shows.
    const inside = (hidden) => [icon(entry.kind, colour), html`<span class="k">${t('hive.insect.' + entry.kind)}</span> <span
      class="n">${'\u00d7' + entry.left}</span><span class="sr-only">${' — ' + words + ', ' + hidden}</span>`];
    return live
      ? html`<button type="button" class=${cls} data-testid=${testid} aria-pressed=${String(mem.picked === name)}
          @click=${() => pick(name)}>${inside(t('hive.pick', { piece: pieceName(t, name) }))}</button>`
      : html`<span class=${cls} data-testid=${testid}>${inside(t('colour.' + colour))}</span>`;
  };
  const head = (colour) => (mini
    ? html`<p class="hive-hand-head">${t('hive.hand_of', { side: side(t, view, colour) })}</p>`
    : html`<h2 class="hive-hand-head">${t('hive.hand_of', { side: side(t, view, colour) })}</h2>`);
  // A player's own hand first: the one they play from.
  const order = mem.o.mine === 'black' ? ['black', 'white'] : COLOURS;
  return html`<div class="hive-hands">${order.map((colour) => html`<section
    class=${'hive-hand ' + colour + (view.to_move === colour ? ' to-move' : '')} data-testid=${id + '-hand-' + colour}
    >${head(colour)}<ul>${(view.hands[colour] || []).map((entry) => html`<li>${piece(colour, entry)}</li>`)}</ul></section>`)}</div>`;
}

function moveList(t, id, view) {
  const head = html`<h2 class="hive-moves-head" id=${id + '-moves-title'}>${t('hive.moves_title', { n: view.moves.length })}</h2>`;
  if (!view.moves.length) return html`<section class="hive-moves-box">${head}<p class="muted">${t('hive.no_moves')}</p></section>`;
  return html`<section class="hive-moves-box">${head}<ol class="hive-moves" data-testid=${id + '-moves'}
    aria-labelledby=${id + '-moves-title'}>${view.moves.map((m, i) => html`<li class=${i === view.moves.length - 1 ? 'last' : nothing}
    >${(i % 2 === 0 ? t('colour.white') : t('colour.black')) + ': ' + m}</li>`)}</ol></section>`;
}
