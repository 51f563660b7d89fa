/* projector.js: the room's screen (templates/projector.html), an ES module composing lib/.
 * Watches only.
 *
 * Before the game's first declaration: the join panel (QR codes, numbers, names, colours,
 * codes). Then the round, the serpentine order with the host, the mode and roles, the
 * chosen author and type, the question once read (before, what the room waits for), the
 * countdown (dimmed before the question), the verdict, the written and expected answers,
 * the awards in the countdown's place, the scoreboard. The question and the reveal get the
 * largest type that fits (fitText). At the end: the podium and the ranking (ranks shared on
 * ties), the score line (static/js/lib/charts.js) when the state carries `results`; the class's
 * league when the GM shows it (issue 15).
 *
 * Test ids: those of the template, and order-N, proj-host, proj-mode, proj-roles,
 * proj-waiting, proj-choice, proj-question, proj-verdict, proj-written, proj-answer,
 * proj-awards, score-team-N, podium, podium-N, rank-I, final-chart, league-sub,
 * league-table, league-row-I, league-more.
 */
import { html, render, nothing, $, rich } from '../../lib/dom.js';
import { W, readJSON } from '../../lib/words.js';
import { connection } from '../../lib/connection.js';
import { countdown, onTick } from '../../lib/timer.js';
import { chip, teamLabel, teamName, teamText as teamTextOf, offlineBanner } from '../../lib/widgets.js';
import { mode, qtype, special, verdict, awardPoints, awardText as awardTextOf, SPECIALS } from './turn_words.js';
import { scoreLine } from '../../lib/charts.js';

