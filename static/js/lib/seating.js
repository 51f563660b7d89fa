/* seating.js: the teacher's part of a game whose seats are personal (docs/protocol.md,
 * "Seats and devices"): who holds each seat (even a phone that went offline), the
 * requests of a second device («Camila pide seguir en otro teléfono») with Aceptar and
 * Rechazar beside the seat they ask for, and the table's screens the teacher admitted,
 * each with «Quitar». It draws what the state's `seating` holds; it knows no game. Its
 * styles are static/css/seating.css, added to the page when it loads. */
import { html, nothing } from './dom.js';
import { stylesheet } from './styles.js';
import { fetchJSON } from './http.js';

stylesheet('/static/css/seating.css');

/** The panel for `state` (the teacher's state of one game); `t` the page's words,
 *  `nameOf(seat)` a seat's name, `redraw()` after an answer. */
export function seatingPanel(state, t, nameOf, redraw) {
  const seating = state && state.seating;
  if (!seating) return nothing;
  const game = state.game;
  const online = new Set(Object.values(state.device_ids || {}).flat());
  const answer = (ask, accept) => fetchJSON('/console/' + game + '/seats/' + ask.seat + '/answer',
    { device: ask.device, accept: accept }, t('live.no_answer')).then(redraw);
  const remove = (device) => fetchJSON('/console/' + game + '/devices/remove', { device: device },
    t('live.no_answer')).then(redraw);
  const short = (id) => html`<code class="seating-device" title=${id}>${id.slice(0, 6)}</code>`;
  const holders = Object.entries(seating.holders || {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  const held = new Set(holders.map(([seat]) => Number(seat)));
  const ask = (a) => html`<div class="seating-ask" data-testid=${'seating-ask-' + a.seat}><span role="status">${t('seating.asks', { name: a.name })}</span>
    <span class="seating-buttons"><button type="button" class="good" data-testid=${'seating-accept-' + a.seat} @click=${() => answer(a, true)}>${t('seating.accept')}</button>
    <button type="button" class="bad" data-testid=${'seating-refuse-' + a.seat} @click=${() => answer(a, false)}>${t('seating.refuse')}</button></span></div>`;
  // A request for a seat nobody holds any more (its holder was removed meanwhile).
  const loose = seating.asks.filter((a) => !held.has(a.seat));
  return html`<section class="seating" data-testid="seating" aria-labelledby="seating-h">
    <h2 id="seating-h">${t('seating.title')}</h2>
    ${loose.length ? html`<ul class="seating-list" data-testid="seating-asks">${loose.map((a) => html`<li>${ask(a)}</li>`)}</ul>` : nothing}
    <ul class="seating-list">${holders.length ? holders.map(([seat, device]) => html`
      <li data-testid=${'seating-holder-' + seat}><span class="seating-who"><strong>${nameOf(Number(seat))}</strong>
        <span class=${'seating-state ' + (online.has(device) ? 'on' : 'off')}>${online.has(device) ? t('seating.online') : t('seating.offline')}</span>
        ${short(device)}</span>
        <button type="button" class="bad" data-testid=${'seating-remove-' + device} @click=${() => remove(device)}>${t('seating.remove')}</button>
        ${seating.asks.filter((a) => a.seat === Number(seat)).map(ask)}</li>`)
      : html`<li class="muted">${t('seating.nobody')}</li>`}</ul>
    <h3 class="seating-screens-h">${t('seating.screens')}</h3>
    <ul class="seating-list">${(seating.screens || []).length ? seating.screens.map((device) => html`
      <li data-testid=${'seating-screen-' + device}><span class="seating-who">${short(device)}</span>
        <button type="button" class="bad" data-testid=${'seating-remove-' + device} @click=${() => remove(device)}>${t('seating.remove')}</button></li>`)
      : html`<li class="muted">${t('seating.no_screens')}</li>`}</ul>
  </section>`;
}
