/* classes.js: the page of one class (templates/console/class.html, issue 15), an ES module
 * composing lib/ (words, dom, http, widgets, charts).
 *
 * Reads #class-data ({class, banks, defaults, schemes, games, has_last_lineup, urls}) and
 * draws: the students (paste a list, add one, edit, mark as left, remove), a new game from
 * today's attendance (deal, move students, bank, questions left, create), the term league
 * (table, kept teams, chart), participation, the Moodle export form and the class's
 * settings. Each section is a lit-html template drawn again from the page's state `S`
 * after each change; every request is same-origin fetch with JSON (the routes are
 * facilitator/web/classes.py). User text always goes into the page as text.
 *
 * Test ids:
 *   students: class-summary (the template's, kept current), student-count, students, students-empty, student-row-ID, student-left-ID,
 *     student-edit-ID, student-remove-ID, student-edit-name-ID, student-edit-email-ID,
 *     student-edit-id-ID, student-save-ID, student-cancel-ID, student-error-ID,
 *     paste-text, paste-send, paste-result, paste-errors, add-name, add-email, add-id-number,
 *     add-student, add-error, paste-duplicates, add-duplicates, duplicate-names
 *   new game: attend-ID, attend-all, attend-none, attend-count, deal-mode-fresh,
 *     deal-mode-keep, deal-teams, deal, deal-error, deal-note, lineup, team-N, team-name-N,
 *     team-count-N, move-ID, lineup-warning, bank, allow-repeats, rounds, rounds-error,
 *     language, game-name, questions-summary, questions-table, runs-short, questions-empty,
 *     create-game, create-error
 *   league: league-scheme, scheme-explain, league-scheme-save, league-scheme-default,
 *     league-empty, league-note, league-table, league-row-ID, teams-table, league-chart,
 *     chart-pick-ID, chart-more
 *   participation: participation-sort, participation-only-never, participation-table,
 *     participation-row-ID, never-spoke-ID, participation-empty
 *   export: export-league, export-xlsx (scheme kept in their links), moodle-identifier,
 *     moodle-measure-KEY, export-moodle, moodle-none, moodle-missing, moodle-left-out(-ID)
 *   settings: class-rename, class-rename-save, class-bank, class-projector-names,
 *     settings-status; class-delete (the template's form, confirmed here)
 */
import { html, nothing, $, draw } from './lib/dom.js';
import { W, readJSON } from './lib/words.js';
import { fetchJSON } from './lib/http.js';
import { confirmForms } from './lib/forms.js';
import { chip, ruleLink, isRule, flash, toast, confirmed } from './lib/widgets.js';
import { scoreLine } from './lib/charts.js';

const { t, has, plural, num, ordinal, readNumber, lang } = W;
const data = readJSON('class-data', {});
const U = data.urls || {};
const MEASURES = ['league_points', 'league_rank', 'games_present', 'spoke', 'spokesperson',
  'representative', 'mean_rank'];
const LANGUAGES = ['es', 'es-ES', 'en'];
const CHART_MAX = 6;
const S = {
  klass: data.class,
  editing: null, rowError: null,                  // the student being edited, and why not saved
  paste: {}, add: {},                             // the paste and add forms' messages
  pasteOpen: data.class.students.length === 0,
  absent: new Set(),          // today's absent students (ids); new students count as present
  mode: 'fresh', lineup: null, names: [], kept: false, dealtMode: null,
  warnings: null, questions: null, roundsError: null, bank: null,
  dealError: null, createError: null, creating: false,
  scheme: data.class.league_scheme, league: null, leagueError: null, chartPick: null,   // chartPick: a Set of ids
  part: null, partError: false, sort: 'name', onlyNever: false,
  identifier: 'email', measures: new Set(['league_points']), missing: [],
  status: { cls: 'hint', parts: '' },
};

/* ---- small helpers ------------------------------------------------------ */
const send = (url, body) => fetchJSON(url, body || {}, t('live.no_answer'));
const get = (url) => fetchJSON(url, undefined, t('live.no_answer'));
const byTest = (id) => document.querySelector('[data-testid="' + id + '"]');
const focusTest = (id) => { const el = byTest(id); if (el) el.focus(); };
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
/** A refusal: the rule's summary linked to the rule book (the id only in the tooltip,
 *  issue 13), and the server's detail, translated where it is a known one. */
