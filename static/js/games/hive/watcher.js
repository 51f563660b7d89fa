/* Hive: the projector of one game. screen.js draws it (the page's data names the screen), board.js the board. */
export { start } from './screen.js';
