/* La colmena's hall view for the teacher, an ES module composing lib/: every table of a
 * hall, live. It draws the hall rules' view the server sends (`hall` messages: each
 * table's step, who must act, score so far, deck, board, penalties, result) and the games'
 * list (when each last moved, its console); its one action is the bell, asked to confirm
 * first. No rule lives here. */
import { html, render as draw, nothing, $ } from '/static/js/lib/dom.js';
import { W, readJSON } from '/static/js/lib/words.js';
import { connection } from '/static/js/lib/connection.js';
import { clock, onTick } from '/static/js/lib/timer.js';
import { flash, offlineBanner } from '/static/js/lib/widgets.js';

/** Draw the teacher's view of the hall and keep it live. */
export function start() {
  const { t, num } = W;
  const page = readJSON('page', {});
  const box = $('screen');
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  // The console address of each game, by key, as the page was served.
  const consoles = {};
  for (const g of page.games || []) consoles[g.key] = g.console_url;
  //: Seconds without a move after which a table playing is shown as waiting a long time.
  const STUCK_SECONDS = 120;
  let last = null;
  let confirming = false;
  let notice = '';

  function since(actedAt) {
    if (typeof actedAt !== 'number') return null;
    return Math.max(0, Math.round(clock.now() / 1000 - actedAt));
  }

  function duration(seconds) {
    return seconds < 60 ? t('colmenahall.seconds', { n: num(seconds) })
      : t('colmenahall.minutes', { n: num(Math.floor(seconds / 60)) });
  }

  function waitingText(table, game) {
    if (table.over) return null;
    const s = since(game && game.acted_at);
    if (s === null) return { text: t('colmenahall.not_begun'), stuck: false };
    return { text: t('colmenahall.waiting', { time: duration(s) }), stuck: s >= STUCK_SECONDS };
  }

  const fact = (label, value, testid) => html`<div class="ch-fact"><dt>${label}</dt><dd data-testid=${testid || nothing}>${value}</dd></div>`;

  function tableCard(table, game) {
    const key = table.key;
    const who = table.over ? (table.ended_early ? t('colmenahall.ended_early') : '')
      : table.seat_name ? t('colmenahall.turn_of', { name: table.seat_name })
        : table.step === 'first_task' ? t('colmenahall.no_starter') : '';
    const wait = waitingText(table, game);
    const url = consoles[key] || (game ? '/console/' + game.game_id : null);
    // Each player with the cards in hand (a count: never a card).
    const players = html`<ul class="ch-players" data-testid=${'hall-players-' + key}
    aria-label=${t('colmenahall.people') + ' · ' + t('colmenahall.hands')}>${table.players.map((name, i) => html`<li
    class=${table.seat === i + 1 ? 'now' : nothing}>${name} <span class="ch-hand">${'(' + num(table.hands[i]) + ')'}</span></li>`)}</ul>`;
    return html`<article class=${'ch-table' + (table.over ? ' over' : '') + (wait && wait.stuck ? ' stuck' : '')}
    data-testid=${'hall-table-' + key} aria-labelledby=${'ch-title-' + key}>
    <header class="ch-head"><h3 id=${'ch-title-' + key}>${t('colmenahall.table', { n: num(table.place) })}${
        table.solo ? html`<span class="badge">${' ' + t('colmenahall.solo')}</span>` : ''}</h3>
      <p class="ch-score"><span class="ch-points" data-testid=${'hall-score-' + key}>${table.played === false ? '—' : num(table.total)}</span>
        <span class="muted">${table.played === false ? '' : table.over ? t('colmenahall.total') : t('colmenahall.score')}</span></p></header>
    <p class="ch-step" data-testid=${'hall-step-' + key}><strong>${t('colmenahall.step.' + table.step)}</strong>${
        table.over || !table.turn ? '' : ' · ' + t('colmenahall.turn', { n: num(table.turn) })}</p>
    ${who ? html`<p class="ch-who" data-testid=${'hall-who-' + key}>${who}</p>` : ''}
    ${table.over && table.tier ? html`<p class="ch-tier" data-testid=${'hall-tier-' + key}>${t('colmenahall.result.' + table.tier)}</p>` : ''}
    ${table.over && table.played === false ? html`<p class="ch-tier" data-testid=${'hall-tier-' + key}>${t('colmenahall.unplayed')}</p>` : ''}
    ${wait ? html`<p class=${'ch-wait' + (wait.stuck ? ' stuck' : '')} data-testid=${'hall-wait-' + key}>${wait.text}${
        wait.stuck ? html`<span class="badge warn">${t('colmenahall.stuck')}</span>` : ''}</p>` : ''}
    <dl class="ch-facts">${fact(t('colmenahall.deck'), num(table.deck), 'hall-deck-' + key)}${
        fact(t('colmenahall.board'), num(table.board), 'hall-board-' + key)}${
        fact(t('colmenahall.completed'), num(table.completed), 'hall-completed-' + key)}${
        fact(t('colmenahall.open'), num(table.open), 'hall-open-' + key)}${
        fact(t('colmenahall.penalties'), num(table.penalties), 'hall-penalties-' + key)}</dl>
    ${players}
    ${url ? html`<a class="button ch-open" href=${url} data-testid=${'hall-console-' + key}>${t('colmenahall.open_table')}</a>` : ''}</article>`;
  }

  function bell(view) {
    const on = view.tables.filter((tb) => !tb.over).length;
    if (!on) {
      return html`<p class="ch-done" data-testid="hall-all-over">${t('colmenahall.all_over')} <a class="button"
      href=${'/console/halls/' + page.hall + '/results'} data-testid="hall-results">${t('hall.results')}</a></p>`;
    }
    if (!confirming) {
      return html`<button type="button" class="bad ch-bell" data-testid="hall-bell"
      @click=${() => { confirming = true; paint(); focus('hall-bell-yes'); }}>${t('colmenahall.bell')}</button>`;
    }
    return html`<div class="ch-confirm" role="group" aria-labelledby="ch-confirm-text" data-testid="hall-bell-confirm">
    <p id="ch-confirm-text">${t('colmenahall.bell_confirm', { n: num(on) })}</p>
    <div class="row"><button type="button" class="bad" data-testid="hall-bell-yes" @click=${ring}>${t('colmenahall.bell_yes')}</button>
      <button type="button" data-testid="hall-bell-no"
        @click=${() => { confirming = false; paint(); focus('hall-bell'); }}>${t('colmenahall.bell_no')}</button></div></div>`;
  }

  function focus(testid) {
    const el = box.querySelector('[data-testid="' + testid + '"]');
    if (el) el.focus();
  }

  function ring() {
    confirming = false;
    conn.emit('hall', { do: 'bell' }).then((ack) => {
      if (ack && ack.ok === false) { flash(ack); return; }
      // Nothing left to end: another bell (a second teacher) rang first.
      notice = ack.ended ? t('colmenahall.bell_done', { n: num(ack.ended) }) : t('colmenahall.bell_already');
      paint();
    });
    paint();
  }

  function paint() {
    if (!last) return;
    const view = last.view;
    const games = {};
    for (const g of last.games || []) games[g.key] = g;
    const over = view.tables.filter((tb) => tb.over).length;
    draw(html`<h2 class="sr-only">${t('colmenahall.tables')}</h2>
    <dl class="ch-counts" data-testid="hall-counts">${fact(t('colmenahall.tables'), num(view.tables.length), 'hall-count-tables')}${
        fact(t('colmenahall.people'), num(view.players), 'hall-count-people')}${
        fact(t('colmenahall.finished'), num(over), 'hall-count-over')}</dl>
    <div class="ch-bellbox">${bell(view)}${notice ? html`<p class="muted" role="status" data-testid="hall-bell-done">${notice}</p>` : ''}</div>
    <p class="hint">${t('colmenahall.open_hint')}</p>
    <div class="ch-tables" data-testid="hall-tables">${view.tables.map((table) => tableCard(table, games[table.key]))}</div>`, box);
  }

  // "Waiting since" moves with the clock: drawn again every few seconds (lit-html changes
  // only those lines, so the focus and the rest of the page stay as they are).
  let ticks = 0;
  onTick(() => { ticks += 1; if (ticks % 25 === 0) paint(); });

  const socket = conn.connect({ role: 'hall_gm', hall: page.hall }, () => {});
  socket.on('hall', (message) => {
    if (!message || !message.view) return;
    last = message;
    paint();
  });
}