function refusal(res) {
  const rule = res.error || '';
  const summary = has('rule.' + rule) ? t('rule.' + rule) : '';
  const detail = res.message ? why(res.message) : '';
  const ruled = isRule(rule);
  const showDetail = detail && (!ruled || lang === 'en' || detail !== res.message);
  return [ruleLink(rule, ruled ? rule + (detail ? ' — ' + detail : '') : detail, summary || rule),
    showDetail ? ' ' + capital(detail) : ''];
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
/** A table that scrolls sideways on its own, named for a screen reader. */
const scroller = (label, table) => html`<div class="scroll" tabindex="0" role="region" aria-label=${label}>${table}</div>`;

/* ---- 1. students -------------------------------------------------------- */
function studentsChanged() {
  const summary = byTest('class-summary');
  if (summary) {
    summary.textContent = plural('classes.students_n', active().length) + ' · ' + plural('classes.games_n', (data.games || []).length);
  }
  drawStudents();
  drawNewGame();
  loadMoodleMissing();
}
function drawStudents() {
  const all = students();
  const left = all.filter((s) => s.left).length;
  draw($('students-box'), html`<p class="muted" data-testid="student-count">${plural('classes.students.count', all.length - left)}${
    left ? ' · ' + plural('classes.students.count_left', left) : ''}</p>
    <div id="student-list">${all.length
    ? html`<ul class="students" data-testid="students">${all.map((s) => (S.editing === s.id ? editRow(s) : studentRow(s)))}</ul>`
    : html`<p class="muted" data-testid="students-empty">${t('classes.students.none')}</p>`}</div>
    <p class="hint">${t('classes.students.left_hint')}</p>
    ${pasteForm()}${addForm()}`);
}
function studentRow(s) {
  const meta = [s.email, s.id_number].filter(Boolean).join(' · ');
  return html`<li class=${'student' + (s.left ? ' gone' : '')} data-testid=${'student-row-' + s.id}><span class="who"><span
    class="sname">${s.name}</span>${meta ? html`<span class="smeta">${meta}</span>` : nothing}</span><span class="acts"><label
    class="toggle"><input type="checkbox" data-testid=${'student-left-' + s.id} .checked=${!!s.left}
      aria-label=${t('classes.students.left_of', { name: s.name })} @change=${(e) => setLeft(s, e.target)}>${' ' + t('classes.students.left')}</label><button
    type="button" data-testid=${'student-edit-' + s.id} aria-label=${t('classes.students.edit_of', { name: s.name })}
      @click=${() => edit(s.id)}>${t('classes.students.edit')}</button><button type="button" class="bad" data-testid=${'student-remove-' + s.id}
      aria-label=${t('classes.students.remove_of', { name: s.name })} @click=${() => removeStudent(s)}>${t('classes.students.remove')}</button></span></li>`;
}
function editRow(s) {
  const field = (key, label, value, type) => html`<label class="field">${label}<input type=${type || 'text'}
    data-testid=${'student-edit-' + key + '-' + s.id} .value=${value || ''} maxlength=${key === 'name' ? 100 : 200}></label>`;
  const error = S.rowError && S.rowError.id === s.id ? S.rowError.parts : null;
  return html`<li class="student editing" data-testid=${'student-row-' + s.id}><form class="editform" novalidate
    @submit=${(e) => { e.preventDefault(); saveStudent(s, e.currentTarget); }}>${field('name', t('classes.students.name'), s.name)}${
  field('email', t('classes.students.email'), s.email, 'email')}${field('id', t('classes.students.id_number'), s.id_number)}<span
    class="acts"><button type="submit" class="primary" data-testid=${'student-save-' + s.id}>${t('classes.students.save')}</button><button
    type="button" data-testid=${'student-cancel-' + s.id} @click=${() => edit(null)}>${t('classes.students.cancel')}</button></span><p
    class="error" role="alert" data-testid=${'student-error-' + s.id} ?hidden=${!error}>${error || nothing}</p></form></li>`;
}
function edit(id) {
  S.editing = id;
  S.rowError = null;
  drawStudents();
  if (id != null) focusTest('student-edit-name-' + id);
}
function replaceStudent(student) {
  S.klass.students = students().map((s) => (s.id === student.id ? student : s));
}
function saveStudent(s, form) {
  const val = (k) => form.querySelector('[data-testid="student-edit-' + k + '-' + s.id + '"]').value;
  send(U.students + '/' + s.id, { name: val('name'), email: val('email'), id_number: val('id') }).then((res) => {
    if (!res.ok) { S.rowError = { id: s.id, parts: refusal(res) }; drawStudents(); return; }
    replaceStudent(res.student);
    S.editing = null;
    studentsChanged();
    focusTest('student-edit-' + s.id);
  });
}
function setLeft(s, box) {
  send(U.students + '/' + s.id, { left: box.checked }).then((res) => {
    if (!res.ok) { flash(res); box.checked = !!s.left; return; }     // as the server still has it
    replaceStudent(res.student);
    studentsChanged();
    focusTest('student-left-' + s.id);
  });
}
function removeStudent(s) {
  if (!confirmed(t('classes.students.remove_confirm', { name: s.name }))) return;
  send(U.students + '/' + s.id + '/delete', {}).then((res) => {
    if (!res.ok) { flash(res); return; }
    S.klass.students = students().filter((x) => x.id !== s.id);
    if (S.lineup) { S.lineup = S.lineup.map((team) => team.filter((id) => id !== s.id)); loadWarnings(); }
    studentsChanged();
    toast(t('classes.students.removed', { name: s.name }));
  });
}
/** A message box of a form: hidden while it has nothing to say. */
const said = (cls, role, testid, parts) => html`<div class=${cls} role=${role} data-testid=${testid} ?hidden=${!parts}>${parts || nothing}</div>`;
function pasteForm() {
  const P = S.paste;
  return html`<details class="paste" ?open=${S.pasteOpen}><summary>${t('classes.paste.title')}</summary><p class="hint"
    id="paste-hint">${t('classes.paste.hint')}</p><label for="paste-text" class="sr-only">${t('classes.paste.title')}</label><textarea
    id="paste-text" data-testid="paste-text" rows="6" placeholder=${t('classes.paste.placeholder')} aria-describedby="paste-hint"
    spellcheck="false"></textarea><div class="row"><button type="button" class="primary" data-testid="paste-send"
    @click=${paste}>${t('classes.paste.send')}</button></div><p class="check ok" role="status" data-testid="paste-result"
    ?hidden=${!P.result}>${P.result || nothing}</p>${said('check warn', 'alert', 'paste-duplicates', P.duplicates)}${
  said('check bad', 'alert', 'paste-errors', P.errors)}</details>`;
}
function paste() {
  const area = $('paste-text');
  const text = area.value;
  if (!text.trim()) return;
  send(U.students, { text: text }).then((res) => {
    if (!res.ok) { S.paste = Object.assign(S.paste, { result: null, errors: refusal(res) }); drawStudents(); return; }
    S.klass.students = res.students;
    S.paste = {
      result: plural('classes.paste.added', res.added),
      duplicates: duplicatesNote(res.duplicates),
      errors: res.errors.length ? html`<p>${t('classes.paste.errors')}</p><ul>${res.errors.map((e) => html`<li>${why(e)}${lineOf(text, e)}</li>`)}</ul>` : null,
    };
    area.value = failedLines(text, res.errors).join('\n');
    studentsChanged();
  });
}
/** Students added under a name another student has too, named with their pasted lines,
 *  and how to tell them apart (null when there is none). */
function duplicatesNote(duplicates) {
  if (!duplicates || !duplicates.length) return null;
  return html`<p>${t('classes.paste.duplicates')}</p><ul data-testid="duplicate-names">${duplicates.map((d) => html`<li>${
    d.lines.length > 1 || (d.lines.length && !d.existing)
      ? t('classes.paste.duplicate_lines', { name: d.name, lines: d.lines.join(', ') })
      : t('classes.paste.duplicate_existing', { name: d.name, n: d.existing })}</li>`)}</ul><p>${
    t('classes.paste.duplicates_fix', { example: duplicates[0].name })}</p>`;
}
/** The pasted line an error names ("line 40: ..."), as « — "text"». */
function lineOf(text, error) {
  const m = /^line (\d+):/.exec(error);
  const line = m ? text.split(/\r\n|\r|\n/)[Number(m[1]) - 1] : null;
  return line ? html`<span class="pasted">${' — ' + line.trim().slice(0, 120)}</span>` : nothing;
}
function failedLines(text, errors) {
  const lines = text.split(/\r\n|\r|\n/);
  return errors.map((e) => /^line (\d+):/.exec(e)).filter(Boolean).map((m) => lines[Number(m[1]) - 1]);
}
function addForm() {
  const opt = html`<span class="muted">${' ' + t('classes.add.optional')}</span>`;
  const field = (id, label, type, extra) => html`<label class="field" for=${id}>${label}${extra || nothing}<input id=${id}
    data-testid=${id} type=${type || 'text'} maxlength=${id === 'add-name' ? 100 : 200} ?required=${id === 'add-name'}></label>`;
  return html`<form class="addform" data-testid="add-form" novalidate @submit=${(e) => { e.preventDefault(); addOne(e.currentTarget); }}><h3>${
    t('classes.add.title')}</h3><div class="fields">${field('add-name', t('classes.students.name'))}${
  field('add-email', t('classes.students.email'), 'email', opt)}${field('add-id-number', t('classes.students.id_number'), 'text', opt)}<button
    type="submit" data-testid="add-student">${t('classes.add.send')}</button></div><p class="error" role="alert" data-testid="add-error"
    ?hidden=${!S.add.error}>${S.add.error || nothing}</p>${said('check warn', 'alert', 'add-duplicates', S.add.duplicates)}</form>`;
}
function addOne(form) {
  const field = (id) => form.querySelector('[data-testid="' + id + '"]');
  send(U.students, { name: field('add-name').value, email: field('add-email').value, id_number: field('add-id-number').value }).then((res) => {
    if (!res.ok) { S.add = Object.assign(S.add, { error: refusal(res) }); drawStudents(); return; }
    S.add = { error: null, duplicates: duplicatesNote(res.duplicates) };
    S.klass.students = res.students;
    for (const id of ['add-name', 'add-email', 'add-id-number']) field(id).value = '';
    studentsChanged();
    field('add-name').focus();
  });
}

/* ---- 2. a new game ------------------------------------------------------ */
function drawNewGame() {
  draw($('new-game-box'), html`<div id="attendance">${attendance()}</div>${dealControls()}<p class="check bad" role="alert"
    data-testid="deal-error" ?hidden=${!S.dealError}>${S.dealError || nothing}</p><div id="lineup-box">${lineup()}</div>${
  gameOptions()}<div class="row create"><button type="button" class="primary big" data-testid="create-game" ?disabled=${S.creating}
    @click=${createGame}>${t('classes.new.create')}</button></div>${said('check bad', 'alert', 'create-error', S.createError)}`);
}
function attendance() {
  const list = active();
  if (!list.length) return html`<p class="muted">${t('classes.new.no_students')}</p>`;
  const setAll = (on) => { S.absent = on ? new Set() : new Set(list.map((s) => s.id)); drawNewGame(); refreshQuestions(); };
  const attend = (id, on) => {
    if (on) S.absent.delete(id); else S.absent.add(id);
    drawNewGame();
    if (!S.lineup) refreshQuestions();
  };
  return html`<fieldset class="attendance"><legend>${t('classes.new.attendance')}</legend><p class="hint">${
    t('classes.new.attendance_hint')}</p><div class="row"><button type="button" data-testid="attend-all" @click=${() => setAll(true)}>${
    t('classes.new.all')}</button><button type="button" data-testid="attend-none" @click=${() => setAll(false)}>${
    t('classes.new.nobody')}</button><span class="muted" data-testid="attend-count" aria-live="polite">${
    plural('classes.new.present', present().length)}</span></div><ul class="checks">${list.map((s) => html`<li><label><input
    type="checkbox" data-testid=${'attend-' + s.id} .checked=${!S.absent.has(s.id)} @change=${(e) => attend(s.id, e.target.checked)}>${
    ' ' + s.name}</label></li>`)}</ul></fieldset>`;
}
function dealControls() {
  const modes = [['fresh', t('classes.new.mode_fresh')]];
  if (data.has_last_lineup) modes.push(['keep', t('classes.new.mode_keep')]);
  return html`<div class="dealbar"><fieldset class="modes"><legend>${t('classes.new.mode')}</legend>${modes.map(([m, label]) => html`<label><input
    type="radio" name="deal-mode" value=${m} data-testid=${'deal-mode-' + m} .checked=${S.mode === m}
    @change=${() => { S.mode = m; drawNewGame(); }}>${' ' + label}</label>`)}</fieldset><label class="field" for="deal-teams">${
    t('classes.new.teams')}<select id="deal-teams" data-testid="deal-teams"><option value="">${t('classes.new.teams_auto')}</option>${
    [4, 5, 6].map((n) => html`<option value=${String(n)}>${String(n)}</option>`)}</select></label><button type="button" class="primary"
    data-testid="deal" @click=${deal}>${t(S.lineup ? 'classes.new.redeal' : 'classes.new.deal')}</button></div>`;
}
function deal() {
  const teams = $('deal-teams').value;
  const body = { present: present().map((s) => s.id), mode: S.mode, max_members: maxMembers() };
  if (teams) body.teams = Number(teams);
  send(U.deal, body).then((res) => {
    if (!res.ok) { S.dealError = refusal(res); drawNewGame(); return; }
    S.dealError = null;
    S.lineup = res.lineup;
    S.kept = !!res.kept;
    S.names = res.lineup.map((team, i) => (res.team_names && res.team_names[i]) || teamDefault(i));
    S.dealtMode = S.mode;
    S.warnings = null;
    drawNewGame();
    loadWarnings();
    refreshQuestions();
  });
}
/** What keeps these teams from starting a game: the game's own check on the server,
 *  each problem as a rule and its words. */
let warningsNo = 0;
function loadWarnings() {
  if (!S.lineup) return;
  const no = ++warningsNo;
  send('/api/team-problems', { sizes: S.lineup.map((team) => team.length), max_members: maxMembers() }).then((res) => {
    if (no !== warningsNo || !res || !res.ok) return;
    const found = res.problems.map((p) => [p.rule, t('classes.new.warn_' + p.what,
      { n: p.n, max: p.max, min: p.min, team: p.team ? teamName(p.team - 1) : '' })]);
    S.warnings = found.length ? html`<strong>${t('classes.new.warn_title')}</strong><ul>${found.map(([rule, text]) => html`<li>${
      ruleLink(rule, rule + ' — ' + t('rule.' + rule), text)}</li>`)}</ul>` : null;
    drawNewGame();
  });
}
function lineup() {
  if (!S.lineup) return nothing;
  const note = S.dealtMode === 'keep' ? t(S.kept ? 'classes.new.kept' : 'classes.new.not_kept') : '';
  return html`<h3>${t('classes.new.step_teams')}</h3>${note ? html`<p class="hint" data-testid="deal-note">${note}</p>` : nothing}<p
    class="hint">${t('classes.new.move_hint')}</p><div class="lineup" data-testid="lineup">${S.lineup.map(teamBox)}</div>${
  said('check bad', 'status', 'lineup-warning', S.warnings)}`;
}
function teamBox(team, i) {
  const n = i + 1;
  return html`<div class="team" data-testid=${'team-' + n}><div class="teamhead">${chip(n)}<input data-testid=${'team-name-' + n}
    .value=${S.names[i] || ''} maxlength="100" placeholder=${teamDefault(i)} aria-label=${t('classes.new.team_name', { n: n })}
    @input=${(e) => renameTeam(i, e.target.value)}></div><p class="muted small" data-testid=${'team-count-' + n}>${
    plural('classes.new.members', team.length)}</p><ul class="members">${team.map((id) => html`<li><span class="mname">${nameOf(id)}</span><select
    data-testid=${'move-' + id} aria-label=${t('classes.new.move', { name: nameOf(id) })}
    @change=${(e) => moveStudent(e.target, id, i, Number(e.target.value) - 1)}>${S.lineup.map((x, k) => html`<option
    value=${String(k + 1)} data-team=${String(k + 1)} .selected=${k === i}>${(k + 1) + ' · ' + teamName(k)}</option>`)}</select></li>`)}</ul></div>`;
}
function renameTeam(i, value) {
  S.names[i] = value;
  drawNewGame();
  loadWarnings();
}
function moveStudent(select, id, from, to) {
  // The list is drawn again from the lineup, row by row: the select shows its old team
  // until then, so the row that takes its place shows its own.
  select.value = String(from + 1);
  S.lineup[from] = S.lineup[from].filter((x) => x !== id);
  S.lineup[to].push(id);
  drawNewGame();
  loadWarnings();
  focusTest('move-' + id);
}
function gameOptions() {
  const banks = data.banks || [];
  if (S.bank == null) S.bank = banks.some((b) => b.id === S.klass.bank_id) ? S.klass.bank_id : (banks[0] || {}).id;
  const base = baseSettings();
  const chosenLang = LANGUAGES.includes(base.language) ? base.language : lang;
  return html`<div class="gameopts"><h3>${t('classes.new.game_title')}</h3><div class="grid2 opts"><label class="field wide"
    for="game-name">${t('classes.new.name')}<input id="game-name" data-testid="game-name" maxlength="120"
    placeholder=${defaultGameName()}></label>${banks.length ? html`<label class="field wide" for="bank">${t('classes.new.bank')}<select
    id="bank" data-testid="bank" @change=${(e) => { S.bank = Number(e.target.value); drawNewGame(); refreshQuestions(); }}>${
  banks.map((b) => html`<option value=${String(b.id)} .selected=${b.id === S.bank}>${t('classes.new.bank_option', { name: b.name, n: b.count })}</option>`)}</select></label>`
    : html`<p class="check bad">${t('classes.new.no_bank')}</p>`}<label class="field" for="rounds">${t('classes.new.rounds')}<input
    id="rounds" data-testid="rounds" inputmode="numeric" autocomplete="off" class="num" value=${String(base.rounds || 6)}
    aria-describedby="rounds-error" aria-invalid=${S.roundsError ? 'true' : 'false'} @input=${refreshQuestions}><span class="field-error"
    id="rounds-error" data-testid="rounds-error" role="alert" ?hidden=${!S.roundsError}>${S.roundsError || ''}</span></label><label
    class="field lang" for="language">${t('classes.new.language')}<select id="language" data-testid="language">${LANGUAGES.map((code) => html`<option
    value=${code} lang=${code} .selected=${code === chosenLang}>${t('lang.' + code)}</option>`)}</select></label></div><label
    class="check-line"><input type="checkbox" data-testid="allow-repeats" id="allow-repeats" @change=${refreshQuestions}>${
    ' ' + t('classes.new.repeats')}</label><div id="questions-box" class="questions" aria-live="polite">${S.questions || nothing}</div></div>`;
}
const defaultGameName = () => t('classes.new.name_default', { class: S.klass.name, date: W.date(new Date()) });
/** The rounds typed, read in the page's language (a whole number, 1 to 20); what
 *  cannot be read is said beside the field (S.roundsError) and counts as the last good value. */
let goodRounds = null;
function rounds() {
  const field = $('rounds');
  const read = readNumber(field ? field.value : '', { integer: true, min: 1, max: 20 });
  S.roundsError = read.error || null;
  if (!read.error) goodRounds = read.value;
  return goodRounds || Number(baseSettings().rounds) || 6;
}
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
  if (!bank || !$('questions-box')) return;
  const no = ++questionsNo;
  const n = rounds();
  const turns = n * teamCount();
  drawNewGame();
  const params = new URLSearchParams({ bank_id: bank.value, allow_repeats: $('allow-repeats').checked ? '1' : '0', turns: String(turns) });
  get(U.questions + '?' + params).then((res) => {
    if (no !== questionsNo) return;
    S.questions = res.ok ? questionsPanel(res, turns, n)
      : html`<p class="check bad">${t('classes.q.error')} ${refusal(res)}</p>`;
    drawNewGame();
  });
}
function questionsPanel(res, turns, n) {
  const types = ['vf', 'quien', 'abierta'];
  const qtype = (ty) => t('type.' + ty);
  const authors = Object.keys(res.total);
  const empty = (res.empty || []).map((e) => e.author + ' (' + qtype(e.type) + ')');
  return html`<h3 id="questions-title">${t('classes.q.title')}</h3><p data-testid="questions-summary">${t('classes.q.summary', {
    unread: res.unread_count, total: res.total_count, turns: turns, rounds: plural('classes.q.rounds', n),
    teams: plural('classes.q.teams', teamCount()) })}</p>${res.runs_short ? html`<p class="check bad" data-testid="runs-short"
    role="alert">${t('classes.q.runs_short')}</p>` : nothing}${empty.length ? html`<p class="hint" data-testid="questions-empty">${
    t('classes.q.empty', { pairs: empty.join(', ') })}</p>` : nothing}<div class="scroll" tabindex="0" role="region"
    aria-labelledby="questions-title"><table class="qtable" data-testid="questions-table"><thead><tr><th scope="col">${
    t('classes.q.author')}</th>${types.map((ty) => html`<th scope="col" class="num">${qtype(ty)}</th>`)}</tr></thead><tbody>${
    authors.map((a) => html`<tr><th scope="row">${a}</th>${types.map((ty) => {
      const left = (res.unread[a] || {})[ty] || 0;
      const total = res.total[a][ty] || 0;
      return html`<td class=${'num' + (total && !left ? ' none' : '')}>${t('classes.q.cell', { n: left, total: total })}</td>`;
    })}</tr>`)}</tbody></table></div>`;
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
  rounds();
  if (!S.lineup) S.createError = t('classes.new.need_teams');
  else if (S.roundsError) S.createError = t('classes.new.rounds') + ': ' + S.roundsError;
  else {
    S.createError = null;
    S.creating = true;
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
      S.creating = false;
      S.createError = refusal(res);
      drawNewGame();
    });
  }
  drawNewGame();
}

