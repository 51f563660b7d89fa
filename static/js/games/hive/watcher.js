/* Hive: the projector of one game. screen.js draws it (the page's data names the screen), board.js the board. */
import { start } from './screen.js';

start();
