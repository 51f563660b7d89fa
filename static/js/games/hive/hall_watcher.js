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
 * when picked, else as a line, so the list never repeats what the tiles say. */
function watcher(box, page, conn) {
  document.body.classList.add('hive-projector');
  box.classList.add('hive-screen', 'role-hall-watcher');
  const hosts = {};              // each shown board's article, by key: its board kept between views
  const sideName = (p, c) => html`<span class="hive-side">${board.icon('Q', c)} <span class="hh-name">${nameOf(p[c])}</span></span>`;
  function paint(view) {
    // Only this round's boards: a key kept from an earlier round is not drawn.
    const keys = view.shown.filter((k) => view.boards && view.boards[k] && view.pairings.some((p) => p.key === k));
    const others = view.pairings.filter((p) => keys.indexOf(p.key) < 0);
    draw(html`<div class="hive-hall hh-top">${roundLine(view)}</div>
      <div class="hh-main" data-boards=${keys.length}><div class="hive-hall hh-left">
      <div class="hive-minis" data-testid="hall-boards" ?hidden=${!keys.length}></div>
        <section aria-labelledby="hh-pairings" data-testid="hall-pairings" class="hh-others" ?hidden=${!others.length && !view.bye}>
        <h2 id="hh-pairings">${keys.length ? t('hive.hall.pairings') + ' (' + num(others.length) + ')' : t('hive.hall.pairings')}</h2>
        <ul class="hive-hall-list">${others.map((p) => html`<li data-testid=${'hall-pairing-' + p.key}><strong>${boardTitle(p)}</strong>
          — <span data-testid=${'hall-state-' + p.key}>${boardState(p)}</span></li>`)}</ul>${byeLine(view)}</section></div>
      <div class="hive-hall hive-hall-rest">${standings(view, true)}</div></div>`, box);
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
  /* Type at the back row's size, smaller only as far as the screen's share needs (a large
   * class, the door's code over the hall): the standings (--fit), and the tiles' words and
   * the other boards' lines under them (--fit-list) until each board keeps a third of
   * its tile; hiveprojector.css never goes under 12 px. */
  const squeezed = (part) => Array.from(part.querySelectorAll('.hive-mini')).some((tile) =>
    tile.querySelector('.hive-mini-board').clientHeight < tile.clientHeight / 3);
  function fitSide() {
    for (const [sel, name] of [['.hive-hall-rest', '--fit'], ['.hh-left', '--fit-list']]) {
      const part = box.querySelector(sel);
      if (!part) continue;
      let fit = 1;
      part.style.setProperty(name, '1');
      while (fit > 0.3 && (part.scrollHeight > part.clientHeight + 1 || squeezed(part))) {
        fit -= 0.05;
        part.style.setProperty(name, fit.toFixed(2));
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
