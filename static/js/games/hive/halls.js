/* halls.js: a Hive tournament's hall screens (window.HiveHalls), drawn from the hall
 * rules' view in the `hall` messages (facilitator/games/hive/hall.py says what it holds).
 *
 * The teacher's (`hall_gm`, loaded by hall.js): the round's pairings with each board's
 * code, state and result, the standings, the next round (or why not yet), a link to each
 * board's console (where it is ended with a reason or undone), the bell, and the boards
 * picked for the projector (four at most, the hall rules say). The projector's
 * (`hall_watcher`, loaded by hall_watcher.js): pairings, standings and the picked boards
 * live, each drawn by board.js. No rule lives here: what may be done is the view's.
 */
(function () {
  'use strict';
  const L = window.Live;
  const h = L.h;
  const t = L.t;
  const B = () => window.HiveBoard;
  const COLOURS = ['white', 'black'];

  const because = (rule, message) => window.HiveScreen.because(rule, message).text;

  /** A board's state in words: whose turn, or the result and its reason. */
  function boardState(p) {
    if (p.over) {
      const head = p.result === 'draw' ? t('hive.result.draw')
        : p.result ? t('hive.result.won', { side: t('colour.' + p.result) + ' (' + p[p.result].name + ')' }) : '';
      const key = 'hive.reason.' + p.rule;
      const reason = p.reason === 'bell' ? t('hive.hall.bell_reason')
        : p.rule && L.has(key) ? t(key, { reason: p.reason }) : (p.reason || '');
      return head + (reason ? ' — ' + reason : '');
    }
    if (!p.moves) return t('hive.hall.not_begun');
    return t('hive.hall.to_move', { colour: t('colour.' + p.to_move), n: L.num(p.moves) });
  }

  function roundLine(view) {
    return h('p', { class: 'hive-hall-round', testid: 'hall-round' },
      t('hive.hall.round', { r: L.num(view.round), k: L.num(view.rounds_total) }), ' · ',
      t('hive.hall.system.' + view.system));
  }

  /** The standings table (`narrow`: the projector's column, without the losses). */
  function standings(view, narrow) {
    const cols = ['rank', 'name', 'points', 'wins', 'draws', 'losses', 'buchholz']
      .filter((c) => !narrow || c !== 'losses');
    return h('section', { class: 'hive-hall-standings', testid: 'hall-standings', 'aria-labelledby': 'hh-st' },
      h('h2', { id: 'hh-st' }, t('hive.hall.standings')),
      h('div', { class: 'scroll', tabindex: 0 }, h('table', null,
        h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col' }, t('hive.hall.col.' + c))))),
        h('tbody', null, view.standings.map((row) => h('tr', { testid: 'hall-standing-' + row.player },
          cols.map((c) => h('td', null, c === 'rank' ? L.ordinal(row.rank)
            : c === 'name' ? row.name : L.num(row[c])))))))),
      h('p', { class: 'muted' }, t('hive.hall.tiebreak')));
  }

  function byeLine(view) {
    return view.bye ? h('p', { testid: 'hall-bye' }, t('hive.hall.bye', { name: view.bye.name })) : null;
  }

  /* ---- the teacher's hall view --------------------------------------------------- */
  function teacher(box, page) {
    let last = null;
    let picked = null;             // the keys ticked for the projector, until sent
    let said = '';
    const consoles = {};
    for (const g of page.games || []) consoles[g.key] = g.console_url;

    function send(payload, done) {
      said = '';
      L.emit('hall', payload).then((ack) => {
        said = ack && ack.ok === false ? t('hive.refused', { why: because(ack.error, ack.message) })
          : done ? done(ack) : '';
        draw();
      });
    }

    function row(p, games) {
      const game = games[p.key] || {};
      const url = consoles[p.key] || (game.game_id ? '/console/' + game.game_id : null);
      const shown = (picked || last.view.shown).indexOf(p.key) >= 0;
      const box = h('input', { type: 'checkbox', id: 'hh-show-' + p.key, testid: 'hall-pick-' + p.key, checked: shown,
        onchange: (e) => {
          const keys = (picked || last.view.shown).filter((k) => k !== p.key);
          if (e.target.checked) keys.push(p.key);
          picked = keys;
          draw();
        } });
      return h('tr', { testid: 'hall-pairing-' + p.key, class: p.over ? 'over' : null },
        h('th', { scope: 'row' }, L.num(p.place)),
        COLOURS.map((c) => h('td', null, h('span', { class: 'hive-side' }, B().icon('Q', c), ' ', p[c].name))),
        h('td', { testid: 'hall-state-' + p.key }, boardState(p)),
        h('td', null, game.table_code ? [h('code', { class: 'code', testid: 'hall-board-code-' + p.key }, game.table_code), ' ',
          h('a', { href: '/qr/' + game.table_code + '.svg', target: '_blank', rel: 'noopener' }, t('hive.hall.qr'))] : ''),
        h('td', null, url ? h('a', { class: 'button small', href: url, testid: 'hall-console-' + p.key,
          'aria-label': t('hive.hall.open_board_n', { n: L.num(p.place) }) }, t('hive.hall.open_board')) : ''),
        h('td', null, h('label', { class: 'hive-pick', for: 'hh-show-' + p.key }, box, ' ', t('hive.hall.on_projector'))));
    }

    function draw() {
      if (!last) return;
      const view = last.view;
      const games = {};
      for (const g of last.games || []) games[g.key] = g;
      const next = view.next_round || {};
      const keys = picked || view.shown;
      const on = view.pairings.filter((p) => !p.over).length;
      L.section(box, JSON.stringify([view, last.games, picked, said]), () => [
        h('div', { class: 'hive-hall' },
          roundLine(view),
          h('div', { class: 'row' },
            h('button', { type: 'button', class: 'primary', testid: 'hall-next-round', disabled: !next.ok,
              'aria-describedby': next.ok ? null : 'hh-why-not',
              onclick: () => send({ do: 'next_round' }, () => t('hive.hall.next_done')) }, t('hive.hall.next_round')),
            on ? h('button', { type: 'button', class: 'bad', testid: 'hall-bell',
              onclick: () => send({ do: 'bell' }, (ack) => t('hive.hall.bell_done', { n: L.num(ack.ended || 0) })) },
            t('hive.hall.bell', { n: L.num(on) })) : null),
          next.ok ? null : h('p', { class: 'muted', id: 'hh-why-not', testid: 'hall-why-not' }, because(next.rule, next.message)),
          said ? h('p', { role: 'status', class: 'hive-hall-said', testid: 'hall-said' }, said) : null,
          h('section', { 'aria-labelledby': 'hh-pairings', testid: 'hall-pairings' },
            h('h2', { id: 'hh-pairings' }, t('hive.hall.pairings')),
            h('div', { class: 'scroll', tabindex: 0 }, h('table', null,
              h('thead', null, h('tr', null, ['board', 'white', 'black', 'state', 'code', 'console', 'projector']
                .map((c) => h('th', { scope: 'col' }, t('hive.hall.col.' + c))))),
              h('tbody', null, view.pairings.map((p) => row(p, games))))),
            byeLine(view),
            h('div', { class: 'row' },
              h('button', { type: 'button', testid: 'hall-show', disabled: picked === null,
                onclick: () => send({ do: 'show', keys: keys }, () => { picked = null; return t('hive.hall.shown_done', { n: L.num(keys.length) }); }) },
              t('hive.hall.show', { n: L.num(keys.length) })),
              h('span', { class: 'muted' }, t('hive.hall.show_hint')))),
          standings(view)),
      ]);
    }
    const socket = L.connect({ role: 'hall_gm', hall: page.hall }, () => {});
    socket.on('hall', (message) => {
      if (!message || !message.view) return;
      last = message;
      draw();
    });
  }

  /* ---- the projector ------------------------------------------------------------- */
  function watcher(box, page) {
    const parts = {
      head: h('div', { class: 'hive-hall' }),
      boards: h('div', { class: 'hive-minis', testid: 'hall-boards' }),
      rest: h('div', { class: 'hive-hall hive-hall-rest' }),
    };
    box.classList.add('hive-screen', 'role-hall-watcher');
    box.replaceChildren(parts.head, parts.boards, parts.rest);
    const hosts = {};
    function draw(view) {
      L.section(parts.head, JSON.stringify([view.round, view.rounds_total, view.system]), () => roundLine(view));
      const keys = view.shown.filter((k) => view.boards && view.boards[k]);
      for (const k of Object.keys(hosts)) if (keys.indexOf(k) < 0) { hosts[k].remove(); delete hosts[k]; }
      for (const k of keys) {
        const p = view.pairings.find((x) => x.key === k);
        if (!hosts[k]) {
          hosts[k] = h('article', { class: 'hive-mini', testid: 'hall-live-' + k },
            h('h2', { class: 'hive-mini-title' }), h('p', { class: 'hive-mini-state' }), h('div', { class: 'hive-mini-board' }));
        }
        parts.boards.appendChild(hosts[k]);
        hosts[k].querySelector('.hive-mini-title').textContent = p
          ? t('hive.hall.board_title', { n: L.num(p.place), white: p.white.name, black: p.black.name }) : k;
        hosts[k].querySelector('.hive-mini-state').textContent = p ? boardState(p) : '';
        B().render(hosts[k].querySelector('.hive-mini-board'), view.boards[k], { t: t, mini: true, id: 'hall-' + k.replace('.', '-') });
      }
      parts.boards.hidden = !keys.length;
      L.section(parts.rest, JSON.stringify([view.pairings, view.standings, view.bye]), () => [
        h('section', { 'aria-labelledby': 'hh-pairings', testid: 'hall-pairings' },
          h('h2', { id: 'hh-pairings' }, t('hive.hall.pairings')),
          h('ul', { class: 'hive-hall-list' }, view.pairings.map((p) => h('li', { testid: 'hall-pairing-' + p.key },
            h('strong', null, t('hive.hall.board_title', { n: L.num(p.place), white: p.white.name, black: p.black.name })),
            ' — ', h('span', { testid: 'hall-state-' + p.key }, boardState(p))))),
          byeLine(view)),
        standings(view, true)]);
    }
    const socket = L.connect({ role: 'hall_watcher', watch: page.watch }, () => {});
    socket.on('hall', (message) => { if (message && message.view) draw(message.view); });
  }

  window.HiveHalls = {
    start: function (role) {
      const page = L.readJSON('page', {});
      const box = document.getElementById('screen');
      if (role === 'hall_gm') teacher(box, page);
      else watcher(box, page);
    },
  };
}());
