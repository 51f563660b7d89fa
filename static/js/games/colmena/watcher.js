/* watcher.js: la colmena on the projector of one table (the public view). screen.js
 * draws what every screen of the table shares, cards.js the cards and the board. */
import { html } from '/static/js/lib/dom.js';
import { screen } from './screen.js';

/** Draw the projector and keep it live. */
export function start() {
  screen('projector', (c) => ({
    openCompleted: false,
    auth: (page) => ({ role: 'projector', watch: page.watch }),
    // The board takes the whole height and all the width but a narrow strip beside it,
    // where the step, the score and the result go.
    layout: (view) => html`<div class="cc-public">
      ${c.boardPart(view)}
      <div class="cc-side">${c.header(view, true)}${c.result(view)}${c.breakdown(view)}${c.question(view)}${c.forced(view)}${c.players(view)}${c.discardPart(view)}</div></div>`,
  }));
}
