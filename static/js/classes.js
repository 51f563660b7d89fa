/* classes.js: the page of one class (templates/console/class.html, issue 15).
 *
 * Reads #class-data ({class, banks, defaults, schemes, games, has_last_lineup, urls}) and
 * draws: the students (paste a list, add one, edit, mark as left, remove), a new game from
 * today's attendance (deal, move students, bank, questions left, create), the term league
 * (table, kept teams, chart of Charts.scoreLine), participation, the Moodle export form and
 * the class's settings. Every request is same-origin fetch with JSON; the routes are
 * facilitator/web/classes.py. User text always goes into the page as text nodes (L.h).
 *
 * Test ids:
 *   students: class-summary (the template's, kept current), student-count, students, students-empty, student-row-ID, student-left-ID,
 *     student-edit-ID, student-remove-ID, student-edit-name-ID, student-edit-email-ID,
 *     student-edit-id-ID, student-save-ID, student-cancel-ID, student-error-ID,
 *     paste-text, paste-send, paste-result, paste-errors, add-name, add-email, add-id-number,
 *     add-student, add-error, paste-duplicates, add-duplicates, duplicate-names
 *   new game: attend-ID, attend-all, attend-none, attend-count, deal-mode-fresh,
 *     deal-mode-keep, deal-teams, deal, deal-error, deal-note, lineup, team-N, team-name-N,
 *     team-count-N, move-ID, lineup-warning, bank, allow-repeats, rounds, language,
 *     game-name, questions-summary, questions-table, runs-short, questions-empty,
 *     create-game, create-error
 *   league: league-scheme, scheme-explain, league-scheme-save, league-empty, league-note,
 *     league-table, league-row-ID, teams-table, league-chart, chart-pick-ID, chart-more
 *   participation: participation-sort, participation-only-never, participation-table,
 *     participation-row-ID, never-spoke-ID, participation-empty
 *   export: export-league, export-xlsx (scheme kept in their links), moodle-identifier,
 *     moodle-measure-KEY, export-moodle, moodle-none, moodle-missing
 *   settings: class-rename, class-rename-save, class-bank, class-projector-names,
 *     settings-status; class-delete (the template's form, confirmed here)
 */
