/* The toy counter's seat screen (tests/counter_game.py), an ES module composing the shared
 * lib/: draws the view the server sends and offers the actions its legal list holds;
 * knows nothing else. */
import { html, render, $ } from '/static/js/lib/dom.js';
import { readJSON } from '/static/js/lib/words.js';
import { connection, legal } from '/static/js/lib/connection.js';
import { flash, offlineBanner } from '/static/js/lib/widgets.js';

/** Draw the seat's screen and keep it live (the page calls it through lib/start.js, as every game's). */
export function start() {
  const page = readJSON('page', {});
  const conn = connection();
  offlineBanner(conn);
  const add = (n) => conn.act({ do: 'add', n: n }).then((ack) => { if (ack && ack.ok === false) flash(ack); });
  conn.connect({ role: 'team', token: page.token }, (state) => {
    const v = state.view;
    const can = legal(state, 'add');
    render(html`<p data-testid="count">${v.count}</p>
    <p data-testid="turn">${v.over ? 'Ganó: ' + v.winner : 'Turno del jugador ' + v.turn}</p>
    ${can ? html`<div>${can.options.n.map((n) => html`<button type="button" data-testid=${'add-' + n}
      @click=${() => add(n)}>${'+' + n}</button>`)}</div>` : html`<p data-testid="wait">Esperen.</p>`}`, $('screen'));
  });
}
