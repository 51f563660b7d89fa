/* setup.js: the set-up form of a new game (templates/console/games.html), an ES module
 * composing lib/ (words, dom, connection's fetchJSON).
 *
 * One click with the defaults makes a valid game: the fewest teams the game allows,
 * "Equipo 1".."Equipo N", of four members. The defaults, the bounds and the default
 * schedule of each number of rounds are the game's, sent by the server (#setup-data).
 * The settings are checked as they are typed (POST /api/check-settings); team sizes can
 * be proposed from a number of students (GET /api/propose) and a pasted class list dealt
 * into the teams (POST /api/deal). Submitting POSTs JSON to /console/games. The form is
 * one lit-html template drawn again at each change: a typed text, the focus and the
 * selection stay.
 *
 * Test ids:
 *   game-name, students, propose, team-name-I, team-members-I, team-remove-I,
 *   team-roster-I (I = 1..6), team-add, settings-check, roster-text, roster-count,
 *   roster-duplicates, deal,
 *   bank, advanced, rounds, round-R-normal, round-R-simple, round-R-risky,
 *   round-R-individual, round-R-seconds, seconds-all, special-desvio, special-seguro,
 *   special-elijo, bank-desvio, bank-seguro, bank-elijo, exchange-cost, points-card,
 *   points-consolation, points-pifie, points-risky_bonus, max-members, language, create-game,
 *   create-error; a number field's message: <its id>-error; (template) games, game-N,
 *   game-link-N, game-open-N, game-results-N, game-delete-N, banks-link,
 *   record-upload, record-file, record-continue, record-submit, games-empty, logout
 */
import { html, render, nothing, $, drafts } from '../../lib/dom.js';
import { W, readJSON } from '../../lib/words.js';
import { fetchJSON } from '../../lib/connection.js';
import { repeatedNames, schedule, teamsOf } from './setup_plan.js';

