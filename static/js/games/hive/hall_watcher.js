/* Hive: a class tournament's projector. halls.js draws it, board.js the boards. */
export { start } from './halls.js';
