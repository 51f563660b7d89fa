/* halls.js: a Hive tournament's hall screens, an ES module composing lib/ and drawing the
 * hall rules' view in the `hall` messages (facilitator/games/hive/hall.py says what it holds).
 *
 * The teacher's (`hall_gm`, started by hall.js): the round's pairings with each board's
 * code, state and result, the standings, the next round (or why not yet), a link to each
 * board's console (where it is ended with a reason or undone), the bell, and the boards
 * picked for the projector (four at most, the hall rules say). The projector's
 * (`hall_watcher`, started by hall_watcher.js): pairings, standings and the picked boards
 * live, each drawn by board.js. No rule lives here: what may be done is the view's.
 */
import { html, render as draw, nothing, $ } from '/static/js/lib/dom.js';
import { W, readJSON } from '/static/js/lib/words.js';
import { connection } from '/static/js/lib/connection.js';
import { offlineBanner } from '/static/js/lib/widgets.js';
import * as board from './board.js';
import { styles, because as ruleLine } from './screen.js';

const { t, has, num, ordinal } = W;
const COLOURS = ['white', 'black'];
const because = (rule, message) => ruleLine(rule, message).text;
/** A side's or a standings row's name; «Jugador n» where the class keeps names off the projector. */
const nameOf = (x) => (x.bot ? t('hivehall.bot')
  : x.name != null ? x.name : t('hivehall.player', { n: num(x.number) }));

