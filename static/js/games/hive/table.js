/* table.js: Hive on the pair's shared tablet: both colours' moves on one screen. screen.js
 * draws it, board.js the board. */
import { screen } from './screen.js';

/** Draw the pair's tablet and keep it live. */
export function start() {
  screen('table', () => ({ auth: (page) => ({ role: 'table', token: page.token }) }));
}
