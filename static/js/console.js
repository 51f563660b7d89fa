/* console.js: the GM console of one game (templates/console/game.html).
 *
 * Shows the round, the serpentine order, whose turn it is and what the game
 * waits for (from `legal`), the roles, the question with its expected answer,
 * the sealed written answer, and only the actions `legal` lists. The GM can
 * act for every team.
 *
 * Layout (issues 13 and 17): an action bar (#dock: sticky at the top on a laptop, fixed
 * to the bottom of a handheld ≤ 900 px) holds what the game waits for, the buttons of
 * this step, the timer while the teams deliberate, and Undo/Redo; the rest of the
 * console follows in sections. Each accepted action shows a short confirmation with
 * "Deshacer" (which also clears a stale refusal). Before the first declaration a
 * checklist guides the start; at the end the bar leads to the results.
 *
 * Test ids:
 *   dock: dock-wait, dock-actions (the step's buttons below), timerbox, see-results (game over),
 *     written-judged (the written answer being judged, above its buttons), notice (the messages)
 *   start-guide: start-projector, start-teams, start-go · toast-undo (the confirmation's undo)
 *   (template) skip-link, menu, menu-toggle
 *   bar: round, order-N (order strip, .host on the host), mode
 *   status: waiting, role-host, role-challenged, role-primary, role-secondary, role-chooser
 *   question panel: choice, question-text, question-answer, question-notes, written-live
 *   actions: declare-normal, declare-simple-N, declare-risky-N, elijo-N, desvio-N, seguro,
 *     choose-author, choose-type, choose-send, question-id, question-offer-text,
 *     question-offer-answer, question-other, question-read, write-text, write-send,
 *     write-true, write-false, time-up, verdict-full, verdict-half, verdict-wrong,
 *     pick-author, pick-type, written-true, written-false, argument-good, argument-poor,
 *     end-turn, exchange-team, exchange-card-I, exchange-take, exchange-send, end-game
 *   people: spokesperson-N, spokesperson-N-send, representative-N, representative-N-send,
 *     suggest-spokesperson-N, suggest-representative-N (a class game: who has spoken least);
 *     with a roster (a class game, a pasted class list) spokesperson-N is a choice of its names
 *   league-toggle (a class game, before the first action and once it is over: the class's
 *     league on the projector; in the start guide, and in the action bar at the end)
 *   timer: timer-display, timer-start, timer-pause, timer-resume, timer-extend, timer-restart
 *   tools: undo, redo
 *   scores: team-row-N, score-team-N, devices-N, device-N-ID, device-remove-ID, rank-I (final ranking, I = place in the list)
 *   requests: exchange-request-N, exchange-confirm-N, exchange-dismiss-N
 *   adjust: adjust-team, adjust-points, adjust-reason, adjust-send, adjustment-I
 *   history: history-turn-N
 *   (template) game-name, games-link, projector-link, record-link, join-N, join-code-N, join-url-N,
 *     join-qr-N, rotate-code-N, shortcuts
 */