/** A board's state in words: whose turn, or the result and its reason. */
function boardState(p) {
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

const roundLine = (view) => html`<p class="hive-hall-round" data-testid="hall-round">${
  t('hive.hall.round', { r: num(view.round), k: num(view.rounds_total) })} · ${t('hive.hall.system.' + view.system)}</p>`;

/** The standings table (`narrow`: the projector's column). */
function standings(view, narrow) {
  // The projector's keeps what the back row reads (place, name, points, the tie-break), in type large enough.
  const cols = narrow ? ['rank', 'name', 'points', 'buchholz'] : ['rank', 'name', 'points', 'wins', 'draws', 'losses', 'buchholz'];
  const cell = (row, c) => (c === 'rank' ? ordinal(row.rank) : c === 'name' ? nameOf(row) : num(row[c]));
  const table = html`<table class="stacks"><thead><tr>${cols.map((c) => html`<th scope="col" class=${'c-' + c}>${t('hive.hall.col.' + c)}</th>`)}</tr></thead>
    <tbody>${view.standings.map((row) => html`<tr data-testid=${'hall-standing-' + row.player}>${cols.map((c) => html`<td class=${'c-' + c}
      data-label=${c === 'rank' || c === 'name' ? nothing : t('hive.hall.col.' + c)}>${cell(row, c)}</td>`)}</tr>`)}</tbody></table>`;
  // The projector's table is never scrolled: its type is sized to the screen instead.
  return html`<section class="hive-hall-standings" data-testid="hall-standings" aria-labelledby="hh-st">
    <h2 id="hh-st">${t('hive.hall.standings')}</h2>
    ${narrow ? table : html`<div class="scroll" tabindex="0">${table}</div>`}
    <p class="muted">${t('hive.hall.tiebreak')}</p></section>`;
}

const byeLine = (view) => (view.bye ? html`<p data-testid="hall-bye">${t('hive.hall.bye', { name: nameOf(view.bye) })}</p>` : nothing);
const boardTitle = (p) => t('hive.hall.board_title', { n: num(p.place), white: nameOf(p.white), black: nameOf(p.black) });

/* ---- the teacher's hall view --------------------------------------------------- */
function teacher(box, page, conn) {
  let last = null;
  let picked = null;             // the keys ticked for the projector, until sent
  let said = '';
  const consoles = {};
  for (const g of page.games || []) consoles[g.key] = g.console_url;

  function send(payload, done) {
    said = '';
    conn.emit('hall', payload).then((ack) => {
      said = ack && ack.ok === false ? t('hive.refused', { why: because(ack.error, ack.message) })
        : done ? done(ack) : '';
      paint();
    });
  }

  // A column's name: its header, and on a phone (table.stacks) the words before its cell.
  const col = (c) => t('hive.hall.col.' + c);

  function row(p, games) {
    const game = games[p.key] || {};
    const url = consoles[p.key] || (game.game_id ? '/console/' + game.game_id : null);
    const shown = (picked || last.view.shown).indexOf(p.key) >= 0;
    const tick = (e) => {
      const keys = (picked || last.view.shown).filter((k) => k !== p.key);
      if (e.target.checked) keys.push(p.key);
      picked = keys;
      paint();
    };
    return html`<tr data-testid=${'hall-pairing-' + p.key} class=${p.over ? 'over' : nothing}>
      <th scope="row"><span class="hh-phone-only">${col('board')} </span>${num(p.place)}</th>${COLOURS.map((c) => html`<td><span class="hive-side">${board.icon('Q', c)} ${nameOf(p[c])}</span></td>`)}
      <td data-testid=${'hall-state-' + p.key} data-label=${col('state')}>${boardState(p)}</td>
      <td data-label=${col('code')}>${game.table_code ? html`<code class="code" data-testid=${'hall-board-code-' + p.key}>${game.table_code}</code>
        <a href=${'/qr/' + game.table_code + '.svg'} target="_blank" rel="noopener">${t('hive.hall.qr')}</a>` : ''}</td>
      <td>${url ? html`<a class="button small" href=${url} data-testid=${'hall-console-' + p.key}
        aria-label=${t('hive.hall.open_board_n', { n: num(p.place) })}>${t('hive.hall.open_board')}</a>` : ''}</td>
      <td><label class="hive-pick" for=${'hh-show-' + p.key}><input type="checkbox" id=${'hh-show-' + p.key}
        data-testid=${'hall-pick-' + p.key} .checked=${shown} @change=${tick}> ${t('hive.hall.on_projector')}</label></td></tr>`;
  }

  function paint() {
    if (!last) return;
    const view = last.view;
    const games = {};
    for (const g of last.games || []) games[g.key] = g;
    const next = view.next_round || {};
    const keys = picked || view.shown;
    const on = view.pairings.filter((p) => !p.over).length;
    const show = () => send({ do: 'show', keys: keys }, () => { picked = null; return t('hive.hall.shown_done', { n: num(keys.length) }); });
    draw(html`<div class="hive-hall">${roundLine(view)}
      <div class="row"><button type="button" class="primary" data-testid="hall-next-round" ?disabled=${!next.ok}
        aria-describedby=${next.ok ? nothing : 'hh-why-not'}
        @click=${() => send({ do: 'next_round' }, () => t('hive.hall.next_done'))}>${t('hive.hall.next_round')}</button>${
        on ? html`<button type="button" class="bad" data-testid="hall-bell"
          @click=${() => send({ do: 'bell' }, (ack) => (ack.ended ? t('hive.hall.bell_done', { n: num(ack.ended) }) : t('hive.hall.bell_already')))}>${t('hive.hall.bell', { n: num(on) })}</button>` : nothing}</div>
      ${next.ok ? nothing : html`<p class="muted" id="hh-why-not" data-testid="hall-why-not">${because(next.rule, next.message)}</p>`}
      ${said ? html`<p role="status" class="hive-hall-said" data-testid="hall-said">${said}</p>` : nothing}
      <section aria-labelledby="hh-pairings" data-testid="hall-pairings"><h2 id="hh-pairings">${t('hive.hall.pairings')}</h2>
        <div class="scroll" tabindex="0"><table class="stacks"><thead><tr>${['board', 'white', 'black', 'state', 'code', 'console', 'projector']
          .map((c) => html`<th scope="col">${t('hive.hall.col.' + c)}</th>`)}</tr></thead>
          <tbody>${view.pairings.map((p) => row(p, games))}</tbody></table></div>
        ${byeLine(view)}
        <div class="row"><button type="button" data-testid="hall-show" ?disabled=${picked === null} @click=${show}
          >${t('hive.hall.show', { n: num(keys.length) })}</button><span class="muted">${t('hive.hall.show_hint')}</span></div></section>
      ${standings(view)}</div>`, box);
  }
  const socket = conn.connect({ role: 'hall_gm', hall: page.hall }, () => {});
  socket.on('hall', (message) => {
    if (!message || !message.view) return;
    last = message;
    paint();
  });
}

/* ---- the projector ------------------------------------------------------------- */
/* The whole screen, la partida's projector's dark theme: the current round's picked boards
 * in a grid that takes the free room, beside them the standings (what the back row reads
 * first) and the round's other boards in one line each. A board is drawn once: as a tile
 * when picked, else as a line, so the list never repeats what the tiles say. */
function watcher(box, page, conn) {
  document.body.classList.add('hive-projector');
  box.classList.add('hive-screen', 'role-hall-watcher');
  const hosts = {};              // each shown board's article, by key: its board kept between views
  const sideName = (p, c) => html`<span class="hive-side">${board.icon('Q', c)} <span class="hh-name">${nameOf(p[c])}</span></span>`;
  function paint(view) {
    // Only this round's boards: a key kept from an earlier round is not drawn.
    const keys = view.shown.filter((k) => view.boards && view.boards[k] && view.pairings.some((p) => p.key === k));
    const others = view.pairings.filter((p) => keys.indexOf(p.key) < 0);
    draw(html`<div class="hive-hall hh-top">${roundLine(view)}</div>
      <div class="hh-main" data-boards=${keys.length}><div class="hive-hall hh-left">
      <div class="hive-minis" data-testid="hall-boards" ?hidden=${!keys.length}></div>
        <section aria-labelledby="hh-pairings" data-testid="hall-pairings" class="hh-others" ?hidden=${!others.length && !view.bye}>
        <h2 id="hh-pairings">${keys.length ? t('hive.hall.pairings') + ' (' + num(others.length) + ')' : t('hive.hall.pairings')}</h2>
        <ul class="hive-hall-list">${others.map((p) => html`<li data-testid=${'hall-pairing-' + p.key}><strong>${boardTitle(p)}</strong>
          — <span data-testid=${'hall-state-' + p.key}>${boardState(p)}</span></li>`)}</ul>${byeLine(view)}</section></div>
      <div class="hive-hall hive-hall-rest">${standings(view, true)}</div></div>`, box);
    const area = box.querySelector('.hive-minis');
    for (const k of Object.keys(hosts)) if (keys.indexOf(k) < 0) { hosts[k].remove(); delete hosts[k]; }
    for (const k of keys) {
      const p = view.pairings.find((x) => x.key === k);
      if (!hosts[k]) {
        hosts[k] = document.createElement('article');
        hosts[k].className = 'hive-mini';
        hosts[k].setAttribute('data-testid', 'hall-live-' + k);
      }
      hosts[k].classList.toggle('over', !!p.over);
      area.appendChild(hosts[k]);
      draw(html`<h2 class="hive-mini-title" data-testid=${'hall-pairing-' + k}><span
        class="sr-only">${boardTitle(p)}</span><span class="hh-sides" aria-hidden="true">${COLOURS.map((c) => sideName(p, c))}</span></h2>
        <p class="hive-mini-state"><strong>${t('hive.hall.col.board')} ${num(p.place)}</strong> · <span
          data-testid=${'hall-state-' + k}>${boardState(p)}</span></p>
        <div class="hive-mini-board"></div>`, hosts[k]);
      board.render(hosts[k].querySelector('.hive-mini-board'), view.boards[k], { t: t, mini: true, id: 'hall-' + k.replace('.', '-') });
    }
  }
  /* Type at the back row's size, smaller only as far as the screen's share needs (a large
   * class, the door's code over the hall): the standings (--fit), and the tiles' words and
   * the other boards' lines under them (--fit-list) until each board keeps a third of
   * its tile; hiveprojector.css never goes under 12 px. */
  const squeezed = (part) => Array.from(part.querySelectorAll('.hive-mini')).some((tile) =>
    tile.querySelector('.hive-mini-board').clientHeight < tile.clientHeight / 3);
  function fitSide() {
    for (const [sel, name] of [['.hive-hall-rest', '--fit'], ['.hh-left', '--fit-list']]) {
      const part = box.querySelector(sel);
      if (!part) continue;
      let fit = 1;
      part.style.setProperty(name, '1');
      while (fit > 0.3 && (part.scrollHeight > part.clientHeight + 1 || squeezed(part))) {
        fit -= 0.05;
        part.style.setProperty(name, fit.toFixed(2));
      }
    }
  }
  new ResizeObserver(fitSide).observe(box);
  const socket = conn.connect({ role: 'hall_watcher', watch: page.watch }, () => {});
  socket.on('hall', (message) => {
    if (message && message.view) { paint(message.view); fitSide(); }
    window.dispatchEvent(new CustomEvent('hall-message', { detail: message }));   // lib/door.js
  });
}

/** Draw the hall screen the page's data names (`hall_gm` or `hall_watcher`) into #screen, live. */
export function start() {
  const page = readJSON('page', {});
  styles(page.role !== 'hall_gm');
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  if (page.role === 'hall_gm') teacher($('screen'), page, conn);
  else watcher($('screen'), page, conn);
}
