/* La colmena's hall view for the teacher: every table of a hall, live. It draws the hall
 * rules' view the server sends (`hall` messages: each table's step, who must act, score
 * so far, deck, board, penalties, result) and the games' list (when each last moved, its
 * console); its one action is the bell, asked to confirm first. No rule lives here. */
(function () {
  'use strict';
  const L = window.Live;
  const h = L.h;
  const t = L.t;
  const page = L.readJSON('page', {});
  const box = document.getElementById('screen');
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
    return Math.max(0, Math.round(L.serverNow() / 1000 - actedAt));
  }

  function duration(seconds) {
    return seconds < 60 ? t('colmenahall.seconds', { n: L.num(seconds) })
      : t('colmenahall.minutes', { n: L.num(Math.floor(seconds / 60)) });
  }

  function waitingText(table, game) {
    if (table.over) return null;
    const s = since(game && game.acted_at);
    if (s === null) return { text: t('colmenahall.not_begun'), stuck: false };
    return { text: t('colmenahall.waiting', { time: duration(s) }), stuck: s >= STUCK_SECONDS };
  }

  function waitLine(key, wait) {
    return h('p', { class: 'ch-wait' + (wait.stuck ? ' stuck' : ''), testid: 'hall-wait-' + key },
      wait.text, wait.stuck ? h('span', { class: 'badge warn' }, t('colmenahall.stuck')) : '');
  }

  function fact(label, value, testid) {
    return h('div', { class: 'ch-fact' }, h('dt', null, label), h('dd', { testid: testid }, value));
  }

  function tableCard(table, game) {
    const key = table.key;
    const step = t('colmenahall.step.' + table.step);
    const who = table.over ? (table.ended_early ? t('colmenahall.ended_early') : '')
      : table.seat_name ? t('colmenahall.turn_of', { name: table.seat_name })
        : table.step === 'first_task' ? t('colmenahall.no_starter') : '';
    const wait = waitingText(table, game);
    const title = t('colmenahall.table', { n: L.num(table.place) });
    // Each player with the cards in hand (a count: never a card).
    const players = h('ul', { class: 'ch-players', testid: 'hall-players-' + key,
      'aria-label': t('colmenahall.people') + ' · ' + t('colmenahall.hands') },
    table.players.map((name, i) => h('li', { class: table.seat === i + 1 ? 'now' : null },
      name, ' ', h('span', { class: 'ch-hand' }, '(' + L.num(table.hands[i]) + ')'))));
    const url = consoles[key] || (game ? '/console/' + game.game_id : null);
    return h('article', { class: 'ch-table' + (table.over ? ' over' : '') + (wait && wait.stuck ? ' stuck' : ''),
      testid: 'hall-table-' + key, 'aria-labelledby': 'ch-title-' + key },
    h('header', { class: 'ch-head' },
      h('h3', { id: 'ch-title-' + key }, title, table.solo ? h('span', { class: 'badge' }, ' ' + t('colmenahall.solo')) : ''),
      h('p', { class: 'ch-score' }, h('span', { class: 'ch-points', testid: 'hall-score-' + key }, L.num(table.total)),
        ' ', h('span', { class: 'muted' }, table.over ? t('colmenahall.total') : t('colmenahall.score')))),
    h('p', { class: 'ch-step', testid: 'hall-step-' + key }, h('strong', null, step),
      table.over || !table.turn ? '' : ' · ' + t('colmenahall.turn', { n: L.num(table.turn) })),
    who ? h('p', { class: 'ch-who', testid: 'hall-who-' + key }, who) : '',
    table.over && table.tier ? h('p', { class: 'ch-tier', testid: 'hall-tier-' + key }, t('colmenahall.result.' + table.tier)) : '',
    wait ? waitLine(key, wait) : '',
    h('dl', { class: 'ch-facts' },
      fact(t('colmenahall.deck'), L.num(table.deck), 'hall-deck-' + key),
      fact(t('colmenahall.board'), L.num(table.board), 'hall-board-' + key),
      fact(t('colmenahall.completed'), L.num(table.completed), 'hall-completed-' + key),
      fact(t('colmenahall.open'), L.num(table.open), 'hall-open-' + key),
      fact(t('colmenahall.penalties'), L.num(table.penalties), 'hall-penalties-' + key)),
    players,
    url ? h('a', { class: 'button ch-open', href: url, testid: 'hall-console-' + key }, t('colmenahall.open_table')) : '');
  }

  function bell(view) {
    const on = view.tables.filter((tb) => !tb.over).length;
    if (!on) {
      return h('p', { class: 'ch-done', testid: 'hall-all-over' }, t('colmenahall.all_over'), ' ',
        h('a', { class: 'button', href: '/console/halls/' + page.hall + '/results', testid: 'hall-results' },
          t('hall.results')));
    }
    if (!confirming) {
      return h('button', { type: 'button', class: 'bad ch-bell', testid: 'hall-bell',
        onclick: () => { confirming = true; draw(); focus('hall-bell-yes'); } }, t('colmenahall.bell'));
    }
    return h('div', { class: 'ch-confirm', role: 'group', 'aria-labelledby': 'ch-confirm-text', testid: 'hall-bell-confirm' },
      h('p', { id: 'ch-confirm-text' }, t('colmenahall.bell_confirm', { n: L.num(on) })),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'bad', testid: 'hall-bell-yes', onclick: ring }, t('colmenahall.bell_yes')),
        h('button', { type: 'button', testid: 'hall-bell-no',
          onclick: () => { confirming = false; draw(); focus('hall-bell'); } }, t('colmenahall.bell_no'))));
  }

  function focus(testid) {
    const el = box.querySelector('[data-testid="' + testid + '"]');
    if (el) el.focus();
  }

  function ring() {
    confirming = false;
    L.emit('hall', { do: 'bell' }).then((ack) => {
      if (ack && ack.ok === false) { L.flash(ack); return; }
      notice = t('colmenahall.bell_done', { n: L.num(ack.ended || 0) });
      draw();
    });
    draw();
  }

  function draw() {
    if (!last) return;
    const view = last.view;
    const games = {};
    for (const g of last.games || []) games[g.key] = g;
    const over = view.tables.filter((tb) => tb.over).length;
    box.replaceChildren(
      h('h2', { class: 'sr-only' }, t('colmenahall.tables')),
      h('dl', { class: 'ch-counts', testid: 'hall-counts' },
        fact(t('colmenahall.tables'), L.num(view.tables.length), 'hall-count-tables'),
        fact(t('colmenahall.people'), L.num(view.players), 'hall-count-people'),
        fact(t('colmenahall.finished'), L.num(over), 'hall-count-over')),
      h('div', { class: 'ch-bellbox' }, bell(view),
        notice ? h('p', { class: 'muted', role: 'status', testid: 'hall-bell-done' }, notice) : ''),
      h('p', { class: 'hint' }, t('colmenahall.open_hint')),
      h('div', { class: 'ch-tables', testid: 'hall-tables' },
        view.tables.map((table) => tableCard(table, games[table.key]))));
  }

  // "Waiting since" moves with the clock: only those lines are drawn again, every few
  // seconds, so the focus and the rest of the page stay as they are.
  function updateWaits() {
    if (!last) return;
    const games = {};
    for (const g of last.games || []) games[g.key] = g;
    for (const table of last.view.tables) {
      const el = box.querySelector('[data-testid="hall-wait-' + table.key + '"]');
      const wait = waitingText(table, games[table.key]);
      if (el && wait) {
        el.replaceWith(waitLine(table.key, wait));
        const card = box.querySelector('[data-testid="hall-table-' + table.key + '"]');
        if (card) card.classList.toggle('stuck', wait.stuck);
      }
    }
  }
  let ticks = 0;
  L.onTick(() => { ticks += 1; if (ticks % 25 === 0) updateWaits(); });

  const socket = L.connect({ role: 'hall_gm', hall: page.hall }, () => {});
  socket.on('hall', (message) => {
    if (!message || !message.view) return;
    last = message;
    draw();
  });
}());
