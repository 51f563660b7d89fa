/* La colmena: the table's shared tablet (its board). screen.js draws it (the page's data names the screen), cards.js the cards and the board. */
export { start } from './screen.js';
