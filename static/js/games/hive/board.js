/* board.js: a Hive board drawn from the view the server sends (window.HiveBoard).
 *
 * HiveBoard.render(container, view, options) draws into `container` (again on every
 * view: the pan, the zoom and the piece picked are kept on the container) an SVG hex
 * board with pan and zoom (drag, pinch, wheel, the − + and fit buttons), every stack
 * with its insect drawn and named (colour written, not shown by colour alone), both
 * hands, the last move marked and the move list as text. A screen that may move (its
 * view has `destinations`) picks a piece by a tap, a click or Enter, sees the cells the
 * engine lists for it lit, and plays one by a tap on it: `options.onPlay(move)`. A
 * piece the engine lists as stuck calls `options.onExplain(why)` instead. Nothing here
 * knows a rule: every destination and every reason comes from the view.
 *
 * options: {t (the catalog), onPlay, onExplain, id (a prefix of test ids, default
 * 'hive'), mini (a small board of the hall's projector: no buttons, no list)}.
 */
(function () {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';
  const R = 32;                          // a hex's radius in board units
  const W3 = Math.sqrt(3);
  const MIN_TARGET = 46;                 // the smallest hex on screen, in CSS pixels
  const KINDS = ['Q', 'S', 'B', 'G', 'A'];

  function s(tag, attrs, kids) {
    const el = document.createElementNS(SVG, tag);
    for (const k of Object.keys(attrs || {})) {
      if (attrs[k] != null && attrs[k] !== false) el.setAttribute(k, String(attrs[k]));
    }
    for (const kid of kids || []) if (kid) el.appendChild(kid);
    return el;
  }
  function text(tag, attrs, value) {
    const el = s(tag, attrs);
    el.textContent = value;
    return el;
  }
  const centre = (q, r) => [W3 * R * (q + r / 2), 1.5 * R * r];
  function hexPoints(radius) {
    const out = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 180 * (60 * i - 30);
      out.push((radius * Math.cos(a)).toFixed(2) + ',' + (radius * Math.sin(a)).toFixed(2));
    }
    return out.join(' ');
  }

  /* Each insect as a small drawing in a 24-unit box centred on 0, 0 (the kind's letter
   * is written beside it, so a glyph never has to be recognised to be read). */
  const GLYPHS = {
    Q: [['ellipse', { cx: -5, cy: -3, rx: 5, ry: 3, class: 'wing' }], ['ellipse', { cx: 5, cy: -3, rx: 5, ry: 3, class: 'wing' }],
      ['ellipse', { cx: 0, cy: 2, rx: 4.5, ry: 7 }], ['line', { x1: -4, y1: 1, x2: 4, y2: 1, class: 'cut' }],
      ['line', { x1: -4, y1: 4.5, x2: 4, y2: 4.5, class: 'cut' }], ['circle', { cx: 0, cy: -7, r: 2.5 }]],
    B: [['circle', { cx: 0, cy: -8, r: 2.5 }], ['ellipse', { cx: 0, cy: 1, rx: 7, ry: 8.5 }],
      ['line', { x1: 0, y1: -6, x2: 0, y2: 9, class: 'cut' }], ['path', { d: 'M-7 -2 L-11 -5 M7 -2 L11 -5 M-7 3 L-11 3 M7 3 L11 3 M-6 7 L-10 10 M6 7 L10 10', class: 'leg' }]],
    G: [['ellipse', { cx: 0, cy: 1, rx: 3, ry: 9 }], ['circle', { cx: 0, cy: -9, r: 2.3 }],
      ['path', { d: 'M-2 2 L-9 -4 L-8 10 M2 2 L9 -4 L8 10 M-2 -3 L-6 -6 M2 -3 L6 -6 M-1 -11 L-4 -14 M1 -11 L4 -14', class: 'leg' }]],
    S: [['circle', { cx: 0, cy: -3, r: 3.5 }], ['circle', { cx: 0, cy: 5, r: 5 }],
      ['path', { d: 'M-2 -4 L-9 -10 L-11 -6 M2 -4 L9 -10 L11 -6 M-3 -2 L-11 -3 M3 -2 L11 -3 M-3 0 L-10 4 L-11 8 M3 0 L10 4 L11 8 M-2 1 L-7 9 M2 1 L7 9', class: 'leg' }]],
    A: [['circle', { cx: 0, cy: -8, r: 2.5 }], ['circle', { cx: 0, cy: -2, r: 2.5 }], ['ellipse', { cx: 0, cy: 6, rx: 4, ry: 5 }],
      ['path', { d: 'M-1 -10 L-4 -13 M1 -10 L4 -13 M-2 -3 L-9 -7 M2 -3 L9 -7 M-2 -1 L-10 0 M2 -1 L10 0 M-2 0 L-8 6 M2 0 L8 6', class: 'leg' }]],
  };
  /** The drawing of insect `kind` (a group, `scale` times the 24-unit box). */
  function glyph(kind, scale) {
    const parts = (GLYPHS[kind] || GLYPHS.Q).map(([tag, attrs]) => s(tag, attrs));
    return s('g', { class: 'glyph', transform: 'scale(' + scale + ')', 'aria-hidden': 'true' }, parts);
  }
  /** A small stand-alone SVG of an insect (for the hands and the screens' texts). */
  function icon(kind, colour) {
    return s('svg', { class: 'hive-icon ' + colour, viewBox: '-14 -14 28 28', width: 28, height: 28,
      'aria-hidden': 'true', focusable: 'false' }, [glyph(kind, 1)]);
  }

  /** The words of a piece: "hormiga blanca (wA1)". */
  function pieceName(t, name) {
    const colour = name[0] === 'w' ? 'white' : 'black';
    return t('hive.piece', { insect: t('hive.insect.' + name[1]), colour: t('hive.of.' + colour + '.' + name[1]), name: name });
  }

  /** A side in words: "blancas (Ana)"; a side whose player has no name but the engine's
   *  default (the colour's English name) is the colour alone. */
  function side(t, view, colour) {
    const name = (view.players || {})[colour] || '';
    return name && name.toLowerCase() !== colour
      ? t('hive.side', { colour: t('colour.' + colour), name: name }) : t('colour.' + colour);
  }

  /** The state kept on a container between views: picked piece, pan and zoom. */
  function memory(container) {
    if (!container._hive) container._hive = { picked: null, scale: 1, x: 0, y: 0, moved: false, seq: -1 };
    return container._hive;
  }

  function bounds(view, lit) {
    const cells = (view.stacks.length ? view.stacks : [{ q: 0, r: 0 }]).concat(lit || []);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const c of cells) {
      const [x, y] = centre(c.q, c.r);
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
    // One ring more on every side (where a piece may be placed or go), and a hex's size.
    const pad = W3 * R + R + 4;
    return { x0: x0 - pad, y0: y0 - pad, x1: x1 + pad, y1: y1 + pad };
  }

  function fit(mem, view, lit, width, height, mini) {
    const b = bounds(view, lit);
    let scale = Math.min(width / (b.x1 - b.x0), height / (b.y1 - b.y0));
    const least = mini ? 0.2 : MIN_TARGET / (W3 * (R - 3));   // the drawn tile, not the cell
    scale = Math.max(least, Math.min(scale, mini ? 1.2 : 1.8));
    mem.scale = scale;
    mem.x = width / 2 - scale * (b.x0 + b.x1) / 2;
    mem.y = height / 2 - scale * (b.y0 + b.y1) / 2;
  }

  /** What the player to move may pick: piece name → its destinations, or its reason. */
  function picks(view) {
    return { to: view.destinations || null, stuck: view.stuck || {} };
  }

  function render(container, view, options) {
    const o = options || {};
    const t = o.t || ((k) => k);
    const id = o.id || 'hive';
    const mem = memory(container);
    if (view.seq !== mem.seq) { mem.picked = null; mem.seq = view.seq; }
    const can = picks(view);
    if (mem.picked && !(can.to && can.to[mem.picked])) mem.picked = null;
    const lit = mem.picked ? can.to[mem.picked] : [];
    const litAt = new Map(lit.map((d) => [d.q + ',' + d.r, d]));

    let box = container.querySelector('.hive-board');
    if (!box) {
      box = document.createElement('div');
      box.className = 'hive-board' + (o.mini ? ' mini' : '');
      container.replaceChildren(box);
    }
    const focused = document.activeElement && box.contains(document.activeElement)
      ? document.activeElement.getAttribute('data-testid') : null;

    const pick = (name) => {
      if (can.stuck[name]) { mem.picked = null; if (o.onExplain) o.onExplain(can.stuck[name], name); }
      else {
        mem.picked = mem.picked === name ? null : name;
        if (o.onExplain) o.onExplain(null, name);
      }
      render(container, view, o);
    };
    const play = (d) => { mem.picked = null; if (o.onPlay) o.onPlay(d.move); };
    const pickable = (name) => !!(can.to && (can.to[name] || can.stuck[name]));

    // ---- the board ------------------------------------------------------------------
    const below = new Map();              // q,r -> the pieces under the top one
    for (const p of view.pieces) {
      if (p.top) continue;
      const k = p.q + ',' + p.r;
      if (!below.has(k)) below.set(k, []);
      below.get(k).push(p.piece);
    }
    const last = view.last_move;
    const cells = [];
    if (last && last.from) {
      const [x, y] = centre(last.from.q, last.from.r);
      cells.push(s('polygon', { class: 'hive-from', points: hexPoints(R - 3), transform: 'translate(' + x + ',' + y + ')' }));
    }
    for (const st of view.stacks) {
      const key = st.q + ',' + st.r;
      const [x, y] = centre(st.q, st.r);
      const colour = st.top[0] === 'w' ? 'white' : 'black';
      const dest = litAt.get(key);
      const mine = pickable(st.top);
      const under = (below.get(key) || []).slice().reverse();
      const mark = st.top;               // written on the piece as the move list writes it
      let label = pieceName(t, st.top);
      if (under.length) label += ', ' + t('hive.on_top_of', { pieces: under.map((n) => pieceName(t, n)).join(', ') });
      if (last && last.to && last.to.q === st.q && last.to.r === st.r) label += ', ' + t('hive.last_move_mark');
      const g = s('g', {
        class: 'hive-stack ' + colour + (dest ? ' lit' : '') + (mem.picked === st.top ? ' picked' : '')
          + (last && last.to && last.to.q === st.q && last.to.r === st.r ? ' last' : '') + (mine || dest ? ' live' : ''),
        transform: 'translate(' + x.toFixed(2) + ',' + y.toFixed(2) + ')',
        'data-testid': id + '-cell-' + st.q + '_' + st.r, 'data-piece': st.top, 'data-height': st.height,
        role: dest || mine ? 'button' : 'img', tabindex: dest || mine ? 0 : null,
        'aria-label': dest ? t('hive.play_here', { move: dest.move, where: label }) : label,
        'aria-pressed': mine && !dest ? String(mem.picked === st.top) : null,
      }, [s('polygon', { points: hexPoints(R - 2), class: 'tile' }), glyph(st.top[1], 1.35),
        text('text', { class: 'letter', x: 0, y: R * 0.72, 'aria-hidden': 'true' }, mark),
        st.height > 1 ? s('g', { class: 'height', 'aria-hidden': 'true' }, [s('circle', { cx: R * 0.58, cy: -R * 0.5, r: 9 }),
          text('text', { x: R * 0.58, y: -R * 0.5 + 4 }, String(st.height))]) : null]);
      if (dest) g.addEventListener('activate', () => play(dest));
      else if (mine) g.addEventListener('activate', () => pick(st.top));
      cells.push(g);
    }
    for (const d of lit) {
      if (view.stacks.some((st) => st.q === d.q && st.r === d.r)) continue;
      const [x, y] = centre(d.q, d.r);
      const g = s('g', { class: 'hive-dest live', transform: 'translate(' + x.toFixed(2) + ',' + y.toFixed(2) + ')',
        'data-testid': id + '-cell-' + d.q + '_' + d.r, 'data-move': d.move, role: 'button', tabindex: 0,
        'aria-label': t('hive.play_here', { move: d.move, where: t('hive.empty_cell') }) },
      [s('polygon', { points: hexPoints(R - 3) }), s('circle', { r: 6 })]);
      g.addEventListener('activate', () => play(d));
      cells.push(g);
    }
    if (!view.stacks.length && !lit.length) {
      cells.push(text('text', { class: 'hive-empty', x: 0, y: 5 }, t('hive.board_empty')));
    }

    let svg = box.querySelector('svg.hive-svg');
    if (!svg) {
      svg = s('svg', { class: 'hive-svg', role: 'group', 'data-testid': id + '-board' });
      box.appendChild(svg);
      attachGestures(svg, mem, () => render(container, view0(container), o));
    }
    container._view = view;
    svg.setAttribute('aria-label', t('hive.board_label', { n: view.stacks.length }));
    const width = Math.max(svg.clientWidth, 100), height = Math.max(svg.clientHeight, 100);
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    mem.w = svg.clientWidth; mem.h = svg.clientHeight;
    if (!mem.moved) fit(mem, view, lit, width, height, o.mini);
    const layer = s('g', { class: 'layer', transform: 'translate(' + mem.x.toFixed(1) + ',' + mem.y.toFixed(1) + ') scale(' + mem.scale.toFixed(3) + ')' }, cells);
    svg.replaceChildren(layer);

    // ---- the buttons, the hands and the moves ----------------------------------------
    if (!o.mini) {
      box.querySelectorAll('.hive-zoom, .hive-hands, .hive-moves-box').forEach((el) => el.remove());
      box.insertBefore(zoomBar(t, id, mem, container, o, view), svg);
      box.appendChild(hands(t, id, view, mem, pickable, pick));
      box.appendChild(moveList(t, id, view));
    } else {
      box.querySelectorAll('.hive-hands').forEach((el) => el.remove());
      box.appendChild(hands(t, id, view, mem, () => false, pick, true));
    }
    if (focused) {
      const again = box.querySelector('[data-testid="' + focused + '"]');
      if (again) again.focus();
    }
    if (!container._observed && typeof ResizeObserver !== 'undefined') {
      container._observed = new ResizeObserver(() => {
        const v = view0(container);
        // Drawn again only when the frame's size changed since it was last drawn.
        if (v && svg.isConnected && (svg.clientWidth !== mem.w || svg.clientHeight !== mem.h)) render(container, v, o);
      });
      container._observed.observe(svg);
    }
  }
  const view0 = (container) => container._view;

  function zoomBar(t, id, mem, container, o, view) {
    const again = () => render(container, view, o);
    const zoom = (f) => {
      const svg = container.querySelector('svg.hive-svg');
      zoomAt(mem, f, svg.clientWidth / 2, svg.clientHeight / 2);
      again();
    };
    const button = (name, label, glyphText, fn) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'hive-zoom-b';
      b.setAttribute('data-testid', id + '-' + name);
      b.setAttribute('aria-label', label);
      b.title = label;
      b.textContent = glyphText;
      b.addEventListener('click', fn);
      return b;
    };
    const bar = document.createElement('div');
    bar.className = 'hive-zoom';
    bar.append(button('zoom-out', t('hive.zoom_out'), '\u2212', () => zoom(1 / 1.25)),
      button('zoom-in', t('hive.zoom_in'), '+', () => zoom(1.25)),
      button('fit', t('hive.fit'), t('hive.fit_short'), () => { mem.moved = false; again(); }));
    return bar;
  }

  function zoomAt(mem, factor, cx, cy) {
    const scale = Math.max(0.2, Math.min(mem.scale * factor, 4));
    const f = scale / mem.scale;
    mem.x = cx - f * (cx - mem.x);
    mem.y = cy - f * (cy - mem.y);
    mem.scale = scale;
    mem.moved = true;
  }

  /* Pan with one pointer, pinch with two, zoom with the wheel; a press that did not
   * move is a tap ("activate" on the cell under it), as is Enter or Space on a cell. */
  function attachGestures(svg, mem, again) {
    const down = new Map();
    let travelled = 0, pinch = null;
    const local = (e) => { const r = svg.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
    svg.addEventListener('pointerdown', (e) => {
      down.set(e.pointerId, local(e));
      if (down.size === 1) travelled = 0;
      if (down.size === 2) {
        const [a, b] = Array.from(down.values());
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
      }
    });
    svg.addEventListener('pointermove', (e) => {
      if (!down.has(e.pointerId)) return;
      const before = down.get(e.pointerId), now = local(e);
      down.set(e.pointerId, now);
      if (down.size === 1) {
        const dx = now[0] - before[0], dy = now[1] - before[1];
        travelled += Math.abs(dx) + Math.abs(dy);
        if (travelled > 8) {
          if (!svg.hasPointerCapture(e.pointerId)) svg.setPointerCapture(e.pointerId);
          mem.x += dx; mem.y += dy; mem.moved = true; again();
        }
      } else if (down.size === 2 && pinch) {
        const [a, b] = Array.from(down.values());
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (pinch.d > 0) zoomAt(mem, d / pinch.d, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        pinch.d = d; travelled = 99; again();
      }
    });
    const up = (e) => {
      if (!down.has(e.pointerId)) return;
      down.delete(e.pointerId);
      if (down.size < 2) pinch = null;
      if (down.size === 0 && travelled <= 8 && e.type === 'pointerup') {
        const cell = e.target.closest && e.target.closest('[role="button"]');
        if (cell && svg.contains(cell)) cell.dispatchEvent(new CustomEvent('activate'));
      }
    };
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', up);
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const [x, y] = local(e);
      zoomAt(mem, e.deltaY < 0 ? 1.15 : 1 / 1.15, x, y);
      again();
    }, { passive: false });
    svg.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      const cell = e.target.closest && e.target.closest('[role="button"]');
      if (!cell) return;
      e.preventDefault();
      cell.dispatchEvent(new CustomEvent('activate'));
    });
  }

  function hands(t, id, view, mem, pickable, pick, mini) {
    const out = document.createElement('div');
    out.className = 'hive-hands';
    for (const colour of ['white', 'black']) {
      const hand = document.createElement('section');
      hand.className = 'hive-hand ' + colour + (view.to_move === colour ? ' to-move' : '');
      hand.setAttribute('data-testid', id + '-hand-' + colour);
      const head = document.createElement(mini ? 'p' : 'h2');
      head.className = 'hive-hand-head';
      head.textContent = t('hive.hand_of', { side: side(t, view, colour) });
      hand.appendChild(head);
      const list = document.createElement('ul');
      for (const entry of view.hands[colour] || []) {
        const li = document.createElement('li');
        const name = entry.next;
        const live = !!name && pickable(name);
        const el = document.createElement(live ? 'button' : 'span');
        el.className = 'hive-hand-piece ' + colour + (entry.left ? '' : ' gone') + (name && mem.picked === name ? ' picked' : '');
        el.setAttribute('data-testid', id + '-hand-' + colour + '-' + entry.kind);
        const words = t('hive.in_hand', { insect: t('hive.insects.' + entry.kind), n: entry.left });
        // What is read aloud is the visible text and, after it, what the glyph shows.
        const hidden = document.createElement('span');
        hidden.className = 'sr-only';
        if (live) {
          el.type = 'button';
          el.setAttribute('aria-pressed', String(mem.picked === name));
          hidden.textContent = ' — ' + words + ', ' + t('hive.pick', { piece: pieceName(t, name) });
          el.addEventListener('click', () => pick(name));
        } else {
          hidden.textContent = ' — ' + words + ', ' + t('colour.' + colour);
        }
        const count = document.createElement('span');
        count.className = 'n';
        count.textContent = '\u00d7' + entry.left;
        const label = document.createElement('span');
        label.className = 'k';
        label.textContent = t('hive.insect.' + entry.kind);
        el.append(icon(entry.kind, colour), label, ' ', count, hidden);
        li.appendChild(el);
        list.appendChild(li);
      }
      hand.appendChild(list);
      out.appendChild(hand);
    }
    return out;
  }

  function moveList(t, id, view) {
    const box = document.createElement('section');
    box.className = 'hive-moves-box';
    const head = document.createElement('h2');
    head.className = 'hive-moves-head';
    head.id = id + '-moves-title';
    head.textContent = t('hive.moves_title', { n: view.moves.length });
    const list = document.createElement('ol');
    list.className = 'hive-moves';
    list.setAttribute('data-testid', id + '-moves');
    list.setAttribute('aria-labelledby', head.id);
    view.moves.forEach((m, i) => {
      const li = document.createElement('li');
      li.textContent = (i % 2 === 0 ? t('colour.white') : t('colour.black')) + ': ' + m;
      if (i === view.moves.length - 1) li.className = 'last';
      list.appendChild(li);
    });
    if (!view.moves.length) {
      const p = document.createElement('p');
      p.className = 'muted';
      p.textContent = t('hive.no_moves');
      box.append(head, p);
    } else box.append(head, list);
    return box;
  }

  window.HiveBoard = { render: render, icon: icon, pieceName: pieceName, side: side, kinds: KINDS };
}());
