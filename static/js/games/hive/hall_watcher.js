/* hall_watcher.js: a Hive tournament's hall on the projector: pairings, standings and the
 * boards the teacher picked, live, each drawn by board.js. halls.js holds what the
 * teacher's view shares. */
import { html, render as draw } from '/static/js/lib/dom.js';
import { W } from '/static/js/lib/words.js';
import * as board from './board.js';
import { COLOURS, nameOf, boardState, roundLine, standings, byeLine, boardTitle, hallScreen } from './halls.js';

const { t, num } = W;

/* The whole screen, la partida's projector's dark theme: the current round's picked boards
 * in a grid that takes the free room, beside them the standings (what the back row reads
 * first) and the round's other boards in one line each. A board is drawn once: as a tile
 * when picked, else as a line, so the list never repeats what the tiles say. A class too
 * large for its standings to stand beside the boards at the back row's size (sixteen at
 * 720 lines under the door) gets the band layout: the boards in one row on top, the
 * standings under them in two tables side by side, the other boards' lines beside those.
 * With no board picked the standings stand beside the lines, or (a class too large for
 * that) over them in two tables, the lines in two columns under them; before the
 * tournament's first result there are no standings: the lines take the screen. */
function watcher(box, page, conn) {
  document.body.classList.add('hive-projector');
  box.classList.add('hive-screen', 'role-hall-watcher');
  const hosts = {};              // each shown board's article, by key: its board kept between views
  let last = null;               // the latest view, drawn again when the layout changes
  let band = false;              // the band layout (see above)
  const sideName = (p, c) => html`<span class="hive-side">${board.icon('Q', c)} <span class="hh-name">${nameOf(p[c])}</span></span>`;
  function paint(view) {
    last = view;
    // Only this round's boards: a key kept from an earlier round is not drawn.
    const keys = view.shown.filter((k) => view.boards && view.boards[k] && view.pairings.some((p) => p.key === k));
    const others = view.pairings.filter((p) => keys.indexOf(p.key) < 0);
    // The band's lines beside the standings name each board by its number alone: who
    // plays there is on the standings, the tiles and the players' phones, and the room
    // reads a short line from the back where a long one would be small type.
    const short = band && keys.length > 0;
    const list = html`<section aria-labelledby="hh-pairings" data-testid="hall-pairings" class="hh-others" ?hidden=${!others.length && !view.bye}>
        <h2 id="hh-pairings">${keys.length ? t('hive.hall.pairings') + ' (' + num(others.length) + ')' : t('hive.hall.pairings')}</h2>
        <ul class="hive-hall-list">${others.map((p) => html`<li data-testid=${'hall-pairing-' + p.key}>${short
          ? html`<strong><span aria-hidden="true">${t('hive.hall.col.board') + ' ' + num(p.place)}</span><span class="sr-only">${boardTitle(p)}</span></strong>`
          : html`<strong>${boardTitle(p)}</strong>`}
          — <span data-testid=${'hall-state-' + p.key}>${boardState(p)}</span></li>`)}</ul>${byeLine(view)}</section>`;
    // Nothing to rank before the tournament's first result (round 1 coming in): the
    // pairings take the screen, not a table of noughts.
    const ranked = view.round > 1 || view.pairings.some((p) => p.over);
    const rest = ranked ? html`<div class="hive-hall hive-hall-rest">${standings(view, true, band ? 2 : 1)}</div>` : '';
    // With no tile, the band is the standings over the lines (in two columns).
    const layout = band ? (keys.length ? 'band' : 'stack') : 'side';
    draw(html`<div class="hive-hall hh-top">${roundLine(view)}</div>
      <div class="hh-main" data-boards=${keys.length} data-layout=${layout}>${layout === 'stack' ? '' : html`<div class="hive-hall hh-left">
      <div class="hive-minis" data-testid="hall-boards" ?hidden=${!keys.length}></div>${band ? '' : list}</div>`}
      ${band ? html`<div class="hive-hall hh-band">${rest}${list}</div>` : rest}</div>`, box);
    const area = box.querySelector('.hive-minis');
    for (const k of Object.keys(hosts)) if (keys.indexOf(k) < 0) { hosts[k].remove(); delete hosts[k]; }
    for (const k of keys) {
      const p = view.pairings.find((x) => x.key === k);
      if (!hosts[k]) {
        hosts[k] = document.createElement('article');
        hosts[k].className = 'hive-mini';
        hosts[k].setAttribute('data-testid', 'hall-live-' + k);
      }
      hosts[k].classList.toggle('over', !!p.over);
      area.appendChild(hosts[k]);
      draw(html`<h2 class="hive-mini-title" data-testid=${'hall-pairing-' + k}><span
        class="sr-only">${boardTitle(p)}</span><span class="hh-sides" aria-hidden="true">${COLOURS.map((c) => sideName(p, c))}</span></h2>
        <p class="hive-mini-state"><strong>${t('hive.hall.col.board')} ${num(p.place)}</strong> · <span
          data-testid=${'hall-state-' + k}>${boardState(p)}</span></p>
        <div class="hive-mini-board"></div>`, hosts[k]);
      board.render(hosts[k].querySelector('.hive-mini-board'), view.boards[k], { t: t, mini: true, id: 'hall-' + k.replace('.', '-') });
    }
  }
  /* Type at the back row's size or larger where the room allows, smaller only as far as the
   * screen's share needs: the standings (--fit: 4vh times it, from half as large again
   * down to FLOOR, 28 px at 720 lines; under it the band layout is tried), then the
   * tiles' words and the other boards' lines (--fit-list, set on .hh-main) until each
   * board keeps a third of its tile and nothing is cut, then the lines alone grown back
   * as far as their room allows (--fit-lines); hiveprojector.css never goes
   * under 12 px. The standings grow only while the boards keep half the width (beside
   * them) or a quarter of the height (over them). */
  const FLOOR = 0.98, MOST = 1.5;
  const over = (el) => !!el && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
  const squeezed = (main) => Array.from(main.querySelectorAll('.hive-mini')).some((tile) => {
    const b = tile.querySelector('.hive-mini-board');
    return b.clientHeight * b.clientWidth < tile.clientHeight * tile.clientWidth / 3;
  });
  const cramped = (main) => {
    const left = main.querySelector('.hh-left');
    if (!left) return true;                      // the stack: the lines get what the standings spare
    return band ? left.clientHeight < innerHeight / 4 : left.clientWidth < main.clientWidth / 2;
  };
  const spills = (main) => over(document.scrollingElement) || over(main)
    || Array.from(main.querySelectorAll('.hive-hall-rest, .hh-others, .hh-left, .hive-mini-title, .hive-mini-state')).some(over);
  function shrink(main, name, from, to, bad) {
    let fit = from;
    main.style.setProperty(name, fit.toFixed(2));
    while (fit > to && bad()) {
      fit -= 0.04;
      main.style.setProperty(name, fit.toFixed(2));
    }
    return fit;
  }
  function fitSide() {
    if (!last) return;
    for (const layout of [false, true]) {
      if (band !== layout) { band = layout; paint(last); }
      const main = box.querySelector('.hh-main');
      const rest = box.querySelector('.hive-hall-rest');
      const page = document.scrollingElement;
      const wide = () => over(rest) || over(page) || over(main);
      main.style.setProperty('--fit-list', '0.3');     // the standings first, the words the least
      shrink(main, '--fit', MOST, FLOOR, () => wide() || cramped(main));
      if (layout || !wide()) {
        if (wide()) shrink(main, '--fit', FLOOR, 0.3, wide);     // smaller type rather than cut
        main.style.removeProperty('--fit-lines');
        const list = shrink(main, '--fit-list', 1, 0.3, () => spills(main) || squeezed(main));
        // The other boards' lines as large again as their own room allows (--fit-lines):
        // a tile's long result need not make them small.
        if (list < 1) shrink(main, '--fit-lines', 1, list, () => spills(main) || squeezed(main));
        // Under the back row's size: the standings, or the lines when they are the screen
        // (no tile). The door's QR code grows only while nothing is (lib/door.js).
        const fit = parseFloat(main.style.getPropertyValue('--fit'));
        box.toggleAttribute('data-below-floor', (!!rest && fit < FLOOR - 0.001)
          || (!main.querySelector('.hive-mini') && list < FLOOR - 0.001));
        return;
      }
    }
  }
  new ResizeObserver(fitSide).observe(box);
  const socket = conn.connect({ role: 'hall_watcher', watch: page.watch }, () => {});
  socket.on('hall', (message) => {
    if (message && message.view) { paint(message.view); fitSide(); }
    window.dispatchEvent(new CustomEvent('hall-message', { detail: message }));   // lib/door.js
  });
}

/** Draw the hall's projector and keep it live. */
export function start() {
  hallScreen(true, watcher);
}
