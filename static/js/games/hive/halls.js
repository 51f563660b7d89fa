/* halls.js: what a Hive tournament's two hall screens share (an ES module composing lib/),
 * drawn from the hall rules' view in the `hall` messages (facilitator/games/hive/hall.py
 * says what it holds): the round's line, a board's state in words, the standings, the bye,
 * and how a screen joins the hall. hall.js is the teacher's view, hall_watcher.js the
 * projector's. No rule lives here: what may be done is the view's.
 */
import { html, nothing, $ } from '/static/js/lib/dom.js';
import { W, readJSON } from '/static/js/lib/words.js';
import { connection } from '/static/js/lib/connection.js';
import { offlineBanner } from '/static/js/lib/widgets.js';
import { styles, because as ruleLine } from './screen.js';

const { t, has, num, ordinal } = W;
export const COLOURS = ['white', 'black'];
export const because = (rule, message) => ruleLine(rule, message).text;
/** A side's or a standings row's name; «Jugador n» where the class keeps names off the projector. */
export const nameOf = (x) => (x.bot ? t('hivehall.bot')
  : x.name != null ? x.name : t('hivehall.player', { n: num(x.number) }));

/** A board's state in words: whose turn, or the result and its reason. */
export function boardState(p) {
  if (p.over) {
    const head = p.result === 'draw' ? t('hive.result.draw')
      : p.result ? t('hive.result.won', { side: t('colour.' + p.result) + ' (' + nameOf(p[p.result]) + ')' }) : '';
    const key = 'hive.reason.' + p.rule;
    const reason = p.reason === 'bell' ? t('hive.hall.bell_reason')
      : p.rule && has(key) ? t(key, { reason: p.reason }) : (p.reason || '');
    return head + (reason ? ' — ' + reason : '');
  }
  if (!p.moves) return t('hive.hall.not_begun');
  return t('hive.hall.to_move', { colour: t('colour.' + p.to_move), n: num(p.moves) });
}

export const roundLine = (view) => html`<p class="hive-hall-round" data-testid="hall-round">${
  t('hive.hall.round', { r: num(view.round), k: num(view.rounds_total) })} · ${t('hive.hall.system.' + view.system)}</p>`;

/** The standings table (`narrow`: the projector's column; `parts`: the projector's
 *  standings cut into that many tables side by side, a large class's). */
export function standings(view, narrow, parts = 1) {
  // The projector's keeps what the back row reads (place, name, points, the tie-break), in type large enough.
  const cols = narrow ? ['rank', 'name', 'points', 'buchholz'] : ['rank', 'name', 'points', 'wins', 'draws', 'losses', 'buchholz'];
  const cell = (row, c) => (c === 'rank' ? ordinal(row.rank) : c === 'name' ? nameOf(row) : num(row[c]));
  const table = (rows) => html`<table class="stacks"><thead><tr>${cols.map((c) => html`<th scope="col" class=${'c-' + c}>${t('hive.hall.col.' + c)}</th>`)}</tr></thead>
    <tbody>${rows.map((row) => html`<tr data-testid=${'hall-standing-' + row.player}>${cols.map((c) => html`<td class=${'c-' + c}
      data-label=${c === 'rank' || c === 'name' ? nothing : t('hive.hall.col.' + c)}>${cell(row, c)}</td>`)}</tr>`)}</tbody></table>`;
  const per = Math.ceil(view.standings.length / parts);
  const tables = parts > 1
    ? html`<div class="hh-st-parts">${Array.from({ length: parts }, (_, i) => table(view.standings.slice(i * per, (i + 1) * per)))}</div>`
    : table(view.standings);
  // The projector's table is never scrolled: its type is sized to the screen instead.
  return html`<section class="hive-hall-standings" data-testid="hall-standings" aria-labelledby="hh-st">
    <h2 id="hh-st">${t('hive.hall.standings')}</h2>
    ${narrow ? tables : html`<div class="scroll" tabindex="0">${tables}</div>`}
    <p class="muted">${t('hive.hall.tiebreak')}</p></section>`;
}

export const byeLine = (view) => (view.bye ? html`<p data-testid="hall-bye">${t('hive.hall.bye', { name: nameOf(view.bye) })}</p>` : nothing);
export const boardTitle = (p) => t('hive.hall.board_title', { n: num(p.place), white: nameOf(p.white), black: nameOf(p.black) });

/** Start a hall screen (`projector`: the hall's projector) in #screen: its styles, its
 *  connection and its offline banner; `draw(box, page, conn)` draws it and keeps it live. */
export function hallScreen(projector, drawIt) {
  const page = readJSON('page', {});
  styles(projector);
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  drawIt($('screen'), page, conn);
}
