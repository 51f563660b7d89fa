/* seat.js: la colmena on a player's phone: its own hand, the two drawn to keep one, play,
 * discard or place with the legal cells lit, on a board to zoom and scroll. screen.js
 * draws what every screen of the table shares, cards.js the cards and the board. */
import { html, nothing } from '/static/js/lib/dom.js';
import { W } from '/static/js/lib/words.js';
import { screen } from './screen.js';

/** Draw this player's phone and keep it live. */
export function start() {
  const { t, num } = W;
  screen('team', (c) => {
    const me = c.page.team;
    return {
      me,
      acting: () => me,
      zoom: true,
      least: 48,
      auth: (page) => ({ role: 'team', token: page.token }),
      // The board first, under the step, so that a turn is played on the first screen: the
      // two drawn, the card to place and the hand right below it, then the step's other
      // actions.
      layout: (view) => html`${c.header(view)}${c.result(view)}${c.boardPart(view)}${c.choosing(view)}${c.forced(view)}
      <section class="cc-mine" aria-labelledby="cc-hand-h"><h2 id="cc-hand-h">${t('colmena.my_hand', { n: num((view.hand || []).length) })}</h2>${c.handList(view, me, 'colmena-hand')}</section>
      ${c.turnControls(view)}${c.players(view)}${c.discardPart(view)}${view.over ? c.breakdown(view) : nothing}`,
    };
  });
}
