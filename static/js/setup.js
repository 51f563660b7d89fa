/* setup.js: the set-up form of a new game (templates/console/games.html).
 *
 * One click with the defaults makes a valid game: four teams "Equipo 1".."Equipo 4"
 * of four members. The settings are checked as they are typed
 * (POST /api/check-settings); team sizes can be proposed from a number of
 * students (GET /api/propose) and a pasted class list dealt into the teams
 * (POST /api/deal). Submitting POSTs JSON to /console/games.
 *
 * Test ids:
 *   game-name, students, propose, team-name-I, team-members-I, team-remove-I,
 *   team-roster-I (I = 1..6), team-add, settings-check, roster-text, roster-count,
 *   roster-duplicates, deal,
 *   bank, advanced, rounds, round-R-normal, round-R-simple, round-R-risky,
 *   round-R-individual, round-R-seconds, seconds-all, special-desvio, special-seguro,
 *   special-elijo, bank-desvio, bank-seguro, bank-elijo, exchange-cost, points-card,
 *   points-consolation, points-pifie, points-risky_bonus, max-members, language, create-game,
 *   create-error; (template) games, game-N, game-link-N, game-open-N, game-results-N, game-delete-N, banks-link,
 *   record-upload, record-file, record-continue, record-submit, games-empty, logout
 */
