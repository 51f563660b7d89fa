/* screen.js: the screens of one Hive game, drawn from the views the server sends
 * (window.HiveScreen). seat.js, table.js, gm.js and watcher.js load it; the page's
 * data says which screen it is: a colour's phone (`team`), the pair's shared tablet
 * (`table`), the teacher's console (`gm`) or the projector (`projector`). The board is
 * board.js's; what may be sent is the `legal` list's; a refusal is the server's, shown
 * in one line with the rule's summary from the catalog (its id only in the tooltip).
 */
(function () {
  'use strict';
  const L = window.Live;
  const t = L.t;
  const h = L.h;
  const B = () => window.HiveBoard;
  const BASE = '/games/hive/';

  /** Load `names` (scripts of this folder, in order) and the styles, then `done`. */
  function load(names, done) {
    if (!document.querySelector('link[data-hive]')) {
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = '/static/css/hive.css';
      css.setAttribute('data-hive', '');
      document.head.appendChild(css);
    }
    const next = (i) => {
      if (i >= names.length) { done(); return; }
      if (document.querySelector('script[data-hive="' + names[i] + '"]')) { next(i + 1); return; }
      const el = document.createElement('script');
      el.src = BASE + names[i];
      el.setAttribute('data-hive', names[i]);
      el.onload = () => next(i + 1);
      document.head.appendChild(el);
    };
    next(0);
  }

  const COLOURS = ['white', 'black'];
  const colourOfSeat = (n) => COLOURS[n - 1];
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const who = (view, colour) => B().side(t, view, colour);

  /** The line of a rule that refused something: its summary in the catalog, or the
   *  engine's own sentence; the rule's id stays in the tooltip. */
  function because(rule, message) {
    const key = 'hive.rule.' + rule;
    return { text: L.has(key) ? t(key) : (message || rule), title: rule + (message ? ' — ' + message : '') };
  }

  /** The result in words: who won (or a draw) and why. */
  function resultText(view) {
    const res = view.result;
    const head = res.result === 'draw' ? t('hive.result.draw') : t('hive.result.won', { side: who(view, res.result) });
    const key = 'hive.reason.' + res.rule;
    const why = res.rule && L.has(key) ? t(key, { reason: res.reason }) : res.reason;
    return head + ' — ' + why;
  }

  /** Whose turn it is, in words, as the screen `role` (and `mine`, a phone's colour) reads it. */
  function turnText(view, role, mine) {
    if (view.over) return resultText(view);
    const side = who(view, view.to_move);
    const n = { side: side, turn: view.turn };
    if (view.must_pass) return t('hive.turn.must_pass', n);
    if (role === 'team') return view.to_move === mine ? t('hive.turn.mine', n) : t('hive.turn.wait', n);
    if (role === 'projector') return t('hive.turn.watch', n);
    return t('hive.turn.play', n);
  }

  function start(role) {
    const page = L.readJSON('page', {});
    const box = document.getElementById('screen');
    const mine = role === 'team' ? colourOfSeat(page.team) : null;
    box.classList.add('hive-screen', 'role-' + role);
    const parts = {
      who: h('p', { class: 'hive-who', testid: 'hive-who' }),
      status: h('p', { class: 'hive-status', testid: 'hive-status' }),
      explain: h('p', { class: 'hive-explain', testid: 'hive-explain', role: 'alert', hidden: true }),
      actions: h('div', { class: 'hive-actions row', testid: 'hive-actions' }),
      board: h('div', { class: 'hive-host' }),
      gm: role === 'gm' ? h('div', { class: 'hive-gm' }) : null,
    };
    box.replaceChildren(...[parts.who, parts.status, parts.explain, parts.actions, parts.board, parts.gm].filter(Boolean));
    let explained = null;

    function explain(line) {
      explained = line;
      parts.explain.hidden = !line;
      parts.explain.textContent = line ? t('hive.refused', { why: line.text }) : '';
      parts.explain.title = line ? line.title : '';
    }
    function send(action) {
      explain(null);
      return L.act(action).then((ack) => {
        if (ack && ack.ok === false) explain(because(ack.error, ack.message));
        return ack;
      });
    }

    function actions(state) {
      const view = state.view;
      const out = [];
      const legal = (name) => L.legal(state, name);
      const button = (name, label, cls, action) => (legal(name)
        ? h('button', { type: 'button', class: cls || '', testid: 'hive-' + name.replace('_', '-'),
          onclick: () => send(action || { do: name }) }, label) : null);
      if (legal('pass')) {
        out.push(button('pass', t('hive.pass'), 'primary big'));     // the status line says why
      }
      const pending = view.pending || {};
      if (pending.undo) {
        const asking = who(view, colourOfSeat(pending.undo));
        out.push(h('p', { class: 'hive-request', testid: 'hive-undo-asked' }, t('hive.undo_asked', { side: asking })),
          button('accept_undo', t('hive.accept_undo'), 'good'), button('decline_undo', t('hive.decline'), 'bad'));
      }
      if (pending.draw) {
        const offering = who(view, colourOfSeat(pending.draw));
        out.push(h('p', { class: 'hive-request', testid: 'hive-draw-offered' }, t('hive.draw_offered', { side: offering })),
          button('accept_draw', t('hive.accept_draw'), 'good'), button('decline_draw', t('hive.decline'), 'bad'));
      }
      const last = legal('ask_undo');
      if (last && (role !== 'team' || last.seats.indexOf(page.team) >= 0)) {
        out.push(button('ask_undo', t('hive.ask_undo', { side: who(view, colourOfSeat(last.seats[0])) })));
      }
      if (legal('offer_draw')) {
        const by = role === 'team' ? mine : view.to_move;
        out.push(button('offer_draw', t('hive.offer_draw', { side: who(view, by) })));
      }
      return out.filter(Boolean);
    }

    function render(state) {
      const view = state.view;
      if (!view || view.game === undefined) return;
      parts.who.replaceChildren(...COLOURS.map((c) => h('span', { class: 'hive-side ' + c + (c === mine ? ' me' : '') },
        B().icon('Q', c), ' ', capital(who(view, c)), c === mine ? ' ' + t('hive.this_phone') : '')));
      parts.status.textContent = turnText(view, role, mine);
      parts.status.className = 'hive-status' + (view.over ? ' over' : '')
        + (role === 'team' && !view.over && view.to_move === mine ? ' mine' : '');
      if (explained && state.seq !== explained.seq) explain(null);
      parts.actions.replaceChildren(...actions(state));
      B().render(parts.board, view, {
        t: t,
        onPlay: (move) => send({ do: 'move', move: move }),
        onExplain: (why) => {
          explain(why ? because(why.rule, why.message) : null);
          if (why) explained.seq = state.seq;
        },
      });
      if (parts.gm) teacher(state);
    }

    /* The teacher's part: the game's codes and QR codes, the projector, the teacher's
     * undo and redo, and an end with its result and reason. */
    let codes = null;
    function teacher(state) {
      const legal = (name) => L.legal(state, name);
      if (!codes) {
        codes = h('section', { class: 'hive-codes', testid: 'hive-codes', 'aria-label': t('hive.gm.codes') }, t('hive.gm.loading'));
        L.fetchJSON('/api/games/' + page.game + '/codes').then((data) => {
          if (!data || !data.teams) { codes.textContent = t('hive.gm.no_codes'); return; }
          const label = (n) => (n === 0 ? t('hive.gm.table_code') : who(state.view, colourOfSeat(n)));
          codes.replaceChildren(h('h2', null, t('hive.gm.codes')), h('div', { class: 'hive-code-grid' },
            data.teams.map((c) => h('figure', { class: 'hive-code', testid: 'hive-code-' + c.team },
              h('img', { src: '/qr/' + c.code + '.svg', alt: t('hive.gm.qr_alt', { who: label(c.team) }), width: 132, height: 132, loading: 'lazy' }),
              h('figcaption', null, h('strong', null, label(c.team)), h('br'),
                h('code', { class: 'code', testid: 'hive-join-code-' + c.team }, c.code), h('br'),
                h('a', { href: c.join_url, target: '_blank', rel: 'noopener', class: 'small' }, c.join_url))))),
          h('p', null, h('a', { href: '/projector/' + data.watch, target: '_blank', rel: 'noopener', testid: 'hive-projector-link' }, t('hive.gm.projector'))));
        });
      }
      const tools = h('div', { class: 'row' },
        legal('undo') ? h('button', { type: 'button', testid: 'hive-gm-undo', onclick: () => send({ do: 'undo' }) }, t('hive.gm.undo')) : null,
        legal('redo') ? h('button', { type: 'button', testid: 'hive-gm-redo', onclick: () => send({ do: 'redo' }) }, t('hive.gm.redo')) : null);
      const end = legal('end');
      let form = null;
      if (end) {
        const result = L.field('select', { testid: 'hive-end-result', id: 'hive-end-result', value: 'draw' },
          end.options.results.map((r) => h('option', { value: r }, r === 'draw' ? t('hive.result.draw') : t('hive.result.won', { side: who(state.view, r) }))));
        const reason = L.field('input', { testid: 'hive-end-reason', id: 'hive-end-reason', maxlength: 200, placeholder: t('hive.gm.reason_hint') });
        form = h('form', { class: 'hive-end', testid: 'hive-end', onsubmit: (e) => {
          e.preventDefault();
          send({ do: 'end', result: result.value, reason: reason.value }).then((ack) => {
            if (ack && ack.ok) { L.drafts['hive-end-reason'] = ''; }
          });
        } }, h('h2', null, t('hive.gm.end')),
        h('label', { for: 'hive-end-result' }, t('hive.gm.result')), result,
        h('label', { for: 'hive-end-reason' }, t('hive.gm.reason')), reason,
        h('button', { type: 'submit', class: 'bad', testid: 'hive-end-submit' }, t('hive.gm.end_button')));
      }
      L.section(parts.gm, JSON.stringify([legal('undo'), legal('redo'), !!end, state.view.players]), () => [tools, form, codes]);
    }

    const auth = role === 'gm' ? { role: 'gm', game: page.game }
      : role === 'projector' ? { role: 'projector', watch: page.watch }
        : { role: role, token: page.token };
    L.connect(auth, render);
  }

  window.HiveScreen = { start: start, load: load, because: because, who: who, resultText: resultText, turnText: turnText };
  const role = (L.readJSON('page', {}) || {}).role;
  const start0 = document.currentScript && document.currentScript.getAttribute('data-start');
  if (start0 === 'no') return;
  if (role === 'hall_gm' || role === 'hall_watcher') load(['board.js', 'halls.js'], () => window.HiveHalls.start(role));
  else load(['board.js'], () => start(role));
}());
