/* console.js: the GM console of one game (templates/console/game.html), an ES module
 * composing lib/ (connection, words, timer, dom, widgets) and turn_words.js.
 *
 * Shows the round, the serpentine order, whose turn it is and what the game waits for
 * (from `legal`), the roles, the question with its expected answer, the sealed written
 * answer, and only the actions `legal` lists. The GM can act for every team. Each section
 * is a lit-html template drawn again at each state: an update changes only what differs,
 * so a typed text, the focus and the selection stay.
 *
 * Layout: an action bar (#dock: sticky at the top on a laptop, fixed to the bottom of a
 * handheld ≤ 900 px) holds what the game waits for, the buttons of this step, the timer
 * while the teams deliberate, and Undo/Redo; the rest of the console follows in sections.
 * Each accepted action shows a short confirmation with "Deshacer" (which also clears a
 * stale refusal). Before the first declaration a checklist guides the start; at the end
 * the bar leads to the results.
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
 *     end-turn, exchange-team, exchange-card-I, exchange-take, exchange-send, show-answer, end-game
 *   people: spokesperson-N, spokesperson-N-send, representative-N, representative-N-send,
 *     suggest-spokesperson-N, suggest-representative-N (a class game: who has spoken least);
 *     with a roster (a class game, a pasted class list) spokesperson-N is a choice of its names
 *   league-toggle (a class game, before the first action and once it is over: the class's
 *     league on the projector; in the start guide, and in the action bar at the end)
 *   timer: timer-display, timer-start, timer-pause, timer-resume, timer-extend, timer-restart
 *   tools: undo, redo
 *   scores: team-row-N, score-team-N, devices-N, device-N-ID, device-remove-ID, rank-I (final ranking, I = place in the list)
 *   requests: exchange-request-N, exchange-confirm-N, exchange-dismiss-N
 *   adjust: adjust-team, adjust-points, adjust-reason, adjust-send, adjust-preview, adjustment-I
 *   history: history-turn-N
 *   (template) game-name, games-link, projector-link, record-link, join-N, join-code-N, join-url-N,
 *     join-qr-N, rotate-code-N, shortcuts
 */
import { html, render, nothing, $, drafts, keep, rich } from '../../lib/dom.js';
import { W, readJSON } from '../../lib/words.js';
import { connection, fetchJSON } from '../../lib/connection.js';
import { countdown, onTick } from '../../lib/timer.js';
import { chip, teamLabel as teamLabelOf, teamName, teamOf, teamText as teamTextOf, flash, toast, confirmed,
  offlineBanner, sender } from '../../lib/widgets.js';
import { mode, qtype, special, verdict, card, countCards, legal, awardText as awardTextOf, SPECIALS } from './turn_words.js';
import { stepOf, adjustPlan as planOf } from './console_plan.js';
import { choiceOf } from './turn_plan.js';