/* ---- 3. the term league ------------------------------------------------- */
const schemeName = (s) => t('classes.league.' + s);
function drawLeague() {
  const isDefault = S.scheme === S.klass.league_scheme;
  draw($('league-box'), html`<div class="row scheme"><label for="league-scheme">${t('classes.league.scheme')}</label><select
    id="league-scheme" data-testid="league-scheme" @change=${(e) => { S.scheme = e.target.value; schemeChanged(); loadLeague(); }}>${
  (data.schemes || ['rank_points', 'team_score']).map((s) => html`<option value=${s} .selected=${s === S.scheme}>${schemeName(s)}</option>`)}</select><button
    type="button" data-testid="league-scheme-save" ?hidden=${isDefault} @click=${saveScheme}>${t('classes.league.save_default')}</button><span
    class="muted" data-testid="league-scheme-default" ?hidden=${!isDefault}>${t('classes.league.is_default')}</span></div><p class="hint"
    data-testid="scheme-explain">${t('classes.league.' + S.scheme + '_explain') + ' ' + t('classes.league.absent')}</p><div
    id="league-content">${leagueContent()}</div>`);
  drawChart();
}
function leagueContent() {
  const lg = S.league;
  if (S.leagueError) return html`<p class="check bad">${t('classes.league.error')} ${S.leagueError}</p>`;
  if (!lg) return nothing;
  if (!lg.games.length) return html`<p class="muted" data-testid="league-empty">${t('classes.league.none')}</p>`;
  return html`<p class="muted" data-testid="league-note">${plural('classes.league.over_n', lg.games.length)}</p><div
    class="league-grid">${leagueTable(lg)}<div class="league-side">${chartBox(lg)}</div></div>${lg.teams ? keptTeams(lg.teams) : nothing}`;
}
function schemeChanged() {
  drawLeague();
  updateExportLinks();
}
function saveScheme() {
  send(U.self, { league_scheme: S.scheme }).then((res) => {
    if (!res.ok) { flash(res); return; }
    S.klass.league_scheme = res.class.league_scheme;
    schemeChanged();
    toast(t('classes.league.saved', { scheme: schemeName(S.scheme) }));
  });
}
let leagueNo = 0;
function loadLeague() {
  const no = ++leagueNo;
  get(U.league + '?scheme=' + encodeURIComponent(S.scheme)).then((res) => {
    if (no !== leagueNo) return;
    S.leagueError = res.ok ? null : refusal(res);
    if (res.ok) S.league = res.league;
    drawLeague();
  });
}
const leftBadge = (r) => (r.left ? html` <span class="badge">${t('classes.league.left')}</span>` : nothing);
function leagueTable(lg) {
  return scroller(t('classes.league.table'), html`<table class="league" data-testid="league-table"><thead><tr>${
    ['rank', 'student', 'points', 'games'].map((k) => html`<th scope="col" class=${k === 'student' ? nothing : 'num'}>${
      t('classes.league.' + k)}</th>`)}</tr></thead><tbody>${lg.students.map((r) => html`<tr data-testid=${'league-row-' + r.student}><td
    class="num">${ordinal(r.rank)}</td><th scope="row">${r.name}${leftBadge(r)}</th><td class="num strong">${num(r.points)}</td><td
    class="num">${String(r.games)}</td></tr>`)}</tbody></table>`);
}
function keptTeams(teams) {
  return html`<div class="kept"><h3 id="kept-title">${t('classes.league.teams_title')}</h3><p class="hint">${
    t('classes.league.teams_hint')}</p><div class="scroll" tabindex="0" role="region" aria-labelledby="kept-title"><table
    data-testid="teams-table"><thead><tr><th scope="col" class="num">${t('classes.league.rank')}</th><th scope="col">${
    t('classes.league.team')}</th><th scope="col">${t('classes.league.members')}</th><th scope="col" class="num">${
    t('classes.league.points')}</th></tr></thead><tbody>${teams.rows.map((r) => html`<tr><td class="num">${ordinal(r.rank)}</td><th
    scope="row"><span class="teamlabel">${chip(r.team)}${r.name}</span></th><td>${r.students.join(', ')}</td><td class="num strong">${
    num(r.points)}</td></tr>`)}</tbody></table></div></div>`;
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
const chartLines = (lg) => lines(lg.students.filter((r) => S.chartPick.has(r.student)));
function chartBox(lg) {
  const chosen = picked(lg);
  const more = chartLines(lg).length > CHART_MAX;
  const pick = (id, on) => { if (on) S.chartPick.add(id); else S.chartPick.delete(id); drawLeague(); };
  return html`<div class="chartbox"><div id="league-chart" class="chart-wrap" data-testid="league-chart"></div><p class="hint">${
    t('classes.league.chart_hint', { n: CHART_MAX })}</p><p class="hint" data-testid="chart-more" ?hidden=${!more}>${
    more ? t('classes.league.chart_more', { n: CHART_MAX }) : nothing}</p><fieldset class="chartpick"><legend>${
    t('classes.league.chart_pick')}</legend><ul tabindex="-1">${lg.students.map((r) => html`<li><label><input type="checkbox"
    data-testid=${'chart-pick-' + r.student} .checked=${chosen.has(r.student)} @change=${(e) => pick(r.student, e.target.checked)}>${
    ' ' + ordinal(r.rank) + ' ' + r.name}</label></li>`)}</ul></fieldset></div>`;
}
function drawChart() {
  const el = $('league-chart');
  if (!el) return;
  const lg = S.league;
  const turns = [0].concat(lg.games.map((g, i) => i + 1));
  scoreLine(el, {
    turns: turns, rounds: [],
    teams: chartLines(lg).slice(0, CHART_MAX).map((l, k) => ({ team: k + 1, name: l.rows.map((r) => r.name).join(', '), scores: [0].concat(l.cumulative) })),
  }, { title: t('classes.league.chart'), turn: t('classes.league.chart_game'), round: '' });
}

/* ---- 4. participation --------------------------------------------------- */
function drawParticipation() {
  draw($('participation-box'), html`<div class="row"><label for="participation-sort">${t('classes.part.sort')}</label><select
    id="participation-sort" data-testid="participation-sort" .value=${S.sort}
    @change=${(e) => { S.sort = e.target.value; drawParticipation(); }}><option value="name">${t('classes.part.sort_name')}</option><option
    value="least">${t('classes.part.sort_least')}</option></select><label class="check-line"><input type="checkbox"
    data-testid="participation-only-never" .checked=${S.onlyNever} @change=${(e) => { S.onlyNever = e.target.checked; drawParticipation(); }}>${
    ' ' + t('classes.part.only_never')}</label></div><div id="participation-content">${participation()}</div>`);
}
function loadParticipation() {
  get(U.participation).then((res) => {
    S.partError = !res.ok;
    if (res.ok) S.part = res.participation;
    drawParticipation();
  });
}
function sortedPeople() {
  let rows = S.part.students.slice();
  if (S.onlyNever) rows = rows.filter((r) => r.never_spoke);
  const byName = (a, b) => a.name.localeCompare(b.name, lang);
  if (S.sort === 'least') rows.sort((a, b) => a.spoke - b.spoke || b.games_present - a.games_present || byName(a, b));
  else rows.sort(byName);
  return rows;
}
function rankText(r) {
  if (!r) return t('classes.part.absent');
  const text = t('classes.part.rank_of', { rank: ordinal(r.rank), teams: r.teams });
  return r.over ? text : text + ' (' + t('classes.part.running') + ')';
}
function participation() {
  if (S.partError) return html`<p class="check bad">${t('classes.part.error')}</p>`;
  if (!S.part) return nothing;
  if (!S.part.games.length) return html`<p class="muted" data-testid="participation-empty">${t('classes.part.none')}</p>`;
  const rows = sortedPeople();
  const cols = ['present', 'spokesperson', 'representative', 'ranks', 'mean_rank'];
  return scroller(t('classes.part.table'), html`<table class="part" data-testid="participation-table"><thead><tr><th scope="col">${
    t('classes.league.student')}</th>${cols.map((c) => html`<th scope="col" class=${c === 'ranks' ? nothing : 'num'}>${t('classes.part.' + c)}</th>`)}</tr></thead><tbody>${
    rows.length ? rows.map(personRow)
      : html`<tr><td colspan=${String(cols.length + 1)} class="muted">${t('classes.part.nobody')}</td></tr>`}</tbody></table>`);
}
function personRow(r) {
  const cell = (col, cls, kids) => html`<td class=${cls} data-label=${t('classes.part.' + col)}>${kids}</td>`;
  return html`<tr data-testid=${'participation-row-' + r.student} class=${r.never_spoke ? 'never' : nothing}><th scope="row">${r.name}${
    r.never_spoke ? html` <span class="badge never" data-testid=${'never-spoke-' + r.student}>${t('classes.part.never')}</span>` : nothing}${
    leftBadge(r)}</th>${cell('present', 'num', t('classes.part.present_of', { n: r.games_present, total: r.games_total }))}${
    cell('spokesperson', 'num', String(r.spokesperson))}${cell('representative', 'num', String(r.representative))}${
    cell('ranks', 'ranks', r.ranks.map((x, i) => html`<span class=${'rk' + (x ? '' : ' absent')}>${(i ? '· ' : '') + rankText(x) + ' '}</span>`))}${
    cell('mean_rank', 'num', r.mean_rank == null ? '–' : num(r.mean_rank))}</tr>`;
}

/* ---- 5. exports ---------------------------------------------------------- */
function updateExportLinks() {
  const scheme = '?scheme=' + encodeURIComponent(S.scheme);
  for (const [id, file] of [['export-league', 'league.csv'], ['export-xlsx', 'class.xlsx']]) {
    const a = byTest(id);
    if (a) a.setAttribute('href', U.export + file + scheme);
  }
  const note = $('export-scheme-note');
  if (note) note.textContent = t('classes.export.scheme_note', { scheme: schemeName(S.scheme) });
  drawMoodle();
}
function drawMoodle() {
  const measures = MEASURES.filter((m) => S.measures.has(m));
  const params = 'identifier=' + encodeURIComponent(S.identifier) + '&measures=' + measures.join(',') +
    '&scheme=' + encodeURIComponent(S.scheme);
  const measure = (m, on) => { if (on) S.measures.add(m); else S.measures.delete(m); drawMoodle(); };
  const what = t('classes.export.id.' + S.identifier).toLowerCase();
  const out = S.missing;
  draw($('moodle-box'), html`<form class="moodle" @submit=${(e) => e.preventDefault()}><label class="field" for="moodle-identifier">${
    t('classes.export.identifier')}<select id="moodle-identifier" data-testid="moodle-identifier"
    @change=${(e) => { S.identifier = e.target.value; S.missing = []; drawMoodle(); loadMoodleMissing(); }}>${['email', 'id_number'].map((k) => html`<option
    value=${k} .selected=${k === S.identifier}>${t('classes.export.id.' + k)}</option>`)}</select></label><fieldset class="measures"><legend>${
    t('classes.export.measures')}</legend>${MEASURES.map((m) => html`<label><input type="checkbox" value=${m} data-testid=${'moodle-measure-' + m}
    .checked=${S.measures.has(m)} @change=${(e) => measure(m, e.target.checked)}>${' ' + t('classes.export.m.' + m)}</label>`)}</fieldset><div
    class="hint" data-testid="moodle-missing" role="status" ?hidden=${!out.length}>${out.length ? html`${
    t('classes.export.missing', { what: what, n: out.length })} ${t('classes.export.left_out')}<ul data-testid="moodle-left-out">${
    out.map((s) => html`<li data-testid=${'moodle-left-out-' + s.id}>${t('classes.export.left_out_' + s.reason, { name: s.name, what: what, char: s.value })}</li>`)}</ul>${
    t('classes.export.left_out_fix')}` : nothing}</div><p class="row"><a class="button primary" data-testid="export-moodle" download=""
    href=${measures.length ? U.export + 'moodle.csv?' + params : nothing} aria-disabled=${measures.length ? nothing : 'true'}>${
    t('classes.export.moodle')}</a><span class="error" data-testid="moodle-none" ?hidden=${!!measures.length}>${t('classes.export.moodle_none')}</span></p></form>`);
}
/** Who moodle.csv leaves out and why (no e-mail / ID number, or one a spreadsheet
 *  would run as a formula), as the server decides it: GET export/moodle-missing.json. */
let missingNo = 0;
function loadMoodleMissing() {
  const no = ++missingNo;
  get(U.export + 'moodle-missing.json?identifier=' + encodeURIComponent(S.identifier)).then((res) => {
    if (no !== missingNo || !res.ok) return;
    S.missing = res.left_out || [];
    drawMoodle();
  });
}

/* ---- 6. the class's settings --------------------------------------------- */
function drawSettings() {
  const banks = data.banks || [];
  const bankId = S.klass.bank_id == null ? '' : String(S.klass.bank_id);
  draw($('settings-box'), html`<form class="row" @submit=${(e) => { e.preventDefault(); save({ name: $('class-rename').value }); }}><label
    for="class-rename">${t('classes.settings.name')}</label><input id="class-rename" data-testid="class-rename" .value=${S.klass.name}
    maxlength="200" required><button type="submit" data-testid="class-rename-save">${t('classes.settings.rename')}</button></form><div
    class="row"><label for="class-bank">${t('classes.settings.bank')}</label><select id="class-bank" data-testid="class-bank"
    aria-describedby="class-bank-hint" @change=${(e) => save({ bank_id: e.target.value === '' ? null : Number(e.target.value) })}><option
    value="" .selected=${bankId === ''}>${t('classes.settings.bank_none')}</option>${banks.map((b) => html`<option value=${String(b.id)}
    .selected=${bankId === String(b.id)}>${b.name}</option>`)}</select></div><p class="hint" id="class-bank-hint">${
    t('classes.settings.bank_hint')}</p><label class="check-line"><input type="checkbox" data-testid="class-projector-names"
    .checked=${!!S.klass.projector_names} aria-describedby="projector-hint" @change=${(e) => save({ projector_names: e.target.checked })}>${
    ' ' + t('classes.settings.projector_names')}</label><p class="hint" id="projector-hint">${t('classes.settings.projector_hint')}</p><p
    class=${S.status.cls} role="status" data-testid="settings-status">${S.status.parts}</p>`);
}
function save(changes) {
  send(U.self, changes).then((res) => {
    if (!res.ok) {
      S.status = { cls: 'error', parts: [t('classes.not_saved', { why: '' }), ...refusal(res)] };
      drawSettings();
      return;
    }
    S.klass = Object.assign(S.klass, res.class);
    S.status = { cls: 'hint ok', parts: t('classes.saved') };
    drawSettings();
    if ('name' in changes) renamed();
    if ('bank_id' in changes && $('bank') && S.klass.bank_id != null) { S.bank = S.klass.bank_id; drawNewGame(); refreshQuestions(); }
  });
}
function renamed() {
  $('class-name').textContent = S.klass.name;
  document.title = S.klass.name + ' · ' + document.title.split(' · ').slice(1).join(' · ');
  drawNewGame();
}

/* ---- start ----------------------------------------------------------------- */
confirmForms();
drawStudents();
drawNewGame();
refreshQuestions();
schemeChanged();
loadLeague();
drawParticipation();
loadParticipation();
loadMoodleMissing();
drawSettings();
