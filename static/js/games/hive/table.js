/* Hive: the pair's shared tablet. screen.js draws it (the page's data names the screen), board.js the board. */
import { start } from './screen.js';

start();