/** Draw the teacher's console of the game and keep it live (the page calls it through lib/start.js). */
export function start() {
  const { t, num, signed } = W;
  const page = readJSON('page', {});
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  const missing = t('question.image_missing');

  let S = null;                 // the last state
  let V = null;                 // its view
  const ui = { offer: {}, exTeam: null, exPick: [] };

  const bump = () => { if (S) draw(S); };
  /** Once accepted, a short confirmation with "Deshacer" replaces whatever message was
   *  shown (a stale refusal too); `label`: what it names (the button's text). */
  function confirmDone(action, label) {
    if (action.do === 'undo') { toast(t('console.undone')); return; }
    if (action.do === 'redo') { toast(t('console.redone')); return; }
    const said = t('console.done', { what: (label || '').replace(/\s+/g, ' ').trim() || t('act.title') });
    toast(html`<span class="what" title=${said}>${said}</span>`, 0, () => send({ do: 'undo' }));
  }
  const { send, btn } = sender(conn, confirmDone);
  const cap = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);
  const teamText = (n) => teamTextOf(V, n);
  const teamLabel = (n) => teamLabelOf(V, n);
  const awardsText = (awards) => (awards && awards.length ? awards.map((a) => awardTextOf(V, a)).join(' · ') : '—');
  const named = (n) => [chip(n), html`<span class="tname">${teamName(V, n)}</span>`];
  /** POST JSON to one of this game's console routes; resolves to the answer's JSON. */
  const post = (path, body) => fetchJSON('/console/' + page.game + path, body || {}, t('live.no_answer'));
  const flashRefusal = (ack) => { if (ack && ack.ok === false) flash(ack); };

  /* ---- top bar: round, order, mode ------------------------------------ */
  function barBlock() {
    const turn = V.turn;
    const host = (n) => n === turn.host && !V.over;
    return html`<span class="round" data-testid="round">${V.over ? t('game.over') : t('round.n_of', { n: V.round, total: V.rounds })}</span>
    <span class="dir">${V.round % 2 ? '→' : '←'}</span>
    <ol class="order" aria-label=${t('order.title')}>${V.order.map((n, i) => html`<li data-testid=${'order-' + n}
      class=${(host(n) ? 'host' : '') + (i < V.position || V.over ? ' done' : '')} aria-current=${host(n) ? 'step' : nothing}>${named(n)}</li>`)}</ol>
    ${V.over ? nothing : html`<span class="mode badge" data-testid="mode">${turn.mode ? mode(turn.mode)
      : t('round.allows', { modes: V.round_modes.map(mode).join(' / ') })}</span>`}
    ${V.individual && !V.over ? html`<span class="badge warn">${t('round.individual')}</span>` : nothing}
    ${V.over ? '' : html`<span class="muted">${t('turn.n', { n: turn.number })}</span>`}`;
  }

  /* ---- what the game waits for, and the roles -------------------------- */
  function waiting() {
    const turn = V.turn;
    const { step, entry } = stepOf(S.legal);
    const lines = [];
    let who = null;
    if (V.over) return { who: null, lines: [t('wait.over')] };
    switch (step) {
      case 'declare': who = turn.host; lines.push(t('wait.declare', { team: teamText(turn.host) })); break;
      case 'choose': {
        who = turn.chooser;
        lines.push(t('wait.choose', { team: teamText(turn.chooser) }));
        const d = legal(S, 'desvio');
        if (d) lines.push(t('wait.desvio_open', { team: teamText(d.seats[0]) }));
        const s = legal(S, 'seguro');
        if (s) lines.push(t('wait.seguro_open', { team: teamText(s.seats[0]) }));
        break;
      }
      case 'question': lines.push(t('wait.question')); break;
      case 'verdict':
        who = legal(S, 'write') ? turn.secondary : turn.primary;
        if (legal(S, 'write')) lines.push(t('wait.write', { team: teamText(turn.secondary) }));
        else if (turn.secondary) lines.push(t(turn.has_written ? 'wait.write_locked' : 'wait.write_none', { team: teamText(turn.secondary) }));
        lines.push(t('wait.verdict', { team: teamText(turn.primary) }));
        break;
      case 'pick': who = entry.seats[0]; lines.push(t('wait.pick', { team: teamText(entry.seats[0]) })); break;
      case 'end_turn': lines.push(t('wait.end_turn')); break;
      case 'written': lines.push(t('wait.written', { team: teamText(turn.secondary) })); break;
      case 'argument': who = turn.secondary; lines.push(t('wait.argument', { team: teamText(turn.secondary) })); break;
      default: break;
    }
    if (legal(S, 'elijo') && (step === 'declare' || step === 'choose')) lines.push(t('wait.elijo_open'));
    return { who: who, lines: lines };
  }
  const whoChip = (w, hide) => (w.who ? chip(w.who) : html`<span class="chip gm" aria-hidden=${hide ? 'true' : nothing}>${t('role.gm_short')}</span>`);

  function statusBlock() {
    const turn = V.turn;
    const w = waiting();
    const head = html`<div class="waiting" data-testid="waiting">${whoChip(w)}<div>${w.lines.map((line, i) => (i
      ? html`<p class="sub">${line}</p>` : html`<strong class="">${line}</strong>`))}</div></div>`;
    if (V.over) return [head, ranking(V.standings || [])];
    const roles = [['role-host', t('role.host'), turn.host]];
    if (turn.mode && turn.mode !== 'normal') roles.push(['role-challenged', t('role.challenged'), turn.target]);
    if (turn.mode) roles.push(['role-primary', t('role.primary'), turn.primary]);
    if (turn.secondary) roles.push(['role-secondary', t('role.secondary'), turn.secondary]);
    roles.push(['role-chooser', t('role.chooser'), turn.chooser]);
    const played = [];
    if (turn.desvio_by) played.push(t('played.desvio', { team: teamText(turn.desvio_by), from: teamText(turn.first_target), to: teamText(turn.target) }));
    if (turn.seguro_by) played.push(t('played.seguro', { team: teamText(turn.seguro_by) }));
    if (turn.elijo_by) played.push(t('played.elijo', { team: teamText(turn.elijo_by) }));
    return [head,
      html`<dl class="roles">${roles.map(([id, label, n]) => html`<div data-testid=${id}><dt>${label}</dt><dd>${n ? teamLabel(n) : '—'}</dd></div>`)}</dl>`,
      played.length ? html`<ul class="played">${played.map((p) => html`<li>${p}</li>`)}</ul>` : nothing,
      turn.awards.length ? html`<p class="awards"><strong>${t('turn.awards') + ': '}</strong>${awardsText(turn.awards)}</p>` : nothing];
  }

  function ranking(rows) {
    const cols = ['rank.place', 'rank.team', 'rank.score', 'rank.cards', 'rank.pifies'].map((k) => t(k));
    return html`<table class="rank stacks"><thead><tr>${cols.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${rows.map((r, i) => html`<tr data-testid=${'rank-' + (i + 1)} data-team=${r.team} data-rank=${r.rank}>
      <td class="place" data-label=${cols[0]}>${r.rank}</td><td class="team">${teamLabel(r.team)}</td>
      <td class="score" data-label=${cols[2]}>${num(r.score)}</td><td data-label=${cols[3]}>${r.cards}</td>
      <td data-label=${cols[4]}>${r.pifies}</td></tr>`)}</tbody></table>`;
  }

  /* ---- question: the chosen author and type, text, answer, sealed answer */
  function questionBlock() {
    const turn = V.turn;
    const q = turn.question;
    const sealed = turn.verdict == null;
    return html`<h2>${t('question.title')}</h2>${turn.author
      ? html`<p data-testid="choice" class="choice"><strong>${turn.author}</strong> · ${qtype(turn.type)}</p>`
      : html`<p class="muted">${t('question.not_chosen')}</p>`}${q ? html`${rich('div', 'qtext', 'question-text', q, page.game, 'html', missing)}
    <div class="answer"><strong>${t('question.answer') + ': '}</strong>${q.answer
      ? rich('span', '', 'question-answer', q, page.game, 'answer_html', missing)
      : html`<span data-testid="question-answer" class="muted">${t('question.no_expected_answer')}</span>`}</div>
    ${q.notes ? html`<p class="notes muted" data-testid="question-notes">${q.notes}</p>` : nothing}
    <p class="muted small">${'id: ' + q.id}</p>` : nothing}${turn.secondary ? html`<div class=${'written' + (sealed ? ' sealed' : '')}>
      <strong>${t(sealed ? 'written.sealed_by' : 'written.by', { team: teamText(turn.secondary) })}</strong>
      ${turn.locked ? html`<span class="badge">${t('written.locked')}</span>` : nothing}
      <div class="wtext" data-testid="written-live">${turn.written != null && turn.written.trim() !== '' ? turn.written : t('written.none')}</div>
      ${turn.written_correct != null ? html`<span class="badge">${t(turn.written_correct ? 'written.correct' : 'written.incorrect')}</span>` : nothing}</div>` : nothing}`;
  }

  /* ---- the actions `legal` offers --------------------------------------- */
  function declareBlock(entry) {
    const modes = entry.options.modes || {};
    const host = entry.seats[0] || V.turn.host;
    return html`<p class="sr-only">${t('act.declare_for', { team: teamText(host) })}</p>${
      'normal' in modes ? html`<div class="row">${btn('declare-normal', cap(mode('normal')), { do: 'declare', mode: 'normal' }, 'primary')}</div>` : nothing}${
      ['simple', 'risky'].filter((m) => m in modes).map((m) => html`<div class="row targets"><span class="lbl">${cap(mode(m)) + ' →'}</span>${
        modes[m].map((n) => btn('declare-' + m + '-' + n, [html`<span class="sr-only">${cap(mode(m)) + ' → '}</span>`, named(n)],
          { do: 'declare', mode: m, target: n }, 'primary target', null, t('console.challenge_to', { mode: cap(mode(m)), team: teamText(n) })))}</div>`)}`;
  }

  function chooseBlock(entry) {
    const choices = entry.options.choices || [];
    const { authors, author, types, type } = choiceOf(choices, { author: drafts['choose-author'], type: drafts['choose-type'] });
    drafts['choose-author'] = author;
    drafts['choose-type'] = type;
    const left = (a) => choices.filter((c) => c.author === a).reduce((s, c) => s + c.left, 0);
    return html`<p class="sr-only">${t('act.choose_for', { team: teamText(entry.seats[0] || V.turn.chooser) })}</p>${choices.length
      ? html`<div class="row choose"><select data-testid="choose-author" aria-label=${t('console.choose_author')}
        @change=${(e) => { drafts['choose-author'] = e.target.value; bump(); }}>${authors.map((a) => html`<option value=${a} .selected=${a === author}>${a + ' (' + left(a) + ')'}</option>`)}</select>
      <select data-testid="choose-type" aria-label=${t('console.choose_type')} @change=${(e) => { drafts['choose-type'] = e.target.value; bump(); }}>${
    types.map((c) => html`<option value=${c.type} .selected=${c.type === type}>${qtype(c.type) + ' — ' + t('choose.left', { n: c.left })}</option>`)}</select>
      ${btn('choose-send', t('act.choose'), () => send({ do: 'choose', author: drafts['choose-author'], type: drafts['choose-type'] },
      drafts['choose-author'] + ' · ' + qtype(drafts['choose-type'])), 'primary')}</div>`
      : html`<p class="error">${t('choose.none_left')}</p>`}`;
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
    if (!id) return nothing;
    return html`<div class="row">${btn('question-read', t('act.read'), { do: 'question', id: id }, 'primary', 'Q')}${
      ids.length > 1 ? btn('question-other', t('act.other', { n: ids.length }), () => { ui.offer[key] += 1; bump(); }, '', 'O') : nothing}</div>`;
  }
  function offerBlock(entry) {
    const { ids, id } = offeredId(entry);
    const q = id ? questionInfo(entry, id) : null;
    return html`<h3>${t('act.question', { n: ids.length })}</h3>${!id ? html`<p class="error">${t('choose.none_left')}</p>`
      : html`<div class="offer"><p class="muted small" data-testid="question-id">${id}</p>${q ? html`<p class="qtext" data-testid="question-offer-text">${q.text}</p>
      <p class="answer"><strong>${t('question.answer') + ': '}</strong><span data-testid="question-offer-answer" class=${q.answer ? nothing : 'muted'}>${
    q.answer || t('question.no_expected_answer')}</span></p>${q.notes ? html`<p class="notes muted">${q.notes}</p>` : nothing}` : nothing}</div>`}`;
  }

  function writeBlock(entry) {
    const team = entry.seats[0] || V.turn.secondary;
    const type = V.turn.type;
    const hint = t('write.placeholder.' + (type || 'abierta'));
    const field = type === 'abierta'
      ? html`<textarea data-testid="write-text" rows="3" maxlength="2000" placeholder=${hint} .value=${drafts['write-text'] ?? ''} @input=${keep('write-text')}></textarea>`
      : html`<input data-testid="write-text" maxlength="2000" placeholder=${hint} .value=${drafts['write-text'] ?? ''} @input=${keep('write-text')}>`;
    const go = () => send({ do: 'write', team: team, text: drafts['write-text'] || '' }, t('act.write') + ' · ' + teamText(team)).then((ack) => {
      if (ack && ack.ok) clearField('write-text');
    });
    return html`<h3>${t('act.write_for', { team: teamText(team) })}</h3>${type === 'vf' ? html`<div class="row">${
      btn('write-true', t('write.true'), { do: 'write', team: team, text: 'V' })}${btn('write-false', t('write.false'), { do: 'write', team: team, text: 'F' })}</div>` : nothing}
    <div class="row">${field}${btn('write-send', t('act.write'), go)}</div>`;
  }
  /** Empty a typed field and what it keeps (lit-html sets a value only when it changed). */
  function clearField(name) {
    drafts[name] = '';
    const f = document.querySelector('[data-testid="' + name + '"]');
    if (f) f.value = '';
  }

  function exchangeBlock(entry) {
    const opts = entry.options;
    const teams = Object.keys(opts.cards || {}).map(Number);
    if (!teams.length) return nothing;
    if (!teams.includes(ui.exTeam)) { ui.exTeam = teams[0]; ui.exPick = []; }
    const cards = opts.cards[String(ui.exTeam)] || [];
    ui.exPick = ui.exPick.filter((i) => i < cards.length);
    const take = opts.take.includes(drafts['exchange-take']) ? drafts['exchange-take'] : opts.take[0];
    const toggle = (i) => () => {
      ui.exPick = ui.exPick.includes(i) ? ui.exPick.filter((x) => x !== i) : ui.exPick.concat([i]).slice(-opts.cost);
      bump();
    };
    const go = () => send({ do: 'exchange', team: ui.exTeam, give: ui.exPick.map((i) => cards[i]), take: take }, t('exchange.confirm') + ' · ' + teamText(ui.exTeam))
      .then((ack) => { if (ack && ack.ok) { ui.exPick = []; bump(); } });
    return html`<details class="exchange" ?open=${ui.exOpen} @toggle=${(e) => { ui.exOpen = e.target.open; }}>
    <summary>${t('exchange.title', { n: opts.cost })}</summary>
    <div class="row"><select data-testid="exchange-team" @change=${(e) => { ui.exTeam = Number(e.target.value); ui.exPick = []; bump(); }}>${
    teams.map((n) => html`<option value=${n} .selected=${n === ui.exTeam}>${teamText(n)}</option>`)}</select></div>
    <div class="row cardpick">${cards.map((c, i) => html`<button type="button" data-testid=${'exchange-card-' + i} class=${ui.exPick.includes(i) ? 'on' : ''}
      aria-pressed=${ui.exPick.includes(i) ? 'true' : 'false'} @click=${toggle(i)}>${card(c)}</button>`)}</div>
    <div class="row">${t('exchange.take')}<select data-testid="exchange-take" @change=${(e) => { drafts['exchange-take'] = e.target.value; bump(); }}>${
    opts.take.map((c) => html`<option value=${c} .selected=${c === take}>${special(c)}</option>`)}</select>
      <button type="button" data-testid="exchange-send" class="primary" ?disabled=${ui.exPick.length !== opts.cost} @click=${go}>${t('exchange.confirm')}</button></div>
  </details>`;
  }

  /** The buttons of what the game waits for now: the action bar (#dock-actions). One place
   *  for each kind of block, so a block keeps its elements when another appears. */
  function stepButtons() {
    const turn = V.turn;
    const { step, entry } = stepOf(S.legal);
    if (V.over) {
      return html`<div class="row"><a class="button primary big" href=${page.results} data-testid="see-results">${t('console.see_results')}</a>${leagueToggle()}</div>`;
    }
    const written = legal(S, 'written');
    const both = written && (written.options.correct || []).includes(true);
    const text = turn.written != null && turn.written.trim() !== '' ? turn.written : null;
    return [
      step === 'declare' ? declareBlock(entry) : nothing,
      step === 'choose' ? chooseBlock(entry) : nothing,
      step === 'question' ? questionButtons(entry) : nothing,
      step === 'verdict' ? html`<div class="row verdicts">${btn('verdict-full', '1 · ' + verdict('full'), { do: 'verdict', result: 'full' }, 'good big', '1')}${
        btn('verdict-half', '2 · ' + verdict('half'), { do: 'verdict', result: 'half' }, 'big', '2')}${
        btn('verdict-wrong', '3 · ' + verdict('wrong'), { do: 'verdict', result: 'wrong' }, 'bad big', '3')}${
        legal(S, 'time_up') && turn.secondary ? btn('time-up', t('act.time_up'), { do: 'time_up' }) : nothing}</div>` : nothing,
      step === 'pick' ? html`<div class="row labelled"><span class="lbl">${t('act.pick_for', { team: teamText(entry.seats[0]) })}</span>${
        btn('pick-author', t('pick.author', { name: turn.author }), { do: 'pick', team: entry.seats[0], card: 'author' }, 'primary')}${
        btn('pick-type', t('pick.type', { name: qtype(turn.type) }), { do: 'pick', team: entry.seats[0], card: 'type' }, 'primary')}</div>` : nothing,
      // The answer being judged sits right above its verdict buttons, in the action bar
      // (the question panel may be off screen, or under the bar on a phone).
      written ? html`<div class="row labelled judging"><span class="lbl">${t(both ? 'act.written' : 'act.written_none', { team: teamText(turn.secondary) })}</span>${
        both && text ? html`<blockquote class="judged" data-testid="written-judged" tabindex="0">${text}</blockquote>` : nothing}${
        both ? btn('written-true', t('written.correct'), { do: 'written', correct: true }, 'good') : nothing}${
        btn('written-false', t('written.incorrect'), { do: 'written', correct: false }, both ? 'bad' : '')}</div>` : nothing,
      legal(S, 'argument') ? html`<div class="row labelled"><span class="lbl">${t('act.argument', { team: teamText(turn.secondary) })}</span>${
        btn('argument-good', t('argument.good'), { do: 'argument', result: 'good' }, 'good')}${btn('argument-poor', t('argument.poor'), { do: 'argument', result: 'poor' }, 'bad')}</div>` : nothing,
      legal(S, 'end_turn') ? html`<div class="row">${btn('end-turn', t('act.end_turn'), { do: 'end_turn' }, 'primary big', 'E')}</div>` : nothing,
    ];
  }

  /** The action bar: what the game waits for (one line) and its buttons. */
  function drawDock() {
    const w = waiting();
    render(html`${whoChip(w, true)}<span class="line" title=${w.lines[0] || ''}>${w.lines[0] || ''}</span>`, $('dock-wait'));
    render(stepButtons(), $('dock-actions'));
  }

  /** The rest of the turn's actions (the question on offer, writing for a team, the
   *  specials, the exchange, ending the game): the Actions card. */
  function actionsBlock() {
    const turn = V.turn;
    const { step, entry } = stepOf(S.legal);
    if (V.over) return html`<h2>${t('act.title')}</h2><p>${t('wait.over')}</p>`;
    const desvio = legal(S, 'desvio');
    const seguro = legal(S, 'seguro');
    const elijo = legal(S, 'elijo');
    const write = step === 'verdict' ? legal(S, 'write') : null;
    const exchange = legal(S, 'exchange');
    const endGame = legal(S, 'end_game');
    const answer = turn.verdict && turn.question;
    const any = desvio || seguro || elijo || step === 'question' || write || exchange || answer || endGame;
    const showAnswer = () => conn.emit('show_answer', { show: !S.answer_shown }, true).then(flashRefusal);
    return html`<h2>${t('act.title')}</h2>${desvio ? html`<h3>${t('act.desvio_for', { team: teamText(desvio.seats[0]) })}</h3>
    <div class="row">${desvio.options.targets.map((n) => btn('desvio-' + n, [chip(n), ' ', teamName(V, n)], { do: 'desvio', team: desvio.seats[0], target: n }))}</div>` : nothing}${
    seguro || elijo ? html`<div class="row specials">${seguro ? btn('seguro', t('act.seguro_for', { team: teamText(seguro.seats[0]) }), { do: 'seguro', team: seguro.seats[0] }) : nothing}${
      elijo ? html`<span class="lbl">${special('elijo') + ':'}</span>${elijo.seats.map((n) => btn('elijo-' + n, [chip(n), ' ', teamName(V, n)], { do: 'elijo', team: n }))}` : nothing}</div>` : nothing}${
    step === 'question' ? offerBlock(entry) : nothing}${write ? writeBlock(write) : nothing}${exchange ? exchangeBlock(exchange) : nothing}${
    // After the verdicts the expected answer may go up on the projector (a display
    // choice, not an action: the server refuses it before the verdicts).
    answer ? html`<div class="row">${btn('show-answer', t(S.answer_shown ? 'act.hide_answer' : 'act.show_answer'), showAnswer, S.answer_shown ? 'on' : '')}</div>` : nothing}${
    endGame ? html`<div class="row end">${btn('end-game', t('act.end_game'), () => {
      if (confirmed(t('act.end_game_confirm'))) send({ do: 'end_game' }, t('act.end_game'));
    }, 'bad')}</div>` : nothing}${any ? nothing : html`<p class="muted small">${t('console.actions_in_bar')}</p>`}`;
  }

  /* ---- the first minutes: projector, teams joined, first declaration ------ */
  function drawStart() {
    const box = $('start');
    const fresh = !V.over && !V.history.length && V.turn.number === 1 && !V.turn.mode && stepOf(S.legal).step === 'declare';
    box.hidden = !fresh;
    if (!fresh) { render(nothing, box); return; }   // no stale toggle left in it
    const devices = S.devices || {};
    const joined = V.teams.filter((tm) => devices[String(tm.team)]).map((tm) => tm.team);
    const absent = V.teams.map((tm) => tm.team).filter((n) => !joined.includes(n));
    render(html`<h2>${t('console.start_title')}</h2><ol class="steps">
    <li class=${ui.projector ? 'done' : ''} data-testid="start-projector"><a href=${page.watch} target="_blank" rel="noopener"
      @click=${() => { ui.projector = true; bump(); }}>${t('console.start_projector')}</a>${ui.projector ? ' ✓' : ''}</li>
    <li class=${absent.length ? '' : 'done'} data-testid="start-teams">${t('console.start_teams', { n: joined.length, total: V.teams.length })}${
    absent.length ? html` — ${t('console.start_missing', { teams: absent.join(', ') })} · <a href="#joins">${t('console.start_codes')}</a>` : ' ✓'}</li>
    <li data-testid="start-go">${t('console.start_go', { team: teamText(V.turn.host) })}</li></ol>${leagueToggle()}`, box);
  }

  /* ---- a class game: the league on the projector -------------- */
  /** The toggle of the class's league on the projector: a class game (its state says
   *  `league_shown`), before the first action or once the game is over; else nothing. */
  function leagueToggle() {
    if (!('league_shown' in S) || !(S.seq === 0 || V.over)) return nothing;
    const on = !!S.league_shown;
    return html`<div class="row league"><button type="button" data-testid="league-toggle" class=${on ? 'on' : ''} aria-pressed=${String(on)}
    title=${t('console.league_hint')} @click=${() => post('/league', { shown: !on }).then((ack) => { if (!ack.ok) flash(ack); })}>${t('console.league_show')}</button>${
    on ? html`<span class="muted small" role="status">${t('console.league_on')}</span>` : nothing}</div>`;
  }

  /* ---- a class game: who could speak next (GET /console/<id>/speakers) ----- */
  // Asked again whenever a turn ends or a name is recorded; {teams: {"1": [{name, spoke}]}}.
  function refreshSpeakers() {
    if (!('league_shown' in S)) return;
    const turn = V.turn;
    const key = JSON.stringify([V.history.length, turn.number, turn.spokespersons, turn.representatives, V.over]);
    if (ui.speakersKey === key) return;
    ui.speakersKey = key;
    fetchJSON('/console/' + page.game + '/speakers').then((data) => {
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
  function peopleBlock(sp, rep) {
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
      const id = kind + '-' + n;
      const label = t('people.' + kind) + ' ' + teamText(n);
      const go = () => {
        const f = document.querySelector('#people [data-testid="' + id + '"]');
        const name = f ? f.value.trim() : '';
        if (!name) return;
        send({ do: kind, team: n, name: name }, t('people.' + kind) + ' · ' + teamText(n) + ': ' + name).then((ack) => {
          // A late ack keeps a name picked or typed since.
          if (!ack || !ack.ok || (drafts[id] && drafts[id].trim() !== name)) return;
          if (names) { drafts[id] = ''; bump(); } else clearField(id);
        });
      };
      // A choice shows who is named now, unless the GM has picked another (kept across renders).
      const chosen = drafts[id] || current || '';
      const f = names
        ? html`<select data-testid=${id} aria-label=${label} @change=${(e) => { drafts[id] = e.target.value; bump(); }}>${
          ['', ...names.map((m) => m.name).sort((a, b) => a.localeCompare(b, W.lang))].map((name) => html`<option value=${name} .selected=${name === chosen}>${name || '—'}</option>`)}</select>`
        : html`<input data-testid=${id} placeholder=${current || t('people.name')} maxlength="200" aria-label=${label}
          .value=${drafts[id] ?? ''} @input=${keep(id)} @keydown=${(e) => { if (e.key === 'Enter') go(); }}>`;
      const pick = names && 'spoke' in names[0] ? names[0] : null;
      const suggest = () => {
        drafts[id] = pick.name;
        bump();
        const el = document.querySelector('#people [data-testid="' + id + '"]');
        if (el) el.focus();
      };
      return html`<div class="row person">${f}${btn(id + '-send', '✓', go, '', t('people.save'))}</div>${pick
        ? html`<button type="button" class="suggest" data-testid=${'suggest-' + id} title=${t('console.league_suggest_hint')} @click=${suggest}>${suggestText(pick)}</button>` : nothing}`;
    };
    const cell = (kind, n) => {
      const current = turn[kind === 'spokesperson' ? 'spokespersons' : 'representatives'][String(n)];
      return html`<td><span class="current">${current || ''}</span>${row(kind, n, current)}</td>`;
    };
    return html`<h2>${t(rep ? 'people.title_individual' : 'people.title')}</h2><table class="people">
    <thead><tr><th>${t('rank.team')}</th>${sp ? html`<th>${t('people.spokesperson')}</th>` : nothing}${rep ? html`<th>${t('people.representative')}</th>` : nothing}</tr></thead>
    <tbody>${V.teams.map((tm) => html`<tr><td>${teamLabel(tm.team)}</td>${sp ? cell('spokesperson', tm.team) : nothing}${rep ? cell('representative', tm.team) : nothing}</tr>`)}</tbody></table>`;
  }
  function drawPeople() {
    const sp = legal(S, 'spokesperson');
    const rep = legal(S, 'representative');
    const box = $('people');
    box.hidden = (!sp && !rep) || V.over;
    if (!box.hidden) render(peopleBlock(sp, rep), box);
  }

  /* ---- timer ------------------------------------------------------------ */
  const timerOp = (op) => conn.emit('timer', { op: op }, false).then(flashRefusal);
  function drawTimer() {
    const st = (S.timer || { state: 'idle' }).state;
    // The timer runs only while the teams deliberate (the server refuses it otherwise):
    // the action bar shows it then, and while a clock is still shown on the projector.
    const deliberating = stepOf(S.legal).step === 'verdict';
    $('timerbox').hidden = V.over || (!deliberating && st === 'idle');
    render(deliberating ? [
      st === 'idle' ? btn('timer-start', t('timer.start'), () => timerOp('start'), 'primary', 'S') : nothing,
      st === 'running' ? btn('timer-pause', t('timer.pause'), () => timerOp('pause'), '', 'S') : nothing,
      st === 'paused' ? btn('timer-resume', t('timer.resume'), () => timerOp('resume'), 'primary', 'S') : nothing,
      btn('timer-extend', t('timer.extend'), () => timerOp('extend'), '', '+'),   // the server's extension
      st !== 'idle' ? btn('timer-restart', t('timer.restart'), () => timerOp('restart')) : nothing,
    ] : nothing, $('timer-buttons'));
    tick();
  }
  function tick() {
    if (!S) return;
    const c = countdown(S.timer);
    const el = $('timer-display');
    if (el.textContent !== c.text) el.textContent = c.text;
    el.className = 'bigtime ' + c.state + (c.running && c.seconds <= 10 ? ' low' : '') + (c.expired ? ' expired' : '');
  }
  onTick(tick);

  /* ---- undo / redo ------------------------------------------------------- */
  function drawTools() {
    const undo = legal(S, 'undo');
    const redo = legal(S, 'redo');
    $('tools').hidden = !undo && !redo;
    render(html`<button type="button" data-testid="undo" ?hidden=${!undo} title="U" @click=${() => send({ do: 'undo' })}><span aria-hidden="true">↶ </span><span class="tlabel">${t('act.undo')}</span></button>
    <button type="button" data-testid="redo" ?hidden=${!redo} title="R" @click=${() => send({ do: 'redo' })}><span aria-hidden="true">↷ </span><span class="tlabel">${t('act.redo')}</span></button>`, $('tools'));
  }

  /* ---- scoreboard with devices -------------------------------------------- */
  /** The devices of a team, each with its "Quitar" (remove) button. */
  function deviceList(team, ids) {
    if (!ids || !ids.length) return nothing;
    const remove = (id) => () => {
      if (!confirmed(t('console.remove_device_confirm', { id: id.slice(0, 6), team: teamText(team) }))) return;
      post('/devices/remove', { device: id }).then((ack) => { if (!ack.ok) flash(ack); });
    };
    return html`<div class="small devlist">${ids.map((id) => html`<div class="device" data-testid=${'device-' + team + '-' + id}><code title=${id}>${id.slice(0, 6)}</code>
    <button type="button" class="bad small" data-testid=${'device-remove-' + id} title=${t('console.remove_device_hint')} @click=${remove(id)}>${t('console.remove_device')}</button></div>`)}</div>`;
  }
  function scoresBlock() {
    const devices = S.devices || {};
    const deviceIds = S.device_ids || {};
    // Each cell carries its column's name: on a phone the rows stack and show it (.stacks).
    const cols = ['rank.team', 'rank.score', 'score.cards', 'score.pifies', 'score.special', 'score.devices'].map((k) => t(k));
    return html`<h2>${t('score.title')}</h2><table class="scores stacks">
    <thead><tr>${cols.map((c, i) => html`<th scope="col" class=${i ? 'num' : nothing}>${c}</th>`)}</tr></thead>
    <tbody>${V.teams.map((tm) => html`<tr data-testid=${'team-row-' + tm.team} class=${tm.team === V.turn.host && !V.over ? 'host' : ''}>
      <td class="team">${teamLabel(tm.team)}${tm.markers.length ? html`<div>${tm.markers.map((m) => html`<span class="badge" title=${t('score.markers')}>${mode(m)}</span>`)}</div>` : nothing}${
    tm.cards.length ? html`<div class="small muted">${countCards(tm.cards).map(([c, k]) => card(c) + (k > 1 ? ' ×' + k : '')).join(', ')}</div>` : nothing}</td>
      <td class="num score" data-testid=${'score-team-' + tm.team} data-label=${cols[1]}>${num(tm.score)}</td>
      <td class="num" data-label=${cols[2]}>${tm.cards.length}</td><td class="num" data-label=${cols[3]}>${tm.pifies}</td>
      <td class="specials" data-label=${cols[4]}>${SPECIALS.map((c) => html`<span class="sp" title=${special(c)}>${t('special.short.' + c) + ' ' + (tm.special[c] || 0)}</span>`)}</td>
      <td class="num devices" data-label=${cols[5]}><span data-testid=${'devices-' + tm.team}><span class=${'dot ' + (devices[String(tm.team)] ? 'on' : 'off')} aria-hidden="true"></span>${
    devices[String(tm.team)] || 0}</span>${deviceList(tm.team, deviceIds[String(tm.team)])}</td></tr>`)}</tbody></table>`;
  }

  /* ---- a team's fresh join code (the old one stops working) ---------------- */
  document.querySelectorAll('[data-rotate]').forEach((button) => {
    const team = Number(button.getAttribute('data-rotate'));
    button.addEventListener('click', () => {
      // Team 0: the game's own code, the one the projector shows.
      if (!confirmed(team ? t('console.rotate_confirm', { n: team }) : t('console.rotate_door_confirm'))) return;
      post('/teams/' + team + '/code').then((ack) => {
        if (!ack.ok) { flash(ack); return; }
        const id = (part) => '[data-testid="' + (team ? 'join-' + part + '-' + team : 'door-' + part) + '"]';
        const code = document.querySelector(id('code'));
        const link = document.querySelector(id('url'));
        const qr = document.querySelector(id('qr'));
        if (code) code.textContent = ack.join_code;
        if (link) { link.href = ack.join_url; link.textContent = ack.join_url; }
        if (qr) qr.src = ack.qr_url;
      });
    });
  });

  /* ---- exchange requests ------------------------------------------------ */
  function drawRequests() {
    const reqs = S.exchange_requests || [];
    const box = $('requests');
    box.hidden = !reqs.length;
    const dismiss = (r) => () => conn.emit('dismiss_exchange', { team: r.team }, true).then(flashRefusal);
    render(html`<h2>${t('exchange.requests')}</h2>${reqs.map((r) => html`<div class="request" data-testid=${'exchange-request-' + r.team}>
    <p>${teamLabel(r.team)} ${t('exchange.gives')} <strong>${r.give.map(card).join(', ')}</strong> → <strong>${special(r.take)}</strong></p>
    <div class="row">${btn('exchange-confirm-' + r.team, t('exchange.confirm'), { do: 'exchange', team: r.team, give: r.give, take: r.take }, 'primary')}${
    btn('exchange-dismiss-' + r.team, t('exchange.dismiss'), dismiss(r))}</div></div>`)}`, box);
  }

  /* ---- adjust a score ----------------------------------------------------- */
  const adjustPlan = () => planOf(W, drafts['adjust-team'], drafts['adjust-points'] || '', drafts['adjust-reason'] || '',
    (n) => teamOf(V, n), teamText, ((legal(S, 'adjust') || {}).options || {}).points);
  function adjustBlock() {
    if (!legal(S, 'adjust')) return html`<h2>${t('adjust.title')}</h2>`;
    if (!V.teams.some((tm) => String(tm.team) === drafts['adjust-team'])) drafts['adjust-team'] = String(V.teams[0].team);
    const plan = adjustPlan();
    const typed = (name) => (e) => { drafts[name] = e.target.value; bump(); };
    const go = () => {
      const p = adjustPlan();
      if (!p.ok) return;
      // Cleared as it goes out: a second click cannot apply it twice, and the state that
      // arrives before the acknowledgement draws empty fields.
      const kept = [drafts['adjust-points'], drafts['adjust-reason']];
      clearField('adjust-points');
      clearField('adjust-reason');
      bump();
      send(p.action, p.said).then((ack) => {
        if (!ack || ack.ok !== false) return;
        [drafts['adjust-points'], drafts['adjust-reason']] = kept;
        bump();
      });
    };
    // Text, not type=number: a number field drops the decimal comma of a Spanish keyboard
    // ("0,5" became "05"); readNumber reads it in the page's language.
    return html`<h2>${t('adjust.title')}</h2><div class="row">
    <select data-testid="adjust-team" aria-label=${t('rank.team')} @change=${typed('adjust-team')} @input=${typed('adjust-team')}>${
    V.teams.map((tm) => html`<option value=${tm.team} .selected=${String(tm.team) === drafts['adjust-team']}>${teamText(tm.team)}</option>`)}</select>
    <input data-testid="adjust-points" inputmode="decimal" autocomplete="off" placeholder=${'±' + num(0.5)} aria-label=${t('adjust.points')}
      aria-describedby="adjust-preview" class="short" aria-invalid=${plan.bad ? 'true' : 'false'} .value=${drafts['adjust-points'] ?? ''} @input=${typed('adjust-points')}>
    <input data-testid="adjust-reason" placeholder=${t('adjust.reason')} maxlength="500" aria-label=${t('adjust.reason')}
      .value=${drafts['adjust-reason'] ?? ''} @input=${typed('adjust-reason')} @keydown=${(e) => { if (e.key === 'Enter') go(); }}>
    <button type="button" data-testid="adjust-send" ?disabled=${!plan.ok} @click=${go}>${t('adjust.send')}</button></div>
    <p id="adjust-preview" data-testid="adjust-preview" class=${'small' + (plan.bad ? ' bad' : '')} aria-live="polite">${plan.text}</p>`;
  }

  /* ---- history and adjustments ------------------------------------------- */
  function historyBlock() {
    const rows = V.history.slice().reverse();
    // Each cell carries its column's name: on a phone the rows stack and show it (.stacks).
    const cols = ['history.turn', 'history.round', 'role.host', 'history.mode', 'history.question', 'history.verdict',
      'history.written', 'history.awards'].map((k) => t(k));
    const cell = (i, cls, kids) => html`<td class=${cls || nothing} data-label=${cols[i]}>${kids}</td>`;
    const small = (text, muted) => html`<div class=${muted ? 'small muted' : 'small'}>${text}</div>`;
    const adj = V.adjustments || [];
    return html`<h2>${t('history.title')}</h2>${!rows.length ? html`<p class="muted">${t('history.empty')}</p>` : html`<table class="history stacks">
    <thead><tr>${cols.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr data-testid=${'history-turn-' + r.turn}>${cell(0, 'num', r.turn)}${cell(1, 'num', r.round)}${cell(2, '', chip(r.host))}${
    cell(3, '', [r.mode ? mode(r.mode) : '—', r.challenged ? [' → ', chip(r.challenged)] : nothing,
      r.desvio_by ? small(special('desvio') + ': ' + teamText(r.first_target) + ' → ' + teamText(r.challenged), true) : nothing,
      r.seguro_by ? small(special('seguro') + ': ' + teamText(r.seguro_by), true) : nothing,
      r.elijo_by ? small(special('elijo') + ': ' + teamText(r.elijo_by), true) : nothing])}${
    cell(4, 'wide', [r.author ? html`<strong>${r.author + ' · ' + qtype(r.type)}</strong>` : '—', r.question_text ? small(r.question_text) : nothing])}${
    cell(5, '', [r.verdict ? verdict(r.verdict) : '—', r.argument ? small(t('history.argument') + ': ' + t('argument.' + r.argument)) : nothing])}${
    cell(6, 'wide', r.secondary ? [r.written != null && r.written.trim() ? r.written : t('written.none'),
      r.written_correct != null ? small(t(r.written_correct ? 'written.correct' : 'written.incorrect')) : nothing] : '—')}${
    cell(7, 'wide', [awardsText(r.awards), Object.keys(r.spokespersons || {}).length ? small(t('people.spokesperson') + ': ' +
      Object.entries(r.spokespersons).map(([n, name]) => teamText(Number(n)) + ': ' + name).join(', '), true) : nothing])}</tr>`)}</tbody></table>`}
    <h3>${t('adjust.log')}</h3>${!adj.length ? html`<p class="muted">${t('adjust.none')}</p>` : html`<ul class="adjlog">${adj.map((a, i) => html`<li data-testid=${'adjustment-' + i}>${
    t('history.turn') + ' ' + a.turn + ' · '}${chip(a.team)} ${teamText(a.team)}: <strong>${signed(a.points)}</strong> — ${a.reason}</li>`)}</ul>`}`;
  }

  function draw(state) {
    S = state;
    V = state.view;
    // The page's sections follow the step (the question on offer comes first while choosing it).
    const step = V.over ? 'over' : (stepOf(S.legal).step || '');
    const read = ui.step === 'question' && step === 'verdict';
    ui.step = step;
    $('main').setAttribute('data-step', step);
    refreshSpeakers();
    drawDock();
    drawStart();
    render(barBlock(), $('bar'));
    render(statusBlock(), $('status'));
    $('question').hidden = V.over;
    render(questionBlock(), $('question'));
    render(actionsBlock(), $('actions'));
    drawPeople();
    drawTimer();
    drawTools();
    render(scoresBlock(), $('scores'));
    drawRequests();
    render(adjustBlock(), $('adjust'));
    render(historyBlock(), $('history'));
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
  const main = $('main');
  const dock = $('dock');
  const notice = $('notice');
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

  const socket = conn.connect({ role: 'gm', game: page.game }, draw);
  // window.Live (the connection) also acts and shows a message as the console does: what
  // the browser tests and the developer tools call.
  conn.do = send;
  conn.toast = toast;
  // The console session ended (logout elsewhere, "log out every console", 12 h) or the
  // game was deleted: log in again, then come back here — even in the middle of a game.
  socket.on('connect_error', (err) => {
    if (err && /^auth/.test(err.message || '')) window.location.href = '/console/login?next=' + encodeURIComponent(window.location.pathname);
  });
}
