/* seat.js: Hive on White's or Black's phone: its own colour's moves, its requests and
 * offers told as its own. screen.js draws what every screen of the game shares, board.js
 * the board. */
import { W } from '/static/js/lib/words.js';
import { screen, colourOfSeat } from './screen.js';

/** Draw this colour's phone and keep it live. */
export function start() {
  const { t } = W;
  screen('team', (c) => {
    const mine = colourOfSeat(c.page.team);
    return {
      seat: c.page.team,
      turn: (n, view) => (view.to_move === mine ? t('hive.turn.mine', n) : t('hive.turn.wait', n)),
      auth: (page) => ({ role: 'team', token: page.token }),
    };
  });
}
