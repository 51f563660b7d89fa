/* table.js: la colmena on the table's shared tablet: the board whole, the discard pile,
 * the deck, whose turn and step, the score so far and the result; it names who starts
 * and applies the talking penalty. screen.js draws what every screen of the table
 * shares, cards.js the cards and the board. */
import { html } from '/static/js/lib/dom.js';
import { screen } from './screen.js';

/** Draw the table's tablet and keep it live. */
export function start() {
  screen('table', (c) => ({
    starter: true,
    auth: (page) => ({ role: 'table', token: page.token }),
    // The board first, whole; then the rest.
    layout: (view) => html`<div class="cc-public">
      <div class="cc-top">${c.header(view)}${c.result(view)}${c.tableControls(view)}</div>
      ${c.boardPart(view)}
      <div class="cc-side">${c.forced(view)}${c.players(view)}${c.discardPart(view)}${c.breakdown(view)}</div></div>`,
  }));
}