/** Draw the set-up form of a new game (the page calls it through lib/start.js). */
export function start() {
  const { t, has, num } = W;
  const data = readJSON('setup-data', { defaults: {}, bounds: {}, banks: [] });
  const D = data.defaults || {};
  const B = data.bounds || {};
  const bound = (key) => B[key] || {};
  const SPECIAL = Object.keys(D.special_cards || {});
  const POINTS = Object.keys(D.points || {});
  const MODES = ['normal', 'simple', 'risky'];
  const LANGUAGES = data.languages || ['es', 'es-ES', 'en'];
  const form = $('setup');
  const noAnswer = t('live.no_answer');

  const defaultName = (i) => t('setup.team_default', { n: i + 1 });
  const model = {
    teams: Array.from({ length: bound('teams').min || 4 }, (_, i) => ({ name: defaultName(i), members: 4 })),
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
  const ui = { check: null, createError: null, creating: false, studentsError: '', rosterOpen: false, advOpen: false };
  model.schedule = schedule(B.schedules, model.rounds, D.deliberation_seconds);

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
  const describe = (res) => [html`<strong>${res.error || ''}</strong>`, ' ', has('rule.' + res.error) ? t('rule.' + res.error) + ' — ' : '', res.message || ''];
  const post = (url, body) => fetchJSON(url, body, noAnswer);

  let checkTimer = null;
  let checkNo = 0;
  function scheduleCheck() {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 300);
  }
  /** Fields whose text is not a number, by test id: their message (nothing is sent while
   *  one is left; the settings check says which). */
  const unreadable = {};
  /** The first field whose number cannot be read, as a sentence, or ''. */
  function unreadableText() {
    const ids = Object.keys(unreadable);
    return ids.length ? t('setup.unreadable', { n: ids.length }) + ' ' + unreadable[ids[0]] : '';
  }
  function showCheck(ok, parts) { ui.check = { ok: ok, parts: parts }; draw(); }
  function check() {
    const no = ++checkNo;
    const bad = unreadableText();
    if (bad) { showCheck(false, bad); return; }
    post('/api/check-settings', { settings: settings() }).then((res) => {
      // Offline: the server checks again on submit.
      if (no !== checkNo || res.error === 'offline') return;
      if (res.ok) showCheck(true, t('setup.check_ok'));
      else showCheck(false, describe(res));
    });
  }

  /** Every field drawn again from the model: what was typed in a number field and its
   *  message go (the model changed under them). */
  function reset(prefix) {
    const mine = (id) => id.startsWith(prefix || '');
    for (const id of Object.keys(drafts)) if (id.startsWith(NUMBERS) && mine(id.slice(NUMBERS.length))) delete drafts[id];
    for (const id of Object.keys(unreadable)) if (mine(id)) delete unreadable[id];
  }
  /** What a number field holds is kept in drafts under this prefix, apart from the texts. */
  const NUMBERS = 'n:';

  function propose(students) {
    return fetchJSON('/api/propose?students=' + encodeURIComponent(students), undefined, noAnswer).then((res) => {
      if (res.sizes) {
        model.teams = teamsOf(res.sizes, model.teams, defaultName);
        model.dealt = null;
        reset();
        draw();
        scheduleCheck();
        return true;
      }
      showCheck(false, describe(res));
      return false;
    });
  }

  const rosterNames = () => (drafts['roster-text'] || '').split('\n').map((s) => s.trim()).filter(Boolean);
  function deal() {
    const names = rosterNames();
    if (!names.length) return;
    const total = sizes().reduce((a, b) => a + b, 0);
    const ready = names.length === total ? Promise.resolve(true) : propose(names.length);
    ready.then((ok) => {
      if (!ok) return;
      post('/api/deal', { names: names, sizes: sizes() }).then((res) => {
        if (res.teams) { model.dealt = res.teams; draw(); } else showCheck(false, describe(res));
      });
    });
  }

  function submit(ev) {
    ev.preventDefault();
    const bad = unreadableText();
    if (bad) { ui.createError = bad; draw(); return; }
    ui.creating = true;
    ui.createError = null;
    draw();
    const name = (drafts['game-name'] || '').trim() || t('setup.name_default', { date: W.date(new Date()) });
    const bank = form.querySelector('[data-testid="bank"]');
    post('/console/games', {
      name: name,
      bank_id: bank && bank.value !== '' ? (isNaN(Number(bank.value)) ? bank.value : Number(bank.value)) : null,
      settings: settings(),
      roster: dealtFits() ? model.dealt : null,
    }).then((res) => {
      if (res.ok && res.url) { window.location.href = res.url; return; }
      ui.creating = false;
      ui.createError = describe(res);
      draw();
    });
  }

  /* ---- the form --------------------------------------------------------- */
  function changed() { draw(); scheduleCheck(); }
  /** A text field kept in drafts[name] (`then`: what else its input does). */
  const typed = (name, then) => (e) => { drafts[name] = e.target.value; if (then) then(e); draw(); };

  /** A number typed as text and read in the page's language (`0,5` and `0.5` in Spanish),
   *  never guessed: an unreadable value keeps the last good one out of the settings and
   *  says why beside the field. `opts`: {integer, min, max}; `onset(value)`: a good one. */
  function numberInput(testid, value, opts, onset, label) {
    const text = drafts[NUMBERS + testid] ?? num(value);
    const error = unreadable[testid];
    const input = (e) => {
      drafts[NUMBERS + testid] = e.target.value;
      const read = W.readNumber(e.target.value, opts);
      if (read.error) unreadable[testid] = read.error;
      else { delete unreadable[testid]; onset(read.value); }
      changed();
    };
    return html`<input data-testid=${testid} .value=${text} inputmode=${opts.integer ? 'numeric' : 'decimal'} autocomplete="off" class="num"
    aria-describedby=${testid + '-error'} aria-invalid=${error ? 'true' : 'false'} aria-label=${label || nothing} @input=${input}><span class="field-error"
    data-testid=${testid + '-error'} id=${testid + '-error'} role="alert" ?hidden=${!error}>${error || ''}</span>`;
  }
  const numberField = (testid, labelText, value, onset, opts) => html`<label>${labelText}${numberInput(testid, value, opts, onset)}</label>`;
  const whole = (key) => ({ integer: true, min: bound(key).min, max: bound(key).max });

  function teamRows() {
    const n = model.teams.length;
    const fits = dealtFits();
    const remove = (i) => () => { model.teams.splice(i, 1); reset(); changed(); };
    return html`<div class="teamrows">${model.teams.map((tm, i) => html`<div class="teamrow">
    <span class=${'chip c' + (i + 1)}>${i + 1}</span>
    <input class="tn" data-testid=${'team-name-' + (i + 1)} .value=${tm.name} maxlength="60" aria-label=${t('setup.team_name', { n: i + 1 })}
      @input=${(e) => { tm.name = e.target.value; changed(); }}>
    <label class="muted">${t('setup.members')} ${numberInput('team-members-' + (i + 1), tm.members, { integer: true, min: 1, max: 99 },
      (v) => { tm.members = v; }, t('setup.members_of', { n: i + 1 }))}</label>
    <button type="button" data-testid=${'team-remove-' + (i + 1)} ?disabled=${n <= (bound('teams').min || 1)} aria-label=${t('setup.remove', { n: i + 1 })}
      @click=${remove(i)}>−</button>
    <div class="roster" data-testid=${'team-roster-' + (i + 1)}>${model.dealt && model.dealt[i] ? (fits ? model.dealt[i].join(', ') : t('setup.redeal')) : ''}</div>
  </div>`)}</div>`;
  }

  function scheduleTable() {
    const round = (i) => t('setup.round') + ' ' + (i + 1) + ': ';
    const touch = (fn) => (e) => { model.scheduleTouched = true; fn(e); changed(); };
    return html`<table class="sched"><thead><tr><th>${t('setup.round')}</th>${MODES.map((m) => html`<th>${t('mode.' + m)}</th>`)}<th>${
      t('setup.individual')}</th><th>${t('setup.seconds')}</th></tr></thead>
    <tbody>${model.schedule.map((s, i) => html`<tr><td>${i + 1}</td>${MODES.map((m) => html`<td><input type="checkbox" data-testid=${'round-' + (i + 1) + '-' + m}
      .checked=${s.modes.includes(m)} aria-label=${round(i) + t('mode.' + m)}
      @change=${touch((e) => { s.modes = MODES.filter((x) => (x === m ? e.target.checked : s.modes.includes(x))); })}></td>`)}
      <td><input type="checkbox" data-testid=${'round-' + (i + 1) + '-individual'} .checked=${s.individual} aria-label=${round(i) + t('setup.individual')}
        @change=${touch((e) => { s.individual = e.target.checked; })}></td>
      <td>${numberInput('round-' + (i + 1) + '-seconds', s.seconds, whole('deliberation_seconds'),
      (v) => { model.scheduleTouched = true; s.seconds = v; }, round(i) + t('setup.seconds'))}</td></tr>`)}</tbody></table>`;
  }

  function setRounds(v) {
    model.rounds = v;
    model.schedule = schedule(B.schedules, v, model.schedule[0].seconds, model.scheduleTouched ? model.schedule : null);
    reset('round-');
  }
  function setAllSeconds(v) {
    model.schedule.forEach((x) => { x.seconds = v; });
    reset('round-');
  }

  function formBlock() {
    const rosterCount = rosterNames().length;
    const repeated = repeatedNames(rosterNames());
    /** "29 students": sizes proposed by the server, once the text is a whole number. */
    const proposeTyped = () => {
      const text = drafts.students || '';
      if (!text.trim()) return;
      const read = W.readNumber(text, { integer: true, min: 1, max: 1000 });
      ui.studentsError = read.error || '';
      draw();
      if (!read.error) propose(read.value);
    };
    const addTeam = () => {
      const last = model.teams[model.teams.length - 1];
      model.teams.push({ name: defaultName(model.teams.length), members: last ? last.members : 4 });
      reset();
      changed();
    };
    const c = ui.check;
    return html`<div class="stack">
    <label for="game-name">${t('setup.name')}</label>
    <input id="game-name" data-testid="game-name" .value=${drafts['game-name'] ?? ''} maxlength="120"
      placeholder=${t('setup.name_default', { date: W.date(new Date()) })} @input=${typed('game-name')}>
    <div class="row"><label>${t('setup.students')}</label><input data-testid="students" .value=${drafts.students ?? ''} placeholder="29"
      inputmode="numeric" autocomplete="off" class="num" aria-label=${t('setup.students')} aria-describedby="students-error"
      aria-invalid=${ui.studentsError ? 'true' : 'false'} @input=${typed('students')}
      @keydown=${(e) => { if (e.key === 'Enter') { e.preventDefault(); proposeTyped(); } }}>
      <button type="button" data-testid="propose" @click=${proposeTyped}>${t('setup.propose')}</button><span class="field-error"
        data-testid="students-error" id="students-error" role="alert" ?hidden=${!ui.studentsError}>${ui.studentsError}</span></div>
    <h2 class="h3">${t('setup.teams')}</h2>
    ${teamRows()}
    <div class="row"><button type="button" data-testid="team-add" ?disabled=${model.teams.length >= (bound('teams').max || 99)}
      @click=${addTeam}>${'+ ' + t('setup.add_team')}</button></div>
    <p class=${'check' + (c ? (c.ok ? ' ok' : ' bad') : '')} data-testid="settings-check" role="status" ?hidden=${!c}>${c ? c.parts : ''}</p>
    <details class="rosterbox" ?open=${ui.rosterOpen || !!drafts['roster-text']} @toggle=${(e) => { ui.rosterOpen = e.target.open; }}>
      <summary>${t('setup.roster')}</summary>
      <p class="hint">${t('setup.roster_hint')}</p>
      <textarea data-testid="roster-text" rows="6" placeholder=${t('setup.roster_placeholder')} .value=${drafts['roster-text'] ?? ''}
        @input=${typed('roster-text')}></textarea>
      <div class="row"><button type="button" data-testid="deal" @click=${deal}>${t('setup.deal')}</button>
        <span class="muted" data-testid="roster-count">${t('setup.roster_count', { n: rosterCount })}</span></div>
      <p class="check bad" role="status" data-testid="roster-duplicates" ?hidden=${!repeated.length}>${repeated.length ? t('setup.roster_duplicates', {
      names: repeated.map((n) => '«' + n + '»').join(', '), example: repeated[0] }) : ''}</p>
    </details>
    <label for="bank">${t('setup.bank')}</label>
    <select id="bank" data-testid="bank">${(data.banks || []).map((b) => html`<option value=${String(b.id)}>${t('setup.bank_option', { name: b.name, n: b.count })}</option>`)}</select>
    <label for="language">${t('setup.language')}</label>
    <select id="language" data-testid="language" aria-describedby="language-hint" @change=${(e) => { model.language = e.target.value; }}>${
    LANGUAGES.map((code) => html`<option value=${code} lang=${code} .selected=${code === model.language}>${t('lang.' + code)}</option>`)}</select>
    <p class="hint" id="language-hint">${t('setup.language_hint')}</p>
    <details class="adv" data-testid="advanced" ?open=${ui.advOpen} @toggle=${(e) => { ui.advOpen = e.target.open; }}>
      <summary>${t('setup.advanced')}</summary>
      <div class="stack">
        <div class="grid2">${numberField('rounds', t('setup.rounds'), model.rounds, setRounds, whole('rounds'))}${
    numberField('seconds-all', t('setup.seconds_all'), model.schedule[0].seconds, setAllSeconds, whole('deliberation_seconds'))}</div>
        ${scheduleTable()}
        <h2 class="h3">${t('setup.special_cards')}</h2>
        <div class="grid2">${SPECIAL.map((c) => numberField('special-' + c, t('special.' + c), model.special[c], (v) => { model.special[c] = v; }, whole('special_cards')))}</div>
        <h2 class="h3">${t('setup.bank_cards')}</h2>
        <div class="grid2">${SPECIAL.map((c) => numberField('bank-' + c, t('special.' + c), model.bank[c], (v) => { model.bank[c] = v; }, whole('bank_special_cards')))}</div>
        <h2 class="h3">${t('setup.points')}</h2>
        <div class="grid2">${POINTS.map((p) => numberField('points-' + p, t('setup.points.' + p), model.points[p], (v) => { model.points[p] = v; },
      { min: bound('points').min, max: bound('points').max }))}</div>
        <div class="grid2">${numberField('exchange-cost', t('setup.exchange_cost'), model.cost, (v) => { model.cost = v; }, whole('exchange_cost'))}${
    numberField('max-members', t('setup.max_members'), model.maxMembers, (v) => { model.maxMembers = v; }, whole('members'))}</div>
      </div>
    </details>
    <p class="check bad" data-testid="create-error" role="alert" ?hidden=${!ui.createError}>${ui.createError || ''}</p>
    <button type="submit" class="primary big" data-testid="create-game" ?disabled=${ui.creating}>${t('setup.create')}</button>
  </div>`;
  }

  function draw() { render(formBlock(), form); }

  form.replaceChildren();              // the "connecting" line the page shows before the module runs
  form.addEventListener('submit', submit);
  draw();
  scheduleCheck();
}
