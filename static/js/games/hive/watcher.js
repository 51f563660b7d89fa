/* watcher.js: Hive on the projector of one game: la partida's projector's dark theme and
 * the whole screen (hiveprojector.css), whose turn told to the room. screen.js draws what
 * every screen of the game shares, board.js the board. */
import { W } from '/static/js/lib/words.js';
import { screen, styles } from './screen.js';

/** Draw the projector and keep it live. */
export function start() {
  const { t } = W;
  styles(true);
  document.body.classList.add('hive-projector');
  screen('projector', () => ({
    turn: (n) => t('hive.turn.watch', n),
    auth: (page) => ({ role: 'projector', watch: page.watch }),
    // Nobody plays on the projector: a few pieces grow to fill the board's room (a tile
    // up to a third of its height), a long game shrinks to be seen whole, its pieces'
    // names (15 px) never under 12 px.
    limits: { least: 0.8, tile: 0.33 },
    painted: wholeMoves,
  }));
}

let watched = null;
const sized = window.ResizeObserver ? new ResizeObserver(() => trim(watched)) : null;

/** The move list keeps its latest moves in sight and the earliest slide away above: one
 *  only partly in sight is hidden, never shown cut (again whenever the list's room changes). */
function wholeMoves(box) {
  const list = box && box.querySelector('.hive-moves');
  if (list && list !== watched && sized) {
    if (watched) sized.unobserve(watched);
    sized.observe(list);
    watched = list;
  }
  trim(list);
}

function trim(list) {
  if (!list) return;
  for (const item of list.children) item.style.visibility = '';
  const top = list.getBoundingClientRect().top;
  for (const item of list.children) {
    if (item.getBoundingClientRect().top < top - 0.5) item.style.visibility = 'hidden';
  }
}
