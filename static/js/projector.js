/* projector.js: the room's screen (templates/projector.html). Watches only.
 *
 * Before the game's first declaration: the join panel (QR codes, numbers,
 * names, colours, codes). Then the round, the serpentine order with the host,
 * the mode and roles, the chosen author and type, the question once read (before,
 * what the room waits for), the countdown (dimmed before the question), the verdict,
 * the written and expected answers, the awards in the countdown's place, the
 * scoreboard. The question and the reveal get the largest type that fits (fitText).
 * At the end: the podium and the ranking (ranks shared on ties).
 *
 * Test ids:
 *   (template) proj-game, round, order, sound-toggle, join-panel, join-N, join-code-N,
 *     stage (data-teams: how many), proj-turn, proj-ask (the question or the waiting
 *     sentence), countdown, proj-reveal, final, scoreboard
 *   order-N (li, class "host" on the host), proj-host, proj-mode, proj-roles,
 *   proj-waiting, proj-choice, proj-question, proj-verdict, proj-written, proj-awards,
 *   score-team-N (row; .score cell), podium, podium-N (N = 1, 2, 3 places), rank-I,
 *   final-chart (the score line of static/js/charts.js, when the state carries `results`),
 *   codes-toggle (the key "C": the join panel during the game), fullscreen ("F"), announce
 *   (the live region), proj-answer (the expected answer, when the GM shows it: issue 13)
 *   league (the class's league, when the GM shows it in a class game before the first action
 *   or after the finale: issue 15), league-sub, league-table, league-row-I, league-more
 */
