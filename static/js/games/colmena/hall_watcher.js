/* La colmena's hall on the projector, an ES module composing lib/: each table's points so
 * far and, once it has finished, its result in words (the engine's message in the page's
 * language); before a table starts, who sits at it (as the class allows names). It draws
 * the hall rules' view for the room (no hand) and
 * sends nothing but `sync`. The tiles share the screen: the more tables, the smaller each
 * one's type. */
import { html, render as draw, $ } from '/static/js/lib/dom.js';
import { W, readJSON } from '/static/js/lib/words.js';
import { connection } from '/static/js/lib/connection.js';
import { offlineBanner } from '/static/js/lib/widgets.js';
import { said, grid } from './room.js';

const { t, num } = W;
const box = $('screen');
const conn = connection({ noAnswer: t('live.no_answer') });
offlineBanner(conn);
document.body.classList.add('ch-projector');

function tile(table) {
  const key = table.key;
  // A table not played yet has no score to show (not the −12 of an empty board); rung off
  // unplayed, it says so.
  const unplayed = table.played === false;
  const words = table.over && unplayed ? { head: t('colmenahall.room.unplayed'), rest: '' }
    : said(table.over ? table.message : null, W.lang);
  return html`<article class=${'ch-tile' + (table.over ? ' over ' + (unplayed ? 'unplayed' : 'tier-' + table.tier) : table.players ? ' seated' : '')}
    data-testid=${'room-table-' + key} aria-labelledby=${'room-title-' + key}><div class="ch-tile-in">
    <h2 id=${'room-title-' + key}>${t('colmenahall.room.table', { n: num(table.place) })}${
      table.solo ? html`<span class="ch-solo">${' · ' + t('colmenahall.room.solo')}</span>` : ''}</h2>
    <p class="ch-big"><span class="ch-num" data-testid=${'room-score-' + key}>${unplayed ? '—' : num(table.total)}</span>
      ${unplayed ? '' : html`<span class="ch-unit">${table.over ? t('colmenahall.room.points') : t('colmenahall.room.so_far')}</span>`}</p>
    ${table.players ? html`<p class="ch-seated" data-testid=${'room-seated-' + key}>${table.players.join(' · ')}</p>` : ''}
    ${table.over
      ? html`<p class="ch-said" data-testid=${'room-tier-' + key}><strong class="ch-head">${words.head}</strong>${
        words.rest ? html`<span class="ch-rest">${' ' + words.rest}</span>` : ''}</p>`
      : html`<p class="ch-state" data-testid=${'room-state-' + key}>${table.players
        ? t('colmenahall.room.waiting')
        : t('colmenahall.room.playing') + ' · ' + t('colmenahall.room.deck', { n: num(table.deck) })}</p>`}</div></article>`;
}

/** When a tile's words do not fit it (a table's four long names), every tile's number
 *  and names get smaller type together, step by step, until they do: never cut, and the
 *  tiles alike. */
function fitTiles() {
  const room = box.querySelector('.ch-room');
  if (!room) return;
  const tiles = Array.from(room.querySelectorAll('.ch-tile-in'));
  const over = () => tiles.some((inner) => inner.scrollHeight > inner.clientHeight + 1);
  room.style.removeProperty('--fit');
  for (let fit = 0.9; over() && fit > 0.35; fit -= 0.1) room.style.setProperty('--fit', fit.toFixed(1));
}

function paint(message) {
  const view = message.view;
  const shape = grid(view.tables.length);
  draw(html`<p class="ch-room-head" data-testid="room-heading">${view.over ? t('colmenahall.room.all_over') : t('colmenahall.room.heading')}</p>
    <div class="ch-room" data-testid="room-tables" style=${'--cols: ' + shape.cols + '; --rows: ' + shape.rows}>${view.tables.map(tile)}</div>`, box);
  fitTiles();
}
addEventListener('resize', fitTiles);

const socket = conn.connect({ role: 'hall_watcher', watch: readJSON('page', {}).watch }, () => {});
socket.on('hall', (message) => {
  if (message && message.view) paint(message);
  window.dispatchEvent(new CustomEvent('hall-message', { detail: message }));   // lib/door.js
});
