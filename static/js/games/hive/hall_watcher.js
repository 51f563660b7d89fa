/* Hive: a class tournament's projector. halls.js draws it, board.js the boards. */
import { start } from './halls.js';

start();