(function () {
  'use strict';
  const L = window.Live;
  const { t, h } = L;
  const page = L.readJSON('page', {});
  const $ = (id) => document.getElementById(id);

  let S = null;                 // the last state
  let V = null;                 // its view
  const ui = { offer: {}, exTeam: null, exPick: [], version: 0 };
  const pending = new Set();

  function bump() { ui.version += 1; if (S) render(S); }
  /** What the game waits for, from `legal`: {step, entry} (step null when nothing). */
  const STEPS = ['declare', 'choose', 'question', 'verdict', 'pick', 'end_turn', 'written', 'argument'];
  L.stepOf = function (legal) {
    for (const s of STEPS) {
      const entry = (legal || []).find((e) => e.do === s);
      if (entry) return { step: s, entry: entry };
    }
    return { step: null, entry: null };
  };

  /** Send an action once at a time (a double click is not sent twice). Once accepted, a
   *  short confirmation with "Deshacer" replaces whatever message was shown (a stale
   *  refusal too); `label`: what the confirmation names (the button's text). */
  function send(action, label) {
    const key = JSON.stringify(action);
    if (pending.has(key)) return Promise.resolve(null);
    pending.add(key);
    return L.do(action).then((ack) => {
      pending.delete(key);
      if (ack && ack.ok !== false) confirmDone(action, label);
      return ack;
    });
  }
  function confirmDone(action, label) {
    if (action.do === 'undo') { L.toast(t('console.undone')); return; }
    if (action.do === 'redo') { L.toast(t('console.redone')); return; }
    const what = (label || '').replace(/\s+/g, ' ').trim() || t('act.title');
    const said = t('console.done', { what: what });
    L.toast([h('span', { class: 'what', title: said }, said), ' ',
      h('button', { type: 'button', class: 'undo-toast', testid: 'toast-undo', onclick: () => send({ do: 'undo' }) }, '↶ ' + t('act.undo'))]);
  }
  const cap = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

  /** A button; `said`: what its confirmation names (else its text). */
  function btn(testid, label, action, cls, title, said) {
    return h('button', { type: 'button', testid: testid, class: cls || '', title: title,
      onclick: (e) => (typeof action === 'function' ? action(e) : send(action, said || e.currentTarget.textContent)) }, label);
  }
  const teamText = (n) => L.teamText(V, n);
  const teamLabel = (n) => L.teamLabel(V, n);
  const sigOf = (...parts) => JSON.stringify([S.seq, ui.version, ...parts]);

  /* ---- top bar: round, order, mode ------------------------------------ */
  function renderBar() {
    L.section($('bar'), sigOf(), () => {
      const turn = V.turn;
      const order = h('ol', { class: 'order', 'aria-label': t('order.title') },
        V.order.map((n, i) => h('li', {
          testid: 'order-' + n,
          class: (n === turn.host && !V.over ? 'host' : '') + (i < V.position || V.over ? ' done' : ''),
          'aria-current': n === turn.host && !V.over ? 'step' : null,
        }, L.chip(n), h('span', { class: 'tname' }, L.teamName(V, n)))));
      return [
        h('span', { class: 'round', testid: 'round' },
          V.over ? t('game.over') : t('round.n_of', { n: V.round, total: V.rounds })),
        h('span', { class: 'dir' }, V.round % 2 ? '→' : '←'),
        order,
        V.over ? null : h('span', { class: 'mode badge', testid: 'mode' },
          turn.mode ? L.mode(turn.mode) : t('round.allows', { modes: V.round_modes.map(L.mode).join(' / ') })),
        V.individual && !V.over ? h('span', { class: 'badge warn' }, t('round.individual')) : null,
        V.over ? '' : h('span', { class: 'muted' }, t('turn.n', { n: turn.number })),
      ];
    });
  }

  /* ---- what the game waits for, and the roles -------------------------- */
  function waiting() {
    const turn = V.turn;
    const { step, entry } = L.stepOf(S.legal);
    const lines = [];
    let who = null;
    if (V.over) return { who: null, lines: [t('wait.over')] };
    switch (step) {
      case 'declare': who = turn.host; lines.push(t('wait.declare', { team: teamText(turn.host) })); break;
      case 'choose': {
        who = turn.chooser;
        lines.push(t('wait.choose', { team: teamText(turn.chooser) }));
        const d = L.legal(S, 'desvio');
        if (d) lines.push(t('wait.desvio_open', { team: teamText(d.teams[0]) }));
        const s = L.legal(S, 'seguro');
        if (s) lines.push(t('wait.seguro_open', { team: teamText(s.teams[0]) }));
        break;
      }
      case 'question': lines.push(t('wait.question')); break;
      case 'verdict':
        who = L.legal(S, 'write') ? turn.secondary : turn.primary;
        if (L.legal(S, 'write')) lines.push(t('wait.write', { team: teamText(turn.secondary) }));
        else if (turn.secondary) lines.push(t(turn.has_written ? 'wait.write_locked' : 'wait.write_none', { team: teamText(turn.secondary) }));
        lines.push(t('wait.verdict', { team: teamText(turn.primary) }));
        break;
      case 'pick': who = entry.teams[0]; lines.push(t('wait.pick', { team: teamText(entry.teams[0]) })); break;
      case 'end_turn': lines.push(t('wait.end_turn')); break;
      case 'written': lines.push(t('wait.written', { team: teamText(turn.secondary) })); break;
      case 'argument': who = turn.secondary; lines.push(t('wait.argument', { team: teamText(turn.secondary) })); break;
      default: break;
    }
    if (L.legal(S, 'elijo') && (step === 'declare' || step === 'choose')) lines.push(t('wait.elijo_open'));
    return { who: who, lines: lines };
  }

  function renderStatus() {
    L.section($('status'), sigOf(), () => {
      const turn = V.turn;
      const w = waiting();
      const out = [h('div', { class: 'waiting', testid: 'waiting' },
        w.who ? L.chip(w.who) : h('span', { class: 'chip gm' }, t('role.gm_short')),
        h('div', null, w.lines.map((line, i) => h(i ? 'p' : 'strong', { class: i ? 'sub' : '' }, line))))];
      if (!V.over) {
        const roles = [['role-host', t('role.host'), turn.host]];
        if (turn.mode && turn.mode !== 'normal') {
          roles.push(['role-challenged', t('role.challenged'), turn.target]);
        }
        if (turn.mode) roles.push(['role-primary', t('role.primary'), turn.primary]);
        if (turn.secondary) roles.push(['role-secondary', t('role.secondary'), turn.secondary]);
        roles.push(['role-chooser', t('role.chooser'), turn.chooser]);
        out.push(h('dl', { class: 'roles' }, roles.map(([id, label, n]) => h('div', { testid: id },
          h('dt', null, label), h('dd', null, n ? teamLabel(n) : '—')))));
        const played = [];
        if (turn.desvio_by) played.push(t('played.desvio', { team: teamText(turn.desvio_by), from: teamText(turn.first_target), to: teamText(turn.target) }));
        if (turn.seguro_by) played.push(t('played.seguro', { team: teamText(turn.seguro_by) }));
        if (turn.elijo_by) played.push(t('played.elijo', { team: teamText(turn.elijo_by) }));
        if (played.length) out.push(h('ul', { class: 'played' }, played.map((p) => h('li', null, p))));
        if (turn.awards.length) out.push(h('p', { class: 'awards' }, h('strong', null, t('turn.awards') + ': '), awardsText(turn.awards)));
      } else {
        out.push(ranking(V.standings || []));
      }
      return out;
    });
  }

  function awardsText(awards) {
    if (!awards || !awards.length) return '—';
    return awards.map(([n, what]) => t('team.n', { n: n }) + ': ' + L.card(what)).join(' · ');
  }

  function ranking(rows) {
    const cols = ['rank.place', 'rank.team', 'rank.score', 'rank.cards', 'rank.pifies'].map((k) => t(k));
    return h('table', { class: 'rank stacks' },
      h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', null, rows.map((r, i) => h('tr', { testid: 'rank-' + (i + 1), 'data-team': r.team, 'data-rank': r.rank },
        h('td', { class: 'place', 'data-label': cols[0] }, String(r.rank)), h('td', { class: 'team' }, teamLabel(r.team)),
        h('td', { class: 'score', 'data-label': cols[2] }, L.num(r.score)),
        h('td', { 'data-label': cols[3] }, String(r.cards)), h('td', { 'data-label': cols[4] }, String(r.pifies))))));
  }

  /* ---- question: the chosen author and type, text, answer, sealed answer */
  function renderQuestion() {
    $('question').hidden = V.over;
    L.section($('question'), sigOf(), () => {
      const turn = V.turn;
      const out = [h('h2', null, t('question.title'))];
      if (turn.author) {
        out.push(h('p', { testid: 'choice', class: 'choice' },
          h('strong', null, turn.author), ' · ', L.qtype(turn.type)));
      } else out.push(h('p', { class: 'muted' }, t('question.not_chosen')));
      const q = turn.question;
      if (q) {
        out.push(L.rich('div', { class: 'qtext', testid: 'question-text' }, q, page.game));
        out.push(h('div', { class: 'answer' }, h('strong', null, t('question.answer') + ': '),
          q.answer ? L.rich('span', { testid: 'question-answer' }, q, page.game, 'answer_html')
            : h('span', { testid: 'question-answer', class: 'muted' }, t('question.no_expected_answer'))));
        if (q.notes) out.push(h('p', { class: 'notes muted', testid: 'question-notes' }, q.notes));
        out.push(h('p', { class: 'muted small' }, 'id: ' + q.id));
      }
      if (turn.secondary) {
        const sealed = turn.verdict == null;
        out.push(h('div', { class: 'written' + (sealed ? ' sealed' : '') },
          h('strong', null, t(sealed ? 'written.sealed_by' : 'written.by', { team: teamText(turn.secondary) })),
          ' ', turn.locked ? h('span', { class: 'badge' }, t('written.locked')) : null,
          h('div', { class: 'wtext', testid: 'written-live' },
            turn.written != null && turn.written.trim() !== '' ? turn.written : t('written.none')),
          turn.written_correct != null ? h('span', { class: 'badge' }, t(turn.written_correct ? 'written.correct' : 'written.incorrect')) : null));
      }
      return out;
    });
  }

  /* ---- the actions `legal` offers --------------------------------------- */
  function declareBlock(entry) {
    const modes = entry.options.modes || {};
    const host = entry.teams[0] || V.turn.host;
    const out = [h('p', { class: 'sr-only' }, t('act.declare_for', { team: teamText(host) }))];
    for (const mode of ['normal', 'simple', 'risky']) {
      if (!(mode in modes)) continue;
      if (mode === 'normal') {
        out.push(h('div', { class: 'row' }, btn('declare-normal', cap(L.mode('normal')), { do: 'declare', mode: 'normal' }, 'primary')));
      } else {
        out.push(h('div', { class: 'row targets' }, h('span', { class: 'lbl' }, cap(L.mode(mode)) + ' →'),
          modes[mode].map((n) => btn('declare-' + mode + '-' + n, [h('span', { class: 'sr-only' }, cap(L.mode(mode)) + ' → '),
            L.chip(n), h('span', { class: 'tname' }, L.teamName(V, n))],
            { do: 'declare', mode: mode, target: n }, 'primary target', null,
            t('console.challenge_to', { mode: cap(L.mode(mode)), team: teamText(n) })))));
      }
    }
    return out;
  }

  function chooseBlock(entry) {
    const choices = entry.options.choices || [];
    const authors = Array.from(new Set(choices.map((c) => c.author)));
    let author = L.drafts['choose-author'];
    if (!authors.includes(author)) author = authors[0];
    L.drafts['choose-author'] = author;
    const types = choices.filter((c) => c.author === author);
    let type = L.drafts['choose-type'];
    if (!types.some((c) => c.type === type)) type = types.length ? types[0].type : '';
    L.drafts['choose-type'] = type;
    const authorSel = h('select', { testid: 'choose-author', 'aria-label': t('console.choose_author'), value: author, onchange: (e) => { L.drafts['choose-author'] = e.target.value; bump(); } },
      authors.map((a) => h('option', { value: a }, a + ' (' + choices.filter((c) => c.author === a).reduce((s, c) => s + c.left, 0) + ')')));
    const typeSel = h('select', { testid: 'choose-type', 'aria-label': t('console.choose_type'), value: type, onchange: (e) => { L.drafts['choose-type'] = e.target.value; } },
      types.map((c) => h('option', { value: c.type }, L.qtype(c.type) + ' — ' + t('choose.left', { n: c.left }))));
    return [h('p', { class: 'sr-only' }, t('act.choose_for', { team: teamText(entry.teams[0] || V.turn.chooser) })),
      choices.length ? h('div', { class: 'row choose' }, authorSel, typeSel,
        btn('choose-send', t('act.choose'), () => send({ do: 'choose', author: authorSel.value, type: typeSel.value },
          authorSel.value + ' · ' + L.qtype(typeSel.value)), 'primary'))
        : h('p', { class: 'error' }, t('choose.none_left'))];
  }

  function questionInfo(entry, id) {
    // The server sends the GM the unused questions of the choice as `candidates`.
    const qs = S.candidates || entry.options.questions;
    if (!qs) return null;
    if (Array.isArray(qs)) return qs.find((q) => q.id === id) || null;
    return qs[id] || null;
  }

  function offeredId(entry) {
    const ids = entry.options.ids || [];
    const key = V.turn.number + '|' + ids.join(',');
    if (!(key in ui.offer)) ui.offer = { [key]: Math.floor(Math.random() * Math.max(ids.length, 1)) };
    return { ids: ids, key: key, id: ids.length ? ids[ui.offer[key] % ids.length] : null };
  }
  function questionButtons(entry) {
    const { ids, key, id } = offeredId(entry);
    if (!id) return [];
    return [h('div', { class: 'row' },
      btn('question-read', t('act.read'), { do: 'question', id: id }, 'primary', 'Q'),
      ids.length > 1 ? btn('question-other', t('act.other', { n: ids.length }), () => { ui.offer[key] += 1; bump(); }, '', 'O') : null)];
  }
  function questionBlock(entry) {
    const { ids, id } = offeredId(entry);
    const q = id ? questionInfo(entry, id) : null;
    const out = [h('h3', null, t('act.question', { n: ids.length }))];
    if (!id) { out.push(h('p', { class: 'error' }, t('choose.none_left'))); return out; }
    out.push(h('div', { class: 'offer' },
      h('p', { class: 'muted small', testid: 'question-id' }, id),
      q ? h('p', { class: 'qtext', testid: 'question-offer-text' }, q.text) : null,
      q ? h('p', { class: 'answer' }, h('strong', null, t('question.answer') + ': '),
        h('span', { testid: 'question-offer-answer', class: q.answer ? null : 'muted' }, q.answer || t('question.no_expected_answer'))) : null,
      q && q.notes ? h('p', { class: 'notes muted' }, q.notes) : null));
    return out;
  }

  function writeBlock(entry) {
    const team = entry.teams[0] || V.turn.secondary;
    const isVF = V.turn.type === 'vf';
    const box = L.field(V.turn.type === 'abierta' ? 'textarea' : 'input', {
      testid: 'write-text', rows: 3, maxlength: 2000, placeholder: t('write.placeholder.' + (V.turn.type || 'abierta')),
    });
    return [h('h3', null, t('act.write_for', { team: teamText(team) })),
      isVF ? h('div', { class: 'row' },
        btn('write-true', t('write.true'), { do: 'write', team: team, text: 'V' }),
        btn('write-false', t('write.false'), { do: 'write', team: team, text: 'F' })) : null,
      h('div', { class: 'row' }, box,
        btn('write-send', t('act.write'), () => send({ do: 'write', team: team, text: box.value }, t('act.write') + ' · ' + teamText(team)).then((ack) => {
          if (ack && ack.ok) { L.drafts['write-text'] = ''; box.value = ''; }
        })))];
  }

  function exchangeBlock(entry) {
    const opts = entry.options;
    const teams = Object.keys(opts.cards || {}).map(Number);
    if (!teams.length) return [];
    if (!teams.includes(ui.exTeam)) { ui.exTeam = teams[0]; ui.exPick = []; }
    const cards = opts.cards[String(ui.exTeam)] || [];
    ui.exPick = ui.exPick.filter((i) => i < cards.length);
    const take = h('select', { testid: 'exchange-take', value: L.drafts['exchange-take'] || opts.take[0],
      onchange: (e) => { L.drafts['exchange-take'] = e.target.value; } },
    opts.take.map((c) => h('option', { value: c }, L.special(c))));
    return [h('details', { class: 'exchange', open: ui.exOpen, ontoggle: (e) => { ui.exOpen = e.target.open; } },
      h('summary', null, t('exchange.title', { n: opts.cost })),
      h('div', { class: 'row' },
        h('select', { testid: 'exchange-team', value: String(ui.exTeam),
          onchange: (e) => { ui.exTeam = Number(e.target.value); ui.exPick = []; bump(); } },
        teams.map((n) => h('option', { value: String(n) }, teamText(n))))),
      h('div', { class: 'row cardpick' }, cards.map((c, i) => h('button', {
        type: 'button', testid: 'exchange-card-' + i, class: ui.exPick.includes(i) ? 'on' : '',
        'aria-pressed': ui.exPick.includes(i) ? 'true' : 'false',
        onclick: () => {
          ui.exPick = ui.exPick.includes(i) ? ui.exPick.filter((x) => x !== i) : ui.exPick.concat([i]).slice(-opts.cost);
          bump();
        },
      }, L.card(c)))),
      h('div', { class: 'row' }, t('exchange.take'), take,
        h('button', { type: 'button', testid: 'exchange-send', class: 'primary', disabled: ui.exPick.length !== opts.cost,
          onclick: () => send({ do: 'exchange', team: ui.exTeam, give: ui.exPick.map((i) => cards[i]), take: take.value }, t('exchange.confirm') + ' · ' + teamText(ui.exTeam))
            .then((ack) => { if (ack && ack.ok) { ui.exPick = []; bump(); } }) },
        t('exchange.confirm'))))];
  }

  /** The buttons of what the game waits for now: the action bar (#dock-actions). */
  function stepButtons() {
    const turn = V.turn;
    const { step, entry } = L.stepOf(S.legal);
    const out = [];
    if (V.over) {
      out.push(h('div', { class: 'row' },
        h('a', { class: 'button primary big', href: page.results, testid: 'see-results' }, t('console.see_results')),
        leagueToggle()));
      return out;
    }
    if (step === 'declare') out.push(declareBlock(entry));
    if (step === 'choose') out.push(chooseBlock(entry));
    if (step === 'question') out.push(questionButtons(entry));
    if (step === 'verdict') {
      out.push(h('div', { class: 'row verdicts' },
        btn('verdict-full', '1 · ' + L.verdict('full'), { do: 'verdict', result: 'full' }, 'good big', '1'),
        btn('verdict-half', '2 · ' + L.verdict('half'), { do: 'verdict', result: 'half' }, 'big', '2'),
        btn('verdict-wrong', '3 · ' + L.verdict('wrong'), { do: 'verdict', result: 'wrong' }, 'bad big', '3'),
        L.legal(S, 'time_up') && turn.secondary ? btn('time-up', t('act.time_up'), { do: 'time_up' }) : null));
    }
    if (step === 'pick') {
      const team = entry.teams[0];
      out.push(h('div', { class: 'row labelled' },
        h('span', { class: 'lbl' }, t('act.pick_for', { team: teamText(team) })),
        btn('pick-author', t('pick.author', { name: turn.author }), { do: 'pick', team: team, card: 'author' }, 'primary'),
        btn('pick-type', t('pick.type', { name: L.qtype(turn.type) }), { do: 'pick', team: team, card: 'type' }, 'primary')));
    }
    const written = L.legal(S, 'written');
    if (written) {
      const both = (written.options.correct || []).includes(true);
      const text = turn.written != null && turn.written.trim() !== '' ? turn.written : null;
      // The answer being judged sits right above its verdict buttons, in the action bar
      // (the question panel may be off screen, or under the bar on a phone).
      out.push(h('div', { class: 'row labelled judging' },
        h('span', { class: 'lbl' }, t(both ? 'act.written' : 'act.written_none', { team: teamText(turn.secondary) })),
        both && text ? h('blockquote', { class: 'judged', testid: 'written-judged', tabindex: '0' }, text) : null,
        both ? btn('written-true', t('written.correct'), { do: 'written', correct: true }, 'good') : null,
        btn('written-false', t('written.incorrect'), { do: 'written', correct: false }, both ? 'bad' : '')));
    }
    if (L.legal(S, 'argument')) {
      out.push(h('div', { class: 'row labelled' },
        h('span', { class: 'lbl' }, t('act.argument', { team: teamText(turn.secondary) })),
        btn('argument-good', t('argument.good'), { do: 'argument', result: 'good' }, 'good'),
        btn('argument-poor', t('argument.poor'), { do: 'argument', result: 'poor' }, 'bad')));
    }
    if (L.legal(S, 'end_turn')) {
      out.push(h('div', { class: 'row' }, btn('end-turn', t('act.end_turn'), { do: 'end_turn' }, 'primary big', 'E')));
    }
    return out;
  }

  /** The action bar: what the game waits for (one line) and its buttons. */
  function renderDock() {
    L.section($('dock-wait'), sigOf(), () => {
      const w = waiting();
      return [w.who ? L.chip(w.who) : h('span', { class: 'chip gm', 'aria-hidden': 'true' }, t('role.gm_short')),
        h('span', { class: 'line', title: w.lines[0] || '' }, w.lines[0] || '')];
    });
    L.section($('dock-actions'), sigOf(S.league_shown), stepButtons);
  }

  /** The rest of the turn's actions (the question on offer, writing for a team,
   *  the specials, the exchange, ending the game): the Actions card. */
  function renderActions() {
    L.section($('actions'), sigOf(S.answer_shown), () => {
      const out = [h('h2', null, t('act.title'))];
      const turn = V.turn;
      const { step, entry } = L.stepOf(S.legal);
      if (V.over) { out.push(h('p', null, t('wait.over'))); return out; }
      const desvio = L.legal(S, 'desvio');
      if (desvio) {
        out.push(h('h3', null, t('act.desvio_for', { team: teamText(desvio.teams[0]) })),
          h('div', { class: 'row' }, desvio.options.targets.map((n) =>
            btn('desvio-' + n, [L.chip(n), ' ', L.teamName(V, n)], { do: 'desvio', team: desvio.teams[0], target: n }))));
      }
      const seguro = L.legal(S, 'seguro');
      const elijo = L.legal(S, 'elijo');
      if (seguro || elijo) {
        out.push(h('div', { class: 'row specials' },
          seguro ? btn('seguro', t('act.seguro_for', { team: teamText(seguro.teams[0]) }), { do: 'seguro', team: seguro.teams[0] }) : null,
          elijo ? [h('span', { class: 'lbl' }, L.special('elijo') + ':'), elijo.teams.map((n) =>
            btn('elijo-' + n, [L.chip(n), ' ', L.teamName(V, n)], { do: 'elijo', team: n }))] : null));
      }
      if (step === 'question') out.push(questionBlock(entry));
      if (step === 'verdict') {
        const write = L.legal(S, 'write');
        if (write) out.push(writeBlock(write));
      }
      const exchange = L.legal(S, 'exchange');
      if (exchange) out.push(exchangeBlock(exchange));
      if (turn.verdict && turn.question) {
        // After the verdicts the expected answer may go up on the projector (a
        // display choice, not an action: the server refuses it before the verdicts).
        out.push(h('div', { class: 'row' }, btn('show-answer',
          t(S.answer_shown ? 'act.hide_answer' : 'act.show_answer'), () => {
            L.emit('show_answer', { show: !S.answer_shown }, true)
              .then((ack) => { if (ack && ack.ok === false) L.flash(ack); });
          }, S.answer_shown ? 'on' : '')));
      }
      if (L.legal(S, 'end_game')) {
        out.push(h('div', { class: 'row end' }, btn('end-game', t('act.end_game'), () => {
          if (window.confirm(t('act.end_game_confirm'))) send({ do: 'end_game' }, t('act.end_game'));
        }, 'bad')));
      }
      if (out.length === 1) out.push(h('p', { class: 'muted small' }, t('console.actions_in_bar')));
      return out;
    });
  }

  /* ---- the first minutes: projector, teams joined, first declaration ------ */
  function renderStart() {
    const box = $('start');
    const fresh = !V.over && !V.history.length && V.turn.number === 1 && !V.turn.mode && L.stepOf(S.legal).step === 'declare';
    box.hidden = !fresh;
    if (!fresh) { box.replaceChildren(); box._sig = null; return; }   // no stale toggle left in it
    const devices = S.devices || {};
    const joined = V.teams.filter((tm) => devices[String(tm.team)]).map((tm) => tm.team);
    const missing = V.teams.map((tm) => tm.team).filter((n) => !joined.includes(n));
    L.section(box, JSON.stringify([S.seq, joined, ui.projector, S.league_shown]), () => [
      h('h2', null, t('console.start_title')),
      h('ol', { class: 'steps' },
        h('li', { class: ui.projector ? 'done' : '', testid: 'start-projector' },
          h('a', { href: page.watch, target: '_blank', rel: 'noopener', onclick: () => { ui.projector = true; bump(); } },
            t('console.start_projector')), ui.projector ? ' ✓' : ''),
        h('li', { class: missing.length ? '' : 'done', testid: 'start-teams' },
          t('console.start_teams', { n: joined.length, total: V.teams.length }), missing.length ? null : ' ✓',
          missing.length ? [' — ', t('console.start_missing', { teams: missing.join(', ') }), ' · ',
            h('a', { href: '#joins' }, t('console.start_codes'))] : null),
        h('li', { testid: 'start-go' }, t('console.start_go', { team: teamText(V.turn.host) }))),
      leagueToggle(),
    ]);
  }

  /* ---- a class game (issue 15): the league on the projector -------------- */
  /** The toggle of the class's league on the projector: a class game (its state says
   *  `league_shown`), before the first action or once the game is over; else null. */
  function leagueToggle() {
    if (!('league_shown' in S) || !(S.seq === 0 || V.over)) return null;
    const on = !!S.league_shown;
    return h('div', { class: 'row league' },
      h('button', { type: 'button', testid: 'league-toggle', class: on ? 'on' : '', 'aria-pressed': String(on),
        title: t('console.league_hint'),
        onclick: () => post('/league', { shown: !on }).then((ack) => { if (!ack.ok) L.flash(ack); }) },
      t('console.league_show')),
      on ? h('span', { class: 'muted small', role: 'status' }, t('console.league_on')) : null);
  }

  /* ---- a class game: who could speak next (GET /console/<id>/speakers) ----- */
  // Asked again whenever a turn ends or a name is recorded; {teams: {"1": [{name, spoke}]}}.
  function refreshSpeakers() {
    if (!('league_shown' in S)) return;
    const turn = V.turn;
    const key = JSON.stringify([V.history.length, turn.number, turn.spokespersons, turn.representatives, V.over]);
    if (ui.speakersKey === key) return;
    ui.speakersKey = key;
    L.fetchJSON('/console/' + page.game + '/speakers').then((data) => {
      if (!data.ok) { ui.speakersKey = null; return; }        // asked again at the next change
      if (ui.speakersKey !== key) return;
      ui.speakers = data.teams || {};
      bump();
    });
  }
  function suggestText(m) {
    if (!m.spoke) return t('console.league_suggest_none', { name: m.name });
    if (m.spoke === 1) return t('console.league_suggest_one', { name: m.name });
    return t('console.league_suggest', { name: m.name, n: m.spoke });
  }

  /* ---- spokespersons and representatives --------------------------------- */
  function renderPeople() {
    const sp = L.legal(S, 'spokesperson');
    const rep = L.legal(S, 'representative');
    const box = $('people');
    box.hidden = (!sp && !rep) || V.over;
    if (box.hidden) return;
    L.section(box, sigOf(), () => {
      const turn = V.turn;
      // A game with a roster (a class game, or a pasted class list): each team's names are a
      // choice, so a name always points to one student ("Ana García (2)" is another one);
      // a class game also suggests who has spoken least. Without a roster: a typed name.
      const roster = (n) => {
        const names = Array.isArray(page.roster) && Array.isArray(page.roster[n - 1]) ? page.roster[n - 1] : [];
        return names.length ? names.map((name) => ({ name: name })) : null;
      };
      const members = (n) => (ui.speakers && ui.speakers[String(n)] && ui.speakers[String(n)].length ? ui.speakers[String(n)] : roster(n));
      const row = (kind, n, current) => {
        const names = members(n);
        const label = t('people.' + kind) + ' ' + teamText(n);
        const f = names
          ? L.field('select', { testid: kind + '-' + n, 'aria-label': label },
            [h('option', { value: '' }, '—')].concat(names.map((m) => m.name).sort((a, b) => a.localeCompare(b, L.lang)).map((name) => h('option', { value: name }, name))))
          : L.field('input', { testid: kind + '-' + n, placeholder: current || t('people.name'), maxlength: 200, 'aria-label': label });
        // A choice shows who is named now, unless the GM has picked another (kept across renders).
        if (names) { const d = L.drafts[kind + '-' + n]; f.value = d ? d : (current || ''); }
        const go = () => {
          if (!f.value.trim()) return;
          send({ do: kind, team: n, name: f.value.trim() }, t('people.' + kind) + ' · ' + teamText(n) + ': ' + f.value.trim()).then((ack) => {
            if (ack && ack.ok) { L.drafts[kind + '-' + n] = ''; f.value = ''; }
          });
        };
        if (!names) f.addEventListener('keydown', (e) => { if (e.key === 'Enter') go(); });
        const pick = names && 'spoke' in names[0] ? names[0] : null;
        return [h('div', { class: 'row person' }, f, btn(kind + '-' + n + '-send', '✓', go, '', t('people.save'))),
          pick ? h('button', { type: 'button', class: 'suggest', testid: 'suggest-' + kind + '-' + n, title: t('console.league_suggest_hint'),
            onclick: () => { f.value = pick.name; L.drafts[kind + '-' + n] = pick.name; f.focus(); } }, suggestText(pick)) : null];
      };
      return [h('h2', null, t(rep ? 'people.title_individual' : 'people.title')),
        h('table', { class: 'people' },
          h('thead', null, h('tr', null, h('th', null, t('rank.team')), sp ? h('th', null, t('people.spokesperson')) : null,
            rep ? h('th', null, t('people.representative')) : null)),
          h('tbody', null, V.teams.map((tm) => h('tr', null,
            h('td', null, teamLabel(tm.team)),
            sp ? h('td', null, h('span', { class: 'current' }, turn.spokespersons[String(tm.team)] || ''), row('spokesperson', tm.team, turn.spokespersons[String(tm.team)])) : null,
            rep ? h('td', null, h('span', { class: 'current' }, turn.representatives[String(tm.team)] || ''), row('representative', tm.team, turn.representatives[String(tm.team)])) : null))))];
    });
  }

  /* ---- timer ------------------------------------------------------------ */
  function timerOp(op, seconds) {
    const payload = seconds ? { op: op, seconds: seconds } : { op: op };
    return L.emit('timer', payload, false).then((ack) => { if (ack && ack.ok === false) L.flash(ack); });
  }
  function renderTimer() {
    const timer = S.timer || { state: 'idle' };
    // The timer runs only while the teams deliberate (the server refuses it otherwise):
    // the action bar shows it then, and while a clock is still shown on the projector.
    const deliberating = L.stepOf(S.legal).step === 'verdict';
    $('timerbox').hidden = V.over || (!deliberating && timer.state === 'idle');
    L.section($('timer-buttons'), JSON.stringify([timer.state, V.over, deliberating]), () => {
      const st = timer.state;
      if (!deliberating) return [];
      return [
        st === 'idle' ? btn('timer-start', t('timer.start'), () => timerOp('start'), 'primary', 'S') : null,
        st === 'running' ? btn('timer-pause', t('timer.pause'), () => timerOp('pause'), '', 'S') : null,
        st === 'paused' ? btn('timer-resume', t('timer.resume'), () => timerOp('resume'), 'primary', 'S') : null,
        btn('timer-extend', t('timer.extend'), () => timerOp('extend', 30), '', '+'),
        st !== 'idle' ? btn('timer-restart', t('timer.restart'), () => timerOp('restart')) : null,
      ];
    });
    tick();
  }
  function tick() {
    if (!S) return;
    const c = L.countdown(S.timer);
    const el = $('timer-display');
    el.textContent = c.text;
    el.className = 'bigtime ' + c.state + (c.running && c.seconds <= 10 ? ' low' : '') + (c.expired ? ' expired' : '');
  }
  L.onTick(tick);

  /* ---- undo / redo ------------------------------------------------------- */
  function renderTools() {
    $('tools').hidden = !L.legal(S, 'undo') && !L.legal(S, 'redo');
    L.section($('tools'), sigOf(), () => [
      h('button', { type: 'button', testid: 'undo', hidden: !L.legal(S, 'undo'), title: 'U', onclick: () => send({ do: 'undo' }) },
        h('span', { 'aria-hidden': 'true' }, '↶ '), h('span', { class: 'tlabel' }, t('act.undo'))),
      h('button', { type: 'button', testid: 'redo', hidden: !L.legal(S, 'redo'), title: 'R', onclick: () => send({ do: 'redo' }) },
        h('span', { 'aria-hidden': 'true' }, '↷ '), h('span', { class: 'tlabel' }, t('act.redo'))),
    ]);
  }

  /* ---- scoreboard with devices -------------------------------------------- */
  function specials(sp) {
    return ['desvio', 'seguro', 'elijo'].map((c) => h('span', { class: 'sp', title: L.special(c) }, t('special.short.' + c) + ' ' + (sp[c] || 0)));
  }
  /** POST JSON to one of this game's console routes; resolves to the answer's JSON. */
  function post(path, body) {
    return L.fetchJSON('/console/' + page.game + path, body || {});
  }
  /** The devices of a team, each with its "Quitar" (remove) button. */
  function deviceList(team, ids) {
    if (!ids || !ids.length) return null;
    return h('div', { class: 'small devlist' }, ids.map((id) => h('div', { class: 'device', testid: 'device-' + team + '-' + id },
      h('code', { title: id }, id.slice(0, 6)), ' ',
      h('button', { type: 'button', class: 'bad small', testid: 'device-remove-' + id, title: t('console.remove_device_hint'),
        onclick: () => {
          if (!window.confirm(t('console.remove_device_confirm', { id: id.slice(0, 6), team: teamText(team) }))) return;
          post('/devices/remove', { device: id }).then((ack) => { if (!ack.ok) L.flash(ack); });
        } }, t('console.remove_device')))));
  }
  function renderScores() {
    const devices = S.devices || {};
    const deviceIds = S.device_ids || {};
    // Each cell carries its column's name: on a phone the rows stack and show it (.stacks).
    const cols = ['rank.team', 'rank.score', 'score.cards', 'score.pifies', 'score.special', 'score.devices'].map((k) => t(k));
    L.section($('scores'), sigOf(devices, deviceIds), () => [
      h('h2', null, t('score.title')),
      h('table', { class: 'scores stacks' },
        h('thead', null, h('tr', null, cols.map((c, i) => h('th', { scope: 'col', class: i ? 'num' : null }, c)))),
        h('tbody', null, V.teams.map((tm) => h('tr', { testid: 'team-row-' + tm.team, class: tm.team === V.turn.host && !V.over ? 'host' : '' },
          h('td', { class: 'team' }, teamLabel(tm.team),
            tm.markers.length ? h('div', null, tm.markers.map((m) => h('span', { class: 'badge', title: t('score.markers') }, L.mode(m)))) : null,
            tm.cards.length ? h('div', { class: 'small muted' }, L.countCards(tm.cards).map(([c, k]) => L.card(c) + (k > 1 ? ' ×' + k : '')).join(', ')) : null),
          h('td', { class: 'num score', testid: 'score-team-' + tm.team, 'data-label': cols[1] }, L.num(tm.score)),
          h('td', { class: 'num', 'data-label': cols[2] }, String(tm.cards.length)),
          h('td', { class: 'num', 'data-label': cols[3] }, String(tm.pifies)),
          h('td', { class: 'specials', 'data-label': cols[4] }, specials(tm.special)),
          h('td', { class: 'num devices', 'data-label': cols[5] },
            h('span', { testid: 'devices-' + tm.team },
              h('span', { class: 'dot ' + (devices[String(tm.team)] ? 'on' : 'off'), 'aria-hidden': 'true' }),
              String(devices[String(tm.team)] || 0)),
            deviceList(tm.team, deviceIds[String(tm.team)]))))))]);
  }

  /* ---- a team's fresh join code (the old one stops working) ---------------- */
  document.querySelectorAll('[data-rotate]').forEach((button) => {
    const team = Number(button.getAttribute('data-rotate'));
    button.addEventListener('click', () => {
      if (!window.confirm(t('console.rotate_confirm', { n: team }))) return;
      post('/teams/' + team + '/code').then((ack) => {
        if (!ack.ok) { L.flash(ack); return; }
        const code = document.querySelector('[data-testid="join-code-' + team + '"]');
        const link = document.querySelector('[data-testid="join-url-' + team + '"]');
        const qr = document.querySelector('[data-testid="join-qr-' + team + '"]');
        if (code) code.textContent = ack.join_code;
        if (link) { link.href = ack.join_url; link.textContent = ack.join_url; }
        if (qr) qr.src = ack.qr_url;
      });
    });
  });

  /* ---- exchange requests ------------------------------------------------ */
  function renderRequests() {
    const reqs = S.exchange_requests || [];
    const box = $('requests');
    box.hidden = !reqs.length;
    L.section(box, sigOf(reqs), () => [h('h2', null, t('exchange.requests')),
      reqs.map((r) => h('div', { class: 'request', testid: 'exchange-request-' + r.team },
        h('p', null, teamLabel(r.team), ' ', t('exchange.gives'), ' ', h('strong', null, r.give.map(L.card).join(', ')),
          ' → ', h('strong', null, L.special(r.take))),
        h('div', { class: 'row' },
          btn('exchange-confirm-' + r.team, t('exchange.confirm'), { do: 'exchange', team: r.team, give: r.give, take: r.take }, 'primary'),
          btn('exchange-dismiss-' + r.team, t('exchange.dismiss'), () =>
            L.emit('dismiss_exchange', { team: r.team }, true).then((ack) => { if (ack && ack.ok === false) L.flash(ack); })))))]);
  }

  /* ---- adjust a score ----------------------------------------------------- */
  /** What the correction typed so far would do: {action, text, ok} (it needs a reason). */
  function adjustPlan(teamValue, pointsText, reasonText) {
    const n = Number(teamValue);
    const tm = L.teamOf(V, n);
    const read = L.readNumber(pointsText, { min: -100, max: 100 });
    const reason = reasonText.trim();
    if (!pointsText.trim()) return { ok: false, text: t('adjust.hint'), bad: false };
    if (read.error) return { ok: false, text: read.error, bad: true };
    if (read.value === 0) return { ok: false, text: t('adjust.zero'), bad: true };
    const to = Math.round((tm.score + read.value) * 1e6) / 1e6;
    const text = t('adjust.preview', { team: teamText(n), from: L.num(tm.score), to: L.num(to), points: L.signed(read.value) });
    if (!reason) return { ok: false, text: text + ' ' + t('adjust.need_reason'), bad: false };
    return { ok: true, text: text, bad: false,
      action: { do: 'adjust', team: n, points: read.value, reason: reason },
      said: t('adjust.title') + ' · ' + teamText(n) + ' ' + L.signed(read.value) };
  }
  function renderAdjust() {
    const can = !!L.legal(S, 'adjust');
    L.section($('adjust'), sigOf(can), () => {
      const team = L.field('select', { testid: 'adjust-team', 'aria-label': t('rank.team'), value: String(V.teams[0].team) },
        V.teams.map((tm) => h('option', { value: String(tm.team) }, teamText(tm.team))));
      // Text, not type=number: a number field drops the decimal comma of a Spanish
      // keyboard ("0,5" became "05"); L.readNumber reads it in the page's language.
      const points = L.field('input', { testid: 'adjust-points', inputmode: 'decimal', autocomplete: 'off',
        placeholder: '±' + L.num(0.5), 'aria-label': t('adjust.points'), 'aria-describedby': 'adjust-preview', class: 'short' });
      const reason = L.field('input', { testid: 'adjust-reason', placeholder: t('adjust.reason'), maxlength: 500, 'aria-label': t('adjust.reason') });
      const preview = h('p', { id: 'adjust-preview', testid: 'adjust-preview', class: 'small', 'aria-live': 'polite' });
      const go = btn('adjust-send', t('adjust.send'), () => {
        const plan = adjustPlan(team.value, points.value, reason.value);
        if (!plan.ok) { show(); return; }
        // Cleared as it goes out: a second click cannot apply it twice, and the state
        // that arrives before the acknowledgement redraws empty fields.
        const kept = [points.value, reason.value];
        L.drafts['adjust-points'] = ''; L.drafts['adjust-reason'] = '';
        points.value = ''; reason.value = ''; show();
        send(plan.action, plan.said).then((ack) => {
          if (ack && ack.ok === false) {
            L.drafts['adjust-points'] = kept[0]; L.drafts['adjust-reason'] = kept[1];
            const box = $('adjust');
            const p2 = box.querySelector('[data-testid="adjust-points"]');
            const r2 = box.querySelector('[data-testid="adjust-reason"]');
            if (p2) p2.value = kept[0];
            if (r2) r2.value = kept[1];
            if (p2) p2.dispatchEvent(new Event('input'));
          }
        });
      });
      const show = () => {
        const plan = adjustPlan(team.value, points.value, reason.value);
        preview.textContent = plan.text;
        preview.className = 'small' + (plan.bad ? ' bad' : '');
        points.setAttribute('aria-invalid', plan.bad ? 'true' : 'false');
        go.disabled = !plan.ok;
      };
      for (const f of [team, points, reason]) f.addEventListener('input', show);
      team.addEventListener('change', show);
      reason.addEventListener('keydown', (e) => { if (e.key === 'Enter') go.click(); });
      show();
      return [h('h2', null, t('adjust.title')),
        can ? [h('div', { class: 'row' }, team, points, reason, go), preview] : null];
    });
  }

  /* ---- history and adjustments ------------------------------------------- */
  function renderHistory() {
    L.section($('history'), sigOf(), () => {
      const rows = V.history.slice().reverse();
      const out = [h('h2', null, t('history.title'))];
      if (!rows.length) out.push(h('p', { class: 'muted' }, t('history.empty')));
      else {
        // Each cell carries its column's name: on a phone the rows stack and show it (.stacks).
        const cols = ['history.turn', 'history.round', 'role.host', 'history.mode', 'history.question', 'history.verdict',
          'history.written', 'history.awards'].map((k) => t(k));
        const cell = (i, attrs, ...kids) => h('td', Object.assign({ 'data-label': cols[i] }, attrs), ...kids);
        out.push(h('table', { class: 'history stacks' },
          h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', null, rows.map((r) => h('tr', { testid: 'history-turn-' + r.turn },
            cell(0, { class: 'num' }, String(r.turn)),
            cell(1, { class: 'num' }, String(r.round)),
            cell(2, null, L.chip(r.host)),
            cell(3, null, r.mode ? L.mode(r.mode) : '—',
              r.challenged ? [' → ', L.chip(r.challenged)] : null,
              r.desvio_by ? h('div', { class: 'small muted' }, t('special.desvio') + ': ' + r.first_target + '→' + r.challenged) : null,
              r.seguro_by ? h('div', { class: 'small muted' }, t('special.seguro') + ': ' + r.seguro_by) : null,
              r.elijo_by ? h('div', { class: 'small muted' }, t('special.elijo') + ': ' + r.elijo_by) : null),
            cell(4, { class: 'wide' }, r.author ? h('strong', null, r.author + ' · ' + L.qtype(r.type)) : '—',
              r.question_text ? h('div', { class: 'small' }, r.question_text) : null),
            cell(5, null, r.verdict ? L.verdict(r.verdict) : '—',
              r.argument ? h('div', { class: 'small' }, t('history.argument') + ': ' + t('argument.' + r.argument)) : null),
            cell(6, { class: 'wide' }, r.secondary ? [r.written != null && r.written.trim() ? r.written : t('written.none'),
              r.written_correct != null ? h('div', { class: 'small' }, t(r.written_correct ? 'written.correct' : 'written.incorrect')) : null] : '—'),
            cell(7, { class: 'wide' }, awardsText(r.awards),
              Object.keys(r.spokespersons || {}).length ? h('div', { class: 'small muted' }, t('people.spokesperson') + ': ' +
                Object.entries(r.spokespersons).map(([n, name]) => n + ' ' + name).join(', ')) : null))))));
      }
      const adj = V.adjustments || [];
      out.push(h('h3', null, t('adjust.log')));
      if (!adj.length) out.push(h('p', { class: 'muted' }, t('adjust.none')));
      else {
        out.push(h('ul', { class: 'adjlog' }, adj.map((a, i) => h('li', { testid: 'adjustment-' + i },
          t('history.turn') + ' ' + a.turn + ' · ', L.chip(a.team), ' ', h('strong', null, L.signed(a.points)), ' — ', a.reason))));
      }
      return out;
    });
  }

  function render(state) {
    S = state;
    V = state.view;
    // The page's sections follow the step (the question on offer comes first while choosing it).
    const step = V.over ? 'over' : (L.stepOf(S.legal).step || '');
    const read = ui.step === 'question' && step === 'verdict';
    ui.step = step;
    $('main').setAttribute('data-step', step);
    refreshSpeakers();
    renderDock();
    renderStart();
    renderBar();
    renderStatus();
    renderQuestion();
    renderActions();
    renderPeople();
    renderTimer();
    renderTools();
    renderScores();
    renderRequests();
    renderAdjust();
    renderHistory();
    document.title = (V.over ? '■ ' : '') + page.name + ' · ' + t('round.n_of', { n: V.round, total: V.rounds });
    if (read) revealQuestion();
  }

  /* ---- the question just read, in view beside the action bar ---------------- */
  // After "Leer esta pregunta" the GM reads the question aloud and judges against its
  // expected answer: both are scrolled into the part of the window the action bar leaves
  // free (below it on a laptop, above it on a handheld). For a few seconds, while the bar
  // changes height (the timer, the confirmation), they are kept there, unless the GM
  // scrolls the page meanwhile.
  const REVEAL_MS = 6000;
  function revealQuestion() {
    ui.reveal = Date.now() + REVEAL_MS;
    showQuestion();
  }
  function showQuestion() {
    if (!ui.reveal || Date.now() > ui.reveal) { ui.reveal = null; return; }
    const text = document.querySelector('#question [data-testid="question-text"]');
    const answer = document.querySelector('#question .answer');
    if (!text || !answer) return;
    const atBottom = getComputedStyle(dock).position === 'fixed';
    const bar = dock.getBoundingClientRect();
    const gap = 8;
    const top = atBottom ? gap : Math.max(bar.bottom, 0) + gap;
    const bottom = (atBottom ? bar.top : window.innerHeight) - gap;
    const a = text.getBoundingClientRect().top;
    const b = answer.getBoundingClientRect().bottom;
    if (a >= top && b <= bottom) return;
    // Where the band starts once scrolled: on a laptop the bar then sticks to the top.
    const topScrolled = atBottom ? gap : bar.height + gap;
    const dy = (b - a > bottom - topScrolled || a < top) ? a - topScrolled : b - bottom;
    window.scrollTo(0, Math.max(0, window.scrollY + dy));
  }
  for (const ev of ['wheel', 'touchmove']) window.addEventListener(ev, () => { ui.reveal = null; }, { passive: true });

  /* ---- keyboard shortcuts: press the button when it is on screen ---------- */
  const KEYS = { 1: ['verdict-full'], 2: ['verdict-half'], 3: ['verdict-wrong'], u: ['undo'], r: ['redo'],
    e: ['end-turn'], s: ['timer-start', 'timer-pause', 'timer-resume'], q: ['question-read'],
    o: ['question-other'], '+': ['timer-extend'] };
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    const tag = (e.target && e.target.tagName) || '';
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (e.target && e.target.isContentEditable)) return;
    const ids = KEYS[e.key.toLowerCase()];
    if (!ids) return;
    for (const id of ids) {
      const b = document.querySelector('[data-testid="' + id + '"]');
      if (b && !b.disabled && !b.hidden && b.getClientRects().length) { e.preventDefault(); b.click(); return; }
    }
  });

  /* ---- layout: the header's menu, the action bar's height, the messages ---- */
  // On a laptop the header's links are always shown; on a handheld they fold into a menu.
  const wide = window.matchMedia('(min-width: 901px)');
  const menu = $('menu');
  const syncMenu = () => { if (menu) menu.open = wide.matches; };
  if (wide.addEventListener) wide.addEventListener('change', syncMenu);
  syncMenu();
  if (menu) {
    menu.addEventListener('click', (e) => {
      if (!wide.matches && e.target.closest('a')) menu.open = false;     // a link chosen: fold it
    });
    document.addEventListener('click', (e) => {                          // a tap elsewhere folds it
      if (!wide.matches && menu.open && !menu.contains(e.target)) menu.open = false;
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !wide.matches && menu.open) { menu.open = false; menu.querySelector('summary').focus(); }
    });
  }
  // The offline banner belongs to the page's main landmark; the messages (the "Hecho"
  // confirmation with its Deshacer, a refusal) to the action bar, where they cover no
  // button and stay in view (console.css places them).
  const main = $('main');
  const dock = $('dock');
  const notice = $('notice');
  if (main && $('offline')) main.prepend($('offline'));
  if (notice) $('tools').before(notice);
  // On a handheld the action bar is fixed to the bottom: keep the page's end above it.
  // When the bar changes height (a step's buttons, a message), what the page shows right
  // beside it stays where it was: the page scrolls by as much, so the bar never grows over
  // it. The question just read stays in view meanwhile.
  let lastHeight = null;
  let lastNotice = null;
  const dockSize = () => {
    const height = dock.offsetHeight;
    const noticeShown = !!(notice && !notice.hidden);
    document.documentElement.style.setProperty('--dock-h', height + 'px');
    if (S && lastHeight != null && height !== lastHeight) {
      const grown = height - lastHeight;
      if (getComputedStyle(dock).position === 'fixed') {
        if (window.scrollY > 0 || noticeShown !== lastNotice) window.scrollBy(0, grown);
      } else if (dock.getBoundingClientRect().top <= 0.5 && window.scrollY > 0) {
        window.scrollBy(0, -grown);
      }
    }
    lastHeight = height;
    lastNotice = noticeShown;
    if (ui.reveal) showQuestion();
  };
  if (window.ResizeObserver) new ResizeObserver(dockSize).observe(dock);
  dockSize();

  const socket = L.connect({ role: 'gm', game: page.game }, render);
  // The console session ended (logout elsewhere, "log out every console", 12 h) or the
  // game was deleted: log in again, then come back here — even in the middle of a game.
  socket.on('connect_error', (err) => {
    if (err && /^auth/.test(err.message || '')) window.location.href = '/console/login?next=' + encodeURIComponent(window.location.pathname);
  });
}());
