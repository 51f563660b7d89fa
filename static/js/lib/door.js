/* door.js: the lecture's door on a hall's projector: one code and its QR code for the
 * whole room, and, before play, who sits where (each table or board with its players).
 * Once every game of the round has started it folds into a strip, so the hall's own
 * screen takes the room. Its own connection as the hall's projector; knows no game. */
import { html, render, nothing } from './dom.js';
import { W, readJSON } from './words.js';

const { t } = W;
const door = readJSON('door-data', null);
const box = document.getElementById('door');

function paint(seating) {
  const waiting = seating.filter((table) => !table.started);
  const full = waiting.length > 0;
  document.body.classList.toggle('door-full', full);
  render(html`<div class=${'door ' + (full ? 'full' : 'strip')} data-testid="door">
    <figure class="door-code"><img src=${door.qr} alt=${t('door.enter')} data-testid="door-qr">
      <figcaption><span class="door-enter">${t('door.enter')}</span>
        <strong class="code" data-testid="door-code">${door.code}</strong>
        <span class="door-url">${t('door.or_open')} <span data-testid="door-url">${door.url}</span></span></figcaption></figure>
    ${full ? html`<section class="door-seating" aria-labelledby="door-seating-h">
      <h2 id="door-seating-h">${t('door.seating')}</h2>
      <ul data-testid="door-seating">${waiting.map((table) => html`<li data-testid=${'door-table-' + table.key}>
        <strong>${table.name}</strong>${table.players.length ? html`<span>${table.players.join(' · ')}</span>` : nothing}</li>`)}</ul>
    </section>` : nothing}</div>`, box);
}

if (door && box) {
  paint([]);
  const socket = globalThis.io({ auth: { role: 'hall_watcher', watch: door.watch }, transports: ['websocket', 'polling'] });
  socket.on('hall', (message) => paint((message && message.seating) || []));
}
