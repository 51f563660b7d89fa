/* La colmena: the projector of one table (the public view). screen.js draws it (the page's data names the screen), cards.js the cards and the board. */
export { start } from './screen.js';