/** Draw the projector's screen of the game and keep it live (the page calls it through lib/start.js). */
export function start() {
  const { t, has, num, ordinal, plural } = W;
  const page = readJSON('page', {});
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  let S = null;
  let V = null;

  const teamText = (n) => teamTextOf(V, n);
  const label = (n) => teamLabel(V, n);
  const awardText = (a) => awardTextOf(V, a);
  const missing = t('question.image_missing');

  /* ---- sound: a beep when time is up (Web Audio, no file) ---------------- */
  let audio = null;
  let soundOn = false;
  let wasRunning = false;
  const soundBtn = $('sound');
  soundBtn.addEventListener('click', () => {
    soundOn = !soundOn;
    if (soundOn && !audio) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (Ctx) audio = new Ctx();
    }
    if (audio && audio.state === 'suspended') audio.resume();
    soundBtn.textContent = t(soundOn ? 'proj.sound_on' : 'proj.sound_off');
    soundBtn.setAttribute('aria-pressed', String(soundOn));
    document.body.classList.toggle('sound-ask', !soundOn);
    if (soundOn) beep(1);
  });
  function beep(times) {
    if (!soundOn || !audio) return;
    const now = audio.currentTime;
    for (let i = 0; i < times; i++) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = i === times - 1 ? 660 : 880;
      const start = now + i * 0.35;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.4, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + (i === times - 1 ? 0.6 : 0.25));
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.7);
    }
  }

  /* ---- header ------------------------------------------------------------ */
  function drawHead() {
    $('round').textContent = V.over ? t('game.over') : t('round.n_of', { n: V.round, total: V.rounds }) +
      (V.individual ? ' · ' + t('round.individual') : '');
    const host = (n) => n === V.turn.host && !V.over;
    render(V.order.map((n, i) => html`<li data-testid=${'order-' + n} class=${(host(n) ? 'host' : '') + (i < V.position || V.over ? ' done' : '')}
    title=${teamName(V, n)}>${chip(n)}<span class=${host(n) ? 'tname' : 'sr-only'}>${teamName(V, n)}</span></li>`), $('order'));
  }

  /* ---- the codes key, fullscreen ------------------------------------------ */
  const codesBtn = $('codes');
  let codesOpen = false;
  function toggleCodes(open) {
    codesOpen = open == null ? !codesOpen : open;
    if (codesBtn) codesBtn.setAttribute('aria-pressed', String(codesOpen));
    if (S) draw(S);
  }
  if (codesBtn) codesBtn.addEventListener('click', () => toggleCodes());
  document.addEventListener('keydown', (e) => {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (e.key === 'c' || e.key === 'C') toggleCodes();
    else if (e.key === 'Escape' && codesOpen) toggleCodes(false);
    else if (e.key === 'f' || e.key === 'F') fullscreen();
  });
  function fullscreen() {
    const d = document;
    if (d.fullscreenElement) { if (d.exitFullscreen) d.exitFullscreen(); } else if (d.documentElement.requestFullscreen) {
      d.documentElement.requestFullscreen().catch(() => {});
    }
  }
  $('fullscreen').addEventListener('click', fullscreen);

  /* ---- the live region: the turn and its results, in words ------------------ */
  let lastSaid = '';
  function announce() {
    const turn = V.turn;
    let text;
    if (S.league) text = t('proj.league_title');
    else if (V.over) text = t('game.over');
    else if (turn.verdict) text = [t('turn.verdict') + ': ' + verdict(turn.verdict)].concat(turn.awards.map(awardText)).join('. ');
    else text = t('proj.turn_of', { team: teamText(turn.host) });
    if (text !== lastSaid) { lastSaid = text; $('announce').textContent = text; }
  }

  function waitText() {
    const turn = V.turn;
    if (!turn.mode) return t('wait.declare', { team: teamText(turn.host) });
    if (!turn.author) return t('wait.choose', { team: teamText(turn.chooser) });
    if (!turn.question) return t('wait.question');
    if (!turn.verdict) {
      if (turn.secondary && (turn.locked || countdown(S.timer).expired)) return t('proj.time_up_answer', { team: teamText(turn.primary) });
      return turn.secondary ? t('proj.deliberate_write', { team: teamText(turn.secondary), primary: teamText(turn.primary) })
        : t('wait.verdict', { team: teamText(turn.primary) });
    }
    return '';
  }

  /* ---- the turn (who, the mode, the roles, the choice), the question, the reveal ---- */
  function drawTurn() {
    const turn = V.turn;
    $('stage').classList.toggle('revealed', !!turn.verdict);
    const moment = (n, text) => html`<li class="moment">${chip(n)}<span>${text}</span></li>`;
    const roles = [];
    if (turn.mode) {
      if (turn.desvio_by) roles.push(moment(turn.first_target, t('proj.desvio_moment', { from: turn.first_target, to: turn.target })));
      roles.push(html`<li>${t('proj.answers_short')}: ${label(turn.primary)}</li>`);
      if (turn.secondary) roles.push(html`<li>${t('proj.writes_short')}: ${label(turn.secondary)}</li>`);
      if (turn.seguro_by) roles.push(moment(turn.seguro_by, t('proj.seguro_moment', { team: teamName(V, turn.seguro_by) })));
    }
    // What was played, once: the sentence under the turn says what the room waits for
    // (that the team chooses author and type), so this line does not say it again.
    if (turn.elijo_by) roles.push(moment(turn.elijo_by, t('played.elijo', { team: teamName(V, turn.elijo_by) })));
    render(html`<div class="phost" data-testid="proj-host"><span class="plabel">${t('role.host')}</span>${label(turn.host)}${
      turn.mode ? html`<span class="pmode" data-testid="proj-mode"><strong>${mode(turn.mode)}</strong>${turn.target ? html` → ${label(turn.target)}` : nothing}</span>` : nothing}</div>
    ${roles.length ? html`<ul class="proles" data-testid="proj-roles">${roles}</ul>` : nothing}
    ${turn.author ? html`<div class="pchoice" data-testid="proj-choice"><strong>${turn.author}</strong> · ${qtype(turn.type)}</div>` : nothing}`, $('turn'));
    // The question, or (before it is read) what the room waits for, in the largest type
    // that fits what the turn and the reveal leave (fitText below).
    const w = waitText();
    render(html`${turn.question ? rich('blockquote', 'pquestion', 'proj-question', turn.question, page.game, 'html', missing) : nothing}${
      w ? html`<p class=${'pwait' + (turn.question ? '' : ' alone')} data-testid="proj-waiting">${w}</p>` : nothing}`, $('ask'));
    render(turn.verdict ? revealBlock() : nothing, $('reveal'));
    // The awards of the verdict, in the clock's place: what changed, for whom.
    render(turn.verdict && turn.awards.length ? html`<ul class="pawards" data-testid="proj-awards">${turn.awards.map((a) => {
      const points = awardPoints(V, a);
      const text = awardText(a);
      const m = /^(.*?)\s*(\([^()]*\))$/.exec(text);
      return html`<li class=${points != null && points < 0 ? 'neg' : 'pos'}>${chip(a[0])}<span>${m ? html`${m[1]} <span class="pts">${m[2]}</span>` : text}</span></li>`;
    })}</ul>` : nothing, $('awards'));
  }

  function revealBlock() {
    const turn = V.turn;
    let written = nothing;
    if (turn.secondary) {
      const text = turn.written != null && turn.written.trim() ? turn.written : t('written.none');
      const vf = turn.type === 'vf' && has('write.vf.' + text.trim().toUpperCase());
      written = html`<div class=${'pwritten' + (text.length <= 60 ? ' short' : '')} data-testid="proj-written">
      <span class="plabel">${t('written.by', { team: teamText(turn.secondary) })}</span><div class="ptext">${vf ? t('write.vf.' + text.trim().toUpperCase()) : text}</div>${
    turn.written_correct != null ? html`<span class=${'badge ' + (turn.written_correct ? 'ok' : 'ko')}>${t(turn.written_correct ? 'written.correct' : 'written.incorrect')}</span>` : nothing}${
    turn.argument ? html` <span class="badge">${t('argument.' + turn.argument)}</span>` : nothing}</div>`;
    }
    const a = S.shown_answer;
    return html`<div class=${'pverdict v-' + turn.verdict} data-testid="proj-verdict"><span class="plabel">${t('turn.verdict')}</span><strong>${verdict(turn.verdict)}</strong></div>
    ${written}${a ? html`<div class="panswer" data-testid="proj-answer"><span class="plabel">${t('proj.expected_answer')}</span>${
    a.html ? rich('div', 'ptext', null, { text: a.text, html: a.html }, page.game, 'html', missing) : html`<div class="ptext">${a.text}</div>`}</div>` : nothing}`;
  }

  /* ---- type that fills its box --------------------------------------------------
   * The question (or the waiting sentence) and the reveal share the left column; the awards
   * have the clock's place. Each group gets the largest font size, between the bounds of the
   * moment (in rem), at which everything in its boxes shows whole: nothing cut, no scroll. */
  const FIT = {
    waiting: [0.9, 2.4],      // no question yet: what the room waits for
    asked: [0.9, 2.6],        // the question: the largest text after the clock
    revealed: [0.7, 2.8],     // the question, the verdict, the written and the expected answers
    awards: [0.6, 1.35],
  };
  /** Set --fit on `host` to the largest size (px, within `range` in rem) at which every
   *  shown box of `boxes` holds its content whole; returns that size. */
  function fitText(host, boxes, range) {
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const shown = boxes.filter((b) => b.offsetParent && b.firstElementChild);
    const whole = () => shown.every((b) => b.scrollHeight <= b.clientHeight + 1 && b.scrollWidth <= b.clientWidth + 1);
    let lo = range[0] * rem;
    let hi = range[1] * rem;
    const set = (px) => host.style.setProperty('--fit', px.toFixed(1) + 'px');
    set(hi);
    if (!shown.length || whole()) return hi;
    while (hi - lo > 0.5) {
      const mid = (lo + hi) / 2;
      set(mid);
      if (whole()) lo = mid; else hi = mid;
    }
    set(lo);
    return lo;
  }
  let fitting = 0;
  /** Fit the left column (by the moment of the turn) and the awards. */
  function fitAll() {
    fitting = 0;
    if (!V || $('stage').hidden) return;
    const turn = V.turn;
    const moment = turn.verdict ? 'revealed' : turn.question ? 'asked' : 'waiting';
    fitText($('stage').querySelector('.pmain'), [$('ask'), $('reveal')], FIT[moment]);
    fitText($('awards'), [$('awards')], FIT.awards);
  }
  function refit() { if (!fitting) fitting = requestAnimationFrame(fitAll); }
  window.addEventListener('resize', refit);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(refit);
  // Formatted questions and answers arrive later (fetched) and images load later: fit again.
  const later = new MutationObserver(refit);
  ['ask', 'reveal'].forEach((id) => later.observe($(id), { childList: true, subtree: true, characterData: true }));
  $('stage').addEventListener('load', refit, true);

  /* ---- scoreboard and final ranking ---------------------------------------- */
  function drawBoard() {
    const cols = [['rank.team', ''], ['rank.score', 'num'], ['score.cards', 'num'], ['score.pifies', 'num'], ['proj.specials', 'num']];
    render(html`<table class="pscores"><caption class="sr-only">${t('score.title')}</caption>
    <thead><tr>${cols.map(([k, c]) => html`<th scope="col" class=${c || nothing}>${t(k)}</th>`)}</tr></thead>
    <tbody>${V.teams.map((tm) => html`<tr data-testid=${'score-team-' + tm.team} class=${tm.team === V.turn.host && !V.over ? 'host' : ''}>
      <td title=${tm.name}>${label(tm.team)}${tm.markers.length ? html`<div class="pmarkers" title=${t('score.markers')}>${
    tm.markers.map((m) => html`<span class="badge">${mode(m)}</span>`)}</div>` : nothing}</td>
      <td class="num score">${num(tm.score)}</td><td class="num">${tm.cards.length}</td><td class="num">${tm.pifies}</td>
      <td class="psp" title=${SPECIALS.map((c) => special(c) + ' ' + (tm.special[c] || 0)).join(' · ')}>${
    SPECIALS.reduce((sum, c) => sum + (tm.special[c] || 0), 0)}</td></tr>`)}</tbody></table>`, $('board'));
  }

  function drawFinal() {
    const rows = V.standings || [];
    const top = rows.slice(0, 3);
    const charts = !!(S.results && S.results.timeline);
    render(html`<h2>${t('rank.title')}</h2><div class=${'pfinalgrid' + (charts ? ' with-chart' : '')}><div>
    <div class="podium" data-testid="podium">${[1, 0, 2].filter((i) => top[i]).map((i) => html`<div class=${'step p' + Math.min(top[i].rank, 3)}
      data-testid=${'podium-' + (i + 1)} data-team=${top[i].team}><div class="who">${label(top[i].team)}</div>
      <div class="pts">${num(top[i].score)}</div><div class="block">${top[i].rank}</div></div>`)}</div>
    <ol class="pranking">${rows.map((r, i) => html`<li data-testid=${'rank-' + (i + 1)} data-team=${r.team} data-rank=${r.rank}>
      <span class="prank">${ordinal(r.rank)}</span>${label(r.team)}<span class="pts">${num(r.score)}</span>
      <span class="small">${t('proj.final_detail', { cards: r.cards, pifies: r.pifies })}</span></li>`)}</ol></div>
    ${charts ? html`<div class="pchart" id="final-chart" data-testid="final-chart"></div>` : nothing}</div>`, $('final'));
    // The score line of the whole game (results.timeline), drawn once per state.
    const box = $('final-chart');
    if (box && box._drawn !== S.seq) {
      box._drawn = S.seq;
      try {
        // Read from the back row: the words and numbers at twice and a half their size.
        scoreLine(box, S.results.timeline, { title: t('results.chart_scores'), round: t('results.round'),
          turn: t('results.turn'), big: 2.5 });
      } catch (e) { box.hidden = true; }
    }
  }

  function tick() {
    if (!S) return;
    const c = countdown(S.timer);
    const el = $('countdown');
    // Until the verdict: before the question is read, dimmed, the time the room will have.
    const show = !V.turn.verdict;
    const ahead = !V.turn.question;
    el.textContent = show ? (c.state === 'idle' || ahead ? countdown({ state: 'idle', seconds: V.deliberation_seconds + (V.turn.extra_seconds || 0) }).text : c.text) : '';
    el.className = 'countdown ' + (ahead ? 'idle pending' : c.state + (c.running && c.seconds <= 10 ? ' low' : '') + (c.expired || V.turn.locked ? ' expired' : ''));
    el.parentNode.hidden = !show;
    // Beep once when a countdown seen running reaches zero.
    if (c.running) wasRunning = true;
    else if (wasRunning && c.expired && show) { wasRunning = false; beep(3); } else if (!c.expired) wasRunning = false;
  }
  onTick(tick);

  /** Under each team's code, how many of its devices have joined (live, from `devices`). */
  function drawJoined() {
    const devices = S.devices || {};
    document.querySelectorAll('[data-testid^="joined-"]').forEach((el) => {
      const n = devices[el.dataset.testid.slice('joined-'.length)] || 0;
      const text = plural('proj.joined', n);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle('in', n > 0);
    });
  }

  /* ---- the class's league (issue 15): before the first action, after the finale ---- */
  function drawLeague(lg) {
    const teams = lg.by === 'teams';
    const head = teams ? [['proj.league_rank', 'rank'], ['proj.league_team', 'who'], ['proj.league_points', 'num']]
      : [['proj.league_rank', 'rank'], ['proj.league_student', 'who'], ['proj.league_played', 'num'], ['proj.league_points', 'num']];
    const games = plural('proj.league_games', lg.games);
    const rows = lg.rows || [];
    render(html`<div class="pleaguehead"><h2 id="league-title">${t('proj.league_title')}</h2>
    <p class="pleaguesub" data-testid="league-sub">${teams ? [t('proj.league_by_teams'), ' · ', games] : games}</p></div>
    <table class=${'pleaguetable ' + (teams ? 'by-teams' : 'by-students') + (rows.length > 6 ? ' many' : '')} data-testid="league-table">
      <caption class="sr-only">${t('proj.league_title')}</caption>
      <thead><tr>${head.map(([k, c]) => html`<th scope="col" class=${c}>${t(k)}</th>`)}</tr></thead>
      <tbody>${rows.map((r, i) => html`<tr data-testid=${'league-row-' + (i + 1)} data-rank=${r.rank} class=${r.rank <= 3 ? 'top top' + r.rank : nothing}>
        <td class="rank">${ordinal(r.rank)}</td>
        <td class="who"><div class="lwho">${r.team ? chip(r.team) : nothing}<span class="lname" title=${r.name}>${r.name}</span></div></td>
        ${teams ? nothing : html`<td class="num">${r.games}</td>`}<td class="num pts">${num(r.points)}</td></tr>`)}</tbody></table>
    ${lg.more ? html`<p class="pleaguemore" data-testid="league-more">${t('proj.league_more', { n: lg.more })}</p>` : nothing}`, $('league'));
  }

  function draw(state) {
    S = state;
    V = state.view;
    const lobby = !V.over && V.turn.number === 1 && !V.turn.mode;
    const joining = lobby || (codesOpen && !V.over);
    // Issue 15: the class's league, over the lobby or the finale (the codes key still
    // brings up the join panel over it before the game).
    const league = S.league && (lobby || V.over) && !(codesOpen && !V.over) ? S.league : null;
    $('league').hidden = !league;
    $('join').hidden = !joining || !!league;
    $('stage').hidden = lobby || V.over;
    $('final').hidden = !V.over || !!league;
    $('order').hidden = V.over || !!league;
    document.body.classList.toggle('joining', lobby && !league);
    document.body.classList.toggle('showing-league', !!league);
    document.body.classList.toggle('codes-open', joining && !lobby);
    document.body.classList.toggle('sound-ask', !soundOn);
    if (codesBtn) codesBtn.hidden = (lobby && !S.league) || V.over;
    if (joining && !league) drawJoined();
    if (league) drawLeague(league);
    drawHead();
    $('stage').dataset.teams = String(V.teams.length);
    if (!lobby && !V.over) drawTurn();
    if (V.over && !league) drawFinal();
    drawBoard();
    announce();
    tick();
    fitAll();
  }

  conn.connect({ role: 'projector', watch: page.watch }, draw);
}
