/* gm.js: la colmena on the teacher's console of one table: everything, acting for the
 * awaited seat, every hand, each seat's devices, undo and redo, the talking penalty, the
 * end at the bell, the seating panel (lib/seating.js, loaded here only) and the table's
 * codes. screen.js draws what every screen of the table shares, cards.js the cards and
 * the board.
 *
 * Test ids: colmena-undo, colmena-redo, colmena-end-game, colmena-hands-gm
 * (colmena-gm-hand-N, colmena-hand-of-N), colmena-deck-order, colmena-device-N-ID,
 * colmena-device-remove-ID, colmena-codes (colmena-code-N, colmena-join-code-N,
 * colmena-projector-link).
 */
import { html, nothing } from '/static/js/lib/dom.js';
import { W } from '/static/js/lib/words.js';
import { fetchJSON } from '/static/js/lib/connection.js';
import { screen } from './screen.js';

/** Draw the teacher's console of this table and keep it live. */
export function start() {
  const { t, num, plural } = W;
  screen('gm', (c) => {
    const { ui, legal, send, draw, playerName } = c;
    // The teacher's seating panel, loaded on the teacher's screen only: a phone carries none of it.
    let seatingPanel = () => nothing;
    import('/static/js/lib/seating.js').then((m) => { seatingPanel = m.seatingPanel; if (c.state) draw(); });

    /** A seat's devices, each with its "Quitar": a lost phone's seat is freed, and the next
     *  phone to join with the table's code takes its hand. */
    function devices(seat) {
      const ids = (c.state.device_ids || {})[String(seat)] || [];
      if (!ids.length) return nothing;
      return html`<div class="small cc-devices">${ids.map((id) => html`<span class="cc-device" data-testid=${'colmena-device-' + seat + '-' + id}><code title=${id}>${id.slice(0, 6)}</code>
      <button type="button" class="bad small" data-testid=${'colmena-device-remove-' + id} title=${t('colmena.gm.remove_device_hint')}
        @click=${() => { ui.confirm = { device: id, player: seat }; draw(); }}>${t('colmena.gm.remove_device')}</button></span>`)}</div>`;
    }

    /** Remove a device (the console's own request, not a game action). */
    function removeDevice(id) {
      ui.confirm = null;
      fetchJSON('/console/' + c.page.game + '/devices/remove', { device: id }, t('live.no_answer'))
        .then((ack) => { if (ack && ack.ok === false) c.explain(c.because(ack.error, ack.message)); draw(); });
    }

    /** Undo, redo and the end of the game (asked first). */
    function tools() {
      const out = [];
      if (legal('undo')) out.push(html`<button type="button" data-testid="colmena-undo" @click=${() => send({ do: 'undo' })}>${t('colmena.gm.undo')}</button>`);
      if (legal('redo')) out.push(html`<button type="button" data-testid="colmena-redo" @click=${() => send({ do: 'redo' })}>${t('colmena.gm.redo')}</button>`);
      if (legal('end_game')) out.push(html`<button type="button" class="bad" data-testid="colmena-end-game" @click=${() => { ui.confirm = { do: 'end_game' }; draw(); }}>${t('colmena.gm.end_game')}</button>`);
      return out;
    }

    function hands(view) {
      return html`<section class="cc-gm-hands" data-testid="colmena-hands-gm" aria-labelledby="cc-hands-h">
      <h2 id="cc-hands-h">${t('colmena.gm.hands')}</h2>
      ${view.players.map((p) => html`<div class="cc-gm-hand" data-testid=${'colmena-gm-hand-' + p.seat}>
        <h3>${p.name} <span class="muted">${plural('colmena.hand_size', p.hand)}</span></h3>${c.handList(view, p.seat, 'colmena-hand-of-' + p.seat)}</div>`)}
      <p class="muted" data-testid="colmena-deck-order">${t('colmena.gm.deck_next', { n: num(view.deck_order.length) })}</p>
    </section>`;
    }

    /* The table's codes (its tablet's and each player's, with their QR codes) and its
     * projector, fetched once. */
    let codes = null;
    function codesPart(view) {
      if (codes === null) {
        codes = { loading: true };
        fetchJSON('/api/games/' + c.page.game + '/codes', undefined, t('live.no_answer')).then((data) => {
          codes = data && data.teams ? data : { failed: true };
          draw();
        });
      }
      if (codes.loading) return html`<p class="muted">${t('colmena.gm.loading')}</p>`;
      if (codes.failed) return html`<p class="muted">${t('colmena.gm.no_codes')}</p>`;
      const label = (n) => (n === 0 ? t('colmena.gm.table_code') : n < 0 ? t('seatpick.screen_code') : playerName(view, n));
      return html`<section class="cc-codes" data-testid="colmena-codes" aria-labelledby="cc-codes-h">
      <h2 id="cc-codes-h">${t('colmena.gm.codes')}</h2>
      <div class="cc-code-grid">${codes.teams.map((k) => html`<figure class="cc-code" data-testid=${'colmena-code-' + k.team}>
        <img src=${'/qr/' + k.code + '.svg'} alt=${t('colmena.gm.qr_alt', { who: label(k.team) })} width="112" height="112" loading="lazy">
        <figcaption><strong>${label(k.team)}</strong><br><code class="code" data-testid=${'colmena-join-code-' + k.team}>${k.code}</code></figcaption></figure>`)}</div>
      <p><a href=${'/projector/' + codes.watch} target="_blank" rel="noopener" data-testid="colmena-projector-link">${t('colmena.gm.projector')}</a></p></section>`;
    }

    return {
      // The teacher plays the awaited seat's cards, from every hand the console's view holds.
      acting: (view) => view.awaiting.seat,
      handOf: (view, seat) => (view.hands && view.hands[String(seat)]) || [],
      playableOf: (view, seat) => (view.playable && view.playable[String(seat)]) || [],
      forSeat: (seat) => ({ player: seat }),
      starter: true,
      least: 48,
      playerExtra: (_c, seat) => devices(seat),
      tools: () => tools(),
      confirm: (_c, asked, view) => (asked.device ? {
        question: t('colmena.gm.remove_device_confirm', { id: asked.device.slice(0, 6), name: playerName(view, asked.player) }),
        yes: () => removeDevice(asked.device),
      } : null),
      auth: (page) => ({ role: 'gm', game: page.game }),
      layout: (view) => html`${c.header(view)}${c.result(view)}<div class="cc-gm">
      <div class="cc-gm-main">${c.choosing(view)}${c.forced(view)}${c.turnControls(view)}${c.boardPart(view)}</div>
      <div class="cc-gm-side">${c.tableControls(view)}${c.players(view)}${hands(view)}${c.discardPart(view)}${c.breakdown(view)}${seatingPanel(c.state, t, (n) => playerName(view, n), () => draw())}${codesPart(view)}</div></div>`,
    };
  });
}
