/* team.js: a team's tablet or phone (templates/team/play.html), an ES module composing
 * lib/ (connection, words, timer, dom, widgets).
 *
 * Shows the team its role this turn and only what `legal` lets it do (the server sends a
 * team only its own entries). The text being written is kept per tab and sent again after
 * a reconnection while the time is not up. Each section is a lit-html template: an update
 * changes only what differs, so a typed text, the focus and the selection stay.
 *
 * Test ids: those of the template, and act: declare-normal, declare-simple-N,
 * declare-risky-N, desvio-N, elijo, seguro, choose-author, choose-type, choose-send,
 * write-true, write-false, write-text, write-send, write-take, write-pen, write-status,
 * write-counts, write-conflict, pick-author, pick-type; now: round, order-N, mode,
 * team-waiting, team-played, choice, question-text, team-timer, written-reveal, verdict;
 * team-result-total; mine: my-cards, my-special, my-pifies; exchange: exchange-card-I,
 * exchange-take, exchange-request, exchange-pending; speaker: spokesperson-name,
 * spokesperson-send, representative-name, representative-send; board: score-team-N, rank-I.
 */
import { html, render, nothing, $, drafts, keep, rich } from '../../lib/dom.js';
import { W, readJSON } from '../../lib/words.js';
import { connection, uuid } from '../../lib/connection.js';
import { countdown, onTick } from '../../lib/timer.js';
import { chip, teamLabel, teamName, teamOf, teamText as teamTextOf, flash, confirmed, offlineBanner, sender } from '../../lib/widgets.js';
import { mode, qtype, special, verdict, card, countCards, legal, awardText as awardTextOf, SPECIALS } from './turn_words.js';
import { choiceOf } from './turn_plan.js';

