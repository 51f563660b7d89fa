/* Hive: White's or Black's phone. screen.js draws it (the page's data names the screen), board.js the board. */
export { start } from './screen.js';