(function () {
  'use strict';
  const L = window.Live;
  const { t, h } = L;
  const data = L.readJSON('setup-data', { defaults: {}, banks: [] });
  const D = Object.assign({ rounds: 6, deliberation_seconds: 60, exchange_cost: 3, max_members: 6,
    special_cards: { desvio: 1, seguro: 1, elijo: 1 }, bank_special_cards: { desvio: 6, seguro: 6, elijo: 6 },
    points: { card: 1, consolation: 0.5, pifie: -0.5, risky_bonus: 4 } }, data.defaults || {});
  const SPECIAL = ['desvio', 'seguro', 'elijo'];
  const POINTS = ['card', 'consolation', 'pifie', 'risky_bonus'];
  const form = document.getElementById('setup');

  const defaultName = (i) => t('setup.team_default', { n: i + 1 });
  const model = {
    teams: [0, 1, 2, 3].map((i) => ({ name: defaultName(i), members: 4 })),
    dealt: null,
    rounds: D.rounds,
    schedule: null,
    scheduleTouched: false,
    special: Object.assign({}, D.special_cards),
    bank: Object.assign({}, D.bank_special_cards),
    cost: D.exchange_cost,
    points: Object.assign({}, D.points),
    maxMembers: D.max_members,
    language: 'es',
  };
  const LANGUAGES = data.languages || ['es', 'es-ES', 'en'];

  /** The game's default schedule for `n` rounds (round 1 normal, then challenges, the last individual). */
  function defaultSchedule(n, seconds) {
    const secs = seconds || (Array.isArray(D.deliberation_seconds) ? null : D.deliberation_seconds);
    const out = [];
    for (let r = 1; r <= n; r++) {
      out.push({
        modes: r === 1 ? ['normal'] : ['simple', 'risky'],
        individual: r === n,
        seconds: secs || (D.deliberation_seconds[r - 1] || 60),
      });
    }
    return out;
  }
  model.schedule = defaultSchedule(model.rounds);

  function settings() {
    const secs = model.schedule.map((s) => s.seconds);
    return {
      teams: model.teams.map((tm, i) => ({ name: tm.name.trim() || defaultName(i), members: tm.members })),
      rounds: model.rounds,
      round_modes: model.schedule.map((s) => s.modes.slice()),
      individual_rounds: model.schedule.map((s, i) => (s.individual ? i + 1 : 0)).filter(Boolean),
      deliberation_seconds: secs.every((s) => s === secs[0]) ? secs[0] : secs,
      special_cards: Object.assign({}, model.special),
      bank_special_cards: Object.assign({}, model.bank),
      exchange_cost: model.cost,
      points: Object.assign({}, model.points),
      max_members: model.maxMembers,
      language: model.language,          // the tablets' and projector's language (a device may choose another)
    };
  }
  const sizes = () => model.teams.map((tm) => tm.members);
  const dealtFits = () => !!model.dealt && model.dealt.length === model.teams.length &&
    model.dealt.every((names, i) => names.length === model.teams[i].members);

  /* ---- talking to the server ---------------------------------------------- */
  function postJSON(url, body) {
    return fetch(url, {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'fetch', Accept: 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json().catch(() => ({ ok: false, error: 'HTTP ' + r.status, message: r.statusText })));
  }
  const describe = (res) => [h('strong', null, res.error || ''), ' ', L.has('rule.' + res.error) ? t('rule.' + res.error) + ' — ' : '', res.message || ''];

  let checkTimer = null;
  let checkNo = 0;
  function scheduleCheck() {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 300);
  }
  /** The first field whose number cannot be read, as a sentence, or ''. */
  function unreadableText() {
    const ids = Object.keys(unreadable);
    return ids.length ? t('setup.unreadable', { n: ids.length }) + ' ' + unreadable[ids[0]] : '';
  }
  function check() {
    const no = ++checkNo;
    const box = document.querySelector('[data-testid="settings-check"]');
    const bad = unreadableText();
    if (bad && box) { box.hidden = false; box.className = 'check bad'; box.replaceChildren(bad); return; }
    postJSON('/api/check-settings', { settings: settings() }).then((res) => {
      if (no !== checkNo || !box) return;
      box.hidden = false;
      if (res.ok) { box.className = 'check ok'; box.replaceChildren(t('setup.check_ok')); }
      else { box.className = 'check bad'; box.replaceChildren(...describe(res)); }
    }).catch(() => { /* offline: the server checks again on submit */ });
  }

  function propose(students) {
    return fetch('/api/propose?students=' + encodeURIComponent(students), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((r) => r.json())
      .then((res) => {
        if (res.sizes) {
          model.teams = res.sizes.map((n, i) => ({ name: model.teams[i] ? model.teams[i].name : defaultName(i), members: n }));
          model.dealt = null;
          render();
          return true;
        }
        showCheck(res);
        return false;
      });
  }
  function showCheck(res) {
    const box = document.querySelector('[data-testid="settings-check"]');
    box.hidden = false;
    box.className = 'check bad';
    box.replaceChildren(...describe(res));
  }

  function rosterNames() {
    const area = document.querySelector('[data-testid="roster-text"]');
    return (area ? area.value : '').split('\n').map((s) => s.trim()).filter(Boolean);
  }
  /** The names the pasted class list repeats (case and spacing aside), as first written. */
  function repeatedNames(names) {
    const seen = new Map();
    for (const name of names) {
      const key = name.split(/\s+/).join(' ').toLowerCase();
      const entry = seen.get(key) || { name: name, n: 0 };
      entry.n += 1;
      seen.set(key, entry);
    }
    return Array.from(seen.values()).filter((e) => e.n > 1).map((e) => e.name);
  }
  /** Says which pasted names are repeated and how to tell them apart (hidden when none). */
  function showRepeated(el) {
    const repeated = repeatedNames(rosterNames());
    el.hidden = !repeated.length;
    el.textContent = repeated.length ? t('setup.roster_duplicates', {
      names: repeated.map((n) => '«' + n + '»').join(', '), example: repeated[0] }) : '';
  }
  function deal() {
    const names = rosterNames();
    if (!names.length) return;
    const total = sizes().reduce((a, b) => a + b, 0);
    const ready = names.length === total ? Promise.resolve(true) : propose(names.length);
    ready.then((ok) => {
      if (!ok) return;
      postJSON('/api/deal', { names: names, sizes: sizes() }).then((res) => {
        if (res.teams) { model.dealt = res.teams; render(); } else showCheck(res);
      });
    });
  }

  function submit(ev) {
    ev.preventDefault();
    const btn = form.querySelector('[data-testid="create-game"]');
    const err = form.querySelector('[data-testid="create-error"]');
    const bad = unreadableText();
    if (bad) { err.hidden = false; err.replaceChildren(bad); return; }
    btn.disabled = true;
    const name = form.querySelector('[data-testid="game-name"]').value.trim() ||
      t('setup.name_default', { date: L.date(new Date()) });
    const bank = form.querySelector('[data-testid="bank"]');
    postJSON('/console/games', {
      name: name,
      bank_id: bank && bank.value !== '' ? (isNaN(Number(bank.value)) ? bank.value : Number(bank.value)) : null,
      settings: settings(),
      roster: dealtFits() ? model.dealt : null,
    }).then((res) => {
      if (res.ok && res.url) { window.location.href = res.url; return; }
      btn.disabled = false;
      err.hidden = false;
      err.replaceChildren(...describe(res));
    }).catch((e) => {
      btn.disabled = false;
      err.hidden = false;
      err.textContent = String(e);
    });
  }

  /* ---- the form --------------------------------------------------------- */
  function changed() { scheduleCheck(); }

  /** Fields whose text is not a number, by test id: their message (nothing is sent
   *  while one is left; the settings check says which). */
  const unreadable = {};
  /** A number typed as text and read in the page's language (L.readNumber: `0,5`
   *  and `0.5` in Spanish), never guessed: an unreadable value keeps the last good one
   *  out of the settings and says why beside the field. `opts`: {integer, min, max}. */
  function numberInput(testid, value, opts, onset, attrs) {
    const note = h('span', { class: 'field-error', testid: testid + '-error', id: testid + '-error', role: 'alert', hidden: true });
    const input = h('input', Object.assign({ testid: testid, value: L.num(value), inputmode: opts.integer ? 'numeric' : 'decimal',
      autocomplete: 'off', class: 'num', 'aria-describedby': testid + '-error',
      oninput: (e) => {
        const read = L.readNumber(e.target.value, opts);
        if (read.error) { unreadable[testid] = read.error; note.textContent = read.error; }
        else { delete unreadable[testid]; onset(read.value); }
        note.hidden = !read.error;
        input.setAttribute('aria-invalid', read.error ? 'true' : 'false');
        changed();
      } }, attrs || {}));
    if (unreadable[testid]) delete unreadable[testid];
    return [input, note];
  }
  function numberField(testid, labelText, value, onset, opts) {
    return h('label', null, labelText, numberInput(testid, value, opts, onset));
  }

  function teamRows() {
    const n = model.teams.length;
    const fits = dealtFits();
    return h('div', { class: 'teamrows' }, model.teams.map((tm, i) => h('div', { class: 'teamrow' },
      h('span', { class: 'chip c' + (i + 1) }, String(i + 1)),
      h('input', { class: 'tn', testid: 'team-name-' + (i + 1), value: tm.name, maxlength: 60, 'aria-label': t('setup.team_name', { n: i + 1 }),
        oninput: (e) => { tm.name = e.target.value; changed(); } }),
      h('label', { class: 'muted' }, t('setup.members'), ' ',
        numberInput('team-members-' + (i + 1), tm.members, { integer: true, min: 1, max: 99 },
          (v) => { tm.members = v; renderRosters(); }, { 'aria-label': t('setup.members_of', { n: i + 1 }) })),
      h('button', { type: 'button', testid: 'team-remove-' + (i + 1), disabled: n <= 4, 'aria-label': t('setup.remove', { n: i + 1 }),
        onclick: () => { model.teams.splice(i, 1); render(); } }, '−'),
      h('div', { class: 'roster', testid: 'team-roster-' + (i + 1) },
        model.dealt && model.dealt[i] ? (fits ? model.dealt[i].join(', ') : t('setup.redeal')) : ''))));
  }
  function renderRosters() {
    const fits = dealtFits();
    model.teams.forEach((tm, i) => {
      const el = form.querySelector('[data-testid="team-roster-' + (i + 1) + '"]');
      if (el) el.textContent = model.dealt && model.dealt[i] ? (fits ? model.dealt[i].join(', ') : t('setup.redeal')) : '';
    });
  }

  function scheduleTable() {
    return h('table', { class: 'sched' },
      h('thead', null, h('tr', null, h('th', null, t('setup.round')), h('th', null, t('mode.normal')), h('th', null, t('mode.simple')),
        h('th', null, t('mode.risky')), h('th', null, t('setup.individual')), h('th', null, t('setup.seconds')))),
      h('tbody', null, model.schedule.map((s, i) => h('tr', null,
        h('td', null, String(i + 1)),
        ['normal', 'simple', 'risky'].map((m) => h('td', null, h('input', {
          type: 'checkbox', testid: 'round-' + (i + 1) + '-' + m, checked: s.modes.includes(m), 'aria-label': t('setup.round') + ' ' + (i + 1) + ': ' + L.mode(m),
          onchange: (e) => {
            model.scheduleTouched = true;
            s.modes = ['normal', 'simple', 'risky'].filter((x) => (x === m ? e.target.checked : s.modes.includes(x)));
            changed();
          } }))),
        h('td', null, h('input', { type: 'checkbox', testid: 'round-' + (i + 1) + '-individual', checked: s.individual,
          'aria-label': t('setup.round') + ' ' + (i + 1) + ': ' + t('setup.individual'),
          onchange: (e) => { model.scheduleTouched = true; s.individual = e.target.checked; changed(); } })),
        h('td', null, numberInput('round-' + (i + 1) + '-seconds', s.seconds, { integer: true, min: 1, max: 1800 },
          (v) => { model.scheduleTouched = true; s.seconds = v; },
          { 'aria-label': t('setup.round') + ' ' + (i + 1) + ': ' + t('setup.seconds') }))))));
  }

  function render() {
    const nameVal = (form.querySelector('[data-testid="game-name"]') || {}).value || '';
    const studentsVal = (form.querySelector('[data-testid="students"]') || {}).value || '';
    const rosterVal = (form.querySelector('[data-testid="roster-text"]') || {}).value || '';
    const advOpen = !!(form.querySelector('[data-testid="advanced"]') || {}).open;
    const rosterOpen = !!(form.querySelector('details.rosterbox') || {}).open || !!rosterVal;
    const roster = h('textarea', { testid: 'roster-text', rows: 6, value: rosterVal, placeholder: t('setup.roster_placeholder'),
      oninput: () => { count.textContent = t('setup.roster_count', { n: rosterNames().length }); showRepeated(repeated); } });
    const count = h('span', { class: 'muted', testid: 'roster-count' }, t('setup.roster_count', { n: rosterVal.split('\n').filter((s) => s.trim()).length }));
    const repeated = h('p', { class: 'check bad', role: 'status', testid: 'roster-duplicates', hidden: true });
    const students = h('input', { testid: 'students', value: studentsVal, placeholder: '29', inputmode: 'numeric', autocomplete: 'off',
      class: 'num', 'aria-label': t('setup.students'), 'aria-describedby': 'students-error',
      onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); proposeTyped(); } } });
    const studentsNote = h('span', { class: 'field-error', testid: 'students-error', id: 'students-error', role: 'alert', hidden: true });
    /** "29 students": sizes proposed by the server, once the text is a whole number. */
    const proposeTyped = () => {
      if (!students.value.trim()) return;
      const read = L.readNumber(students.value, { integer: true, min: 1, max: 1000 });
      studentsNote.hidden = !read.error;
      studentsNote.textContent = read.error || '';
      students.setAttribute('aria-invalid', read.error ? 'true' : 'false');
      if (!read.error) propose(read.value);
    };
    form.replaceChildren(
      h('div', { class: 'stack' },
        h('label', { for: 'game-name' }, t('setup.name')),
        h('input', { id: 'game-name', testid: 'game-name', value: nameVal, maxlength: 120,
          placeholder: t('setup.name_default', { date: L.date(new Date()) }) }),
        h('div', { class: 'row' }, h('label', null, t('setup.students')), students,
          h('button', { type: 'button', testid: 'propose', onclick: proposeTyped }, t('setup.propose')), studentsNote),
        h('h2', { class: 'h3' }, t('setup.teams')),
        teamRows(),
        h('div', { class: 'row' }, h('button', { type: 'button', testid: 'team-add', disabled: model.teams.length >= 6,
          onclick: () => {
            const last = model.teams[model.teams.length - 1];
            model.teams.push({ name: defaultName(model.teams.length), members: last ? last.members : 4 });
            render();
          } }, '+ ' + t('setup.add_team'))),
        h('p', { class: 'check', testid: 'settings-check', role: 'status', hidden: true }),
        h('details', { class: 'rosterbox', open: rosterOpen },
          h('summary', null, t('setup.roster')),
          h('p', { class: 'hint' }, t('setup.roster_hint')), roster,
          h('div', { class: 'row' }, h('button', { type: 'button', testid: 'deal', onclick: deal }, t('setup.deal')), count), repeated),
        h('label', { for: 'bank' }, t('setup.bank')),
        h('select', { id: 'bank', testid: 'bank' }, (data.banks || []).map((b) =>
          h('option', { value: String(b.id) }, t('setup.bank_option', { name: b.name, n: b.count })))),
        h('label', { for: 'language' }, t('setup.language')),
        h('select', { id: 'language', testid: 'language', value: model.language, 'aria-describedby': 'language-hint',
          onchange: (e) => { model.language = e.target.value; } },
          LANGUAGES.map((code) => h('option', { value: code, lang: code }, t('lang.' + code)))),
        h('p', { class: 'hint', id: 'language-hint' }, t('setup.language_hint')),
        h('details', { class: 'adv', testid: 'advanced', open: advOpen },
          h('summary', null, t('setup.advanced')),
          h('div', { class: 'stack' },
            h('div', { class: 'grid2' },
              numberField('rounds', t('setup.rounds'), model.rounds, (v) => {
                model.rounds = v;
                if (!model.scheduleTouched) model.schedule = defaultSchedule(model.rounds, model.schedule[0].seconds);
                else {
                  while (model.schedule.length < model.rounds) model.schedule.push({ modes: ['simple', 'risky'], individual: false, seconds: model.schedule[0].seconds });
                  model.schedule.length = model.rounds;
                }
                const tbl = form.querySelector('table.sched');
                tbl.replaceWith(scheduleTable());
              }, { integer: true, min: 1, max: 20 }),
              numberField('seconds-all', t('setup.seconds_all'), model.schedule[0].seconds, (v) => {
                model.schedule.forEach((x) => { x.seconds = v; });
                form.querySelector('table.sched').replaceWith(scheduleTable());
              }, { integer: true, min: 1, max: 1800 })),
            scheduleTable(),
            h('h2', { class: 'h3' }, t('setup.special_cards')),
            h('div', { class: 'grid2' }, SPECIAL.map((c) => numberField('special-' + c, L.special(c), model.special[c],
              (v) => { model.special[c] = v; }, { integer: true, min: 0, max: 10 }))),
            h('h2', { class: 'h3' }, t('setup.bank_cards')),
            h('div', { class: 'grid2' }, SPECIAL.map((c) => numberField('bank-' + c, L.special(c), model.bank[c],
              (v) => { model.bank[c] = v; }, { integer: true, min: 0, max: 50 }))),
            h('h2', { class: 'h3' }, t('setup.points')),
            h('div', { class: 'grid2' }, POINTS.map((p) => numberField('points-' + p, t('setup.points.' + p), model.points[p],
              (v) => { model.points[p] = v; }, { min: -100, max: 100 }))),
            h('div', { class: 'grid2' },
              numberField('exchange-cost', t('setup.exchange_cost'), model.cost, (v) => { model.cost = v; }, { integer: true, min: 1, max: 20 }),
              numberField('max-members', t('setup.max_members'), model.maxMembers, (v) => { model.maxMembers = v; }, { integer: true, min: 3, max: 12 })))),
        h('p', { class: 'check bad', testid: 'create-error', role: 'alert', hidden: true }),
        h('button', { type: 'submit', class: 'primary big', testid: 'create-game' }, t('setup.create'))));
    showRepeated(repeated);
    scheduleCheck();
  }

  form.addEventListener('submit', submit);
  render();
  // Deleting a past game asks first (no inline handlers: the pages' CSP forbids them).
  for (const f of document.querySelectorAll('form[data-confirm]')) {
    f.addEventListener('submit', (e) => { if (!window.confirm(f.getAttribute('data-confirm'))) e.preventDefault(); });
  }
}());