/** Draw a team's page of the game and keep it live (the page calls it through lib/start.js). */
export function start() {
  const { t, num, signed, ordinal } = W;
  const page = readJSON('page', {});
  const me = page.team;
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  const store = (where) => ({
    get(k) { try { return JSON.parse(where().getItem(k)); } catch (e) { return null; } },
    set(k, v) { try { where().setItem(k, JSON.stringify(v)); } catch (e) { /* private mode */ } },
  });
  const local = store(() => localStorage);
  const tabStore = store(() => sessionStorage);
  const DRAFT = 'facilitator:draft:' + page.game + ':' + me;
  const AUTHORS = 'facilitator:authors:' + page.game;

  let S = null;
  let V = null;
  let resend = true;            // after loading or reconnecting, an unsent draft goes out
  const ui = { exPick: [] };
  const authors = new Set(local.get(AUTHORS) || []);

  // Socket.IO hands a reconnected page its first state before it says "connected": the
  // draft typed offline is looked at once the page is online again.
  conn.onOnline((up) => { if (!up) resend = true; else if (resend && S) draw(S); });

  const bump = () => { if (S) draw(S); };
  const { send, btn } = sender(conn);
  /** A card or a challenge: said in one line, confirmed before it is spent. */
  const askFirst = (action, text) => () => { if (confirmed(text)) send(action); };
  const teamText = (n) => teamTextOf(V, n);
  const awardText = (a) => awardTextOf(V, a);
  const mine = () => teamOf(V, me) || { cards: [], special: {}, markers: [] };
  const named = (n) => [chip(n), ' ', teamName(V, n)];

  /* ---- the written anticipation: one pen per team --------------------
   * Each tab keeps its own draft (sessionStorage: a reload keeps it, a second tab of the
   * same browser has its own). What a tab types goes to the team's other devices as a
   * `draft`: they show it, read-only, and may take the pen ("Escribir aquí"), going on
   * from that text. Only a sent text counts (the last `write`), and every device of the
   * team says which one, before and after the time is up; nothing is sent by itself but a
   * draft this tab typed while offline, and only if no other device sent since it began. */
  const TAB = tabStore.get('facilitator:tab') || uuid();
  tabStore.set('facilitator:tab', TAB);
  function draft() {
    const d = tabStore.get(DRAFT);
    return d && d.turn === V.turn.number ? d : null;
  }
  /** This tab's draft; `base` is the team's sent text when the draft began, `mine` the
   *  tab's last send (its own even if unacknowledged). */
  function saveDraft(text, sent, mine) {
    const d = draft();
    tabStore.set(DRAFT, { turn: V.turn.number, text: text, sent: sent,
      base: d && !d.sent ? d.base : (V.turn.written == null ? null : V.turn.written),
      mine: mine === undefined && d ? d.mine : mine });
  }
  /** Another tab or device of the team holds the pen: its last draft of this turn. */
  function penElsewhere() {
    const p = ui.pen;
    return p && p.key === V.turn.number && p.writer !== TAB ? p : null;
  }
  /** Whether draft `d` (another device's) came after this tab's own last draft of the
   *  turn, in the order the server gave both (its time, then the writer's id): every
   *  device of the team agrees on who typed last (one pen per team). */
  function later(d) {
    const m = ui.mine;
    if (!m || m.key !== d.key) return true;
    return d.at > m.at || (d.at === m.at && String(d.writer) > TAB);
  }
  let draftTimer = null;
  // Drafts unanswered or to go: who holds the pen may still change (aria-busy says so).
  let sharing = 0;
  const shared = () => { if (!--sharing) bump(); };
  function shareDraft(text, now) {
    if (draftTimer) { clearTimeout(draftTimer); sharing--; }
    sharing++;
    const key = V.turn.number;
    const go = () => {
      draftTimer = null;
      if (!conn.socket || !conn.socket.connected) return shared();
      conn.socket.timeout(1e4).emit('draft', { for: 'write', key: key, text: text, writer: TAB }, (err, ack) => {
        shared();
        if (err || !ack || !ack.ok || typeof ack.at !== 'number') return;
        if (!ui.mine || ui.mine.key !== key || ack.at >= ui.mine.at) ui.mine = { key: key, at: ack.at };
        // Typed after the draft shown here from another device: the pen is this tab's.
        const p = penElsewhere();
        if (p && !later(p)) { ui.pen = null; bump(); }
      });
    };
    if (now) go(); else draftTimer = setTimeout(go, 300);
  }
  /** This tab's own words of the turn that another device's text now covers: kept, shown
   *  and offered back, so that nothing typed is lost (one pen per team). */
  function ownCovered(other) {
    const d = draft();
    const own = d && !d.sent && d.text.trim() ? d.text : (ui.kept && ui.kept.turn === V.turn.number ? ui.kept.text : null);
    return own && own !== other.text ? own : null;
  }
  function sendWrite(text) {
    const turn = V.turn.number;
    saveDraft(text, false, text);
    ui.pen = null;                     // sending takes the pen
    shareDraft(text, true);
    ui.writing = text;                 // queued while offline: not sent a second time
    return send({ do: 'write', team: me, text: text }).then((ack) => {
      if (ui.writing === text) ui.writing = null;
      // A late ack must not undo a newer draft.
      if (ack && ack.ok && V.turn.number === turn) { const d = draft(); if (!d || d.text === text) saveDraft(text, true); bump(); }
    });
  }
  function unsent() {
    const d = draft();
    return d && !d.sent && d.text.trim() && d.text !== V.turn.written && d.text !== ui.writing ? d : null;
  }
  /** The sentence every device of the team shows: which text counts now. */
  function countsText() {
    const written = V.turn.written;
    return written != null && written.trim() ? t('write.counts', { text: written }) : t('write.counts_none');
  }
  const writeField = () => document.querySelector('[data-testid="write-text"]');

  /** This tab takes the pen with `text` (the other device's, to go on from it, or its own
   *  words back); `left` (the text it leaves) stays shown here for the turn. */
  function takePen(text, left) {
    if (left && left.trim()) ui.kept = { turn: V.turn.number, text: left };
    saveDraft(text, false);
    ui.pen = null;
    shareDraft(text, true);
    bump();
    const again = writeField();
    if (again) { again.focus(); try { again.setSelectionRange(again.value.length, again.value.length); } catch (e) { /* */ } }
  }

  function writeBlock() {
    const type = V.turn.type;
    const d = draft();
    const written = V.turn.written;
    const other = penElsewhere();
    const u = unsent();
    const sent = written != null && written.trim();
    const typed = (e) => { saveDraft(e.target.value, false); shareDraft(e.target.value); bump(); };
    const kept = ui.kept && ui.kept.turn === V.turn.number ? ui.kept.text : null;
    const current = d ? d.text : (written || '');
    // Words this tab typed that another text covers now: shown and offered back.
    const covered = other ? ownCovered(other) : (kept && kept !== current ? kept : null);
    let field = nothing;
    if (type !== 'vf') {
      const value = other ? other.text : (d ? d.text : (written || ''));
      const label = t('team.act.write');
      const hint = t('write.placeholder.' + type);
      const pen = other ? 'write-pen' : nothing;
      // Nothing sent and nothing typed: the line of what counts says it already.
      field = html`${other ? html`<p class="pen" id="write-pen" data-testid="write-pen" role="status">${t('write.pen_elsewhere')}</p>` : nothing}
      ${covered ? html`<p class="kept" data-testid="write-kept">${t('write.kept', { text: covered })}</p>` : nothing}
      ${type === 'abierta'
      ? html`<textarea data-testid="write-text" maxlength="2000" placeholder=${hint} aria-label=${label} ?readonly=${!!other}
        aria-describedby=${pen} aria-busy=${sharing ? 'true' : 'false'} .value=${value} @input=${typed}></textarea>`
      : html`<input data-testid="write-text" maxlength="2000" placeholder=${hint} aria-label=${label} ?readonly=${!!other}
        aria-describedby=${pen} aria-busy=${sharing ? 'true' : 'false'} list=${type === 'quien' ? 'authors-list' : nothing} autocomplete=${type === 'quien' ? 'off' : nothing}
        .value=${value} @input=${typed}>`}
      ${type === 'quien' ? html`<datalist id="authors-list">${Array.from(authors).sort().map((a) => html`<option value=${a}></option>`)}</datalist>` : nothing}
      <div class="choices">${other
      ? [btn('write-take', t('write.take'), () => takePen(other.text, covered), 'primary big'),
        covered ? btn('write-mine', t('write.mine'), () => takePen(covered, other.text), 'big') : nothing]
      : [btn('write-send', t('write.send'), () => sendWrite(writeField().value), 'primary big'),
        covered ? btn('write-mine', t('write.back'), () => takePen(covered, current), 'big') : nothing]}</div>`;
    }
    return html`<h2>${t('team.act.write')}</h2><p class="hint">${t('write.hint.' + type)}</p>
    ${type === 'vf' ? html`<div class="choices">${btn('write-true', t('write.true'), () => sendWrite('V'), written === 'V' ? 'on big' : 'big')}${
      btn('write-false', t('write.false'), () => sendWrite('F'), written === 'F' ? 'on big' : 'big')}</div>` : field}
    <p data-testid="write-status" class=${'small ' + (u ? 'unsent' : 'sent')} ?hidden=${!u && !sent}>${u ? t('write.unsent') : (sent ? t('write.sent', { text: written }) : '')}</p>
    <p data-testid="write-counts" class="counts">${countsText()}</p>
    ${ui.conflict ? html`<p class="unsent" data-testid="write-conflict" role="alert">${t('write.conflict', { text: ui.conflict })}</p>` : nothing}`;
  }

  /* ---- what this team may do now -------------------------------------------
   * One place for each kind of block, so a block keeps its elements when another appears. */
  function actBlocks() {
    const turn = V.turn;
    const declare = legal(S, 'declare');
    const modes = declare ? declare.options.modes || {} : {};
    const bonus = signed((V.points || {}).risky_bonus);     // this game's bonus
    const desvio = legal(S, 'desvio');
    const seguro = legal(S, 'seguro');
    const elijo = legal(S, 'elijo');
    // Each card: what it does in one line, and a confirmation before it is spent.
    const cardBlock = (c) => html`<div class="special"><p class="what"><strong>${special(c)}</strong>: ${t('team.what.' + c)}</p>${
      btn(c, special(c), askFirst({ do: c, team: me }, t('team.confirm.' + c)), 'big')}</div>`;
    const pick = legal(S, 'pick');
    return [
      declare ? html`<h2>${t('team.act.declare')}</h2>${'normal' in modes ? html`<div class="choices">${btn('declare-normal', mode('normal'), { do: 'declare', mode: 'normal' }, 'primary big')}</div>` : nothing}
      ${['simple', 'risky'].filter((m) => modes[m]).map((m) => html`<h3>${mode(m)}</h3><p class="hint what">${t('team.what.' + m, { bonus: bonus })}</p>
        <div class="choices">${modes[m].map((n) => btn('declare-' + m + '-' + n, named(n),
      askFirst({ do: 'declare', mode: m, target: n }, t('team.confirm.' + m, { team: teamText(n), bonus: bonus })), 'big'))}</div>`)}` : nothing,
      desvio ? html`<h2>${t('team.act.desvio')}</h2><p class="hint">${t('team.act.desvio_hint')}</p><div class="choices">${
        desvio.options.targets.map((n) => btn('desvio-' + n, named(n), askFirst({ do: 'desvio', team: me, target: n }, t('team.confirm.desvio', { team: teamText(n) })), 'big'))}</div>` : nothing,
      seguro || elijo ? html`<h2>${t('team.act.specials')}</h2><div class="specials">${
        elijo && (mine().special.elijo || 0) > 0 ? cardBlock('elijo') : nothing}${seguro && (mine().special.seguro || 0) > 0 ? cardBlock('seguro') : nothing}</div>` : nothing,
      chooseBlock(),
      legal(S, 'write') ? writeBlock() : nothing,
      pick ? html`<h2>${t('team.act.pick')}</h2><div class="choices">${
        btn('pick-author', t('pick.author', { name: turn.author }), { do: 'pick', team: me, card: 'author' }, 'primary big')}${
        btn('pick-type', t('pick.type', { name: qtype(turn.type) }), { do: 'pick', team: me, card: 'type' }, 'primary big')}</div>` : nothing,
    ];
  }

  function chooseBlock() {
    const choose = legal(S, 'choose');
    if (!choose) return nothing;
    const choices = choose.options.choices || [];
    for (const c of choices) authors.add(c.author);
    const { authors: names, author, types, type } = choiceOf(choices, { author: drafts['choose-author'], type: drafts['choose-type'] });
    drafts['choose-author'] = author;
    drafts['choose-type'] = type;
    return html`<h2>${t('team.act.choose')}</h2><label>${t('team.act.author')}</label>
    <select data-testid="choose-author" aria-label=${t('team.act.author')}
      @change=${(e) => { drafts['choose-author'] = e.target.value; delete drafts['choose-type']; bump(); }}>${
    names.map((a) => html`<option value=${a} .selected=${a === author}>${a}</option>`)}</select>
    <label>${t('team.act.type')}</label>
    <select data-testid="choose-type" aria-label=${t('team.act.type')} @change=${(e) => { drafts['choose-type'] = e.target.value; }}>${
    types.map((c) => html`<option value=${c.type} .selected=${c.type === type}>${qtype(c.type) + ' (' + c.left + ')'}</option>`)}</select>
    <div class="choices">${btn('choose-send', t('act.choose'), () => send({ do: 'choose', author: author, type: drafts['choose-type'] }), 'primary big')}</div>`;
  }

  /* ---- role and what the game waits for -----------------------------------
   * Drawn from the team's view: the turn's roles, the step the engine says the turn
   * waits for (view.turn.step), this team's own legal entries and the timer. */
  function roleOf() {
    const turn = V.turn;
    if (V.over) return 'over';
    if (turn.host === me) return 'host';
    if (turn.target === me) return 'challenged';
    if (turn.elijo_by === me) return 'chooser';
    return 'adjunct';
  }
  /** Whether this team has a part in the turn (it acts, answers, writes or chooses). */
  function inTurn() {
    const turn = V.turn;
    return roleOf() !== 'adjunct' || turn.primary === me || turn.secondary === me ||
      S.legal.some((e) => e.do !== 'spokesperson' && e.do !== 'representative');
  }
  function roleText() {
    const turn = V.turn;
    if (V.over) return t('wait.over');
    const parts = [t('team.role.' + roleOf())];
    if (turn.mode) {
      if (turn.primary === me) parts.push(t('team.you_answer'));
      else if (turn.secondary === me) parts.push(t('team.you_write'));
    }
    if (V.individual) parts.push(t('round.individual'));
    return parts.join(' · ');
  }
  function waitText() {
    const turn = V.turn;
    const step = turn.step || { name: null };
    const look = inTurn() ? '' : ' ' + t('team.look_projector');
    const c = countdown(S.timer);
    const answerer = turn.primary === me;
    switch (step.name) {
      case 'over': return '';
      case 'declare':
        return turn.host === me ? t('team.wait.you_declare') : t('wait.declare', { team: teamText(turn.host) }) + look;
      case 'prepare': {
        if (turn.chooser === me) return t('team.wait.you_choose');
        const extra = ['desvio', 'seguro', 'elijo'].filter((k) => legal(S, k)).map((k) => t('team.wait.may_' + k));
        return [t('wait.choose', { team: teamText(turn.chooser) })].concat(extra).join(' ') + look;
      }
      case 'question':
        return t('wait.question') + (answerer ? ' ' + t('team.wait.then_answer')
          : turn.secondary === me ? ' ' + t('team.wait.then_write') : look);
      case 'write':
      case 'verdict': {
        if (step.name === 'write' && turn.secondary === me) {
          return S.timer && S.timer.state === 'idle' ? t('team.wait.write_before_clock') : t('team.wait.you_write');
        }
        if (turn.locked || c.expired) {
          return t('team.wait.time_up') + ' ' + (answerer ? t('team.wait.you_answer_now') : t('wait.verdict', { team: teamText(turn.primary) }));
        }
        if (!S.timer || S.timer.state === 'idle') return t('team.wait.clock_idle') + (answerer ? ' ' + t('team.wait.you_answer') : look);
        if (S.timer.state === 'paused') return t('team.wait.clock_paused') + (answerer ? ' ' + t('team.wait.you_answer') : '');
        return answerer ? t('team.wait.you_answer') : t('team.wait.deliberate') + look;
      }
      case 'pick':
        return step.team === me ? t('team.wait.you_pick') : t('wait.pick', { team: teamText(step.team) });
      case 'written': return t('wait.written', { team: teamText(turn.secondary) });
      case 'argument':
        return turn.secondary === me ? t('team.wait.you_argue') : t('wait.argument', { team: teamText(turn.secondary) });
      case 'end_turn': return t('team.wait.resolving');
      default: return '';
    }
  }

  function nowBlock() {
    const turn = V.turn;
    const host = (n) => n === turn.host && !V.over;
    const wt = waitText();
    // The cards this team played this turn, and what they do now.
    const played = [['desvio', turn.desvio_by], ['elijo', turn.elijo_by], ['seguro', turn.seguro_by]]
      .filter(([, by]) => by === me).map(([c]) => t('team.played.' + c));
    const written = turn.written != null && turn.written.trim() ? turn.written : t('written.none');
    // The writing closed with words typed here and never sent: they do not count, and
    // this device says so (one pen per team).
    const late = turn.question && turn.secondary === me && !legal(S, 'write') ? unsent() : null;
    return html`<p class="row"><strong data-testid="round">${V.over ? t('game.over') : t('round.n_of', { n: V.round, total: V.rounds })}</strong>
    <span class="row" role="group" aria-label=${t('order.title')}>${V.order.map((n) => html`<span data-testid=${'order-' + n}
      class=${host(n) ? 'host-mark' : 'dim'}>${chip(n, host(n) ? 'host' : '')}</span>`)}</span>${
    turn.mode ? html`<span class="badge" data-testid="mode">${mode(turn.mode)}</span>` : nothing}</p>
    ${wt ? html`<p data-testid="team-waiting">${wt}</p>` : nothing}
    ${turn.mode && turn.mode !== 'normal' ? html`<p class="small">${t('role.host') + ': ' + teamText(turn.host) + ' · ' + t('role.challenged') + ': ' + teamText(turn.target)}</p>` : nothing}
    ${played.length ? html`<p class="played" data-testid="team-played">${played.join(' ')}</p>` : nothing}
    ${turn.author ? html`<p data-testid="choice"><strong>${turn.author}</strong> · ${qtype(turn.type)}</p>` : nothing}
    ${turn.question ? rich('div', 'question', 'question-text', turn.question, page.game, 'html', t('question.image_missing')) : nothing}
    ${turn.question && !turn.verdict ? html`<p class="timer" data-testid="team-timer" id="team-timer"></p>` : nothing}
    ${turn.question && !turn.verdict && turn.secondary === me && !legal(S, 'write') ? html`<p class="counts" data-testid="write-counts">${countsText()}</p>` : nothing}
    ${late ? html`<p class="unsent" data-testid="write-late" role="status">${t('write.late', { text: late.text })}</p>` : nothing}
    ${turn.verdict ? html`<p data-testid="verdict">${t('turn.verdict')}: <strong>${verdict(turn.verdict)}</strong></p>
      ${turn.secondary ? html`<p data-testid="written-reveal">${t('written.by', { team: teamText(turn.secondary) })}: <strong>${written}</strong></p>` : nothing}` : nothing}
    ${turn.awards.length ? html`<p class="small">${t('turn.awards') + ': ' + turn.awards.map(awardText).join(' · ')}</p>` : nothing}`;
  }

  /* ---- after a verdict: what this team won or lost, big -------------------
   * Each award carries its points in this game's settings (the view's third field). */
  const pointsOf = (a) => (typeof a[2] === 'number' ? a[2] : 0);
  function drawResult() {
    const turn = V.turn;
    const box = $('result');
    const involved = turn.verdict && (turn.primary === me || turn.secondary === me || turn.awards.some((a) => a[0] === me));
    box.hidden = !involved || V.over;
    if (box.hidden) return;
    const mineA = turn.awards.filter((a) => a[0] === me);
    const total = mineA.reduce((sum, a) => sum + pointsOf(a), 0);
    // Until the turn is resolved, what was won so far is not the result: no "you won
    // nothing" above "which card do you keep?".
    const settled = turn.step && turn.step.name === 'end_turn';
    let head;
    if (!settled) {
      head = turn.step && turn.step.name === 'pick' && turn.step.team === me
        ? t('team.result_pick', { verdict: verdict(turn.verdict) }) : t('team.result_pending');
    } else {
      head = total > 0 ? t('team.result_won', { points: signed(total) }) : total < 0
        ? t('team.result_lost', { points: num(total) }) : t('team.result_none');
    }
    box.className = 'panel result ' + (!settled ? 'even' : total > 0 ? 'won' : total < 0 ? 'lost' : 'even');
    render(html`<p class="big-result" data-testid="team-result-total">${head}</p>${
      mineA.length ? html`<ul class="result-list">${mineA.map((a) => html`<li>${awardText(a)}</li>`)}</ul>` : nothing}`, box);
  }

  function mineBlock() {
    const tm = mine();
    return html`<h2>${t('team.mine')}</h2>${tm.cards.length
      ? html`<ul class="cards" data-testid="my-cards">${countCards(tm.cards).map(([c, k]) => html`<li>${card(c) + (k > 1 ? ' ×' + k : '')}</li>`)}</ul>`
      : html`<p class="muted" data-testid="my-cards">${t('team.no_cards')}</p>`}
    <ul class="cards" data-testid="my-special">${SPECIALS.map((c) => html`<li>${special(c) + ': ' + (tm.special[c] || 0)}</li>`)}</ul>
    <p class="small" data-testid="my-pifies">${t('score.pifies') + ': ' + tm.pifies + ' · ' + t('award.consolation') + ': ' + tm.consolations +
        ' · ' + t('award.risky_bonus') + ': ' + tm.bonuses + (tm.markers.length ? ' · ' + t('score.markers') + ': ' + tm.markers.map(mode).join(', ') : '')}</p>`;
  }

  function drawExchange() {
    const ex = legal(S, 'request_exchange');
    const reqs = (S.exchange_requests || []).filter((r) => r.team === me);
    const box = $('exchange');
    box.hidden = !ex && !reqs.length;
    if (box.hidden) return;
    let offer = nothing;
    if (ex) {
      const cost = ex.options.cost;
      const cards = (ex.options.cards && ex.options.cards[String(me)]) || mine().cards.slice().sort();
      ui.exPick = ui.exPick.filter((i) => i < cards.length);
      const take = ex.options.take.includes(drafts['exchange-take']) ? drafts['exchange-take'] : ex.options.take[0];
      const toggle = (i) => () => {
        ui.exPick = ui.exPick.includes(i) ? ui.exPick.filter((x) => x !== i) : ui.exPick.concat([i]).slice(-cost);
        bump();
      };
      const request = () => conn.emit('request_exchange', { id: uuid(), give: ui.exPick.map((i) => cards[i]), take: take }, true)
        .then((ack) => {
          if (ack && ack.ok === false) flash(ack);
          else { flash(t('exchange.requested')); ui.exPick = []; bump(); }
        });
      offer = html`<p class="hint">${t('exchange.hint', { n: cost })}</p>
      <div class="choices">${cards.map((c, i) => html`<button type="button" data-testid=${'exchange-card-' + i} class=${ui.exPick.includes(i) ? 'on' : ''}
        aria-pressed=${ui.exPick.includes(i) ? 'true' : 'false'} @click=${toggle(i)}>${card(c)}</button>`)}</div>
      <p class="row">${t('exchange.take')}<select data-testid="exchange-take" aria-label=${t('exchange.take')} @change=${(e) => { drafts['exchange-take'] = e.target.value; bump(); }}>${
    ex.options.take.map((c) => html`<option value=${c} .selected=${c === take}>${special(c)}</option>`)}</select></p>
      <div class="choices"><button type="button" data-testid="exchange-request" class="primary" ?disabled=${ui.exPick.length !== cost} @click=${request}>${t('exchange.request')}</button></div>`;
    }
    const r = reqs[0];
    render(html`<h2>${t('exchange.title', { n: ex ? ex.options.cost : r.give.length })}</h2>${r ? html`<p class="unsent" data-testid="exchange-pending">${
      t('exchange.pending', { give: r.give.map(card).join(', '), take: special(r.take) })}</p>` : nothing}${offer}`, box);
  }

  function drawSpeaker() {
    const kinds = ['spokesperson', 'representative'].filter((k) => legal(S, k));
    const box = $('speaker');
    box.hidden = !kinds.length;
    if (box.hidden) return;
    const members = page.members || [];
    render(kinds.map((kind) => {
      const current = V.turn[kind === 'spokesperson' ? 'spokespersons' : 'representatives'][String(me)];
      const id = kind + '-name';
      const go = () => {
        const f = box.querySelector('[data-testid="' + id + '"]');
        if (!f.value.trim()) return;
        send({ do: kind, team: me, name: f.value.trim() }).then((ack) => {
          if (ack && ack.ok) { drafts[id] = ''; f.value = ''; }
        });
      };
      const chosen = drafts[id] !== undefined ? drafts[id] : (current || '');
      const f = members.length
        ? html`<select data-testid=${id} aria-label=${t('people.' + kind)} @change=${keep(id)}>${
          ['', ...members].map((m) => html`<option value=${m} .selected=${m === chosen}>${m || '—'}</option>`)}</select>`
        : html`<input data-testid=${id} maxlength="200" placeholder=${t('people.name')} aria-label=${t('people.' + kind)}
          .value=${drafts[id] || ''} @input=${keep(id)} @keydown=${(e) => { if (e.key === 'Enter') go(); }}>`;
      return html`<div><h3>${t('people.' + kind) + (current ? ': ' : '')}${current ? html`<strong>${current}</strong>` : nothing}</h3>
      <div class="row">${f}${btn(kind + '-send', t('people.save'), go)}</div></div>`;
    }), box);
  }

  function boardBlock() {
    const you = (n) => (n === me ? html`<span class="you"> (${t('team.you')})</span>` : nothing);
    if (V.over && V.standings) {
      return html`<h2>${t('rank.title')}</h2><ol class="board">${V.standings.map((r, i) => html`<li data-testid=${'rank-' + (i + 1)}
      data-team=${r.team} class=${r.team === me ? 'me' : ''}><strong>${ordinal(r.rank)}</strong> ${teamLabel(V, r.team)} — ${num(r.score)}${you(r.team)}</li>`)}</ol>`;
    }
    return html`<h2>${t('score.title')}</h2><ul class="cards">${V.teams.map((tm) => html`<li data-testid=${'score-team-' + tm.team}
    class=${tm.team === me ? 'me' : ''}>${chip(tm.team)} ${num(tm.score)}${you(tm.team)}</li>`)}</ul>`;
  }

  function tick() {
    const el = $('team-timer');
    if (!el || !S) return;
    const c = countdown(S.timer);
    const text = V.turn.locked || c.expired ? t('timer.up') : (S.timer && S.timer.state !== 'idle' ? c.text : '');
    if (el.textContent !== text) el.textContent = text;
    el.className = 'timer' + (c.running && c.seconds <= 10 ? ' low' : '');
  }
  onTick(tick);

  function draw(state) {
    const first = !S;
    S = state;
    V = state.view;
    if (first || V.turn.number !== ui.turnNo) { ui.turnNo = V.turn.number; ui.conflict = null; }
    for (const h0 of V.history) if (h0.author) authors.add(h0.author);
    if (V.turn.author) authors.add(V.turn.author);
    for (const c of mine().cards) if (c.slice(0, 7) === 'author:') authors.add(c.slice(7));
    local.set(AUTHORS, Array.from(authors).slice(0, 300));
    // The team's sent text is this tab's draft: sent, even if its ack was lost with the
    // connection (the state that says so can come first).
    const d = draft();
    if (d && !d.sent && d.text === V.turn.written) saveDraft(d.text, true);
    if (resend && conn.online && legal(S, 'write')) {
      // Back online (or reloaded) with a draft this tab typed: sent while the writing is
      // open, unless another device of the team sent meanwhile (then kept, and said).
      const u = unsent();
      const current = V.turn.written == null ? null : V.turn.written;
      const untouched = u && (u.base === undefined || u.base === current || u.mine === current);
      if (u && !penElsewhere() && untouched) sendWrite(u.text);
      else if (u && !untouched) ui.conflict = u.text;
    }
    if (conn.online) resend = false;    // a redraw while offline leaves it for the return

    const role = $('role');
    role.textContent = roleText();
    role.setAttribute('data-role', roleOf());
    role.className = 'role' + (roleOf() === 'adjunct' ? ' idle' : '');
    const blocks = actBlocks();
    $('act').hidden = blocks.every((b) => b === nothing);
    render(blocks, $('act'));
    render(nowBlock(), $('now'));
    drawResult();
    $('my-score').textContent = num(mine().score);
    render(mineBlock(), $('mine'));
    drawExchange();
    drawSpeaker();
    render(boardBlock(), $('board'));
    tick();
  }

  const socket = conn.connect({ role: 'team', token: page.token }, draw);
  // What another device of the team is typing (one pen per team): shown read-only with "Escribir aquí".
  socket.on('draft', (d) => {
    if (!d || d.for !== 'write' || typeof d.text !== 'string' || d.writer === TAB) return;
    if (typeof d.at === 'number' && !later(d)) return;   // this tab typed after it: its pen
    ui.pen = d;
    if (S && legal(S, 'write')) {
      if (document.activeElement === writeField()) document.activeElement.blur();
      bump();
    }
  });
  // A token the server no longer takes (the game was deleted, the GM removed this device,
  // or the game ended long ago): back to the join page, even mid-game.
  socket.on('connect_error', (err) => {
    if (err && /^auth/.test(err.message || '')) window.location.href = '/join';
  });
}