(function () {
  'use strict';
  const L = window.Live;
  const { t, h } = L;
  const data = L.readJSON('class-data', {});
  const U = data.urls || {};
  const MEASURES = ['league_points', 'league_rank', 'games_present', 'spoke', 'spokesperson',
    'representative', 'mean_rank'];
  const CHART_MAX = 6;
  const S = {
    klass: data.class,
    absent: new Set(),          // today's absent students (ids); new students count as present
    lineup: null, names: [], kept: false, mode: 'fresh',
    scheme: data.class.league_scheme, league: null, part: null, chartPick: null,   // chartPick: a Set of ids
    sort: 'name', onlyNever: false, editing: null,
  };
  const $ = (id) => document.getElementById(id);
  const q = (root, id) => root.querySelector('[data-testid="' + id + '"]');

  /* ---- small helpers ------------------------------------------------------ */
  /** `key` with n filled, or its `_one` form for exactly one. */
  function plural(key, n, params) {
    if (n === 1 && L.has(key + '_one')) return t(key + '_one', params);
    return t(key, Object.assign({ n: n }, params || {}));
  }
  const send = (url, body) => L.fetchJSON(url, body || {});
  const get = (url) => L.fetchJSON(url);
  /** A refusal as nodes: the rule's summary linked to the rule book (the id only in the
   *  tooltip, issue 13), and the server's detail, translated where it is a known one. */
  function refusal(res) {
    const rule = res.error || '';
    const summary = L.has('rule.' + rule) ? t('rule.' + rule) : '';
    const detail = res.message ? why(res.message) : '';
    const isRule = /^R-[A-Z][0-9]+$/.test(rule);
    const showDetail = detail && (!isRule || L.lang === 'en' || detail !== res.message);
    return [L.ruleLink(rule, isRule ? rule + (detail ? ' — ' + detail : '') : detail, summary || rule),
      showDetail ? ' ' + detail.charAt(0).toUpperCase() + detail.slice(1) : ''];
  }
  /** The server's English messages about a student, in the page's language. */
  function why(message) {
    const m = String(message);
    let x;
    if ((x = /^line (\d+): (.*)$/.exec(m))) return t('classes.paste.line', { n: x[1], why: why(x[2]) });
    if (m === 'a student needs a name') return t('classes.why.no_name');
    if (m === 'more than a name, an e-mail and an ID number') return t('classes.why.more');
    if (m === 'the e-mail or ID number is not valid text') return t('classes.why.text');
    if ((x = /^a name has at most (\d+) characters$/.exec(m))) return t('classes.why.long_name', { max: x[1] });
    if ((x = /^an ID number has at most (\d+) characters$/.exec(m))) return t('classes.why.long_id', { max: x[1] });
    if ((x = /^a class lists at most (\d+) students$/.exec(m))) return t('classes.why.too_many', { max: x[1] });
    if ((x = /^(['"])(.*)\1 is not an e-mail address$/.exec(m))) return t('classes.why.email', { value: x[2] });
    if ((x = /^the (name|e-mail|ID number|class name) holds an invisible control character \((U\+[0-9A-F]{4})\)/.exec(m))) {
      return t('classes.why.control_' + { name: 'name', 'e-mail': 'email', 'ID number': 'id', 'class name': 'class' }[x[1]], { code: x[2] });
    }
    if ((x = /^(\d+) students cannot make 4 to 6 teams of 3 to (\d+): the game takes (\d+) to (\d+) students$/.exec(m))) {
      return t('classes.why.players', { n: x[1], size: x[2], min: x[3], max: x[4] });
    }
    if ((x = /^(\d+) students cannot make (\d+) teams of 3 to (\d+)$/.exec(m))) {
      return t('classes.why.teams_of', { n: x[1], teams: x[2], size: x[3] });
    }
    return m;
  }
  /** Replace `el`'s children with `kids` (nodes, text, nested arrays; null and false skipped). */
  function fill(el, ...kids) {
    el.replaceChildren(...kids.flat(Infinity).filter((k) => k != null && k !== false && k !== ''));
  }
  function show(el, kids, kind) {
    el.hidden = !kids;
    if (kind) el.className = kind;
    fill(el, kids);
  }
  const students = () => S.klass.students;
  const active = () => students().filter((s) => !s.left);
  const present = () => active().filter((s) => !S.absent.has(s.id));
  const nameOf = (id) => (students().find((s) => s.id === id) || { name: '?' }).name;
  const teamDefault = (i) => t('classes.new.team_default', { n: i + 1 });
  const teamName = (i) => (S.names[i] || '').trim() || teamDefault(i);
  function baseSettings() {
    const saved = S.klass.settings || {};
    return Object.keys(saved).length ? saved : (data.defaults || {});
  }
  const maxMembers = () => Number(baseSettings().max_members) || 6;

  /* ---- 1. students -------------------------------------------------------- */
  function studentsChanged() {
    const summary = document.querySelector('[data-testid="class-summary"]');
    if (summary) {
      summary.textContent = plural('classes.students_n', active().length) + ' · ' + plural('classes.games_n', (data.games || []).length);
    }
    renderStudentList();
    renderAttendance();
    renderMoodleMissing();
  }
  function renderStudentList() {
    const all = students();
    const left = all.filter((s) => s.left).length;
    show(q($('students-box'), 'student-count'),
      [plural('classes.students.count', all.length - left), left ? ' · ' + plural('classes.students.count_left', left) : '']);
    const list = $('student-list');
    fill(list, all.length
      ? h('ul', { class: 'students', testid: 'students' }, all.map((s) => (S.editing === s.id ? editRow(s) : studentRow(s))))
      : h('p', { class: 'muted', testid: 'students-empty' }, t('classes.students.none')));
  }
  function studentRow(s) {
    const meta = [s.email, s.id_number].filter(Boolean).join(' · ');
    return h('li', { class: 'student' + (s.left ? ' gone' : ''), testid: 'student-row-' + s.id },
      h('span', { class: 'who' }, h('span', { class: 'sname' }, s.name), meta ? h('span', { class: 'smeta' }, meta) : null),
      h('span', { class: 'acts' },
        h('label', { class: 'toggle' }, h('input', { type: 'checkbox', testid: 'student-left-' + s.id, checked: !!s.left,
          'aria-label': t('classes.students.left_of', { name: s.name }), onchange: (e) => setLeft(s, e.target.checked) }),
        ' ' + t('classes.students.left')),
        h('button', { type: 'button', testid: 'student-edit-' + s.id, 'aria-label': t('classes.students.edit_of', { name: s.name }),
          onclick: () => { S.editing = s.id; renderStudentList(); focusTest('student-edit-name-' + s.id); } }, t('classes.students.edit')),
        h('button', { type: 'button', class: 'bad', testid: 'student-remove-' + s.id,
          'aria-label': t('classes.students.remove_of', { name: s.name }), onclick: () => removeStudent(s) }, t('classes.students.remove'))));
  }
  function editRow(s) {
    const field = (key, label, value, type) => h('label', { class: 'field' }, label,
      h('input', { type: type || 'text', testid: 'student-edit-' + key + '-' + s.id, value: value || '', maxlength: key === 'name' ? 100 : 200 }));
    const row = h('li', { class: 'student editing', testid: 'student-row-' + s.id },
      h('form', { class: 'editform', novalidate: true, onsubmit: (e) => { e.preventDefault(); saveStudent(s, row); } },
        field('name', t('classes.students.name'), s.name),
        field('email', t('classes.students.email'), s.email, 'email'),
        field('id', t('classes.students.id_number'), s.id_number),
        h('span', { class: 'acts' },
          h('button', { type: 'submit', class: 'primary', testid: 'student-save-' + s.id }, t('classes.students.save')),
          h('button', { type: 'button', testid: 'student-cancel-' + s.id, onclick: () => { S.editing = null; renderStudentList(); } },
            t('classes.students.cancel'))),
        h('p', { class: 'error', role: 'alert', testid: 'student-error-' + s.id, hidden: true })));
    return row;
  }
  function focusTest(id) {
    const el = document.querySelector('[data-testid="' + id + '"]');
    if (el) el.focus();
  }
  function replaceStudent(student) {
    S.klass.students = students().map((s) => (s.id === student.id ? student : s));
  }
  function saveStudent(s, row) {
    const val = (k) => q(row, 'student-edit-' + k + '-' + s.id).value;
    send(U.students + '/' + s.id, { name: val('name'), email: val('email'), id_number: val('id') }).then((res) => {
      if (!res.ok) { show(q(row, 'student-error-' + s.id), refusal(res)); return; }
      replaceStudent(res.student);
      S.editing = null;
      studentsChanged();
      focusTest('student-edit-' + s.id);
    });
  }
  function setLeft(s, left) {
    send(U.students + '/' + s.id, { left: left }).then((res) => {
      if (!res.ok) { L.flash(res); renderStudentList(); return; }
      replaceStudent(res.student);
      studentsChanged();
      focusTest('student-left-' + s.id);
    });
  }
  function removeStudent(s) {
    if (!window.confirm(t('classes.students.remove_confirm', { name: s.name }))) return;
    send(U.students + '/' + s.id + '/delete', {}).then((res) => {
      if (!res.ok) { L.flash(res); return; }
      S.klass.students = students().filter((x) => x.id !== s.id);
      if (S.lineup) S.lineup = S.lineup.map((team) => team.filter((id) => id !== s.id));
      studentsChanged();
      renderLineup();
      L.toast(t('classes.students.removed', { name: s.name }));
    });
  }
  function pasteForm() {
    const area = h('textarea', { id: 'paste-text', testid: 'paste-text', rows: 6, placeholder: t('classes.paste.placeholder'),
      'aria-describedby': 'paste-hint', spellcheck: 'false' });
    return h('details', { class: 'paste', open: students().length === 0 },
      h('summary', null, t('classes.paste.title')),
      h('p', { class: 'hint', id: 'paste-hint' }, t('classes.paste.hint')),
      h('label', { for: 'paste-text', class: 'sr-only' }, t('classes.paste.title')), area,
      h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', testid: 'paste-send', onclick: () => paste(area) },
        t('classes.paste.send'))),
      h('p', { class: 'check ok', role: 'status', testid: 'paste-result', hidden: true }),
      h('div', { class: 'check warn', role: 'alert', testid: 'paste-duplicates', hidden: true }),
      h('div', { class: 'check bad', role: 'alert', testid: 'paste-errors', hidden: true }));
  }
  function paste(area) {
    const text = area.value;
    if (!text.trim()) return;
    const box = area.closest('details');
    send(U.students, { text: text }).then((res) => {
      const result = q(box, 'paste-result');
      const errors = q(box, 'paste-errors');
      if (!res.ok) { show(result, null); show(errors, refusal(res)); return; }
      S.klass.students = res.students;
      show(result, plural('classes.paste.added', res.added));
      show(q(box, 'paste-duplicates'), duplicatesNote(res.duplicates));
      show(errors, res.errors.length ? [h('p', null, t('classes.paste.errors')),
        h('ul', null, res.errors.map((e) => h('li', null, why(e), lineOf(text, e))))] : null);
      area.value = failedLines(text, res.errors).join('\n');
      studentsChanged();
    });
  }
  /** Students added under a name another student has too, named with their pasted lines,
   *  and how to tell them apart (null when there is none). */
  function duplicatesNote(duplicates) {
    if (!duplicates || !duplicates.length) return null;
    return [h('p', null, t('classes.paste.duplicates')),
      h('ul', { testid: 'duplicate-names' }, duplicates.map((d) => h('li', null,
        d.lines.length > 1 || (d.lines.length && !d.existing)
          ? t('classes.paste.duplicate_lines', { name: d.name, lines: d.lines.join(', ') })
          : t('classes.paste.duplicate_existing', { name: d.name, n: d.existing })))),
      h('p', null, t('classes.paste.duplicates_fix', { example: duplicates[0].name }))];
  }
  /** The pasted line an error names ("line 40: ..."), as « — "text"». */
  function lineOf(text, error) {
    const m = /^line (\d+):/.exec(error);
    const line = m ? text.split(/\r\n|\r|\n/)[Number(m[1]) - 1] : null;
    return line ? h('span', { class: 'pasted' }, ' — ' + line.trim().slice(0, 120)) : null;
  }
  function failedLines(text, errors) {
    const lines = text.split(/\r\n|\r|\n/);
    return errors.map((e) => /^line (\d+):/.exec(e)).filter(Boolean).map((m) => lines[Number(m[1]) - 1]);
  }
  function addForm() {
    const field = (id, label, type, extra) => h('label', { class: 'field', for: id }, label, extra || null,
      h('input', { id: id, testid: id, type: type || 'text', maxlength: id === 'add-name' ? 100 : 200, required: id === 'add-name' }));
    const opt = h('span', { class: 'muted' }, ' ' + t('classes.add.optional'));
    const form = h('form', { class: 'addform', testid: 'add-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); addOne(form); } },
      h('h3', null, t('classes.add.title')),
      h('div', { class: 'fields' },
        field('add-name', t('classes.students.name')),
        field('add-email', t('classes.students.email'), 'email', opt),
        field('add-id-number', t('classes.students.id_number'), 'text', opt.cloneNode(true)),
        h('button', { type: 'submit', testid: 'add-student' }, t('classes.add.send'))),
      h('p', { class: 'error', role: 'alert', testid: 'add-error', hidden: true }),
      h('div', { class: 'check warn', role: 'alert', testid: 'add-duplicates', hidden: true }));
    return form;
  }
  function addOne(form) {
    const val = (id) => q(form, id).value;
    send(U.students, { name: val('add-name'), email: val('add-email'), id_number: val('add-id-number') }).then((res) => {
      if (!res.ok) { show(q(form, 'add-error'), refusal(res)); return; }
      show(q(form, 'add-error'), null);
      show(q(form, 'add-duplicates'), duplicatesNote(res.duplicates));
      S.klass.students = res.students;
      for (const id of ['add-name', 'add-email', 'add-id-number']) q(form, id).value = '';
      studentsChanged();
      q(form, 'add-name').focus();
    });
  }
  function buildStudents() {
    fill($('students-box'),
      h('p', { class: 'muted', testid: 'student-count' }),
      h('div', { id: 'student-list' }),
      h('p', { class: 'hint' }, t('classes.students.left_hint')),
      pasteForm(), addForm());
    renderStudentList();
  }

  /* ---- 2. a new game ------------------------------------------------------ */
  function renderAttendance() {
    const box = $('attendance');
    if (!box) return;
    const list = active();
    if (!list.length) { fill(box, h('p', { class: 'muted' }, t('classes.new.no_students'))); return; }
    const count = h('span', { class: 'muted', testid: 'attend-count', 'aria-live': 'polite' }, plural('classes.new.present', present().length));
    const setAll = (on) => { S.absent = on ? new Set() : new Set(list.map((s) => s.id)); renderAttendance(); refreshQuestions(); };
    fill(box, h('fieldset', { class: 'attendance' },
      h('legend', null, t('classes.new.attendance')),
      h('p', { class: 'hint' }, t('classes.new.attendance_hint')),
      h('div', { class: 'row' },
        h('button', { type: 'button', testid: 'attend-all', onclick: () => setAll(true) }, t('classes.new.all')),
        h('button', { type: 'button', testid: 'attend-none', onclick: () => setAll(false) }, t('classes.new.nobody')), count),
      h('ul', { class: 'checks' }, list.map((s) => h('li', null, h('label', null,
        h('input', { type: 'checkbox', testid: 'attend-' + s.id, checked: !S.absent.has(s.id), onchange: (e) => {
          if (e.target.checked) S.absent.delete(s.id); else S.absent.add(s.id);
          count.textContent = plural('classes.new.present', present().length);
          if (!S.lineup) refreshQuestions();
        } }), ' ', s.name))))));
  }
  function dealControls() {
    const modes = [['fresh', t('classes.new.mode_fresh')]];
    if (data.has_last_lineup) modes.push(['keep', t('classes.new.mode_keep')]);
    return h('div', { class: 'dealbar' },
      h('fieldset', { class: 'modes' }, h('legend', null, t('classes.new.mode')),
        modes.map(([m, label]) => h('label', null, h('input', { type: 'radio', name: 'deal-mode', value: m, testid: 'deal-mode-' + m,
          checked: S.mode === m, onchange: () => { S.mode = m; } }), ' ', label))),
      h('label', { class: 'field', for: 'deal-teams' }, t('classes.new.teams'),
        h('select', { id: 'deal-teams', testid: 'deal-teams' }, h('option', { value: '' }, t('classes.new.teams_auto')),
          [4, 5, 6].map((n) => h('option', { value: String(n) }, String(n))))),
      h('button', { type: 'button', class: 'primary', testid: 'deal', onclick: deal }, t('classes.new.deal')));
  }
  function deal() {
    const err = q($('new-game-box'), 'deal-error');
    const teams = $('deal-teams').value;
    const body = { present: present().map((s) => s.id), mode: S.mode, max_members: maxMembers() };
    if (teams) body.teams = Number(teams);
    send(U.deal, body).then((res) => {
      if (!res.ok) { show(err, refusal(res)); return; }
      show(err, null);
      S.lineup = res.lineup;
      S.kept = !!res.kept;
      S.names = res.lineup.map((team, i) => (res.team_names && res.team_names[i]) || teamDefault(i));
      S.dealtMode = S.mode;
      q($('new-game-box'), 'deal').textContent = t('classes.new.redeal');
      renderLineup();
      refreshQuestions();
    });
  }
  /** What keeps these teams from starting a game: the game's own check on the server,
   *  each problem as [rule, text]. */
  let warningsNo = 0;
  function renderWarnings() {
    const box = q($('new-game-box'), 'lineup-warning');
    if (!box) return;
    if (!S.lineup) { show(box, null); return; }
    const no = ++warningsNo;
    send('/api/team-problems', { sizes: S.lineup.map((team) => team.length), max_members: maxMembers() }).then((res) => {
      if (no !== warningsNo || !res || !res.ok) return;
      const found = res.problems.map((p) => [p.rule, t('classes.new.warn_' + p.what,
        { n: p.n, max: p.max, min: p.min, team: p.team ? teamName(p.team - 1) : '' })]);
      show(box, found.length ? [h('strong', null, t('classes.new.warn_title')),
        h('ul', null, found.map(([rule, text]) => h('li', null, L.ruleLink(rule, rule + ' — ' + t('rule.' + rule), text))))] : null);
    });
  }
  function renderLineup() {
    const box = $('lineup-box');
    if (!S.lineup) { fill(box); return; }
    const note = S.dealtMode === 'keep' ? t(S.kept ? 'classes.new.kept' : 'classes.new.not_kept') : '';
    fill(box,
      h('h3', null, t('classes.new.step_teams')),
      note ? h('p', { class: 'hint', testid: 'deal-note' }, note) : null,
      h('p', { class: 'hint' }, t('classes.new.move_hint')),
      h('div', { class: 'lineup', testid: 'lineup' }, S.lineup.map(teamBox)),
      h('div', { class: 'check bad', role: 'status', testid: 'lineup-warning', hidden: true }));
    renderWarnings();
  }
  function teamBox(team, i) {
    const n = i + 1;
    return h('div', { class: 'team', testid: 'team-' + n },
      h('div', { class: 'teamhead' }, h('span', { class: 'chip c' + n, 'aria-hidden': 'true' }, String(n)),
        h('input', { testid: 'team-name-' + n, value: S.names[i] || '', maxlength: 100, placeholder: teamDefault(i),
          'aria-label': t('classes.new.team_name', { n: n }), oninput: (e) => renameTeam(i, e.target.value) })),
      h('p', { class: 'muted small', testid: 'team-count-' + n }, plural('classes.new.members', team.length)),
      h('ul', { class: 'members' }, team.map((id) => h('li', null, h('span', { class: 'mname' }, nameOf(id)),
        h('select', { testid: 'move-' + id, value: String(n), 'aria-label': t('classes.new.move', { name: nameOf(id) }),
          onchange: (e) => moveStudent(id, i, Number(e.target.value) - 1) },
          S.lineup.map((x, k) => h('option', { value: String(k + 1), 'data-team': String(k + 1) }, (k + 1) + ' · ' + teamName(k))))))));
  }
  function renameTeam(i, value) {
    S.names[i] = value;
    for (const o of document.querySelectorAll('#lineup-box option[data-team="' + (i + 1) + '"]')) o.textContent = (i + 1) + ' · ' + teamName(i);
    renderWarnings();
  }
  function moveStudent(id, from, to) {
    S.lineup[from] = S.lineup[from].filter((x) => x !== id);
    S.lineup[to].push(id);
    renderLineup();
    focusTest('move-' + id);
  }
  function gameOptions() {
    const banks = data.banks || [];
    const chosen = banks.some((b) => b.id === S.klass.bank_id) ? S.klass.bank_id : (banks[0] || {}).id;
    const base = baseSettings();
    const lang = ['es', 'es-ES', 'en'].includes(base.language) ? base.language : L.lang;
    const onchange = () => refreshQuestions();
    return h('div', { class: 'gameopts' },
      h('h3', null, t('classes.new.game_title')),
      h('div', { class: 'grid2 opts' },
        h('label', { class: 'field wide', for: 'game-name' }, t('classes.new.name'),
          h('input', { id: 'game-name', testid: 'game-name', maxlength: 120, placeholder: defaultGameName() })),
        banks.length ? h('label', { class: 'field wide', for: 'bank' }, t('classes.new.bank'),
          h('select', { id: 'bank', testid: 'bank', value: String(chosen), onchange: onchange },
            banks.map((b) => h('option', { value: String(b.id) }, t('classes.new.bank_option', { name: b.name, n: b.count })))))
          : h('p', { class: 'check bad' }, t('classes.new.no_bank')),
        h('label', { class: 'field', for: 'rounds' }, t('classes.new.rounds'),
          h('input', { id: 'rounds', testid: 'rounds', inputmode: 'numeric', autocomplete: 'off', class: 'num', value: String(base.rounds || 6),
            'aria-describedby': 'rounds-error', oninput: onchange }),
          h('span', { class: 'field-error', id: 'rounds-error', testid: 'rounds-error', role: 'alert', hidden: true })),
        h('label', { class: 'field lang', for: 'language' }, t('classes.new.language'),
          h('select', { id: 'language', testid: 'language', value: lang },
            ['es', 'es-ES', 'en'].map((code) => h('option', { value: code, lang: code }, t('lang.' + code)))))),
      h('label', { class: 'check-line' }, h('input', { type: 'checkbox', testid: 'allow-repeats', id: 'allow-repeats', onchange: onchange }),
        ' ' + t('classes.new.repeats')),
      h('div', { id: 'questions-box', class: 'questions', 'aria-live': 'polite' }));
  }
  const defaultGameName = () => t('classes.new.name_default', { class: S.klass.name, date: L.date(new Date()) });
  /** The rounds typed, read in the page's language (a whole number, 1 to 20); what
   *  cannot be read says so beside the field and counts as the last good value. */
  let goodRounds = null;
  function rounds() {
    const field = $('rounds');
    const note = $('rounds-error');
    const read = L.readNumber(field ? field.value : '', { integer: true, min: 1, max: 20 });
    if (note) { note.hidden = !read.error; note.textContent = read.error || ''; }
    if (field) field.setAttribute('aria-invalid', read.error ? 'true' : 'false');
    if (!read.error) goodRounds = read.value;
    return goodRounds || Number(baseSettings().rounds) || 6;
  }
  const roundsUnreadable = () => !!L.readNumber(($('rounds') || {}).value, { integer: true, min: 1, max: 20 }).error;
  /** How many teams the game will have: the dealt ones, else the fewest the bounds allow. */
  function teamCount() {
    if (S.lineup) return S.lineup.length;
    const chosen = Number(($('deal-teams') || {}).value);
    return chosen || Math.max(4, Math.ceil(present().length / maxMembers()));
  }
  let questionsNo = 0;
  let questionsTimer = null;
  function refreshQuestions() {
    clearTimeout(questionsTimer);
    questionsTimer = setTimeout(loadQuestions, 200);
  }
  function loadQuestions() {
    const bank = $('bank');
    const box = $('questions-box');
    if (!bank || !box) return;
    const no = ++questionsNo;
    const turns = rounds() * teamCount();
    const params = new URLSearchParams({ bank_id: bank.value, allow_repeats: $('allow-repeats').checked ? '1' : '0', turns: String(turns) });
    get(U.questions + '?' + params).then((res) => {
      if (no !== questionsNo) return;
      if (!res.ok) { fill(box, h('p', { class: 'check bad' }, t('classes.q.error'), ' ', refusal(res))); return; }
      fill(box, questionsPanel(res, turns));
    });
  }
  function questionsPanel(res, turns) {
    const types = ['vf', 'quien', 'abierta'];
    const authors = Object.keys(res.total);
    const empty = (res.empty || []).map((e) => e.author + ' (' + L.qtype(e.type) + ')');
    return [
      h('h3', { id: 'questions-title' }, t('classes.q.title')),
      h('p', { testid: 'questions-summary' }, t('classes.q.summary', { unread: res.unread_count, total: res.total_count,
        turns: turns, rounds: plural('classes.q.rounds', rounds()), teams: plural('classes.q.teams', teamCount()) })),
      res.runs_short ? h('p', { class: 'check bad', testid: 'runs-short', role: 'alert' }, t('classes.q.runs_short')) : null,
      empty.length ? h('p', { class: 'hint', testid: 'questions-empty' }, t('classes.q.empty', { pairs: empty.join(', ') })) : null,
      h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'questions-title' },
        h('table', { class: 'qtable', testid: 'questions-table' },
          h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('classes.q.author')), types.map((ty) => h('th', { scope: 'col', class: 'num' }, L.qtype(ty))))),
          h('tbody', null, authors.map((a) => h('tr', null, h('th', { scope: 'row' }, a), types.map((ty) => {
            const left = (res.unread[a] || {})[ty] || 0;
            const total = res.total[a][ty] || 0;
            return h('td', { class: 'num' + (total && !left ? ' none' : '') }, t('classes.q.cell', { n: left, total: total }));
          })))))),
    ];
  }
  function settingsForGame() {
    const s = JSON.parse(JSON.stringify(baseSettings()));
    delete s.class_name;
    delete s.roster;
    const n = rounds();
    if (s.rounds !== n) {          // a saved per-round schedule no longer fits: the engine's defaults
      delete s.round_modes;
      delete s.individual_rounds;
      if (Array.isArray(s.deliberation_seconds)) s.deliberation_seconds = s.deliberation_seconds[0];
    }
    s.rounds = n;
    s.teams = S.lineup.map((team, i) => ({ name: teamName(i), members: team.length }));
    s.language = $('language').value;
    return s;
  }
  function createGame() {
    const box = $('new-game-box');
    const err = q(box, 'create-error');
    if (!S.lineup) { show(err, t('classes.new.need_teams')); return; }
    if (roundsUnreadable()) { show(err, t('classes.new.rounds') + ': ' + $('rounds-error').textContent); return; }
    const btn = q(box, 'create-game');
    btn.disabled = true;
    const bank = $('bank');
    send(U.games, {
      name: $('game-name').value.trim() || defaultGameName(),
      bank_id: bank ? Number(bank.value) : null,
      settings: settingsForGame(),
      lineup: S.lineup,
      allow_repeats: $('allow-repeats').checked,
      kept: S.kept,
    }).then((res) => {
      if (res.ok && res.url) { window.location.href = res.url; return; }
      btn.disabled = false;
      show(err, refusal(res));
    });
  }
  function buildNewGame() {
    fill($('new-game-box'),
      h('div', { id: 'attendance' }),
      dealControls(),
      h('p', { class: 'check bad', role: 'alert', testid: 'deal-error', hidden: true }),
      h('div', { id: 'lineup-box' }),
      gameOptions(),
      h('div', { class: 'row create' },
        h('button', { type: 'button', class: 'primary big', testid: 'create-game', onclick: createGame }, t('classes.new.create'))),
      h('div', { class: 'check bad', role: 'alert', testid: 'create-error', hidden: true }));
    renderAttendance();
    refreshQuestions();
  }

  /* ---- 3. the term league ------------------------------------------------- */
  function schemeName(s) { return t('classes.league.' + s); }
  function buildLeague() {
    const select = h('select', { id: 'league-scheme', testid: 'league-scheme', value: S.scheme,
      onchange: (e) => { S.scheme = e.target.value; schemeChanged(); loadLeague(); } },
    (data.schemes || ['rank_points', 'team_score']).map((s) => h('option', { value: s }, schemeName(s))));
    fill($('league-box'),
      h('div', { class: 'row scheme' }, h('label', { for: 'league-scheme' }, t('classes.league.scheme')), select,
        h('button', { type: 'button', testid: 'league-scheme-save', onclick: saveScheme }, t('classes.league.save_default')),
        h('span', { class: 'muted', testid: 'league-scheme-default' }, t('classes.league.is_default'))),
      h('p', { class: 'hint', testid: 'scheme-explain' }),
      h('div', { id: 'league-content' }));
    schemeChanged();
    loadLeague();
  }
  function schemeChanged() {
    const box = $('league-box');
    q(box, 'scheme-explain').textContent = t('classes.league.' + S.scheme + '_explain') + ' ' + t('classes.league.absent');
    const isDefault = S.scheme === S.klass.league_scheme;
    q(box, 'league-scheme-save').hidden = isDefault;
    q(box, 'league-scheme-default').hidden = !isDefault;
    updateExportLinks();
  }
  function saveScheme() {
    send(U.self, { league_scheme: S.scheme }).then((res) => {
      if (!res.ok) { L.flash(res); return; }
      S.klass.league_scheme = res.class.league_scheme;
      schemeChanged();
      L.toast(t('classes.league.saved', { scheme: schemeName(S.scheme) }));
    });
  }
  let leagueNo = 0;
  function loadLeague() {
    const no = ++leagueNo;
    get(U.league + '?scheme=' + encodeURIComponent(S.scheme)).then((res) => {
      if (no !== leagueNo) return;
      const box = $('league-content');
      if (!res.ok) { fill(box, h('p', { class: 'check bad' }, t('classes.league.error'), ' ', refusal(res))); return; }
      S.league = res.league;
      renderLeague();
    });
  }
  function renderLeague() {
    const lg = S.league;
    const box = $('league-content');
    if (!lg.games.length) { fill(box, h('p', { class: 'muted', testid: 'league-empty' }, t('classes.league.none'))); return; }
    fill(box,
      h('p', { class: 'muted', testid: 'league-note' }, plural('classes.league.over_n', lg.games.length)),
      h('div', { class: 'league-grid' }, leagueTable(lg), h('div', { class: 'league-side' }, chartBox(lg))),
      lg.teams ? keptTeams(lg.teams) : null);
    drawChart();
  }
  function leagueTable(lg) {
    return h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': t('classes.league.table') },
      h('table', { class: 'league', testid: 'league-table' },
        h('thead', null, h('tr', null, ['rank', 'student', 'points', 'games'].map((k) =>
          h('th', { scope: 'col', class: k === 'student' ? null : 'num' }, t('classes.league.' + k))))),
        h('tbody', null, lg.students.map((r) => h('tr', { testid: 'league-row-' + r.student },
          h('td', { class: 'num' }, L.ordinal(r.rank)),
          h('th', { scope: 'row' }, r.name, r.left ? [' ', h('span', { class: 'badge' }, t('classes.league.left'))] : null),
          h('td', { class: 'num strong' }, L.num(r.points)),
          h('td', { class: 'num' }, String(r.games)))))));
  }
  function keptTeams(teams) {
    return h('div', { class: 'kept' },
      h('h3', { id: 'kept-title' }, t('classes.league.teams_title')),
      h('p', { class: 'hint' }, t('classes.league.teams_hint')),
      h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'kept-title' },
        h('table', { testid: 'teams-table' },
          h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num' }, t('classes.league.rank')),
            h('th', { scope: 'col' }, t('classes.league.team')), h('th', { scope: 'col' }, t('classes.league.members')),
            h('th', { scope: 'col', class: 'num' }, t('classes.league.points')))),
          h('tbody', null, teams.rows.map((r) => h('tr', null, h('td', { class: 'num' }, L.ordinal(r.rank)),
            h('th', { scope: 'row' }, h('span', { class: 'teamlabel' }, L.chip(r.team), r.name)),
            h('td', null, r.students.join(', ')), h('td', { class: 'num strong' }, L.num(r.points))))))));
  }
  /** Students whose points went the same way, game after game, share one line of the
   *  chart (teammates of kept teams do): [{ rows, cumulative }], in league order. */
  function lines(rows) {
    const out = new Map();
    for (const r of rows) {
      const key = JSON.stringify(r.cumulative);
      if (!out.has(key)) out.set(key, { rows: [], cumulative: r.cumulative });
      out.get(key).rows.push(r);
    }
    return Array.from(out.values());
  }
  /** The chart's students: the teacher's picks still listed, else those of the top lines. */
  function picked(lg) {
    const ids = new Set(lg.students.map((r) => r.student));
    if (S.chartPick) S.chartPick = new Set(Array.from(S.chartPick).filter((id) => ids.has(id)));
    if (!S.chartPick || !S.chartPick.size) {
      S.chartPick = new Set(lines(lg.students).slice(0, CHART_MAX).flatMap((l) => l.rows.map((r) => r.student)));
    }
    return S.chartPick;
  }
  function chartBox(lg) {
    const chosen = picked(lg);
    return h('div', { class: 'chartbox' },
      h('div', { id: 'league-chart', class: 'chart-wrap', testid: 'league-chart' }),
      h('p', { class: 'hint' }, t('classes.league.chart_hint', { n: CHART_MAX })),
      h('p', { class: 'hint', testid: 'chart-more', hidden: true }),
      h('fieldset', { class: 'chartpick' }, h('legend', null, t('classes.league.chart_pick')),
        h('ul', { tabindex: '-1' }, lg.students.map((r) => h('li', null, h('label', null,
          h('input', { type: 'checkbox', testid: 'chart-pick-' + r.student, checked: chosen.has(r.student),
            onchange: (e) => pick(r.student, e.target.checked) }),
          ' ' + L.ordinal(r.rank) + ' ' + r.name))))));
  }
  function pick(id, on) {
    if (on) S.chartPick.add(id); else S.chartPick.delete(id);
    drawChart();
  }
  function drawChart() {
    const el = $('league-chart');
    if (!el || !window.Charts) return;
    const lg = S.league;
    const all = lines(lg.students.filter((r) => S.chartPick.has(r.student)));
    const shown = all.slice(0, CHART_MAX);
    const more = document.querySelector('[data-testid="chart-more"]');
    if (more) show(more, all.length > CHART_MAX ? t('classes.league.chart_more', { n: CHART_MAX }) : null);
    const turns = [0].concat(lg.games.map((g, i) => i + 1));
    window.Charts.scoreLine(el, {
      turns: turns, rounds: [],
      teams: shown.map((l, k) => ({ team: k + 1, name: l.rows.map((r) => r.name).join(', '), scores: [0].concat(l.cumulative) })),
    }, { title: t('classes.league.chart'), turn: t('classes.league.chart_game'), round: '' });
  }

  /* ---- 4. participation --------------------------------------------------- */
  function buildParticipation() {
    fill($('participation-box'),
      h('div', { class: 'row' },
        h('label', { for: 'participation-sort' }, t('classes.part.sort')),
        h('select', { id: 'participation-sort', testid: 'participation-sort', value: S.sort,
          onchange: (e) => { S.sort = e.target.value; renderParticipation(); } },
        h('option', { value: 'name' }, t('classes.part.sort_name')), h('option', { value: 'least' }, t('classes.part.sort_least'))),
        h('label', { class: 'check-line' }, h('input', { type: 'checkbox', testid: 'participation-only-never',
          onchange: (e) => { S.onlyNever = e.target.checked; renderParticipation(); } }), ' ' + t('classes.part.only_never'))),
      h('div', { id: 'participation-content' }));
    get(U.participation).then((res) => {
      if (!res.ok) { fill($('participation-content'), h('p', { class: 'check bad' }, t('classes.part.error'))); return; }
      S.part = res.participation;
      renderParticipation();
    });
  }
  function sortedPeople() {
    let rows = S.part.students.slice();
    if (S.onlyNever) rows = rows.filter((r) => r.never_spoke);
    const byName = (a, b) => a.name.localeCompare(b.name, L.lang);
    if (S.sort === 'least') rows.sort((a, b) => a.spoke - b.spoke || b.games_present - a.games_present || byName(a, b));
    else rows.sort(byName);
    return rows;
  }
  function rankText(r) {
    if (!r) return t('classes.part.absent');
    const text = t('classes.part.rank_of', { rank: L.ordinal(r.rank), teams: r.teams });
    return r.over ? text : text + ' (' + t('classes.part.running') + ')';
  }
  function renderParticipation() {
    const box = $('participation-content');
    if (!S.part) return;
    if (!S.part.games.length) { fill(box, h('p', { class: 'muted', testid: 'participation-empty' }, t('classes.part.none'))); return; }
    const rows = sortedPeople();
    const cols = ['present', 'spokesperson', 'representative', 'ranks', 'mean_rank'];
    fill(box, h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': t('classes.part.table') },
      h('table', { class: 'part', testid: 'participation-table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('classes.league.student')),
          cols.map((c) => h('th', { scope: 'col', class: c === 'ranks' ? null : 'num' }, t('classes.part.' + c))))),
        h('tbody', null, rows.length ? rows.map(personRow)
          : h('tr', null, h('td', { colspan: String(cols.length + 1), class: 'muted' }, t('classes.part.nobody')))))));
  }
  function personRow(r) {
    const cell = (col, cls, ...kids) => h('td', { class: cls, 'data-label': t('classes.part.' + col) }, ...kids);
    return h('tr', { testid: 'participation-row-' + r.student, class: r.never_spoke ? 'never' : null },
      h('th', { scope: 'row' }, r.name, r.never_spoke ? [' ', h('span', { class: 'badge never', testid: 'never-spoke-' + r.student }, t('classes.part.never'))] : null,
        r.left ? [' ', h('span', { class: 'badge' }, t('classes.league.left'))] : null),
      cell('present', 'num', t('classes.part.present_of', { n: r.games_present, total: r.games_total })),
      cell('spokesperson', 'num', String(r.spokesperson)),
      cell('representative', 'num', String(r.representative)),
      cell('ranks', 'ranks', r.ranks.map((x, i) => h('span', { class: 'rk' + (x ? '' : ' absent') }, (i ? '· ' : '') + rankText(x) + ' '))),
      cell('mean_rank', 'num', r.mean_rank == null ? '–' : L.num(r.mean_rank)));
  }

  /* ---- 5. exports ---------------------------------------------------------- */
  function updateExportLinks() {
    const scheme = '?scheme=' + encodeURIComponent(S.scheme);
    for (const [id, file] of [['export-league', 'league.csv'], ['export-xlsx', 'class.xlsx']]) {
      const a = document.querySelector('[data-testid="' + id + '"]');
      if (a) a.setAttribute('href', U.export + file + scheme);
    }
    const note = $('export-scheme-note');
    if (note) note.textContent = t('classes.export.scheme_note', { scheme: schemeName(S.scheme) });
    updateMoodle();
  }
  function buildMoodle() {
    const box = $('moodle-box');
    fill(box, h('form', { class: 'moodle', onsubmit: (e) => e.preventDefault() },
      h('label', { class: 'field', for: 'moodle-identifier' }, t('classes.export.identifier'),
        h('select', { id: 'moodle-identifier', testid: 'moodle-identifier', onchange: () => { updateMoodle(); renderMoodleMissing(); } },
          ['email', 'id_number'].map((k) => h('option', { value: k }, t('classes.export.id.' + k))))),
      h('fieldset', { class: 'measures' }, h('legend', null, t('classes.export.measures')),
        MEASURES.map((m) => h('label', null, h('input', { type: 'checkbox', value: m, testid: 'moodle-measure-' + m,
          checked: m === 'league_points', onchange: updateMoodle }), ' ' + t('classes.export.m.' + m)))),
      h('div', { class: 'hint', testid: 'moodle-missing', role: 'status', hidden: true }),
      h('p', { class: 'row' }, h('a', { class: 'button primary', testid: 'export-moodle', download: '' }, t('classes.export.moodle')),
        h('span', { class: 'error', testid: 'moodle-none', hidden: true }, t('classes.export.moodle_none')))));
    updateMoodle();
    renderMoodleMissing();
  }
  function updateMoodle() {
    const link = document.querySelector('[data-testid="export-moodle"]');
    if (!link) return;
    const measures = MEASURES.filter((m) => document.querySelector('[data-testid="moodle-measure-' + m + '"]').checked);
    const params = 'identifier=' + encodeURIComponent($('moodle-identifier').value) + '&measures=' + measures.join(',') +
      '&scheme=' + encodeURIComponent(S.scheme);
    if (measures.length) { link.setAttribute('href', U.export + 'moodle.csv?' + params); link.removeAttribute('aria-disabled'); }
    else { link.removeAttribute('href'); link.setAttribute('aria-disabled', 'true'); }
    document.querySelector('[data-testid="moodle-none"]').hidden = !!measures.length;
  }
  /** Who moodle.csv leaves out and why (no e-mail / ID number, or one a spreadsheet
   *  would run as a formula), as the server decides it: GET export/moodle-missing.json. */
  function renderMoodleMissing() {
    const el = document.querySelector('[data-testid="moodle-missing"]');
    if (!el) return;
    const key = $('moodle-identifier').value;
    const asked = (S.moodleAsked = (S.moodleAsked || 0) + 1);
    get(U.export + 'moodle-missing.json?identifier=' + encodeURIComponent(key)).then((res) => {
      if (asked !== S.moodleAsked || !res.ok) return;
      const what = t('classes.export.id.' + key).toLowerCase();
      const out = res.left_out || [];
      el.hidden = !out.length;
      fill(el, out.length ? [t('classes.export.missing', { what: what, n: out.length }), ' ', t('classes.export.left_out'),
        h('ul', { testid: 'moodle-left-out' }, out.map((s) => h('li', { testid: 'moodle-left-out-' + s.id },
          t('classes.export.left_out_' + s.reason, { name: s.name, what: what, char: s.value })))),
        t('classes.export.left_out_fix')] : []);
    });
  }

  /* ---- 6. the class's settings --------------------------------------------- */
  function buildSettings() {
    const banks = data.banks || [];
    const status = h('p', { class: 'hint', role: 'status', testid: 'settings-status' });
    const name = h('input', { id: 'class-rename', testid: 'class-rename', value: S.klass.name, maxlength: 200, required: true });
    fill($('settings-box'),
      h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); save({ name: name.value }, status); } },
        h('label', { for: 'class-rename' }, t('classes.settings.name')), name,
        h('button', { type: 'submit', testid: 'class-rename-save' }, t('classes.settings.rename'))),
      h('div', { class: 'row' }, h('label', { for: 'class-bank' }, t('classes.settings.bank')),
        h('select', { id: 'class-bank', testid: 'class-bank', 'aria-describedby': 'class-bank-hint',
          value: S.klass.bank_id == null ? '' : String(S.klass.bank_id),
          onchange: (e) => save({ bank_id: e.target.value === '' ? null : Number(e.target.value) }, status) },
        h('option', { value: '' }, t('classes.settings.bank_none')), banks.map((b) => h('option', { value: String(b.id) }, b.name)))),
      h('p', { class: 'hint', id: 'class-bank-hint' }, t('classes.settings.bank_hint')),
      h('label', { class: 'check-line' }, h('input', { type: 'checkbox', testid: 'class-projector-names', checked: !!S.klass.projector_names,
        'aria-describedby': 'projector-hint', onchange: (e) => save({ projector_names: e.target.checked }, status) }),
      ' ' + t('classes.settings.projector_names')),
      h('p', { class: 'hint', id: 'projector-hint' }, t('classes.settings.projector_hint')),
      status);
  }
  function save(changes, status) {
    send(U.self, changes).then((res) => {
      if (!res.ok) { status.className = 'error'; fill(status, t('classes.not_saved', { why: '' }), ...refusal(res)); return; }
      S.klass = Object.assign(S.klass, res.class);
      status.className = 'hint ok';
      status.textContent = t('classes.saved');
      if ('name' in changes) renamed();
      if ('bank_id' in changes && $('bank') && S.klass.bank_id != null) { $('bank').value = String(S.klass.bank_id); refreshQuestions(); }
    });
  }
  function renamed() {
    $('class-name').textContent = S.klass.name;
    document.title = S.klass.name + ' · ' + document.title.split(' · ').slice(1).join(' · ');
    const name = $('game-name');
    if (name) name.placeholder = defaultGameName();
  }

  /* ---- start ----------------------------------------------------------------- */
  for (const f of document.querySelectorAll('form[data-confirm]')) {
    f.addEventListener('submit', (e) => { if (!window.confirm(f.getAttribute('data-confirm'))) e.preventDefault(); });
  }
  buildStudents();
  buildNewGame();
  buildLeague();
  buildParticipation();
  buildMoodle();
  buildSettings();
}());
