/* La colmena's hall on the projector, an ES module composing lib/: once tables play, a
 * tile for each table that has laid its first task (its number, its points, its state or
 * its result, and its board drawn small, live); the tables not begun, and those rung off
 * unplayed, named in one line under them. Before any table plays, who sits at each (as
 * the class allows names). It draws the hall rules' view for the room (no hand) and sends
 * nothing but `sync`. The tiles share the screen: the more tables, the smaller each one. */
import { html, render as draw, $ } from '/static/js/lib/dom.js';
import { W, readJSON } from '/static/js/lib/words.js';
import { connection } from '/static/js/lib/connection.js';
import { offlineBanner } from '/static/js/lib/widgets.js';
import { iconSvg } from './cards.js';
import { said, grid } from './room.js';

/** Draw the hall's projector and keep it live. */
export function start() {
  const { t, num, plural } = W;
  const box = $('screen');
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  document.body.classList.add('ch-projector');

  const tableName = (table) => t('colmenahall.room.table', { n: num(table.place) });
  // A table plays once its first task is on its board; the view says so (`played`).
  const playing = (table) => table.played !== false && table.board > 0;

  /** A table's board drawn small: each card a cell, a team card its colour and icon, a task
   *  white (green with a tick once completed); the cards' names are the tablet's to show. */
  function miniBoard(table) {
    const cells = table.cells || [];
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const minX = Math.min(...xs);
    const minY = Math.min(...ys);
    const cols = Math.max(...xs) - minX + 1;
    const rows = Math.max(...ys) - minY + 1;
    const done = cells.filter((c) => c[2] === 'done').length;
    const label = plural('colmenahall.room.board', cells.length, { table: num(table.place), done: num(done) });
    return html`<div class="ch-board" role="img" aria-label=${label} data-testid=${'room-board-' + table.key}>
    <ol class="ch-mini" style=${'--cols:' + cols + ';--rows:' + rows} aria-hidden="true">${cells.map(([x, y, what]) => html`<li
      class=${'ch-cell ' + (what === 'task' || what === 'done' ? what : 'team t-' + what)}
      style=${'grid-column:' + (x - minX + 1) + ';grid-row:' + (y - minY + 1)}>${
          what === 'done' ? '✓' : what === 'task' ? '' : iconSvg(what)}</li>`)}</ol></div>`;
  }

  /** A table that plays or has played: its number and points on one line, its state or its
   *  result's headline, and its board. */
  function liveTile(table) {
    const key = table.key;
    const words = said(table.over ? table.message : null, W.lang);
    return html`<article class=${'ch-tile live' + (table.over ? ' over tier-' + table.tier : '')}
    data-testid=${'room-table-' + key} aria-labelledby=${'room-title-' + key}><div class="ch-tile-in">
    <div class="ch-top"><h2 id=${'room-title-' + key}>${tableName(table)}${
        table.solo ? html`<span class="ch-solo">${' · ' + t('colmenahall.room.solo')}</span>` : ''}</h2>
      <p class="ch-big"><span class="ch-num" data-testid=${'room-score-' + key}>${num(table.total)}</span>
        <span class="ch-unit">${table.over ? t('colmenahall.room.points') : t('colmenahall.room.so_far')}</span></p></div>
    ${table.over
        ? html`<p class="ch-said" data-testid=${'room-tier-' + key}><strong class="ch-head">${words.head}</strong>${
          words.rest ? html`<span class="ch-rest">${' ' + words.rest}</span>` : ''}</p>`
        : html`<p class="ch-state" data-testid=${'room-state-' + key}><span class="ch-playing">${t('colmenahall.room.playing') + ' · '}</span>${
          t('colmenahall.room.deck', { n: num(table.deck) })}</p>`}
    ${miniBoard(table)}</div></article>`;
  }

  /** Before any table plays: who sits at each table (as the class allows names). */
  function seatTile(table) {
    const key = table.key;
    const unplayed = table.over;
    return html`<article class=${'ch-tile seated' + (unplayed ? ' over unplayed' : '')}
    data-testid=${'room-table-' + key} aria-labelledby=${'room-title-' + key}><div class="ch-tile-in">
    <h2 id=${'room-title-' + key}>${tableName(table)}${
        table.solo ? html`<span class="ch-solo">${' · ' + t('colmenahall.room.solo')}</span>` : ''}</h2>
    ${table.players ? html`<ul class="ch-seated" data-testid=${'room-seated-' + key}>${table.players.map((name) => html`<li>${name}</li>`)}</ul>` : ''}
    ${unplayed
        ? html`<p class="ch-said" data-testid=${'room-tier-' + key}><strong class="ch-head">${t('colmenahall.room.unplayed')}</strong></p>`
        : table.players ? ''      // the heading says they sit there: the names get the room
          : html`<p class="ch-state" data-testid=${'room-state-' + key}>${t('colmenahall.room.to_start_one')}</p>`}
    </div></article>`;
  }

  /** The tables not shown as tiles, in one line: those not begun, those rung off unplayed. */
  function strip(tables) {
    const waiting = tables.filter((tb) => !tb.over).map(tableName);
    const unplayed = tables.filter((tb) => tb.over).map(tableName);
    if (!waiting.length && !unplayed.length) return '';
    return html`<p class="ch-strip" data-testid="room-others">${waiting.length
      ? html`<span data-testid="room-waiting">${t('colmenahall.room.to_start', { tables: waiting.join(' · ') })}</span>` : ''}${
      waiting.length && unplayed.length ? '  ·  ' : ''}${unplayed.length
      ? html`<span data-testid="room-unplayed">${t('colmenahall.room.not_played', { tables: unplayed.join(' · ') })}</span>` : ''}</p>`;
  }

  /** When a seating tile's names do not fit it (a table's four long names), every tile's
   *  names get smaller type together, step by step, until they do: never cut, the tiles
   *  alike. A board's tile too narrow for its number, its points and their unit on one line
   *  drops the unit and «En juego» (its state line says so), every tile alike. */
  function fitTiles() {
    const room = box.querySelector('.ch-room');
    if (!room) return;
    room.classList.remove('tight');
    const wide = (el) => el.scrollWidth > el.clientWidth + 1;
    if (Array.from(room.querySelectorAll('.ch-top, .ch-state')).some(wide)
        || Array.from(room.querySelectorAll('.ch-state')).some((el) => el.getClientRects().length > 1 || el.clientHeight > parseFloat(getComputedStyle(el).fontSize) * 1.6)) {
      room.classList.add('tight');
    }
    const tiles = Array.from(room.querySelectorAll('.ch-tile-in'));
    const over = () => tiles.some((inner) => inner.scrollHeight > inner.clientHeight + 1);
    room.style.removeProperty('--fit');
    for (let fit = 0.9; over() && fit > 0.35; fit -= 0.1) room.style.setProperty('--fit', fit.toFixed(1));
    // Names under the back row's size: the door's QR code grows only while none is (lib/door.js).
    box.toggleAttribute('data-below-floor', room.style.getPropertyValue('--fit') !== '');
  }

  function paint(message) {
    const view = message.view;
    const live = view.tables.filter(playing);
    const tiles = live.length ? live : view.tables;
    const shape = grid(tiles.length);
    draw(html`<p class="ch-room-head" data-testid="room-heading">${view.over ? t('colmenahall.room.all_over')
      : live.length ? t('colmenahall.room.heading') : t('colmenahall.room.seating')}</p>
    <div class=${'ch-room' + (live.length ? ' boards' : '')} data-testid="room-tables"
      style=${'--cols: ' + shape.cols + '; --rows: ' + shape.rows}>${live.length ? live.map(liveTile) : view.tables.map(seatTile)}</div>
    ${live.length ? strip(view.tables.filter((tb) => !playing(tb))) : ''}`, box);
    fitTiles();
    const room = box.querySelector('.ch-room');
    if (room && room !== watched && window.ResizeObserver) {
      // The room's share of the screen changes without the window's (the door's strip
      // comes and goes above it): its tiles are fitted again each time.
      if (!sizes) sizes = new ResizeObserver(() => fitTiles());
      if (watched) sizes.unobserve(watched);
      sizes.observe(room);
      watched = room;
    }
  }
  let sizes = null;                // the ResizeObserver of the room's size
  let watched = null;              // the room element it watches
  addEventListener('resize', fitTiles);

  const socket = conn.connect({ role: 'hall_watcher', watch: readJSON('page', {}).watch }, () => {});
  socket.on('hall', (message) => {
    if (message && message.view) paint(message);
    window.dispatchEvent(new CustomEvent('hall-message', { detail: message }));   // lib/door.js
  });
}
