/* seating.js: the teacher's part of a game whose seats are personal (docs/protocol.md,
 * "Seats and devices"): who holds each seat (even a phone that went offline), the
 * requests of a second device («Camila pide seguir en otro teléfono») with Aceptar and
 * Rechazar, and the table's screens the teacher admitted, each with «Quitar». It draws
 * what the state's `seating` holds; it knows no game. */
import { html, nothing } from './dom.js';
import { fetchJSON } from './http.js';

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
  const short = (id) => html`<code title=${id}>${id.slice(0, 6)}</code>`;
  const holders = Object.entries(seating.holders || {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  return html`<section class="seating" data-testid="seating" aria-labelledby="seating-h">
    <h2 id="seating-h">${t('seating.title')}</h2>
    ${seating.asks.length ? html`<ul class="seating-asks" data-testid="seating-asks">${seating.asks.map((ask) => html`
      <li class="seating-ask" data-testid=${'seating-ask-' + ask.seat}><span role="status">${t('seating.asks', { name: ask.name })}</span>
        <button type="button" class="good" data-testid=${'seating-accept-' + ask.seat} @click=${() => answer(ask, true)}>${t('seating.accept')}</button>
        <button type="button" class="bad" data-testid=${'seating-refuse-' + ask.seat} @click=${() => answer(ask, false)}>${t('seating.refuse')}</button></li>`)}</ul>` : nothing}
    <ul class="seating-holders">${holders.length ? holders.map(([seat, device]) => html`
      <li data-testid=${'seating-holder-' + seat}>${nameOf(Number(seat))}: ${short(device)}
        <span class="muted">${online.has(device) ? t('seating.online') : t('seating.offline')}</span>
        <button type="button" class="bad small" data-testid=${'seating-remove-' + device} @click=${() => remove(device)}>${t('seating.remove')}</button></li>`)
      : html`<li class="muted">${t('seating.nobody')}</li>`}</ul>
    <p class="seating-screens-h">${t('seating.screens')}</p>
    <ul class="seating-screens">${(seating.screens || []).length ? seating.screens.map((device) => html`
      <li data-testid=${'seating-screen-' + device}>${short(device)}
        <button type="button" class="bad small" data-testid=${'seating-remove-' + device} @click=${() => remove(device)}>${t('seating.remove')}</button></li>`)
      : html`<li class="muted">${t('seating.no_screens')}</li>`}</ul>
  </section>`;
}
