/* Hive: the teacher's view of a class tournament. halls.js draws it, board.js the boards. */
export { start } from './halls.js';
