/* watcher.js: Hive on the projector of one game: la partida's projector's dark theme and
 * the whole screen (hiveprojector.css), whose turn told to the room. screen.js draws what
 * every screen of the game shares, board.js the board. */
import { W } from '/static/js/lib/words.js';
import { screen, styles } from './screen.js';

/** Draw the projector and keep it live. */
export function start() {
  const { t } = W;
  styles(true);
  document.body.classList.add('hive-projector');
  screen('projector', () => ({
    turn: (n) => t('hive.turn.watch', n),
    auth: (page) => ({ role: 'projector', watch: page.watch }),
    // Nobody plays on the projector: a few pieces grow to fill the board's room (a tile
    // up to a third of its height), a long game shrinks to be seen whole, its pieces'
    // names (15 px) never under 12 px.
    limits: { least: 0.8, tile: 0.33 },
  }));
}