(function () {
  'use strict';
  const L = window.Live;
  const { t, h } = L;
  const page = L.readJSON('page', {});
  const $ = (id) => document.getElementById(id);
  let S = null;
  let V = null;

  const teamText = (n) => L.teamText(V, n);
  const label = (n) => L.teamLabel(V, n);

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
  function renderHead() {
    $('round').textContent = V.over ? t('game.over') : t('round.n_of', { n: V.round, total: V.rounds }) +
      (V.individual ? ' · ' + t('round.individual') : '');
    L.section($('order'), JSON.stringify([V.order, V.position, V.turn.host, V.over]), () =>
      V.order.map((n, i) => h('li', {
        testid: 'order-' + n,
        class: (n === V.turn.host && !V.over ? 'host' : '') + (i < V.position || V.over ? ' done' : ''),
        title: L.teamName(V, n),
      }, L.chip(n), n === V.turn.host && !V.over ? h('span', { class: 'tname' }, L.teamName(V, n))
        : h('span', { class: 'sr-only' }, L.teamName(V, n)))));
  }

  /* ---- the codes key, fullscreen ------------------------------------------ */
  const codesBtn = $('codes');
  let codesOpen = false;
  function toggleCodes(open) {
    codesOpen = open == null ? !codesOpen : open;
    if (codesBtn) codesBtn.setAttribute('aria-pressed', String(codesOpen));
    if (S) render(S);
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
    else if (turn.verdict) text = [t('turn.verdict') + ': ' + L.verdict(turn.verdict)].concat(turn.awards.map(awardText)).join('. ');
    else text = t('proj.turn_of', { team: teamText(turn.host) });
    if (text !== lastSaid) { lastSaid = text; $('announce').textContent = text; }
  }

  /* ---- an award in words: 'María Zambrano gana la carta «Kant» (+1)' --------
   * The points are the game's own: the view gives each award as [team, what, points]
   * and the whole table as `points`, so a game with other points says its own numbers. */
  function awardPoints(what) {
    const p = V.points || {};
    const key = what === 'pifie' || what === 'consolation' || what === 'risky_bonus' ? what : 'card';
    return typeof p[key] === 'number' ? p[key] : null;
  }
  function awardText(a) {
    const [n, what] = a;
    const team = L.teamName(V, n);
    const pts = typeof a[2] === 'number' ? a[2] : awardPoints(what);
    const p = pts == null ? '' : pts > 0 ? L.signed(pts) : L.num(pts);
    if (what === 'pifie') return t('proj.award_pifie', { team: team, points: p });
    if (what === 'consolation') return t('proj.award_consolation', { team: team, points: p });
    if (what === 'risky_bonus') return t('proj.award_bonus', { team: team, points: p });
    return t('proj.award_card', { team: team, card: L.card(what), points: p });
  }

  function waitText() {
    const turn = V.turn;
    if (!turn.mode) return t('wait.declare', { team: teamText(turn.host) });
    if (!turn.author) return t('wait.choose', { team: teamText(turn.chooser) });
    if (!turn.question) return t('wait.question');
    if (!turn.verdict) {
      const c = L.countdown(S.timer);
      if (turn.secondary && (turn.locked || c.expired)) return t('proj.time_up_answer', { team: teamText(turn.primary) });
      return turn.secondary ? t('proj.deliberate_write', { team: teamText(turn.secondary), primary: teamText(turn.primary) })
        : t('wait.verdict', { team: teamText(turn.primary) });
    }
    return '';
  }

  /* ---- the turn (who, the mode, the roles, the choice), the question, the reveal ---- */
  function renderTurn() {
    const turn = V.turn;
    const stage = $('stage');
    stage.classList.toggle('revealed', !!turn.verdict);
    L.section($('turn'), S.seq + ' ' + (V.turn.locked || L.countdown(S.timer).expired), () => {
      const out = [h('div', { class: 'phost', testid: 'proj-host' }, h('span', { class: 'plabel' }, t('role.host')), label(turn.host),
        turn.mode ? h('span', { class: 'pmode', testid: 'proj-mode' }, h('strong', null, L.mode(turn.mode)),
          turn.target ? [' → ', label(turn.target)] : null) : null)];
      const roles = [];
      if (turn.mode) {
        if (turn.desvio_by) roles.push({ moment: true, kids: [L.chip(turn.first_target), h('span', null, t('proj.desvio_moment', { from: turn.first_target, to: turn.target }))] });
        roles.push([t('proj.answers_short') + ': ', label(turn.primary)]);
        if (turn.secondary) roles.push([t('proj.writes_short') + ': ', label(turn.secondary)]);
        if (turn.seguro_by) roles.push({ moment: true, kids: [L.chip(turn.seguro_by), h('span', null, t('proj.seguro_moment', { team: L.teamName(V, turn.seguro_by) }))] });
      }
      // What was played, once: the sentence under the turn says what the room waits for
      // (that the team chooses author and type), so this line does not say it again.
      if (turn.elijo_by) roles.push({ moment: true, kids: [L.chip(turn.elijo_by), h('span', null, t('played.elijo', { team: L.teamName(V, turn.elijo_by) }))] });
      if (roles.length) out.push(h('ul', { class: 'proles', testid: 'proj-roles' }, roles.map((r) =>
        (r.moment ? h('li', { class: 'moment' }, r.kids) : h('li', null, r)))));
      if (turn.author) {
        out.push(h('div', { class: 'pchoice', testid: 'proj-choice' }, h('strong', null, turn.author), ' · ', L.qtype(turn.type)));
      }
      return out;
    });
    // The question, or (before it is read) what the room waits for, in the largest type
    // that fits what the turn and the reveal leave (fitText below).
    L.section($('ask'), S.seq + ' ' + (V.turn.locked || L.countdown(S.timer).expired), () => {
      const out = [];
      if (turn.question) out.push(L.rich('blockquote', { class: 'pquestion', testid: 'proj-question' }, turn.question, page.game));
      const w = waitText();
      if (w) out.push(h('p', { class: 'pwait' + (turn.question ? '' : ' alone'), testid: 'proj-waiting' }, w));
      return out;
    });
    L.section($('reveal'), S.seq + (S.shown_answer ? ' answer' : ''), () => {
      const out = [];
      if (turn.verdict) {
        out.push(h('div', { class: 'pverdict v-' + turn.verdict, testid: 'proj-verdict' },
          h('span', { class: 'plabel' }, t('turn.verdict')), h('strong', null, L.verdict(turn.verdict))));
        if (turn.secondary) {
          const text = turn.written != null && turn.written.trim() ? turn.written : t('written.none');
          const vf = turn.type === 'vf' && L.has('write.vf.' + text.trim().toUpperCase());
          out.push(h('div', { class: 'pwritten' + (text.length <= 60 ? ' short' : ''), testid: 'proj-written' },
            h('span', { class: 'plabel' }, t('written.by', { team: teamText(turn.secondary) })),
            h('div', { class: 'ptext' }, vf ? t('write.vf.' + text.trim().toUpperCase()) : text),
            turn.written_correct != null ? h('span', { class: 'badge ' + (turn.written_correct ? 'ok' : 'ko') },
              t(turn.written_correct ? 'written.correct' : 'written.incorrect')) : null,
            turn.argument ? [' ', h('span', { class: 'badge' }, t('argument.' + turn.argument))] : null));
        }
        if (S.shown_answer) {
          const a = S.shown_answer;
          out.push(h('div', { class: 'panswer', testid: 'proj-answer' }, h('span', { class: 'plabel' }, t('proj.expected_answer')),
            a.html ? L.rich('div', { class: 'ptext' }, { text: a.text, html: a.html }, page.game) : h('div', { class: 'ptext' }, a.text)));
        }
      }
      return out;
    });
    // The awards of the verdict, in the clock's place: what changed, for whom.
    L.section($('awards'), S.seq, () => {
      if (!turn.verdict || !turn.awards.length) return [];
      return h('ul', { class: 'pawards', testid: 'proj-awards' }, turn.awards.map((a) => {
        const points = typeof a[2] === 'number' ? a[2] : awardPoints(a[1]);
        const text = awardText(a);
        const m = /^(.*?)\s*(\([^()]*\))$/.exec(text);
        return h('li', { class: points != null && points < 0 ? 'neg' : 'pos' }, L.chip(a[0]),
          h('span', null, m ? [m[1], ' ', h('span', { class: 'pts' }, m[2])] : text));
      }));
    });
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
    const shown = boxes.filter((b) => b.offsetParent && b.firstChild);
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
  function renderBoard() {
    L.section($('board'), String(S.seq), () => h('table', { class: 'pscores' },
      h('caption', { class: 'sr-only' }, t('score.title')),
      h('thead', null, h('tr', null, [['rank.team', ''], ['rank.score', 'num'], ['score.cards', 'num'], ['score.pifies', 'num'], ['proj.specials', 'num']]
        .map(([k, c]) => h('th', { scope: 'col', class: c || null }, t(k))))),
      h('tbody', null, V.teams.map((tm) => h('tr', { testid: 'score-team-' + tm.team, class: tm.team === V.turn.host && !V.over ? 'host' : '' },
        h('td', { title: tm.name }, label(tm.team), tm.markers.length ? h('div', { class: 'pmarkers', title: t('score.markers') },
          tm.markers.map((m) => h('span', { class: 'badge' }, L.mode(m)))) : null),
        h('td', { class: 'num score' }, L.num(tm.score)),
        h('td', { class: 'num' }, String(tm.cards.length)),
        h('td', { class: 'num' }, String(tm.pifies)),
        h('td', { class: 'psp', title: ['desvio', 'seguro', 'elijo'].map((c) => L.special(c) + ' ' + (tm.special[c] || 0)).join(' · ') },
          String(['desvio', 'seguro', 'elijo'].reduce((sum, c) => sum + (tm.special[c] || 0), 0))))))));
  }

  function renderFinal() {
    const rows = V.standings || [];
    L.section($('final'), String(S.seq), () => {
      const top = rows.slice(0, 3);
      const podium = h('div', { class: 'podium', testid: 'podium' }, [1, 0, 2].filter((i) => top[i]).map((i) => {
        const r = top[i];
        return h('div', { class: 'step p' + Math.min(r.rank, 3), testid: 'podium-' + (i + 1), 'data-team': r.team },
          h('div', { class: 'who' }, label(r.team)),
          h('div', { class: 'pts' }, L.num(r.score)),
          h('div', { class: 'block' }, String(r.rank)));
      }));
      const ranking = h('ol', { class: 'pranking' }, rows.map((r, i) => h('li', { testid: 'rank-' + (i + 1), 'data-team': r.team, 'data-rank': r.rank },
        h('span', { class: 'prank' }, L.ordinal(r.rank)), label(r.team), h('span', { class: 'pts' }, L.num(r.score)),
        h('span', { class: 'small' }, t('proj.final_detail', { cards: r.cards, pifies: r.pifies })))));
      const charts = !!(S.results && S.results.timeline && window.Charts);
      return [h('h2', null, t('rank.title')), h('div', { class: 'pfinalgrid' + (charts ? ' with-chart' : '') },
        h('div', null, podium, ranking),
        charts ? h('div', { class: 'pchart', id: 'final-chart', testid: 'final-chart' }) : null)];
    });
    // The score line of the whole game (results.timeline), drawn by charts.js once per state.
    const box = $('final-chart');
    if (box && box._drawn !== S.seq) {
      box._drawn = S.seq;
      try {
        window.Charts.scoreLine(box, S.results.timeline, { title: t('results.chart_scores'), round: t('results.round'), turn: t('results.turn') });
      } catch (e) { box.hidden = true; }
    }
  }

  function tick() {
    if (!S) return;
    const c = L.countdown(S.timer);
    const el = $('countdown');
    // Until the verdict: before the question is read, dimmed, the time the room will have.
    const show = !V.turn.verdict;
    const pending = !V.turn.question;
    el.textContent = show ? (c.state === 'idle' || pending ? L.countdown({ state: 'idle', seconds: V.deliberation_seconds + (V.turn.extra_seconds || 0) }).text : c.text) : '';
    el.className = 'countdown ' + (pending ? 'idle pending' : c.state + (c.running && c.seconds <= 10 ? ' low' : '') + (c.expired || V.turn.locked ? ' expired' : ''));
    el.parentNode.hidden = !show;
    // Beep once when a countdown seen running reaches zero.
    if (c.running) wasRunning = true;
    else if (wasRunning && c.expired && show) { wasRunning = false; beep(3); } else if (!c.expired) wasRunning = false;
  }
  L.onTick(tick);

  /** Under each team's code, how many of its devices have joined (live, from `devices`). */
  function renderJoined() {
    const devices = S.devices || {};
    document.querySelectorAll('[data-testid^="joined-"]').forEach((el) => {
      const n = devices[el.dataset.testid.slice('joined-'.length)] || 0;
      const text = n ? t(n === 1 ? 'proj.joined_one' : 'proj.joined', { n: n }) : t('proj.joined_none');
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle('in', n > 0);
    });
  }

  /* ---- the class's league (issue 15): before the first action, after the finale ---- */
  function renderLeague(lg) {
    L.section($('league'), JSON.stringify([lg, V.teams.map((tm) => tm.name)]), () => {
      const teams = lg.by === 'teams';
      const head = teams ? [['proj.league_rank', 'rank'], ['proj.league_team', 'who'], ['proj.league_points', 'num']]
        : [['proj.league_rank', 'rank'], ['proj.league_student', 'who'], ['proj.league_played', 'num'], ['proj.league_points', 'num']];
      const games = lg.games === 0 ? t('proj.league_games_none')
        : lg.games === 1 ? t('proj.league_games_one') : t('proj.league_games', { n: lg.games });
      const rows = lg.rows || [];
      return [
        h('div', { class: 'pleaguehead' },
          h('h2', { id: 'league-title' }, t('proj.league_title')),
          h('p', { class: 'pleaguesub', testid: 'league-sub' }, teams ? [t('proj.league_by_teams'), ' · ', games] : games)),
        h('table', { class: 'pleaguetable ' + (teams ? 'by-teams' : 'by-students') + (rows.length > 6 ? ' many' : ''), testid: 'league-table' },
          h('caption', { class: 'sr-only' }, t('proj.league_title')),
          h('thead', null, h('tr', null, head.map(([k, c]) => h('th', { scope: 'col', class: c }, t(k))))),
          h('tbody', null, rows.map((r, i) => h('tr', { testid: 'league-row-' + (i + 1), 'data-rank': r.rank, class: r.rank <= 3 ? 'top top' + r.rank : null },
            h('td', { class: 'rank' }, L.ordinal(r.rank)),
            // One line per row, however long the name: a name that does not fit ends in "…".
            h('td', { class: 'who' }, h('div', { class: 'lwho' }, r.team ? L.chip(r.team) : null,
              h('span', { class: 'lname', title: r.name }, r.name))),
            teams ? null : h('td', { class: 'num' }, String(r.games)),
            h('td', { class: 'num pts' }, L.num(r.points)))))),
        lg.more ? h('p', { class: 'pleaguemore', testid: 'league-more' }, t('proj.league_more', { n: lg.more })) : null,
      ];
    });
  }

  function render(state) {
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
    if (joining && !league) renderJoined();
    if (league) renderLeague(league);
    renderHead();
    $('stage').dataset.teams = String(V.teams.length);
    if (!lobby && !V.over) renderTurn();
    if (V.over && !league) renderFinal();
    renderBoard();
    announce();
    tick();
    fitAll();
  }

  L.connect({ role: 'projector', watch: page.watch }, render);
}());
