/* hall_asks.js: on the teacher's hall view, the requests of a second device for a seat
 * («Camila pide seguir en otro teléfono · Mesa 2»), each with Aceptar and Rechazar
 * (docs/protocol.md, "Seats and devices"). Its own connection as the hall's teacher view;
 * knows no game (a game's name is the page's list of the hall's games). Styles:
 * static/css/seating.css. */
import { html, render, nothing } from './dom.js';
import { W, readJSON } from './words.js';
import { fetchJSON } from './http.js';

const { t } = W;
const page = readJSON('page', {});
const box = document.getElementById('hall-asks');
const names = new Map((page.games || []).map((game) => [game.key, game.name]));

function paint(asks) {
  const answer = (ask, accept) => fetchJSON('/console/' + ask.game + '/seats/' + ask.seat + '/answer',
    { device: ask.device, accept: accept }, t('live.no_answer'));
  render(asks.length ? html`<section class="card seating-asks" data-testid="hall-asks" aria-labelledby="hall-asks-h">
    <h2 id="hall-asks-h">${t('seating.asks_title')}</h2>
    <ul>${asks.map((ask) => html`<li data-testid=${'hall-ask-' + ask.key + '-' + ask.seat}>
      <span role="status">${t('seating.asks', { name: ask.name })} · ${names.get(ask.key) || ask.key}</span>
      <span class="seating-buttons"><button type="button" class="good" data-testid=${'hall-accept-' + ask.key + '-' + ask.seat} @click=${() => answer(ask, true)}>${t('seating.accept')}</button>
      <button type="button" class="bad" data-testid=${'hall-refuse-' + ask.key + '-' + ask.seat} @click=${() => answer(ask, false)}>${t('seating.refuse')}</button></span></li>`)}</ul>
  </section>` : nothing, box);
}

if (box && page.hall) {
  const socket = globalThis.io({ auth: { role: 'hall_gm', hall: page.hall }, transports: ['websocket', 'polling'] });
  socket.on('hall', (message) => paint((message && message.asks) || []));
}
